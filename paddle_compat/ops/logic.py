"""Comparisons, logical and bitwise ops: ``equal``, ``less_than``, ``logical_and``,
``bitwise_xor``, ``bitwise_left_shift``, ``allclose``, ``isclose``, ``equal_all``,
``is_tensor``, ``is_empty``.

Comparisons give bool tensors; tensors of different dtypes follow the operators' promotion
(floating types mix, anything else is Paddle's TypeError). Only ``equal`` also takes a Python
number for ``y``, which Paddle first casts to x's dtype. Bitwise ops need one dtype for both.
"""
import torch

from ..framework import dtype as _dt
from ..framework import mode as _mode
from ..framework.promotion import binary_operands
from ..framework.tensor import Tensor, wrap
from .common import F64, float_attr, not_tensor
from .math import _binary, _broadcast_shape, _check_inplace_shape, _not_tensors, _same_dtype, \
    _writable, _x
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


def _inplace(fn, api):
    def f(x, y, *args, **kwargs):
        """In place: ``fn(x, y, ...)``'s result becomes x's (its other parameters too:
        ``bitwise_left_shift_(x, y, is_arithmetic=False)``)."""
        _check_inplace_shape(_x(x, api), _x(y, api, "y", 1))
        r = fn(x, y, *args, **kwargs)._t
        _writable(x, api)
        x._t = r                 # Paddle's comparisons in place make x a bool tensor
        return x
    f.__name__ = api
    return f


def _with_inplace(fn, aliases=(), inplace_aliases=(), fast=None):
    """Register the binary op ``fn`` (function and Tensor method) under its name and
    ``aliases``, and its in-place form ``fn_`` under its name and ``inplace_aliases``."""
    op(fn, method=True, fast=fast)
    for a in aliases:
        op(fn, name=a, method=True)
    f_ = op(_inplace(fn, fn.__name__ + "_"), method=True)
    for a in inplace_aliases:
        op(f_, name=a, method=True)


def equal(x, y, name=None):
    """x == y elementwise; a number y is cast to x's dtype first (``equal(int_x, 2.5)``
    compares with 2)."""
    try:
        a = x._t
        b = y._t
    except AttributeError:
        if isinstance(x, Tensor) and (isinstance(y, (bool, int, float)) or
                                      isinstance(y, complex) and a.is_complex()):
            b = y if a.is_floating_point() or a.is_complex() else (
                bool(y) if a.dtype is torch.bool else int(y))
            return wrap(torch.eq(a, b))
        raise TypeError("Type of input args must be float, bool, complex, int or Tensor, but "
                        f"received type {type(x if not isinstance(x, Tensor) else y)}") from None
    if a.dtype is not b.dtype:
        a, b = binary_operands("eq", a, b)
    try:
        return wrap(torch.eq(a, b))
    except RuntimeError:
        _broadcast_shape(a, b)               # Paddle's ValueError for shapes that don't broadcast
        raise


# the comparisons, with Paddle 3's torch-style names (eq, ne, gt ...) and in-place forms
_with_inplace(equal, ["eq"])
_with_inplace(_binary(torch.ne, "not_equal", "ne"), ["ne"], fast=("xy", torch.ne))
_with_inplace(_binary(torch.ge, "greater_equal", "ge"), ["ge"], fast=("xy", torch.ge))
_with_inplace(_binary(torch.gt, "greater_than", "gt"), ["gt", "greater"], fast=("xy", torch.gt))
_with_inplace(_binary(torch.le, "less_equal", "le"), ["le"], fast=("xy", torch.le))
_with_inplace(_binary(torch.lt, "less_than", "lt"), ["lt", "less"], ["less_"],
              fast=("xy", torch.lt))


def _logical(fn, api):
    """Make and register ``api`` (and its in-place form) from the torch function ``fn``."""
    def f(x, y, out=None, name=None):
        try:
            a = x._t
            b = y._t
        except AttributeError:
            raise _not_tensors(api, x, y) from None
        if a.dtype is not b.dtype and not (a.is_floating_point() and b.is_floating_point()):
            binary_operands("add", a, b)               # raises Paddle's TypeError
        try:
            r = fn(a, b)
        except RuntimeError:
            _broadcast_shape(a, b)                      # Paddle's ValueError for shapes
            raise
        if out is not None:
            out._t = r
            return out
        return wrap(r)
    f.__name__ = api
    f.__doc__ = f"Elementwise {api} of the truth values of x and y (a bool tensor)."
    _with_inplace(f, fast=("xy", fn))


_logical(torch.logical_and, "logical_and")
_logical(torch.logical_or, "logical_or")
_logical(torch.logical_xor, "logical_xor")


@op(method=True)
def logical_not(x, out=None, name=None):
    """Elementwise not of x's truth values (a bool tensor)."""
    try:
        r = torch.logical_not(x._t)
    except AttributeError:
        raise not_tensor("logical_not", "x", 0, x) from None
    if out is not None:
        out._t = r
        return out
    return wrap(r)


@op(method=True)
def logical_not_(x, name=None):
    t = _writable(x, "logical_not_")
    x._t = torch.logical_not(t)
    return x


def _bitwise(fn, api):
    """Make and register ``api`` (and its in-place form) from the torch function ``fn``."""
    def f(x, y, out=None, name=None):
        try:
            a = x._t
            b = y._t
        except AttributeError:
            raise _not_tensors(api, x, y) from None
        _same_dtype(api, a, b)
        return wrap(fn(a, b))
    f.__name__ = api
    f.__doc__ = f"Elementwise {api} of two integer or bool tensors of one dtype."
    _with_inplace(f)


_bitwise(torch.bitwise_and, "bitwise_and")
_bitwise(torch.bitwise_or, "bitwise_or")
_bitwise(torch.bitwise_xor, "bitwise_xor")


@op(method=True)
def bitwise_not(x, out=None, name=None):
    """Elementwise bitwise not (logical not for bool)."""
    try:
        return wrap(torch.bitwise_not(x._t))
    except AttributeError:
        raise not_tensor("bitwise_not", "x", 0, x) from None


op(bitwise_not, name="bitwise_invert", method=True)


@op(method=True)
def bitwise_not_(x, name=None):
    _writable(x, "bitwise_not_").bitwise_not_()
    return x


op(bitwise_not_, name="bitwise_invert_", method=True)


def _logical_right_shift(a, b):
    """a >> b filling with zeros (torch's >> on signed ints is arithmetic)."""
    bits = torch.iinfo(a.dtype).bits
    if a.dtype is torch.uint8:
        return a >> b
    mask = (torch.ones_like(a) << (bits - b)) - 1           # the low (bits - b) bits
    return torch.where(b == 0, a, (a >> b) & mask)


def bitwise_left_shift(x, y, is_arithmetic=True, out=None, name=None):
    """x << y (the same bits whether arithmetic or not)."""
    a = _x(x, "bitwise_left_shift")
    b = _x(y, "bitwise_left_shift", "y", 1)
    _same_dtype("bitwise_left_shift", a, b)
    return wrap(torch.bitwise_left_shift(a, b))


_with_inplace(bitwise_left_shift)


def bitwise_right_shift(x, y, is_arithmetic=True, out=None, name=None):
    """x >> y: sign-filling when ``is_arithmetic``, zero-filling otherwise."""
    a = _x(x, "bitwise_right_shift")
    b = _x(y, "bitwise_right_shift", "y", 1)
    _same_dtype("bitwise_right_shift", a, b)
    if is_arithmetic:
        return wrap(torch.bitwise_right_shift(a, b))
    return wrap(_logical_right_shift(a, b))


_with_inplace(bitwise_right_shift)


def _close_args(x, y, api):
    a = _x(x, api)
    b = _x(y, api, "y", 1)
    _same_dtype(api, b, a)
    if a.shape != b.shape:
        raise RuntimeError("(PreconditionNotMet) Input(Input) and Input(Other) must have the "
                           f"same dimension size, but got {list(a.shape)} and {list(b.shape)}")
    return a, b


_CLOSE_DTYPES = ("float16", "float32", "float64", "complex64", "complex128")


def _isclose_dtypes(x, y):
    """Paddle's dtype checks of isclose: in a static program a TypeError for x or y, else the
    kernel's RuntimeError for an x it has none for."""
    names = [_dt.from_torch_dtype(v._t.dtype).name if isinstance(v, Tensor) else None
             for v in (x, y)]
    if _mode.in_static_mode():
        for arg, n in zip("xy", names):
            if n is not None and n not in _CLOSE_DTYPES:
                raise TypeError(f"(InvalidType) The dtype of {arg} of is_close must be one of "
                                f"{', '.join(_CLOSE_DTYPES)}, but received {n}.")
    elif names[0] is not None and names[0] not in _CLOSE_DTYPES + ("bfloat16",):
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{names[0]}) of kernel `isclose` is not registered. Selected wrong "
                           f"DataType `{names[0]}`.")


def _tolerance(v, name):
    """A tolerance given as a Tensor (Paddle's ``Rtol``/``Atol`` inputs): its torch value,
    after Paddle's checks (one element, a floating dtype); a number as it is."""
    if not isinstance(v, Tensor):
        return v
    t = v._t
    if t.numel() != 1:
        raise ValueError(f"(InvalidArgument) The Scalar only supports Tensor with 1 element, "
                         f"but now Tensor has `{t.numel()}` elements")
    if t.dtype not in (torch.float32, F64):
        raise ValueError(f"(InvalidArgument) Input ({name}) type must be double or float, but "
                         f"get {v.dtype.name}.")
    return t.reshape(())


def _isclose(a, b, rtol, atol, equal_nan):
    """|a - b| <= atol + rtol * |b| in a's precision (Paddle does not clamp a negative rtol)."""
    rtol, atol = _tolerance(rtol, "Rtol"), _tolerance(atol, "Atol")
    if not (a.is_floating_point() or a.is_complex()):
        a, b = a.to(torch.float64), b.to(torch.float64)
    if isinstance(rtol, torch.Tensor) or isinstance(atol, torch.Tensor):
        rtol, atol = [v.to(b.real.dtype if b.is_complex() else b.dtype)
                      if isinstance(v, torch.Tensor) else v for v in (rtol, atol)]
    elif a.dtype is F64:                                # Paddle's float attributes
        rtol, atol = float_attr(rtol), float_attr(atol)
    close = (a - b).abs() <= atol + rtol * b.abs()
    close = close | (a == b)                          # equal infinities
    if equal_nan:
        close = close | (torch.isnan(a) & torch.isnan(b))
    return close


@op(method=True)
def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """Whether all of x and y are close (a 0-d bool tensor)."""
    a, b = _close_args(x, y, "allclose")
    if _mode.in_static_mode():                              # Paddle's static checks of the arguments
        for arg, v in (("rtol", rtol), ("atol", atol)):
            if not isinstance(v, (float, Tensor)):
                raise TypeError(f"Type of input {arg} must be float, but received type "
                                f"{type(v)}")
        if not isinstance(equal_nan, bool):
            raise TypeError(f"The type of 'equal_nan' in allclose must be {bool}, but received "
                            f"{type(equal_nan)}. ")
    return wrap(_isclose(a, b, rtol, atol, equal_nan).all())


@op(method=True)
def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """Elementwise |x - y| <= atol + rtol * |y| (a bool tensor)."""
    _isclose_dtypes(x, y)
    a, b = _close_args(x, y, "isclose")
    return wrap(_isclose(a, b, rtol, atol, equal_nan))


@op(method=True)
def equal_all(x, y, name=None):
    """Whether x and y have one shape and equal values (a 0-d bool tensor)."""
    a = _x(x, "equal_all")
    b = _x(y, "equal_all", "y", 1)
    _same_dtype("equal_all", b, a)
    return wrap(torch.tensor(torch.equal(a, b)) if a.shape != b.shape else (a == b).all())


@op(method=True)
def is_tensor(x):
    """Whether x is a paddle Tensor (a Python bool)."""
    return isinstance(x, Tensor)


@op(method=True)
def is_empty(x, name=None):
    """Whether x has no elements (a 0-d bool tensor)."""
    return wrap(torch.tensor(_x(x, "is_empty").numel() == 0))
