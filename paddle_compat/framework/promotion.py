"""Paddle 3.3.1's dtype promotion for binary operators, expressed over torch.

:func:`binary_operands` takes the two operands of a binary op in operation order (torch tensors,
or Python / numpy scalars) and returns them cast so that the plain torch op gives Paddle's result
dtype and values, or raises the exception Paddle raises. The rules below were recorded from real
Paddle (``tools/goldens/record_promotion.py``, replayed by ``tests/test_promotion.py``).

The lattice (``promote_types``, Paddle's ``promoteTypes``): bool yields to anything; an integer
meets a floating or complex type -> that type; within a kind the wider wins, except
uint8 + int8 -> int16 and float16 + bfloat16 -> float32; float64 + complex64 -> complex128.

Tensor (op) tensor, n-d operands of different dtypes:

* arithmetic (+ - * / // % **), comparisons, maximum, minimum, atan2, logical_*: the lattice when
  both are floating or either is complex; anything else (int32 + int64, int + float, bool + int)
  raises TypeError "(InvalidType) Type promotion only support calculations between ...".
* a 0-d operand: for + - * / % ** and the comparisons it acts like a scalar: when both operands
  are of one kind (int/int, float/float, complex/complex) the n-d operand's dtype wins, otherwise
  (and when both are 0-d) the lattice, never an error. ``//`` uses the lattice whenever either
  operand is 0-d. maximum, minimum, atan2 and logical_* treat 0-d tensors like any other.
* & | ^ << >> never promote: a mix is Paddle's kernel ValueError (the data of x read as y's dtype).
* matmul casts y to x's dtype, except that real and complex mix (a complex result; an integer
  with a complex is Paddle's RuntimeError).

Op-specific results: true division of two integer tensors (same dtype or promoted) gives float32
(not torch's default dtype), of two bool tensors gives bool; atan2 of integers computes in
float32 and returns float64.

Tensor (op) Python/numpy scalar (either side), for the operators:

* Python float (and numpy.float64, a float subclass): an integer or bool tensor computes in
  float32 -- always, whatever ``set_default_dtype`` says; a floating/complex tensor keeps its dtype.
* Python int: a bool tensor computes in int64, any other tensor keeps its dtype.
* numpy int64/int32/int16: the tensor keeps its dtype (bool too).
* Python complex: a real tensor goes to promote(dtype, complex64).
* Python bool and every other numpy scalar (numpy.float32 ...): converted to the tensor's dtype
  (numpy.float32(2.5) meets an int tensor as 2).
* ``/`` turns an integer or bool tensor into float32 for float/int/numpy-int scalars.
* ``t & s``, ``t | s``, ``t ^ s`` refuse any scalar; ``s & t`` takes a Python int/bool in the
  tensor's dtype; shifts take Python ints in the tensor's dtype on either side.

* a 0-d tensor gets a shape-[1] result from ``//`` with any scalar, from ``**`` with a bool or
  numpy.float32-like scalar on the right, and from / % ** < <= > >= with a complex scalar (then
  complex64, even for a complex128 tensor): Paddle builds the scalar as a [1] tensor there.
  The scalar comes back as such a tensor in those cases.
* A numpy array is a tensor of its own dtype (the tensor rules above apply).

The functions (``api=True`` or a Paddle function name as ``op``) take tensors only, except
floor_divide (the scalar becomes ``to_tensor(s)``, then the 0-d rule), remainder (the scalar in
x's dtype), pow (x's dtype), equal (x's dtype; a complex as a 0-d complex64 tensor).

Three results cannot come out of the torch op by casting its operands: bool / bool (bool in
Paddle), a bool tensor + - * a numpy int (bool), atan2 of integers (computed in float32, returned
as float64). :func:`binary_plan` returns the dtype to cast the torch result to for those.

Only ``.dtype``, ``.ndim`` and ``.to(dtype)`` are used on tensors, so a static-graph proxy that
answers them from metadata works as well.
"""
import numpy as np
import torch

from . import dtype as _dt

__all__ = ["binary_operands", "binary_plan", "promote_types", "result_dtype"]

_bool, _u8, _i8, _i16, _i32, _i64 = (torch.bool, torch.uint8, torch.int8, torch.int16,
                                     torch.int32, torch.int64)
_f16, _bf16, _f32, _f64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
_c64, _c128 = torch.complex64, torch.complex128

# dtype kinds, ordered so that the higher kind wins the lattice across kinds
_BOOL, _INT, _FLOAT, _COMPLEX = 0, 1, 2, 3
_KIND = {_bool: _BOOL, _u8: _INT, _i8: _INT, _i16: _INT, _i32: _INT, _i64: _INT,
         _f16: _FLOAT, _bf16: _FLOAT, _f32: _FLOAT, _f64: _FLOAT, _c64: _COMPLEX, _c128: _COMPLEX}


def _promote_rule(x, y):
    kx, ky = _KIND[x], _KIND[y]
    if x is y or ky == _BOOL:
        return x
    if kx == _BOOL:
        return y
    if kx != ky:
        hi, lo = (x, y) if kx > ky else (y, x)
        return _c128 if (hi is _c64 and lo is _f64) else hi
    if {x, y} == {_u8, _i8}:
        return _i16
    if {x, y} == {_f16, _bf16}:
        return _f32
    return x if x.itemsize >= y.itemsize else y


_PROMOTE = {(x, y): _promote_rule(x, y) for x in _KIND for y in _KIND}


def promote_types(x, y):
    """Paddle's lattice (``promoteTypes``) for two torch dtypes."""
    return _PROMOTE[(x, y)]


# ---------------------------------------------------------------------------- op table
# op -> (family, 0-d policy). Families: "arith", "div", "cmp", "strict" (no 0-d special case),
# "bitwise", "matmul". 0-d policies: "scalar" (same-kind n-d operand wins), "lattice", None.
_OPS = {}
for _op in ("add", "sub", "mul", "mod", "pow"):
    _OPS[_op] = ("arith", "scalar")
_OPS["div"] = ("div", "scalar")
_OPS["floordiv"] = ("arith", "lattice")
for _op in ("eq", "ne", "lt", "le", "gt", "ge"):
    _OPS[_op] = ("cmp", "scalar")
for _op in ("maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor"):
    _OPS[_op] = ("strict", None)
_OPS["atan2"] = ("atan2", None)
for _op in ("and", "or", "xor", "lshift", "rshift"):
    _OPS[_op] = ("bitwise", None)
_OPS["matmul"] = ("matmul", None)

# Paddle function names -> operator names (a function name implies api=True)
_API_NAMES = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "div", "true_divide": "div",
    "floor_divide": "floordiv", "remainder": "mod", "mod": "mod", "floor_mod": "mod",
    "pow": "pow", "equal": "eq", "not_equal": "ne", "less_than": "lt", "less_equal": "le",
    "greater_than": "gt", "greater_equal": "ge", "bitwise_and": "and", "bitwise_or": "or",
    "bitwise_xor": "xor", "bitwise_left_shift": "lshift", "bitwise_right_shift": "rshift",
    "maximum": "maximum", "minimum": "minimum", "fmax": "fmax", "fmin": "fmin",
    "atan2": "atan2", "logical_and": "logical_and", "logical_or": "logical_or",
    "logical_xor": "logical_xor", "matmul": "matmul",
}
# the kernel names Paddle's "must be Tensor" messages use, per operator name
_KERNEL = {"add": "add", "sub": "subtract", "mul": "multiply", "div": "divide",
           "floordiv": "floor_divide", "mod": "remainder", "pow": "elementwise_pow",
           "eq": "equal", "ne": "not_equal", "lt": "less_than", "le": "less_equal",
           "gt": "greater_than", "ge": "greater_equal", "and": "bitwise_and",
           "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "bitwise_left_shift",
           "rshift": "bitwise_right_shift"}


def _name(d):
    return _dt.from_torch_dtype(d).name


def _promotion_error(dx, dy):
    return TypeError(
        "(InvalidType) Type promotion only support calculations between floating-point numbers "
        "and between complex and real numbers. But got different data type x: "
        f"{_name(dx)}, y: {_name(dy)}.")


def _tp_name(v):
    """How CPython's C API names a value's type in messages (``float``, ``numpy.float32``)."""
    t = type(v)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


def _not_tensor(kernel, s, pos):
    arg = "x' (position 0)" if pos == 0 else "y' (position 1)"
    return ValueError(f"(InvalidArgument) {kernel}(): argument '{arg} must be Tensor, but got "
                      f"{_tp_name(s)}")


# ---------------------------------------------------------------------------- scalars
_SCALAR_TYPES = (bool, int, float, complex, np.generic)
# numpy scalars Paddle's operators take as numbers (by type name: numpy.int64/longlong/int32/int16)
_NP_INTS = (np.int64, np.longlong, np.int32, np.int16)


def _scalar_kind(s):
    """bool | int | npint | float | complex | other (cast to the tensor's dtype)."""
    t = type(s)
    if t is bool:
        return "bool"
    if isinstance(s, float):          # Python float and numpy.float64
        return "float"
    if isinstance(s, complex):        # Python complex and numpy.complex128
        return "complex"
    if isinstance(s, int):
        return "int"
    if isinstance(s, _NP_INTS):
        return "npint"
    return "other"


def _as_python(s, d):
    """The scalar as the Python number torch should see next to a ``d`` tensor."""
    k = _KIND[d]
    if k == _BOOL:
        return bool(s)
    if k == _INT:
        return int(s.real) if isinstance(s, complex) else int(s)
    if k == _FLOAT:
        return float(s.real) if isinstance(s, complex) else float(s)
    return complex(s)


def _cast(t, d):
    return t if t.dtype is d else t.to(d)


# ---------------------------------------------------------------------------- the rules
def _result_tt(op, fam, zero, a, b, da, db):
    """(compute dtype, result cast or None) for tensor (op) tensor of dtypes da, db."""
    if fam == "bitwise":
        if da is not db:
            ka, kb = _KIND[da], _KIND[db]
            if kb <= _INT and ka != _COMPLEX:
                # Paddle picks the kernel by y's dtype and reads x's data with it
                raise ValueError(
                    f"(InvalidArgument) The type of data we are trying to retrieve ({_name(db)}) "
                    f"does not match the type of data ({_name(da)}) currently contained in the "
                    "container.\n  [Hint: Expected dtype() == phi::CppTypeToDataType<T>::Type(), "
                    f"but received dtype():{_dt.from_torch_dtype(da)._code} != "
                    f"phi::CppTypeToDataType<T>::Type():{_dt.from_torch_dtype(db)._code}.]")
        return None, None          # no kernel for that dtype in Paddle either: torch raises
    if fam == "matmul":
        ka, kb = _KIND[da], _KIND[db]
        if ka == _COMPLEX or kb == _COMPLEX:
            low = da if ka < kb else db
            if _KIND[low] < _FLOAT or low is _f16 or low is _bf16:
                raise RuntimeError("(Unavailable) Only supports to align data type include "
                                   "float32, float64, complex64 and complex128, but received "
                                   f"data type is {_name(low)}")
            return _PROMOTE[(da, db)], None
        return da, None
    if da is db:
        d = da
    elif zero is not None and (a.ndim == 0 or b.ndim == 0):
        ka, kb = _KIND[da], _KIND[db]
        if zero == "scalar" and ka == kb and ka != _BOOL and a.ndim != b.ndim:
            d = db if a.ndim == 0 else da
        else:
            d = _PROMOTE[(da, db)]
    else:
        ka, kb = _KIND[da], _KIND[db]
        if not ((ka == _FLOAT and kb == _FLOAT) or ka == _COMPLEX or kb == _COMPLEX):
            raise _promotion_error(da, db)
        d = _PROMOTE[(da, db)]
    k = _KIND[d]
    if fam == "div":
        if k == _INT:
            return _f32, None
        if k == _BOOL:
            return _bool, _bool     # torch divides bools into float32; Paddle keeps bool
    elif fam == "atan2" and k <= _INT:
        return _f32, _f64           # Paddle computes integers in float32, returns float64
    return d, None


def _result_ts(op, fam, t, s, reflected):
    """(compute dtype, scalar as passed to torch, result cast or None) for the operators."""
    d = t.dtype
    k = _KIND[d]
    sk = _scalar_kind(s)
    if fam == "bitwise":
        shift = op in ("lshift", "rshift")
        if not reflected and not shift:
            raise _not_tensor(_KERNEL[op], s, 1)
        if type(s) is bool or type(s) is int:
            return d, _as_python(s, d), None
        if shift and isinstance(s, float):
            raise TypeError("unsupported operand type(s) for <<: "
                            + ("'float' and 'Tensor'" if reflected else "'Tensor' and 'float'"))
        if shift:
            raise _not_tensor(_KERNEL[op], s, 0 if reflected else 1)
        raise TypeError(f"unsupported operand type(s) for |: '{type(s).__name__}' and 'Tensor'")
    if fam == "strict" or fam == "atan2":      # function-only ops: Paddle's argument errors
        return _result_api_scalar(op, fam, t, s, reflected)
    if fam == "matmul":
        return d, s, None                          # torch refuses a scalar, as Paddle does
    cast = None
    if sk == "bool" or sk == "other":
        s = _as_python(s, d)            # Paddle fills a tensor of t's dtype with it first
    if sk == "float":
        c = _f32 if k <= _INT else d
    elif sk == "int":
        c = _i64 if k == _BOOL else d
    elif sk == "complex":
        c = d if k == _COMPLEX else _PROMOTE[(d, _c64)]
    else:                               # bool, numpy ints, other numpy scalars: tensor's dtype
        c = d
        if sk == "npint" and k == _BOOL and fam == "arith":
            # Paddle's scale kernel on a bool tensor: computes, then stores as bool
            c, cast = _i64, _bool
    if fam == "div" and k <= _INT and sk != "complex":
        if sk in ("float", "int", "npint") or k == _INT:
            c = _f32
        else:
            cast = _bool                # bool tensor / bool-valued scalar stays bool
    return c, _as_python(s, c), cast


# Operators whose scalar becomes a one-element tensor of shape [1] (not 0-d) in Paddle, which
# shows on a 0-d tensor: the result has shape [1]; a complex scalar also wins the dtype then
# (a 0-d tensor yields to the [1]-shaped complex64 under the 0-d rule).
_ONE_ELEMENT_COMPLEX = frozenset(["div", "mod", "pow", "lt", "le", "gt", "ge"])


def _one_element(op, sk, reflected):
    if op == "floordiv":
        return True
    if sk == "complex":
        return op in _ONE_ELEMENT_COMPLEX
    return op == "pow" and not reflected and (sk == "bool" or sk == "other")


def _result_api_scalar(op, fam, t, s, reflected):
    """Paddle's functions with a scalar operand: (compute dtype, scalar, cast) or raise."""
    if op == "atan2":       # paddle.atan2 reads x.shape before anything else
        if isinstance(s, np.generic):
            raise _not_tensor("expand", s, 0)
        raise AttributeError(f"'{type(s).__name__}' object has no attribute 'shape'")
    if reflected:
        raise _not_tensor(_KERNEL.get(op, op), s, 0)
    d = t.dtype
    if op == "floordiv":
        # the scalar becomes paddle.to_tensor(s): a 0-d tensor, then the 0-d (lattice) rule
        sd = _scalar_tensor_dtype(s)
        c = _PROMOTE[(d, sd)]
        return c, _as_python(s, c), None
    if op == "mod":
        if isinstance(s, (int, float)):
            return d, _as_python(s, d), None
        raise _not_tensor("remainder", s, 1)
    if op == "pow":
        if isinstance(s, (int, float)):
            return d, _as_python(s, d), None
        raise TypeError("y must be scalar, Tensor(in dygraph mode), Value(in pir mode) but "
                        f"received: {type(s)}")
    if op == "eq":
        if isinstance(s, complex):
            c = d if _KIND[d] == _COMPLEX else _PROMOTE[(d, _c64)]
            return c, complex(s), None
        if isinstance(s, (int, float)):
            return d, _as_python(s, d), None
        raise TypeError("Type of input args must be float, bool, complex, int or Tensor, but "
                        f"received type {type(s)}")
    raise _not_tensor(_KERNEL.get(op, op), s, 1)


def _scalar_tensor_dtype(s):
    """The dtype paddle.to_tensor gives a scalar."""
    if isinstance(s, np.generic):
        return _dt.convert_dtype(s.dtype).torch
    if type(s) is bool:
        return _bool
    if isinstance(s, int):
        return _i64
    if isinstance(s, float):
        return _dt.default_float().torch
    return _c128 if _dt.default_float().torch is _f64 else _c64


# ---------------------------------------------------------------------------- entry points
def _resolve(op, api):
    if op in _OPS and not (api and op in _API_NAMES and _API_NAMES[op] != op):
        return op, _OPS[op], api
    name = _API_NAMES.get(op)
    if name is None:
        raise ValueError(f"binary_operands: unknown op {op!r}")
    return name, _OPS[name], True


# ops whose operands Paddle may swap (array + tensor runs add(tensor, array)); the result is
# the same, only the x/y of an error message follow the swap
_SYMMETRIC = frozenset(["add", "mul", "eq", "ne", "lt", "le", "gt", "ge"])


_BITWISE_NAMES = {"and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
                  "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift"}


def _operand_error(op, value):
    """Paddle's error for an operator given something that is neither a number nor a tensor."""
    if op in _BITWISE_NAMES:
        return ValueError(f"(InvalidArgument) {_BITWISE_NAMES[op]}(): argument 'y' (position 1) "
                          f"must be Tensor, but got {'None' if value is None else type(value).__name__}")
    return TypeError(f"(InvalidType) __{op}__(): argument (position 1) must be int, float, bool "
                     f"or Tensor, but got {type(value).__name__}")


def binary_plan(op, a, b, api=False):
    """``(a2, b2, cast)``: the operands for the torch op and the dtype its result must be cast
    to afterwards -- None except for: bool after a true division of two bools and after a bool
    tensor + - * a numpy int (torch cannot give those), float64 after atan2 of integers (Paddle
    computes in float32, returns float64). Raises Paddle's error."""
    op, (fam, zero), api = _resolve(op, api)
    swapped = False
    if isinstance(a, np.ndarray):       # Paddle makes a tensor of the array's own dtype
        a = torch.as_tensor(a, device=b.device)
        swapped = op in _SYMMETRIC     # ... and runs the op with the tensor as x
    elif isinstance(b, np.ndarray):
        b = torch.as_tensor(b, device=a.device)
    a_scalar = isinstance(a, _SCALAR_TYPES)
    b_scalar = isinstance(b, _SCALAR_TYPES)
    if not a_scalar and not b_scalar:
        for v in (a, b):
            if not hasattr(v, "dtype"):
                raise _operand_error(op, v)
        da, db = a.dtype, b.dtype
        if swapped:
            d, cast = _result_tt(op, fam, zero, b, a, db, da)
        else:
            d, cast = _result_tt(op, fam, zero, a, b, da, db)
        if d is None:
            return a, b, None
        return (a if da is d else a.to(d)), (b if db is d else b.to(d)), cast
    if a_scalar and b_scalar:
        raise TypeError("binary_operands: at least one operand must be a tensor")
    t, s, reflected = (b, a, True) if a_scalar else (a, b, False)
    if api:
        d, s2, cast = _result_api_scalar(op, fam, t, s, reflected)
    else:
        d, s2, cast = _result_ts(op, fam, t, s, reflected)
        if t.ndim == 0 and fam != "bitwise" and _one_element(op, _scalar_kind(s), reflected):
            if _scalar_kind(s) == "complex":
                d = _c64
            s2 = torch.full((1,), s2, dtype=d, device=t.device)
    t2 = _cast(t, d)
    return (s2, t2, cast) if reflected else (t2, s2, cast)


def binary_operands(op, a, b, api=False):
    """Operands for the torch op so that its result dtype and values are Paddle's.

    op: an operator name ('add', 'sub', 'mul', 'div', 'floordiv', 'mod', 'pow', 'matmul', 'and',
    'or', 'xor', 'lshift', 'rshift', 'eq', 'ne', 'lt', 'le', 'gt', 'ge') or a function's
    ('maximum', 'minimum', 'atan2', 'logical_and', ...). With ``api=True`` (or a Paddle function
    name such as 'floor_divide', 'remainder', 'subtract') scalars follow the function's rules.
    a, b: in operation order, torch tensors or Python/numpy scalars (at least one a tensor);
    a numpy array is taken as a tensor of its dtype (and comes back as one).
    Returns (a2, b2); scalars come back as Python numbers of the computing kind, so pass them
    to ``operator.<op>`` or a torch overload that takes a Number (for a 0-d tensor some come
    back as shape-[1] tensors, see the module docstring). Raises Paddle's TypeError or
    ValueError. The three results that also need a cast afterwards: see :func:`binary_plan`.
    """
    a2, b2, _ = binary_plan(op, a, b, api)
    return a2, b2


def result_dtype(op, a, b, api=False):
    """Paddle's result dtype for ``a (op) b`` as a torch dtype (comparisons and logical ops:
    bool), or raise Paddle's error. Operands as for :func:`binary_operands`."""
    a2, b2, cast = binary_plan(op, a, b, api)
    if cast is not None:
        return cast
    fam = _OPS[_resolve(op, api)[0]][0]
    if fam == "cmp" or op.startswith("logical_"):
        return _bool
    t = a2 if not isinstance(a2, _SCALAR_TYPES) else b2
    return t.dtype
