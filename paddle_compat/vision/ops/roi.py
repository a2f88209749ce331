"""Region pooling, deformable convolution and image files of ``paddle.vision.ops``.

Everything is torch ops over all regions at once; the only Python loop runs over the images
of the batch (never over boxes or output pixels):

- ``roi_align``: bilinear sampling is separable. A sample at (y, x) reads four pixels with
  weights ``wy(row) * wx(col)`` (zero when the sample falls off the map), so a bin's mean is
  ``Ay @ X @ Ax^T`` with ``Ay[roi, bin, row]`` the sum of the bin's row weights: one matmul per
  image for the rows, one batched matmul for the columns. Exactly Paddle's CPU kernel's
  arithmetic up to the order of the sums (sample points, the adaptive grid
  ``ceil(roi_size / output_size)``, the clamp at the last row/column, ``aligned``'s half-pixel
  shift; a zero-size box with ``aligned=True`` has no sample points and gives NaN, as there).
  The row stage holds a (boxes of the image * ph, C * W) intermediate.
- ``roi_pool``: the max over each bin is the best of four overlapping power-of-two windows,
  read from a table of window maxima and their positions (``max_pool2d`` with stride 1, one
  per window size needed, channels last); ties go to the first element in row-major order,
  as in Paddle's kernel, and the gradient reaches exactly those elements.
- ``psroi_pool``: bin means from a summed-area table, accumulated in float64.
- ``deform_conv2d``: bilinear-sampled im2col (four gathers per kernel tap, Paddle's corner
  rules) and one grouped matmul.

``read_file`` returns a file's bytes as a uint8 Tensor; ``decode_jpeg`` decodes with Pillow (or
OpenCV), which Paddle's CPU build cannot do at all (its kernel is GPU-only: "DecodeJpeg op only
supports GPU now"); we follow its docs: a CHW uint8 Tensor.
"""
import io
import os

import numpy as np
import torch

from ... import nn
from ...framework.dtype import float_attr
from ...framework.tensor import wrap
from ...nn.initializer import Normal
from ...ops.common import tensor_arg
from ..models._utils import ConvNormActivation  # noqa: F401  (Paddle's vision.ops has it)

__all__ = ["roi_align", "RoIAlign", "roi_pool", "RoIPool", "psroi_pool", "PSRoIPool",
           "deform_conv2d", "DeformConv2D", "read_file", "decode_jpeg"]

_FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


# ------------------------------------------------------------------------ shared checks
def _output_size(output_size, api):
    if isinstance(output_size, int):
        return output_size, output_size
    if isinstance(output_size, (tuple, list)) and len(output_size) == 2:
        return int(output_size[0]), int(output_size[1])
    raise TypeError(f"The type of 'output_size' in {api} must be int or tuple of two ints, "
                    f"but received {output_size!r}.")


def _roi_inputs(x, boxes, api):
    """The torch tensors of ``x`` and ``boxes`` after Paddle's checks (rank, 4 columns, one
    float dtype)."""
    t = tensor_arg(x, api, "x", 0)
    b = tensor_arg(boxes, api, "boxes", 1)
    if t.dim() != 4:
        raise ValueError(f"(InvalidArgument) The format of Input(x) in {api} is NCHW. And the "
                         f"rank of input must be 4. But received rank = {t.dim()}")
    if b.dim() != 2 or b.shape[1] != 4:
        raise ValueError(f"(InvalidArgument) The second dimension of Input(boxes) should be 4. "
                         f"But received the dimension = {b.shape[-1] if b.dim() else 0}")
    if t.dtype not in _FLOATS:
        raise NotImplementedError(f"{api}: x of dtype {t.dtype} is not supported "
                                  f"(float16, bfloat16, float32, float64)")
    if b.dtype != t.dtype:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                         f"({str(b.dtype)[6:]}) does not match the type of data "
                         f"({str(t.dtype)[6:]}) currently contained in the container.")
    return t, b.detach()


def _image_counts(boxes_num, n_boxes, batch, api):
    """The number of boxes of each image (a list) from ``boxes_num``, checked against the
    boxes and the batch. Paddle reads the counts on the host too; where they do not add up to
    the number of boxes its kernels read past the end (or crash): ValueError here."""
    if boxes_num is None:
        raise AssertionError("boxes_num should not be None in dygraph mode.")
    bn = tensor_arg(boxes_num, api, "boxes_num", 2)
    counts = [int(v) for v in bn.reshape(-1).tolist()]
    if len(counts) != batch:
        raise ValueError(f"(InvalidArgument) The batch size of rois and the batch size of "
                         f"images  must be the same. But received the batch size of rois is "
                         f"{len(counts)}, and the batch size of images is {batch}")
    if sum(counts) != n_boxes or min(counts, default=0) < 0:
        raise ValueError(f"(InvalidArgument) the rois_num from input and RoisNum must be the "
                         f"same: boxes_num {counts} adds up to {sum(counts)}, boxes has "
                         f"{n_boxes} rows")
    return counts


def _no_boxes(t, c, ph, pw):
    """The empty result for zero boxes, still a function of ``t`` (its gradient: zeros)."""
    return t.reshape(-1)[:0].reshape(0, c, ph, pw)


def _batch_index(counts, device):
    """The image index of every box: [0]*counts[0] + [1]*counts[1] + ..."""
    return torch.repeat_interleave(torch.arange(len(counts), device=device),
                                   torch.tensor(counts, dtype=torch.long, device=device))


def _scale(spatial_scale, dtype):
    # Paddle's kernels hold spatial_scale as a C++ float
    return float_attr(spatial_scale) if dtype == torch.float64 else spatial_scale


# ------------------------------------------------------------------------------ roi_align
def _axis_weights(start, bin_size, grid, n_bins, n_grid, size):
    """``A[roi, bin, pixel]``: the summed bilinear weights of a bin's sample points along one
    axis (sample k of bin p at ``start + bin * (p + (k + .5) / grid)``; samples past the
    per-box ``grid`` or off the map weigh nothing)."""
    dt = start.dtype
    p = torch.arange(n_bins, dtype=dt, device=start.device).view(1, -1, 1)
    k = torch.arange(n_grid, device=start.device).view(1, 1, -1)
    g = grid.view(-1, 1, 1)
    pos = start.view(-1, 1, 1) + bin_size.view(-1, 1, 1) * (p + (k.to(dt) + 0.5) / g.to(dt))
    used = (k < g) & (pos >= -1.0) & (pos <= size)
    pos = pos.clamp_min(0)
    low = pos.floor().long()
    last = low >= size - 1
    low = low.clamp_max(size - 1)
    high = torch.where(last, low, low + 1)
    pos = torch.where(last, low.to(dt), pos)
    w_low = (high.to(dt) - pos) * used
    w_high = (1 - (high.to(dt) - pos)) * used
    a = torch.zeros(start.shape[0], n_bins, size, dtype=dt, device=start.device)
    a.scatter_add_(2, low, w_low)
    a.scatter_add_(2, high, w_high)
    return a


def _grid(extent, pooled, sampling_ratio):
    if sampling_ratio > 0:
        return torch.full_like(extent, sampling_ratio, dtype=torch.long)
    # int(ceil(extent / pooled)); a negative extent (only with aligned=True) samples nothing
    return torch.ceil(extent / pooled).long().clamp_min(0)


def roi_align(x, boxes, boxes_num, output_size, spatial_scale=1.0, sampling_ratio=-1,
              aligned=True, name=None):
    """RoI Align (Mask R-CNN): the mean of bilinear samples over each of the
    ``output_size`` bins of every box, -> [num_boxes, C, ph, pw]. ``boxes`` are
    [x1, y1, x2, y2] in input coordinates (times ``spatial_scale``), ``boxes_num`` the boxes
    per image; ``sampling_ratio <= 0`` picks ``ceil(bin size)`` samples per bin and axis."""
    t, b = _roi_inputs(x, boxes, "roi_align")
    ph, pw = _output_size(output_size, "roi_align")
    if ph <= 0 or pw <= 0:
        raise ValueError(f"(InvalidArgument) The 'pooled_height' attribute in RoiAlignOp is "
                         f"invalid. The height must be greater than 0. But received "
                         f"'pooled_height' = {ph}, 'pooled_width' = {pw}")
    n, c, h, w = t.shape
    counts = _image_counts(boxes_num, b.shape[0], n, "roi_align")
    r = b.shape[0]
    if r == 0:
        return wrap(_no_boxes(t, c, ph, pw))
    dt = t.dtype
    cdt = torch.float32 if dt in (torch.float16, torch.bfloat16) else dt
    b = b.to(cdt)
    shift = 0.5 if aligned else 0.0
    s = _scale(spatial_scale, cdt)
    x1, y1, x2, y2 = (b[:, i] * s - shift for i in range(4))
    rw, rh = x2 - x1, y2 - y1
    if not aligned:
        rw, rh = rw.clamp_min(1.0), rh.clamp_min(1.0)
    gh, gw = _grid(rh, ph, sampling_ratio), _grid(rw, pw, sampling_ratio)
    n_gh, n_gw = int(gh.max()), int(gw.max())
    ay = _axis_weights(y1, rh / ph, gh, ph, n_gh, h)                     # (R, ph, H)
    ax = _axis_weights(x1, rw / pw, gw, pw, n_gw, w)                     # (R, pw, W)
    # Paddle multiplies the sum by 1 / (grid_h * grid_w), computed in double
    inv = (1.0 / (gh * gw).to(torch.float64)).to(cdt)
    tc = t.to(cdt)
    outs = []
    for img, (a_i, x_i) in enumerate(zip(torch.split(ay, counts), torch.split(ax, counts))):
        if not a_i.shape[0]:
            continue
        # rows: (R_i * ph, H) @ (H, C * W); columns: (R_i, ph * C, W) @ (R_i, W, pw)
        y = torch.matmul(a_i.reshape(-1, h), tc[img].transpose(0, 1).reshape(h, c * w))
        outs.append(torch.bmm(y.view(-1, ph * c, w), x_i.transpose(1, 2)))
    out = torch.cat(outs).view(r, ph, c, pw).permute(0, 2, 1, 3)
    out = out * inv.view(-1, 1, 1, 1)
    return wrap(out.to(dt).contiguous())


class RoIAlign(nn.Layer):
    """``roi_align`` as a Layer: ``RoIAlign(output_size, spatial_scale)(x, boxes, boxes_num,
    aligned=True)`` (its sampling ratio is always adaptive)."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num, aligned=True):
        return roi_align(x, boxes, boxes_num, self._output_size, self._spatial_scale,
                         aligned=aligned)


# ------------------------------------------------------------------------------- roi_pool
def _round_half_away(v):
    """C's round(): halves away from zero (torch.round rounds them to even)."""
    tr = torch.trunc(v)
    return torch.where((v - tr).abs() == 0.5, tr + torch.sign(v), torch.round(v))


def _better(v1, i1, v2, i2):
    """Of two (value, position) candidates the larger value, the earlier position on a tie."""
    take2 = (v2 > v1) | ((v2 == v1) & (i2 < i1))
    return torch.where(take2, v2, v1), torch.where(take2, i2, i1)


def _window_max_table(t, levels_h, levels_w):
    """For ``t`` (N, C, H, W): the max over every window [h, h + 2^i) x [w, w + 2^j) inside
    the map and its position ``row * W + col`` (the first in row-major order on ties, as
    max_pool2d scans), channels last: values and positions (levels_h, levels_w, N, H, W, C);
    the cells where a window would leave the map are never read."""
    n, c, h, w = t.shape
    xc = t.contiguous(memory_format=torch.channels_last)
    vals = t.new_zeros(levels_h, levels_w, n, h, w, c)
    poss = torch.zeros(levels_h, levels_w, n, h, w, c, dtype=torch.int32, device=t.device)
    for i in range(levels_h):
        for j in range(levels_w):
            v, p = torch.nn.functional.max_pool2d(xc, (1 << i, 1 << j), stride=1,
                                                  return_indices=True)
            vals[i, j, :, :v.shape[2], :v.shape[3]] = v.permute(0, 2, 3, 1)
            poss[i, j, :, :v.shape[2], :v.shape[3]] = p.permute(0, 2, 3, 1)
    return vals, poss


class _PickedMax(torch.autograd.Function):
    """The bin maxima found without autograd, and their gradient: each output's gradient
    added to the input element it was taken from (``where``, flat indices into x; the index
    ``x.numel()`` for an empty bin, whose gradient goes nowhere)."""

    @staticmethod
    def forward(ctx, x, values, where):
        ctx.save_for_backward(where)
        ctx.shape = x.shape
        return values

    @staticmethod
    def backward(ctx, grad):
        where, = ctx.saved_tensors
        gx = grad.new_zeros(ctx.shape.numel() + 1)
        gx.index_add_(0, where.reshape(-1), grad.reshape(-1))
        return gx[:-1].view(ctx.shape), None, None


def _floor_log2(n):
    return torch.floor(torch.log2(n.to(torch.float64))).long()


def roi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """RoI max pooling (Fast R-CNN): box corners rounded to pixels (scaled by
    ``spatial_scale``), each box cut into ``output_size`` bins of whole pixels, the max of
    each; an empty bin gives 0. -> [num_boxes, C, ph, pw]."""
    t, b = _roi_inputs(x, boxes, "roi_pool")
    ph, pw = _output_size(output_size, "roi_pool")
    if ph <= 0 or pw <= 0:
        raise ValueError(f"(InvalidArgument) The pooled output height and width must be "
                         f"greater than 0, but received {ph} and {pw}")
    n, c, h, w = t.shape
    counts = _image_counts(boxes_num, b.shape[0], n, "roi_pool")
    r = b.shape[0]
    if r == 0:
        return wrap(_no_boxes(t, c, ph, pw))
    dev = t.device
    cdt = torch.float32 if b.dtype != torch.float64 else torch.float64
    corners = _round_half_away(b.to(cdt) * _scale(spatial_scale, cdt)).long()
    sw, sh, ew, eh = corners.unbind(1)
    bh = (eh - sh + 1).clamp_min(1).to(torch.float32)
    bw = (ew - sw + 1).clamp_min(1).to(torch.float32)

    def edges(start, extent, pooled, size):                 # (R, pooled) each, float32 math
        p = torch.arange(pooled, device=dev, dtype=torch.float32)
        size_f = extent / pooled
        lo = torch.floor(p * size_f.view(-1, 1)).long() + start.view(-1, 1)
        hi = torch.ceil((p + 1) * size_f.view(-1, 1)).long() + start.view(-1, 1)
        return lo.clamp(0, size), hi.clamp(0, size)

    hs, he = edges(sh, bh, ph, h)
    ws, we = edges(sw, bw, pw, w)
    empty = ((he <= hs).view(r, ph, 1) | (we <= ws).view(r, 1, pw)).unsqueeze(-1)
    kh = _floor_log2((he - hs).clamp_min(1))
    kw = _floor_log2((we - ws).clamp_min(1))
    with torch.no_grad():
        tv, ti = _window_max_table(t.detach(), int(kh.max()) + 1, int(kw.max()) + 1)
        n_lw = tv.shape[1]
        flat_v, flat_i = tv.view(-1, c), ti.view(-1, c)
        bid = _batch_index(counts, dev).view(r, 1, 1)
        level = kh.view(r, ph, 1) * n_lw + kw.view(r, 1, pw)
        cell = (level * n + bid) * h                                       # (R, ph, pw)
        rows = (hs.view(r, ph, 1), (he - 2 ** kh).view(r, ph, 1))
        cols = (ws.view(r, 1, pw), (we - 2 ** kw).view(r, 1, pw))
        best_v = best_i = None
        for yy in rows:                 # the four power-of-two windows covering the bin
            for xx in cols:
                # (an empty bin's corners may sit on the far edge: clamped, masked below)
                at = ((cell + yy.clamp(0, h - 1)) * w + xx.clamp(0, w - 1)).reshape(-1)
                cv = flat_v.index_select(0, at).view(r, ph, pw, c)
                ci = flat_i.index_select(0, at).view(r, ph, pw, c)
                if best_v is None:
                    best_v, best_i = cv, ci
                else:
                    best_v, best_i = _better(best_v, best_i, cv, ci)
        best_v = torch.where(empty, torch.zeros((), dtype=t.dtype, device=dev), best_v)
        best_v = best_v.permute(0, 3, 1, 2).contiguous()
        pick = None
        if t.requires_grad:
            ch = torch.arange(c, device=dev)
            pick = (bid.view(r, 1, 1, 1) * c + ch) * (h * w) + best_i
            pick = torch.where(empty, t.numel(), pick).permute(0, 3, 1, 2)
    if pick is None:
        return wrap(best_v)
    return wrap(_PickedMax.apply(t, best_v, pick))


class RoIPool(nn.Layer):
    """``roi_pool`` as a Layer: ``RoIPool(output_size, spatial_scale)(x, boxes, boxes_num)``."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return roi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)

    def extra_repr(self):
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


# ----------------------------------------------------------------------------- psroi_pool
def psroi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """Position-sensitive RoI average pooling (R-FCN): bin (i, j) of output channel k is the
    mean of input channel ``(k * ph + i) * pw + j`` over the bin. ``x`` has
    ``C = out_channels * ph * pw`` channels; -> [num_boxes, out_channels, ph, pw]."""
    t = tensor_arg(x, "psroi_pool", "x", 0)
    ph, pw = _output_size(output_size, "psroi_pool")
    if t.dim() != 4:
        raise AssertionError("Input features with shape should be (N, C, H, W)")
    if ph * pw == 0:
        raise ValueError("output_size should not contain 0.")
    t, b = _roi_inputs(x, boxes, "psroi_pool")
    n, c, h, w = t.shape
    oc = c // (ph * pw)
    if oc * ph * pw != c:
        raise ValueError(f"(InvalidArgument) the channel of X({c}) should be equal to the "
                         f"product of output_channels({oc}), pooled_height({ph}) and "
                         f"pooled_width({pw})")
    if oc <= 1:
        # Paddle 3.3.1's shape check wants more than one output channel
        raise ValueError("(InvalidArgument) The pooled output channels must greater than 1")
    counts = _image_counts(boxes_num, b.shape[0], n, "psroi_pool")
    r = b.shape[0]
    if r == 0:
        return wrap(_no_boxes(t, oc, ph, pw))
    dev = t.device
    cdt = torch.float32 if t.dtype != torch.float64 else torch.float64
    s = _scale(spatial_scale, cdt)
    rb = _round_half_away(b.to(cdt))
    sw, sh = rb[:, 0] * s, rb[:, 1] * s
    ew, eh = (rb[:, 2] + 1) * s, (rb[:, 3] + 1) * s
    rh = (eh - sh).clamp_min(0.1)
    rw = (ew - sw).clamp_min(0.1)

    def edges(start, extent, pooled, size):
        p = torch.arange(pooled, device=dev, dtype=cdt)
        bin_size = (extent / pooled).view(-1, 1)
        lo = torch.floor(p * bin_size + start.view(-1, 1)).long()
        hi = torch.ceil((p + 1) * bin_size + start.view(-1, 1)).long()
        return lo.clamp(0, size), hi.clamp(0, size)

    hs, he = edges(sh, rh, ph, h)
    ws, we = edges(sw, rw, pw, w)
    hs, he = hs.view(r, 1, ph, 1), he.view(r, 1, ph, 1)
    ws, we = ws.view(r, 1, 1, pw), we.view(r, 1, 1, pw)
    area = ((he - hs) * (we - ws)).to(torch.float64)
    empty = (he <= hs) | (we <= ws)
    # summed-area table in float64: S[.., i, j] = sum of x[.., :i + 1, :j + 1]
    flat = t.to(torch.float64).cumsum(3).cumsum(2).reshape(-1)
    bid = _batch_index(counts, dev).view(r, 1, 1, 1)
    k = torch.arange(oc, device=dev).view(1, oc, 1, 1)
    i = torch.arange(ph, device=dev).view(1, 1, ph, 1)
    j = torch.arange(pw, device=dev).view(1, 1, 1, pw)
    plane = (bid * c + (k * ph + i) * pw + j) * (h * w)
    zero = torch.zeros((), dtype=torch.float64, device=dev)

    def at(yy, xx):                                  # the sum of x[.., :yy, :xx]
        got = flat[plane + (yy - 1).clamp_min(0) * w + (xx - 1).clamp_min(0)]
        return torch.where((yy > 0) & (xx > 0), got, zero)

    total = at(he, we) - at(hs, we) - at(he, ws) + at(hs, ws)
    out = torch.where(empty, zero, total / area.clamp_min(1))
    return wrap(out.to(t.dtype))


class PSRoIPool(nn.Layer):
    """``psroi_pool`` as a Layer: ``PSRoIPool(output_size, spatial_scale)(x, boxes,
    boxes_num)``."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return psroi_pool(x, boxes, boxes_num, self.output_size, self.spatial_scale)


# -------------------------------------------------------------------------- deform_conv2d
def _pair(v, what):
    if isinstance(v, int):
        return [v, v]
    v = [int(a) for a in v]
    if len(v) != 2:
        raise ValueError(f"The {what}'s length must be 2. Received: {v}")
    return v


def _deform_im2col(t, offset, mask, kernel, stride, padding, dilation, dg, out_hw):
    """The sampled columns (N, C, kh*kw, OH*OW): tap (i, j) of output pixel (oy, ox) reads
    x at (oy*s - p + i*d + dy, ox*s - p + j*d + dx) bilinearly, each of the four corners only
    where it lies on the map, the whole tap only where the point is inside (-1, H) x (-1, W);
    times the mask (v2)."""
    n, c, h, w = t.shape
    kh, kw = kernel
    oh, ow = out_hw
    taps, pix = kh * kw, oh * ow
    dt, dev = t.dtype, t.device
    off = offset.reshape(n, dg, taps, 2, pix)
    ki = torch.arange(kh, device=dev).repeat_interleave(kw) * dilation[0]
    kj = torch.arange(kw, device=dev).repeat(kh) * dilation[1]
    oy = torch.arange(oh, device=dev).repeat_interleave(ow) * stride[0] - padding[0]
    ox = torch.arange(ow, device=dev).repeat(oh) * stride[1] - padding[1]
    py = (ki.view(-1, 1) + oy.view(1, -1)).to(dt) + off[:, :, :, 0]      # (N, dg, taps, pix)
    px = (kj.view(-1, 1) + ox.view(1, -1)).to(dt) + off[:, :, :, 1]
    inside = (py > -1) & (px > -1) & (py < h) & (px < w)
    y0f, x0f = torch.floor(py.detach()), torch.floor(px.detach())
    ly, lx = py - y0f, px - x0f
    hy, hx = 1 - ly, 1 - lx
    y0, x0 = y0f.long(), x0f.long()
    y1, x1 = y0 + 1, x0 + 1
    src = t.reshape(n, dg, c // dg, h * w)
    cols = None
    for yy, xx, wt in ((y0, x0, hy * hx), (y0, x1, hy * lx), (y1, x0, ly * hx), (y1, x1, ly * lx)):
        ok = inside & (yy >= 0) & (yy <= h - 1) & (xx >= 0) & (xx <= w - 1)
        idx = (yy.clamp(0, h - 1) * w + xx.clamp(0, w - 1)).view(n, dg, 1, taps * pix)
        vals = torch.gather(src, 3, idx.expand(n, dg, c // dg, taps * pix))
        term = vals * (wt * ok).view(n, dg, 1, taps * pix)
        cols = term if cols is None else cols + term
    if mask is not None:
        cols = cols * mask.reshape(n, dg, 1, taps * pix)
    return cols.view(n, c, taps, pix)


def deform_conv2d(x, offset, weight, bias=None, stride=1, padding=0, dilation=1,
                  deformable_groups=1, groups=1, mask=None, name=None):
    """Deformable convolution: v1 (``mask=None``) and v2 (modulated by ``mask``), on NCHW.
    ``offset`` is [N, 2 * dg * kh * kw, OH, OW] ((dy, dx) per deformable group and kernel
    tap), ``mask`` [N, dg * kh * kw, OH, OW], ``weight`` [C_out, C_in / groups, kh, kw]."""
    api = "deformable_conv"
    t = tensor_arg(x, api, "x", 0)
    off = tensor_arg(offset, api, "offset", 1)
    wt = tensor_arg(weight, api, "weight", 2)
    m = None if mask is None else tensor_arg(mask, api, "mask", 3)
    bs = None if bias is None else tensor_arg(bias, api, "bias", 4)
    stride, padding = _pair(stride, "stride"), _pair(padding, "padding")
    dilation = _pair(dilation, "dilation")
    if t.dim() != 4:
        raise ValueError(f"(InvalidArgument) Conv input should be 4-D tensor, get {t.dim()}")
    if wt.dim() != 4:
        raise ValueError(f"(InvalidArgument) Filter should be 4-D tensor, get {wt.dim()}")
    if t.dtype not in _FLOATS:
        raise NotImplementedError(f"deform_conv2d: x of dtype {t.dtype} is not supported")
    # as Paddle on the CPU: float16 offset / weight / bias / mask are cast to x's dtype
    off, wt, m, bs = (v.to(t.dtype) if v is not None and v.dtype == torch.float16 else v
                      for v in (off, wt, m, bs))
    for other in (off, wt, m, bs):
        if other is not None and other.dtype != t.dtype:
            raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                             f"({str(other.dtype)[6:]}) does not match the type of data "
                             f"({str(t.dtype)[6:]}) currently contained in the container.")
    n, c, h, w = t.shape
    cout, cg, kh, kw = wt.shape
    dg = deformable_groups
    if c != cg * groups:
        raise ValueError(f"(InvalidArgument) The number of input channels should be equal to "
                         f"filter channels * groups. The difference is [{c}]: [{cg * groups}]")
    if cout % groups:
        raise ValueError(f"(InvalidArgument) The number of output channels should be divided "
                         f"by groups. But received output channels: {cout}, groups: {groups}")
    if dg <= 0 or c % dg:
        raise ValueError(f"deform_conv2d: the {c} input channels must split evenly into "
                         f"deformable_groups={dg}")
    oh = (h + 2 * padding[0] - (dilation[0] * (kh - 1) + 1)) // stride[0] + 1
    ow = (w + 2 * padding[1] - (dilation[1] * (kw - 1) + 1)) // stride[1] + 1
    if oh <= 0 or ow <= 0:
        raise ValueError(f"(InvalidArgument) The output's size is expected to be greater than "
                         f"0. But received: output's size is {min(oh, ow)}.")
    taps = kh * kw
    if off.dim() != 4 or off.shape[1] != 2 * taps * dg:
        raise ValueError(f"(InvalidArgument) offset filter must divide deformable group size. "
                         f"But received [{off.shape[1] if off.dim() > 1 else 0}]: "
                         f"[{2 * taps * dg}]")
    if off.shape[0] != n or list(off.shape[2:]) != [oh, ow]:
        raise ValueError(f"(InvalidArgument) output height must equal to offset map height. "
                         f"The difference is [{oh}, {ow}]: {list(off.shape[2:])}")
    if m is not None:
        if m.dim() != 4 or m.shape[1] != taps * dg:
            raise ValueError(f"(InvalidArgument) mask filter must divide deformable group "
                             f"size. But received [{m.shape[1] if m.dim() > 1 else 0}]: "
                             f"[{taps * dg}]")
        if m.shape[0] != n or list(m.shape[2:]) != [oh, ow]:
            raise ValueError(f"(InvalidArgument) output height must equal to mask map "
                             f"height. The difference is [{oh}, {ow}]: {list(m.shape[2:])}")
    if bs is not None and bs.numel() != cout:
        raise ValueError(f"(InvalidArgument) Broadcast dimension mismatch. Operands could not "
                         f"be broadcast together with the shape of X = [{n}, {cout}, {oh}, "
                         f"{ow}] and the shape of Y = {list(bs.shape)}")
    cols = _deform_im2col(t, off, m, (kh, kw), stride, padding, dilation, dg, (oh, ow))
    cols = cols.reshape(n, groups, cg * taps, oh * ow)
    out = torch.matmul(wt.reshape(groups, cout // groups, cg * taps), cols)
    out = out.reshape(n, cout, oh, ow)
    if bs is not None:
        out = out + bs.reshape(1, cout, 1, 1)
    return wrap(out)


class DeformConv2D(nn.Layer):
    """Deformable convolution layer: parameters ``weight`` [out, in / groups, kh, kw]
    (Normal(0, sqrt(2 / (kh * kw * in))) unless ``weight_attr`` says otherwise) and ``bias``
    [out] (zeros; ``bias_attr=False`` drops it), as Paddle names and shapes them;
    ``forward(x, offset, mask=None)``."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 deformable_groups=1, groups=1, weight_attr=None, bias_attr=None):
        super().__init__()
        assert weight_attr is not False, "weight_attr should not be False in Conv."
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self._deformable_groups, self._groups = deformable_groups, groups
        self._in_channels, self._out_channels = in_channels, out_channels
        self._channel_dim = 1
        self._stride = _pair(stride, "stride")
        self._dilation = _pair(dilation, "dilation")
        self._kernel_size = _pair(kernel_size, "kernel_size")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups.")
        self._padding = _pair(padding, "padding")
        shape = [out_channels, in_channels // groups, *self._kernel_size]
        std = (2.0 / (np.prod(self._kernel_size) * in_channels)) ** 0.5
        self.weight = self.create_parameter(shape, weight_attr,
                                            default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter([out_channels], bias_attr, is_bias=True)

    def forward(self, x, offset, mask=None):
        return deform_conv2d(x, offset, self.weight, self.bias, self._stride, self._padding,
                             self._dilation, self._deformable_groups, self._groups, mask)


# ------------------------------------------------------------------------------ image files
def read_file(filename, name=None):
    """The bytes of the file ``filename`` as a 1-D uint8 Tensor (on the CPU, as in Paddle)."""
    try:
        with open(os.fspath(filename), "rb") as f:
            data = f.read()
    except OSError as e:
        # Paddle's kernel fails on a missing file with a RuntimeError (PreconditionNotMet)
        raise RuntimeError(f"read_file: cannot read {filename!r}: {e}") from e
    arr = np.frombuffer(data, dtype=np.uint8).copy()
    return wrap(torch.from_numpy(arr))


_MODES = ("unchanged", "gray", "rgb")


def _decode_pil(data, mode):
    from PIL import Image
    img = Image.open(io.BytesIO(data))
    img.load()
    if mode == "gray":
        img = img.convert("L")
    elif mode == "rgb" or img.mode not in ("L", "RGB"):
        img = img.convert("RGB")
    a = np.asarray(img)
    return a[:, :, None] if a.ndim == 2 else a


def _decode_cv2(data, mode):
    import cv2
    buf = np.frombuffer(data, dtype=np.uint8)
    flag = {"unchanged": cv2.IMREAD_UNCHANGED, "gray": cv2.IMREAD_GRAYSCALE,
            "rgb": cv2.IMREAD_COLOR}[mode]
    a = cv2.imdecode(buf, flag)
    if a is None:
        raise ValueError("decode_jpeg: the bytes are not a JPEG image OpenCV can decode")
    if a.ndim == 2:
        return a[:, :, None]
    return np.ascontiguousarray(a[:, :, 2::-1])                       # BGR(A) -> RGB


def decode_jpeg(x, mode="unchanged", name=None):
    """Decode the JPEG bytes in the 1-D uint8 Tensor ``x`` (see ``read_file``) into a
    [channels, height, width] uint8 Tensor: ``mode`` "unchanged" keeps the file's channels
    (1 for a grayscale JPEG, else 3), "gray" gives 1, "rgb" 3. Decoded with Pillow, or OpenCV
    when Pillow is absent (``pip install paddle_compat[vision]``). Paddle 3.3.1's CPU build has
    no kernel for this (GPU only); values can differ by a step or two from nvJPEG's."""
    t = tensor_arg(x, "decode_jpeg", "x", 0)
    if mode not in _MODES:
        raise ValueError(f"decode_jpeg: mode must be one of {list(_MODES)}, but got {mode!r}")
    if t.dim() != 1 or t.dtype != torch.uint8:
        raise ValueError(f"decode_jpeg: x must be a 1-D uint8 Tensor of the file's bytes, got "
                         f"shape {list(t.shape)} and dtype {str(t.dtype)[6:]}")
    data = t.detach().cpu().numpy().tobytes()
    try:
        a = _decode_pil(data, mode)
    except ImportError:
        try:
            a = _decode_cv2(data, mode)
        except ImportError as e:
            raise ImportError("paddle.vision.ops.decode_jpeg needs Pillow or OpenCV: "
                              "pip install paddle_compat[vision]") from e
    return wrap(torch.from_numpy(np.array(a.transpose(2, 0, 1), order="C")))   # own copy
