"""Record Paddle 3.3.1's ``paddle.nn.functional`` activations, common layers, norms and losses
as goldens for tests/test_ops_nn.py (paddle_compat.nn.functional: activation, common, norm,
loss).

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_ops_nn.py

Writes tests/goldens/ops_nn.json, the case format of ops_math.json:

    api       the Paddle name as in /work/shared/api_targets.tsv
    id        unique, starts with api
    inputs    {name: {"dtype", "shape", "values"}} made with a seeded numpy RNG
    pre       optional statement run first (``paddle.seed(...)`` for random ops)
    call      Python source evaluated with ``paddle``, ``F`` (= paddle.nn.functional), ``np``
              and the inputs bound by name
    grad      names of the inputs that do not stop gradient (float32/float64 only)
    inplace   true when the call must return its first input object, modified
    expected  {"dtype", "shape", "values"}, {"tuple": [...]}, {"py": value} or
              {"error": class name, "message"}
    weights   per differentiable Tensor output, the weight w of the loss sum(out * w)
    grads     {name: {"dtype", "shape", "values"} or None}: d loss / d input
    tol       optional [rtol, atol] overriding the dtype's tolerance

Cases on which Paddle's CPU build has no kernel (float16/bfloat16 for most ops, float64
log_loss, rms_norm altogether) are left out and printed: GPU Paddle supports them.
"""
import json
import os
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)
import paddle.nn.functional as F  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opcase import build, encode, encode_result, tensor_outputs  # noqa: E402

paddle.set_device("cpu")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "ops_nn.json")

rng = np.random.default_rng(20240612)
FLOATS = ("float16", "bfloat16", "float32", "float64")
LOWP = ("float16", "bfloat16")

DOMAINS = {
    "normal": lambda n: rng.standard_normal(n) * 2,
    "small": lambda n: rng.uniform(-3.0, 3.0, n),
    "prob": lambda n: rng.uniform(0.05, 0.95, n),
    "pos": lambda n: rng.uniform(0.1, 3.0, n),
    "ones": lambda n: np.ones(n),
    "sign": lambda n: rng.choice([-1.0, 1.0], n),
}


def T(dtype, shape, domain="normal", ints=None):
    """A tensor spec: ``ints=(lo, hi)`` draws integers in [lo, hi) instead of ``domain``."""
    n = int(np.prod(shape)) if shape else 1
    if ints is not None:
        v = rng.integers(ints[0], ints[1], n)
        return {"dtype": dtype, "shape": list(shape), "values": [int(a) for a in v]}
    v = DOMAINS[domain](n).astype(np.float64)
    if dtype == "bool":
        return {"dtype": dtype, "shape": list(shape), "values": [bool(a > 0) for a in v]}
    t = paddle.to_tensor(v.astype(np.float32 if dtype != "float64" else np.float64))
    vals = [float(a) for a in t.astype(dtype).astype("float64").numpy().reshape(-1)]
    return {"dtype": dtype, "shape": list(shape), "values": vals}


CASES = []
IDS = set()
DROPPED = []


def case(api, call, grad=True, inplace=False, tag="", pre=None, nograd=(), tol=None, **inputs):
    """Run ``call`` on real Paddle and store the case (inputs, result or error, gradients);
    ``nograd`` names float inputs that keep stop_gradient=True (labels, running stats)."""
    cid = f"{api}[{tag or call}]"
    k = 2
    while cid in IDS:
        cid = f"{api}[{tag or call}#{k}]"
        k += 1
    IDS.add(cid)
    env = {"paddle": paddle, "F": F, "np": np}
    gnames = []
    for name, spec in inputs.items():
        t = build(spec)
        if grad and not inplace and spec["dtype"] in ("float32", "float64") \
                and name not in nograd:
            t.stop_gradient = False
            gnames.append(name)
        env[name] = t
    c = {"api": api, "id": cid, "inputs": inputs, "call": call, "grad": gnames}
    if pre:
        c["pre"] = pre
    if tol:
        c["tol"] = list(tol)
    if inplace:
        c["inplace"] = True
    try:
        if pre:
            exec(pre, env)
        r = eval(call, env)
    except Exception as e:  # noqa: BLE001  the exception is the golden
        if "is not registered" in str(e):
            DROPPED.append(f"{cid}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
            return
        c["expected"] = {"error": type(e).__name__, "message": str(e).split("\n")[0][:200]}
        CASES.append(c)
        return
    c["expected"] = encode_result(r)
    outs = [o for o in tensor_outputs(r) if not o.stop_gradient
            and str(o.dtype).replace("paddle.", "") in ("float32", "float64")]
    if gnames and outs:
        ws = [paddle.to_tensor(rng.uniform(-1, 1, o.shape).astype(np.float64)).astype(o.dtype)
              for o in outs]
        loss = sum((o * w).sum() for o, w in zip(outs, ws))
        try:
            gs = paddle.grad(loss, [env[n] for n in gnames], allow_unused=True)
            c["weights"] = [encode(w) for w in ws]
            c["grads"] = {n: (None if g is None else encode(g)) for n, g in zip(gnames, gs)}
        except Exception as e:  # noqa: BLE001
            c["grad_error"] = type(e).__name__
    else:
        c["grad"] = []
    CASES.append(c)


FN = "paddle.nn.functional."


# ---------------------------------------------------------------------------- activations
def activation_cases():
    plain = ["relu", "relu6", "sigmoid", "silu", "swish", "log_sigmoid", "tanh", "hardswish",
             "mish", "softsign", "tanhshrink", "gelu", "selu", "celu", "elu", "leaky_relu",
             "hardsigmoid", "hardtanh", "hardshrink", "softshrink", "softplus",
             "thresholded_relu"]
    for name in plain:
        api = FN + name
        for shape in ([], [7], [2, 3, 4], [0, 3]):
            case(api, f"F.{name}(x)", x=T("float32", shape))
        # Paddle holds selu's constants as float attributes: float64 results round at 1e-7
        case(api, f"F.{name}(x)", tag="f64", x=T("float64", [3, 4]),
             tol=(1e-6, 1e-9) if name == "selu" else None)
        for dt in LOWP:
            case(api, f"F.{name}(x)", tag=dt, x=T(dt, [3, 4]))
    extra = {
        "gelu": ["F.gelu(x, approximate=True)", "F.gelu(x, True)", "F.gelu(x, 'tanh')",
                 "F.gelu(x, approximate='none')"],
        "elu": ["F.elu(x, alpha=0.5)", "F.elu(x, 2.0)"],
        "celu": ["F.celu(x, alpha=0.3)", "F.celu(x, 0.0)"],
        "selu": ["F.selu(x, scale=1.5, alpha=2.0)", "F.selu(x, scale=1.0)",
                 "F.selu(x, alpha=-1.0)"],
        "leaky_relu": ["F.leaky_relu(x, negative_slope=0.2)", "F.leaky_relu(x, -0.5)"],
        "hardsigmoid": ["F.hardsigmoid(x, slope=0.2, offset=0.4)", "F.hardsigmoid(x, 0.5)"],
        "hardtanh": ["F.hardtanh(x, min=-0.5, max=2.0)", "F.hardtanh(x, -2.0, 0.5)"],
        "hardshrink": ["F.hardshrink(x, threshold=1.0)", "F.hardshrink(x, 0.0)"],
        "softshrink": ["F.softshrink(x, threshold=1.0)", "F.softshrink(x, -0.5)"],
        "softplus": ["F.softplus(x, beta=2, threshold=3)", "F.softplus(x, beta=0.5)",
                     "F.softplus(x, 1, 1.0)"],
        "thresholded_relu": ["F.thresholded_relu(x, threshold=0.5, value=-1.0)",
                             "F.thresholded_relu(x, 2.0)"],
        "relu": ["F.relu([1.0, 2.0])"],
    }
    for name, calls in extra.items():
        for call in calls:
            case(FN + name, call, x=T("float32", [3, 5]))
    # exact boundary points: gradients at kinks
    edges = {"dtype": "float32", "shape": [9],
             "values": [-6.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0]}
    for call in ["F.relu(x)", "F.relu6(x)", "F.leaky_relu(x)", "F.elu(x)",
                 "F.hardtanh(x)", "F.hardshrink(x)", "F.softshrink(x)", "F.selu(x)",
                 "F.thresholded_relu(x)", "F.celu(x)"]:
        case(FN + call.split("(")[0][2:], call, tag="edges:" + call, x=edges)

    for name in ("relu_", "leaky_relu_", "elu_", "hardtanh_", "thresholded_relu_", "tanh_"):
        api = FN + name
        case(api, f"F.{name}(x)", inplace=True, x=T("float32", [3, 4]))
        case(api, f"F.{name}(x)", inplace=True, tag="f64", x=T("float64", [5]))
        case(api, f"F.{name}(x)", tag="leaf-error", x=T("float32", [3]))
    case(FN + "leaky_relu_", "F.leaky_relu_(x, 0.3)", inplace=True, x=T("float32", [6]))
    case(FN + "elu_", "F.elu_(x, -1.0)", inplace=True, tag="negative alpha", x=T("float32", [6]))
    case(FN + "hardtanh_", "F.hardtanh_(x, -0.3, 0.3)", inplace=True, x=T("float32", [6]))
    case(FN + "thresholded_relu_", "F.thresholded_relu_(x, 0.5, 2.0)", inplace=True,
         x=T("float32", [6]))
    # in-place on an intermediate that needs its gradient
    case(FN + "relu_", "F.relu_(x * 2)", tag="non-leaf", x=T("float32", [2, 3]))

    for api, call in [("softmax", "F.softmax(x)"), ("log_softmax", "F.log_softmax(x)")]:
        a = FN + api
        for shape in ([], [6], [2, 3, 4], [0, 4]):
            case(a, call, x=T("float32", shape))
        case(a, call, tag="f64", x=T("float64", [3, 5]))
        for dt in LOWP:
            case(a, call, tag=dt, x=T(dt, [3, 5]))
        for ax in (0, 1, -2, 2):
            case(a, f"F.{api}(x, axis={ax})", x=T("float32", [2, 3, 4]))
        case(a, f"F.{api}(x, dtype='float64')", x=T("float32", [2, 5]))
        case(a, f"F.{api}(x, -1, paddle.float32)", x=T("float16", [2, 5]))
        case(a, f"F.{api}(x, axis=3)", tag="axis out of range", x=T("float32", [2, 3]))
    case("paddle.Tensor.softmax", "x.softmax()", x=T("float32", [2, 5]))
    case("paddle.Tensor.softmax", "x.softmax(axis=0)", x=T("float32", [2, 5]))
    case(FN + "softmax_", "F.softmax_(x)", inplace=True, x=T("float32", [3, 4]))
    case(FN + "softmax_", "F.softmax_(x, 0)", inplace=True, x=T("float64", [3, 4]))

    a = FN + "prelu"
    case(a, "F.prelu(x, w)", x=T("float32", [2, 3, 4]), w=T("float32", [1]))
    case(a, "F.prelu(x, w)", tag="0-d weight", x=T("float32", [2, 3, 4]), w=T("float32", []))
    case(a, "F.prelu(x, w)", tag="channel", x=T("float32", [2, 3, 4, 2]), w=T("float32", [3]))
    case(a, "F.prelu(x, w, data_format='NHWC')", x=T("float32", [2, 3, 4, 2]),
         w=T("float32", [2]))
    case(a, "F.prelu(x, w, data_format='NLC')", x=T("float64", [2, 5, 3]), w=T("float64", [3]))
    case(a, "F.prelu(x, w)", tag="NC", x=T("float32", [4, 3]), w=T("float32", [3]))
    case(a, "F.prelu(x, w)", tag="bad channel", x=T("float32", [2, 3, 4]), w=T("float32", [4]))
    case(a, "F.prelu(x, w, data_format='NWC')", x=T("float32", [2, 3, 4]), w=T("float32", [3]))
    for dt in LOWP:
        case(a, "F.prelu(x, w)", tag=dt, x=T(dt, [2, 3, 4]), w=T(dt, [3]))

    a = FN + "glu"
    case(a, "F.glu(x)", x=T("float32", [3, 6]))
    case(a, "F.glu(x, axis=0)", x=T("float32", [4, 3]))
    case(a, "F.glu(x, 1)", x=T("float64", [2, 4, 3]))
    case(a, "F.glu(x, axis=-2)", x=T("float32", [2, 4, 3]))
    case(a, "F.glu(x)", tag="odd", x=T("float32", [3, 5]))
    case(a, "F.glu(x, axis=2)", tag="axis out of range", x=T("float32", [3, 4]))
    for dt in LOWP:
        case(a, "F.glu(x)", tag=dt, x=T(dt, [3, 4]))
    a = FN + "swiglu"
    case(a, "F.swiglu(x)", x=T("float32", [3, 6]))
    case(a, "F.swiglu(x, y)", x=T("float32", [3, 4]), y=T("float32", [3, 4]))


# ---------------------------------------------------------------------------- common layers
def linear_cases():
    a = FN + "linear"
    case(a, "F.linear(x, w, b)", x=T("float32", [4, 3]), w=T("float32", [3, 5]),
         b=T("float32", [5]))
    case(a, "F.linear(x, w)", x=T("float32", [2, 4, 3]), w=T("float32", [3, 2]))
    case(a, "F.linear(x, w, b)", tag="1-d x", x=T("float32", [3]), w=T("float32", [3, 2]),
         b=T("float32", [2]))
    case(a, "F.linear(x, weight=w, bias=b)", x=T("float64", [2, 3]), w=T("float64", [3, 4]),
         b=T("float64", [4]))
    case(a, "F.linear(x, w, b)", tag="empty batch", x=T("float32", [0, 3]),
         w=T("float32", [3, 2]), b=T("float32", [2]))
    for dt in LOWP:
        case(a, "F.linear(x, w, b)", tag=dt, x=T(dt, [2, 3]), w=T(dt, [3, 4]), b=T(dt, [4]),
             tol=(2e-2, 2e-2))
    case(a, "F.linear(x, w)", tag="shape mismatch", x=T("float32", [2, 3]),
         w=T("float32", [4, 2]))
    a = FN + "bilinear"
    case(a, "F.bilinear(x1, x2, w, b)", x1=T("float32", [4, 3]), x2=T("float32", [4, 2]),
         w=T("float32", [5, 3, 2]), b=T("float32", [1, 5]))
    case(a, "F.bilinear(x1, x2, w)", x1=T("float64", [2, 3]), x2=T("float64", [2, 3]),
         w=T("float64", [2, 3, 3]))


def dropout_cases():
    a = FN + "dropout"
    x = T("float32", [8, 16])
    for seed, p in ((1, 0.5), (2, 0.1), (3, 0.9), (4, 0.3)):
        case(a, f"F.dropout(x, {p})", pre=f"paddle.seed({seed})", x=x)
    case(a, "F.dropout(x, p=0.5)", tag="two calls", pre="paddle.seed(5); F.dropout(x, 0.5)",
         x=T("float32", [5, 7]))
    case(a, "F.dropout(x, 0.4)", tag="3-d", pre="paddle.seed(6)", x=T("float32", [2, 3, 5]))
    case(a, "F.dropout(x, 0.4)", tag="0-d", pre="paddle.seed(6)", x=T("float32", []))
    case(a, "F.dropout(x, 0.4)", tag="f64", pre="paddle.seed(7)", x=T("float64", [4, 6]))
    case(a, "F.dropout(x, 0.4)", tag="bf16", pre="paddle.seed(7)", x=T("bfloat16", [4, 6]))
    case(a, "F.dropout(x, 0.4)", tag="f16", pre="paddle.seed(7)", x=T("float16", [4, 6]))
    case(a, "F.dropout(x, 0.25, mode='downscale_in_infer')", pre="paddle.seed(8)",
         x=T("float32", [4, 6]))
    case(a, "F.dropout(x, 0.25, training=False)", x=T("float32", [4, 6]))
    case(a, "F.dropout(x, 0.25, training=False, mode='downscale_in_infer')",
         x=T("float32", [4, 6]))
    case(a, "F.dropout(x, 0.0)", x=T("float32", [4, 6]))
    case(a, "F.dropout(x, 0)", x=T("float32", [4, 6]))
    case(a, "F.dropout(x, 1.0)", pre="paddle.seed(9)", x=T("float32", [4, 6]))
    case(a, "(F.dropout(x, 1.0), paddle.rand([3]))", tag="p=1 draws nothing",
         pre="paddle.seed(9)", x=T("float32", [4, 6]))
    case(a, "(F.dropout(x, 0.5), paddle.rand([3]))", tag="stream continues",
         pre="paddle.seed(9)", x=T("float32", [4, 6]))
    case(a, "F.dropout(x, 1)", tag="p=1 int", pre="paddle.seed(9)", x=T("float32", [4, 6]))
    for ax in ("0", "1", "[0, 1]", "[1]", "(0, 2)"):
        case(a, f"F.dropout(x, 0.5, axis={ax})", pre="paddle.seed(10)",
             x=T("float32", [4, 5, 3]))
    case(a, "F.dropout(x, 0.5, axis=1, mode='downscale_in_infer')", pre="paddle.seed(11)",
         x=T("float32", [4, 5]))
    case(a, "F.dropout(x, 0.5, axis=1, training=False, mode='downscale_in_infer')",
         x=T("float32", [4, 5]))
    case(a, "F.dropout(x, 0.5, axis=1, training=False)", x=T("float32", [4, 5]))
    case(a, "F.dropout(x, 1.0, axis=1)", x=T("float32", [4, 5]))
    case(a, "F.dropout(x, 0.5, axis=3)", tag="axis out of range", pre="paddle.seed(1)",
         x=T("float32", [4, 5]))
    case(a, "F.dropout(x, 0.5, axis=-1)", tag="negative axis", pre="paddle.seed(1)",
         x=T("float32", [4, 5]))
    case(a, "F.dropout(x, 0.5, axis=1)", tag="axis bf16", pre="paddle.seed(12)",
         x=T("bfloat16", [4, 5]))
    case(a, "F.dropout(x, 1.5)", tag="p>1", x=T("float32", [4]))
    case(a, "F.dropout(x, -0.1)", tag="p<0", x=T("float32", [4]))
    case(a, "F.dropout(x, '0.5')", tag="p str", x=T("float32", [4]))
    case(a, "F.dropout(x, 0.5, mode='bad')", tag="bad mode", x=T("float32", [4]))
    case(a, "F.dropout(x, 0.5, axis=1.5)", tag="bad axis", x=T("float32", [4, 3]))

    a = FN + "dropout2d"
    case(a, "F.dropout2d(x, 0.5)", pre="paddle.seed(13)", x=T("float32", [2, 3, 4, 4]))
    case(a, "F.dropout2d(x, p=0.3, data_format='NHWC')", pre="paddle.seed(14)",
         x=T("float32", [2, 4, 4, 3]))
    case(a, "F.dropout2d(x, 0.5, training=False)", x=T("float32", [2, 3, 2, 2]))
    case(a, "F.dropout2d(x, 0.5)", tag="3-d", x=T("float32", [3, 2, 2]))
    case(a, "F.dropout2d(x, 0.5, data_format='NCDHW')", tag="bad format",
         x=T("float32", [2, 3, 2, 2]))
    a = FN + "dropout3d"
    case(a, "F.dropout3d(x, 0.5)", pre="paddle.seed(15)", x=T("float32", [2, 3, 2, 2, 2]))
    case(a, "F.dropout3d(x, 0.5, data_format='NDHWC')", pre="paddle.seed(16)",
         x=T("float32", [2, 2, 2, 2, 3]))
    case(a, "F.dropout3d(x, 0.5)", tag="4-d", x=T("float32", [2, 3, 2, 2]))
    a = FN + "alpha_dropout"
    case(a, "F.alpha_dropout(x, 0.5)", pre="paddle.seed(17)", x=T("float32", [6, 7]))
    case(a, "F.alpha_dropout(x, p=0.2)", pre="paddle.seed(18)", x=T("float64", [3, 4, 5]))
    case(a, "F.alpha_dropout(x, 0.5, training=False)", x=T("float32", [3, 4]))
    case(a, "F.alpha_dropout(x, 1.0)", x=T("float32", [3, 4]))
    case(a, "F.alpha_dropout(x, 0.0)", pre="paddle.seed(3)", x=T("float32", [3, 4]))
    case(a, "F.alpha_dropout(x, 2.0)", tag="p>1", x=T("float32", [3, 4]))
    a = FN + "feature_alpha_dropout"
    case(a, "F.feature_alpha_dropout(x, 0.5)", pre="paddle.seed(19)",
         x=T("float32", [3, 4, 5]))


def pad_cases():
    a = FN + "pad"
    x4 = T("float32", [2, 3, 4, 5])
    for call in ["F.pad(x, [1, 2])", "F.pad(x, [1, 2, 0, 1])", "F.pad(x, [1, 1, 2, 2, 0, 1])",
                 "F.pad(x, [0, 1, 1, 0, 2, 2, 1, 1])",
                 "F.pad(x, [0, 1, 1, 0, 2, 2, 1, 1], pad_from_left_axis=False)",
                 "F.pad(x, [1, 2, 0, 1], value=2.5)",
                 "F.pad(x, [1, 2, 0, 1], data_format='NHWC')",
                 "F.pad(x, (1, 2, 0, 1), mode='constant', value=-1)",
                 "F.pad(x, [1, 2, 2, 1], mode='reflect')",
                 "F.pad(x, [1, 2, 2, 1], mode='replicate')",
                 "F.pad(x, [1, 2, 2, 1], mode='circular')",
                 "F.pad(x, [1, 2, 1, 0], mode='reflect', data_format='NHWC')",
                 "F.pad(x, [1, 0, 2, 1], mode='replicate', data_format='NHWC')",
                 "F.pad(x, [1, 2, 2, 1], mode='edge')",
                 "F.pad(x, [1, 2, 2, 1], mode='reflect', data_format='NCL')",
                 "F.pad(x, [0, 0, -1, 1])"]:
        case(a, call, x=x4)
    x3 = T("float32", [2, 3, 6])
    for call in ["F.pad(x, [2, 1])", "F.pad(x, [2, 1], mode='reflect')",
                 "F.pad(x, [2, 1], mode='replicate', data_format='NLC')",
                 "F.pad(x, [1, 1], mode='circular')", "F.pad(x, [1, 1, 1, 1, 1, 1])",
                 "F.pad(x, [1, 1, 2, 2], mode='reflect')"]:
        case(a, call, x=x3)
    x5 = T("float32", [1, 2, 3, 3, 4])
    for call in ["F.pad(x, [1, 1, 0, 1, 1, 0])", "F.pad(x, [1, 1, 0, 1, 1, 0], mode='reflect')",
                 "F.pad(x, [1, 0, 2, 1, 0, 1], mode='replicate', data_format='NDHWC')",
                 "F.pad(x, [1, 1, 1, 1, 1, 1], mode='circular')"]:
        case(a, call, x=x5)
    case(a, "F.pad(x, [1, 2])", tag="1-d", x=T("float32", [4]))
    case(a, "F.pad(x, [1, 0, 0, 2])", tag="2-d", x=T("float32", [2, 3]))
    case(a, "F.pad(x, [1, 2])", tag="2-d short", x=T("float32", [2, 3]))
    case(a, "F.pad(x, [1, 2], mode='reflect')", tag="2-d reflect", x=T("float32", [2, 3]))
    case(a, "F.pad(x, [1, 2], value=3)", tag="int64", x=T("int64", [2, 3], ints=(0, 9)))
    case(a, "F.pad(x, [1, 2])", tag="f64", x=T("float64", [2, 3]))
    for dt in LOWP:
        case(a, "F.pad(x, [1, 2, 1, 0])", tag=dt, x=T(dt, [2, 3, 4]))
        case(a, "F.pad(x, [1, 2], mode='reflect')", tag=dt + " reflect", x=T(dt, [2, 3, 4]))
    case(a, "F.pad(x, paddle.to_tensor([1, 2, 1, 0]))", tag="tensor pad",
         x=T("float32", [1, 2, 3, 4]))
    case(a, "F.pad(x, paddle.to_tensor([1, 2, 1, 0], dtype='int32'))", tag="int32 tensor pad",
         x=T("float32", [1, 2, 3, 4]))
    case(a, "F.pad(x, paddle.to_tensor([1, 2, 1, 0], dtype='int32'), mode='reflect')",
         tag="int32 tensor pad reflect", x=T("float32", [1, 2, 3, 4]))
    case(a, "F.pad(x, [1, paddle.to_tensor(2)])", tag="tensor element",
         x=T("float32", [2, 3]))
    a = FN + "zeropad2d"
    case(a, "F.zeropad2d(x, [1, 2, 0, 1])", x=T("float32", [1, 2, 3, 3]))
    case(a, "F.zeropad2d(x, [1, 2, 0, 1], data_format='NHWC')", x=T("float32", [1, 3, 3, 2]))


def embedding_cases():
    a = FN + "embedding"
    w = T("float32", [10, 4])
    ids = T("int64", [2, 5], ints=(0, 10))
    case(a, "F.embedding(x, w)", x=ids, w=w)
    case(a, "F.embedding(x, w, padding_idx=3)", x={"dtype": "int64", "shape": [6],
                                                  "values": [3, 1, 3, 0, 9, 2]}, w=w)
    case(a, "F.embedding(x, w, padding_idx=-1)", x={"dtype": "int32", "shape": [2, 3],
                                                   "values": [9, 1, 9, 0, 4, 2]}, w=w)
    # a sparse gradient comes back as Paddle's SelectedRows: compare the forward only
    case(a, "F.embedding(x, w, sparse=True)", x=ids, w=w, grad=False)
    case(a, "F.embedding(x, w)", tag="0-d ids", x=T("int64", [], ints=(0, 10)), w=w)
    case(a, "F.embedding(x, w)", tag="f64", x=ids, w=T("float64", [10, 3]))
    case(a, "F.embedding(x, w, padding_idx=10)", tag="bad padding_idx", x=ids, w=w)
    case(a, "F.embedding(x, w, padding_idx=-11)", tag="bad negative padding_idx", x=ids, w=w)
    case(a, "F.embedding(x, w)", tag="repeat ids", x={"dtype": "int64", "shape": [5],
                                                     "values": [1, 1, 2, 1, 0]}, w=w)
    case(a, "F.embedding(x, w, scale_grad_by_freq=True)", x={
        "dtype": "int64", "shape": [5], "values": [1, 1, 2, 1, 0]}, w=w)
    case(a, "(F.embedding(x, w, max_norm=1.0), w)", tag="max_norm", grad=False,
         x={"dtype": "int64", "shape": [4], "values": [1, 2, 2, 5]}, w=T("float32", [6, 3]))
    for dt in LOWP:
        case(a, "F.embedding(x, w)", tag=dt, x=ids, w=T(dt, [10, 4]))

    a = FN + "one_hot"
    case(a, "F.one_hot(x, 5)", x=T("int64", [6], ints=(0, 5)))
    case(a, "F.one_hot(x, num_classes=4)", x=T("int32", [2, 3], ints=(0, 4)))
    case(a, "F.one_hot(x)", x={"dtype": "int64", "shape": [4], "values": [0, 3, 1, 2]})
    case(a, "F.one_hot(x, 3)", tag="0-d", x=T("int64", [], ints=(0, 3)))
    case(a, "F.one_hot(x, 3)", tag="out of range", x={"dtype": "int64", "shape": [3],
                                                      "values": [0, 3, 1]})
    case(a, "F.one_hot(x, paddle.to_tensor(4))", tag="tensor classes",
         x=T("int64", [3], ints=(0, 4)))

    a = FN + "sequence_mask"
    case(a, "F.sequence_mask(x)", x={"dtype": "int64", "shape": [4], "values": [2, 0, 5, 3]})
    case(a, "F.sequence_mask(x, maxlen=6)", x={"dtype": "int64", "shape": [2, 2],
                                               "values": [2, 0, 5, 3]})
    case(a, "F.sequence_mask(x, 4, dtype='float32')", x={"dtype": "int32", "shape": [3],
                                                         "values": [1, 4, 2]})
    case(a, "F.sequence_mask(x, 3, dtype=paddle.bool)", x={"dtype": "int64", "shape": [3],
                                                           "values": [1, 4, 2]})
    case(a, "F.sequence_mask(x, paddle.to_tensor(5))", x={"dtype": "int64", "shape": [2],
                                                          "values": [1, 4]})

    a = FN + "label_smooth"
    case(a, "F.label_smooth(x)", x=T("float32", [3, 4], "prob"))
    case(a, "F.label_smooth(x, epsilon=0.3)", x=T("float64", [2, 3, 5], "prob"))
    case(a, "F.label_smooth(x, prior_dist=p, epsilon=0.2)", x=T("float32", [3, 4], "prob"),
         p=T("float32", [1, 4], "prob"), nograd=("p",))
    case(a, "F.label_smooth(x, epsilon=1.5)", x=T("float32", [3, 4], "prob"))


def distance_cases():
    a = FN + "normalize"
    case(a, "F.normalize(x)", x=T("float32", [3, 4]))
    case(a, "F.normalize(x, axis=-1)", x=T("float32", [2, 3, 4]))
    case(a, "F.normalize(x, p=1, axis=0)", x=T("float64", [3, 4]))
    case(a, "F.normalize(x, p=3.0)", x=T("float32", [3, 4]))
    case(a, "F.normalize(x, p=float('inf'))", x=T("float32", [3, 4]))
    case(a, "F.normalize(x, axis=0)", tag="1-d", x=T("float32", [5]))
    case(a, "F.normalize(x, epsilon=10.0)", tag="eps dominates", x=T("float32", [3, 4]))
    case(a, "F.normalize(x)", tag="zeros", x={"dtype": "float32", "shape": [2, 2],
                                             "values": [0.0, 0.0, 1.0, 2.0]})
    for dt in LOWP:
        case(a, "F.normalize(x)", tag=dt, x=T(dt, [3, 4]))

    a = FN + "pairwise_distance"
    case(a, "F.pairwise_distance(x, y)", x=T("float32", [4, 5]), y=T("float32", [4, 5]))
    case(a, "F.pairwise_distance(x, y, keepdim=True)", x=T("float32", [4, 5]),
         y=T("float32", [4, 5]))
    case(a, "F.pairwise_distance(x, y, p=1.0, epsilon=0.0)", x=T("float64", [3, 5]),
         y=T("float64", [3, 5]))
    case(a, "F.pairwise_distance(x, y, p=float('inf'))", x=T("float32", [3, 5]),
         y=T("float32", [3, 5]))
    case(a, "F.pairwise_distance(x, y, 3.0)", x=T("float32", [2, 3, 5]), y=T("float32", [5]))
    case(a, "F.pairwise_distance(x, y)", tag="1-d", x=T("float32", [5]), y=T("float32", [5]))

    a = FN + "cosine_similarity"
    case(a, "F.cosine_similarity(x, y)", x=T("float32", [3, 4]), y=T("float32", [3, 4]))
    case(a, "F.cosine_similarity(x, y, axis=0)", x=T("float32", [3, 4]), y=T("float32", [3, 4]))
    case(a, "F.cosine_similarity(x, y, axis=-1, eps=0.5)", x=T("float64", [2, 3, 4]),
         y=T("float64", [2, 3, 4]))
    case(a, "F.cosine_similarity(x, y, axis=1)", tag="broadcast", x=T("float32", [3, 1, 4]),
         y=T("float32", [3, 5, 4]))
    case(a, "F.cosine_similarity(x, y)", tag="zeros", x={
        "dtype": "float32", "shape": [2, 2], "values": [0.0, 0.0, 1.0, 2.0]},
        y=T("float32", [2, 2]))


def interpolate_cases():
    a = FN + "interpolate"
    x4 = T("float32", [1, 2, 3, 4])
    calls4 = [
        "F.interpolate(x, size=[5, 7])", "F.interpolate(x, scale_factor=2)",
        "F.interpolate(x, scale_factor=[1.5, 0.5])", "F.interpolate(x, size=(2, 3))",
        "F.interpolate(x, scale_factor=1.7)",
        "F.interpolate(x, size=[5, 7], mode='bilinear')",
        "F.interpolate(x, size=[5, 7], mode='bilinear', align_corners=True)",
        "F.interpolate(x, size=[5, 7], mode='bilinear', align_mode=1)",
        "F.interpolate(x, scale_factor=2, mode='bilinear', align_mode=1)",
        "F.interpolate(x, scale_factor=0.6, mode='bilinear', align_mode=1)",
        "F.interpolate(x, size=[2, 3], mode='bilinear')",
        "F.interpolate(x, size=[2, 3], mode='bilinear', align_mode=1)",
        "F.interpolate(x, scale_factor=1.5, mode='bilinear')",
        "F.interpolate(x, size=[5, 7], mode='bicubic')",
        "F.interpolate(x, size=[5, 7], mode='bicubic', align_corners=True)",
        "F.interpolate(x, scale_factor=[2, 1.5], mode='bicubic')",
        "F.interpolate(x, size=[2, 2], mode='area')",
        "F.interpolate(x, size=[5, 7], mode='bilinear', data_format='NHWC')",
        "F.interpolate(x, size=[4, 6], mode='nearest', data_format='NHWC')",
        "F.interpolate(x, size=[2, 3], mode='bilinear', antialias=True)",
        "F.interpolate(x, size=[2, 3], mode='bicubic', antialias=True)",
        "F.interpolate(x, None, 2, 'bilinear', False, True)",
        "F.interpolate(x, scale_factor=1.7, mode='bilinear', recompute_scale_factor=True)",
        "F.interpolate(x, size=paddle.to_tensor([4, 5]), mode='bilinear')",
        "F.interpolate(x, size=[paddle.to_tensor(4), 5])",
        "F.interpolate(x, scale_factor=paddle.to_tensor(2.0))",
        "F.interpolate(x, size=[1, 1], mode='bilinear')",
        # errors
        "F.interpolate(x)", "F.interpolate(x, size=[5, 7], scale_factor=2)",
        "F.interpolate(x, size=[5], mode='bilinear')",
        "F.interpolate(x, size=[5, 7], mode='linear')",
        "F.interpolate(x, size=[5, 7], mode='trilinear')",
        "F.interpolate(x, size=[5, 7], mode='foo')",
        "F.interpolate(x, size=[5, 7], align_corners=True)",
        "F.interpolate(x, size=[5, 7], mode='bilinear', align_mode=2)",
        "F.interpolate(x, size=[5, 7], mode='bilinear', align_corners=1)",
        "F.interpolate(x, scale_factor=-1.0)",
        "F.interpolate(x, size=[5, 7], mode='bilinear', data_format='NCW')",
        "F.interpolate(x, scale_factor=2, mode='area')",
    ]
    for call in calls4:
        case(a, call, x=x4)
    x3 = T("float32", [2, 3, 5])
    for call in ["F.interpolate(x, size=[8], mode='linear')",
                 "F.interpolate(x, scale_factor=2, mode='linear', align_corners=True)",
                 "F.interpolate(x, size=[8], mode='linear', align_mode=1)",
                 "F.interpolate(x, size=[3], mode='linear', data_format='NWC')",
                 "F.interpolate(x, size=[3], mode='area')",
                 "F.interpolate(x, size=[8])"]:
        case(a, call, x=x3)
    x5 = T("float32", [1, 2, 2, 3, 4])
    for call in ["F.interpolate(x, size=[3, 4, 5], mode='trilinear')",
                 "F.interpolate(x, scale_factor=2, mode='trilinear', align_corners=True)",
                 "F.interpolate(x, size=[3, 4, 5], mode='trilinear', align_mode=1)",
                 "F.interpolate(x, scale_factor=[1, 2, 0.5])",
                 "F.interpolate(x, size=[3, 2, 2], mode='area')",
                 "F.interpolate(x, size=[3, 4, 5], mode='trilinear', data_format='NDHWC')"]:
        case(a, call, x=x5)
    # Paddle computes the interpolation weights in float even for float64 input
    case(a, "F.interpolate(x, size=[5, 7], mode='bilinear')", tag="f64",
         x=T("float64", [2, 3, 4, 4]), tol=(1e-5, 1e-6))
    for dt in LOWP:
        case(a, "F.interpolate(x, size=[5, 7], mode='bilinear')", tag=dt, x=T(dt, [1, 2, 3, 4]))
        case(a, "F.interpolate(x, scale_factor=2)", tag=dt, x=T(dt, [1, 2, 3, 4]))
    case(a, "F.interpolate(x, size=[5, 7])", tag="2-d", x=T("float32", [3, 4]))
    a = FN + "upsample"
    case(a, "F.upsample(x, size=[5, 7], mode='bilinear')", x=x4)
    case(a, "F.upsample(x, scale_factor=2, mode='nearest', data_format='NHWC')", x=x4)
    case(a, "F.upsample(x, None, 2, 'bilinear', False, 1)", x=x4)


# ---------------------------------------------------------------------------- norms
def norm_cases():
    a = FN + "layer_norm"
    case(a, "F.layer_norm(x, 4)", x=T("float32", [3, 4]))
    case(a, "F.layer_norm(x, [3, 4], w, b)", x=T("float32", [2, 3, 4]), w=T("float32", [3, 4]),
         b=T("float32", [3, 4]))
    case(a, "F.layer_norm(x, (3, 4), w, b)", tag="flat weight", x=T("float32", [2, 3, 4]),
         w=T("float32", [12]), b=T("float32", [12]))
    case(a, "F.layer_norm(x, 5, weight=w, bias=b, epsilon=0.1)", x=T("float64", [2, 3, 5]),
         w=T("float64", [5]), b=T("float64", [5]))
    case(a, "F.layer_norm(x, [4])", tag="bad shape", x=T("float32", [3, 5]))
    case(a, "F.layer_norm(x, '4')", tag="bad type", x=T("float32", [3, 4]))
    for dt in LOWP:
        case(a, "F.layer_norm(x, 4, w, b)", tag=dt, x=T(dt, [3, 4]), w=T(dt, [4]), b=T(dt, [4]))
        case(a, "F.layer_norm(x, 4, w, b)", tag=dt + " f32 params", x=T(dt, [3, 4]),
             w=T("float32", [4]), b=T("float32", [4]))

    a = FN + "batch_norm"
    for fmt, shape in (("NCHW", [4, 3, 2, 2]), ("NHWC", [4, 2, 2, 3]), ("NC", [5, 3]),
                       ("NCL", [4, 3, 5]), ("NLC", [4, 5, 3]), ("NCDHW", [2, 3, 2, 2, 2])):
        for training in (False, True):
            case(a, f"(F.batch_norm(x, rm, rv, w, b, training={training}, "
                    f"data_format='{fmt}'), rm, rv)",
                 x=T("float32", shape), rm=T("float32", [3]), rv=T("float32", [3], "pos"),
                 w=T("float32", [3]), b=T("float32", [3]), nograd=("rm", "rv"))
    case(a, "(F.batch_norm(x, rm, rv, training=True, momentum=0.5, epsilon=1e-3), rm, rv)",
         x=T("float64", [4, 3, 2]), rm=T("float64", [3]), rv=T("float64", [3], "pos"),
         nograd=("rm", "rv"))
    case(a, "(F.batch_norm(x, rm, rv, w, b, training=True, use_global_stats=True), rm, rv)",
         x=T("float32", [4, 3, 2]), rm=T("float32", [3]), rv=T("float32", [3], "pos"),
         w=T("float32", [3]), b=T("float32", [3]), nograd=("rm", "rv"))
    case(a, "(F.batch_norm(x, rm, rv, w, b, training=False, use_global_stats=False), rm, rv)",
         x=T("float32", [4, 3, 2]), rm=T("float32", [3]), rv=T("float32", [3], "pos"),
         w=T("float32", [3]), b=T("float32", [3]), nograd=("rm", "rv"))
    case(a, "(F.batch_norm(x, rm, rv, training=True), rm, rv)", tag="one value per channel",
         x=T("float32", [1, 3]), rm=T("float32", [3]), rv=T("float32", [3], "pos"),
         nograd=("rm", "rv"))
    case(a, "F.batch_norm(x, rm, rv)", tag="1-d", x=T("float32", [3]),
         rm=T("float32", [3]), rv=T("float32", [3], "pos"), nograd=("rm", "rv"))
    case(a, "F.batch_norm(x, rm, rv, data_format='CHWN')", tag="bad format",
         x=T("float32", [2, 3, 2, 2]), rm=T("float32", [3]), rv=T("float32", [3], "pos"),
         nograd=("rm", "rv"))
    for dt in LOWP:
        case(a, "F.batch_norm(x, rm, rv, w, b)", tag=dt, x=T(dt, [4, 3, 2]),
             rm=T("float32", [3]), rv=T("float32", [3], "pos"), w=T("float32", [3]),
             b=T("float32", [3]), nograd=("rm", "rv"))

    a = FN + "instance_norm"
    case(a, "F.instance_norm(x)", x=T("float32", [2, 3, 4, 4]))
    case(a, "F.instance_norm(x, weight=w, bias=b)", x=T("float32", [2, 3, 5]),
         w=T("float32", [3]), b=T("float32", [3]))
    case(a, "F.instance_norm(x, rm, rv, w, b, eps=0.1)", x=T("float64", [2, 3, 2, 2, 2]),
         rm=T("float64", [3]), rv=T("float64", [3], "pos"), w=T("float64", [3]),
         b=T("float64", [3]), nograd=("rm", "rv"))
    case(a, "F.instance_norm(x, use_input_stats=False, data_format='NHWC')",
         x=T("float32", [2, 3, 4, 4]))
    for dt in LOWP:
        case(a, "F.instance_norm(x)", tag=dt, x=T(dt, [2, 3, 4]))

    a = FN + "group_norm"
    case(a, "F.group_norm(x, 2)", x=T("float32", [2, 4, 3, 3]))
    case(a, "F.group_norm(x, 3, 1e-3, w, b)", x=T("float32", [2, 6, 5]), w=T("float32", [6]),
         b=T("float32", [6]))
    case(a, "F.group_norm(x, 2, weight=w, bias=b, data_format='NHWC')",
         x=T("float32", [2, 3, 3, 4]), w=T("float32", [4]), b=T("float32", [4]))
    case(a, "F.group_norm(x, 2, w, b)", tag="torch order", x=T("float64", [2, 4, 3]),
         w=T("float64", [4]), b=T("float64", [4]))
    case(a, "F.group_norm(x, 2, w, b, 0.5)", tag="torch order eps", x=T("float32", [2, 4, 3]),
         w=T("float32", [4]), b=T("float32", [4]))
    case(a, "F.group_norm(x, 1, epsilon=1e-5)", x=T("float32", [3, 2, 4, 2, 2]))
    case(a, "F.group_norm(x, 2, data_format='NWHC')", tag="bad format",
         x=T("float32", [2, 4, 3, 3]))
    case(a, "F.group_norm(x, 3)", tag="groups do not divide", x=T("float32", [2, 4, 3]))
    for dt in LOWP:
        case(a, "F.group_norm(x, 2)", tag=dt, x=T(dt, [2, 4, 3]))

    a = FN + "rms_norm"
    case(a, "F.rms_norm(x, [4])", x=T("float32", [3, 4]))
    case(a, "F.rms_norm(x, [3, 4], w, 1e-6)", x=T("float32", [2, 3, 4]), w=T("float32", [3, 4]))
    case(a, "F.rms_norm(x, [5], w)", x=T("float64", [2, 5]), w=T("float64", [5]))
    for dt in LOWP:
        case(a, "F.rms_norm(x, [4], w)", tag=dt, x=T(dt, [3, 4]), w=T(dt, [4]))


# ---------------------------------------------------------------------------- losses
def cross_entropy_cases():
    a = FN + "cross_entropy"
    x = T("float32", [5, 4])
    lab = {"dtype": "int64", "shape": [5], "values": [0, 3, 1, 3, 2]}
    lab1 = {"dtype": "int64", "shape": [5, 1], "values": [0, 3, 1, 3, 2]}
    labi = {"dtype": "int64", "shape": [5], "values": [0, -100, 1, 3, 2]}
    lab2 = {"dtype": "int64", "shape": [5], "values": [0, 2, 1, 2, 2]}
    w = T("float32", [4], "pos")
    soft = T("float32", [5, 4], "prob")
    for red in ("mean", "sum", "none"):
        case(a, f"F.cross_entropy(x, y, reduction='{red}')", x=x, y=lab)
        case(a, f"F.cross_entropy(x, y, reduction='{red}')", tag=f"label [N,1] {red}", x=x,
             y=lab1)
        case(a, f"F.cross_entropy(x, y, reduction='{red}')", tag=f"ignored -100 {red}", x=x,
             y=labi)
        case(a, f"F.cross_entropy(x, y, ignore_index=2, reduction='{red}')", x=x, y=lab2)
        case(a, f"F.cross_entropy(x, y, weight=w, reduction='{red}')", x=x, y=lab, w=w,
             nograd=("w",))
        case(a, f"F.cross_entropy(x, y, weight=w, ignore_index=2, reduction='{red}')", x=x,
             y=lab2, w=w, nograd=("w",))
        case(a, f"F.cross_entropy(x, y, weight=w, reduction='{red}')", tag=f"weight -100 {red}",
             x=x, y=labi, w=w, nograd=("w",))
        case(a, f"F.cross_entropy(x, y, soft_label=True, reduction='{red}')", x=x, y=soft,
             nograd=("y",))
        case(a, f"F.cross_entropy(x, y, soft_label=True, weight=w, reduction='{red}')", x=x,
             y=soft, w=w, nograd=("y", "w"))
        case(a, f"F.cross_entropy(x, y, label_smoothing=0.1, reduction='{red}')", x=x, y=lab)
        case(a, f"F.cross_entropy(x, y, use_softmax=False, reduction='{red}')",
             x=T("float32", [5, 4], "prob"), y=lab)
    # soft labels summing to 1 per sample (Paddle's gradient assumes it)
    norm_soft = np.array(soft["values"]).reshape(5, 4)
    norm_soft = {"dtype": "float32", "shape": [5, 4],
                 "values": [float(np.float32(v)) for v in
                            (norm_soft / norm_soft.sum(1, keepdims=True)).reshape(-1)]}
    for red in ("mean", "sum", "none"):
        case(a, f"F.cross_entropy(x, y, soft_label=True, reduction='{red}')",
             tag=f"normalized soft {red}", x=x, y=norm_soft, nograd=("y",))
        case(a, f"F.cross_entropy(x, y, soft_label=True, weight=w, reduction='{red}')",
             tag=f"normalized soft weight {red}", x=x, y=norm_soft, w=w, nograd=("y", "w"))
    case(a, "F.cross_entropy(x, y, soft_label=True, axis=0)", tag="normalized soft axis 0",
         x=T("float32", [4, 5]), y={"dtype": "float32", "shape": [4, 5], "values": [
             norm_soft["values"][i * 4 + j] for j in range(4) for i in range(5)]},
         nograd=("y",))
    case(a, "F.cross_entropy(x, y, ignore_index=2)", tag="all ignored", x=x,
         y={"dtype": "int64", "shape": [5], "values": [2, 2, 2, 2, 2]})
    case(a, "F.cross_entropy(x, y, axis=1)", tag="axis 1",
         x=T("float32", [2, 4, 3]), y=T("int64", [2, 3], ints=(0, 4)))
    case(a, "F.cross_entropy(x, y, axis=1, reduction='none')", tag="axis 1 label with axis",
         x=T("float32", [2, 4, 3]), y=T("int64", [2, 1, 3], ints=(0, 4)))
    case(a, "F.cross_entropy(x, y, axis=1, weight=w, reduction='none')", tag="axis 1 weight",
         x=T("float32", [2, 4, 3]), y=T("int64", [2, 3], ints=(0, 4)), w=w, nograd=("w",))
    case(a, "F.cross_entropy(x, y)", tag="3-d", x=T("float32", [2, 3, 4]),
         y=T("int64", [2, 3], ints=(0, 4)))
    case(a, "F.cross_entropy(x, y)", tag="int32 label", x=x,
         y={"dtype": "int32", "shape": [5], "values": [0, 3, 1, 3, 2]})
    case(a, "F.cross_entropy(x, y)", tag="f64", x=T("float64", [5, 4]), y=lab)
    case(a, "F.cross_entropy(x, y)", tag="1-d input", x=T("float32", [4]),
         y={"dtype": "int64", "shape": [1], "values": [2]})
    case(a, "F.cross_entropy(x, y)", tag="empty", x=T("float32", [0, 4]),
         y=T("int64", [0], ints=(0, 4)))
    case(a, "F.cross_entropy(x, y, reduction='avg')", x=x, y=lab)
    case(a, "F.cross_entropy(x, y, soft_label=True, ignore_index=1)", x=x, y=soft)
    case(a, "F.cross_entropy(x, y)", tag="bad label rank", x=x, y=T("int64", [5, 1, 1],
                                                                   ints=(0, 4)))
    case(a, "F.cross_entropy(x, y, weight=w)", tag="weight size", x=x, y=lab,
         w=T("float32", [3], "pos"), nograd=("w",))
    for dt in LOWP:
        case(a, "F.cross_entropy(x, y)", tag=dt, x=T(dt, [5, 4]), y=lab)
        case(a, "F.cross_entropy(x, y, ignore_index=2)", tag=dt + " ignore", x=T(dt, [5, 4]),
             y=lab2)

    a = FN + "softmax_with_cross_entropy"
    case(a, "F.softmax_with_cross_entropy(x, y)", x=x, y=lab1)
    case(a, "F.softmax_with_cross_entropy(x, y, return_softmax=True)", x=x, y=lab1)
    case(a, "F.softmax_with_cross_entropy(x, y, soft_label=True)", x=x, y=soft, nograd=("y",))
    case(a, "F.softmax_with_cross_entropy(x, y, soft_label=True)", tag="normalized soft", x=x,
         y=norm_soft, nograd=("y",))
    case(a, "F.softmax_with_cross_entropy(x, y, ignore_index=3)", x=x, y=lab1)
    case(a, "F.softmax_with_cross_entropy(x, y, axis=1)", x=T("float32", [2, 4, 3]),
         y=T("int64", [2, 1, 3], ints=(0, 4)))
    case(a, "F.softmax_with_cross_entropy(x, y)", tag="label without axis", x=x, y=lab)
    case(a, "F.softmax_with_cross_entropy(x, y)", tag="label without axis, 1 class",
         x=T("float32", [5, 1]), y={"dtype": "int64", "shape": [5], "values": [0] * 5})
    case(a, "F.softmax_with_cross_entropy(x, y)", tag="f64", x=T("float64", [3, 4]),
         y=T("int64", [3, 1], ints=(0, 4)))


def loss_cases():
    a = FN + "nll_loss"
    lp = T("float32", [5, 4])
    lab = {"dtype": "int64", "shape": [5], "values": [0, 3, 1, 3, 2]}
    labi = {"dtype": "int64", "shape": [5], "values": [0, 3, 1, 3, 2]}
    w = T("float32", [4], "pos")
    for red in ("mean", "sum", "none"):
        case(a, f"F.nll_loss(x, y, reduction='{red}')", x=lp, y=lab)
        case(a, f"F.nll_loss(x, y, weight=w, reduction='{red}')", x=lp, y=lab, w=w,
             nograd=("w",))
        case(a, f"F.nll_loss(x, y, ignore_index=3, reduction='{red}')", x=lp, y=labi)
        case(a, f"F.nll_loss(x, y, reduction='{red}')", tag=f"4-d {red}",
             x=T("float32", [2, 3, 2, 2]), y=T("int64", [2, 2, 2], ints=(0, 3)))
        case(a, f"F.nll_loss(x, y, w, reduction='{red}')", tag=f"3-d {red}",
             x=T("float64", [2, 3, 4]), y=T("int64", [2, 4], ints=(0, 3)),
             w=T("float64", [3], "pos"), nograd=("w",))
    case(a, "F.nll_loss(x, y, ignore_index=1)", tag="all ignored", x=lp,
         y={"dtype": "int64", "shape": [5], "values": [1] * 5})
    case(a, "F.nll_loss(x, y)", tag="1-d", x=T("float32", [4]),
         y={"dtype": "int64", "shape": [], "values": [1]})
    case(a, "F.nll_loss(x, y, reduction='max')", x=lp, y=lab)

    preds = T("float32", [3, 4], "prob")
    labels = T("float32", [3, 4], "prob")
    simple = {
        "binary_cross_entropy": ["F.binary_cross_entropy(x, y)",
                                 "F.binary_cross_entropy(x, y, reduction='sum')",
                                 "F.binary_cross_entropy(x, y, reduction='none')",
                                 "F.binary_cross_entropy(x, y, weight=w)",
                                 "F.binary_cross_entropy(x, y, w, 'none')",
                                 "F.binary_cross_entropy(x, y, reduction='bad')"],
        "binary_cross_entropy_with_logits": [
            "F.binary_cross_entropy_with_logits(x, y)",
            "F.binary_cross_entropy_with_logits(x, y, reduction='sum')",
            "F.binary_cross_entropy_with_logits(x, y, reduction='none')",
            "F.binary_cross_entropy_with_logits(x, y, weight=w)",
            "F.binary_cross_entropy_with_logits(x, y, pos_weight=pw)",
            "F.binary_cross_entropy_with_logits(x, y, w, 'none', pw)",
            "F.binary_cross_entropy_with_logits(x, y, reduction='bad')"],
        "sigmoid_focal_loss": ["F.sigmoid_focal_loss(x, y)",
                               "F.sigmoid_focal_loss(x, y, reduction='mean')",
                               "F.sigmoid_focal_loss(x, y, nz, alpha=0.5, gamma=1.5)",
                               "F.sigmoid_focal_loss(x, y, gamma=0.0, reduction='none')",
                               "F.sigmoid_focal_loss(x, y, reduction='bad')"],
        "smooth_l1_loss": ["F.smooth_l1_loss(x, y)", "F.smooth_l1_loss(x, y, 'sum', 0.5)",
                           "F.smooth_l1_loss(x, y, reduction='none', delta=2.0)",
                           "F.smooth_l1_loss(x, y, delta=0.5, is_huber=False)",
                           "F.smooth_l1_loss(x, y, reduction='bad')"],
        "l1_loss": ["F.l1_loss(x, y)", "F.l1_loss(x, y, 'sum')", "F.l1_loss(x, y, 'none')",
                    "F.l1_loss(x, y, 'bad')"],
        "mse_loss": ["F.mse_loss(x, y)", "F.mse_loss(x, y, 'sum')", "F.mse_loss(x, y, 'none')",
                     "F.mse_loss(x, y, 'bad')"],
        "square_error_cost": ["F.square_error_cost(x, y)"],
        "log_loss": ["F.log_loss(x, y)", "F.log_loss(x, y, epsilon=0.01)"],
        "poisson_nll_loss": ["F.poisson_nll_loss(x, y)",
                             "F.poisson_nll_loss(x, y, log_input=False)",
                             "F.poisson_nll_loss(x, y, full=True, reduction='sum')",
                             "F.poisson_nll_loss(x, y, False, True, 1e-3, 'none')",
                             "F.poisson_nll_loss(x, y, epsilon=0.0)",
                             "F.poisson_nll_loss(x, y, reduction='bad')"],
        "kl_div": ["F.kl_div(x, y)", "F.kl_div(x, y, 'sum')", "F.kl_div(x, y, 'batchmean')",
                   "F.kl_div(x, y, 'none')", "F.kl_div(x, y, log_target=True)"],
    }
    for name, calls in simple.items():
        for call in calls:
            if name == "binary_cross_entropy":
                inputs = dict(x=preds, y=labels)
            elif name == "log_loss":
                inputs = dict(x=T("float32", [4, 1], "prob"), y=T("float32", [4, 1], "prob"))
            elif name == "poisson_nll_loss":
                inputs = dict(x=T("float32", [3, 4], "pos"), y=T("float32", [3, 4], "pos"))
            elif name == "kl_div":
                inputs = dict(x=T("float32", [3, 4]), y=T("float32", [3, 4], "prob"))
            else:
                inputs = dict(x=T("float32", [3, 4]), y=labels)
            if ", w" in call or "weight=w" in call:
                inputs["w"] = T("float32", [3, 4], "pos")
            if "pw" in call:
                inputs["pw"] = T("float32", [4], "pos")
            if "nz" in call:
                inputs["nz"] = {"dtype": "float32", "shape": [1], "values": [3.0]}
            case(FN + name, call, nograd=("y", "w", "pw", "nz"), **inputs)
        case(FN + name, calls[0], tag="f64", nograd=("y",),
             **{k: dict(v, dtype="float64") for k, v in inputs.items() if k in ("x", "y")})
        case(FN + name, calls[0], tag="0-d", nograd=("y",),
             x=T("float32", [], "prob"), y=T("float32", [], "prob"))
        for dt in LOWP:
            case(FN + name, calls[0], tag=dt, nograd=("y",),
                 x=T(dt, [3, 4], "prob"), y=T(dt, [3, 4], "prob"))
    case(FN + "kl_div", "F.kl_div(x, y)", tag="zero and negative labels", nograd=("y",),
         x=T("float32", [4]), y={"dtype": "float32", "shape": [4], "values": [0.0, 0.5, -0.5,
                                                                           1.0]})
    case(FN + "kl_div", "F.kl_div(x, y)", tag="f32 x f64", nograd=("y",),
         x=T("float32", [3]), y=T("float64", [3], "prob"))
    case(FN + "kl_div", "F.kl_div(x, y, 'batchmean')", tag="0-d batchmean", nograd=("y",),
         x=T("float32", []), y=T("float32", [], "prob"))
    case(FN + "poisson_nll_loss", "F.poisson_nll_loss(x, y)", tag="shape mismatch",
         x=T("float32", [3]), y=T("float32", [4]))
    case(FN + "binary_cross_entropy_with_logits", "F.binary_cross_entropy_with_logits(x, y)",
         tag="extreme logits", nograd=("y",),
         x={"dtype": "float32", "shape": [4], "values": [-80.0, -20.0, 20.0, 80.0]},
         y={"dtype": "float32", "shape": [4], "values": [1.0, 0.0, 1.0, 0.0]})
    case(FN + "binary_cross_entropy", "F.binary_cross_entropy(x, y)", tag="saturated",
         nograd=("y",), x={"dtype": "float32", "shape": [4], "values": [0.0, 1.0, 0.0, 1.0]},
         y={"dtype": "float32", "shape": [4], "values": [1.0, 0.0, 0.0, 1.0]})

    a = FN + "margin_ranking_loss"
    for call in ["F.margin_ranking_loss(x, o, y)", "F.margin_ranking_loss(x, o, y, 0.5)",
                 "F.margin_ranking_loss(x, o, y, margin=0.2, reduction='sum')",
                 "F.margin_ranking_loss(x, o, y, reduction='none')",
                 "F.margin_ranking_loss(x, o, y, reduction='bad')"]:
        case(a, call, x=T("float32", [6]), o=T("float32", [6]), y=T("float32", [6], "sign"),
             nograd=("y",))
    case(a, "F.margin_ranking_loss(x, o, y, 0.1, 'none')", tag="f64 2-d",
         x=T("float64", [2, 3]), o=T("float64", [2, 3]), y=T("float64", [2, 3], "sign"),
         nograd=("y",))


def main():
    activation_cases()
    linear_cases()
    dropout_cases()
    pad_cases()
    embedding_cases()
    distance_cases()
    interpolate_cases()
    norm_cases()
    cross_entropy_cases()
    loss_cases()
    with open(OUT, "w") as f:
        json.dump({"meta": {"paddle": paddle.__version__, "seed": 20240612}, "cases": CASES}, f,
                  separators=(",", ":"))
    print(f"wrote {len(CASES)} cases to {os.path.normpath(OUT)}")
    for d in DROPPED:
        print("left out (no CPU kernel in Paddle):", d)


if __name__ == "__main__":
    sys.exit(main())
