"""Comparisons, logical and bitwise ops: ``equal``, ``less_than``, ``logical_and``,
``bitwise_xor``, ``bitwise_left_shift``, ``allclose``, ``isclose``, ``equal_all``,
``is_tensor``, ``is_empty``.

Comparisons give bool tensors; tensors of different dtypes follow the operators' promotion
(floating types mix, anything else is Paddle's TypeError). Only ``equal`` also takes a Python
number for ``y``, which Paddle first casts to x's dtype. Bitwise ops need one dtype for both.
"""
import torch

from ..framework.fastops import fast_path
from ..framework.tensor import Tensor, wrap
from .common import as_methods, not_tensor
from .math import _binary, _broadcast_shape, _check_inplace_shape, _not_tensors, _same_dtype, \
    _writable, _x, binary_operands

__all__ = ["equal", "not_equal", "greater_equal", "greater_than", "less_equal", "less_than",
           "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and",
           "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_invert", "bitwise_left_shift",
           "bitwise_right_shift", "allclose", "isclose", "equal_all", "is_tensor", "is_empty"]


def equal(x, y, name=None):
    """x == y elementwise; a number y is cast to x's dtype first (``equal(int_x, 2.5)``
    compares with 2)."""
    try:
        a = x._t
        b = y._t
    except AttributeError:
        if isinstance(x, Tensor) and isinstance(y, (bool, int, float)):
            b = y if a.is_floating_point() else (bool(y) if a.dtype is torch.bool else int(y))
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


not_equal = _binary(torch.ne, "not_equal", "ne")
greater_equal = _binary(torch.ge, "greater_equal", "ge")
greater_than = _binary(torch.gt, "greater_than", "gt")
less_equal = _binary(torch.le, "less_equal", "le")
less_than = _binary(torch.lt, "less_than", "lt")


def _logical(fn, api):
    def f(x, y, out=None, name=None):
        try:
            a = x._t
            b = y._t
        except AttributeError:
            raise _not_tensors(api, x, y) from None
        if a.dtype is not b.dtype and not (a.is_floating_point() and b.is_floating_point()):
            binary_operands("add", a, b)               # raises Paddle's TypeError
        r = fn(a, b)
        if out is not None:
            out._t = r
            return out
        return wrap(r)
    f.__name__ = api
    f.__doc__ = f"Elementwise {api} of the truth values of x and y (a bool tensor)."
    return fast_path("xy", fn)(f)


logical_and = _logical(torch.logical_and, "logical_and")
logical_or = _logical(torch.logical_or, "logical_or")
logical_xor = _logical(torch.logical_xor, "logical_xor")


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


def _bitwise(fn, api):
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
    return f


bitwise_and = _bitwise(torch.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(torch.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(torch.bitwise_xor, "bitwise_xor")


def bitwise_not(x, out=None, name=None):
    """Elementwise bitwise not (logical not for bool)."""
    try:
        return wrap(torch.bitwise_not(x._t))
    except AttributeError:
        raise not_tensor("bitwise_not", "x", 0, x) from None


bitwise_invert = bitwise_not


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


def bitwise_right_shift(x, y, is_arithmetic=True, out=None, name=None):
    """x >> y: sign-filling when ``is_arithmetic``, zero-filling otherwise."""
    a = _x(x, "bitwise_right_shift")
    b = _x(y, "bitwise_right_shift", "y", 1)
    _same_dtype("bitwise_right_shift", a, b)
    if is_arithmetic:
        return wrap(torch.bitwise_right_shift(a, b))
    return wrap(_logical_right_shift(a, b))


def _close_args(x, y, api):
    a = _x(x, api)
    b = _x(y, api, "y", 1)
    _same_dtype(api, b, a)
    if a.shape != b.shape:
        raise RuntimeError("(PreconditionNotMet) Input(Input) and Input(Other) must have the "
                           f"same dimension size, but got {list(a.shape)} and {list(b.shape)}")
    return a, b


def _isclose(a, b, rtol, atol, equal_nan):
    """|a - b| <= atol + rtol * |b| in a's precision (Paddle does not clamp a negative rtol)."""
    if not a.is_floating_point():
        a, b = a.to(torch.float64), b.to(torch.float64)
    close = (a - b).abs() <= atol + rtol * b.abs()
    close = close | (a == b)                          # equal infinities
    if equal_nan:
        close = close | (torch.isnan(a) & torch.isnan(b))
    return close


def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """Whether all of x and y are close (a 0-d bool tensor)."""
    a, b = _close_args(x, y, "allclose")
    return wrap(_isclose(a, b, rtol, atol, equal_nan).all())


def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """Elementwise |x - y| <= atol + rtol * |y| (a bool tensor)."""
    a, b = _close_args(x, y, "isclose")
    return wrap(_isclose(a, b, rtol, atol, equal_nan))


def equal_all(x, y, name=None):
    """Whether x and y have one shape and equal values (a 0-d bool tensor)."""
    a = _x(x, "equal_all")
    b = _x(y, "equal_all", "y", 1)
    _same_dtype("equal_all", b, a)
    return wrap(torch.tensor(torch.equal(a, b)) if a.shape != b.shape else (a == b).all())


def is_tensor(x):
    """Whether x is a paddle Tensor (a Python bool)."""
    return isinstance(x, Tensor)


def is_empty(x, name=None):
    """Whether x has no elements (a 0-d bool tensor)."""
    return wrap(torch.tensor(_x(x, "is_empty").numel() == 0))


def _inplace(fn, api):
    def f(x, y, name=None):
        _check_inplace_shape(_x(x, api), _x(y, api, "y", 1))
        r = fn(x, y)._t
        _writable(x, api)
        x._t = r                 # Paddle's comparisons in place make x a bool tensor
        return x
    f.__name__ = api
    return f


for _n in ["equal", "not_equal", "greater_equal", "greater_than", "less_equal", "less_than",
           "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
           "bitwise_left_shift", "bitwise_right_shift"]:
    globals()[_n + "_"] = _inplace(globals()[_n], _n + "_")


def logical_not_(x, name=None):
    t = _writable(x, "logical_not_")
    x._t = torch.logical_not(t)
    return x


def bitwise_not_(x, name=None):
    _writable(x, "bitwise_not_").bitwise_not_()
    return x


bitwise_invert_ = bitwise_not_

_INPLACE = [n + "_" for n in __all__ if n + "_" in globals()]
__all__ += _INPLACE
as_methods(globals(), [n for n in __all__ if n not in ("is_tensor",)])

less = less_than              # Paddle 3's alias
less_ = less_than_
__all__ += ["less", "less_"]
as_methods(globals(), ["less", "less_"])

# Paddle 3's torch-style names for the comparisons (functions and methods)
eq = equal
ne = not_equal
gt = greater = greater_than
ge = greater_equal
lt = less_than
le = less_equal
__all__ += ["eq", "ne", "gt", "greater", "ge", "lt", "le"]
as_methods(globals(), ["eq", "ne", "gt", "greater", "ge", "lt", "le", "is_tensor"])
