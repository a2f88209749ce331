"""Record Paddle 3.3.1's elementwise math, reductions, comparisons and statistics as goldens
for tests/test_ops_math.py (paddle_compat.ops.math, .logic and .stat).

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_ops_math.py

Writes tests/goldens/ops_math.json: {"meta": ..., "cases": [...]}. One case is

    api       the Paddle name as in /work/shared/api_targets.tsv ("paddle.sum", "paddle.Tensor.sum")
    id        unique, starts with api
    inputs    {name: {"dtype", "shape", "values"}}: tensors, made with a seeded numpy RNG; values
              are flat lists (bfloat16 as the float32 values it holds exactly)
    call      Python source evaluated with ``paddle`` and the inputs bound by name
    grad      names of the inputs that do not stop gradient (float32/float64 only)
    inplace   true when the call must return its first input object, modified
    expected  {"dtype", "shape", "values"} for a Tensor, {"tuple": [...]} for a tuple/list of
              results, {"py": value} for a Python result, or {"error": class name, "message"}
    weights   per Tensor output (in order), the fixed random weight w of the loss sum(out * w)
    grads     {name: {"dtype", "shape", "values"} or None} d loss / d input
"""
import json
import os
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opcase import build, encode, encode_result, tensor_outputs  # noqa: E402

paddle.set_device("cpu")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "ops_math.json")

rng = np.random.default_rng(20240611)
FLOATS = ("float16", "bfloat16", "float32", "float64")
INTS = ("int32", "int64")

# ---------------------------------------------------------------------------- input tensors
# Value domains: each op family draws from the domain where it is defined.
DOMAINS = {
    "normal": lambda n: rng.standard_normal(n) * 2,
    "pos": lambda n: rng.uniform(0.1, 4.0, n),
    "unit": lambda n: rng.uniform(-0.95, 0.95, n),
    "gt1": lambda n: rng.uniform(1.1, 4.0, n),
    "small": lambda n: rng.uniform(-3.0, 3.0, n),
    "ints": lambda n: rng.integers(-9, 10, n),
    "posints": lambda n: rng.integers(1, 10, n),
    "shift": lambda n: rng.integers(0, 5, n),
    "bools": lambda n: rng.integers(0, 2, n),
    "ties": lambda n: rng.integers(-2, 3, n),
}


def T(dtype, shape, domain="normal", special=None):
    """A tensor spec: dtype, shape and flat values drawn from ``domain``; ``special`` values
    (e.g. NaN, inf) overwrite the first ones."""
    n = int(np.prod(shape)) if shape else 1
    v = DOMAINS[domain](n).astype(np.float64)
    if special:
        v[:len(special)] = special[:n]
    if dtype == "bool":
        vals = [bool(a) for a in v]
    elif dtype in FLOATS:
        t = paddle.to_tensor(v.astype(np.float32 if dtype != "float64" else np.float64))
        vals = [float(a) for a in t.astype(dtype).astype("float64").numpy().reshape(-1)]
    else:
        vals = [int(round(a)) for a in v]
    return {"dtype": dtype, "shape": list(shape), "values": vals}


# ---------------------------------------------------------------------------- recording
CASES = []
IDS = set()


def case(api, call, grad=True, inplace=False, tag="", **inputs):
    """Run ``call`` on real Paddle and store the case (inputs, result or error, gradients)."""
    cid = f"{api}[{tag or call}]"
    k = 2
    while cid in IDS:
        cid = f"{api}[{tag or call}#{k}]"
        k += 1
    IDS.add(cid)
    if os.environ.get("TRACE"):
        print(cid, file=sys.stderr, flush=True)
    env = {"paddle": paddle, "np": np}
    gnames = []
    for name, spec in inputs.items():
        t = build(spec)
        if grad and not inplace and spec["dtype"] in ("float32", "float64"):
            t.stop_gradient = False
            gnames.append(name)
        env[name] = t
    c = {"api": api, "id": cid, "inputs": inputs, "call": call, "grad": gnames}
    if inplace:
        c["inplace"] = True
    try:
        r = eval(call, env)
    except Exception as e:  # noqa: BLE001  the exception is the golden
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


# ---------------------------------------------------------------------------- the cases
# Elementwise unary ops: name -> (value domain, accepts ints, accepts bool)
UNARY = {
    "abs": ("normal", True, False), "exp": ("small", True, False), "log": ("pos", True, False),
    "log1p": ("pos", True, False), "sqrt": ("pos", True, False), "rsqrt": ("pos", True, False),
    "square": ("normal", True, False), "tanh": ("normal", True, False),
    "tan": ("unit", True, False), "sin": ("normal", True, False), "cos": ("normal", True, False),
    "sign": ("normal", True, False), "floor": ("normal", True, False),
    "lgamma": ("pos", True, False), "digamma": ("pos", True, False),
    "asin": ("unit", True, False), "acos": ("unit", True, False), "atan": ("normal", True, False),
    "sinh": ("small", True, False), "cosh": ("small", True, False),
    "asinh": ("normal", True, False), "acosh": ("gt1", True, False),
    "atanh": ("unit", True, False), "log2": ("pos", True, False), "log10": ("pos", True, False),
    "expm1": ("small", True, False), "ceil": ("normal", True, False),
    "round": ("normal", True, False), "trunc": ("normal", True, False),
    "frac": ("normal", True, False), "reciprocal": ("pos", True, False),
    "erf": ("normal", True, False), "erfinv": ("unit", True, False),
    "neg": ("normal", True, False), "sigmoid": ("normal", True, False),
    "sgn": ("normal", True, False), "deg2rad": ("normal", True, False),
    "rad2deg": ("normal", True, False), "i0": ("small", True, False),
    "conj": ("normal", True, False), "signbit": ("normal", True, False),
    "isnan": ("normal", True, True), "isinf": ("normal", True, True),
    "isfinite": ("normal", True, True), "isreal": ("normal", True, True),
    "isposinf": ("normal", True, True), "isneginf": ("normal", True, True),
    "logical_not": ("normal", True, True), "bitwise_not": ("ints", True, True),
    "bitwise_invert": ("ints", True, True), "nan_to_num": ("normal", True, False),
    "stanh": ("normal", True, False), "logit": ("unit", True, False),
}
SPECIAL = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0]
INTDOM = {"shift": "shift", "ints": "ints", "pos": "posints", "gt1": "posints"}


def has_method(name):
    return hasattr(paddle.Tensor, name)


def unary_cases():
    for name, (dom, ints, bools) in UNARY.items():
        api = f"paddle.{name}"
        if name.startswith("bitwise"):
            for dt in ("int32", "int64", "bool", "int8", "uint8"):
                case(api, f"paddle.{name}(x)", x=T(dt, [2, 3], "ints" if dt != "uint8" else "shift"))
            case(api, f"paddle.{name}(x)", tag="float", x=T("float32", [2, 3]))
            continue
        case(api, f"paddle.{name}(x)", tag="f32-2x3", x=T("float32", [2, 3], dom))
        case(api, f"paddle.{name}(x)", tag="f64-3d", x=T("float64", [2, 1, 3], dom))
        case(api, f"paddle.{name}(x)", tag="f32-0d", x=T("float32", [], dom))
        case(api, f"paddle.{name}(x)", tag="f32-empty", x=T("float32", [0, 3], dom))
        case(api, f"paddle.{name}(x)", tag="f16", x=T("float16", [4], dom))
        case(api, f"paddle.{name}(x)", tag="bf16", x=T("bfloat16", [4], dom))
        case(api, f"paddle.{name}(x)", tag="f32-special", x=T("float32", [5], dom, SPECIAL))
        idom = INTDOM.get(dom, "ints")
        case(api, f"paddle.{name}(x)", tag="i32", x=T("int32", [2, 3], idom))
        case(api, f"paddle.{name}(x)", tag="i64", x=T("int64", [3], idom))
        case(api, f"paddle.{name}(x)", tag="bool", x=T("bool", [3], "bools"))
        case(api, f"paddle.{name}([1.0, 2.0])", tag="list")
        if has_method(name):
            case(f"paddle.Tensor.{name}", f"x.{name}()", x=T("float32", [2, 3], dom))
        if has_method(name + "_"):
            case(f"paddle.Tensor.{name}_", f"x.{name}_()", inplace=True,
                 x=T("float32", [2, 3], dom))
            case(f"paddle.Tensor.{name}_", f"x.{name}_()", tag="leaf-requires-grad",
                 grad=True, x=T("float32", [3], dom))
            case(f"paddle.Tensor.{name}_", f"(x * 1).{name}_()", tag="nonleaf",
                 x=T("float32", [2, 3], dom))
        if hasattr(paddle, name + "_"):
            case(f"paddle.{name}_", f"paddle.{name}_(x)", inplace=True,
                 x=T("float32", [2, 3], dom))
    case("paddle.nan_to_num", "paddle.nan_to_num(x, nan=1.5, posinf=9.0, neginf=-9.0)",
         x=T("float32", [5], "normal", SPECIAL))
    case("paddle.nan_to_num", "paddle.nan_to_num(x)", tag="f64", x=T("float64", [5], "normal", SPECIAL))
    case("paddle.round", "paddle.round(x, decimals=2)", x=T("float32", [2, 3]))
    case("paddle.round", "paddle.round(x)", tag="halves",
         x={"dtype": "float32", "shape": [6], "values": [0.5, 1.5, 2.5, -0.5, -1.5, 3.5]})
    case("paddle.stanh", "paddle.stanh(x, scale_a=0.5, scale_b=2.0)", x=T("float32", [2, 3]))
    case("paddle.logit", "paddle.logit(x, eps=0.2)", x=T("float32", [2, 3], "unit"))
    case("paddle.abs", "paddle.abs(x)", tag="i8", x=T("int8", [3], "ints"))
    case("paddle.abs", "paddle.abs(x)", tag="int-min",
         x={"dtype": "int32", "shape": [2], "values": [-2147483648, 5]})


# Elementwise binary ops: name -> (x domain, y domain, accepts ints)
BINARY = {
    "add": ("normal", "normal", True), "subtract": ("normal", "normal", True),
    "multiply": ("normal", "normal", True), "divide": ("normal", "pos", True),
    "floor_divide": ("normal", "pos", True), "remainder": ("normal", "pos", True),
    "mod": ("normal", "pos", True), "floor_mod": ("normal", "pos", True),
    "pow": ("pos", "small", True), "maximum": ("ties", "ties", True),
    "minimum": ("ties", "ties", True), "fmax": ("normal", "normal", True),
    "fmin": ("normal", "normal", True), "atan2": ("normal", "normal", True),
    "copysign": ("normal", "normal", True), "heaviside": ("normal", "ties", True),
    "hypot": ("normal", "normal", True), "logaddexp": ("normal", "normal", True),
    "equal": ("ties", "ties", True), "not_equal": ("ties", "ties", True),
    "greater_equal": ("ties", "ties", True), "greater_than": ("ties", "ties", True),
    "less_than": ("ties", "ties", True), "less_equal": ("ties", "ties", True),
    "logical_and": ("ties", "ties", True), "logical_or": ("ties", "ties", True),
    "logical_xor": ("ties", "ties", True),
    "bitwise_and": ("ints", "ints", True), "bitwise_or": ("ints", "ints", True),
    "bitwise_xor": ("ints", "ints", True),
    "bitwise_left_shift": ("ints", "shift", True), "bitwise_right_shift": ("ints", "shift", True),
    "gcd": ("ints", "ints", True), "lcm": ("ints", "ints", True),
}


def binary_cases():
    for name, (dx, dy, _) in BINARY.items():
        api = f"paddle.{name}"
        call = f"paddle.{name}(x, y)"
        ix = "ints" if dx in ("normal", "small", "ties") else INTDOM.get(dx, dx)
        iy = INTDOM.get(dy, "posints" if dy == "pos" else "ints")
        if name in ("floor_divide", "remainder", "mod", "floor_mod"):
            iy = "posints"
        intlike = name.startswith("bitwise") or name in ("gcd", "lcm")
        if not intlike:
            case(api, call, tag="f32", x=T("float32", [2, 3], dx), y=T("float32", [2, 3], dy))
            case(api, call, tag="f32-bcast", x=T("float32", [2, 3], dx), y=T("float32", [3], dy))
            case(api, call, tag="f64-bcast3d", x=T("float64", [2, 1, 3], dx),
                 y=T("float64", [4, 1], dy))
            case(api, call, tag="f32-0d", x=T("float32", [], dx), y=T("float32", [2, 3], dy))
            case(api, call, tag="f32-0d0d", x=T("float32", [], dx), y=T("float32", [], dy))
            case(api, call, tag="f32-empty", x=T("float32", [0, 3], dx), y=T("float32", [3], dy))
            case(api, call, tag="f16", x=T("float16", [4], dx), y=T("float16", [4], dy))
            case(api, call, tag="bf16", x=T("bfloat16", [4], dx), y=T("bfloat16", [4], dy))
            case(api, call, tag="f32-f64", x=T("float32", [3], dx), y=T("float64", [3], dy))
            case(api, call, tag="f16-f32", x=T("float16", [3], dx), y=T("float32", [3], dy))
            case(api, call, tag="f32-i32", x=T("float32", [3], dx), y=T("int32", [3], iy))
            case(api, call, tag="i64-f32", x=T("int64", [3], ix), y=T("float32", [3], dy))
            case(api, call, tag="f32-bool", x=T("float32", [3], dx), y=T("bool", [3], "bools"))
            case(api, call, tag="f32-special", x=T("float32", [5], dx, SPECIAL),
                 y=T("float32", [5], dy, SPECIAL[::-1]))
        case(api, call, tag="i32", x=T("int32", [2, 3], ix), y=T("int32", [2, 3], iy))
        case(api, call, tag="i64-bcast", x=T("int64", [2, 3], ix), y=T("int64", [3], iy))
        case(api, call, tag="i32-i64", x=T("int32", [3], ix), y=T("int64", [3], iy))
        case(api, call, tag="bool", x=T("bool", [3], "bools"), y=T("bool", [3], "bools"))
        case(api, call, tag="bool-i32", x=T("bool", [3], "bools"), y=T("int32", [3], iy))
        case(api, f"paddle.{name}(x, 2)", tag="int-scalar", x=T("int64", [3], ix))
        case(api, f"paddle.{name}(x, 2.0)", tag="float-scalar", x=T("float32", [3], dx))
        case(api, f"paddle.{name}([1, 2], [3, 4])", tag="lists")
        if name == "pow":
            case(api, "paddle.pow(x, 2)", tag="f32-int-exp", x=T("float32", [2, 3], "normal"))
            case(api, "paddle.pow(x, 0.5)", tag="f32-float-exp", x=T("float32", [2, 3], "pos"))
            case(api, "paddle.pow(x, 3)", tag="i32-int-exp", x=T("int32", [2, 3], "ints"))
            case(api, "paddle.pow(x, 2.5)", tag="i64-float-exp", x=T("int64", [3], "posints"))
            case(api, "paddle.pow(x, y)", tag="f32-0d-tensor-exp", x=T("float32", [3], "pos"),
                 y=T("float32", [], "small"))
        if has_method(name):
            case(f"paddle.Tensor.{name}", f"x.{name}(y)", x=T("float32", [2, 3], dx),
                 y=T("float32", [2, 3], dy))
        if has_method(name + "_"):
            case(f"paddle.Tensor.{name}_", f"x.{name}_(y)", inplace=True,
                 x=T("float32" if not intlike else "int32", [2, 3], dx if not intlike else "ints"),
                 y=T("float32" if not intlike else "int32", [3], dy if not intlike else iy))
            case(f"paddle.Tensor.{name}_", f"x.{name}_(y)", tag="bcast-x", inplace=True,
                 x=T("float32", [3], dx), y=T("float32", [2, 3], dy))
            case(f"paddle.Tensor.{name}_", f"x.{name}_(y)", tag="leaf-requires-grad",
                 x=T("float32", [3], dx), y=T("float32", [3], dy))
        if hasattr(paddle, name + "_"):
            case(f"paddle.{name}_", f"paddle.{name}_(x, y)", inplace=True,
                 x=T("float32", [2, 3], dx), y=T("float32", [2, 3], dy))
    case("paddle.bitwise_right_shift", "paddle.bitwise_right_shift(x, y, is_arithmetic=False)",
         tag="logical", x=T("int64", [4], "ints"), y=T("int64", [4], "shift"))
    case("paddle.bitwise_left_shift", "paddle.bitwise_left_shift(x, y, is_arithmetic=False)",
         tag="logical", x=T("int32", [4], "ints"), y=T("int32", [4], "shift"))
    case("paddle.bitwise_right_shift", "paddle.bitwise_right_shift(x, y)", tag="uint8",
         x=T("uint8", [4], "shift"), y=T("uint8", [4], "shift"))
    case("paddle.equal", "paddle.equal(x, 1)", tag="i32-int", x=T("int32", [4], "ties"))
    case("paddle.equal", "paddle.equal(x, True)", tag="bool-bool", x=T("bool", [4], "bools"))
    case("paddle.less_than", "paddle.less_than(x, 0.5)", tag="i64-float", x=T("int64", [4], "ties"))
    case("paddle.not_equal", "paddle.not_equal(x, y)", tag="f32-nan",
         x=T("float32", [3], "normal", [float("nan")]), y=T("float32", [3], "normal", [float("nan")]))
    case("paddle.divide", "paddle.divide(x, y)", tag="i32-zero",
         x={"dtype": "int32", "shape": [3], "values": [1, -1, 0]},
         y={"dtype": "int32", "shape": [3], "values": [0, 0, 0]})
    case("paddle.remainder", "paddle.remainder(x, y)", tag="f32-neg",
         x=T("float32", [6], "normal"), y=T("float32", [6], "normal"))
    case("paddle.floor_divide", "paddle.floor_divide(x, y)", tag="i64-neg",
         x=T("int64", [6], "ints"), y={"dtype": "int64", "shape": [6], "values": [3, -3, 2, -2, 7, -7]})
    case("paddle.remainder", "paddle.remainder(x, y)", tag="i64-neg",
         x=T("int64", [6], "ints"), y={"dtype": "int64", "shape": [6], "values": [3, -3, 2, -2, 7, -7]})
    case("paddle.add", "paddle.add(x, y)", tag="bad-broadcast", x=T("float32", [2, 3]),
         y=T("float32", [2]))


REDUCE_AXES = ["", ", axis=0", ", axis=-1", ", axis=[0, 2]", ", axis=(-1, 1)", ", axis=1, keepdim=True",
               ", keepdim=True", ", axis=[]", ", axis=-3"]
REDUCERS = ["sum", "mean", "prod", "max", "min", "amax", "amin", "any", "all", "logsumexp",
            "nansum", "nanmean", "count_nonzero"]


def reduction_cases():
    for name in REDUCERS:
        api = f"paddle.{name}"
        dom = "ties" if name in ("max", "min", "amax", "amin", "count_nonzero") else "small"
        if name in ("any", "all"):
            dom = "ties"
        for ax in REDUCE_AXES:
            case(api, f"paddle.{name}(x{ax})", x=T("float32", [2, 3, 4], "small" if dom == "ties" else dom))
        pos = "0, None, True" if name in ("sum", "prod", "nansum") else "0, True"
        if name != "count_nonzero":
            case(api, f"paddle.{name}(x, {pos})", tag="positional", x=T("float32", [2, 3]))
        case(api, f"paddle.{name}(x)", tag="f32-0d", x=T("float32", [], dom))
        case(api, f"paddle.{name}(x, axis=0)", tag="f32-0d-axis0", x=T("float32", [], dom))
        case(api, f"paddle.{name}(x, axis=-1)", tag="f32-0d-axis-1", x=T("float32", [], dom))
        case(api, f"paddle.{name}(x)", tag="f32-empty", x=T("float32", [0, 3], dom))
        case(api, f"paddle.{name}(x, axis=1)", tag="f32-empty-axis1", x=T("float32", [0, 3], dom))
        case(api, f"paddle.{name}(x, axis=0)", tag="f32-empty-axis0", x=T("float32", [0, 3], dom))
        case(api, f"paddle.{name}(x, axis=2)", tag="axis-out-of-range", x=T("float32", [2, 3]))
        case(api, f"paddle.{name}(x, axis=1)", tag="f64", x=T("float64", [2, 3], dom))
        case(api, f"paddle.{name}(x, axis=1)", tag="f16", x=T("float16", [2, 3], dom))
        case(api, f"paddle.{name}(x, axis=1)", tag="bf16", x=T("bfloat16", [2, 3], dom))
        case(api, f"paddle.{name}(x, axis=1)", tag="i32", x=T("int32", [2, 3], "ints"))
        case(api, f"paddle.{name}(x)", tag="i64", x=T("int64", [2, 3], "ints"))
        case(api, f"paddle.{name}(x)", tag="bool", x=T("bool", [2, 3], "bools"))
        case(api, f"paddle.{name}(x, axis=0)", tag="f32-nan", x=T("float32", [3, 2], dom, [float("nan"), 1.0, float("nan")]))
        case(api, f"paddle.{name}([1.0, 2.0])", tag="list")
        if has_method(name):
            case(f"paddle.Tensor.{name}", f"x.{name}()", x=T("float32", [2, 3], dom))
            case(f"paddle.Tensor.{name}", f"x.{name}(axis=-1, keepdim=True)", x=T("float32", [2, 3], dom))
        if name in ("max", "min", "amax", "amin"):
            case(api, f"paddle.{name}(x, axis=1)", tag="grad-ties",
                 x={"dtype": "float32", "shape": [2, 3], "values": [1.0, 3.0, 3.0, 2.0, 2.0, 2.0]})
            case(api, f"paddle.{name}(x)", tag="grad-ties-all",
                 x={"dtype": "float32", "shape": [2, 3], "values": [1.0, 3.0, 3.0, 2.0, 2.0, 3.0]})
    for name in ("sum", "prod", "nansum"):
        for dt in ("float64", "int64", "int32", "float16", "bool"):
            case(f"paddle.{name}", f"paddle.{name}(x, dtype='{dt}')", x=T("int32", [2, 3], "ints"))
            case(f"paddle.{name}", f"paddle.{name}(x, axis=1, dtype='{dt}')", tag=f"f32->{dt}",
                 x=T("float32", [2, 3], "small"))
    case("paddle.sum", "paddle.sum(x, axis=paddle.to_tensor([0]))", tag="tensor-axis", x=T("float32", [2, 3]))
    case("paddle.sum", "paddle.sum(x, axis=1.5)", tag="float-axis", x=T("float32", [2, 3]))
    case("paddle.sum", "paddle.sum(x, axis=[0, 0])", tag="dup-axis", x=T("float32", [2, 3]))
    case("paddle.sum", "paddle.sum(x)", tag="i8", x=T("int8", [2, 3], "ints"))
    case("paddle.sum", "paddle.sum(x)", tag="u8", x=T("uint8", [2, 3], "shift"))
    case("paddle.mean", "paddle.mean(x, axis=0)", tag="i32-axis", x=T("int32", [2, 3], "ints"))
    case("paddle.mean", "paddle.mean(x, axis=0)", tag="bool-axis", x=T("bool", [2, 3], "bools"))
    case("paddle.logsumexp", "paddle.logsumexp(x, axis=1)", tag="large",
         x={"dtype": "float32", "shape": [2, 2], "values": [1000.0, 1000.0, -1000.0, -float("inf")]})


def cumulative_cases():
    for name, kw in (("cumsum", "axis"), ("cumprod", "dim"), ("logcumsumexp", "axis"),
                     ("cummax", "axis"), ("cummin", "axis")):
        api = f"paddle.{name}"
        case(api, f"paddle.{name}(x)", tag="flatten", x=T("float32", [2, 3], "small"))
        case(api, f"paddle.{name}(x, {kw}=1)", x=T("float32", [2, 3], "small"))
        case(api, f"paddle.{name}(x, {kw}=-1)", x=T("float64", [2, 3, 2], "small"))
        case(api, f"paddle.{name}(x, {kw}=0)", tag="0d", x=T("float32", [], "small"))
        if name not in ("cummax", "cummin"):       # Paddle 3.3.1 segfaults on these
            case(api, f"paddle.{name}(x, {kw}=-1)", tag="0d-neg", x=T("float32", [], "small"))
        case(api, f"paddle.{name}(x, {kw}=1)", tag="empty", x=T("float32", [0, 3], "small"))
        case(api, f"paddle.{name}(x, {kw}=2)", tag="axis-out-of-range", x=T("float32", [2, 3], "small"))
        case(api, f"paddle.{name}(x, {kw}=0)", tag="i32", x=T("int32", [3, 2], "ints"))
        case(api, f"paddle.{name}(x, {kw}=0)", tag="i64", x=T("int64", [3, 2], "ints"))
        case(api, f"paddle.{name}(x, {kw}=0)", tag="bool", x=T("bool", [3, 2], "bools"))
        case(api, f"paddle.{name}(x, {kw}=0)", tag="f16", x=T("float16", [3, 2], "small"))
        case(api, f"paddle.{name}(x, {kw}=0)", tag="bf16", x=T("bfloat16", [3, 2], "small"))
        case(api, f"paddle.{name}(x, {kw}=0)", tag="nan", x=T("float32", [4], "small", [1.0, float("nan")]))
        case(api, f"paddle.{name}([1.0, 2.0])", tag="list")
        if name != "cumprod":
            case(api, f"paddle.{name}(x, 0, 'float64')", tag="positional-dtype", x=T("float32", [3, 2], "small"))
            case(api, f"paddle.{name}(x, dtype='int32')", tag="dtype-i32", x=T("int64", [3, 2], "ints"))
        else:
            case(api, "paddle.cumprod(x, dim=0, dtype='float64')", tag="dtype", x=T("float32", [3, 2], "small"))
            case(api, "paddle.cumprod(x, 1)", tag="grad-zero",
                 x={"dtype": "float32", "shape": [2, 3], "values": [1.0, 0.0, 2.0, 0.0, 0.0, 3.0]})
        if has_method(name):
            case(f"paddle.Tensor.{name}", f"x.{name}({kw}=0)", x=T("float32", [3, 2], "small"))
        if has_method(name + "_"):
            case(f"paddle.Tensor.{name}_", f"x.{name}_({kw}=0)", inplace=True, x=T("float32", [3, 2], "small"))


STAT = ["median", "nanmedian", "var", "std", "quantile", "nanquantile"]


def stat_cases():
    nan3 = [float("nan"), 1.0, float("nan")]
    for name in ("median", "nanmedian"):
        api = f"paddle.{name}"
        for args in ("", ", axis=1", ", axis=-1, keepdim=True", ", mode='min'", ", axis=0, mode='min'",
                     ", axis=1, keepdim=True, mode='min'", ", keepdim=True"):
            case(api, f"paddle.{name}(x{args})", x=T("float32", [3, 4], "normal"))
            case(api, f"paddle.{name}(x{args})", tag=f"odd{args}", x=T("float32", [3, 5], "normal"))
        case(api, f"paddle.{name}(x, axis=0)", tag="nan", x=T("float32", [3, 2], "normal", nan3))
        case(api, f"paddle.{name}(x)", tag="nan-all", x=T("float32", [3, 2], "normal", nan3))
        case(api, f"paddle.{name}(x, axis=0, mode='min')", tag="nan-min", x=T("float32", [3, 2], "normal", nan3))
        case(api, f"paddle.{name}(x)", tag="0d", x=T("float32", []))
        case(api, f"paddle.{name}(x)", tag="i32", x=T("int32", [2, 3], "ints"))
        case(api, f"paddle.{name}(x, axis=1)", tag="i64", x=T("int64", [2, 4], "ints"))
        case(api, f"paddle.{name}(x, axis=1, mode='min')", tag="i64-min", x=T("int64", [2, 4], "ints"))
        case(api, f"paddle.{name}(x, axis=1)", tag="f64", x=T("float64", [2, 4]))
        case(api, f"paddle.{name}(x, axis=1)", tag="f16", x=T("float16", [2, 4]))
        case(api, f"paddle.{name}(x)", tag="empty", x=T("float32", [0, 3]))
        case(api, f"paddle.{name}(x, axis=[0, 1])", tag="axis-list", x=T("float32", [2, 3, 2]))
        case(api, f"paddle.{name}(x, axis=1)", tag="ties", x=T("float32", [2, 4], "ties"))
        case(api, f"paddle.{name}(x, mode='mean')", tag="bad-mode", x=T("float32", [2, 4]))
        case(api, f"paddle.{name}([1.0, 2.0])", tag="list")
        case(f"paddle.Tensor.{name}", f"x.{name}(axis=0)", x=T("float32", [3, 2]))
    for name in ("var", "std"):
        api = f"paddle.{name}"
        for args in ("", ", axis=1", ", axis=[0, 2], keepdim=True", ", unbiased=False", ", axis=-1, unbiased=False",
                     ", 1, False, True"):
            case(api, f"paddle.{name}(x{args})", x=T("float32", [2, 3, 4]))
        case(api, f"paddle.{name}(x)", tag="f64", x=T("float64", [5]))
        case(api, f"paddle.{name}(x)", tag="single", x=T("float32", [1]))
        case(api, f"paddle.{name}(x)", tag="0d", x=T("float32", []))
        case(api, f"paddle.{name}(x)", tag="empty", x=T("float32", [0]))
        case(api, f"paddle.{name}(x, axis=1)", tag="i32", x=T("int32", [2, 3], "ints"))
        case(api, f"paddle.{name}(x)", tag="i64", x=T("int64", [2, 3], "ints"))
        case(api, f"paddle.{name}(x, axis=1)", tag="f16", x=T("float16", [2, 3]))
        case(api, f"paddle.{name}(x, axis=1)", tag="bf16", x=T("bfloat16", [2, 3]))
        case(api, f"paddle.{name}(x)", tag="bool", x=T("bool", [2, 3], "bools"))
        case(f"paddle.Tensor.{name}", f"x.{name}(axis=0)", x=T("float32", [3, 2]))
    for name in ("quantile", "nanquantile"):
        api = f"paddle.{name}"
        for args in ("0.5", "0.3", "[0.25, 0.75]", "0.5, axis=1", "0.4, axis=-1, keepdim=True",
                     "[0.1, 0.9], axis=0", "[0.1, 0.9], axis=[0, 1]", "[0.2], axis=1, keepdim=True",
                     "0.3, interpolation='lower'", "0.3, interpolation='higher'", "0.3, interpolation='nearest'",
                     "0.3, interpolation='midpoint'", "0.5, axis=1, interpolation='nearest'", "1.5", "(0.2, 0.4)",
                     "paddle.to_tensor([0.2, 0.6])", "paddle.to_tensor(0.25, dtype='float64')", "[]"):
            case(api, f"paddle.{name}(x, {args})", x=T("float32", [3, 4]))
        case(api, f"paddle.{name}(x, 0.5, axis=0)", tag="nan", x=T("float32", [3, 2], "normal", nan3))
        case(api, f"paddle.{name}(x, 0.5)", tag="f64", x=T("float64", [5]))
        case(api, f"paddle.{name}(x, 0.5)", tag="0d", x=T("float32", []))
        case(api, f"paddle.{name}(x, 0.5)", tag="i32", x=T("int32", [5], "ints"))
        case(api, f"paddle.{name}(x, 0.5)", tag="f16", x=T("float16", [5]))
        case(api, f"paddle.{name}(x, 0.5, axis=1)", tag="empty", x=T("float32", [0, 3]))
        case(f"paddle.Tensor.{name}", f"x.{name}(0.5, axis=0)", x=T("float32", [3, 2]))


def misc_cases():
    # cast
    for src in ("float32", "float64", "int32", "bool", "float16", "bfloat16"):
        for dst in ("float32", "float64", "int64", "int32", "bool", "float16", "bfloat16", "uint8"):
            case("paddle.cast", f"paddle.cast(x, '{dst}')", tag=f"{src}->{dst}",
                 x=T(src, [2, 3], "ints" if src in ("int32", "bool") else "small"))
    case("paddle.cast", "paddle.cast(x, paddle.float64)", tag="dtype-obj", x=T("float32", [3]))
    case("paddle.cast", "paddle.cast(x, np.int32)", tag="np-type", x=T("float32", [3]))
    case("paddle.cast", "paddle.cast(x, 'float')", tag="alias", x=T("float64", [3]))
    case("paddle.cast", "paddle.cast(x, 'int8')", tag="float-trunc",
         x={"dtype": "float32", "shape": [4], "values": [1.7, -1.7, 2.5, -0.5]})
    case("paddle.cast", "paddle.cast(x, 'wrong')", tag="bad-dtype", x=T("float32", [3]))
    case("paddle.cast", "paddle.cast([1.0], 'float32')", tag="list")
    case("paddle.cast", "paddle.cast(x, 'float32')", tag="0d", x=T("float64", []))
    case("paddle.cast_", "paddle.cast_(x, 'float64')", tag="inplace", x=T("float32", [3]))
    case("paddle.Tensor.cast_", "x.cast_('float64')", tag="inplace", x=T("float32", [3]))
    # scale
    for args in ("2.0", "2.0, 1.0", "2.0, 1.0, False", "scale=0.5, bias=-1.0, bias_after_scale=False",
                 "paddle.to_tensor(3.0)", "paddle.to_tensor([3.0])", "2.0, act='tanh'", "2.0, act='relu'",
                 "2"):
        case("paddle.scale", f"paddle.scale(x, {args})", x=T("float32", [2, 3]))
    case("paddle.scale", "paddle.scale(x, 2.0, 1.0)", tag="i32", x=T("int32", [2, 3], "ints"))
    case("paddle.scale", "paddle.scale(x, 2.5, 0.5)", tag="i64-float", x=T("int64", [3], "ints"))
    case("paddle.scale", "paddle.scale(x, 2.0, 1.0)", tag="f16", x=T("float16", [3]))
    case("paddle.scale", "paddle.scale(x, 2.0, 1.0)", tag="bool", x=T("bool", [3], "bools"))
    case("paddle.scale", "paddle.scale(x, 2.0)", tag="0d", x=T("float64", []))
    case("paddle.scale", "paddle.scale([1.0], 2.0)", tag="list")
    case("paddle.Tensor.scale", "x.scale(2.0, 1.0)", x=T("float32", [2, 3]))
    case("paddle.Tensor.scale_", "x.scale_(2.0, 1.0)", inplace=True, x=T("float32", [2, 3]))
    # increment
    case("paddle.increment", "paddle.increment(x)", inplace=True, x=T("float32", [1]))
    case("paddle.increment", "paddle.increment(x, 2.5)", inplace=True, x=T("float64", []))
    case("paddle.increment", "paddle.increment(x, 3)", inplace=True, x=T("int64", [1], "ints"))
    case("paddle.increment", "paddle.increment(x, 1.5)", inplace=True, x=T("int32", [1], "ints"))
    case("paddle.increment", "paddle.increment(x)", tag="numel-6", x=T("float32", [2, 3]))
    case("paddle.increment", "paddle.increment(x, value=2.0)", tag="requires-grad", x=T("float32", [1]))
    case("paddle.Tensor.increment", "x.increment(2.0)", inplace=True, x=T("float32", [1]))
    # add_n
    case("paddle.add_n", "paddle.add_n([x, y])", x=T("float32", [2, 3]), y=T("float32", [2, 3]))
    case("paddle.add_n", "paddle.add_n([x, y, z])", x=T("float64", [3]), y=T("float64", [3]),
         z=T("float64", [3]))
    case("paddle.add_n", "paddle.add_n(x)", tag="single", x=T("float32", [2, 3]))
    case("paddle.add_n", "paddle.add_n([x])", tag="list-single", x=T("float32", [2, 3]))
    case("paddle.add_n", "paddle.add_n([x, y])", tag="i32", x=T("int32", [3], "ints"), y=T("int32", [3], "ints"))
    case("paddle.add_n", "paddle.add_n([x, y])", tag="mixed", x=T("float32", [3]), y=T("float16", [3]))
    case("paddle.add_n", "paddle.add_n([x, y])", tag="bcast", x=T("float32", [2, 3]), y=T("float32", [3]))
    case("paddle.add_n", "paddle.add_n((x, y))", tag="tuple", x=T("float32", []), y=T("float32", []))
    case("paddle.add_n", "paddle.add_n([])", tag="empty-list")
    case("paddle.add_n", "paddle.add_n([x, y])", tag="f16", x=T("float16", [3]), y=T("float16", [3]))
    case("paddle.add_n", "paddle.add_n([x, y])", tag="bool", x=T("bool", [3], "bools"), y=T("bool", [3], "bools"))
    # clip
    for args in ("-1.0, 1.0", "min=-0.5", "max=0.5", "", "paddle.to_tensor(-1.0), paddle.to_tensor(1.0)",
                 "paddle.to_tensor([-1.0]), 0.5", "1.0, -1.0", "-1, 1"):
        case("paddle.clip", f"paddle.clip(x, {args})", x=T("float32", [2, 3]))
    for dt in ("int32", "int64"):
        case("paddle.clip", "paddle.clip(x, -2, 3)", tag=f"{dt}-int-bounds", x=T(dt, [2, 3], "ints"))
        case("paddle.clip", "paddle.clip(x, -2.5, 3.5)", tag=f"{dt}-float-bounds", x=T(dt, [2, 3], "ints"))
        case("paddle.clip", "paddle.clip(x, min=-2.5)", tag=f"{dt}-float-min", x=T(dt, [2, 3], "ints"))
        case("paddle.clip", "paddle.clip(x, max=3)", tag=f"{dt}-int-max", x=T(dt, [2, 3], "ints"))
    case("paddle.clip", "paddle.clip(x, -1.0, 1.0)", tag="f16", x=T("float16", [4]))
    case("paddle.clip", "paddle.clip(x, -1.0, 1.0)", tag="bf16", x=T("bfloat16", [4]))
    case("paddle.clip", "paddle.clip(x, -1.0, 1.0)", tag="f64-0d", x=T("float64", []))
    case("paddle.clip", "paddle.clip(x, -1.0, 1.0)", tag="nan", x=T("float32", [3], "normal", [float("nan")]))
    case("paddle.clip", "paddle.clip(x, 0, 1)", tag="bool", x=T("bool", [3], "bools"))
    case("paddle.clip", "paddle.clip([1.0], 0, 1)", tag="list")
    case("paddle.clip", "paddle.clip(x, min=y)", tag="tensor-min-grad", x=T("float32", [3]), y=T("float32", []))
    case("paddle.Tensor.clip", "x.clip(-1.0, 1.0)", x=T("float32", [2, 3]))
    case("paddle.Tensor.clip_", "x.clip_(-1.0, 1.0)", inplace=True, x=T("float32", [2, 3]))
    case("paddle.Tensor.clip_", "x.clip_(-1.0, 1.0)", tag="leaf-requires-grad", x=T("float32", [3]))
    # lerp
    case("paddle.lerp", "paddle.lerp(x, y, 0.3)", x=T("float32", [2, 3]), y=T("float32", [2, 3]))
    case("paddle.lerp", "paddle.lerp(x, y, w)", x=T("float32", [2, 3]), y=T("float32", [2, 3]),
         w=T("float32", [2, 3], "unit"))
    case("paddle.lerp", "paddle.lerp(x, y, w)", tag="bcast", x=T("float32", [2, 3]), y=T("float32", [3]),
         w=T("float32", [], "unit"))
    case("paddle.lerp", "paddle.lerp(x, y, w)", tag="bcast-w", x=T("float32", [3]), y=T("float32", [3]),
         w=T("float32", [2, 3], "unit"))
    case("paddle.lerp", "paddle.lerp(x, y, 0.5)", tag="f64", x=T("float64", [3]), y=T("float64", [3]))
    case("paddle.lerp", "paddle.lerp(x, y, 0.5)", tag="f16", x=T("float16", [3]), y=T("float16", [3]))
    case("paddle.lerp", "paddle.lerp(x, y, 0.5)", tag="i32", x=T("int32", [3], "ints"), y=T("int32", [3], "ints"))
    case("paddle.lerp", "paddle.lerp(x, y, 0.5)", tag="f32-f64", x=T("float32", [3]), y=T("float64", [3]))
    case("paddle.lerp", "paddle.lerp(x, y, w)", tag="w-f64", x=T("float32", [3]), y=T("float32", [3]),
         w=T("float64", [3], "unit"))
    case("paddle.lerp", "paddle.lerp(x, y, 2)", tag="int-weight", x=T("float32", [3]), y=T("float32", [3]))
    case("paddle.Tensor.lerp", "x.lerp(y, 0.25)", x=T("float32", [2, 3]), y=T("float32", [2, 3]))
    case("paddle.Tensor.lerp_", "x.lerp_(y, 0.25)", inplace=True, x=T("float32", [2, 3]), y=T("float32", [2, 3]))
    # zero_, conj, is_complex and friends
    case("paddle.Tensor.zero_", "x.zero_()", inplace=True, x=T("float32", [2, 3]))
    case("paddle.Tensor.zero_", "x.zero_()", tag="i64", inplace=True, x=T("int64", [2, 3], "ints"))
    case("paddle.Tensor.zero_", "x.zero_()", tag="leaf-requires-grad", x=T("float32", [3]))
    case("paddle.Tensor.conj", "x.conj()", x=T("float32", [2, 3]))
    case("paddle.Tensor.conj", "x.conj()", tag="i32", x=T("int32", [2, 3], "ints"))
    for name in ("is_complex", "is_floating_point", "is_integer", "is_tensor", "is_empty"):
        for dt in ("float32", "int32", "bool", "float16"):
            case(f"paddle.{name}", f"paddle.{name}(x)", tag=dt, x=T(dt, [2], "ints"))
        case(f"paddle.{name}", f"paddle.{name}(x)", tag="empty", x=T("float32", [0, 2]))
        case(f"paddle.{name}", f"paddle.{name}([1.0])", tag="list")
    for name in ("is_complex",):
        case(f"paddle.Tensor.{name}", f"x.{name}()", x=T("float32", [2]))
    # allclose / isclose / equal_all
    for name in ("allclose", "isclose"):
        api = f"paddle.{name}"
        case(api, f"paddle.{name}(x, y)", tag="equal", x=T("float32", [2, 3]), y=T("float32", [2, 3]))
        case(api, f"paddle.{name}(x, x + 1e-6)", tag="close", x=T("float32", [2, 3]))
        case(api, f"paddle.{name}(x, x + 1e-3)", tag="far", x=T("float32", [2, 3]))
        case(api, f"paddle.{name}(x, x * 1.001, rtol=1e-2)", tag="rtol", x=T("float32", [2, 3]))
        case(api, f"paddle.{name}(x, x + 0.5, atol=1.0)", tag="atol", x=T("float32", [2, 3]))
        case(api, f"paddle.{name}(x, y)", tag="nan", x=T("float32", [3], "normal", [float("nan")]),
             y=T("float32", [3], "normal", [float("nan")]))
        case(api, f"paddle.{name}(x, x, equal_nan=True)", tag="equal-nan",
             x=T("float32", [3], "normal", [float("nan")]))
        case(api, f"paddle.{name}(x, y)", tag="bcast", x=T("float32", [2, 3]), y=T("float32", [3]))
        case(api, f"paddle.{name}(x, y)", tag="f64", x=T("float64", [3]), y=T("float64", [3]))
        case(api, f"paddle.{name}(x, y)", tag="f32-f64", x=T("float32", [3]), y=T("float64", [3]))
        case(api, f"paddle.{name}(x, y)", tag="i32", x=T("int32", [3], "ties"), y=T("int32", [3], "ties"))
        case(api, f"paddle.{name}(x, y)", tag="inf", x=T("float32", [3], "normal", [float("inf")]),
             y=T("float32", [3], "normal", [float("inf")]))
        case(api, f"paddle.{name}(x, x, rtol=-1.0)", tag="neg-rtol", x=T("float32", [3]))
        case(f"paddle.Tensor.{name}", f"x.{name}(x)", x=T("float32", [2, 3]))
    case("paddle.equal_all", "paddle.equal_all(x, x)", x=T("float32", [2, 3]))
    case("paddle.equal_all", "paddle.equal_all(x, y)", tag="different", x=T("float32", [2, 3]), y=T("float32", [2, 3]))
    case("paddle.equal_all", "paddle.equal_all(x, y)", tag="shape", x=T("float32", [2, 3]), y=T("float32", [3]))
    case("paddle.equal_all", "paddle.equal_all(x, y)", tag="dtype", x=T("float32", [3], "ties"), y=T("float64", [3], "ties"))
    case("paddle.equal_all", "paddle.equal_all(x, y)", tag="i32", x=T("int32", [3], "ties"), y=T("int32", [3], "ties"))
    case("paddle.equal_all", "paddle.equal_all(x, y)", tag="empty", x=T("float32", [0]), y=T("float32", [0]))
    # heaviside / copysign / atan2 etc. through methods already; logical ops with scalars
    case("paddle.logical_and", "paddle.logical_and(x, True)", tag="bool-scalar", x=T("bool", [3], "bools"))
    case("paddle.logical_not", "paddle.logical_not(x)", tag="f32-zero",
         x={"dtype": "float32", "shape": [3], "values": [0.0, -0.0, 2.0]})
    case("paddle.logical_and", "paddle.logical_and(x, y, out=z)", tag="out",
         x=T("bool", [3], "bools"), y=T("bool", [3], "bools"), z=T("bool", [3], "bools"))


def main():
    unary_cases()
    binary_cases()
    reduction_cases()
    cumulative_cases()
    stat_cases()
    misc_cases()
    data = {"meta": {"paddle": paddle.__version__, "numpy": np.__version__}, "cases": CASES}
    text = json.dumps(data, separators=(",", ":"))
    with open(OUT, "w") as f:
        f.write(text)
    print(f"{len(CASES)} cases, {len(text) / 1e6:.2f} MB -> {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
