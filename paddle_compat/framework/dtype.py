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

__all__ = ["DType", "convert_dtype", "to_torch_dtype", "from_torch_dtype", "get_default_dtype",
           "set_default_dtype", "finfo", "iinfo", "ALL_DTYPES"]


class DType:
    """One Paddle dtype: its Paddle name, the torch dtype that stores it, its numpy dtype."""

    __slots__ = ("name", "torch", "np", "is_floating_point", "is_complex", "is_integer", "_code")

    def __init__(self, name, tdtype, npdtype, code):
        self.name = name
        self.torch = tdtype
        self.np = npdtype
        self.is_floating_point = tdtype.is_floating_point
        self.is_complex = tdtype.is_complex
        self.is_integer = not (tdtype.is_floating_point or tdtype.is_complex or tdtype is torch.bool)
        self._code = code

    def __repr__(self):
        return f"<DataType.{self.name.upper()}: {self._code}>"

    def __str__(self):
        return "paddle." + self.name

    def __hash__(self):
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
]

ALL_DTYPES = {}
for _name, _t, _n, _c in _TABLE:
    ALL_DTYPES[_name] = DType(_name, _t, _n, _c)
    globals()[_name] = ALL_DTYPES[_name]

_BY_TORCH = {d.torch: d for d in ALL_DTYPES.values()}
_BY_NUMPY = {d.np: d for d in ALL_DTYPES.values() if d.name != "bfloat16"}
# numpy's meanings, as Paddle reads them: 'float' is float64, 'complex' is complex128.
_ALIASES = {"float": "float64", "double": "float64", "half": "float16", "int": "int64",
            "long": "int64", "uint16": "bfloat16", "bf16": "bfloat16", "fp16": "float16",
            "fp32": "float32", "fp64": "float64", "complex": "complex128", "bool_": "bool"}
_STRINGS = dict({n: d for n, d in ALL_DTYPES.items()},
                **{a: ALL_DTYPES[n] for a, n in _ALIASES.items()})
# Every str, DType and torch.dtype spelling of a dtype -> its torch dtype: one dict lookup for
# the hot paths (astype, cast); anything else goes through convert_dtype.
TORCH_OF = {**{n: d.torch for n, d in _STRINGS.items()},
            **{"paddle." + n: d.torch for n, d in _STRINGS.items()},
            **{d: d.torch for d in ALL_DTYPES.values()}, **{t: t for t in _BY_TORCH}}
_ACCEPTED = ("bool, float16, uint16, float32, float64, int8, int16, int32, int64, uint8, "
             "complex64, complex128, bfloat16")


def convert_dtype(dtype, argname="dtype"):
    """The DType for a Paddle dtype argument; TypeError naming the argument for anything else."""
    if type(dtype) is DType:
        return dtype
    if isinstance(dtype, str):
        d = _STRINGS.get(dtype[7:] if dtype.startswith("paddle.") else dtype)
        if d is not None:
            return d
    elif isinstance(dtype, torch.dtype):
        d = _BY_TORCH.get(dtype)
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


def from_torch_dtype(tdtype):
    """The DType that stores as ``tdtype``."""
    return _BY_TORCH[tdtype]


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
