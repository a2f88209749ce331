"""Record Paddle 3.3.1's behaviour for issue 32's API differences (part A), as goldens for
tests/test_issue32_api.py:

* ``paddle.nn.Parameter(t)`` (Paddle 3.3's torch-style name of ``EagerParamBase``): trains
  (``stop_gradient=False``) unless ``requires_grad=False``; Paddle's ``(shape, dtype)`` form.
* ``x.grad = t``: the values are copied; a gradient that only assignment made stops gradient.
* torch-style keywords of layer methods (``forward(input=)``, ``parameters(recurse=)`` ...),
  layer constructors (``PixelShuffle(upscale_factor=)``), in-place Tensor methods
  (``round_(decimals=)``) and functions Paddle names otherwise than we did
  (``rand_like(input=)``), read from Paddle itself by tools/aliases/record_aliases.py; these
  cases check what the calls give.
* ``paddle.functional``, ``atleast_*`` of one tuple, ``numpy(False)``,
  ``paddle.framework.core.Generator``, ``paddle.Tensor(...)``'s torch forms.

A case whose code imports ``paddle`` by name runs under the import hook in the test.

    /work/paddle_venv/bin/python tools/goldens/record_issue32_api.py

Writes tests/goldens/issue32_api.json (``{"prelude", "cases": [{id, code, expected}]}``).
"""
import os
import sys
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))

OUT = os.path.join(ROOT, "tests", "goldens", "issue32_api.json")

PRELUDE = '''
def inp(*shape, seed=0, dtype="float32"):
    return paddle.to_tensor(np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype))

def same_call(layer, x, **kw):
    """The layer called positionally and with keywords: equal results, and the result."""
    a = layer(x)
    b = layer(**kw)
    return [bool((a == b).all()), b]
'''

CASES = [
    # ------------------------------------------------------------ 1. nn.Parameter
    ("parameter_from_tensor", '''
p = paddle.nn.Parameter(paddle.to_tensor([1.0, 2.0]))
out = [p.stop_gradient, p.trainable, p.persistable, p.name.startswith("_eager_param_base"),
       p.optimize_attr, p.need_clip, isinstance(p, paddle.Tensor), p]
'''),
    ("parameter_gradient_flows", '''
p = paddle.nn.Parameter(paddle.to_tensor([1.0, 2.0, -3.0]))
y = (p * p).sum()
y.backward()
out = [y.stop_gradient, p.grad]
'''),
    ("parameter_requires_grad_false", '''
p = paddle.nn.Parameter(paddle.to_tensor([1.0, 2.0]), requires_grad=False)
y = p * 2
out = [p.stop_gradient, p.trainable, y.stop_gradient]
'''),
    ("parameter_keywords", '''
t = paddle.to_tensor([1.0, 2.0])
p = paddle.nn.Parameter(data=t, requires_grad=True, name="w_kw", need_clip=False)
out = [p.stop_gradient, p.name, p.need_clip]
'''),
    ("parameter_int_tensor", '''
p = paddle.nn.Parameter(paddle.to_tensor([1, 2]))
out = [p.stop_gradient, p]
'''),
    ("parameter_none", '''
p = paddle.nn.Parameter()
out = [p.shape, str(p.dtype), p.stop_gradient]
'''),
    ("parameter_shares_memory", '''
t = paddle.to_tensor([1.0, 2.0])
p = paddle.nn.Parameter(t)
with paddle.no_grad():
    p[0] = 9.0
out = t
'''),
    ("parameter_shape_dtype_form", '''
p = paddle.nn.Parameter([2, 3], "float64")
q = paddle.nn.Parameter(shape=[4], dtype="float32", trainable=False)
out = [p.shape, str(p.dtype), p.stop_gradient, q.shape, str(q.dtype), q.stop_gradient]
'''),
    ("parameter_in_layer_trains", '''
lin = paddle.nn.Linear(2, 1)
lin.extra = paddle.nn.Parameter(paddle.to_tensor([0.5, -0.5]))
opt = paddle.optimizer.SGD(0.1, parameters=lin.parameters())
loss = (lin.extra * paddle.to_tensor([2.0, 3.0])).sum()
loss.backward()
opt.step()
out = [[n for n, _ in lin.named_parameters()], lin.extra]
'''),
    # ------------------------------------------------------------ 2. x.grad = t
    ("grad_set_stops_gradient", '''
a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
g = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
a.grad = g
out = [a.grad.stop_gradient, g.stop_gradient, a.grad]
'''),
    ("grad_set_is_a_copy", '''
a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
g = paddle.to_tensor([3.0, 4.0])
a.grad = g
g[0] = 100.0
first = a.grad.numpy().copy()
(a * a).sum().backward()
out = [first, a.grad, a.grad.stop_gradient, g]
'''),
    ("grad_set_after_backward", '''
b = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
(b * b).sum().backward()
old = b.grad
b.grad = paddle.to_tensor([7.0, 7.0])
kept = [old, b.grad, b.grad.stop_gradient]
b.grad = None
gone = b.grad is None
b.grad = paddle.to_tensor([1.0, 1.0])
out = kept + [gone, b.grad, b.grad.stop_gradient]
'''),
    ("grad_set_on_stop_gradient_leaf", '''
c = paddle.to_tensor([1.0, 2.0])
c.grad = paddle.to_tensor([1.0, 1.0])
out = [c.grad, c.grad.stop_gradient]
'''),
    # ------------------------------------------------------------ 3. torch-style keywords
    ("round__decimals", '''
x = paddle.to_tensor([1.234, 2.567, -0.05])
r = x.round_(decimals=1)
out = [r is x, x, paddle.to_tensor([1, 2]).round_(decimals=1)]
'''),
    ("conv1d_forward_input", '''
paddle.seed(1)
out = same_call(paddle.nn.Conv1d(2, 3, 2), inp(1, 2, 5), input=inp(1, 2, 5))
'''),
    ("conv2d_forward_input", '''
paddle.seed(1)
out = same_call(paddle.nn.Conv2D(2, 2, 3, padding=1), inp(1, 2, 4, 4), input=inp(1, 2, 4, 4))
'''),
    ("conv_forward_x_and_input", '''
paddle.seed(1)
conv = paddle.nn.Conv1D(2, 3, 2)
out = conv(x=inp(1, 2, 5), input=inp(1, 2, 5))
'''),
    ("embedding_forward_input", '''
paddle.seed(1)
ids = paddle.to_tensor([[0, 2], [1, 3]])
out = same_call(paddle.nn.Embedding(4, 3), ids, input=ids)
'''),
    ("pad_pool_upsample_forward_input", '''
x = inp(1, 1, 4, 4)
res = []
for layer in (paddle.nn.ZeroPad2D(1), paddle.nn.ReflectionPad2d(1), paddle.nn.Pad2D(1),
              paddle.nn.AdaptiveAvgPool2D(2), paddle.nn.AdaptiveMaxPool2d(2),
              paddle.nn.UpsamplingNearest2D(scale_factor=2), paddle.nn.Softshrink(0.2),
              paddle.nn.Hardshrink(0.2), paddle.nn.LPPool2D(2, 2)):
    res += same_call(layer, x, input=x)
out = res
'''),
    ("glu_forward_input", '''
x = inp(2, 4)
out = same_call(paddle.nn.GLU(), x, input=x)
'''),
    ("linear_forward_input", '''
paddle.seed(2)
x = inp(2, 3)
out = same_call(paddle.nn.Linear(3, 2), x, input=x)
'''),
    ("loss_forward_keywords", '''
x = inp(3, 4)
y = inp(3, 4, seed=1)
lbl = paddle.to_tensor([0, 3, 1])
res = [paddle.nn.MSELoss()(input=x, label=y), paddle.nn.L1Loss()(input=x, label=y),
       paddle.nn.SmoothL1Loss()(x, target=y), paddle.nn.CrossEntropyLoss()(input=x, target=lbl),
       paddle.nn.CrossEntropyLoss()(x, label=lbl),
       paddle.nn.BCEWithLogitsLoss()(logit=x, label=(y > 0).astype("float32"))]
out = res
'''),
    ("loss_forward_keyword_twice", '''
x = inp(3, 4)
out = paddle.nn.MSELoss()(x, input=x)
'''),
    ("pairwise_distance_x1_x2", '''
x = inp(2, 3)
y = inp(2, 3, seed=1)
out = paddle.nn.PairwiseDistance()(x1=x, x2=y)
'''),
    ("max_unpool_forward_output_size", '''
x = inp(1, 1, 4, 4)
pooled, idx = paddle.nn.functional.max_pool2d(x, 2, return_mask=True)
unpool = paddle.nn.MaxUnPool2D(2)
out = [unpool(pooled, idx, output_size=[5, 5]).shape, unpool(input=pooled, indices=idx)]
'''),
    ("rand_like_input", '''
r = paddle.rand_like(input=paddle.ones([2, 3], dtype="float64"))
out = [r.shape, str(r.dtype)]
'''),
    ("buffers_parameters_recurse", '''
net = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.BatchNorm1D(2))
net.register_buffer("own", paddle.ones([1]))
out = [len(net.parameters(recurse=False)), len(net.parameters(recurse=True)),
       len(net.buffers(recurse=False)), len(net.buffers(recurse=True)),
       [n for n, _ in net.named_parameters(recurse=False)],
       [n for n, _ in net.named_buffers(recurse=False)]]
'''),
    ("parameters_recurse_and_include_sublayers", '''
net = paddle.nn.Sequential(paddle.nn.Linear(2, 2))
out = net.parameters(include_sublayers=True, recurse=False)
'''),
    ("register_buffer_persistent", '''
lin = paddle.nn.Linear(2, 2)
lin.register_buffer("scratch", paddle.zeros([2]), persistent=False)
lin.register_buffer("kept", paddle.zeros([2]), persistent=True)
out = sorted(lin.state_dict().keys())
'''),
    ("layer_list_module_keywords", '''
ll = paddle.nn.LayerList()
ll.append(module=paddle.nn.ReLU())
ll.extend(modules=[paddle.nn.Tanh()])
ll.insert(0, module=paddle.nn.Sigmoid())
ld = paddle.nn.LayerDict()
ld.update(modules={"a": paddle.nn.ReLU()})
root = paddle.nn.Layer()
root.set_sublayer("child", module=paddle.nn.ReLU())
out = [[type(m).__name__ for m in ll], list(ld.keys()), [n for n, _ in root.named_children()]]
'''),
    ("pixel_shuffle_keywords", '''
x = paddle.arange(16, dtype="float32").reshape([1, 4, 2, 2])
out = [paddle.nn.PixelShuffle(upscale_factor=2)(x),
       paddle.nn.PixelUnshuffle(downscale_factor=2)(paddle.nn.PixelShuffle(2)(x)),
       paddle.nn.ChannelShuffle(groups=2)(x)]
'''),
    ("upsampling_int_size", '''
x = paddle.arange(4, dtype="float32").reshape([1, 1, 2, 2])
out = [paddle.nn.UpsamplingNearest2d(size=4)(x), paddle.nn.UpsamplingBilinear2D(size=3)(x),
       repr(paddle.nn.UpsamplingNearest2D(size=4))]
'''),
    ("lppool_bool_fourth_is_ceil_mode", '''
x = paddle.arange(6, dtype="float32").reshape([1, 1, 6]) / 4
y = paddle.arange(25, dtype="float32").reshape([1, 1, 5, 5]) / 10
out = [paddle.nn.LPPool1d(2, 2, 2, True)(x), paddle.nn.LPPool1D(2, 2, 2, 1)(x),
       paddle.nn.LPPool2d(2, 2, 2, True)(y)]
'''),
    ("copysign__python_number", '''
a = paddle.to_tensor([1.0, -2.0, 0.0])
r = a.copysign_(-1.0)
out = [r is a, a, paddle.to_tensor([1, -2]).copysign_(-1.0),
       paddle.to_tensor([1.0, -2.0]).copysign_(True),
       paddle.to_tensor([0.0, 1.0]).copysign_(-0.0),
       paddle.copysign_(paddle.to_tensor([-1.0, 2.0], dtype="float64"), 1),
       paddle.to_tensor([1.0, -2.0]).copysign_(paddle.to_tensor(-1.0))]
'''),
    ("inplace_keywords", '''
out = [paddle.to_tensor([0.0, 1.0, 0.25]).logit_(eps=0.1),
       paddle.to_tensor([float("nan"), float("inf"), -float("inf")]).nan_to_num_(
           nan=1.0, posinf=2.0, neginf=-3.0),
       paddle.trunc_(input=paddle.to_tensor([1.5, -2.5])),
       paddle.to_tensor([1, -8]).bitwise_right_shift_(paddle.to_tensor([1, 1]),
                                                      is_arithmetic=False),
       paddle.to_tensor([3, -8]).bitwise_left_shift_(paddle.to_tensor([1, 2]),
                                                     is_arithmetic=True)]
'''),
    ("mean_dtype", '''
x = paddle.to_tensor([[1, 2], [3, 4]], dtype="int32")
out = [paddle.mean(x, dtype="float64"), x.astype("float64").mean(dtype="float32"),
       paddle.mean(x.astype("float32"), axis=1, dtype="float64")]
'''),
    ("silu_inplace", '''
a = paddle.to_tensor([1.0, -1.0, 0.5], stop_gradient=False)
b = a * 1
r = paddle.nn.functional.silu(b, inplace=True)
out = [r is b, b, paddle.nn.functional.silu(paddle.to_tensor([2.0]), True)]
'''),
    ("from_dlpack_copy", '''
t = paddle.to_tensor([1.0, 2.0])
c = paddle.from_dlpack(t, copy=True)
c[0] = 5.0
out = [t, c]
'''),
    # ------------------------------------------------------------ 4. the rest
    ("functional_module", '''
import paddle
import paddle.functional as PF
out = [sorted(n for n in dir(PF) if not n.startswith("_")), sorted(PF.__all__),
       PF.atleast_2d is paddle.atleast_2d, PF.split is paddle.compat.split,
       PF.atleast_2d(paddle.to_tensor(1.0)),
       list(PF.split(paddle.arange(5), 2)), PF.broadcast_shapes([2, 1], [3])]
'''),
    ("atleast_one_tuple", '''
res = []
for f in (paddle.atleast_1d, paddle.atleast_2d, paddle.atleast_3d):
    for arg in ((paddle.to_tensor(1.0), paddle.ones([2]), paddle.ones([2, 3])),
                [paddle.to_tensor(1.0), paddle.ones([2])], (paddle.to_tensor(5),)):
        r = f(arg)
        res.append([type(r).__name__, [a.shape for a in r] if isinstance(r, list) else r.shape])
    r = f(paddle.to_tensor(1.0), paddle.ones([2]))
    res.append([type(r).__name__, [a.shape for a in r]])
out = res
'''),
    ("atleast_python_values", '''
res = []
for f in (paddle.atleast_1d, paddle.atleast_3d):
    for arg in ([1, 2], (1.5, 2.5), np.array(3.0), 5, [paddle.to_tensor(1.0), 2.0]):
        r = f(arg)
        res.append(r if not isinstance(r, list) else list(r))
out = res
'''),
    ("numpy_ignores_arguments", '''
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
out = [x.numpy(False), x.numpy(True), x.numpy(1, 2), x.numpy(force=True),
       x.detach(1), x.clone(memory_format=None), x.is_contiguous(True)]
'''),
    ("core_generator_class", '''
import paddle
g = paddle.Generator()
out = [type(g) is paddle.framework.core.Generator,
       isinstance(g, paddle.framework.core.Generator),
       paddle.base.core.Generator is paddle.framework.core.Generator]
'''),
    ("tensor_constructor_lists", '''
out = [paddle.Tensor([1.5, 2]), paddle.Tensor([1, 2]), paddle.Tensor([[1, 2], [3, 4]]),
       paddle.Tensor((1.5, 2)), paddle.Tensor([True]), paddle.Tensor([1, 2], dtype="int32"),
       paddle.Tensor(data=[3, 4]), paddle.Tensor(), paddle.Tensor(paddle.to_tensor([1, 2])),
       paddle.Tensor(np.array([1.5], dtype="float64"))]
'''),
    ("tensor_constructor_sizes", '''
a = paddle.Tensor(3)
b = paddle.Tensor(2, 3)
paddle.set_default_dtype("float64")
try:
    c = paddle.Tensor([1.5])
    d = paddle.Tensor()
finally:
    paddle.set_default_dtype("float32")
out = [[a.shape, str(a.dtype)], [b.shape, str(b.dtype)], c, [d.shape, str(d.dtype)]]
'''),
]


def main():
    from layercase import record  # noqa: PLC0415 - imports real Paddle
    import paddle  # noqa: PLC0415
    assert paddle.__version__ == "3.3.1", paddle.__version__
    record(CASES, PRELUDE, OUT)


if __name__ == "__main__":
    main()
