"""Record Paddle 3.3.1's remaining ``paddle.nn`` names (the fixed-mode padding layers, the
torch-style aliases, the legacy ``BatchNorm``, ``SyncBatchNorm``, ``SpectralNorm``,
``nn.utils.weight_norm`` / ``spectral_norm``, ``MultiLabelMarginLoss``,
``FractionalMaxPool2D/3D``, ``initializer.Bilinear`` and the Layer methods ``full``,
``sharded_state_dict``, ``get_extra_state``, ``xpu``) as goldens for
tests/test_nn_more_layers.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_nn_more.py

Writes tests/goldens/nn_more.json in record_nn_layers.py's format (the same prelude: ``inp``,
``load``, ``fb``); each case runs in a fresh unique-name scope and leaves its result in ``out``.
"""
import os
import sys
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))


from layercase import record  # noqa: E402

OUT = os.path.join(ROOT, "tests", "goldens", "nn_more.json")

from record_nn_layers import PRELUDE  # noqa: E402  (the same helpers: inp, load, fb)

CASES = []


def case(cid, code, ref=None):
    """``ref``: what Paddle runs instead of ``code`` where its CPU build has no kernel for the
    API (a composition with the same meaning); the test runs ``code``."""
    CASES.append((cid, code.strip("\n"), ref and ref.strip("\n")))


# ------------------------------------------------------------------ padding layers
for dims, shape in ((1, (2, 3, 5)), (2, (1, 2, 4, 5)), (3, (1, 2, 3, 4, 5))):
    pads = [1, 2, 2, 1, 1, 2][:2 * dims]
    for cls in ("Constant", "Reflection", "Replication", "Circular", "Zero"):
        args = f"{pads}, 0.5" if cls == "Constant" else f"{pads}"
        case(f"pad_{cls.lower()}{dims}d", f"""
m = nn.{cls}Pad{dims}D({args})
out = [m, fb(m, inp{shape})]""")
case("pad_int_and_tuple", """
out = [nn.ConstantPad2D(1, 2.0), nn.ReflectionPad1D((1, 2)), nn.CircularPad3D(1, name='c'),
       nn.ReplicationPad2D([1, 0, 2, 1], data_format='NHWC'), nn.ZeroPad3D(2)]""")
case("pad_channel_last", """
m = nn.ReplicationPad1D([2, 1], data_format='NLC')
n = nn.ConstantPad2D([1, 0, 0, 2], -1.0, data_format='NHWC')
out = [fb(m, inp(2, 4, 3)), fb(n, inp(1, 3, 2, 2, seed=3))]""")
case("pad_constant_needs_value", "out = nn.ConstantPad1D(1)")
case("pad_torch_names", """
out = [nn.ConstantPad1d is nn.ConstantPad1D, nn.ConstantPad2d is nn.ConstantPad2D,
       nn.ConstantPad3d is nn.ConstantPad3D, nn.ReflectionPad1d is nn.ReflectionPad1D,
       nn.ReflectionPad2d is nn.ReflectionPad2D, nn.ReflectionPad3d is nn.ReflectionPad3D,
       nn.ReplicationPad1d is nn.ReplicationPad1D, nn.ReplicationPad2d is nn.ReplicationPad2D,
       nn.ReplicationPad3d is nn.ReplicationPad3D, nn.CircularPad1d is nn.CircularPad1D,
       nn.CircularPad2d is nn.CircularPad2D, nn.CircularPad3d is nn.CircularPad3D,
       nn.ZeroPad1d is nn.ZeroPad1D, nn.ZeroPad2d is nn.ZeroPad2D, nn.ZeroPad3d is nn.ZeroPad3D,
       issubclass(nn.ReflectionPad2D, nn.Pad2D), issubclass(nn.ZeroPad1D, nn.Pad1D),
       issubclass(nn.CircularPad3D, nn.Pad3D)]""")

# ------------------------------------------------------------------ torch-style aliases
case("alias_identities", """
out = [nn.AdaptiveAvgPool1d is nn.AdaptiveAvgPool1D, nn.AdaptiveAvgPool2d is nn.AdaptiveAvgPool2D,
       nn.AdaptiveAvgPool3d is nn.AdaptiveAvgPool3D, nn.MaxUnpool1d is nn.MaxUnPool1D,
       nn.MaxUnpool2d is nn.MaxUnPool2D, nn.MaxUnpool3d is nn.MaxUnPool3D,
       nn.HuberLoss is nn.SmoothL1Loss, nn.UpsamplingBilinear2d is nn.UpsamplingBilinear2D,
       nn.UpsamplingNearest2d is nn.UpsamplingNearest2D,
       nn.spectral_norm is nn.utils.spectral_norm]""")
case("alias_huber_loss", """
m = nn.HuberLoss(delta=0.5)
out = [m, fb(m, inp(3, 4), inp(3, 4, seed=2, grad=False))]""")
case("alias_maxunpool", """
x = inp(1, 2, 4, 4)
y, idx = F.max_pool2d(x, 2, return_mask=True)
out = [nn.MaxUnpool2d(2), nn.MaxUnpool2d(2)(y, idx), nn.AdaptiveAvgPool1d(2)(inp(1, 2, 5))]""")
case("alias_functional", """
x = inp(2, 3, grad=False)    # Paddle 3.3.1's diag_embed output never needs grad
with F.sdp_kernel(enable_math=True):
    d = F.diag_embed(x, 1)
out = [d, F.pdist(inp(4, 3))]""")

# ------------------------------------------------------------------ legacy BatchNorm
case("batchnorm_params", """
m = nn.BatchNorm(3)
out = [m, [(n, p.name, p.shape, p.stop_gradient) for n, p in m.named_parameters()],
       list(m.state_dict()), [n for n, _ in m.named_buffers()]]""")
case("batchnorm_names", """
m = nn.BatchNorm(2, moving_mean_name='mm', moving_variance_name='mv',
                 param_attr=paddle.ParamAttr(name='ww'), bias_attr=paddle.ParamAttr(name='bb'))
out = [(n, p.name) for n, p in m.named_parameters()]""")
case("batchnorm_train_act", """
m = load(nn.BatchNorm(3, act='relu'))
r = fb(m, inp(4, 3, 2, 2))
out = [r, m._mean, m._variance]""")
case("batchnorm_train_2d_tanh", """
m = load(nn.BatchNorm(4, act='tanh', momentum=0.8, epsilon=1e-3))
r = fb(m, inp(5, 4))
out = [r, m._mean, m._variance]""")
case("batchnorm_eval", """
m = load(nn.BatchNorm(3))
m.eval()
r = fb(m, inp(2, 3, 4))
out = [r, m._mean, m._variance]""")
case("batchnorm_nhwc", """
m = load(nn.BatchNorm(3, data_layout='NHWC'))
r = fb(m, inp(2, 2, 2, 3))
out = [r, m._mean, m._variance]""")
case("batchnorm_global_stats", """
m = load(nn.BatchNorm(3, use_global_stats=True))
r = fb(m, inp(2, 3, 2))
out = [r, m._mean, m._variance]""")
case("batchnorm_trainable_statistics_eval", """
m = load(nn.BatchNorm(3, trainable_statistics=True))
m.eval()
r = fb(m, inp(4, 3, 2))
out = [r, m._mean, m._variance]""")
case("batchnorm_float64", """
m = load(nn.BatchNorm(2, dtype='float64'))
out = [m.weight.dtype == paddle.float64, fb(m, inp(3, 2, 2, dtype='float64'))[0]]""")

# ------------------------------------------------------------------ SyncBatchNorm
# Paddle's CPU build has no sync_batch_norm kernel (RuntimeError); on one process it is the
# BatchNorm*D of the same rank, which is what Paddle runs for these goldens (``ref``).
case("syncbn_train", """
m = load(nn.SyncBatchNorm(3))
r = fb(m, inp(4, 3, 2, 2))
out = [m, r, m._mean, m._variance, list(m.state_dict())]""", ref="""
m = load(nn.BatchNorm2D(3))
r = fb(m, inp(4, 3, 2, 2))
out = [nn.SyncBatchNorm(3), r, m._mean, m._variance, list(m.state_dict())]""")
case("syncbn_eval_ncl", """
m = load(nn.SyncBatchNorm(2, data_format='NCL'))
m.eval()
out = fb(m, inp(3, 2, 4))""", ref="""
m = load(nn.BatchNorm1D(2, data_format='NCL'))
m.eval()
out = fb(m, inp(3, 2, 4))""")
case("syncbn_nhwc", """
m = load(nn.SyncBatchNorm(3, momentum=0.5, data_format='NHWC'))
r = fb(m, inp(2, 2, 2, 3))
out = [r, m._mean]""", ref="""
m = load(nn.BatchNorm2D(3, momentum=0.5, data_format='NHWC'))
r = fb(m, inp(2, 2, 2, 3))
out = [r, m._mean]""")
case("syncbn_cpu_kernel", """
m = nn.SyncBatchNorm(2)
out = m(inp(2, 2, 3))""", ref="""
out = RuntimeError('Paddle 3.3.1 CPU: no sync_batch_norm kernel')""")
case("syncbn_bad_format", """
m = nn.SyncBatchNorm(3, data_format='CHWN')
out = m(inp(2, 3, 2, 2))""")
case("syncbn_convert", """
model = nn.Sequential(nn.Conv2D(3, 5, 3), nn.BatchNorm2D(5),
                      nn.Sequential(nn.BatchNorm1D(5, weight_attr=paddle.ParamAttr(name='bnw'))))
bn = model[1]
conv = nn.SyncBatchNorm.convert_sync_batchnorm(model)
out = [conv, conv[1].weight is bn.weight, conv[1]._mean is bn._mean, type(conv[2][0]).__name__,
       conv[2][0]._weight_attr.name, list(conv.state_dict())]""")

# ------------------------------------------------------------------ SpectralNorm layer
case("spectralnorm_seeded", """
paddle.seed(1)
m = nn.SpectralNorm([2, 3, 4], dim=1, power_iters=2)
out = [m, [(n, p.name, p.shape, p.stop_gradient) for n, p in m.named_parameters()],
       m.weight_u, m.weight_v]""")
case("spectralnorm_forward", """
m = load(nn.SpectralNorm([2, 3, 4], dim=1, power_iters=2))
u0 = m.weight_u.numpy().copy()
r = fb(m, inp(2, 3, 4, seed=5))
out = [r, bool((m.weight_u.numpy() == u0).all())]""")
case("spectralnorm_dim0_f64", """
m = load(nn.SpectralNorm([3, 5], power_iters=3, eps=1e-6, dtype='float64'))
out = fb(m, inp(3, 5, seed=6, dtype='float64'))""")
case("spectralnorm_bad_dim", "out = nn.SpectralNorm([3, 4], dim=2)")

# ------------------------------------------------------------------ weight_norm
case("weight_norm_linear", """
m = load(nn.Linear(3, 4))
nn.utils.weight_norm(m)
out = [[(n, p.name, p.shape) for n, p in m.named_parameters()], list(m.state_dict()),
       m.weight_g, m.weight_v, m.weight, fb(m, inp(2, 3))]""")
case("weight_norm_conv_dim1", """
m = load(nn.Conv2D(2, 3, 3))
nn.utils.weight_norm(m, dim=1)
out = [m.weight_g, fb(m, inp(1, 2, 4, 4))]""")
case("weight_norm_conv_last_dim", """
m = load(nn.Conv1D(2, 3, 2))
nn.utils.weight_norm(m, dim=-1)
out = [m.weight_g, fb(m, inp(1, 2, 5))]""")
case("weight_norm_dim_none", """
m = load(nn.Linear(3, 2))
nn.utils.weight_norm(m, dim=None)
out = [m.weight_g, fb(m, inp(2, 3))]""")
case("weight_norm_after_step", """
m = load(nn.Linear(3, 2))
nn.utils.weight_norm(m)
with paddle.no_grad():
    m.weight_g.set_value(m.weight_g * 2)
out = fb(m, inp(2, 3))""")
case("weight_norm_remove", """
m = load(nn.Linear(3, 2))
nn.utils.weight_norm(m)
with paddle.no_grad():
    m.weight_g.set_value(m.weight_g * 3)
nn.utils.remove_weight_norm(m)
out = [[(n, p.name) for n, p in m.named_parameters()], list(m.state_dict()), m.weight,
       len(m._forward_pre_hooks)]""")
case("weight_norm_twice", """
m = nn.Linear(3, 2)
nn.utils.weight_norm(m)
out = nn.utils.weight_norm(m)""")
case("weight_norm_remove_missing", "out = nn.utils.remove_weight_norm(nn.Linear(2, 2))")
case("weight_norm_bad_dim", "out = nn.utils.weight_norm(nn.Linear(2, 2), dim=2)")

# ------------------------------------------------------------------ spectral_norm hook
case("spectral_norm_seeded", """
paddle.seed(3)
m = nn.Linear(3, 4)
nn.utils.spectral_norm(m)
out = [[(n, p.name) for n, p in m.named_parameters()], list(m.state_dict()),
       [n for n, _ in m.named_buffers()], m.weight_u, m.weight_v, m.weight, paddle.randn([2])]""")
case("spectral_norm_train", """
m = load(nn.Linear(3, 4))
nn.spectral_norm(m, n_power_iterations=2)
load(m, seed=4)
r = fb(m, inp(2, 3))
out = [r, m.weight_u, m.weight_v, m.weight]""")
case("spectral_norm_eval", """
m = load(nn.Conv2D(2, 3, 2))
nn.utils.spectral_norm(m, eps=1e-6)
load(m, seed=5)
m.eval()
r = fb(m, inp(1, 2, 3, 3))
out = [r, m.weight_u, m.weight_v]""")
case("spectral_norm_conv_transpose_dim", """
m = load(nn.Conv2DTranspose(2, 3, 2))
nn.utils.spectral_norm(m)
out = [m.weight_u.shape, m.weight_v.shape]""")
case("spectral_norm_zero_iters",
     "out = nn.utils.spectral_norm(nn.Linear(2, 2), n_power_iterations=0)")
case("spectral_norm_twice", """
m = nn.Linear(3, 2)
nn.utils.spectral_norm(m)
out = nn.utils.spectral_norm(m)""")

# ------------------------------------------------------------------ losses and pools
case("multilabel_margin_loss", """
x = inp(3, 4)
y = paddle.to_tensor([[3, 0, -1, 1], [0, 1, 2, 3], [1, -1, 0, 0]], dtype='int64')
out = [nn.MultiLabelMarginLoss(), fb(nn.MultiLabelMarginLoss(), x, y),
       nn.MultiLabelMarginLoss(reduction='none')(x, y),
       nn.MultiLabelMarginLoss(reduction='sum')(x, y)]""")
case("multilabel_margin_loss_bad_reduction", "out = nn.MultiLabelMarginLoss(reduction='avg')")
case("fractional_pool2d", """
m = nn.FractionalMaxPool2D(3, random_u=0.3)
out = [m, fb(m, inp(1, 2, 7, 7))]""")
case("fractional_pool2d_mask_kernel", """
m = nn.FractionalMaxPool2D([3, 2], kernel_size=2, random_u=0.7, return_mask=True)
y, mask = m(inp(2, 1, 6, 5))
out = [m, y, mask.numpy()]   # (Paddle's int32 mask says stop_gradient=False after a grad input)""")
case("fractional_pool3d", """
m = nn.FractionalMaxPool3D([2, 3, 2], random_u=0.45, return_mask=True)
(y, mask), gx, gp = fb(m, inp(1, 2, 5, 6, 4))
out = [m, y, mask.numpy(), gx]""")
case("fractional_pool2d_seeded", """
paddle.seed(11)
m = nn.FractionalMaxPool2D(3)
out = [m(inp(1, 1, 8, 8)), m(inp(1, 1, 8, 8))]""")

# ------------------------------------------------------------------ Bilinear initializer
case("init_bilinear", """
m = nn.Conv2DTranspose(2, 2, 4, weight_attr=paddle.ParamAttr(initializer=nn.initializer.Bilinear()))
out = m.weight""")
case("init_bilinear_odd_f64", """
w = paddle.create_parameter([1, 3, 3, 3], 'float64', default_initializer=nn.initializer.Bilinear())
out = w""")
case("init_bilinear_bad_rank", """
out = paddle.create_parameter([3, 3, 3], 'float32',
                              default_initializer=nn.initializer.Bilinear())""")
case("init_bilinear_not_square", """
out = paddle.create_parameter([1, 1, 3, 4], 'float32',
                              default_initializer=nn.initializer.Bilinear())""")

# ------------------------------------------------------------------ packed flash attention
# Paddle's CPU build runs flash_attn_qkvpacked through its math path
for cid, shape, causal in (("qkvpacked", (2, 5, 3, 2, 8), False),
                           ("qkvpacked_causal", (1, 6, 3, 2, 4), True),
                           ("qkvpacked_gqa", (2, 4, 4, 1, 8), False)):
    case(f"flash_attn_{cid}", f"""
qkv = inp{shape}
y, sm = F.flash_attn_qkvpacked(qkv, causal={causal})
w = paddle.to_tensor(np.linspace(-1, 1, int(np.prod(y.shape))).reshape(y.shape).astype('float32'))
(y * w).sum().backward()
out = [y, sm, qkv.grad]""")
case("flash_attn_qkvpacked_softmax", """
y, sm = F.flash_attn_qkvpacked(inp(1, 3, 3, 2, 4), return_softmax=True)
out = [y, sm]""")

# ------------------------------------------------------------------ Layer methods
case("layer_sharded_state_dict", """
m = load(nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1D(3)))
sd = m.sharded_state_dict()
out = [[(k, w.key, w.local_shape, w.global_shape, w.global_offset, w.is_flattened,
         w.flattened_range is None, w.local_tensor is m.state_dict()[k]) for k, w in sd.items()],
       list(m.sharded_state_dict('pre.'))]""")
case("layer_full", """
m = load(nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1D(3)))
params = dict(m.state_dict())
out = [(k, v, v is params[k]) for k, v in m.full()]""")
case("layer_get_extra_state", "out = nn.Linear(2, 2).get_extra_state()")
case("layer_xpu_default", "out = nn.Linear(2, 2).xpu()")
case("layer_xpu_int", "out = nn.Linear(2, 2).xpu(0)")
case("layer_xpu_str", "out = nn.Linear(2, 2).xpu('cpu')")


def main():
    record(CASES, PRELUDE, OUT)


if __name__ == "__main__":
    main()
