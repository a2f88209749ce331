"""Paddle's dtypes over torch dtypes.

``paddle_compat.float32`` is a :class:`DType`: it prints as ``paddle.float32`` (its repr is
``<DataType.FLOAT32: 10>``, as in Paddle), compares equal
only to itself (as in Paddle 3, ``paddle.float32 == 'float32'`` is False) and knows its torch
and numpy counterparts. :func:`convert_dtype` turns anything a Paddle API accepts as a dtype
(a DType, a string, a numpy dtype or type, a torch dtype) into a DType.
"""
import struct

import numpy as np
import torch

from .hooks import creation_defaults_changed

__all__ = ["DType", "dtype", "convert_dtype", "to_torch_dtype", "from_torch_dtype",
           "get_default_dtype", "set_default_dtype", "finfo", "iinfo", "ALL_DTYPES",
           "saturating_cast", "cast_dtype"]


class DType:
    """One Paddle dtype: its Paddle name, the torch dtype that stores it, its numpy dtype.
    ``paddle.dtype`` (``paddle.framework.dtype.dtype``): called with one value, the dtype it
    names."""

    __slots__ = ("name", "torch", "np", "is_floating_point", "is_complex", "is_integer", "_code")

    def __new__(cls, *args):
        if len(args) != 1:
            return super().__new__(cls)
        # ``paddle.dtype(v)``: the dtype of a DataType code (``paddle.dtype(10)`` is float32),
        # or v itself
        v = args[0]
        if type(v) is cls:
            return v
        if type(v) is int or isinstance(v, np.integer):
            for d in ALL_DTYPES.values():
                if d._code == v:
                    return d
            raise ValueError(f"{v} is not a valid DataType")
        raise TypeError(f"paddle.dtype(): incompatible constructor arguments; it takes a "
                        f"DataType code (int), but got {type(v).__name__}")

    def __init__(self, name, tdtype=None, npdtype=None, code=None, /):
        if tdtype is None and npdtype is None and code is None:
            return                      # ``paddle.dtype(v)``: an existing dtype (``__new__``)
        self.name = name
        self.torch = tdtype
        self.np = npdtype
        self.is_floating_point = tdtype is not None and tdtype.is_floating_point
        self.is_complex = tdtype is not None and tdtype.is_complex
        self.is_integer = tdtype is not None and not (
            tdtype.is_floating_point or tdtype.is_complex or tdtype is torch.bool)
        self._code = code

    def __repr__(self):
        return f"<DataType.{'UNDEFINED' if self._code == 0 else self.name.upper()}: {self._code}>"

    def __str__(self):
        # Paddle 3.3.1 prints paddle.uint16 (a real unsigned 16-bit integer dtype) under the
        # name of bfloat16, whose storage it once was; pstring and raw print as enum members.
        s = _STR_AS.get(self.name)
        return "paddle." + self.name if s is None else s

    def __hash__(self):
        return self._code

    def __int__(self):
        # Paddle: int(paddle.int64) is its DataType code, 9
        return self._code

    def __reduce__(self):
        return (convert_dtype, (self.name,))


# (name, torch dtype, numpy dtype, Paddle's DataType code); bfloat16 has no numpy dtype, so its
# numpy view is uint16 as in Paddle, and its values go through float32 when converted.
_TABLE = [
    ("bool", torch.bool, np.dtype("bool"), 1),
    ("int8", torch.int8, np.dtype("int8"), 3),
    ("uint8", torch.uint8, np.dtype("uint8"), 2),
    ("int16", torch.int16, np.dtype("int16"), 5),
    ("int32", torch.int32, np.dtype("int32"), 7),
    ("int64", torch.int64, np.dtype("int64"), 9),
    ("float16", torch.float16, np.dtype("float16"), 15),
    ("bfloat16", torch.bfloat16, np.dtype("uint16"), 16),
    ("float32", torch.float32, np.dtype("float32"), 10),
    ("float64", torch.float64, np.dtype("float64"), 11),
    ("complex64", torch.complex64, np.dtype("complex64"), 12),
    ("complex128", torch.complex128, np.dtype("complex128"), 13),
    # Paddle 3's unsigned wide integers (few kernels in Paddle and in torch: casts, copies)
    ("uint32", torch.uint32, np.dtype("uint32"), 6),
    ("uint64", torch.uint64, np.dtype("uint64"), 8),
    # paddle.uint16, the DType object, is an unsigned 16-bit integer (the *string* 'uint16'
    # still means bfloat16, as in Paddle: see _ALIASES); float8's numpy view is its bits as
    # int8, as Paddle's .numpy() gives them; pstring and raw store nothing a kernel can take
    ("uint16", torch.uint16, np.dtype("uint16"), 4),
    ("float8_e4m3fn", torch.float8_e4m3fn, np.dtype("int8"), 17),
    ("float8_e5m2", torch.float8_e5m2, np.dtype("int8"), 18),
    ("pstring", None, None, 14),
    ("raw", None, None, 0),
]
_STR_AS = {"uint16": "paddle.bfloat16", "pstring": "DataType.PSTRING",
           "raw": "DataType.UNDEFINED"}

ALL_DTYPES = {}
for _name, _t, _n, _c in _TABLE:
    ALL_DTYPES[_name] = DType(_name, _t, _n, _c)
    globals()[_name] = ALL_DTYPES[_name]
    # the enumeration's members (core.DataType.FLOAT32 is paddle.float32; raw is UNDEFINED)
    setattr(DType, "UNDEFINED" if _name == "raw" else _name.upper(), ALL_DTYPES[_name])
# dtypes no kernel takes (Paddle: "Invalid enum data type" from cast, TypeError from to_tensor)
NO_STORAGE = frozenset(("pstring", "raw"))
# targets whose conversion is not torch's plain cast: Paddle saturates to float8's largest
# finite value and wraps into uint16 through a 32-bit integer (saturating_cast below)
SATURATING = {torch.float8_e4m3fn, torch.float8_e5m2, torch.uint16}

_BY_TORCH = {d.torch: d for d in ALL_DTYPES.values() if d.torch is not None}
# numpy's uint16 means bfloat16 (Paddle stores bfloat16 in numpy as its uint16 bits:
# paddle.zeros(2, dtype=np.uint16), static.data(dtype=np.uint16), a uint16 array to to_tensor)
_BY_NUMPY = {d.np: d for d in ALL_DTYPES.values()
             if d.np is not None and d.name in ("bool", "int8", "uint8", "int16", "int32", "int64",
                                                "float16", "bfloat16", "float32", "float64",
                                                "complex64", "complex128", "uint32", "uint64")}
# numpy's meanings, as Paddle reads them: 'float' is float64, 'complex' is complex128.
_ALIASES = {"float": "float64", "double": "float64", "half": "float16", "int": "int64",
            "long": "int64", "uint16": "bfloat16", "bf16": "bfloat16", "fp16": "float16",
            "fp32": "float32", "fp64": "float64", "complex": "complex128", "bool_": "bool"}
_STRINGS = dict({n: d for n, d in ALL_DTYPES.items() if n not in NO_STORAGE},
                **{a: ALL_DTYPES[n] for a, n in _ALIASES.items()})
# Every str, DType and torch.dtype spelling of a dtype -> its torch dtype: one dict lookup for
# the hot paths (astype, cast); anything else goes through convert_dtype.
# Targets in SATURATING and dtypes without storage are left out, so that the fast paths fall
# back to code that converts (or refuses) as Paddle does.
TORCH_OF = {k: v for k, v in
            {**{n: d.torch for n, d in _STRINGS.items()},
             **{"paddle." + n: d.torch for n, d in _STRINGS.items()},
             **{d: d.torch for d in ALL_DTYPES.values()}, **{t: t for t in _BY_TORCH}}.items()
            if v is not None and v not in SATURATING}
# core.VarDesc.VarType numbers (Paddle's framework.proto) of the data types
VARTYPE_NAMES = {0: "bool", 1: "int16", 2: "int32", 3: "int64", 4: "float16", 5: "float32",
                 6: "float64", 20: "uint8", 21: "int8", 22: "bfloat16", 23: "complex64",
                 24: "complex128"}
_ACCEPTED = ("bool, float16, uint16, float32, float64, int8, int16, int32, int64, uint8, "
             "complex64, complex128, bfloat16")


def convert_dtype(dtype, argname="dtype"):
    """The DType for a Paddle dtype argument; TypeError naming the argument for anything else."""
    if type(dtype) is DType:
        if dtype.torch is None:
            raise TypeError(f"{argname} must be any of [{_ACCEPTED}], but received {dtype}")
        return dtype
    if isinstance(dtype, str):
        d = _STRINGS.get(dtype[7:] if dtype.startswith("paddle.") else dtype)
        if d is not None:
            return d
    elif isinstance(dtype, torch.dtype):
        d = _BY_TORCH.get(dtype)
        if d is not None:
            return d
    elif type(dtype).__name__ == "VarType":     # core.VarDesc.VarType.FP32 (an enum member)
        d = ALL_DTYPES.get(VARTYPE_NAMES.get(getattr(dtype, "value", None)))
        if d is not None:
            return d
    else:
        try:
            d = _BY_NUMPY.get(np.dtype(dtype))
        except TypeError:
            d = None
        if d is not None:
            return d
    raise TypeError(f"{argname} must be any of [{_ACCEPTED}], but received {dtype!r}")


def to_torch_dtype(dtype):
    """The torch dtype for a Paddle dtype argument (None stays None)."""
    return None if dtype is None else convert_dtype(dtype).torch


def cast_dtype(dtype):
    """The torch dtype a cast (``astype``, ``paddle.cast``) converts to; for pstring and raw,
    which no kernel takes, Paddle's cast kernel's ValueError."""
    if type(dtype) is DType and dtype.torch is None:
        raise ValueError(f"(InvalidArgument) Invalid enum data type `{dtype._code}`.")
    return convert_dtype(dtype).torch


def from_torch_dtype(tdtype):
    """The DType that stores as ``tdtype``."""
    return _BY_TORCH[tdtype]


def saturating_cast(t, tdtype):
    """torch tensor ``t`` converted to float8 or uint16 as Paddle's cast kernel converts.

    float8: values round to nearest even. Magnitudes at or beyond the format's overflow
    threshold (480 for e4m3fn, 65536 for e5m2) saturate to the largest finite value (448,
    57344) with the input's sign; e4m3fn takes NaN and inf to +-448 too, e5m2 keeps NaN. Just
    under the threshold, Paddle rounds: (464, 480) becomes e4m3fn's NaN (torch saturates those
    to 448), [61440, 65536) e5m2's inf (as torch). uint16: floats truncate through int32 and every
    integer wraps modulo 2**16 (-3.5 -> 65533, 70000 -> 4464, NaN -> 0)."""
    if tdtype is torch.uint16:
        if t.dtype.is_complex:
            t = t.real
        if t.dtype.is_floating_point:
            t = t.to(torch.int32)
        return t.to(torch.int64).to(torch.uint16) if t.dtype is not torch.uint16 else t.clone()
    if t.dtype is tdtype:
        return t.clone()
    if tdtype is torch.float8_e4m3fn:
        threshold, largest = 480.0, 448.0
    else:
        threshold, largest = 65536.0, 57344.0
    if t.dtype.is_complex:
        t = t.real
    if not t.dtype.is_floating_point or t.dtype.itemsize == 1:
        t = t.to(torch.float32)
    a = t.abs()
    over = ~(a < threshold)                      # NaN included
    if tdtype is torch.float8_e5m2:
        over = over & ~torch.isnan(t)
    else:                                        # rounds up to e4m3fn's NaN, which torch's
        t = torch.where((a > 464.0) & ~over, torch.nan, t)   # own conversion saturates
    limit = torch.where(torch.signbit(t), -largest, largest).to(t.dtype)
    return torch.where(over, limit, t).to(tdtype)


class _Defaults:
    dtype = ALL_DTYPES["float32"]


def get_default_dtype():
    """The default floating dtype's name, a string as in Paddle ('float32')."""
    return _Defaults.dtype.name


def set_default_dtype(d):
    """Set the floating dtype that Python floats and float creation ops default to."""
    dt = convert_dtype(d, "d")
    if dt.name not in ("float16", "bfloat16", "float32", "float64"):
        raise TypeError("set_default_dtype only supports [float16, float32, float64, bfloat16], "
                        f"but received {dt.name}")
    _Defaults.dtype = dt
    creation_defaults_changed()


def default_float():
    """The default floating DType object."""
    return _Defaults.dtype


def _g(x):
    return f"{x:g}"


class finfo:
    """Machine limits of a floating dtype, printed as Paddle prints them."""

    def __init__(self, dtype):
        d = convert_dtype(dtype)
        fi = torch.finfo(d.torch)
        self.dtype = d.name
        self.bits, self.min, self.max, self.eps = fi.bits, fi.min, fi.max, fi.eps
        self.resolution, self.smallest_normal, self.tiny = fi.resolution, fi.smallest_normal, fi.tiny

    def __repr__(self):
        return (f"paddle.finfo(min={_g(self.min)}, max={_g(self.max)}, eps={_g(self.eps)}, "
                f"resolution={_g(self.resolution)}, smallest_normal={_g(self.smallest_normal)}, "
                f"tiny={_g(self.tiny)}, bits={self.bits}, dtype={self.dtype})")

    __str__ = __repr__


class iinfo:
    """Machine limits of an integer dtype, printed as Paddle prints them."""

    def __init__(self, dtype):
        d = convert_dtype(dtype)
        ii = torch.iinfo(d.torch)
        self.dtype = d.name
        self.bits, self.min, self.max = ii.bits, ii.min, ii.max

    def __repr__(self):
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"

    __str__ = __repr__


_F32 = struct.Struct("f")
_pack_f32, _unpack_f32 = _F32.pack, _F32.unpack


def float_attr(v):
    """A Python number as Paddle's kernels hold an attribute they declare as C++ ``float``
    (elu's alpha, pow's exponent, hardsigmoid's slope, layer_norm's epsilon ...): rounded to
    float32, so that a float64 computation sees float32(0.1) = 0.10000000149..., as in Paddle
    (attributes declared ``double``, and Python numbers Paddle turns into tensors, keep all
    their digits). Anything that is not a number (a Tensor, None) comes back as it is. The ops
    round only for float64 tensors: torch computes float32/float16 tensors with float scalars
    already, so the common path pays one identity test on the dtype."""
    try:
        return _unpack_f32(_pack_f32(v))[0]
    except (TypeError, struct.error, OverflowError):
        return v


dtype = DType              # Paddle's ``paddle.framework.dtype.dtype`` (``paddle.dtype``)
