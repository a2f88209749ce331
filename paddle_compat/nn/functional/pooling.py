"""Pooling of ``paddle.nn.functional``: max/avg/lp pooling (1-3 D), adaptive pooling, max
unpooling and fractional max pooling.

Paddle's pooling differs from torch's at the edges, which is handled here:

- padding takes all of Paddle's forms (see ``conv.padding_arg``); asymmetric padding, padding
  wider than half the kernel and ceil-mode windows torch would drop pad the input explicitly;
- ceil mode keeps every window that starts inside the padded input (torch drops one starting in
  the right padding);
- a non-``exclusive`` average always divides by the kernel size (torch divides by the part of
  the window inside the padded input);
- masks (max indices) are int32, flat over the spatial dims of the unpadded input.
"""
import math

import numpy as np
import torch

from ...framework.tensor import Tensor, wrap
from ...ops.common import F64, float_attr, not_tensor
from .conv import (channel_first, channel_last_of, ntuple, padding_arg, same_pads,
                   torch_pad_order)
from ... import random as _random

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d", "lp_pool1d",
           "lp_pool2d", "max_unpool1d", "max_unpool2d", "max_unpool3d",
           "fractional_max_pool2d", "fractional_max_pool3d"]

_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}
_MAXPOOL = {1: torch.max_pool1d_with_indices, 2: torch._C._nn.max_pool2d_with_indices,
            3: torch._C._nn.max_pool3d_with_indices}
_AVGPOOL = {1: torch.avg_pool1d, 2: torch._C._nn.avg_pool2d, 3: torch._C._nn.avg_pool3d}
_ADAPTIVE_AVG = {1: torch.adaptive_avg_pool1d, 2: torch._C._nn.adaptive_avg_pool2d,
                 3: torch._C._nn.adaptive_avg_pool3d}
_ADAPTIVE_MAX = {1: torch.adaptive_max_pool1d, 2: torch._C._nn.adaptive_max_pool2d,
                 3: torch._C._nn.adaptive_max_pool3d}
_pad = torch.nn.functional.pad


def _input(x, nd, api, data_format=None):
    """x's torch tensor, checked to be (nd+2)-D, and whether its layout is channel-last."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor(api, "x", 0, x) from None
    if t.dim() != nd + 2:
        raise ValueError(f"Excepted Input X is {nd + 2}-D tensor, but received {t.dim()}-D "
                         f"{type(x)}")
    if data_format is None:
        return t, False
    formats = _FORMATS[nd]
    if data_format not in formats:
        raise ValueError(f"Attr(data_format) should be '{formats[0]}' or '{formats[1]}'. "
                         f"Received Attr(data_format): {data_format}")
    return t, data_format == formats[1]


def _ctrunc(a, b):
    """a / b rounded toward zero (C's integer division), b > 0."""
    return a // b if a >= 0 else -((-a) // b)


class _Windows:
    """A pooling's windows over a channel-first tensor: kernel, stride, padding per side, and
    whether torch can run them as they are (``direct``) or needs ``extra`` right padding."""

    def __init__(self, t, nd, kernel_size, stride, padding, ceil_mode, channel_last):
        self.k = k = ntuple(kernel_size, nd, "pool_size")
        self.s = s = k if stride is None else ntuple(stride, nd, "pool_stride")
        if 0 in k or 0 in s:
            raise ValueError("(InvalidArgument) The kernel_size and stride of a pooling window "
                             f"shall not be 0, but received {list(k)} and {list(s)}.")
        pads, same = padding_arg(padding, nd, channel_last, ceil_mode, pool=True)
        sizes = t.shape[2:]
        if same:
            pads = same_pads(sizes, s, k)
        self.pads = pads
        # Paddle's output sizes; ceil mode keeps a window starting in the right padding
        self.out = []
        self.extra = []
        for i, (n, kk, ss) in enumerate(zip(sizes, k, s)):
            span = n + pads[2 * i] + pads[2 * i + 1] - kk
            # Paddle's C++ integer division truncates: a window larger than the (padded)
            # input still gives one output, over the part of the window inside it
            o = _ctrunc(span + ss - 1 if ceil_mode else span, ss) + 1
            self.out.append(o)
            self.extra.append(max((o - 1) * ss - span, 0))
        sym = pads[0::2] == pads[1::2] and all(2 * p <= kk for p, kk in zip(pads[0::2], k))
        self.ceil = ceil_mode
        # a size unknown until run time (-1: a static program's or a saved model's dynamic
        # dimension, such as an OCR recognizer's input width) is taken to fit the window, as
        # Paddle's shape inference takes it
        fits = all(n < 0 or n + pads[2 * i] + pads[2 * i + 1] >= kk
                   for i, (n, kk) in enumerate(zip(sizes, k)))
        self.direct = sym and fits and (not ceil_mode or self._torch_ceil_agrees(sizes))

    def _torch_ceil_agrees(self, sizes):
        """Whether torch's ceil-mode output sizes are Paddle's (torch drops a last window
        that would start in the right padding)."""
        for n, p, kk, ss, o in zip(sizes, self.pads[0::2], self.k, self.s, self.out):
            t_out = -(-(n + 2 * p - kk) // ss) + 1
            if (t_out - 1) * ss >= n + p:
                t_out -= 1
            if t_out != o:
                return False
        return True

    def padded(self, t, value):
        """t padded explicitly (both sides plus the ceil-mode extra) with ``value``."""
        pads = list(self.pads)
        for i, e in enumerate(self.extra):
            pads[2 * i + 1] += e
        return _pad(t, torch_pad_order(pads), value=value)


def _max_pool(x, nd, kernel_size, stride, padding, return_mask, ceil_mode, data_format, api):
    t, cl = _input(x, nd, api, data_format)
    if cl and return_mask:
        raise ValueError("When setting return_mask to true, data_format must be set to "
                         f"{_FORMATS[nd][0]} in API:{api}")
    t = channel_first(t, cl)
    w = _Windows(t, nd, kernel_size, stride, padding, ceil_mode, cl)
    if w.direct:
        out, idx = _MAXPOOL[nd](t, w.k, w.s, w.pads[0::2], 1, w.ceil)
    else:
        tp = w.padded(t, -math.inf)
        out, idx = _MAXPOOL[nd](tp, w.k, w.s, 0, 1, False)
        if return_mask:
            idx = _unpadded_index(idx, tp.shape[2:], t.shape[2:], w.pads[0::2])
    out = channel_last_of(out, cl)
    if not return_mask:
        return wrap(out)
    mask = wrap(channel_last_of(idx, cl).to(torch.int32))
    if t.requires_grad:
        mask._sgf = True        # Paddle's mask of an input that needs grad has stop_gradient=False
    return wrap(out), mask


def _unpadded_index(idx, padded_sizes, sizes, before):
    """Flat indices into the padded spatial dims as flat indices into the original ones."""
    flat = torch.zeros_like(idx)
    rest = idx
    coords = []
    for n in reversed(padded_sizes):
        coords.append(rest % n)
        rest = torch.div(rest, n, rounding_mode="floor")
    for c, n, b in zip(reversed(coords), sizes, before):
        flat = flat * n + (c - b)
    return flat


def _avg_pool(x, nd, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
              data_format, api):
    t, cl = _input(x, nd, api, data_format)
    t = channel_first(t, cl)
    w = _Windows(t, nd, kernel_size, stride, padding, ceil_mode, cl)
    if w.direct:
        # torch's divisors are Paddle's: the valid elements (exclusive) or the window clipped
        # to the padded input
        if nd == 1:
            out = torch.avg_pool1d(t, w.k, w.s, w.pads[0::2], w.ceil, not exclusive)
        else:
            out = _AVGPOOL[nd](t, w.k, w.s, w.pads[0::2], w.ceil, not exclusive, None)
    else:
        sums = _window_sum(w.padded(t, 0.0), nd, w.k, w.s)
        ones = torch.ones((1, 1) + tuple(t.shape[2:]), dtype=t.dtype, device=t.device)
        if not exclusive:
            # Paddle counts a window up to input + the *leading* padding on both sides
            lead, tail = [], []
            for i, e in enumerate(w.extra):
                p0, p1 = w.pads[2 * i], w.pads[2 * i + 1]
                after = min(p0, p1 + e)
                lead += [p0, after]
                tail += [0, p1 + e - after]
            ones = _pad(_pad(ones, torch_pad_order(lead), value=1.0), torch_pad_order(tail))
        else:
            ones = w.padded(ones, 0.0)
        den = _window_sum(ones, nd, w.k, w.s)
        out = sums / den
    if t.dtype is F64 and t.requires_grad:
        out = _f64_avg_grad(out, t, w, nd, den if not w.direct else None, exclusive)
    if divisor_override is not None:
        # Paddle rescales the average: * kernel size / divisor_override
        if isinstance(divisor_override, bool) or not isinstance(divisor_override, (int, float)):
            raise ValueError(f"Excepted (<class 'int'>, <class 'float'>) type for "
                             f"divisor_override but received type: {type(divisor_override)}. ")
        out = out * (math.prod(w.k) / divisor_override)
    return wrap(channel_last_of(out, cl))


def _f64_avg_grad(out, t, w, nd, den, exclusive):
    """``out`` with Paddle's float64 average-pooling gradient: each window passes
    ``dy * (1 / count)`` back with the scale rounded to float32, as Paddle's kernel holds it
    (the values stay ``out``'s)."""
    if den is None:
        # torch's divisors: valid count / (average of ones) per window
        ones = torch.ones((1, 1) + tuple(t.shape[2:]), dtype=t.dtype, device=t.device)
        pads = w.pads[0::2]
        if nd == 1:
            avg = torch.avg_pool1d(ones, w.k, w.s, pads, w.ceil, not exclusive)
        else:
            avg = _AVGPOOL[nd](ones, w.k, w.s, pads, w.ceil, not exclusive, None)
        valid = _window_sum(w.padded(ones, 0.0), nd, w.k, w.s)
        den = valid / avg
    scale = (1.0 / den).float().double()
    sur = _window_sum(w.padded(t, 0.0), nd, w.k, w.s) * scale
    return out.detach() + (sur - sur.detach()) if out.requires_grad else out


def _window_sum(t, nd, k, s):
    if nd == 1:
        return torch.avg_pool1d(t, k, s, 0, False, True) * k[0]
    return _AVGPOOL[nd](t, k, s, 0, False, True, 1)


# ---------------------------------------------------------------------- max / avg pooling
def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               name=None):
    """Max pooling over the last dim of [N, C, L]; with ``return_mask`` also the int32
    indices of the maxima."""
    return _max_pool(x, 1, kernel_size, stride, padding, return_mask, ceil_mode, None,
                     "max_pool1d")


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCHW", name=None):
    """Max pooling of [N, C, H, W] (or NHWC); with ``return_mask`` also the int32 indices."""
    if padding == 0 and not return_mask and not ceil_mode and data_format == "NCHW":
        try:
            t = x._t
        except AttributeError:
            raise not_tensor("max_pool2d", "x", 0, x) from None
        if t.dim() == 4:
            try:
                return wrap(torch.max_pool2d(t, kernel_size, kernel_size if stride is None
                                             else stride))
            except RuntimeError:
                pass                    # the full path gives Paddle's error
    return _max_pool(x, 2, kernel_size, stride, padding, return_mask, ceil_mode, data_format,
                     "max_pool2d")


def max_pool3d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCDHW", name=None):
    """Max pooling of [N, C, D, H, W] (or NDHWC); with ``return_mask`` also the indices."""
    return _max_pool(x, 3, kernel_size, stride, padding, return_mask, ceil_mode, data_format,
                     "max_pool3d")


def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
               name=None):
    """Average pooling over the last dim of [N, C, L]; ``exclusive`` leaves padding out of
    the count."""
    return _avg_pool(x, 1, kernel_size, stride, padding, ceil_mode, exclusive, None, None,
                     "avg_pool1d")


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCHW", name=None):
    """Average pooling of [N, C, H, W] (or NHWC)."""
    return _avg_pool(x, 2, kernel_size, stride, padding, ceil_mode, exclusive,
                     divisor_override, data_format, "avg_pool2d")


def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCDHW", name=None):
    """Average pooling of [N, C, D, H, W] (or NDHWC)."""
    return _avg_pool(x, 3, kernel_size, stride, padding, ceil_mode, exclusive,
                     divisor_override, data_format, "avg_pool3d")


def _lp_pool(x, nd, norm_type, kernel_size, stride, padding, ceil_mode, data_format, api):
    if norm_type == 0:
        raise ValueError("`norm_type` cannot be 0.")
    t, cl = _input(x, nd, api, data_format)
    t = channel_first(t, cl)
    w = _Windows(t, nd, kernel_size, stride, padding, ceil_mode, cl)
    if math.isinf(norm_type):
        tp = w.padded(t, -math.inf if norm_type > 0 else math.inf)
        sign = 1 if norm_type > 0 else -1
        out = _MAXPOOL[nd](sign * tp, w.k, w.s, 0, 1, False)[0] * sign
        if sign < 0:
            # Paddle applies the formula as it is: (sum x ** -inf) ** (1 / -inf) is
            # (inf or 0) ** -0.0, which is 1 for every window
            out = torch.ones_like(out)
        return wrap(channel_last_of(out, cl))
    p = float(norm_type)
    if t.dtype is F64:
        # Paddle's kernel computes in float32 whatever the dtype: x and p as floats, each power
        # rounded to float, the window sums in double, the root in float (done here in
        # double and rounded, as powf rounds)
        p = float_attr(p)
        root = float_attr(1.0 / p)
        powers = w.padded(t.float().double(), 0.0).pow(p).float().double()
        sums = _window_sum(powers, nd, w.k, w.s).float().double()
        return wrap(channel_last_of(sums.pow(root).float().double(), cl))
    sums = _window_sum(w.padded(t, 0.0).pow(p), nd, w.k, w.s)
    return wrap(channel_last_of(sums.pow(1.0 / p), cl))


def lp_pool1d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCL", name=None):
    """Power-average pooling: (sum of x**p over each window) ** (1/p)."""
    return _lp_pool(x, 1, norm_type, kernel_size, stride, padding, ceil_mode, data_format,
                    "lp_pool1d")


def lp_pool2d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCHW", name=None):
    """Power-average pooling of [N, C, H, W]: (sum of x**p over each window) ** (1/p)."""
    return _lp_pool(x, 2, norm_type, kernel_size, stride, padding, ceil_mode, data_format,
                    "lp_pool2d")


# ---------------------------------------------------------------------- adaptive pooling
def _output_size(output_size, sizes, nd):
    if isinstance(output_size, Tensor):
        output_size = output_size._t.reshape(-1).tolist()
    if isinstance(output_size, int):
        return (output_size,) * nd
    out = list(output_size)
    if len(out) != nd:
        raise ValueError(f"output_size should be an int or a sequence of {nd} ints, "
                         f"but got {output_size}")
    return tuple(n if o is None else int(o) for o, n in zip(out, sizes))


def _adaptive_avg(x, nd, output_size, data_format, api):
    t, cl = _input(x, nd, api, data_format)
    t = channel_first(t, cl)
    out = _ADAPTIVE_AVG[nd](t, _output_size(output_size, t.shape[2:], nd))
    return wrap(channel_last_of(out, cl))


def adaptive_avg_pool1d(x, output_size, name=None):
    """Average over ``output_size`` adaptive bins of the last dim of [N, C, L]."""
    return _adaptive_avg(x, 1, output_size, None, "adaptive_avg_pool1d")


def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    """Average over adaptive bins (bin i spans [floor(i*n/o), ceil((i+1)*n/o)) ) of H, W;
    ``None`` in ``output_size`` keeps that size."""
    if data_format == "NCHW":
        try:
            t = x._t
        except AttributeError:
            raise not_tensor("adaptive_avg_pool2d", "x", 0, x) from None
        if t.dim() == 4:
            if type(output_size) is int:
                return wrap(torch._C._nn.adaptive_avg_pool2d(t, (output_size, output_size)))
            return wrap(torch._C._nn.adaptive_avg_pool2d(
                t, _output_size(output_size, t.shape[2:], 2)))
    return _adaptive_avg(x, 2, output_size, data_format, "adaptive_avg_pool2d")


def adaptive_avg_pool3d(x, output_size, data_format="NCDHW", name=None):
    """Average over adaptive bins of D, H, W."""
    return _adaptive_avg(x, 3, output_size, data_format, "adaptive_avg_pool3d")


def _adaptive_max(x, nd, output_size, return_mask, api):
    t, _ = _input(x, nd, api)
    out, idx = _ADAPTIVE_MAX[nd](t, _output_size(output_size, t.shape[2:], nd))
    return (wrap(out), wrap(idx.to(torch.int32))) if return_mask else wrap(out)


def adaptive_max_pool1d(x, output_size, return_mask=False, name=None):
    """Max over adaptive bins of [N, C, L]; with ``return_mask`` also the int32 indices."""
    return _adaptive_max(x, 1, output_size, return_mask, "adaptive_max_pool1d")


def adaptive_max_pool2d(x, output_size, return_mask=False, name=None):
    """Max over adaptive bins of [N, C, H, W]; with ``return_mask`` also the indices."""
    return _adaptive_max(x, 2, output_size, return_mask, "adaptive_max_pool2d")


def adaptive_max_pool3d(x, output_size, return_mask=False, name=None):
    """Max over adaptive bins of [N, C, D, H, W]; with ``return_mask`` also the indices."""
    return _adaptive_max(x, 3, output_size, return_mask, "adaptive_max_pool3d")


# ---------------------------------------------------------------------- unpooling
def _max_unpool(x, indices, nd, kernel_size, stride, padding, data_format, output_size, api):
    fmt = _FORMATS[nd][0]
    if nd > 1:
        if x._t.dim() != nd + 2:
            raise ValueError(f"The x should have [{', '.join(fmt)}] format, but received "
                             f"{list(x.shape)}.")
        if indices._t.dim() != nd + 2:
            raise ValueError(f"The indices should have [{', '.join(fmt)}] format, but received "
                             f"{list(indices.shape)}.")
    if data_format != fmt:
        raise ValueError(f"Attr(data_format) should be '{fmt}'. Received "
                         f"Attr(data_format): {data_format}.")
    k = ntuple(kernel_size, nd, "pool_size")
    s = k if stride is None else ntuple(stride, nd, "pool_stride")
    p = padding_arg(padding, nd, False, pool=True)[0][0::2]
    t = x._t
    default = [(n - 1) * ss + kk - 2 * pp for n, ss, kk, pp in zip(t.shape[2:], s, k, p)]
    if output_size is None:
        size = default
    else:
        size = [int(v) for v in output_size]
        if len(size) == nd + 2:
            size = size[2:]
        if len(size) != nd:
            raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} "
                             f"elements, but it has a length of '{len(size)}'")
        for d in range(nd):
            lo, hi = default[d] - s[d], default[d] + s[d]
            if not lo < size[d] < hi:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be '
                                 f'between {lo} and {hi})')
    n, c = t.shape[:2]
    idx = indices._t
    if idx.numel() and int(idx.max()) >= math.prod(size):      # Paddle checks the values too
        raise ValueError("(InvalidArgument) index should less than output tensor height * "
                         f"output tensor width. Expected {int(idx.max())} < {math.prod(size)}")
    flat = torch.zeros((n, c, math.prod(size)), dtype=t.dtype, device=t.device)
    flat = flat.scatter(2, indices._t.reshape(n, c, -1).to(torch.int64), t.reshape(n, c, -1))
    return wrap(flat.reshape((n, c) + tuple(size)))


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
    """Scatter the pooled maxima back to their positions (``indices`` from max_pool1d)."""
    return _max_unpool(x, indices, 1, kernel_size, stride, padding, data_format, output_size,
                       "max_unpool1d")


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
    """Scatter the pooled maxima back to their positions (``indices`` from max_pool2d)."""
    return _max_unpool(x, indices, 2, kernel_size, stride, padding, data_format, output_size,
                       "max_unpool2d")


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
    """Scatter the pooled maxima back to their positions (``indices`` from max_pool3d)."""
    return _max_unpool(x, indices, 3, kernel_size, stride, padding, data_format, output_size,
                       "max_unpool3d")


# ---------------------------------------------------------------------- fractional pooling
def _fractional_bounds(n, out, k, u):
    """Paddle's pseudo-random windows [start, end) along one dim of size n: alpha and the
    scaled u in float32 as its kernel holds them, the indices ceil(alpha * (i + u)) -
    ceil(alpha * u) in double (``k`` = 0: the disjoint windows of the paper, else k wide)."""
    f = np.float32
    alpha = f(n - k) / f(out - (1 if k > 0 else 0))
    u = f(u)
    if k == 0:
        base = n // out
        u = u * min(f(base + 2) / alpha - f(1), f(n + 1 - base) / alpha - f(out - 1))
    a, uu = float(alpha), float(u)
    idx = np.arange(out, dtype=np.float64)
    start = (np.ceil(a * (idx + uu)) - np.ceil(a * uu)).astype(np.int64)
    end = start + k if k > 0 else (np.ceil(a * (idx + 1 + uu)) - np.ceil(a * uu)).astype(np.int64)
    return np.maximum(start, 0), np.minimum(end, n)


def _fractional(x, nd, output_size, kernel_size, random_u, return_mask, api):
    t, _ = _input(x, nd, api)
    if random_u is None:
        random_u = float(np.float32(_random.default_generator.random_raw(1)[0]) *
                         np.float32(2.0 ** -64))
    elif not 0 < random_u < 1:
        raise ValueError("The param `random_u` should be a `float` in (0, 1).")
    sizes = t.shape[2:]
    outs = _output_size(output_size, sizes, nd)
    ks = (0,) * nd if kernel_size is None else ntuple(kernel_size, nd, "kernel_size")
    # gather every window as a padded block (-inf outside), then one max over it
    gathered = t
    flat_pos = []
    for d, (n, o, k) in enumerate(zip(sizes, outs, ks)):
        start, end = _fractional_bounds(n, o, k, random_u)
        width = int((end - start).max()) if o else 0
        pos = start[:, None] + np.arange(width)[None, :]
        valid = pos < end[:, None]
        pos = torch.from_numpy(np.where(valid, pos, 0)).to(t.device)
        dim = 2 + d
        g = gathered.index_select(dim, pos.reshape(-1))
        shape = list(gathered.shape)
        shape[dim:dim + 1] = [o, width]
        g = g.reshape(shape)
        vshape = [1] * len(shape)
        vshape[dim:dim + 2] = [o, width]
        g = g.masked_fill(~torch.from_numpy(valid).to(t.device).reshape(vshape), -math.inf)
        # the window axis goes to the end so that later dims keep their positions
        gathered = g.movedim(dim + 1, -1)
        flat_pos.append(pos)
    win = gathered.reshape(gathered.shape[:2 + nd] + (-1,))
    out, arg = win.max(-1)
    if not return_mask:
        return wrap(out)
    # the argmax within the flattened windows back to a flat input index
    widths = [p.shape[1] for p in flat_pos]
    rem = arg
    coords = []
    for w in reversed(widths):
        coords.append(rem % w)
        rem = torch.div(rem, w, rounding_mode="floor")
    coords.reverse()
    flat = torch.zeros_like(arg)
    for d, (c, p, n) in enumerate(zip(coords, flat_pos, sizes)):
        shape = [1] * (2 + nd)
        shape[2 + d] = p.shape[0]
        rows = torch.arange(p.shape[0], device=t.device).reshape(shape)
        flat = flat * n + p[rows.expand_as(c), c]
    return wrap(out), wrap(flat.to(torch.int32))


def fractional_max_pool2d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    """Fractional max pooling (Graham, 2015) of [N, C, H, W] to ``output_size``; windows are
    pseudo-random from ``random_u`` in (0, 1) (drawn from the generator when None)."""
    return _fractional(x, 2, output_size, kernel_size, random_u, return_mask,
                       "fractional_max_pool2d")


def fractional_max_pool3d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    """Fractional max pooling of [N, C, D, H, W] to ``output_size``."""
    return _fractional(x, 3, output_size, kernel_size, random_u, return_mask,
                       "fractional_max_pool3d")
