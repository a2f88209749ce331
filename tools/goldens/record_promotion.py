"""Record Paddle 3.3.1's dtype promotion for binary operators into tests/goldens/promotion.json.

Run with the interpreter of the virtualenv that holds real Paddle (the oracle), never with the
project's own Python:

    /work/paddle_venv/bin/python tools/goldens/record_promotion.py

Every case runs one binary operation in Paddle's dygraph mode on CPU and stores the result dtype
and values, or the exception class and message (with Paddle's C++ source location removed).
tests/test_promotion.py replays the cases over torch through paddle_compat.framework.promotion.

Layout of the JSON file:
    meta       Paddle version, tensor data used for each dtype, the scalar spellings.
    errors     distinct exceptions, each [class name, message]; results refer to them by index.
    blocks     list of [group, op, xshape, yshape, rows], rows being [x, y, result, values]; each
               row is the case [group, op, x, y, xshape, yshape, result, values] where
               group   "tt" tensor-tensor (shapes say n-d or 0-d), "ts" tensor-scalar,
                       "st" scalar-tensor, "ta"/"at" tensor-ndarray, "inplace" (t op= y),
                       "inplace_method" (t.add_(y)), "value" (negative operands; x/y that
                       are dtypes take their data from xshape/yshape, others are ints),
                       "default64" (ts/st under paddle.set_default_dtype('float64'))
               op      an operator-module name ("add", "truediv", "lt", ...), "paddle.<fn>",
                       "i<name>" (augmented assignment) or "<method>_" (in-place method)
               x, y    dtype name for a tensor operand, scalar or array key (meta.scalars,
                       meta.arrays) otherwise
               result  dtype name of the result, or an int index into errors
               values  the result as nested lists (complex as [re, im], bfloat16 via float32);
                       null for errors
"""
import json
import operator
import os
import re
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

paddle.set_device("cpu")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128"]

# Scalars used against tensors; the key is how the test rebuilds them.
SCALARS = {
    "True": True,
    "3": 3,
    "-3": -3,
    "2.5": 2.5,
    "(1+2j)": 1 + 2j,
    "np.float64(2.5)": np.float64(2.5),
    "np.int32(3)": np.int32(3),
    "np.float32(2.5)": np.float32(2.5),
}

# numpy arrays against tensors (Paddle turns them into tensors of their own dtype)
ARRAYS = {
    "np.array([2.0, 1.0, 3.0])": np.array([2.0, 1.0, 3.0]),
    "np.array([2, 1, 3])": np.array([2, 1, 3]),
    "np.array(2.5)": np.array(2.5),
}

# Tensor data per dtype kind: x is the left operand of tensor-tensor cases, y the right one.
# Kept positive and small so that pow and shifts stay well defined; the negative cases for
# // and % and ** are recorded separately in the "value" group.
DATA = {
    "bool": ([True, False, True], [True, True, True]),  # no zero divisors: SIGFPE in Paddle
    "int": ([7, 5, 2], [2, 3, 1]),
    "float": ([3.5, 1.25, 2.0], [2.0, 0.5, 3.0]),
    "complex": ([3 + 1j, 1 - 2j, 2 + 0.5j], [2 - 1j, 0.5 + 1j, 1 + 1j]),
}
DATA0 = {"bool": (True, True), "int": (3, 2), "float": (2.5, 2.0), "complex": (1 + 2j, 2 - 1j)}


def kind(dt):
    if dt == "bool":
        return "bool"
    if dt.startswith("complex"):
        return "complex"
    if dt.startswith(("float", "bfloat")):
        return "float"
    return "int"


def make(dt, which, zero_d=False):
    data = (DATA0 if zero_d else DATA)[kind(dt)][which]
    return paddle.to_tensor(data, dtype=dt)


OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and_", "or_", "xor",
             "lshift", "rshift", "eq", "ne", "lt", "le", "gt", "ge"]
FUNCTIONS = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow",
             "maximum", "minimum", "equal", "less_than", "logical_and", "bitwise_and", "atan2",
             "fmax", "logical_or", "not_equal", "greater_equal"]
INPLACE_METHODS = ["add_", "subtract_", "multiply_", "divide_", "floor_divide_", "remainder_",
                   "pow_"]

_LOCATION = re.compile(r"\s*\(at [^)]*\)\s*$")


# An integer (or bool) tensor raised to a negative integer *scalar* (Python or numpy int) never
# returns in Paddle 3.3.1 (its integer pow kernel loops), so those cases are not run; the golden
# marks them with this pseudo-exception. A negative integer *tensor* exponent works (gives 0).
HANG = RuntimeError("paddle hangs: integer tensor ** negative integer scalar")
POW_OPS = ("pow", "ipow", "pow_", "paddle.pow")


def hangs(op, x, y):
    if op not in POW_OPS or x not in DTYPES or y in DTYPES:
        return False
    try:
        exp = SCALARS[y] if y in SCALARS else int(y)
    except ValueError:
        return False
    negative_int = isinstance(exp, (int, np.integer)) and not isinstance(exp, bool) and exp < 0
    return negative_int and kind(x) in ("int", "bool")


def to_values(t):
    if t.dtype == paddle.bfloat16:
        t = t.astype("float32")
    a = t.numpy()
    if np.iscomplexobj(a):
        a = np.stack([a.real, a.imag], axis=-1)
    if a.dtype in (np.float16, np.float32):
        # 9 significant digits round-trip a float32 exactly and keep the file small
        return np.vectorize(lambda v: float(f"{v:.9g}"), otypes=[object])(a).tolist()
    return a.tolist()


class Recorder:
    def __init__(self):
        self.errors = []
        self._error_index = {}
        self.cases = []

    def error(self, exc):
        msg = _LOCATION.sub("", str(exc).strip())
        key = (type(exc).__name__, msg)
        if key not in self._error_index:
            self._error_index[key] = len(self.errors)
            self.errors.append(list(key))
        return self._error_index[key]

    def run(self, group, op, x, y, xshape, yshape, fn):
        if os.environ.get("RECORD_TRACE"):
            print(group, op, x, y, xshape, yshape, file=sys.stderr, flush=True)
        if hangs(op, x, y):
            self.cases.append([group, op, x, y, xshape, yshape, self.error(HANG), None])
            return
        try:
            out = fn()
        except Exception as exc:  # Paddle raises many classes; we record which
            self.cases.append([group, op, x, y, xshape, yshape, self.error(exc), None])
            return
        if not isinstance(out, paddle.Tensor):
            self.cases.append([group, op, x, y, xshape, yshape,
                               self.error(TypeError(f"result is {type(out).__name__}")), None])
            return
        self.cases.append([group, op, x, y, xshape, yshape, str(out.dtype).replace("paddle.", ""),
                           to_values(out)])


def function(name):
    return getattr(paddle, name, None)


def record(rec):
    shapes = [([3], [3], False, False), ([], [3], True, False), ([3], [], False, True),
              ([], [], True, True)]
    # Tensor (op) tensor, every ordered dtype pair, n-d and 0-d shapes.
    for xs, ys, x0, y0 in shapes:
        for xd in DTYPES:
            for yd in DTYPES:
                for name in OPERATORS:
                    f = getattr(operator, name)
                    rec.run("tt", name.rstrip("_"), xd, yd, xs, ys,
                            lambda: f(make(xd, 0, x0), make(yd, 1, y0)))
                if not (x0 or y0):  # matmul of two vectors (a 0-d operand is a shape error)
                    rec.run("tt", "matmul", xd, yd, xs, ys,
                            lambda: operator.matmul(make(xd, 0), make(yd, 1)))
                for name in FUNCTIONS:
                    f = function(name)
                    if f is None:
                        continue
                    rec.run("tt", "paddle." + name, xd, yd, xs, ys,
                            lambda: f(make(xd, 0, x0), make(yd, 1, y0)))
    # Tensor (op) scalar and scalar (op) tensor.
    for xd in DTYPES:
        for skey, s in SCALARS.items():
            for name in OPERATORS:
                f = getattr(operator, name)
                op = name.rstrip("_")
                rec.run("ts", op, xd, skey, [3], None, lambda: f(make(xd, 0), s))
                rec.run("st", op, skey, xd, None, [3], lambda: f(s, make(xd, 1)))
                rec.run("ts", op, xd, skey, [], None, lambda: f(make(xd, 0, True), s))
                rec.run("st", op, skey, xd, None, [], lambda: f(s, make(xd, 1, True)))
            for name in FUNCTIONS:
                f = function(name)
                if f is None:
                    continue
                rec.run("ts", "paddle." + name, xd, skey, [3], None, lambda: f(make(xd, 0), s))
                rec.run("st", "paddle." + name, skey, xd, None, [3], lambda: f(s, make(xd, 1)))
    # Tensor (op) numpy array and numpy array (op) tensor.
    for xd in DTYPES:
        for akey, arr in ARRAYS.items():
            for name in ["add", "sub", "mul", "truediv", "floordiv", "pow", "eq", "lt"]:
                f = getattr(operator, name)
                rec.run("ta", name, xd, akey, [3], None, lambda: f(make(xd, 0), arr))
                rec.run("at", name, akey, xd, None, [3], lambda: f(arr, make(xd, 1)))
    # In-place forms: augmented assignment and the trailing-underscore methods.
    for xd in DTYPES:
        others = [(yd, None) for yd in DTYPES] + [(k, s) for k, s in SCALARS.items()]
        for yk, s in others:
            def other():
                return make(yk, 1) if s is None else s
            for name in ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow"]:
                f = getattr(operator, "i" + name)
                rec.run("inplace", "i" + name, xd, yk, [3], [3] if s is None else None,
                        lambda: inplace(f, make(xd, 0), other()))
            for name in INPLACE_METHODS:
                rec.run("inplace_method", name, xd, yk, [3], [3] if s is None else None,
                        lambda: method(name, make(xd, 0), other()))
    # Values with negative operands: // and % (floor or trunc?), int ** negative int,
    # int / int, bool + bool.
    for dt in ["int8", "int16", "int32", "int64", "float32", "float64"]:
        a = [7, -7, 7, -7, 6, -6]
        b = [2, 2, -2, -2, -4, 4]
        for name in ["floordiv", "mod", "truediv"]:
            f = getattr(operator, name)
            rec.run("value", name, dt, dt, a, b, lambda: f(paddle.to_tensor(a, dt),
                                                           paddle.to_tensor(b, dt)))
        for name in ["floor_divide", "remainder", "divide"]:
            f = function(name)
            rec.run("value", "paddle." + name, dt, dt, a, b,
                    lambda: f(paddle.to_tensor(a, dt), paddle.to_tensor(b, dt)))
        for sv in [2, -2, 3]:
            for name in ["floordiv", "mod"]:
                f = getattr(operator, name)
                rec.run("value", name, dt, repr(sv), a, None,
                        lambda: f(paddle.to_tensor(a, dt), sv))
                rec.run("value", name, repr(sv), dt, None, b,
                        lambda: f(sv, paddle.to_tensor(b, dt)))
    for dt in ["int32", "int64"]:
        base = [2, -2, 1, -1, 3]
        for e in [-1, -2, 2]:
            rec.run("value", "pow", dt, repr(e), base, None,
                    lambda: operator.pow(paddle.to_tensor(base, dt), e))
            rec.run("value", "pow", dt, dt, base, [e] * 5,
                    lambda: operator.pow(paddle.to_tensor(base, dt), paddle.to_tensor([e] * 5, dt)))
            rec.run("value", "paddle.pow", dt, repr(e), base, None,
                    lambda: paddle.pow(paddle.to_tensor(base, dt), e))
        rec.run("value", "rpow", repr(2), dt, None, [-1, 0, 3],
                lambda: operator.pow(2, paddle.to_tensor([-1, 0, 3], dt)))
    # bool (op) bool; divisors never False (an integer division by zero kills Paddle).
    bb = ([True, True, False, False], [True, False, True, False])
    bdiv = ([True, False], [True, True])
    for name in ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow"]:
        f = getattr(operator, name)
        u, v = bdiv if name in ("truediv", "floordiv", "mod") else bb
        rec.run("value", name, "bool", "bool", u, v,
                lambda: f(paddle.to_tensor(u), paddle.to_tensor(v)))
    for name in ["add", "subtract", "multiply", "divide"]:
        f = function(name)
        u, v = bdiv if name == "divide" else bb
        rec.run("value", "paddle." + name, "bool", "bool", u, v,
                lambda: f(paddle.to_tensor(u), paddle.to_tensor(v)))
    # What set_default_dtype('float64') changes for int tensor (op) Python float.
    paddle.set_default_dtype("float64")
    try:
        for xd in ["bool", "int32", "int64", "float16", "float32"]:
            for skey in ["2.5", "3", "np.float64(2.5)"]:
                s = SCALARS[skey]
                for name in ["add", "mul", "truediv", "pow", "floordiv", "lt"]:
                    f = getattr(operator, name)
                    rec.run("default64", name, xd, skey, [3], None, lambda: f(make(xd, 0), s))
                    rec.run("default64", name, skey, xd, None, [3], lambda: f(s, make(xd, 1)))
            rec.run("default64", "truediv", xd, xd, [3], [3],
                    lambda: operator.truediv(make(xd, 0), make(xd, 1)))
    finally:
        paddle.set_default_dtype("float32")


def inplace(f, t, other):
    # `t op= other`: the dtype of what the name is bound to afterwards (whether that is t
    # itself is recorded once per operator in meta.augmented_assignment_is_inplace).
    return f(t, other)


def method(name, t, other):
    fn = getattr(t, name, None)
    if fn is None:
        raise AttributeError(f"Tensor has no method {name}")
    out = fn(other)
    if out is not t:
        raise RuntimeError("in-place method returned a different tensor")
    return out


def main():
    rec = Recorder()
    record(rec)
    # Which augmented assignments run truly in place (same object) in Paddle.
    probe = {}
    for name in ["iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow"]:
        t = paddle.to_tensor([1.0, 2.0])
        out = getattr(operator, name)(t, 2.0)
        probe[name] = out is t
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.path.join(root, "tests", "goldens", "promotion.json")
    data = {
        "meta": {
            "paddle_version": paddle.__version__,
            "dtypes": DTYPES,
            "data": {k: [[complex_pair(v) for v in vs] for vs in pair] for k, pair in DATA.items()},
            "data0": {k: [complex_pair(v) for v in pair] for k, pair in DATA0.items()},
            "scalars": list(SCALARS),
            "arrays": list(ARRAYS),
            "augmented_assignment_is_inplace": probe,
        },
        "errors": rec.errors,
        "cases": rec.cases,
    }
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write("{\n")
        fh.write('"meta": ' + json.dumps(data["meta"]) + ",\n")
        fh.write('"errors": [\n' + ",\n".join(json.dumps(e) for e in rec.errors) + "\n],\n")
        fh.write('"blocks": [\n' + ",\n".join(json.dumps(b, separators=(",", ":"))
                                              for b in blocks(rec.cases)) + "\n]\n}\n")
    print(f"wrote {len(rec.cases)} cases, {len(rec.errors)} distinct errors to {path}",
          file=sys.stderr)


def blocks(cases):
    """Cases sharing group, op and shapes, stored once: [group, op, xshape, yshape, rows] with
    rows [x, y, result, values]."""
    out = {}
    for group, op, x, y, xs, ys, result, values in cases:
        key = json.dumps([group, op, xs, ys])
        out.setdefault(key, [group, op, xs, ys, []])[4].append([x, y, result, values])
    return list(out.values())


def complex_pair(v):
    return [v.real, v.imag] if isinstance(v, complex) else v


if __name__ == "__main__":
    main()
