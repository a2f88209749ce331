"""Record Paddle 3.3.1's training-loop mechanisms that model-zoo code depends on (issue 21) as
goldens for tests/test_zoo_mechanisms.py:

* ``Layer.eval()`` / ``train()`` on classes that override ``train()`` or ``eval()``;
* cross-entropy / log-softmax / softmax on extreme logits (Paddle clips ``x - max`` at -64);
* every activation of ``paddle.nn.functional`` at each of its kinks, float32 and float64,
  value and gradient; float32 gelu (exact and tanh forms) in its tails;
* every pooling op where the window is larger than the input or the last window is clipped
  (padding, ceil_mode, exclusive, adaptive, lp_pool), value and gradient;
* the fluid-era attributes of parameters (``block``, ``persistable`` ...) and initializers
  called as ``init(param, param.block)``;
* the constructor signatures and parameter names/shapes of ``paddle.incubate.nn``'s fused
  layers (Paddle has no CPU kernels for their forward: the test checks the forward against
  the functional forms, which have goldens of their own).

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_zoo_mech.py

Writes tests/goldens/zoo_mech.json: ``{"prelude", "cases": [{id, code, expected}]}``; each case
runs after the prelude and leaves its result in ``out``.
"""
import os
import sys
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))


from layercase import record  # noqa: E402

OUT = os.path.join(ROOT, "tests", "goldens", "zoo_mech.json")

PRELUDE = '''
nn = paddle.nn
F = paddle.nn.functional

def at(vals, dtype):
    t = paddle.to_tensor(np.array(vals, dtype=dtype))
    t.stop_gradient = False
    return t

def val_grad(fn, vals, dtype):
    x = at(vals, dtype)
    y = fn(x)
    g = paddle.grad(y.sum(), x)[0]
    return [y, g]

def inp(*shape, seed=0, dtype="float32"):
    t = paddle.to_tensor(np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype))
    t.stop_gradient = False
    return t

def pool_grad(fn, x):
    y = fn(x)
    w = paddle.to_tensor(np.arange(1, y.size + 1, dtype=str(x.dtype).replace("paddle.", ""))
                         .reshape(y.shape))
    g = paddle.grad((y * w).sum(), x)[0]
    return [y, g]
'''

CASES = []


def case(cid, code):
    CASES.append((cid, code))


# ---------------------------------------------------------------------- Layer.train / eval
case("eval_with_train_override", '''
class A(nn.Layer):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.calls = 0
    def train(self, mode=True):
        self.calls += 1
        return super().train(mode)
a = A()
a.eval()
r1 = [a.training, a.lin.training, a.calls]
a.train()
r2 = [a.training, a.lin.training, a.calls]
out = r1 + r2
''')
case("eval_nested_overrides", '''
class Frozen(nn.Layer):
    # freezes its batch norm whatever train() is asked for
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm2D(2)
    def train(self, mode=True):
        super().train(mode)
        self.bn.eval()
        return self
class E(nn.Layer):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.seen = 0
    def eval(self):
        self.seen += 1
        return super().eval()
class Top(nn.Layer):
    def __init__(self):
        super().__init__()
        self.f = Frozen()
        self.e = E()
t = Top()
t.eval()
r1 = [t.training, t.f.training, t.f.bn.training, t.e.training, t.e.lin.training, t.e.seen]
t.train()
r2 = [t.training, t.f.training, t.f.bn.training, t.e.training, t.e.seen]
t.f.train()
r3 = [t.f.training, t.f.bn.training]
t.f.eval()
r4 = [t.f.training, t.f.bn.training]
t.f.train(False)
r5 = [t.f.training, t.f.bn.training]
out = [r1, r2, r3, r4, r5]
''')
case("train_mode_not_bool", '''
out = nn.Linear(2, 2).train(1)
''')

# ---------------------------------------------------------------------- extreme logits
for dt in ("float32", "float64"):
    for lab in (0, 1, 2):
        case(f"ce_extreme_{dt}_label{lab}", f'''
x = at([[200., 0., -10.], [0., 100., 0.], [3., 1., 0.5]], "{dt}")
lab = paddle.to_tensor([[{lab}], [{lab}], [{lab}]])
l = F.cross_entropy(x, lab, reduction="none")
g = paddle.grad(l.sum(), x)[0]
out = [l, g, F.softmax_with_cross_entropy(x, lab), F.log_softmax(x), F.softmax(x)]
''')
    case(f"ce_extreme_variants_{dt}", f'''
x = at([[200., 0., -10.]], "{dt}")
x4 = paddle.to_tensor(np.concatenate([np.full([1, 1, 2, 2], 200.), np.zeros([1, 2, 2, 2])], 1)
                      .astype("{dt}"))
big = np.zeros([2, 40], "{dt}"); big[:, 5] = 300.
out = [F.cross_entropy(x, paddle.to_tensor([1])),
       F.cross_entropy(x, paddle.to_tensor([1]), reduction="sum"),
       F.cross_entropy(x, paddle.to_tensor([[0.2, 0.5, 0.3]], dtype="{dt}"), soft_label=True),
       F.cross_entropy(x, paddle.to_tensor([1]), label_smoothing=0.1),
       F.cross_entropy(x, paddle.to_tensor([1]), weight=paddle.to_tensor([1., 2., 3.], dtype="{dt}")),
       F.cross_entropy(x4, paddle.to_tensor(np.ones([1, 2, 2], "int64")), axis=1, reduction="none"),
       F.cross_entropy(paddle.to_tensor(big), paddle.to_tensor([5, 6]), reduction="none"),
       F.softmax_with_cross_entropy(x, paddle.to_tensor([[1]]), return_softmax=True),
       F.log_softmax(x4, axis=1),
       F.log_softmax(paddle.to_tensor(big)),
       nn.CrossEntropyLoss()(x, paddle.to_tensor([2])),
       F.nll_loss(F.log_softmax(x), paddle.to_tensor([1]))]
''')
    case(f"log_softmax_extreme_grad_{dt}", f'''
x = at([[200., 0., -10.], [-70., 0., 1.]], "{dt}")
w = paddle.to_tensor(np.array([[0., 1., 0.], [1., 0., 2.]], "{dt}"))
g = paddle.grad((F.log_softmax(x) * w).sum(), x)[0]
out = [F.log_softmax(x), g]
''')

# ---------------------------------------------------------------------- activations at kinks
ACTS = [
    ("relu", "F.relu", [-1., 0., 1.]),
    ("relu6", "F.relu6", [-1., 0., 3., 6., 7.]),
    ("leaky_relu", "F.leaky_relu", [-1., 0., 1.]),
    ("leaky_relu_neg_slope", "lambda x: F.leaky_relu(x, -0.5)", [-1., 0., 1.]),
    ("elu", "F.elu", [-1., 0., 1.]),
    ("elu_alpha", "lambda x: F.elu(x, 0.5)", [-1., 0., 1.]),
    ("celu", "F.celu", [-1., 0., 1.]),
    ("celu_alpha", "lambda x: F.celu(x, 2.0)", [-1., 0., 1.]),
    ("selu", "F.selu", [-1., 0., 1.]),
    ("hardtanh", "F.hardtanh", [-2., -1., 0., 1., 2.]),
    ("hardtanh_range", "lambda x: F.hardtanh(x, -0.5, 0.5)", [-1., -0.5, 0., 0.5, 1.]),
    ("hardswish", "F.hardswish", [-4., -3., 0., 3., 4.]),
    ("hardsigmoid", "F.hardsigmoid", [-4., -3., 0., 3., 4.]),
    ("hardsigmoid_slope", "lambda x: F.hardsigmoid(x, 0.2, 0.5)", [-3., -2.5, 0., 2.5, 3.]),
    ("hardshrink", "F.hardshrink", [-1., -0.5, 0., 0.5, 1.]),
    ("softshrink", "F.softshrink", [-1., -0.5, 0., 0.5, 1.]),
    ("thresholded_relu", "F.thresholded_relu", [0., 0.5, 1., 2.]),
    ("thresholded_relu_value", "lambda x: F.thresholded_relu(x, 1.0, 0.5)", [0., 1., 2.]),
    ("prelu", "lambda x: F.prelu(x, paddle.to_tensor(np.array([0.25], x.numpy().dtype)))",
     [-1., 0., 1.]),
    ("rrelu_eval", "lambda x: F.rrelu(x, training=False)", [-1., 0., 1.]),
    ("relu_inplace", "lambda x: F.relu_(x * 1.0)", [-1., 0., 1.]),
    ("tanhshrink", "F.tanhshrink", [-1., 0., 1.]),
    ("softplus", "F.softplus", [-1., 0., 19.99, 20., 20.01, 30.]),
    ("softplus_beta", "lambda x: F.softplus(x, 2.0, 10.0)", [0., 4.99, 5., 5.01, 6.]),
    ("mish", "F.mish", [-30., -20., 0., 19.99, 20., 20.01, 30.]),
    ("silu", "F.silu", [-1., 0., 1.]),
    ("swish", "F.swish", [-1., 0., 1.]),
    ("sigmoid", "F.sigmoid", [-1., 0., 1.]),
    ("log_sigmoid", "F.log_sigmoid", [-100., -1., 0., 1., 100.]),
    ("softsign", "F.softsign", [-1., 0., 1.]),
    ("tanh", "F.tanh", [-1., 0., 1.]),
    ("gelu", "F.gelu", [-1., 0., 1.]),
    ("gelu_tanh", "lambda x: F.gelu(x, approximate=True)", [-1., 0., 1.]),
    ("maxout_ties", "lambda x: F.maxout(x.reshape([1, 4, 1, 1]), 2).reshape([-1])",
     [1., 1., 0., 0.]),
    ("relu_neg_zero", "F.relu", [-0.0, 0.0]),
    ("leaky_relu_inplace", "lambda x: F.leaky_relu_(x * 1.0)", [-1., 0., 1.]),
    ("elu_inplace", "lambda x: F.elu_(x * 1.0)", [-1., 0., 1.]),
    ("hardtanh_inplace", "lambda x: F.hardtanh_(x * 1.0)", [-2., -1., 0., 1., 2.]),
    ("thresholded_relu_inplace", "lambda x: F.thresholded_relu_(x * 1.0)", [0., 1., 2.]),
    ("glu", "lambda x: F.glu(x.reshape([1, 4])).reshape([-1])", [-1., 0., 0., 1.]),
    ("swiglu", "lambda x: F.swiglu(x.reshape([1, 4])).reshape([-1])", [-1., 0., 0., 1.]),
]
for name, fn, vals in ACTS:
    for dt in ("float32", "float64"):
        case(f"kink_{name}_{dt}", f"out = val_grad({fn}, {vals!r}, '{dt}')")

# float32 gelu in its tails (Paddle's float32 kernel), forward and gradient
TAIL = [-10., -8., -6., -5., -4.5, -4., -3.5, -3., -2., -0.5, 0.5, 2., 3., 4., 5.]
case("gelu_tail_f32", f"out = val_grad(F.gelu, {TAIL!r}, 'float32')")
case("gelu_tanh_tail_f32",
     f"out = val_grad(lambda x: F.gelu(x, approximate=True), {TAIL!r}, 'float32')")
case("gelu_tail_f64", f"out = val_grad(F.gelu, {TAIL!r}, 'float64')")
case("gelu_tanh_tail_f64",
     f"out = val_grad(lambda x: F.gelu(x, approximate=True), {TAIL!r}, 'float64')")
case("gelu_layer_f32", f"out = nn.GELU()(paddle.to_tensor(np.array({TAIL!r}, 'float32')))")

# ---------------------------------------------------------------------- pooling edges
POOLS = [
    ("max2d_1x8_k2", "lambda x: F.max_pool2d(x, 2)", (1, 1, 1, 8)),
    ("max2d_3x5_k2", "lambda x: F.max_pool2d(x, 2)", (1, 2, 3, 5)),
    ("max2d_k_gt_in", "lambda x: F.max_pool2d(x, 4, 4)", (1, 1, 3, 3)),
    ("max2d_k3s2_ceil", "lambda x: F.max_pool2d(x, 3, 2, ceil_mode=True)", (1, 1, 4, 4)),
    ("max2d_k3s2_pad1", "lambda x: F.max_pool2d(x, 3, 2, 1)", (1, 1, 4, 5)),
    ("max2d_k3s2_pad1_ceil", "lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True)", (1, 1, 4, 5)),
    ("max2d_k2_ceil_1x8", "lambda x: F.max_pool2d(x, 2, ceil_mode=True)", (1, 1, 1, 8)),
    ("max2d_stem_1x1", "lambda x: F.max_pool2d(x, 3, 2, 1)", (1, 2, 1, 1)),
    ("max2d_stem_2x2", "lambda x: F.max_pool2d(x, 3, 2, 1)", (1, 2, 2, 2)),
    ("max2d_k5_pad1_3x3", "lambda x: F.max_pool2d(x, 5, 1, 1)", (1, 1, 3, 3)),
    ("avg2d_stem_1x1", "lambda x: F.avg_pool2d(x, 3, 2, 1)", (1, 2, 1, 1)),
    ("avg2d_stem_2x2_incl", "lambda x: F.avg_pool2d(x, 3, 2, 1, exclusive=False)", (1, 2, 2, 2)),
    ("avg2d_k5_pad1_3x3_incl", "lambda x: F.avg_pool2d(x, 5, 1, 1, exclusive=False)",
     (1, 1, 3, 3)),
    ("max2d_k2_nhwc", "lambda x: F.max_pool2d(x, 2, data_format='NHWC')", (1, 1, 8, 2)),
    ("max1d_len3_k2", "lambda x: F.max_pool1d(x, 2)", (1, 2, 3)),
    ("max1d_len1_k2", "lambda x: F.max_pool1d(x, 2)", (1, 1, 1)),
    ("max1d_k3s2_ceil", "lambda x: F.max_pool1d(x, 3, 2, ceil_mode=True)", (1, 1, 6)),
    ("max3d_k2", "lambda x: F.max_pool3d(x, 2)", (1, 1, 1, 3, 4)),
    ("max3d_k2_ceil", "lambda x: F.max_pool3d(x, 2, ceil_mode=True)", (1, 1, 3, 3, 3)),
    ("avg2d_1x8_k2", "lambda x: F.avg_pool2d(x, 2)", (1, 1, 1, 8)),
    ("avg2d_3x5_k2", "lambda x: F.avg_pool2d(x, 2)", (1, 2, 3, 5)),
    ("avg2d_k_gt_in", "lambda x: F.avg_pool2d(x, 4, 4)", (1, 1, 3, 3)),
    ("avg2d_k3s2_ceil", "lambda x: F.avg_pool2d(x, 3, 2, ceil_mode=True)", (1, 1, 4, 4)),
    ("avg2d_k3s2_ceil_incl", "lambda x: F.avg_pool2d(x, 3, 2, ceil_mode=True, exclusive=False)",
     (1, 1, 4, 4)),
    ("avg2d_k3s2_pad1", "lambda x: F.avg_pool2d(x, 3, 2, 1)", (1, 1, 4, 5)),
    ("avg2d_k3s2_pad1_incl", "lambda x: F.avg_pool2d(x, 3, 2, 1, exclusive=False)", (1, 1, 4, 5)),
    ("avg2d_pad1_ceil_incl",
     "lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, exclusive=False)", (1, 1, 4, 5)),
    ("avg2d_divisor", "lambda x: F.avg_pool2d(x, 2, divisor_override=3)", (1, 1, 3, 5)),
    ("avg1d_len3_k2", "lambda x: F.avg_pool1d(x, 2)", (1, 2, 3)),
    ("avg1d_k3s2_ceil", "lambda x: F.avg_pool1d(x, 3, 2, ceil_mode=True)", (1, 1, 6)),
    ("avg1d_k3s2_ceil_incl", "lambda x: F.avg_pool1d(x, 3, 2, exclusive=False, ceil_mode=True)",
     (1, 1, 6)),
    ("avg3d_k2", "lambda x: F.avg_pool3d(x, 2)", (1, 1, 1, 3, 4)),
    ("avg3d_k2_ceil", "lambda x: F.avg_pool3d(x, 2, ceil_mode=True)", (1, 1, 3, 3, 3)),
    ("adaptive_avg2d_up", "lambda x: F.adaptive_avg_pool2d(x, [3, 5])", (1, 1, 2, 3)),
    ("adaptive_max2d_up", "lambda x: F.adaptive_max_pool2d(x, [3, 5])", (1, 1, 2, 3)),
    ("adaptive_avg1d_up", "lambda x: F.adaptive_avg_pool1d(x, 5)", (1, 1, 3)),
    ("adaptive_max1d_up", "lambda x: F.adaptive_max_pool1d(x, 5)", (1, 1, 3)),
    ("adaptive_avg3d_up", "lambda x: F.adaptive_avg_pool3d(x, [2, 3, 3])", (1, 1, 1, 2, 2)),
    ("adaptive_max3d_up", "lambda x: F.adaptive_max_pool3d(x, [2, 3, 3])", (1, 1, 1, 2, 2)),
    ("lp1d_len3_k2", "lambda x: F.lp_pool1d(x, 2, 2)", (1, 1, 3)),
    ("lp2d_1x8_k2", "lambda x: F.lp_pool2d(x, 2, 2)", (1, 1, 1, 8)),
    ("lp2d_3x5_k2_ceil", "lambda x: F.lp_pool2d(x, 2, 2, ceil_mode=True)", (1, 1, 3, 5)),
]
for name, fn, shape in POOLS:
    for dt in ("float32", "float64"):
        case(f"pool_{name}_{dt}",
             f"out = pool_grad({fn}, inp(*{shape!r}, dtype='{dt}'))")
case("pool_max2d_mask_clipped", '''
x = inp(1, 1, 3, 5)
y, m = F.max_pool2d(x, 2, return_mask=True)
y1, m1 = F.max_pool1d(inp(1, 1, 3), 2, return_mask=True)
out = [y, m, y1, m1]
''')
for name, layer, shape in [("MaxPool2D", "nn.MaxPool2D(2)", (1, 1, 1, 8)),
                           ("AvgPool2D", "nn.AvgPool2D(2)", (1, 1, 1, 8)),
                           ("MaxPool1D", "nn.MaxPool1D(2)", (1, 1, 1)),
                           ("AvgPool1D", "nn.AvgPool1D(2)", (1, 1, 3))]:
    case(f"pool_layer_{name}", f"out = pool_grad({layer}, inp(*{shape!r}))")

# ---------------------------------------------------------------------- parameter attributes
case("param_fluid_attrs", '''
p = nn.Linear(2, 3).weight
b = p.block
out = [type(b).__name__, b.idx, b.parent_idx, p.persistable, p.trainable, p.optimize_attr,
       p.regularizer is None, p.do_model_average, p.need_clip, p.is_distributed,
       p.stop_gradient, p.placements is None, p.process_mesh is None, len(b.ops),
       b.program is not None, p.block is paddle.to_tensor([1.]).block]
''')
case("param_attrs_from_param_attr", '''
lin = nn.Linear(2, 3, weight_attr=paddle.ParamAttr(learning_rate=0.5, trainable=False,
                                                    do_model_average=False, need_clip=False))
p = lin.weight
out = [p.trainable, p.optimize_attr, p.do_model_average, p.need_clip, p.stop_gradient]
''')
case("initializer_with_block", '''
p = nn.Linear(2, 3).weight
res = []
for init in [nn.initializer.Constant(0.5), nn.initializer.Normal(0., 0.), nn.initializer.Uniform(0.25, 0.25),
             nn.initializer.Assign(np.full([2, 3], 2.0, "float32"))]:
    r = init(p, p.block)
    res.append([r is None, p.numpy().tolist()])
for init in [nn.initializer.KaimingNormal(), nn.initializer.XavierUniform(), nn.initializer.TruncatedNormal(),
             nn.initializer.KaimingUniform(), nn.initializer.XavierNormal(), nn.initializer.Orthogonal()]:
    r = init(p, p.block)
    res.append([r is None, list(p.shape)])
out = res
''')
case("tensor_block", '''
t = paddle.to_tensor([1.])
out = [type(t.block).__name__, t.block.idx, t.persistable]
''')

# ---------------------------------------------------------------------- fused layers
case("fused_layers_params", '''
inn = paddle.incubate.nn
layers = [inn.FusedLinear(4, 6), inn.FusedLinear(4, 6, transpose_weight=True),
          inn.FusedLinear(4, 6, bias_attr=False),
          inn.FusedMultiHeadAttention(8, 2), inn.FusedMultiHeadAttention(8, 2, normalize_before=True),
          inn.FusedMultiHeadAttention(8, 2, transpose_qkv_wb=True),
          inn.FusedFeedForward(8, 16), inn.FusedFeedForward(8, 16, normalize_before=True),
          inn.FusedTransformerEncoderLayer(8, 2, 16),
          inn.FusedTransformerEncoderLayer(8, 2, 16, normalize_before=True),
          inn.FusedBiasDropoutResidualLayerNorm(8), inn.FusedDropoutAdd()]
out = [[type(l).__name__, isinstance(l, nn.Layer),
        [[k, list(v.shape), str(v.dtype), v.stop_gradient] for k, v in l.named_parameters()]]
       for l in layers]
''')
case("fused_layers_init_constants", '''
inn = paddle.incubate.nn
layers = [inn.FusedMultiHeadAttention(8, 2), inn.FusedFeedForward(8, 16),
          inn.FusedBiasDropoutResidualLayerNorm(8), inn.FusedLinear(4, 6)]
res = []
for l in layers:
    for k, v in l.named_parameters():
        a = v.numpy()
        if "bias" in k or "scale" in k:
            res.append([k, float(a.min()), float(a.max())])
out = res
''')
case("fused_layers_attrs", '''
inn = paddle.incubate.nn
m = inn.FusedMultiHeadAttention(8, 2, dropout_rate=0.1, attn_dropout_rate=0.2, epsilon=1e-6)
f = inn.FusedFeedForward(8, 16, dropout_rate=0.3, activation="gelu")
e = inn.FusedTransformerEncoderLayer(8, 2, 16, dropout_rate=0.1)
d = inn.FusedDropoutAdd(p=0.3)
out = [m.embed_dim, m.num_heads, m.head_dim, m.normalize_before, m.dropout_rate,
       m.attn_dropout_rate, m._epsilon, f._d_model, f._dim_feedforward, f._dropout_rate,
       f._act_method, f._normalize_before, e._config["d_model"] if hasattr(e, "_config") else None,
       d.p, d.mode, type(e.fused_attn).__name__, type(e.ffn).__name__]
''')
case("fused_dropout_add_eval", '''
d = paddle.incubate.nn.FusedDropoutAdd(p=0.3)
d.eval()
x = inp(2, 3); y = inp(2, 3, seed=1)
out = [d(x, y)]
d2 = paddle.incubate.nn.FusedDropoutAdd(p=0.3, mode="downscale_in_infer")
d2.eval()
out.append(d2(x, y))
''')


def main():
    record(CASES, PRELUDE, OUT)


if __name__ == "__main__":
    main()
