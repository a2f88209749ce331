"""Record Paddle 3.3.1's ``paddle.nn.Layer``, the layers, the initializers and ``nn.utils`` as
goldens for tests/test_nn_layers.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_nn_layers.py

Writes tests/goldens/nn_layers.json: ``{"prelude": code, "cases": [{"id", "code",
"expected"}]}``. Each case's code runs after the prelude with ``paddle``, ``np``, ``nn`` and
``F`` bound, inside a fresh unique-name scope (so layer and parameter names start from 0), and
leaves its result in ``out``; ``expected`` is golden_utils.describe of it (a Layer is described
by its repr, i.e. what ``print`` shows). Inputs and weights are made by seeded numpy in the
code itself and loaded with ``set_state_dict``, so forward/backward checks do not depend on
Paddle's RNG; the ``init_*`` cases do, on purpose: they pin the initial values drawn after
``paddle.seed`` (compared bit for bit).
"""
import os
import sys
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))


from layercase import record  # noqa: E402

OUT = os.path.join(ROOT, "tests", "goldens", "nn_layers.json")

PRELUDE = '''
nn = paddle.nn
F = paddle.nn.functional

def inp(*shape, seed=0, dtype="float32", grad=True):
    t = paddle.to_tensor(np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype))
    t.stop_gradient = not grad
    return t

def load(layer, seed=1):
    """Deterministic values for every parameter and persistable buffer."""
    r = np.random.default_rng(seed)
    sd = layer.state_dict()
    new = {}
    for k, v in sd.items():
        a = v.numpy()
        lo, hi = (0.5, 1.5) if k.endswith("_variance") else (-1.0, 1.0)
        new[k] = r.uniform(lo, hi, a.shape).astype(a.dtype)
    layer.set_state_dict(new)
    return layer

def fb(layer, *xs):
    """Forward, then backward of a fixed weighted sum of the (first) output: the output, the
    inputs' gradients and the parameters' gradients by structured name."""
    y = layer(*xs)
    y0 = y[0] if isinstance(y, (tuple, list)) else y
    w = np.linspace(-1, 1, int(np.prod(y0.shape))).reshape(y0.shape).astype("float32")
    (y0 * paddle.to_tensor(w).astype(y0.dtype)).sum().backward()
    return [y, [x.grad for x in xs if isinstance(x, paddle.Tensor) and not x.stop_gradient],
            {n: p.grad for n, p in layer.named_parameters() if not p.stop_gradient}]
'''

CASES = []


def case(cid, code):
    CASES.append((cid, code.strip("\n")))


# ------------------------------------------------------------------ initial values (bit exact)
case("init_linear", "paddle.seed(2023); m = nn.Linear(4, 3); out = [m.weight, m.bias]")
case("init_two_linears", "paddle.seed(7); a = nn.Linear(3, 5); b = nn.Linear(5, 2)\n"
     "out = [a.weight, b.weight, paddle.randn([3])]")
case("init_linear_f64", "paddle.set_default_dtype('float64')\npaddle.seed(1)\n"
     "try:\n    m = nn.Linear(3, 2)\nfinally:\n    paddle.set_default_dtype('float32')\n"
     "out = [m.weight, m.bias, m]")
case("init_conv2d", "paddle.seed(5); m = nn.Conv2D(2, 3, 3, groups=1); out = [m.weight, m.bias]")
case("init_conv1d_groups", "paddle.seed(6); m = nn.Conv1D(4, 6, 2, groups=2); out = m.weight")
case("init_conv2d_transpose", "paddle.seed(8); m = nn.Conv2DTranspose(3, 4, 2); out = m.weight")
case("init_embedding", "paddle.seed(9); m = nn.Embedding(6, 3, padding_idx=2); out = m.weight")
case("init_mha", "paddle.seed(10); m = nn.MultiHeadAttention(4, 2)\n"
     "out = [p for p in m.parameters()]")
case("init_norms", "paddle.seed(11); out = [p for l in (nn.LayerNorm(3), nn.BatchNorm1D(2), "
     "nn.GroupNorm(2, 4), nn.InstanceNorm2D(2), nn.PReLU(3)) for p in l.parameters()]")
for name, ctor in [
        ("normal", "nn.initializer.Normal(1.0, 2.0)"),
        ("uniform", "nn.initializer.Uniform(-2.0, 3.0)"),
        ("trunc_normal", "nn.initializer.TruncatedNormal(0.0, 1.0)"),
        ("trunc_normal_ab", "nn.initializer.TruncatedNormal(0.5, 2.0, -1.0, 3.0)"),
        ("xavier_normal", "nn.initializer.XavierNormal()"),
        ("xavier_uniform_gain", "nn.initializer.XavierUniform(gain=2.0)"),
        ("xavier_fans", "nn.initializer.XavierUniform(fan_in=10.0, fan_out=20.0)"),
        ("kaiming_normal", "nn.initializer.KaimingNormal()"),
        ("kaiming_uniform", "nn.initializer.KaimingUniform()"),
        ("kaiming_fan_out", "nn.initializer.KaimingNormal(mode='fan_out', "
                            "nonlinearity='leaky_relu', negative_slope=0.2)"),
        ("constant", "nn.initializer.Constant(0.75)")]:
    case(f"init_{name}", f"paddle.seed(42)\n"
         f"p = paddle.create_parameter([6, 4], 'float32', default_initializer={ctor})\n"
         f"q = paddle.create_parameter([3, 2, 2, 2], 'float64', default_initializer={ctor})\n"
         f"out = [p, q]")
case("init_assign", "p = paddle.create_parameter([6, 4], 'float32', default_initializer="
     "nn.initializer.Assign(np.arange(24).reshape(6, 4) / 7.0))\nout = p")
case("init_trunc_large", "paddle.seed(3)\np = paddle.create_parameter([4000], 'float32', "
     "default_initializer=nn.initializer.TruncatedNormal(0.0, 0.02))\nout = p")
case("init_orthogonal", "paddle.seed(4)\np = paddle.create_parameter([3, 5], 'float32', "
     "default_initializer=nn.initializer.Orthogonal(gain=2.0))\n"
     "out = [p, paddle.matmul(p, p, transpose_y=True)]")
case("init_call_on_param", "paddle.seed(12); m = nn.Linear(2, 3)\n"
     "nn.initializer.Normal(0.0, 0.5)(m.weight); nn.initializer.Constant(2.0)(m.bias)\n"
     "out = [m.weight, m.bias]")
case("init_param_attr", "paddle.seed(13)\n"
     "m = nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name='myw', "
     "initializer=nn.initializer.Constant(0.5), learning_rate=0.1), bias_attr=False)\n"
     "out = [m.weight, m.weight.name, m.weight.optimize_attr['learning_rate'], m.bias, "
     "[n for n, _ in m.named_parameters()]]")
case("init_global", "paddle.seed(14)\n"
     "nn.initializer.set_global_initializer(nn.initializer.Uniform(-0.1, 0.1), "
     "nn.initializer.Constant(0.3))\ntry:\n    m = nn.Linear(2, 3)\nfinally:\n"
     "    nn.initializer.set_global_initializer(None)\nout = [m.weight, m.bias, "
     "nn.Linear(1, 1).bias]")
case("init_calculate_gain", "out = [nn.initializer.calculate_gain(n) for n in "
     "('sigmoid', 'tanh', 'relu', 'selu', 'conv2d')] + "
     "[nn.initializer.calculate_gain('leaky_relu', 0.3)]")

# ------------------------------------------------------------------ names, keys, printing
case("names_nested", '''
class Block(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.conv = nn.Conv2D(3, 4, 3)
        self.ln = nn.LayerNorm(4)
        self.register_buffer('buf', paddle.zeros([2]))
        self.register_buffer('nb', paddle.ones([2]), persistable=False)
        self.w = self.create_parameter([2, 3])
        self.b = self.create_parameter([3], is_bias=True)
    def forward(self, x):
        return x
class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.blocks = nn.LayerList([Block(), Block()])
        self.head = nn.Sequential(('lin', nn.Linear(4, 2)), ('act', nn.ReLU()))
    def forward(self, x):
        return x
m = Net()
out = [m, m.full_name(), [p.name for p in m.parameters()], list(m.state_dict().keys()),
       [n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()],
       [n for n, _ in m.named_sublayers()], [n for n, _ in m.named_children()],
       [type(l).__name__ for l in m.sublayers(include_self=True)],
       [l.full_name() for l in m.sublayers()], len(m.buffers()), len(m.parameters(False)),
       list(m.to_static_state_dict().keys())[:8]]
''')
case("print_zoo", '''
out = [nn.Conv2D(3, 4, 3, stride=2, padding=1), nn.Conv1D(2, 4, 3, dilation=2, groups=2),
       nn.Conv3D(1, 2, (1, 2, 3), padding_mode='reflect', padding=1, data_format='NCDHW'),
       nn.Conv1DTranspose(2, 3, 3), nn.Conv2DTranspose(2, 4, 3, output_padding=1, stride=2),
       nn.MaxPool2D(2), nn.MaxPool1D(3, 1, 1), nn.AvgPool2D(2, 2), nn.AvgPool1D(2),
       nn.AdaptiveAvgPool2D(1), nn.AdaptiveAvgPool1D(4), nn.AdaptiveMaxPool2D(2),
       nn.Dropout(0.5), nn.Dropout2D(0.2), nn.AlphaDropout(0.1),
       nn.Embedding(10, 3), nn.Embedding(10, 3, padding_idx=0), nn.GroupNorm(2, 4),
       nn.BatchNorm1D(3), nn.BatchNorm2D(3, momentum=0.5), nn.BatchNorm3D(2),
       nn.InstanceNorm2D(3), nn.InstanceNorm1D(3), nn.LayerNorm([2, 3], 1e-6),
       nn.Softmax(), nn.LogSoftmax(1), nn.LeakyReLU(), nn.GELU(True), nn.ReLU(), nn.ReLU6(),
       nn.Sigmoid(), nn.Tanh(), nn.Silu(), nn.Swish(), nn.Mish(), nn.ELU(0.5), nn.CELU(),
       nn.SELU(), nn.Hardtanh(), nn.Hardswish(), nn.Hardsigmoid(), nn.Softplus(),
       nn.Softshrink(), nn.Hardshrink(), nn.Softsign(), nn.Tanhshrink(), nn.LogSigmoid(),
       nn.ThresholdedReLU(), nn.GLU(), nn.PReLU(), nn.Softmax2D(),
       nn.CrossEntropyLoss(), nn.MSELoss(), nn.L1Loss(), nn.BCEWithLogitsLoss(), nn.BCELoss(),
       nn.NLLLoss(), nn.SmoothL1Loss(), nn.KLDivLoss(), nn.MarginRankingLoss(),
       nn.Flatten(), nn.Identity(), nn.Pad1D(1), nn.Pad2D([1, 0, 1, 2], mode='reflect'),
       nn.Upsample(scale_factor=2), nn.Upsample(size=[4, 4], mode='bilinear'),
       nn.PixelShuffle(2), nn.CosineSimilarity(), nn.Bilinear(2, 3, 4),
       nn.Linear(2, 3, name='fc'), nn.LeakyReLU(0.1, name='lr')]
''')
case("print_transformer", "out = [nn.MultiHeadAttention(8, 2), nn.TransformerEncoder("
     "nn.TransformerEncoderLayer(8, 2, 16, normalize_before=True), 2, nn.LayerNorm(8))]")
case("print_containers", '''
d = nn.LayerDict({'a': nn.Linear(2, 2), 'b': nn.Tanh()})
d['c'] = nn.ReLU()
l = nn.LayerList([nn.Linear(2, 2), nn.GELU()])
l.append(nn.Tanh()); l.insert(0, nn.ReLU())
s = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 3))
pl = nn.ParameterList([paddle.create_parameter([2], 'float32') for _ in range(2)])
out = [d, list(d.keys()), len(d), 'b' in d, l, len(l), type(l[1]).__name__, l[1:],
       s[1:], s[-1], len(s), pl, len(pl), [n for n, _ in pl.named_parameters()],
       list(nn.Sequential(('x', nn.Linear(1, 1))).state_dict().keys())]
''')

# ------------------------------------------------------------------ Layer behaviour
case("setattr_registry", '''
class M(nn.Layer):
    def __init__(self):
        super().__init__()
        self.t = paddle.ones([2])
        self.p = self.create_parameter([1])
        self.l = nn.Linear(1, 1)
        self.x = 3
    def forward(self, x):
        return x
m = M()
r = [list(m._buffers.keys()), list(m.state_dict().keys()), sorted(m._parameters.keys()),
     list(m._sub_layers.keys()), m.x]
try:
    m.p = paddle.ones([1])
except Exception as e:
    r.append(type(e).__name__)
m.p = None
r.append(list(m.state_dict().keys()))
try:
    m.register_buffer('a.b', paddle.ones([1]))
except Exception as e:
    r.append(type(e).__name__)
try:
    m.register_buffer('x', paddle.ones([1]))
except Exception as e:
    r.append(type(e).__name__)
try:
    m.register_buffer('q', m.l.weight)
except Exception as e:
    r.append(type(e).__name__)
try:
    m.add_parameter('z', paddle.ones([1]))
except Exception as e:
    r.append(type(e).__name__)
try:
    m.nope
except Exception as e:
    r.append(type(e).__name__)
del m.l
r.append(list(m._sub_layers.keys()))
out = r
''')
case("train_eval_apply", '''
m = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5), nn.Sequential(nn.BatchNorm1D(2)))
r = [m.training, m[1].training]
m.eval()
r += [m.training, m[1].training, m[2][0].training]
m.train()
r += [m[2][0].training]
names = []
m.apply(lambda l: names.append(type(l).__name__))
r.append(names)
m.apply(lambda l: nn.initializer.Constant(0.25)(l.weight) if isinstance(l, nn.Linear) else None)
r.append(m[0].weight)
out = r
''')
case("hooks", '''
m = nn.Linear(2, 2)
load(m)
calls = []
def pre(layer, inputs):
    calls.append('pre')
    return (inputs[0] * 2,)
def post(layer, inputs, output):
    calls.append('post')
    return output + 1
h1 = m.register_forward_pre_hook(pre)
h2 = m.register_forward_post_hook(post)
x = inp(1, 2, grad=False)
a = m(x)
h1.remove(); h2.remove()
b = m(x)
out = [a, b, calls]
''')
case("state_dict_roundtrip", '''
a = load(nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1D(2)), seed=3)
b = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1D(2))
missing, unexpected = b.set_state_dict(a.state_dict())
sd = dict(a.state_dict()); sd['extra'] = paddle.ones([1]); del sd['0.bias']
sd['1.weight'] = paddle.ones([5])
m2, u2 = b.set_state_dict(sd)
c = nn.Linear(3, 2)
m3, u3 = c.set_state_dict({a[0].weight.name: a[0].weight, a[0].bias.name: a[0].bias},
                          use_structured_name=False)
out = [missing, unexpected, b[0].weight, b[1]._variance, m2, u2, b[1].weight, m3, u3, c.bias,
       [v.persistable for v in a.state_dict().values()], a.state_dict()['0.bias']]
''')
case("to_and_float", '''
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1D(2))
load(m)
w = m[0].weight
m.to(dtype='float64')
r = [str(m[0].weight.dtype), w is m[0].weight, str(m[1]._mean.dtype), repr(m[0]),
     m[0].weight.stop_gradient, m[1]._mean.stop_gradient, m[0].weight]
m.float()
r += [str(m[0].weight.dtype), repr(m[0])]
m.to(dtype='float16')
r += [str(m[0].weight.dtype), str(m[1]._variance.dtype), repr(m[0])]
out = r
''')
case("clear_gradients", '''
m = load(nn.Linear(2, 2))
m(inp(3, 2)).sum().backward()
r = [m.weight.grad.numpy().copy()]
m.clear_gradients()
r.append(m.weight.grad.numpy().copy())
m(inp(3, 2)).sum().backward()
m.clear_gradients(set_to_zero=False)
out = r + [m.weight.grad]
''')
case("param_flags", '''
m = nn.Linear(2, 3)
w = m.weight
out = [w.stop_gradient, w.trainable, w.persistable, w.name, w.need_clip,
       isinstance(w, paddle.Tensor), m.bias.shape, w.shape]
''')
case("dup_param_name", '''
a = nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name='shared_w'))
try:
    b = nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name='shared_w'))
    out = 'no error'
except Exception as e:
    out = e
''')

# ------------------------------------------------------------------ forward and backward
FB = {
    "linear": "nn.Linear(4, 3)", "linear_nobias": "nn.Linear(4, 3, bias_attr=False)",
    "conv1d": "nn.Conv1D(2, 3, 3, padding=1)", "conv2d": "nn.Conv2D(2, 3, 3, stride=2, padding=1)",
    "conv2d_reflect": "nn.Conv2D(2, 2, 3, padding=1, padding_mode='reflect')",
    "conv2d_groups": "nn.Conv2D(4, 4, 3, groups=2)",
    "conv2d_nhwc": "nn.Conv2D(2, 3, 3, data_format='NHWC')",
    "conv3d": "nn.Conv3D(2, 2, 2)",
    "conv1d_t": "nn.Conv1DTranspose(2, 3, 3, stride=2)",
    "conv2d_t": "nn.Conv2DTranspose(2, 3, 3, stride=2, padding=1, output_padding=1)",
    "conv3d_t": "nn.Conv3DTranspose(2, 2, 2)",
    "maxpool2d": "nn.MaxPool2D(2, 2)", "maxpool1d": "nn.MaxPool1D(3, 2, 1)",
    "avgpool2d": "nn.AvgPool2D(3, 2, 1, exclusive=False)", "avgpool1d": "nn.AvgPool1D(2)",
    "adaptive_avg2d": "nn.AdaptiveAvgPool2D([2, 3])", "adaptive_max2d": "nn.AdaptiveMaxPool2D(2)",
    "adaptive_avg1d": "nn.AdaptiveAvgPool1D(3)",
    "layernorm": "nn.LayerNorm(6)", "layernorm2": "nn.LayerNorm([3, 6])",
    "groupnorm": "nn.GroupNorm(2, 4)", "instancenorm2d": "nn.InstanceNorm2D(4)",
    "bn1d_eval": "nn.BatchNorm1D(4)", "bn2d_eval": "nn.BatchNorm2D(4)",
    "embedding": "nn.Embedding(10, 4, padding_idx=1)",
    "prelu": "nn.PReLU(4)", "bilinear": "nn.Bilinear(3, 2, 4)",
    "mha": "nn.MultiHeadAttention(8, 2)", "mha_kv": "nn.MultiHeadAttention(8, 2, kdim=6, vdim=5)",
    "encoder_layer": "nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)",
    "encoder_layer_pre": "nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation='gelu', "
                         "normalize_before=True)",
    "encoder": "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2, "
               "nn.LayerNorm(8))",
    "flatten": "nn.Flatten()", "pad2d": "nn.Pad2D([1, 0, 2, 1], mode='replicate')",
    "upsample": "nn.Upsample(scale_factor=2, mode='bilinear')",
    "pixel_shuffle": "nn.PixelShuffle(2)",
}
INPUTS = {
    "linear": "inp(2, 4)", "linear_nobias": "inp(2, 4)", "conv1d": "inp(2, 2, 5)",
    "conv2d": "inp(2, 2, 5, 5)", "conv2d_reflect": "inp(1, 2, 4, 4)",
    "conv2d_groups": "inp(1, 4, 5, 5)", "conv2d_nhwc": "inp(1, 5, 5, 2)",
    "conv3d": "inp(1, 2, 3, 3, 3)", "conv1d_t": "inp(1, 2, 4)", "conv2d_t": "inp(1, 2, 3, 3)",
    "conv3d_t": "inp(1, 2, 2, 2, 2)", "maxpool2d": "inp(1, 2, 4, 4)",
    "maxpool1d": "inp(1, 2, 7)", "avgpool2d": "inp(1, 2, 5, 5)", "avgpool1d": "inp(1, 2, 6)",
    "adaptive_avg2d": "inp(1, 2, 5, 7)", "adaptive_max2d": "inp(1, 2, 5, 5)",
    "adaptive_avg1d": "inp(1, 2, 7)", "layernorm": "inp(2, 3, 6)", "layernorm2": "inp(2, 3, 6)",
    "groupnorm": "inp(2, 4, 3, 3)", "instancenorm2d": "inp(2, 4, 3, 3)",
    "bn1d_eval": "inp(3, 4, 5)", "bn2d_eval": "inp(2, 4, 3, 3)",
    "embedding": "paddle.to_tensor([[1, 2, 3], [4, 1, 9]])", "prelu": "inp(2, 4, 3)",
    "bilinear": "inp(5, 3), inp(5, 2, seed=1)", "mha": "inp(2, 3, 8)",
    "mha_kv": "inp(2, 3, 8), inp(2, 4, 6, seed=1), inp(2, 4, 5, seed=2)",
    "encoder_layer": "inp(2, 3, 8)", "encoder_layer_pre": "inp(2, 3, 8)",
    "encoder": "inp(2, 3, 8)", "flatten": "inp(2, 3, 2, 2)", "pad2d": "inp(1, 2, 3, 3)",
    "upsample": "inp(1, 2, 3, 3)", "pixel_shuffle": "inp(1, 8, 2, 2)",
}
for k, ctor in FB.items():
    pre = "m.eval()\n" if k.endswith("_eval") else ""
    case(f"fb_{k}", f"m = load({ctor})\n{pre}out = fb(m, {INPUTS[k]})")

case("fb_bn_train_stats", '''
m = load(nn.BatchNorm2D(3, momentum=0.8))
x = inp(4, 3, 2, 2)
y = fb(m, x)
out = y + [m._mean, m._variance]
''')
case("fb_mha_mask_weights", '''
m = load(nn.MultiHeadAttention(8, 2, need_weights=True))
mask = paddle.to_tensor(np.tril(np.ones([3, 3])).astype('bool')).reshape([1, 1, 3, 3])
out = fb(m, inp(2, 3, 8), None, None, mask)
''')
case("mha_cache", '''
m = load(nn.MultiHeadAttention(8, 2))
q = inp(2, 1, 8, grad=False)
cache = m.gen_cache(q)
o1, cache = m(q, q, q, None, cache)
q2 = inp(2, 1, 8, seed=5, grad=False)
o2, cache = m(q2, q2, q2, None, cache)
sc = m.gen_cache(inp(2, 4, 8, seed=6, grad=False), inp(2, 4, 8, seed=7, grad=False),
                 type=nn.MultiHeadAttention.StaticCache)
o3, _ = m(q2, None, None, None, sc)
out = [o1, o2, cache.k.shape, cache.v, o3, type(cache).__name__]
''')
case("encoder_mask_int", '''
m = load(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0))
mask = paddle.to_tensor(np.triu(np.ones([3, 3]), 1).astype('int64') * 0 + np.tril(np.ones([3, 3])).astype('int64'))
out = m(inp(2, 3, 8, grad=False), mask)
''')
case("dropout_train", '''
paddle.seed(3)
m = nn.Dropout(0.5)
x = paddle.ones([4, 5])
a = m(x)
m.eval()
out = [a, m(x)]
''')
for name, (ctor, args) in {
        "ce": ("nn.CrossEntropyLoss()", "inp(4, 5), paddle.to_tensor([1, 0, 4, 2])"),
        "ce_weight_smooth": ("nn.CrossEntropyLoss(weight=paddle.to_tensor([1., 2., 0.5, 1., "
                             "3.]), label_smoothing=0.1)",
                             "inp(4, 5), paddle.to_tensor([1, 0, 4, 2])"),
        "ce_ignore_sum": ("nn.CrossEntropyLoss(ignore_index=0, reduction='sum')",
                          "inp(4, 5), paddle.to_tensor([[1], [0], [4], [2]])"),
        "ce_soft": ("nn.CrossEntropyLoss(soft_label=True)",
                    "inp(3, 4), F.softmax(inp(3, 4, seed=2, grad=False))"),
        "nll": ("nn.NLLLoss()", "F.log_softmax(inp(4, 5)), paddle.to_tensor([1, 0, 4, 2])"),
        "mse": ("nn.MSELoss()", "inp(3, 4), inp(3, 4, seed=1, grad=False)"),
        "l1_sum": ("nn.L1Loss('sum')", "inp(3, 4), inp(3, 4, seed=1, grad=False)"),
        "smooth_l1": ("nn.SmoothL1Loss(delta=0.5)", "inp(3, 4), inp(3, 4, seed=1, grad=False)"),
        "bce_logits": ("nn.BCEWithLogitsLoss(pos_weight=paddle.to_tensor([1., 2., 3., 0.5]))",
                       "inp(3, 4), paddle.to_tensor(np.random.default_rng(4).integers(0, 2, "
                       "[3, 4]).astype('float32'))"),
        "bce": ("nn.BCELoss()", "F.sigmoid(inp(3, 4)), paddle.to_tensor(np.random.default_rng(4)"
                ".integers(0, 2, [3, 4]).astype('float32'))"),
        "kldiv": ("nn.KLDivLoss(reduction='batchmean')",
                  "F.log_softmax(inp(3, 4)), F.softmax(inp(3, 4, seed=1, grad=False))"),
        "margin": ("nn.MarginRankingLoss(0.1)", "inp(4), inp(4, seed=1), "
                   "paddle.to_tensor([1., -1., 1., -1.])")}.items():
    case(f"loss_{name}", f"m = {ctor}\nout = fb(m, {args})")
case("loss_bad_reduction", "try:\n    nn.MSELoss('avg')\n    out = 'ok'\nexcept Exception as e:\n"
     "    out = e")

# ------------------------------------------------------------------ nn.utils
case("utils_clip_norm", '''
m = load(nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2)))
fb(m, inp(5, 3))
total = nn.utils.clip_grad_norm_(m.parameters(), 0.5)
out = [total, [p.grad for p in m.parameters()]]
''')
case("utils_clip_norm_inf", '''
m = load(nn.Linear(3, 4))
fb(m, inp(5, 3))
total = nn.utils.clip_grad_norm_(m.parameters(), 0.1, norm_type=float('inf'))
out = [total, m.weight.grad]
''')
case("utils_clip_value", '''
m = load(nn.Linear(3, 4))
fb(m, inp(5, 3))
nn.utils.clip_grad_value_(m.parameters(), 0.3)
out = [m.weight.grad, m.bias.grad]
''')
case("utils_vector", '''
m = load(nn.Linear(3, 2))
v = nn.utils.parameters_to_vector(m.parameters())
nn.utils.vector_to_parameters(v * 2, m.parameters())
out = [v, m.weight, m.bias]
''')


def main():
    record(CASES, PRELUDE, OUT)


if __name__ == "__main__":
    main()
