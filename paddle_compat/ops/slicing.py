"""Slicing: slice, strided_slice, narrow and crop read a block of a tensor; slice_scatter and
select_scatter write one into a copy.

Out-of-range bounds are clamped as in Python slicing; ``strided_slice`` walks backwards for
negative strides. This module defines Paddle's ``slice``, so Python's is ``_py_slice`` here.
"""
import builtins

import torch

from ..framework import dtype as _dt
from ..framework import mode as _mode
from ..framework.tensor import Tensor, wrap
from .manip_common import _at_run_time, _int_list, _invalid, _static_payload, _tensor
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names

_py_slice = builtins.slice
_SLICE_ALL = _py_slice(None)


def _slices(t, axes, starts, ends, strides=None):
    idx = [_SLICE_ALL] * t.dim()
    starts, ends = _int_list(starts), _int_list(ends)
    strides = [1] * len(starts) if strides is None else _int_list(strides)
    for a, s, e, st in zip(_int_list(axes), starts, ends, strides):
        idx[a] = _py_slice(s, e, st)
    return tuple(idx)


def _static_slice_dims(t, axes, starts, ends):
    """Paddle's static shape of ``slice`` whose starts or ends hold Variables: an axis whose
    bounds are not both ints is unknown (-1)."""
    dims = list(t.shape)
    n = len(axes)
    starts = starts if isinstance(starts, (list, tuple)) else [None] * n
    ends = ends if isinstance(ends, (list, tuple)) else [None] * n
    for a, st, e in zip(axes, starts, ends):
        d = dims[a]
        if type(st) is int and type(e) is int and d >= 0:
            dims[a] = len(range(d)[_py_slice(st, e)])
        else:
            dims[a] = -1
    return dims


@op(method=True)
def slice(input, axes, starts, ends):
    """``input[starts:ends]`` along each of ``axes`` (out-of-range bounds are clamped)."""
    t = _tensor(input, "slice", "input")
    n = t.dim()
    # an axis out of range is clamped to the first or last one, as Paddle does
    axes = [min(max(a, -n), n - 1) for a in _int_list(axes)] if n else _int_list(axes)
    if _mode._static:
        anchor = _static_payload(starts, ends)
        if anchor is not None:          # the bounds are known when the program runs
            return _at_run_time(slice, (input, axes, starts, ends), {},
                                _static_slice_dims(t, axes, starts, ends), t.dtype)
    starts, ends = _int_list(starts), _int_list(ends)
    if not axes:
        raise ValueError("Input axes should not be an empty list/tuple.")
    for what, v in (("starts", starts), ("ends", ends)):
        if len(v) != len(axes):
            raise ValueError(f"(InvalidArgument) The length of axes ({len(axes)}) and length of "
                             f"{what} ({len(v)}) should be same.")
    return wrap(t[_slices(t, axes, starts, ends)])


@op(method=True)
def slice_scatter(x, value, axes, starts, ends, strides, name=None):
    """A copy of x with ``value`` written into the strided slice (differentiable in both)."""
    t = _tensor(x, "slice_scatter")
    v = _tensor(value, "slice_scatter", "value", 1)
    parts = list(zip(_int_list(axes), _int_list(starts), _int_list(ends), _int_list(strides)))
    try:
        # out-of-place ops only, so that a static Variable's graph records it too
        v = v.to(t.dtype).expand_as(t[_slices(t, axes, starts, ends, strides)])
        return wrap(_scatter_parts(t, v, parts))
    except RuntimeError as e:
        raise _invalid(e) from None


def _scatter_parts(t, v, parts):
    """``t`` with ``v`` in the block that ``parts`` [(axis, start, end, stride)] select: one
    ``torch.slice_scatter`` per axis, the inner axes' block scattered first."""
    axis, start, end, step = parts[0]
    axis %= t.dim()
    if len(parts) > 1:
        idx = [_SLICE_ALL] * t.dim()
        idx[axis] = _py_slice(start, end, step)
        v = _scatter_parts(t[tuple(idx)], v, parts[1:])
    return torch.slice_scatter(t, v, axis, start, end, step)


@op(method=True)
def select_scatter(x, values, axis, index, name=None):
    """A copy of x with the slice at ``index`` along ``axis`` set to ``values``."""
    t = _tensor(x, "select_scatter")
    v = _tensor(values, "select_scatter", "values", 1)
    want = t.shape[:axis % t.dim()] + t.shape[axis % t.dim() + 1:]
    if v.shape != want:
        raise RuntimeError("expected values to have a size equal to the slice of x. value size = "
                           f"paddle.Size({list(v.shape)}) slice size = paddle.Size({list(want)})")
    return wrap(torch.select_scatter(t, v.to(t.dtype), axis, index))


@op(method=True)
def strided_slice(x, axes, starts, ends, strides, name=None):
    """``x[start:end:stride]`` along each of ``axes`` (Python's clamping; negative strides walk
    backwards)."""
    t = _tensor(x, "strided_slice")
    axes = _int_list(axes)
    starts, ends, strides = _int_list(starts), _int_list(ends), _int_list(strides)
    for i, (a, st) in enumerate(zip(axes, strides)):
        if a < 0:
            raise ValueError("(InvalidArgument) The axis should be greater than or equal to "
                             f"0.But received {a} of axes[{i}]")
        if st == 0:
            raise ValueError("(InvalidArgument) stride index in StridedSlice operator is 0.")
    idx = [_SLICE_ALL] * t.dim()
    flips = []
    for a, s, e, st in zip(axes, starts, ends, strides):
        if st > 0:
            idx[a] = _py_slice(s, e, st)
            continue
        # a backward walk: the same positions counted from the flipped end
        lo, hi, _ = _py_slice(s, e, st).indices(t.shape[a])
        n = t.shape[a]
        idx[a] = _py_slice(n - 1 - lo, n - 1 - hi, -st) if lo > hi else _py_slice(0, 0)
        flips.append(a)
    r = t.flip(flips) if flips else t
    return wrap(r[tuple(idx)])


@op(method=True)
def narrow(input, dim, start, length):
    """The ``length`` entries of axis ``dim`` from ``start`` (a view), with Paddle's checks."""
    if isinstance(start, Tensor):
        if not (start._t.dim() == 0 and start._t.dtype in (torch.int32, torch.int64)):
            raise AssertionError("start must be an 0-dim integral Tensor.")
        start = start._t.item()
    t = _tensor(input, "narrow", "input")
    if t.dim() == 0:
        raise AssertionError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise AssertionError("narrow(): length must be non-negative.")
    rank = t.dim()
    if not 0 <= dim < rank:
        d = dim + rank if dim < 0 else dim
        if d < 0 or d >= rank:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, "
                             f"{rank - 1}], but got {dim})")
        dim = d
    n = t.shape[dim]
    if not -n <= start <= n:
        raise AssertionError(f"start out of range (expected to be in range of [{-n}, {n}], but "
                             f"got {start})")
    if start < 0:
        start += n
    if start > n - length:
        raise AssertionError(f"start ({start}) + length ({length}) exceeds dimension size "
                             f"({n}).")
    return wrap(t.narrow(dim, start, length))


@op
def crop(x, shape=None, offsets=None, name=None):
    """The block of x of ``shape`` (-1: to the end) starting at ``offsets`` (default 0)."""
    t = _tensor(x, "crop")
    if t.dtype not in (torch.float32, torch.float64, torch.int32, torch.int64):
        raise TypeError(f"The data type of 'x' in crop_tensor must be float32, float64, int32 "
                        f"or int64, but received {_dt.from_torch_dtype(t.dtype).name}.")
    for v in (shape, offsets):
        if isinstance(v, Tensor) and v._t.dtype not in (torch.int32, torch.int64):
            raise OSError("Data type error. Currently, The data type of IntArrayBase only "
                          "supports Tensor with int32 and int64, but now received "
                          f"`{_dt.from_torch_dtype(v._t.dtype).name}`.")
    shp = list(t.shape) if shape is None else _int_list(shape)
    offs = [0] * t.dim() if offsets is None else _int_list(offsets)
    r = t
    for d, (n, o) in enumerate(zip(shp, offs)):
        n = t.shape[d] - o if n == -1 else n
        if o + n > t.shape[d]:
            raise ValueError(f"(InvalidArgument) The sum of the {d}th elements of offsets ({o}) "
                             f"and shape ({n}) of Op(crop_tensor) should be less than or equal "
                             f"to the size of {d}th dimension of the input.")
        r = r.narrow(d, o, n)
    return wrap(r.clone())
