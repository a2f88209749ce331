"""Reductions and running (cumulative) ops: ``sum``, ``mean``, ``prod``, ``max``/``min``,
``amax``/``amin``, ``any``/``all``, ``logsumexp``, ``nansum``, ``nanmean``, ``count_nonzero``,
``reduce_as``, ``trace`` (with ``diagonal``), ``trapezoid``; ``cumsum``, ``cumprod``,
``logcumsumexp``, ``cummax``, ``cummin`` and ``cumulative_trapezoid``.

Reductions take Paddle's ``axis`` (int, list, tuple or None: all axes) and ``keepdim``; bool
and int32 sums give int64, integer means stay integer (truncated). ``_axis``, ``_reduce`` and
``_check_axes`` serve ``stat`` too. Running ops take ``axis=None`` as "over the flattened x".
"""
import builtins

import torch

from ..framework import dtype as _dt
from ..framework import mode as _mode
from ..framework.data_feeder import check_variable_and_dtype
from ..framework.promotion import binary_operands
from ..framework.tensor import Tensor, wrap
from .common import F64, float_attr, not_tensor
from .math import _FLOATS, _float_of, _name, _pyx, _writable, _x
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names

_INT_TO_INT64 = frozenset([torch.bool, torch.int32])


def _axis(axis):
    """Paddle's axis argument as torch's dim: None (all), an int or a tuple of ints."""
    if isinstance(axis, Tensor):
        axis = axis._t.tolist()
    if axis is None or axis == [] or axis == ():
        return None
    if isinstance(axis, (list, tuple)):
        if not _mode.in_dynamic_mode():     # a program's constants: paddle.full([1], 2)
            return tuple(int(a._t.reshape(-1)[0]) if isinstance(a, Tensor) and
                         isinstance(a._t, torch.Tensor) else a for a in axis)
        return tuple(axis)
    return axis


def _check_axes(t, ax):
    """Paddle's ValueError for an axis out of range (torch would raise IndexError)."""
    nd = builtins.max(t.dim(), 1)
    seen = set()
    for a in (ax if isinstance(ax, tuple) else (ax,)):
        if not isinstance(a, int):
            raise TypeError("(InvalidType) argument 'axis' must be list, tuple, int, or Tensor, "
                            f"but got {type(a).__name__}")
        if not -nd <= a < nd:
            raise ValueError(f"(InvalidArgument) The reduce dim index {a} (Attr(axis)) should be "
                             "in the range "
                             f"[ -dimension(X), dimension(X) ) which dimesion = {t.dim()}")
        if a % nd in seen:
            raise ValueError("(InvalidArgument) Axis contains duplicate dimensions. Dimension "
                             f"{a % nd} appears more than once in axis.")
        seen.add(a % nd)


def _reduce(t, fn, ax, keepdim, **kw):
    """``fn(t, dim, keepdim)`` with Paddle's axis handling: None reduces everything (to a 0-d
    tensor, or all-ones shape with keepdim); 0-d inputs accept axis 0 and -1."""
    if ax is None or t.dim() == 0:
        if ax is not None:
            _check_axes(t, ax)
        r = fn(t, **kw)
        return r.reshape([1] * t.dim()) if keepdim else r
    try:
        return fn(t, ax, keepdim, **kw)
    except (IndexError, RuntimeError):
        _check_axes(t, ax)
        raise


@op(method=True, fast=("x x_int real", torch.sum))
def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over ``axis`` (all axes by default); bool and small ints sum to int64."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("sum", "x", 0, x) from None
    if dtype is None and t.dtype in _FLOATS:               # the hot path
        if axis is None:
            r = torch.sum(t)
            return wrap(r.reshape([1] * t.dim()) if keepdim else r)
        if type(axis) is int:
            try:
                return wrap(torch.sum(t, axis, keepdim))
            except IndexError:
                pass                                        # Paddle's error below
    tdt = None if dtype is None else _dt.convert_dtype(dtype).torch
    if tdt is None and not t.is_floating_point():
        tdt = torch.int64 if t.dtype in _INT_TO_INT64 else t.dtype
    if axis is None:
        r = torch.sum(t, dtype=tdt)
        return wrap(r.reshape([1] * t.dim()) if keepdim else r)
    return wrap(_reduce(t, torch.sum, _axis(axis), keepdim, dtype=tdt))


def _int_mean(t, dim=None, keepdim=False):
    """Paddle's mean of integers: the integer sum divided by the count, truncated."""
    s = torch.sum(t, dim, keepdim, dtype=torch.int64) if dim is not None else torch.sum(
        t, dtype=torch.int64)
    n = t.numel() // builtins.max(s.numel(), 1)
    if t.dtype is torch.bool:
        return s != 0            # the mean cast back to bool
    return torch.div(s, n, rounding_mode="trunc").to(t.dtype)


@op(method=True, fast=("x x_int real", torch.mean))
def mean(x, axis=None, keepdim=False, name=None, *, dtype=None):
    """Mean over ``axis`` (all axes by default); integer tensors keep their dtype; ``dtype``
    casts x first."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("mean", "x", 0, x) from None
    if dtype is not None:
        t = t.to(_dt.to_torch_dtype(dtype))
    if t.dtype in _FLOATS:                                  # the hot path
        if axis is None:
            r = torch.mean(t)
            return wrap(r.reshape([1] * t.dim()) if keepdim else r)
        if type(axis) is int:
            try:
                return wrap(torch.mean(t, axis, keepdim))
            except IndexError:
                pass
    fn = torch.mean if t.is_floating_point() or t.is_complex() else _int_mean
    return wrap(_reduce(t, fn, _axis(axis), keepdim))


@op(method=True, fast=("x real", torch.prod))
def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    """Product over ``axis``; the result keeps x's dtype unless ``dtype`` is given."""
    t = _x(x, "prod")
    check_variable_and_dtype(x, "x", ["float16", "uint16", "float32", "float64", "int32",
                                      "int64", "complex64", "complex128"], "reduce_prod")
    tdt = t.dtype if dtype is None else _dt.convert_dtype(dtype).torch
    ax = _axis(axis)
    if isinstance(ax, tuple):          # torch.prod reduces one dim at a time
        _check_axes(t, ax)
        nd = t.dim()
        r = t.to(tdt)
        for a in sorted({a % nd for a in ax}, reverse=True):
            r = torch.prod(r, a, keepdim)
        return wrap(r)
    return wrap(_reduce(t, torch.prod, ax, keepdim, dtype=tdt))


def _extreme(fn, api):
    """max/min/amax/amin: values only; Paddle refuses an empty reduction."""
    def f(x, axis=None, keepdim=False, name=None):
        try:
            t = x._t
        except AttributeError:
            raise not_tensor(api, "x", 0, x) from None
        if axis is None:
            try:
                r = fn(t)
                return wrap(r.reshape([1] * t.dim()) if keepdim else r)
            except RuntimeError:
                pass                                        # empty: Paddle's error below
        ax = _axis(axis)
        if t.numel() == 0:
            dims = range(t.dim()) if ax is None else (ax if isinstance(ax, tuple) else (ax,))
            for a in dims:
                if t.shape[a] == 0:
                    raise ValueError("(InvalidArgument) Cannot perform reduction along an axis "
                                     f"({a}) that has a size of 0.")
        return wrap(_reduce(t, fn, ax, keepdim))
    f.__name__ = api
    f.__doc__ = f"{api} over ``axis`` (all axes by default)."
    return f


op(_extreme(torch.amax, "max"), method=True)
op(_extreme(torch.amin, "min"), method=True)
op(_extreme(torch.amax, "amax"), method=True)
op(_extreme(torch.amin, "amin"), method=True)


def _boolean(fn, api):
    def f(x, axis=None, keepdim=False, name=None):
        try:
            t = x._t
        except AttributeError:
            raise not_tensor(api, "x", 0, x) from None
        if axis is None:
            r = fn(t)
            return wrap(r.reshape([1] * t.dim()) if keepdim else r)
        return wrap(_reduce(t, fn, _axis(axis), keepdim))
    f.__name__ = api
    f.__doc__ = f"Whether {api} elements over ``axis`` are true (a bool tensor)."
    return op(f, method=True, fast=("x", fn))


_boolean(torch.any, "any")
_boolean(torch.all, "all")


@op(method=True)
def logsumexp(x, axis=None, keepdim=False, name=None):
    """log(sum(exp(x))) over ``axis``, computed stably; integers give float32."""
    t = _float_of(_x(x, "logsumexp"))
    ax = _axis(axis)
    if t.dim() == 0:
        if ax is not None:
            _check_axes(t, ax)
        return wrap(t.clone())
    if ax is None:
        ax = tuple(range(t.dim()))
        if not ax:
            return wrap(t.clone())
    return wrap(_reduce(t, torch.logsumexp, ax, keepdim))


@op(method=True)
def nansum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum treating NaN as zero."""
    t = _pyx(x)
    if not t.is_floating_point():
        return sum(x, axis, dtype, keepdim)                 # this module's sum
    tdt = None if dtype is None else _dt.convert_dtype(dtype).torch
    if tdt is not None and not (tdt.is_floating_point or tdt.is_complex):
        # Paddle zeroes the NaNs, then sums in ``dtype`` (torch < 2.13 has no float ->
        # integer nansum on CPU)
        return sum(wrap(torch.where(torch.isnan(t), torch.zeros((), dtype=t.dtype), t)), axis,
                   dtype, keepdim)
    return wrap(_reduce(t, torch.nansum, _axis(axis), keepdim, dtype=tdt))


@op(method=True)
def nanmean(x, axis=None, keepdim=False, name=None):
    """Mean of the non-NaN elements; integers give float32."""
    t = _pyx(x)
    if t.dtype in (torch.int8, torch.int16, torch.int32, torch.uint8):
        binary_operands("add", t, torch.empty(0))          # Paddle's TypeError
    t = _float_of(t)
    return wrap(_reduce(t, torch.nanmean, _axis(axis), keepdim))


@op(method=True)
def count_nonzero(x, axis=None, keepdim=False, name=None):
    """The number of non-zero elements over ``axis`` (int64)."""
    t = _x(x, "count_nonzero")
    ax = _axis(axis)
    r = _reduce(t != 0, torch.sum, ax, keepdim, dtype=torch.int64)
    return wrap(r)


@op(method=True)
def reduce_as(x, target, name=None):
    """Sum x over the dimensions that broadcasting ``target`` to x's shape would add or
    stretch, giving target's shape (bool and int32 sum to int64, as ``sum``)."""
    t = _x(x, "reduce_as")
    s = _x(target, "reduce_as", "target", 1)
    lead = t.dim() - s.dim()
    try:
        if lead < 0 or torch.broadcast_shapes(s.shape, t.shape) != t.shape:
            raise RuntimeError
    except RuntimeError:
        raise ValueError("(InvalidArgument) ReduceDims dimension mismatch. Operands could not "
                         f"be broadcast together with the shape of in_dims = {list(t.shape)} "
                         f"and the shape of out_dims = {list(s.shape)}.") from None
    dims = list(range(lead)) + [lead + i for i, n in enumerate(s.shape)
                                if n == 1 and t.shape[lead + i] != 1]
    dt = torch.int64 if t.dtype in _INT_TO_INT64 else None
    if not dims:
        return wrap(t.to(dt) if dt is not None else t.clone())
    r = t.sum(dims, keepdim=True, dtype=dt)
    return wrap(r.reshape(s.shape))


# ---------------------------------------------------------------------- cumulative
def _cum_axis(t, axis, api):
    """(tensor, dim): flattened with dim 0 when axis is None; Paddle's error otherwise."""
    if axis is None:
        return t.reshape(-1), 0
    nd = builtins.max(t.dim(), 1)
    if api == "cumprod" and not -t.dim() <= axis < nd:
        raise ValueError("(InvalidArgument) Attr(axis) value should be in range [-R, R-1], R is "
                         "the rank of Input(X).")
    if not -nd <= axis < nd:
        raise IndexError(f"(OutOfRange) axis is out of range (expected to be in range of "
                         f"[{-nd}, {nd - 1}], but got {axis}).")
    return t, (0 if t.dim() == 0 else axis)


@op(method=True, fast=("x_int", torch.cumsum))
def cumsum(x, axis=None, dtype=None, name=None):
    """Running sum along ``axis`` (of the flattened x when None); int32 sums to int64."""
    if dtype is None and type(axis) is int and type(x) is Tensor:
        try:                                    # hot path; torch's IndexError: Paddle's below
            return wrap(torch.cumsum(x._t, axis))
        except IndexError:
            pass
    if isinstance(axis, Tensor):                # Paddle reads a one-element axis Tensor
        axis = int(axis._t.reshape(-1)[0].item())
    t, d = _cum_axis(_pyx(x), axis, "cumsum")
    return wrap(torch.cumsum(t, d, dtype=None if dtype is None else _dt.convert_dtype(dtype).torch))


def _cum_inplace(x, axis, api, fn):
    """In-place running op: along ``axis``, or over the flattened x (rebinding it) when None."""
    t = _writable(x, api)
    if axis is None:
        x._t = fn(t.reshape(-1), 0)
    else:
        getattr(t, api)(axis)
    return x


@op(method=True)
def cumsum_(x, axis=None, dtype=None, name=None):
    return _cum_inplace(x, axis, "cumsum_", torch.cumsum)


@op(method=True)
def cumprod(x, dim=None, dtype=None, name=None):
    """Running product along ``dim`` (of the flattened x when None); keeps x's dtype."""
    t, d = _cum_axis(_pyx(x, "flatten"), dim, "cumprod")
    return wrap(torch.cumprod(t, d, dtype=t.dtype if dtype is None else
                              _dt.convert_dtype(dtype).torch))


@op(method=True)
def cumprod_(x, dim=None, dtype=None, name=None):
    return _cum_inplace(x, dim, "cumprod_", torch.cumprod)


@op(method=True)
def logcumsumexp(x, axis=None, dtype=None, name=None):
    """log(cumsum(exp(x))) computed stably; integers give float32."""
    t = _x(x, "logcumsumexp")
    if dtype is not None:
        t = t.to(_dt.convert_dtype(dtype).torch)
    t, d = _cum_axis(_float_of(t), axis, "logcumsumexp")
    return wrap(torch.logcumsumexp(t, d))


def _cum_extreme(fn, api):
    def f(x, axis=None, dtype="int64", name=None):
        if axis is not None and not isinstance(x, Tensor):
            # Paddle flattens first without an axis (AttributeError there); with one, the
            # kernel's argument check: ValueError, or TypeError while building a program
            if not _mode.in_dynamic_mode():
                raise TypeError(f"(InvalidType) {api}(): argument (position 1) must be Value, "
                                f"but got {type(x).__name__}")
            raise not_tensor(api, "x", 0, x)
        t, d = _cum_axis(_pyx(x, "flatten"), axis, api)
        if _dt.convert_dtype(dtype).name not in ("int32", "int64"):
            raise ValueError("(InvalidArgument) dtype of indices must be DataType::INT32 or "
                             "DataType::INT64")
        v, i = fn(t, d)
        return wrap(v), wrap(i.to(_dt.convert_dtype(dtype).torch))
    f.__name__ = api
    f.__doc__ = f"Running {api[3:]} along ``axis`` and its indices."
    return f


op(_cum_extreme(torch.cummax, "cummax"), method=True)
op(_cum_extreme(torch.cummin, "cummin"), method=True)


# ---------------------------------------------------------------------- diagonals
_NO_TRACE = frozenset([torch.bool, torch.bfloat16])


@op(method=True)
def trace(x, offset=0, axis1=0, axis2=1, name=None):
    """Sum of the diagonal (``offset`` above the main one) over axis1/axis2; x's dtype."""
    t = _x(x, "trace")
    if t.dtype in _NO_TRACE:
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_name(t)}) of kernel `trace` is not registered.")
    try:
        return wrap(torch.diagonal(t, offset, axis1, axis2).sum(-1, dtype=t.dtype))
    except (RuntimeError, IndexError):
        _diag_check(t, axis1, axis2, "Input(x)'s dim is out of range (expected at least 2, but "
                                     f"got {t.dim()}).")
        raise


@op(method=True)
def diagonal(x, offset=0, axis1=0, axis2=1, name=None):
    """The diagonal ``offset`` above the main one of the planes axis1/axis2, in a new last
    dim."""
    try:
        return wrap(torch.diagonal(x._t, offset, axis1, axis2))
    except AttributeError:
        raise not_tensor("diagonal", "x", 0, x) from None
    except (RuntimeError, IndexError):
        _diag_check(x._t, axis1, axis2, "Input's dim is out of range (expected at least 2 "
                                        f"dimensions, but got {x._t.dim()}).")
        raise


def _diag_check(t, axis1, axis2, few_dims):
    """Paddle's errors where torch.diagonal failed: too few dims, identical axes."""
    if t.dim() < 2:
        raise IndexError(f"(OutOfRange) {few_dims}")
    if axis1 % t.dim() == axis2 % t.dim():
        raise ValueError(f"(InvalidArgument) The dimensions should not be identical "
                         f"{axis1} vs {axis2}.")



# ---------------------------------------------------------------------- integration
def _trapezoid(y, x, dx, axis, cumulative):
    if x is not None and dx is not None:
        raise ValueError("Not permitted to specify both x and dx input args.")
    t = _pyx(y)
    for v in (t,) if x is None else (t, x._t):
        if v.dtype not in _FLOATS or v.dtype is torch.bfloat16:
            raise TypeError("The data type of input must be Tensor, and dtype should be one of "
                            "['paddle.float16', 'paddle.float32', 'paddle.float64'], but got "
                            f"paddle.{_name(v)}")
    if t.dtype is torch.float16:
        raise RuntimeError("(NotFound) The kernel with key (CPU, Undefined(AnyLayout), float16) "
                           "of kernel `gather` is not registered.")
    fn = torch.cumulative_trapezoid if cumulative else torch.trapezoid
    if x is not None:
        return wrap(fn(t, x._t, dim=axis))
    if dx is None:
        dx = 1.0
    elif t.dtype is F64:              # Paddle's dx reaches float64 y as float32(dx)
        dx = float_attr(float(dx))
    return wrap(fn(t, dx=float(dx), dim=axis))


@op(method=True)
def trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The integral of y along ``axis`` by the trapezoidal rule (sample points x, or spacing
    dx, default 1)."""
    return _trapezoid(y, x, dx, axis, False)


@op(method=True)
def cumulative_trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The running trapezoidal integral of y along ``axis`` (one element shorter)."""
    return _trapezoid(y, x, dx, axis, True)
