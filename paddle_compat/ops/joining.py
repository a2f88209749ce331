"""Joining and splitting: concat, stack and the numpy-style v/h/d/column stacks; split,
chunk, tensor_split and h/v/dsplit, unstack/unbind.

``concat`` and ``stack`` refuse tensors of mixed dtypes (Paddle's ValueError); ``split`` takes
``num_or_sections`` (a count that must divide the axis, or sizes with at most one -1) and
``chunk`` likewise needs equal parts.
"""
import torch

from ..framework import mode as _mode
from ..framework.data_feeder import check_type
from ..framework.tensor import Tensor, wrap
from .arrays import TensorArray, unknown_length
from .common import not_tensor
from .manip_common import (_at_run_time, _int, _int_list, _invalid, _same_dtype,
                          _static_payload, _tensor, _tensors)
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


# ---------------------------------------------------------------------- join
def _not_list(api, x):
    got = "empty list" if isinstance(x, (list, tuple)) else type(x).__name__
    return ValueError(f"(InvalidArgument) {api}(): argument 'x' (position 0) must be list of "
                      f"Tensors, but got {got}")


@op(method=True, fast=("seq", torch.cat))
def concat(x, axis=0, name=None):
    """Join tensors of one dtype along ``axis`` (Paddle refuses mixed dtypes)."""
    ts = []
    try:
        for v in x:                             # a loop: a comprehension is a frame in 3.11
            ts.append(v._t)
    except AttributeError:
        ts = _tensors(x, "concat")
    if not ts or isinstance(x, Tensor):
        raise _not_list("concat", x)
    dt = ts[0].dtype
    for s in ts:
        if s.dtype is not dt:
            _same_dtype(ts, "concat")
    try:
        if type(axis) is not int:
            axis = _int(axis)
        return wrap(torch.cat(ts) if axis == 0 else torch.cat(ts, axis))   # cat(ts) parses faster
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


@op(method=True, fast=("seq", torch.stack))
def stack(x, axis=0, name=None):
    """Stack tensors of one shape and dtype along a new ``axis``."""
    ts = []
    try:
        for v in x:                             # as in concat
            ts.append(v._t)
    except AttributeError:
        ts = _tensors(x, "stack")
    if not ts or isinstance(x, Tensor):
        # while a program is built Paddle checks the argument's type first (TypeError)
        check_type(x, "x", (list, tuple), "stack")
        raise _not_list("stack", x)
    dt = ts[0].dtype
    for s in ts:
        if s.dtype is not dt:
            _same_dtype(ts, "stack")
    try:                                        # as cat, stack(ts) parses faster
        out = wrap(torch.stack(ts) if type(axis) is int and axis == 0 else
                   torch.stack(ts, axis))
    except (RuntimeError, IndexError) as e:
        same = _known_shapes(x, ts)
        if same is None:
            raise _invalid(e) from None
        out = wrap(torch.stack(same, axis))
    return unknown_length(out, axis) if type(x) is TensorArray else out


def _as_shape(t, dims):
    return t.reshape(dims)


def _known_shapes(x, ts):
    """Static Variables of one rank whose dimensions differ only where some are unknown (-1):
    each taken as the known shape (checked when the program runs), as Paddle infers the
    stacked shape; None when that does not apply."""
    if all(isinstance(t, torch.Tensor) for t in ts):
        return None
    shapes = [list(v.shape) for v in x]
    if len({len(s) for s in shapes}) != 1:
        return None
    dims = []
    for col in zip(*shapes):
        known = {d for d in col if d != -1}
        if len(known) > 1:
            return None
        dims.append(known.pop() if known else -1)
    if dims.count(-1) > 1:
        return None
    out = []
    for t, s in zip(ts, shapes):
        if s == dims or isinstance(t, torch.Tensor):
            out.append(t)
        else:
            out.append(t.record_dims(_as_shape, (t, dims), {}, dims, t.dtype))
    return out


def _joined(torch_fn, api):
    def join(x, name=None):
        try:
            return wrap(torch_fn(_tensors(x, api)))
        except (RuntimeError, IndexError) as e:
            raise _invalid(e) from None
    join.__name__ = api
    join.__doc__ = f"``torch.{torch_fn.__name__}`` for a list of tensors of one dtype."
    return join


op(_joined(torch.vstack, "vstack"))
op(_joined(torch.vstack, "row_stack"))
op(_joined(torch.hstack, "hstack"))
op(_joined(torch.dstack, "dstack"))
op(_joined(torch.column_stack, "column_stack"))


# ---------------------------------------------------------------------- split
@op(method=True)
def split(x, num_or_sections, axis=0, name=None):
    """Split into ``num_or_sections`` equal parts (must divide the axis), or into parts of the
    listed sizes (one of them may be -1: the rest)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("split", "x", 0, x) from None
    if type(axis) is not int:
        anchor = _static_payload(axis, num_or_sections) if _mode._static else None
        if anchor is not None:
            return _split_at_run_time(x, num_or_sections, axis, anchor)
        axis = _int(axis)
    try:
        n = t.shape[axis]
    except IndexError as e:
        raise _invalid(e) from None
    if n == -1 and not isinstance(t, torch.Tensor):
        # a static Variable's dim unknown until the program runs: checked then
        return _split_at_run_time(x, num_or_sections, axis, t)
    if type(num_or_sections) is int:
        if num_or_sections <= 0 or n % num_or_sections:
            raise ValueError("(InvalidArgument) The input's size along the split dimension must "
                             "be evenly divisible by Attr(num_or_sections). But received Attr("
                             f"num_or_sections) = {num_or_sections}, input(X)'s shape = "
                             f"{list(t.shape)}, Attr(dim) = {axis}.")
        # as sizes for torch.split_with_sizes (C; t.split's Python layer makes it ~2x slower);
        # an empty axis gives one part, as t.split(0) does
        sections = [n // num_or_sections] * num_or_sections if n else [0]
    else:
        anchor = _static_payload(num_or_sections) if _mode._static else None
        if anchor is not None:
            return _split_at_run_time(x, num_or_sections, axis, anchor)
        sections = _int_list(num_or_sections)
        if sections.count(-1) == 1:
            sections[sections.index(-1)] = n - (sum(sections) + 1)
        if sum(sections) != n or any(s < 0 for s in sections):
            raise ValueError("(InvalidArgument) Sum of Attr(num_or_sections) must be equal to the "
                             "input's size along the split dimension. But received Attr("
                             f"num_or_sections) = {list(num_or_sections)}, input(X)'s shape = "
                             f"{list(t.shape)}, Attr(dim) = {axis}.")
    out = []
    for p in torch.split_with_sizes(t, sections, axis):        # a loop: no comprehension frame
        out.append(wrap(p))
    return out


def _split_at_run_time(x, num_or_sections, axis, anchor):
    """``split`` whose parts are known when the program runs: its axis or sections hold
    Variables (Paddle's static shape of every part is then all -1), or the split dim of the
    Variable ``x`` is unknown (-1 there)."""
    n = num_or_sections if type(num_or_sections) is int else len(num_or_sections)
    dims = list(x.shape) if anchor is x._t else [-1] * x.ndim
    return [_at_run_time(split, (x, num_or_sections, axis), {}, dims, x._t.dtype, j)
            for j in range(n)]


@op(method=True, export=False)
def split_with_sizes(self, split_sizes, dim=0):
    """Split ``self`` along ``dim`` into pieces of ``split_sizes`` (Tensor method only)."""
    for size in split_sizes:
        if size < 0:
            raise ValueError("split_with_sizes expects split_sizes have only non-negative "
                             "entries")
    total = sum(split_sizes)
    if total != self.shape[dim]:
        raise ValueError(f"Split sizes add up to {total} but got the tensor's size of "
                         f"{self.shape[dim]}")
    t = self._t
    return [wrap(p) for p in torch.split(t, list(split_sizes), dim)]


@op(method=True)
def chunk(x, chunks, axis=0, name=None):
    """``split`` into ``chunks`` equal parts (Paddle requires them to divide the axis)."""
    if isinstance(x, Tensor):
        nd = x._t.dim()
        a = axis if type(axis) is int else _int(axis)
        if a >= nd:             # Paddle reads the shape at axis first
            raise IndexError(f"(OutOfRange) chunk(): axis {a} is out of range for a {nd}-D "
                             "tensor")
        if a < -nd:
            raise AssertionError("(rank(x) + axis) must >= 0")
    return split(x, chunks, axis)


@op(method=True)
def tensor_split(x, num_or_indices, axis=0, name=None):
    """numpy's ``array_split``: n nearly equal parts, or cut before the listed indices."""
    t = _tensor(x, "tensor_split")
    if not isinstance(num_or_indices, int):
        num_or_indices = _int_list(num_or_indices)
    try:
        return [wrap(p) for p in torch.tensor_split(t, num_or_indices, _int(axis))]
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def _split_at(axis, min_dim, api):
    def f(x, num_or_indices, name=None):
        t = _tensor(x, api)
        if t.dim() < min_dim:
            raise ValueError(f"(InvalidArgument) The input tensor of {api}() must have at least "
                             f"{min_dim} dimensions, but got {t.dim()}.")
        return tensor_split(x, num_or_indices, axis if t.dim() > 1 else 0)
    f.__name__ = api
    f.__doc__ = f"``tensor_split`` along axis {axis}."
    return f


op(_split_at(1, 1, "hsplit"), method=True)
op(_split_at(0, 2, "vsplit"), method=True)
op(_split_at(2, 3, "dsplit"), method=True)


@op(method=True)
def unstack(x, axis=0, num=None):
    """The slices of x along ``axis``, as a list."""
    try:
        return [wrap(p) for p in _tensor(x, "unstack").unbind(axis)]
    except IndexError as e:
        raise _invalid(e) from None


@op(method=True)
def unbind(input, axis=0):
    if not isinstance(axis, int):
        raise TypeError(f"The type of 'axis'  must be int, but received {type(axis)}.")
    return unstack(input, axis)
