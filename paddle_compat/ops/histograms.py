"""Histograms and counts: ``histogram``, ``histogram_bin_edges``, ``histogramdd`` and
``bincount`` (top-level functions and Tensor methods)."""
import torch

from ..framework.dtype import default_float, float_attr
from ..framework.tensor import Tensor, wrap
from .common import tensor_arg
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


def _data_range(t, lo, hi, widen):
    """(lo, hi) as 0-d float64 tensors: the data's range when both are 0 (else min and max as
    Paddle's float attributes hold them, rounded to float32); an empty range is widened by
    ``widen`` on each side."""
    if lo == 0 and hi == 0:
        if t.numel() == 0:
            lo_t = hi_t = torch.zeros((), dtype=torch.float64, device=t.device)
        else:
            lo_t, hi_t = t.min().to(torch.float64), t.max().to(torch.float64)
    else:
        if hi < lo:
            raise ValueError("(InvalidArgument) max must be larger or equal to min.But received "
                             f"max is {float(hi):f}, min is {float(lo):f}")
        lo_t = torch.tensor(float_attr(float(lo)), dtype=torch.float64, device=t.device)
        hi_t = torch.tensor(float_attr(float(hi)), dtype=torch.float64, device=t.device)
    same = lo_t == hi_t
    return torch.where(same, lo_t - widen, lo_t), torch.where(same, hi_t + widen, hi_t)


def _int_range_check(t):
    """Paddle's ValueError for integer data whose range max - min overflows the dtype."""
    lo, hi = int(t.min()), int(t.max())
    top = torch.iinfo(t.dtype).max
    if hi - lo > top:
        raise ValueError("(InvalidArgument) The range of max - min is out of range for target "
                         f"type, the range should less than {top} but now min is {lo}, max is "
                         f"{hi}.")


@op(method=True)
def histogram(input, bins=100, min=0.0, max=0.0, weight=None, density=False, name=None):
    """Counts of ``input`` in ``bins`` equal bins over [min, max] (the data's range when both
    are 0); int64, or the weights' sums (float32 for a density without weights)."""
    t = tensor_arg(input, "histogram", "input")
    w = None if weight is None else tensor_arg(weight, "histogram", "weight", 1)
    if not isinstance(bins, int) or bins < 1:
        raise ValueError("(InvalidArgument) The bins should be greater than or equal to 1. "
                         f"But received nbins is {bins}")
    if t.numel() == 0:
        return wrap(torch.zeros(bins, dtype=torch.float32, device=t.device))
    if min == 0 and max == 0 and isinstance(t, torch.Tensor) and not (
            t.is_floating_point() or t.is_complex() or t.dtype is torch.bool):
        _int_range_check(t)
    lo, hi = _data_range(t, min, max, 1.0)
    v = t.reshape(-1).to(t.dtype if t.dtype in (torch.float32, torch.float64) else torch.float64)
    lo_v, hi_v = lo.to(v.dtype), hi.to(v.dtype)
    idx = ((v - lo_v) * bins / (hi_v - lo_v)).floor().to(torch.int64)
    idx = torch.where(v == hi_v, bins - 1, idx)
    keep = (v >= lo_v) & (v <= hi_v)
    idx = torch.where(keep, idx, bins)               # out-of-range values go to a spare bin
    if w is None:
        dt = torch.float32 if density else torch.int64
        vals = torch.ones_like(idx, dtype=dt)
    else:
        dt = w.dtype
        vals = w.reshape(-1)
    hist = torch.zeros(bins + 1, dtype=dt, device=t.device).index_add(0, idx, vals)[:bins]
    if density:
        width = ((hi - lo) / bins).to(hist.dtype)
        hist = hist / (hist.sum() * width)
    return wrap(hist)


@op(method=True)
def histogram_bin_edges(input, bins=100, min=0.0, max=0.0, name=None):
    """The bins + 1 edges that ``histogram`` uses: Paddle's ``linspace(min, max, bins + 1)``
    in the default float dtype."""
    t = tensor_arg(input, "histogram_bin_edges", "input")
    lo, hi = _data_range(t, min, max, 0.5)
    dt = default_float().torch
    return wrap(torch.linspace(lo.to(dt), hi.to(dt), bins + 1, dtype=dt, device=t.device))


@op(method=True)
def histogramdd(x, bins=10, ranges=None, density=False, weights=None, name=None):
    """(hist, edges): the D-dimensional histogram of the points in x's last dim; ``bins`` is an
    int, a list of ints (per dim) or a list of edge Tensors; ``ranges`` is [lo0, hi0, lo1, ...]
    (default the data's range)."""
    t = tensor_arg(x, "histogramdd")
    pts = t.reshape(-1, t.shape[-1])
    w = None if weights is None else tensor_arg(weights, "histogramdd", "weights", 4)
    if isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], Tensor):
        bins = [b._t.to(t.dtype) for b in bins]
    elif isinstance(bins, Tensor):
        bins = [b.to(t.dtype) for b in bins._t.unbind(0)]
    rng = None if ranges is None else [float(r) for r in ranges]
    hist, edges = torch.histogramdd(pts, bins, range=rng, density=density,
                                    weight=None if w is None else w.reshape(-1).to(t.dtype))
    return wrap(hist), [wrap(e) for e in edges]


@op(method=True)
def bincount(x, weights=None, minlength=0, name=None):
    """Occurrences of each value 0..max(x) in the 1-d non-negative integer x (int64), or the
    sums of ``weights`` there (float32 for float32 weights, else float64)."""
    t = tensor_arg(x, "bincount")
    if t.is_floating_point() or t.dtype is torch.bool or t.is_complex():
        raise TypeError("Elements in Input(x) should all be integers")
    if t.dim() != 1:
        raise ValueError("(InvalidArgument) The 'shape' of Input(X) must be 1-D tensor.But the "
                         f"dimension of Input(X) is [{t.dim()}]")
    if not isinstance(t, torch.fx.Proxy) and t.numel() and bool((t < 0).any()):
        # Paddle checks the values too (a static Variable's only when it runs)
        raise ValueError("(InvalidArgument) The elements in input tensor must be non-negative "
                         "ints")
    if not isinstance(minlength, Tensor) and minlength < 0:
        raise ValueError("(InvalidArgument) The minlength should be greater than or equal to 0."
                         f"But received minlength is {minlength}")
    if weights is None:
        return wrap(torch.bincount(t, minlength=minlength))
    w = tensor_arg(weights, "bincount", "weights", 1)
    if w.dim() != 1:
        raise ValueError("(InvalidArgument) The 'shape' of Input(Weights) must be 1-D tensor."
                         f"But the dimension of Input(Weights) is [{w.dim()}]")
    if w.shape[0] != t.shape[0]:
        raise ValueError("(InvalidArgument) The 'shape' of Input(Weights) must be equal to the "
                         "'shape' of Input(X).But received: the 'shape' of Input(Weights) is "
                         f"[{w.shape[0]}],the 'shape' of Input(X) is [{t.shape[0]}]")
    dt = torch.float32 if w.dtype is torch.float32 else torch.float64
    return wrap(torch.bincount(t, w.to(dt), minlength=minlength).to(dt))
