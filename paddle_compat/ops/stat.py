"""Statistics: ``var``, ``std``, ``median``, ``nanmedian``, ``quantile``, ``nanquantile``.

(``mean`` lives in ``reduction`` with the other reductions.) Medians and quantiles sort along
the reduced axis and interpolate between neighbours, so gradients flow as in Paddle: the two
middle elements of an even-length median share the gradient.
"""
import builtins

import torch

from ..framework import mode
from ..framework.data_feeder import check_variable_and_dtype
from ..framework.tensor import Tensor, wrap
from .common import no_kernel_error, not_tensor
from .reduction import _axis, _check_axes, _int_mean, _reduce
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


def _x(x, api):
    try:
        return x._t
    except AttributeError:
        raise not_tensor(api, "x", 0, x) from None


def _static_float_check(x, api):
    """Paddle's check while a program is being built: var/std take float Variables only."""
    if not mode.in_dynamic_mode():
        check_variable_and_dtype(x, "x", ["float16", "float32", "float64"], api)


def _torch_var(t, dim=None, keepdim=False, correction=1):
    return torch.var(t, dim, correction=correction, keepdim=keepdim)


def _var(t, ax, unbiased, keepdim):
    """``unbiased``: True/False, or Paddle 3's ``correction`` (a number subtracted from n)."""
    if t.is_floating_point():
        return _reduce(t, _torch_var, ax, keepdim, correction=unbiased + 0)
    # Integers: Paddle subtracts the truncated integer mean and divides in integers.
    if t.dtype is torch.bool:
        raise RuntimeError("(NotFound) The kernel with key (CPU, Undefined(AnyLayout), bool) of "
                           "kernel `subtract` is not registered.")
    u = _reduce(t, _int_mean, ax, True)
    s = _reduce((t - u) ** 2, torch.sum, ax, keepdim, dtype=torch.int64)
    n = t.numel() // builtins.max(s.numel(), 1) - (unbiased + 0)
    return torch.div(s, n, rounding_mode="trunc").to(t.dtype)


def _correction(unbiased, correction):
    # Paddle 3's correction= (n - correction); unbiased=False still means n
    return unbiased if correction is None or unbiased is False else correction


@op(method=True)
def var(x, axis=None, unbiased=True, keepdim=False, name=None, *, correction=None):
    """Variance over ``axis`` (all by default); ``unbiased`` divides by n - 1, ``correction``
    (Paddle 3, torch's spelling) by n - correction."""
    _static_float_check(x, "var")
    return wrap(_var(_x(x, "var"), _axis(axis), _correction(unbiased, correction), keepdim))


@op(method=True)
def std(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Standard deviation over ``axis``; integers give float32."""
    _static_float_check(x, "var")       # Paddle's std checks through var, and names it
    v = _var(_x(x, "std"), _axis(axis), unbiased, keepdim)
    return wrap(torch.sqrt(v if v.is_floating_point() else v.to(torch.float32)))


# ---------------------------------------------------------------------- median
def _median_args(x, axis, mode, api):
    if not isinstance(x, Tensor):
        raise TypeError("In median, the input x should be a Tensor.")
    if mode not in ("avg", "min"):
        raise ValueError(f"Mode {mode} is not supported. Must be avg or min.")
    t = x._t
    if axis is not None and (not isinstance(axis, int) or
                             not -builtins.max(t.dim(), 1) <= axis < builtins.max(t.dim(), 1)):
        raise ValueError("In median, axis should be none or an integer in range "
                         "[-rank(x), rank(x)).")
    return t


def _flat_or(t, axis):
    """(tensor, dim) to reduce: the flattened tensor along 0 when axis is None."""
    if axis is None or t.dim() == 0:
        return t.reshape(-1), 0
    return t, axis % t.dim()


def _keep(r, t, axis, keepdim):
    """Restore the reduced dims as size 1 for keepdim (all of them when axis is None)."""
    if not keepdim:
        return r
    if axis is None or t.dim() == 0:
        return r.reshape([1] * t.dim())
    return r.unsqueeze(axis % t.dim())


def _middle(s, d, lo, hi):
    """The mean of the sorted values at positions lo and hi (tensors or ints) along d."""
    if isinstance(lo, int):
        a, b = s.narrow(d, lo, 1), s.narrow(d, hi, 1)
    else:
        a, b = s.gather(d, lo.unsqueeze(d)), s.gather(d, hi.unsqueeze(d))
    return ((a + b) / 2).squeeze(d)


@op(method=True)
def median(x, axis=None, keepdim=False, mode="avg", name=None):
    """The median over ``axis`` (all elements by default). ``mode='avg'`` averages the two
    middle values of an even count (float result); ``mode='min'`` takes the lower one and, with
    an axis, also returns its int64 index. NaN anywhere in a slice gives NaN."""
    t0 = _median_args(x, axis, mode, "median")
    t, d = _flat_or(t0, axis)
    n = t.shape[d]
    if mode == "min":
        if n == 0:
            return wrap(_keep(torch.full(t.shape[:d] + t.shape[d + 1:], float("nan"),
                                         dtype=t.dtype), t0, axis, keepdim))
        v, i = torch.median(t, d)
        if axis is None:
            return wrap(_keep(v, t0, axis, keepdim))
        return wrap(_keep(v, t0, axis, keepdim)), wrap(_keep(i, t0, axis, keepdim))
    f = t if t.dtype is torch.float64 else t.to(torch.float32)
    if n == 0:                                     # NaN, still on the autograd graph
        return wrap(_keep(f.sum(d) + float("nan"), t0, axis, keepdim))
    s = torch.sort(f, d).values
    r = _middle(s, d, (n - 1) // 2, n // 2)
    if f.is_floating_point():
        r = torch.where(torch.isnan(f).any(d), torch.nan, r)
    return wrap(_keep(r, t0, axis, keepdim))


@op(method=True)
def nanmedian(x, axis=None, keepdim=False, mode="avg", name=None):
    """The median of the non-NaN values over ``axis`` (an int, a list of ints or None); the
    result keeps x's dtype. ``mode='min'`` with an int axis also returns the index."""
    if not isinstance(x, Tensor):
        raise TypeError("In median, the input x should be a Tensor.")
    if mode not in ("avg", "min"):
        raise ValueError(f"Mode {mode} is not supported. Must be avg or min.")
    if isinstance(axis, (list, tuple)) and not axis:
        raise ValueError("Axis list should not be empty.")
    t0 = x._t
    if t0.dtype not in (torch.float32, torch.float64, torch.int32, torch.int64, torch.float16,
                        torch.bfloat16):
        no_kernel_error("nanmedian", t0.dtype, "float32, float64, int32, int64", arg="x")
    ax = _axis(axis)
    if isinstance(ax, tuple):          # several axes: move them last and flatten them
        _check_axes(t0, ax)
        nd = t0.dim()
        dims = sorted({a % nd for a in ax})
        rest = [i for i in range(nd) if i not in dims]
        t = t0.permute(rest + dims).reshape([t0.shape[i] for i in rest] + [-1])
        d = t.dim() - 1
        out_keep = [1 if i in dims else t0.shape[i] for i in range(nd)]
    else:
        if ax is not None:
            _check_axes(t0, ax)
        t, d = _flat_or(t0, ax)
        out_keep = None
    n = t.shape[d]
    if mode == "min":
        if ax is None or isinstance(ax, tuple):
            v = torch.nanmedian(t, d).values if n else torch.full(
                t.shape[:d] + t.shape[d + 1:], float("nan"), dtype=t.dtype)
            return wrap(v.reshape(out_keep) if keepdim and out_keep else _keep(v, t0, ax, keepdim))
        v, i = torch.nanmedian(t, d)
        return wrap(_keep(v, t0, ax, keepdim)), wrap(_keep(i, t0, ax, keepdim))
    if n == 0:
        r = t.sum(d) + float("nan")
    elif t.is_floating_point():
        s = torch.sort(t, d).values                            # NaN sorts last
        cnt = (~torch.isnan(t)).sum(d)
        r = _middle(s, d, ((cnt - 1) // 2).clamp(min=0), (cnt // 2).clamp(max=n - 1))
        r = torch.where(cnt == 0, torch.nan, r)
    else:
        s = torch.sort(t, d).values
        a, b = s.narrow(d, (n - 1) // 2, 1), s.narrow(d, n // 2, 1)
        r = torch.div(a + b, 2, rounding_mode="trunc").squeeze(d)
    if keepdim and out_keep:
        return wrap(r.reshape(out_keep))
    return wrap(_keep(r, t0, ax, keepdim))


# ---------------------------------------------------------------------- quantile
_INTERPOLATIONS = ("linear", "lower", "higher", "nearest", "midpoint")


def _quantile(x, q, axis, keepdim, interpolation, ignore_nan, api):
    if not isinstance(x, Tensor):
        raise TypeError("input x should be a Tensor.")
    t0 = x._t
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {list(_INTERPOLATIONS)}, but got "
                         f"{interpolation}")
    if isinstance(q, Tensor):
        qs, scalar_q = q._t.reshape(-1).tolist(), q._t.dim() == 0
    elif isinstance(q, (int, float)):
        qs, scalar_q = [q], True
    elif isinstance(q, (list, tuple)):
        qs, scalar_q = list(q), False
        if not qs:
            raise ValueError("q should not be empty")
    else:
        raise TypeError("Type of q should be int, float, list or tuple.")
    for v in qs:
        if not 0 <= v <= 1:
            raise ValueError("q should be in range [0, 1]")
    if not t0.is_floating_point():
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{str(t0.dtype)[6:]}) of kernel `lerp` is not registered.")
    nd = t0.dim()
    if axis is not None:            # an int or a list of ints in [-nd, nd) (not a tuple)
        for a in (axis if isinstance(axis, list) else [axis]):
            if type(a) is not int or not -nd <= a < nd:
                raise ValueError("Axis should be None, int, or a list, element should in range "
                                 "[-rank(x), rank(x)).")
    ax = _axis(axis)
    if ax is None:
        t, d = t0.reshape(-1), 0
    elif isinstance(ax, tuple):
        _check_axes(t0, ax)
        dims = sorted({a % nd for a in ax})
        rest = [i for i in range(nd) if i not in dims]
        t = t0.permute(rest + dims).reshape([t0.shape[i] for i in rest] + [-1])
        d = t.dim() - 1
    else:
        _check_axes(t0, ax)
        t, d = (t0.reshape(-1), 0) if nd == 0 else (t0, ax % nd)
    s = torch.sort(t, d).values
    n = s.shape[d]
    if ignore_nan:
        cnt = (~torch.isnan(t)).sum(d, keepdim=True)
    else:
        cnt = torch.full_like(s.narrow(d, 0, 1) if n else s.sum(d, keepdim=True), n,
                              dtype=torch.int64)
    outs = []
    for v in qs:
        pos = (cnt - 1).clamp(min=0).to(torch.float64) * v
        lo = pos.floor().long()
        hi = pos.ceil().long()
        if interpolation == "lower":
            hi = lo
        elif interpolation == "higher":
            lo = hi
        elif interpolation == "nearest":
            lo = hi = torch.round(pos).long()      # half to even, as numpy
        if n == 0:
            r = s.sum(d, keepdim=True)
        else:
            a, b = s.gather(d, lo.clamp(0, n - 1)), s.gather(d, hi.clamp(0, n - 1))
            if interpolation == "midpoint":
                r = a + (b - a) * 0.5
            else:
                r = a + (b - a) * (pos - lo).to(s.dtype)
        if ignore_nan:
            r = torch.where(cnt == 0, torch.nan, r)
        elif n and s.is_floating_point():
            r = torch.where(torch.isnan(t).any(d, keepdim=True), torch.nan, r)
        if keepdim:
            if ax is None:
                r = r.reshape([1] * nd)
            elif isinstance(ax, tuple):
                r = r.reshape([1 if i in {a % nd for a in ax} else t0.shape[i] for i in range(nd)])
        else:
            r = r.squeeze(d)
        outs.append(r)
    if scalar_q or len(outs) == 1:
        return wrap(outs[0])
    return wrap(torch.stack(outs, 0))


@op(method=True)
def quantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    """The q-th quantile(s) over ``axis``; a list of q stacks the results on a new dim 0.
    NaN in a slice gives NaN."""
    return _quantile(x, q, axis, keepdim, interpolation, False, "quantile")


@op(method=True)
def nanquantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    """Like ``quantile`` over the non-NaN values."""
    return _quantile(x, q, axis, keepdim, interpolation, True, "nanquantile")
