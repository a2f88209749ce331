"""paddle_compat.framework.promotion against Paddle 3.3.1's recorded binary-op promotion
(tests/goldens/promotion.json, written by tools/goldens/record_promotion.py).

Every golden case is rebuilt from torch tensors / Python and numpy scalars, sent through
``binary_plan`` and then the plain torch op; the result dtype (and values) must be Paddle's,
and where Paddle raised, ``binary_plan`` must raise the same exception class and message.

Golden failures that are not about promotion are not replayed:
* "kernel ... is not registered": Paddle's CPU build lacks that dtype for that op (float16 add,
  bool subtract, integer maximum ...); the dtype Paddle would have computed in is unknown.
* the Python-level argument checks of the in-place methods (``t.add_(3)``).
Where Paddle never returns (integer tensor ** negative integer scalar) anything but a hang
will do (torch refuses integer ** negative integer).
"""
import json
import operator
import os
from collections import defaultdict

import numpy as np
import pytest
import torch

from paddle_compat.framework import dtype as _dt
from paddle_compat.framework.promotion import (binary_operands, binary_plan, promote_types,
                                               result_dtype)

with open(os.path.join(os.path.dirname(__file__), "goldens", "promotion.json")) as _f:
    GOLDEN = json.load(_f)
META, ERRORS = GOLDEN["meta"], GOLDEN["errors"]
# one case: [group, op, x, y, xshape, yshape, result, values]
CASES = [[g, op, x, y, xs, ys, r, v] for g, op, xs, ys, rows in GOLDEN["blocks"]
         for x, y, r, v in rows]

TORCH = {n: _dt.convert_dtype(n).torch for n in META["dtypes"]}
SCALARS = {
    "True": True, "3": 3, "-3": -3, "2.5": 2.5, "(1+2j)": 1 + 2j,
    "np.float64(2.5)": np.float64(2.5), "np.int32(3)": np.int32(3),
    "np.float32(2.5)": np.float32(2.5),
}
assert list(SCALARS) == META["scalars"]
ARRAYS = {"np.array([2.0, 1.0, 3.0])": np.array([2.0, 1.0, 3.0]),
          "np.array([2, 1, 3])": np.array([2, 1, 3]), "np.array(2.5)": np.array(2.5)}
assert list(ARRAYS) == META["arrays"]

# golden op -> (promotion op, api, torch function)
OPERATORS = {
    "add": ("add", operator.add), "sub": ("sub", operator.sub), "mul": ("mul", operator.mul),
    "truediv": ("div", operator.truediv), "floordiv": ("floordiv", operator.floordiv),
    "mod": ("mod", operator.mod), "pow": ("pow", operator.pow), "and": ("and", operator.and_),
    "or": ("or", operator.or_), "xor": ("xor", operator.xor),
    "lshift": ("lshift", operator.lshift), "rshift": ("rshift", operator.rshift),
    "eq": ("eq", operator.eq), "ne": ("ne", operator.ne), "lt": ("lt", operator.lt),
    "le": ("le", operator.le), "gt": ("gt", operator.gt), "ge": ("ge", operator.ge),
    "matmul": ("matmul", operator.matmul),
}
OPS = {k: (p, False, f) for k, (p, f) in OPERATORS.items()}
OPS["rpow"] = ("pow", False, operator.pow)
OPS.update({"i" + k: (p, False, f) for k, (p, f) in OPERATORS.items()})  # `t op= s` rebinds
FUNCTIONS = {
    "add": torch.add, "subtract": torch.sub, "multiply": torch.mul, "divide": torch.true_divide,
    "floor_divide": torch.floor_divide, "remainder": torch.remainder, "pow": torch.pow,
    "maximum": torch.maximum, "minimum": torch.minimum, "equal": torch.eq,
    "less_than": torch.lt, "logical_and": torch.logical_and, "bitwise_and": torch.bitwise_and,
    "atan2": torch.atan2, "fmax": torch.fmax, "logical_or": torch.logical_or,
    "not_equal": torch.ne, "greater_equal": torch.ge,
}
OPS.update({"paddle." + k: (k, True, f) for k, f in FUNCTIONS.items()})
OPS.update({k + "_": (k, True, f) for k, f in FUNCTIONS.items()})      # in-place methods

TOL = {torch.float16: (2e-3, 2e-3), torch.bfloat16: (1.6e-2, 1e-2),
       torch.float32: (1e-5, 1e-6), torch.complex64: (1e-5, 1e-6)}


def kind(name):
    if name == "bool":
        return "bool"
    if name.startswith("complex"):
        return "complex"
    return "float" if "float" in name else "int"


def tensor(name, which, zero_d):
    src = META["data0" if zero_d else "data"][kind(name)][which]
    vals = [complex(*v) if isinstance(v, list) else v for v in (src if not zero_d else [src])]
    t = torch.tensor(vals, dtype=TORCH[name])
    return t.reshape(()) if zero_d else t


def value_operand(key, data):
    if key in TORCH:
        return torch.tensor(data, dtype=TORCH[key])
    return int(key)


def operands(case):
    group, op, x, y, xs, ys = case[:6]
    if group == "value":
        return value_operand(x, xs), value_operand(y, ys)
    a = tensor(x, 0, xs == []) if x in TORCH else SCALARS.get(x, ARRAYS.get(x))
    b = tensor(y, 1, ys == []) if y in TORCH else SCALARS.get(y, ARRAYS.get(y))
    return a, b


def skip_reason(case):
    group, op, x, y, xs, ys, result = case[:7]
    if isinstance(result, int):
        cls, msg = ERRORS[result]
        if "is not registered" in msg:
            return "kernel missing in Paddle's CPU build"
        if group == "inplace_method" and "Type promotion" not in msg and "hangs" not in msg:
            return "argument check of an in-place method"
    return None


# torch has no kernel for these (Paddle has): ordering comparisons of complex numbers (Paddle
# orders them by real part, then imaginary part) and the remainder of complex numbers. The
# promotion is still checked through result_dtype.
TORCH_GAPS = {"mod", "remainder", "lt", "le", "gt", "ge", "less_than", "less_equal",
              "greater_than", "greater_equal"}


def to_list(t):
    if t.dtype is torch.bfloat16:
        t = t.float()
    a = t.numpy()
    if np.iscomplexobj(a):
        return np.stack([a.real, a.imag], axis=-1)
    return a


def run(case):
    """None when the case matches Paddle, else a description of the difference."""
    group, op, x, y, xs, ys, result, values = case
    pop, api, fn = OPS[op]
    a, b = operands(case)
    hang = isinstance(result, int) and ERRORS[result][1].startswith("paddle hangs")
    expect_error = isinstance(result, int) and not hang
    try:
        a2, b2, cast = binary_plan(pop, a, b, api)
    except Exception as e:  # noqa: BLE001
        if not expect_error:
            return f"raised {type(e).__name__}: {e}" + (" (Paddle hangs)" if hang else "")
        cls, msg = ERRORS[result]
        got = str(e)
        if cls == "RuntimeError" and msg.startswith("(Unavailable) Only supports to align"):
            msg, got = msg.split("data type is")[0], got.split("data type is")[0]
        if type(e).__name__ != cls or got != msg:
            return f"raised {type(e).__name__}: {got!r}, Paddle {cls}: {msg!r}"
        return None
    if expect_error:
        return f"no error, Paddle raised {ERRORS[result][0]}: {ERRORS[result][1]!r}"
    if hang:           # anything but hanging will do (torch refuses integer ** negative int)
        try:
            fn(a2, b2)
        except RuntimeError:
            pass
        return None
    try:
        out = fn(a2, b2)
    except NotImplementedError as e:
        if pop in TORCH_GAPS and "Complex" in str(e):
            got = result_dtype(pop, a, b, api)
            return None if got is TORCH[result] else f"result_dtype {got}, Paddle {result}"
        return f"torch raised NotImplementedError: {e}"
    except Exception as e:  # noqa: BLE001
        return f"torch raised {type(e).__name__}: {e}"
    if cast is not None:
        out = out.to(cast)
    return compare(out, result, values)


def compare(out, result, values):
    if out.dtype is not TORCH[result]:
        return f"dtype {out.dtype}, Paddle {result}"
    got, want = to_list(out), np.asarray(values)
    if got.shape != want.shape:
        return f"shape {got.shape}, Paddle {want.shape}"
    if out.dtype is torch.bool or not (out.is_floating_point() or out.is_complex()):
        ok = np.array_equal(got, want)
    else:
        rtol, atol = TOL.get(out.dtype, (1e-9, 1e-12))
        ok = np.allclose(got, want.astype(got.dtype), rtol=rtol, atol=atol, equal_nan=True)
    return None if ok else f"values {got.tolist()}, Paddle {want.tolist()}"


GROUPS = defaultdict(list)
for _c in CASES:
    GROUPS[(_c[0], _c[1])].append(_c)


@pytest.mark.parametrize("group,op", sorted(GROUPS), ids=lambda v: str(v))
def test_golden(group, op):
    failures, skipped = [], 0
    restore = _dt.get_default_dtype()
    if group == "default64":
        _dt.set_default_dtype("float64")
    try:
        for case in GROUPS[(group, op)]:
            if skip_reason(case):
                skipped += 1
                continue
            diff = run(case)
            if diff:
                failures.append(f"{case[2]} {op} {case[3]} {case[4]}/{case[5]}: {diff}")
    finally:
        _dt.set_default_dtype(restore)
    assert not failures, f"{len(failures)} of {len(GROUPS[(group, op)])}:\n" + "\n".join(
        failures[:40])


def test_golden_covers_every_case():
    counts = defaultdict(int)
    for case in CASES:
        counts["skipped" if skip_reason(case) else "replayed"] += 1
    assert counts["replayed"] > 20000, counts


# ----------------------------------------------------------------------------- fast paths
def fast_path_applies(case):
    """The Tensor code skips binary_operands (1) for two tensors of one dtype (operators and
    functions) and (2) for a floating or complex tensor with a Python int or float
    (operators)."""
    group, op, x, y = case[:4]
    if group not in ("tt", "ts", "st", "value", "default64", "inplace"):
        return False
    if x in TORCH and y in TORCH:
        return x == y
    if op.startswith("paddle.") or x in ARRAYS or y in ARRAYS:
        return False
    t, s = (x, y) if x in TORCH else (y, x)
    sv = SCALARS[s] if s in SCALARS else int(s)
    return type(sv) in (int, float) and kind(t) in ("float", "complex")


def fast_path_diff(case):
    group, op, x, y, xs, ys, result, values = case
    pop, api, fn = OPS[op]
    a, b = operands(case)
    if isinstance(result, int):
        return None      # Paddle raised; whether torch raises too is the op's business
    try:
        out = fn(a, b)
    except NotImplementedError:
        return None      # a torch kernel gap (complex ordering / remainder), not a dtype issue
    except Exception as e:  # noqa: BLE001
        return f"torch raised {type(e).__name__}"
    return compare(out, result, values)


# Where the fast paths do not give Paddle's result, by category.
def fast_path_exception(case):
    group, op, x, y, xs, ys = case[:6]
    if op in ("truediv", "itruediv", "paddle.divide") and x == y == "bool":
        return "bool / bool is bool in Paddle, float32 in torch"
    if op == "paddle.atan2" and x == y and kind(x) == "int":
        return "atan2 of integers is float64 (computed in float32) in Paddle, float32 in torch"
    if op == "floordiv" and [] in (xs, ys) and (x in SCALARS or y in SCALARS):
        return "0-d floating tensor // Python number has shape [1] in Paddle"
    return None


def test_fast_paths():
    """Both fast paths give Paddle's dtype, shape and values, except in three categories
    (each of which does occur, so the list stays honest)."""
    unexpected, seen = [], set()
    for case in CASES:
        if fast_path_applies(case) and not skip_reason(case):
            diff = fast_path_diff(case)
            if diff:
                why = fast_path_exception(case)
                if why:
                    seen.add(why)
                else:
                    unexpected.append((case[:6], diff))
    assert not unexpected, unexpected[:20]
    assert len(seen) == 3, seen


# ----------------------------------------------------------------------------- unit checks
def test_lattice_matches_paddle_table():
    # Paddle's promoteTypes table, rows/cols in its order: u1 i1 i2 i4 i8 f2 f4 f8 c4 c8 b1 bf
    order = ["uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
             "complex64", "complex128", "bool", "bfloat16"]
    short = dict(zip(["u1", "i1", "i2", "i4", "i8", "f2", "f4", "f8", "c4", "c8", "b1", "bf"],
                     order))
    table = """u1 i2 i2 i4 i8 f2 f4 f8 c4 c8 u1 bf
               i2 i1 i2 i4 i8 f2 f4 f8 c4 c8 i1 bf
               i2 i2 i2 i4 i8 f2 f4 f8 c4 c8 i2 bf
               i4 i4 i4 i4 i8 f2 f4 f8 c4 c8 i4 bf
               i8 i8 i8 i8 i8 f2 f4 f8 c4 c8 i8 bf
               f2 f2 f2 f2 f2 f2 f4 f8 c4 c8 f2 f4
               f4 f4 f4 f4 f4 f4 f4 f8 c4 c8 f4 f4
               f8 f8 f8 f8 f8 f8 f8 f8 c8 c8 f8 f8
               c4 c4 c4 c4 c4 c4 c4 c8 c4 c8 c4 c4
               c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8
               u1 i1 i2 i4 i8 f2 f4 f8 c4 c8 b1 bf
               bf bf bf bf bf f4 f4 f8 c4 c8 bf bf"""
    for i, row in enumerate(table.split("\n")):
        for j, v in enumerate(row.split()):
            assert promote_types(TORCH[order[i]], TORCH[order[j]]) is TORCH[short[v]]


def test_known_message():
    a = torch.ones(3, dtype=torch.int32)
    b = torch.ones(3, dtype=torch.int64)
    with pytest.raises(TypeError, match=r"x: int32, y: int64\.$"):
        binary_operands("add", a, b)
    with pytest.raises(TypeError, match=r"x: int64, y: int32\.$"):
        binary_operands("add", b, a)


def test_scalar_examples():
    i64 = torch.tensor([1, 2], dtype=torch.int64)
    f16 = torch.tensor([1.0, 2.0], dtype=torch.float16)
    a, b = binary_operands("mul", i64, 2.5)
    assert (a * b).dtype is torch.float32
    a, b = binary_operands("mul", f16, 2.5)
    assert (a * b).dtype is torch.float16
    a, b = binary_operands("add", i64, np.float32(2.5))      # numpy.float32 -> x's dtype
    assert b == 2 and type(b) is int
    a, b = binary_operands("sub", 2, torch.tensor([True]))   # int with bool -> int64
    assert a == 2 and b.dtype is torch.int64
    assert result_dtype("div", torch.tensor([True]), torch.tensor([False])) is torch.bool
    assert result_dtype("lt", i64, 2.5) is torch.bool


def test_zero_d_rules():
    v = torch.ones(3, dtype=torch.int32)
    s = torch.tensor(5, dtype=torch.int64)
    a, b = binary_operands("add", v, s)          # one kind: the n-d dtype wins
    assert (a + b).dtype is torch.int32
    a, b = binary_operands("floordiv", v, s)     # // uses the lattice
    assert (a // b).dtype is torch.int64
    with pytest.raises(TypeError):
        binary_operands("maximum", v, s)         # no 0-d special case
    a, b = binary_operands("add", s.to(torch.float64), v)   # kinds differ: lattice
    assert (a + b).dtype is torch.float64


def test_function_names_imply_api():
    t = torch.tensor([7, 5, 2], dtype=torch.int8)
    a, b = binary_operands("floor_divide", t, 3)   # to_tensor(3) is int64
    assert (a // b).dtype is torch.int64
    a, b = binary_operands("floordiv", t, 3)       # the operator keeps int8
    assert (a // b).dtype is torch.int8
    with pytest.raises(ValueError, match=r"subtract\(\): argument 'y' \(position 1\) must be"):
        binary_operands("subtract", t, 3)


def test_meta_tensors_only_metadata():
    """Only dtype/ndim/to are used: meta tensors (no data, like a static proxy) work."""
    a = torch.empty(3, dtype=torch.int32, device="meta")
    b = torch.empty((), dtype=torch.int64, device="meta")
    a2, b2 = binary_operands("add", a, b)
    assert a2.dtype is b2.dtype is torch.int32
    a2, b2 = binary_operands("mul", a, 2.5)
    assert a2.dtype is torch.float32 and a2.device.type == "meta"
