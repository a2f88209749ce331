"""Shape and layout ops: reshape, transpose, concat/stack/split and their relatives, squeeze,
expand/broadcast, flatten, tile, slice, gather/scatter, diagonal helpers, flip/roll, unique.

Paddle differs from torch mostly in argument names (``axis``, ``perm``, ``num_or_sections``),
in ``reshape``'s 0 ("keep this dim"), ``unsqueeze``'s sequential axis lists, ``concat`` and
``stack`` refusing mixed dtypes, and in raising ``ValueError`` where torch raises
``RuntimeError``/``IndexError`` for bad shapes and axes (``_invalid`` converts).
"""
import builtins

import torch

from ..framework import dtype as _dt
from ..framework.fastops import fast_path
from ..framework.tensor import Tensor, wrap, writable
from .common import as_methods, finish, not_tensor, shape_arg

__all__ = ["reshape", "reshape_", "transpose", "concat", "stack", "split", "chunk", "squeeze",
           "squeeze_", "unsqueeze", "unsqueeze_", "expand", "expand_as", "broadcast_to",
           "broadcast_shape", "broadcast_tensors", "flatten", "flatten_", "unflatten", "tile",
           "slice", "slice_scatter", "tensor_split", "hsplit", "vsplit", "dsplit", "unstack",
           "unbind", "vstack", "hstack", "dstack", "row_stack", "column_stack", "atleast_1d",
           "atleast_2d", "atleast_3d", "gather", "gather_nd", "scatter", "scatter_",
           "take_along_axis", "put_along_axis", "index_put", "index_put_", "masked_fill",
           "masked_fill_", "roll", "triu", "triu_", "tril", "tril_", "diag", "diag_embed",
           "meshgrid", "vander", "diff", "repeat_interleave", "cartesian_prod", "shape", "numel",
           "clone", "flip", "moveaxis", "unique"]


def _invalid(e):
    """Paddle's ValueError for a shape/axis error torch reported as RuntimeError/IndexError."""
    return ValueError(f"(InvalidArgument) {e}")


def _out_of_range(e):
    """Paddle's IndexError for an axis out of range (its kernels' OutOfRange errors)."""
    return IndexError(f"(OutOfRange) {e}")


def _tensor(x, api, arg="x", pos=0):
    if type(x) is Tensor:
        return x._t
    if isinstance(x, Tensor):
        return x._t
    raise not_tensor(api, arg, pos, x)


def _int(v):
    """A Python int from an int or a 1-element Tensor (Paddle accepts both for axes)."""
    return int(v._t.item()) if isinstance(v, Tensor) else v


def _int_list(v):
    """A list of ints from an int, a list/tuple of ints or Tensors, or a Tensor."""
    if isinstance(v, Tensor):
        return [int(i) for i in v._t.reshape(-1).tolist()]
    if isinstance(v, (list, tuple)):
        return [_int(i) for i in v]
    return [v]


def _same_dtype(ts, api):
    dt = ts[0].dtype
    for i, s in enumerate(ts):
        if s.dtype is not dt:
            raise ValueError(f"(InvalidArgument) {api}(): the data_type of input tensor in list "
                             f"isn't consistent, the first tensor is "
                             f"{_dt.from_torch_dtype(dt).name}, but {i}th tensor is "
                             f"{_dt.from_torch_dtype(s.dtype).name}.")
    return ts


def _tensors(xs, api):
    if isinstance(xs, Tensor):
        return list(xs._t.unbind(0))
    return _same_dtype([_tensor(v, api, "x", 0) for v in xs], api)


def _inplace(x, t):
    """Rebind x to the (view) result t: Paddle's in-place shape ops."""
    writable(x)
    x._t = t
    return x


# ---------------------------------------------------------------------- reshape family
def _reshape_shape(t, shape):
    """Paddle's target shape: ints, Tensors, 0 copies the input dim at that position."""
    shape = list(shape_arg(shape, "reshape"))
    for i, d in enumerate(shape):
        if d == 0:
            shape[i] = t.shape[i]
    return shape


@fast_path("x_ints nonzero", torch.reshape)
def reshape(x, shape, *more, name=None):
    """Reshape to ``shape`` (list/tuple/Tensor; -1 inferred, 0 keeps the input's dim).
    As a method it also takes the dims as separate arguments: ``x.reshape(2, 3)``."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("reshape", "x", 0, x) from None
    if more:
        shape = (shape,) + more
    if (type(shape) is not list and type(shape) is not tuple) or 0 in shape:
        shape = _reshape_shape(t, shape)
    try:
        return wrap(torch.reshape(t, shape))      # torch.reshape parses faster than t.reshape
    except (RuntimeError, TypeError) as e:
        if isinstance(e, TypeError):
            return wrap(torch.reshape(t, _reshape_shape(t, shape)))
        raise _invalid(e) from None


def reshape_(x, shape, *more, name=None):
    return _inplace(x, reshape(x, shape, *more)._t)


@fast_path("x_ints", torch.permute)
def transpose(x, perm, name=None):
    """Permute the axes by ``perm`` (its length must equal x.ndim)."""
    try:
        return wrap(torch.permute(x._t, perm))
    except AttributeError:
        raise not_tensor("transpose", "x", 0, x) from None
    except (RuntimeError, IndexError, TypeError) as e:
        if isinstance(e, TypeError):
            return transpose(x, _int_list(perm))
        raise _invalid(e) from None


def moveaxis(x, source, destination, name=None):
    t = x._t
    try:
        if t.dim():
            return wrap(torch.movedim(t, source, destination))
    except (RuntimeError, IndexError) as e:
        _check_moveaxis(t.dim(), source, destination)
        raise _invalid(e) from None
    _check_moveaxis(0, source, destination)            # 0-d: only moveaxis(x, [], [])
    return wrap(torch.movedim(t, source, destination))


def _check_moveaxis(ndim, source, destination):
    """Paddle's checks of moveaxis's arguments, in its order and with its exception types."""
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise AssertionError("'source' must have the same number with 'destination'")
    for name, axes in (("source", src), ("destination", dst)):
        if len(axes) != len(set(axes)):
            raise ValueError(f"Each element of '{name}' must be unique!")
    for a in src + dst:
        if not -ndim <= a < ndim:
            raise AssertionError(f"'source' must be in the range of [-{ndim}, {ndim})")


@fast_path("x", torch.flatten)
def flatten(x, start_axis=0, stop_axis=-1, name=None):
    """Merge axes start_axis..stop_axis into one (a 0-d x gives shape [1])."""
    if start_axis == 0 and stop_axis == -1 and type(x) is Tensor:
        return wrap(torch.flatten(x._t))        # hot path: all axes (a 0-d x gives [1] too)
    t = _tensor(x, "flatten")
    nd = max(t.dim(), 1)
    if (start_axis % nd) > (stop_axis % nd):
        raise ValueError("The stop_axis should be larger than stat_axis")
    try:
        return wrap(t.flatten(start_axis, stop_axis))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def flatten_(x, start_axis=0, stop_axis=-1, name=None):
    return _inplace(x, flatten(x, start_axis, stop_axis)._t)


def unflatten(x, axis, shape, name=None):
    t = _tensor(x, "unflatten")
    try:
        return wrap(t.unflatten(_int(axis), shape_arg(shape, "unflatten")))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


@fast_path("x x_int", torch.squeeze)
def squeeze(x, axis=None, name=None):
    """Drop size-1 axes (all, or those in ``axis``; axes of other sizes are left alone)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("squeeze", "x", 0, x) from None
    try:                                        # torch.squeeze parses faster than t.squeeze
        if axis is None:
            return wrap(torch.squeeze(t))
        if type(axis) is int:
            return wrap(torch.squeeze(t, axis))
        return wrap(t.squeeze(tuple(_int_list(axis))))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def squeeze_(x, axis=None, name=None):
    return _inplace(x, squeeze(x, axis)._t)


@fast_path("x_int", torch.unsqueeze)
def unsqueeze(x, axis, name=None):
    """Insert size-1 axes; a list of axes is applied one after another, each negative axis
    counted against the rank reached so far (Paddle's rule)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("unsqueeze", "x", 0, x) from None
    try:
        if type(axis) is int:                   # torch.unsqueeze parses faster than the method
            return wrap(torch.unsqueeze(t, axis))
        for a in _int_list(axis):
            t = t.unsqueeze(a)
        return wrap(t)
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def unsqueeze_(x, axis, name=None):
    return _inplace(x, unsqueeze(x, axis)._t)


@fast_path("x_ints", torch.broadcast_to)
def expand(x, shape, name=None):
    """Broadcast x to ``shape`` (-1 keeps a dim)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("expand", "x", 0, x) from None
    if type(shape) is not list and type(shape) is not tuple:
        shape = shape_arg(shape, "expand")
    try:                                # torch.broadcast_to(t, s) is t.expand(s), parsed faster
        return wrap(torch.broadcast_to(t, shape))
    except (RuntimeError, TypeError) as e:
        if isinstance(e, TypeError):
            return wrap(t.expand(shape_arg(shape, "expand")))
        raise _invalid(e) from None


broadcast_to = expand


def expand_as(x, y, name=None):
    try:
        return wrap(_tensor(x, "expand_as").expand_as(_tensor(y, "expand_as", "y", 1)))
    except RuntimeError as e:
        raise _invalid(e) from None


def broadcast_shape(x_shape, y_shape):
    """The broadcast of two shapes, as a list."""
    try:
        return list(torch.broadcast_shapes(tuple(x_shape), tuple(y_shape)))
    except RuntimeError as e:
        raise _invalid(e) from None


def broadcast_tensors(input, name=None):
    try:
        return [wrap(t) for t in torch.broadcast_tensors(*_tensors(input, "broadcast_tensors"))]
    except RuntimeError as e:
        raise _invalid(e) from None


def tile(x, repeat_times, name=None):
    t = _tensor(x, "tile")
    try:
        return wrap(t.tile(_int_list(repeat_times)))
    except RuntimeError as e:
        raise _invalid(e) from None


def atleast_1d(*inputs, name=None):
    return _atleast(inputs, torch.atleast_1d)


def atleast_2d(*inputs, name=None):
    return _atleast(inputs, torch.atleast_2d)


def atleast_3d(*inputs, name=None):
    return _atleast(inputs, torch.atleast_3d)


def _atleast(inputs, fn):
    """One input gives one Tensor, several give a list (Paddle's rule)."""
    out = [wrap(fn(v._t if isinstance(v, Tensor) else torch.as_tensor(v))) for v in inputs]
    return out[0] if len(out) == 1 else out


# ---------------------------------------------------------------------- join and split
@fast_path("seq", torch.cat)
def concat(x, axis=0, name=None):
    """Join tensors of one dtype along ``axis`` (Paddle refuses mixed dtypes)."""
    ts = []
    try:
        for v in x:                             # a loop: a comprehension is a frame in 3.11
            ts.append(v._t)
    except AttributeError:
        ts = _tensors(x, "concat")
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


@fast_path("seq", torch.stack)
def stack(x, axis=0, name=None):
    """Stack tensors of one shape and dtype along a new ``axis``."""
    ts = []
    try:
        for v in x:                             # as in concat
            ts.append(v._t)
    except AttributeError:
        ts = _tensors(x, "stack")
    dt = ts[0].dtype
    for s in ts:
        if s.dtype is not dt:
            _same_dtype(ts, "stack")
    try:                                        # as cat, stack(ts) parses faster
        return wrap(torch.stack(ts) if type(axis) is int and axis == 0 else
                    torch.stack(ts, axis))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def _joined(torch_fn, api):
    def join(x, name=None):
        try:
            return wrap(torch_fn(_tensors(x, api)))
        except (RuntimeError, IndexError) as e:
            raise _invalid(e) from None
    join.__name__ = api
    join.__doc__ = f"``torch.{torch_fn.__name__}`` for a list of tensors of one dtype."
    return join


vstack = _joined(torch.vstack, "vstack")
row_stack = _joined(torch.vstack, "row_stack")
hstack = _joined(torch.hstack, "hstack")
dstack = _joined(torch.dstack, "dstack")
column_stack = _joined(torch.column_stack, "column_stack")


def split(x, num_or_sections, axis=0, name=None):
    """Split into ``num_or_sections`` equal parts (must divide the axis), or into parts of the
    listed sizes (one of them may be -1: the rest)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("split", "x", 0, x) from None
    if type(axis) is not int:
        axis = _int(axis)
    try:
        n = t.shape[axis]
    except IndexError as e:
        raise _invalid(e) from None
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


hsplit = _split_at(1, 1, "hsplit")
vsplit = _split_at(0, 2, "vsplit")
dsplit = _split_at(2, 3, "dsplit")


def unstack(x, axis=0, num=None):
    """The slices of x along ``axis``, as a list."""
    try:
        return [wrap(p) for p in _tensor(x, "unstack").unbind(axis)]
    except IndexError as e:
        raise _invalid(e) from None


def unbind(input, axis=0):
    if not isinstance(axis, int):
        raise TypeError(f"The type of 'axis'  must be int, but received {type(axis)}.")
    return unstack(input, axis)


# ---------------------------------------------------------------------- slicing
def _slices(t, axes, starts, ends, strides=None):
    idx = [_SLICE_ALL] * t.dim()
    starts, ends = _int_list(starts), _int_list(ends)
    strides = [1] * len(starts) if strides is None else _int_list(strides)
    for a, s, e, st in zip(_int_list(axes), starts, ends, strides):
        idx[a] = _py_slice(s, e, st)
    return tuple(idx)


_py_slice = slice
_SLICE_ALL = _py_slice(None)


def slice(input, axes, starts, ends):
    """``input[starts:ends]`` along each of ``axes`` (out-of-range bounds are clamped)."""
    t = _tensor(input, "slice", "input")
    axes, starts, ends = _int_list(axes), _int_list(starts), _int_list(ends)
    if not axes:
        raise ValueError("Input axes should not be an empty list/tuple.")
    for what, v in (("starts", starts), ("ends", ends)):
        if len(v) != len(axes):
            raise ValueError(f"(InvalidArgument) The length of axes ({len(axes)}) and length of "
                             f"{what} ({len(v)}) should be same.")
    return wrap(t[_slices(t, axes, starts, ends)])


def slice_scatter(x, value, axes, starts, ends, strides, name=None):
    """A copy of x with ``value`` written into the strided slice (differentiable in both)."""
    t = _tensor(x, "slice_scatter")
    v = _tensor(value, "slice_scatter", "value", 1)
    out = t.clone()
    try:
        out[_slices(t, axes, starts, ends, strides)] = v.to(t.dtype)
    except RuntimeError as e:
        raise _invalid(e) from None
    return wrap(out)


# ---------------------------------------------------------------------- gather / scatter
def gather(x, index, axis=None, name=None):
    """Rows (or entries along ``axis``) of x picked by a 1-d index; a 0-d index drops the axis."""
    try:
        t, i = x._t, index._t
    except AttributeError:
        raise not_tensor("gather", "x" if not isinstance(x, Tensor) else "index",
                         0 if not isinstance(x, Tensor) else 1,
                         x if not isinstance(x, Tensor) else index) from None
    axis = 0 if axis is None else _int(axis)
    if i.dim() == 0:
        return wrap(t.index_select(axis, i.reshape(1)).squeeze(axis))
    if i.dim() == 2 and i.shape[1] == 1:
        i = i.reshape(-1)
    elif i.dim() != 1:
        raise ValueError("(InvalidArgument) The index of gather should be 1-D (or 2-D with last "
                         f"dim 1), but got shape {list(i.shape)}.")
    return wrap(t.index_select(axis, i))


def gather_nd(x, index, name=None):
    """x at the coordinates in the last dim of ``index`` (fewer coordinates than x.ndim pick
    whole slices)."""
    t = _tensor(x, "gather_nd")
    i = _tensor(index, "gather_nd", "index", 1)
    k = i.shape[-1]
    if k == 0:
        return wrap(t.expand(tuple(i.shape[:-1]) + tuple(t.shape)))
    return wrap(t[tuple(i.unbind(-1))])


def scatter(x, index, updates, overwrite=True, name=None):
    """A copy of x with rows ``index`` replaced by ``updates`` (overwrite), or zeroed and then
    summed with all updates aimed at them (``overwrite=False``)."""
    t = _tensor(x, "scatter")
    i = _tensor(index, "scatter", "index", 1).reshape(-1).to(torch.int64)
    u = _tensor(updates, "scatter", "updates", 2)
    if overwrite:
        return wrap(t.index_copy(0, i, u))
    return wrap(t.index_fill(0, i, 0).index_add(0, i, u))


def scatter_(x, index, updates, overwrite=True, name=None):
    writable(x)
    t = x._t
    i = index._t.reshape(-1).to(torch.int64)
    if overwrite:
        t.index_copy_(0, i, updates._t)
    else:
        t.index_fill_(0, i, 0).index_add_(0, i, updates._t)
    return x


def _along_shapes(t, i, axis):
    """t and i broadcast against each other in every dim but ``axis``."""
    nd = t.dim()
    axis %= nd
    a = list(t.shape)
    b = list(i.shape)
    a[axis] = b[axis] = 1
    common = list(torch.broadcast_shapes(tuple(a), tuple(b)))
    ts, is_ = common[:], common[:]
    ts[axis], is_[axis] = t.shape[axis], i.shape[axis]
    return t.expand(ts), i.expand(is_), axis


def take_along_axis(arr, indices, axis, broadcast=True):
    """numpy's ``take_along_axis`` (indices broadcast against arr unless broadcast=False)."""
    t = _tensor(arr, "take_along_axis", "arr")
    i = _tensor(indices, "take_along_axis", "indices", 1)
    nd = t.dim()
    if isinstance(axis, int) and not -nd <= axis < nd:
        raise AssertionError(f"'axis'  must be in the range of [-{nd}, {nd})")
    try:
        if broadcast:
            t, i, axis = _along_shapes(t, i, axis)
        return wrap(torch.gather(t, axis, i))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


_REDUCE = {"add": "sum", "mul": "prod", "multiply": "prod", "mean": "mean", "amin": "amin",
           "amax": "amax"}


def put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True,
                   broadcast=True):
    """A copy of arr with ``values`` put (or reduced with ``reduce``) at ``indices`` along
    ``axis``."""
    t = _tensor(arr, "put_along_axis", "arr")
    i = _tensor(indices, "put_along_axis", "indices", 1)
    try:
        if broadcast:
            nd = t.dim()
            axis %= nd
            shape = list(t.shape)
            shape[axis] = i.shape[axis]
            i = i.expand(shape)
        v = values._t if isinstance(values, Tensor) else torch.tensor(values, device=t.device)
        if not broadcast and v.dim() == i.dim() and v.shape != i.shape and all(
                m >= n for m, n in zip(v.shape, i.shape)):
            v = v[tuple(builtins.slice(0, n) for n in i.shape)]    # its leading part, as torch
        v = v.to(t.dtype).expand(i.shape) if v.shape != i.shape else v.to(t.dtype)
        if reduce == "assign":
            return wrap(t.scatter(axis, i, v))
        if reduce not in _REDUCE:
            raise ValueError(f"(InvalidArgument) put_along_axis(): reduce must be one of assign, "
                             f"add, mul, multiply, mean, amin, amax, but got {reduce}")
        return wrap(t.scatter_reduce(axis, i, v, _REDUCE[reduce], include_self=include_self))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def put_along_axis_(arr, indices, values, axis, reduce="assign", include_self=True,
                    broadcast=True):
    writable(arr)
    out = put_along_axis(arr, indices, values, axis, reduce, include_self, broadcast)
    arr._t.copy_(out._t)
    return arr


def _index_put_args(x, indices, value, api):
    t = _tensor(x, api)
    idx = tuple(_tensor(i, api, "indices", 1) for i in indices)
    v = value._t if isinstance(value, Tensor) else torch.tensor(value, device=t.device)
    return t, idx, v.to(t.dtype)


def index_put(x, indices, value, accumulate=False, name=None):
    """A copy of x with ``value`` written (or added, ``accumulate``) at the advanced index
    ``tuple(indices)``."""
    t, idx, v = _index_put_args(x, indices, value, "index_put")
    try:
        return wrap(t.index_put(idx, v, accumulate))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def index_put_(x, indices, value, accumulate=False, name=None):
    writable(x)
    t, idx, v = _index_put_args(x, indices, value, "index_put_")
    t.index_put_(idx, v, accumulate)
    return x


def _fill_value(t, value):
    if isinstance(value, Tensor):
        v = value._t
        return v.reshape(()).to(t.dtype) if v.dim() else v.to(t.dtype)
    return value


def masked_fill(x, mask, value, name=None):
    """x with ``value`` where ``mask`` is True (x and mask broadcast together)."""
    t = _tensor(x, "masked_fill")
    m = _tensor(mask, "masked_fill", "mask", 1)
    if m.shape != t.shape:
        t, m = torch.broadcast_tensors(t, m)
    return wrap(t.masked_fill(m, _fill_value(t, value)))


def masked_fill_(x, mask, value, name=None):
    writable(x)
    x._t.masked_fill_(mask._t, _fill_value(x._t, value))
    return x


# ---------------------------------------------------------------------- diagonals, triangles
def triu(x, diagonal=0, name=None):
    try:
        return wrap(torch.triu(x._t, diagonal))
    except AttributeError:
        raise not_tensor("triu", "x", 0, x) from None
    except RuntimeError as e:
        raise _invalid(e) from None


def tril(x, diagonal=0, name=None, *, out=None):
    try:
        r = torch.tril(x._t, diagonal)
    except AttributeError:
        raise not_tensor("tril", "x", 0, x) from None
    except RuntimeError as e:
        raise _invalid(e) from None
    return finish(wrap(r), out)


def triu_(x, diagonal=0, name=None):
    writable(x)
    x._t.triu_(diagonal)
    return x


def tril_(x, diagonal=0, name=None):
    writable(x)
    x._t.tril_(diagonal)
    return x


def diag(x, offset=0, padding_value=0, name=None):
    """A 1-d x becomes a square matrix with x on diagonal ``offset`` (the rest
    ``padding_value``); a 2-d x gives that diagonal."""
    t = _tensor(x, "diag")
    if t.dim() == 1:
        out = torch.diag(t, offset)
        if padding_value != 0:
            on = torch.diag(torch.ones_like(t, dtype=torch.bool), offset)
            out = out.masked_fill(~on, padding_value)
        return wrap(out)
    if t.dim() == 2:
        return wrap(torch.diagonal(t, offset).clone())
    raise ValueError(f"(InvalidArgument) diag(): the input must be 1-D or 2-D, but got "
                     f"{t.dim()}-D.")


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    t = _tensor(input, "diag_embed", "input")
    try:
        return wrap(torch.diag_embed(t, offset, dim1, dim2))
    except IndexError as e:
        raise _out_of_range(e) from None
    except RuntimeError as e:
        raise _invalid(e) from None


def fill_diagonal_(x, value, offset=0, wrap=False, name=None):
    """Fill the diagonal of x in place; Paddle walks the flat data with the stride of one step
    along every axis (so N-d x must have equal dims) and, without ``wrap``, stops after the first
    ``ncols`` rows."""
    writable(x)
    t = x._t
    shape = t.shape
    cols = shape[1]
    step = sum(t.new_empty(shape).stride()) if t.dim() else 1
    size = t.numel() if (wrap or t.dim() != 2) else min(t.numel(), cols * cols)
    pos = torch.arange(0, size, step, device=t.device)
    pos = pos[((pos % cols) + offset >= 0) & ((pos % cols) + offset < cols)] + offset
    flat = t.view(-1) if t.is_contiguous() else None
    if flat is None:
        tmp = t.contiguous()
        tmp.view(-1)[pos] = value
        t.copy_(tmp)
    else:
        flat[pos] = value
    return x


def _fill_diagonal_tensor(x, y, offset, dim1, dim2, api):
    t = _tensor(x, api)
    v = _tensor(y, api, "y", 1).to(t.dtype)
    try:
        return t, v, torch.diagonal(t, offset, dim1, dim2)
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1, name=None):
    """A copy of x with ``y`` written on the diagonal (dim1, dim2, offset); y's shape is the
    diagonal's: the other dims, then the diagonal length."""
    t, v, d = _fill_diagonal_tensor(x, y, offset, dim1, dim2, "fill_diagonal_tensor")
    try:
        return wrap(torch.diagonal_scatter(t, v.expand(d.shape), offset, dim1, dim2))
    except RuntimeError as e:
        raise _invalid(e) from None


def fill_diagonal_tensor_(x, y, offset=0, dim1=0, dim2=1, name=None):
    writable(x)
    t, v, d = _fill_diagonal_tensor(x, y, offset, dim1, dim2, "fill_diagonal_tensor_")
    d.copy_(v)
    return x


# ---------------------------------------------------------------------- misc
def meshgrid(*args, **kwargs):
    """Coordinate grids, 'ij' indexing; takes tensors or one list of tensors."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = args[0]
    return [wrap(g) for g in torch.meshgrid(*[_tensor(a, "meshgrid") for a in args],
                                            indexing="ij")]


def vander(x, n=None, increasing=False, name=None):
    """Columns of powers of the 1-d x (decreasing unless ``increasing``), as a running product
    (torch.vander's own backward breaks on its in-place steps)."""
    t = _tensor(x, "vander")
    if t.dim() != 1:
        raise ValueError("(InvalidArgument) vander(): the input x must be a 1-D Tensor.")
    n = t.shape[0] if n is None else n
    if n < 0:
        raise ValueError("(InvalidArgument) vander(): n must be non-negative.")
    if n == 0:
        return wrap(t.new_empty((t.shape[0], 0)))
    cols = torch.cat([torch.ones_like(t).unsqueeze(1), t.unsqueeze(1).expand(-1, n - 1)], 1)
    out = cols.cumprod(1, dtype=t.dtype)
    return wrap(out if increasing else out.flip(1))


def diff(x, n=1, axis=-1, prepend=None, append=None, name=None, *, out=None):
    """n-th forward difference along ``axis`` (bool tensors: logical xor)."""
    t = _tensor(x, "diff")
    if n < 1:
        raise ValueError(f"(InvalidArgument) diff(): n must be a positive integer, but got {n}")
    if t.dim() == 0:
        raise IndexError("(OutOfRange) diff(): the input must be at least 1-D, but got 0-D")
    p = None if prepend is None else _tensor(prepend, "diff", "prepend", 4)
    a = None if append is None else _tensor(append, "diff", "append", 5)
    try:
        r = torch.diff(t, n, axis, p, a)
    except IndexError as e:
        raise _out_of_range(e) from None
    except RuntimeError as e:
        raise _invalid(e) from None
    return finish(wrap(r), out)


def repeat_interleave(x, repeats, axis=None, name=None, *, output_size=None):
    t = _tensor(x, "repeat_interleave")
    if isinstance(repeats, Tensor):
        r = repeats._t
        try:        # torch broadcasts one repeat count, Paddle wants one per element
            n = t.numel() if axis is None else t.shape[axis]
        except IndexError as e:
            raise _out_of_range(e) from None
        if r.numel() != n:
            raise ValueError("(InvalidArgument) The length of Input(RepeatsTensor) must be the "
                             "same as length of Input(X) in axis. But received: "
                             f"[{r.numel()}], required: [{n}].")
    else:
        r = repeats
        if r <= 0:
            raise ValueError("(InvalidArgument) repeats should be larger than zero")
    try:
        return wrap(torch.repeat_interleave(t, r, axis, output_size=output_size))
    except IndexError as e:
        raise _out_of_range(e) from None
    except RuntimeError as e:
        raise _invalid(e) from None


def cartesian_prod(x, name=None):
    return wrap(torch.cartesian_prod(*_tensors(x, "cartesian_prod")))


def shape(input):
    """The shape as a 1-d int64 Tensor."""
    t = _tensor(input, "shape", "input")
    return wrap(torch.tensor(t.shape, dtype=torch.int64))


def numel(x, name=None):
    """The element count as a 0-d int64 Tensor."""
    return wrap(torch.tensor(_tensor(x, "numel").numel(), dtype=torch.int64))


def clone(x, name=None):
    try:
        return wrap(x._t.clone())
    except AttributeError:
        raise not_tensor("clone", "x", 0, x) from None


def flip(x, axis, name=None):
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("flip", "x", 0, x) from None
    try:
        return wrap(t.flip(axis if type(axis) is not int else (axis,)))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def roll(x, shifts, axis=None, name=None):
    """Shift elements along ``axis`` (the flattened tensor when None), wrapping around."""
    t = _tensor(x, "roll")
    s = _int_list(shifts) if not isinstance(shifts, int) else shifts
    try:
        if axis is None:
            return wrap(torch.roll(t, s))
        return wrap(torch.roll(t, s, axis if isinstance(axis, int) else _int_list(axis)))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None,
           dtype="int64", sorted=True, name=None):
    """Sorted unique values (of the flattened x, or slices along ``axis``), optionally with the
    first index of each, the inverse map and the counts, in ``dtype``."""
    t = _tensor(x, "unique")
    idt = _dt.convert_dtype(dtype).torch
    if axis is None:
        t = t.reshape(-1)
        axis = 0
    out, inverse, counts = torch.unique(t, sorted=True, return_inverse=True,
                                        return_counts=True, dim=axis)
    res = [wrap(out)]
    if return_index:
        n = t.shape[axis]
        first = torch.full((out.shape[axis],), n, dtype=torch.int64, device=t.device)
        first = first.scatter_reduce(0, inverse, torch.arange(n, device=t.device), "amin")
        res.append(wrap(first.to(idt)))
    if return_inverse:
        res.append(wrap(inverse.to(idt)))
    if return_counts:
        res.append(wrap(counts.to(idt)))
    return res[0] if len(res) == 1 else tuple(res)


as_methods(globals(), [
    "reshape", "reshape_", "transpose", "concat", "stack", "split", "chunk", "squeeze",
    "squeeze_", "unsqueeze", "unsqueeze_", "expand", "expand_as", "broadcast_to", "flatten",
    "flatten_", "unflatten", "tile", "slice",
    "slice_scatter", "tensor_split", "hsplit", "vsplit", "dsplit", "unstack", "unbind",
    "atleast_1d", "atleast_2d", "atleast_3d", "gather", "gather_nd", "scatter", "scatter_",
    "take_along_axis", "put_along_axis", "put_along_axis_", "index_put", "index_put_",
    "masked_fill", "masked_fill_", "roll", "triu", "triu_", "tril", "tril_", "diag",
    "diag_embed", "fill_diagonal_", "fill_diagonal_tensor", "fill_diagonal_tensor_", "vander",
    "diff", "repeat_interleave", "flip", "moveaxis", "unique"])


# ---------------------------------------------------------------------- diagonals, scatters
def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1, name=None):
    """A copy of x with its diagonal (as ``diagonal(x, offset, axis1, axis2)``) set to y."""
    from .math import diagonal
    t = _tensor(x, "diagonal_scatter")
    v = _tensor(y, "diagonal_scatter", "y", 1)
    d = diagonal(x, offset, axis1, axis2)._t
    if d.shape != v.shape:
        raise AssertionError(f"the y shape should be {list(d.shape)}")
    return wrap(torch.diagonal_scatter(t, v.to(t.dtype), offset, axis1, axis2))


def select_scatter(x, values, axis, index, name=None):
    """A copy of x with the slice at ``index`` along ``axis`` set to ``values``."""
    t = _tensor(x, "select_scatter")
    v = _tensor(values, "select_scatter", "values", 1)
    want = t.shape[:axis % t.dim()] + t.shape[axis % t.dim() + 1:]
    if v.shape != want:
        raise RuntimeError("expected values to have a size equal to the slice of x. value size = "
                           f"paddle.Size({list(v.shape)}) slice size = paddle.Size({list(want)})")
    return wrap(torch.select_scatter(t, v.to(t.dtype), axis, index))


def diagflat(x, offset=0, name=None):
    """A 2-d tensor with the flattened x on its ``offset`` diagonal."""
    return wrap(torch.diagflat(_tensor(x, "diagflat"), offset))


def _index_nd(t, i, u, api):
    """The coordinate tuple of ``i`` ([..., k]) into t; Paddle's ValueError when updates u do
    not have shape i.shape[:-1] + t.shape[k:]."""
    k = i.shape[-1]
    want = tuple(i.shape[:-1]) + tuple(t.shape[k:])
    if tuple(u.shape) != want:
        raise ValueError(f"(InvalidArgument) {api}: Updates has wrong shape. Expected "
                         f"{list(want)}, but received {list(u.shape)}.")
    return tuple(i.unbind(-1))


def scatter_nd_add(x, index, updates, name=None):
    """A copy of x with ``updates`` added at the coordinates in ``index``'s last dim (repeats
    accumulate)."""
    t = _tensor(x, "scatter_nd_add")
    i = _tensor(index, "scatter_nd_add", "index", 1)
    u = _tensor(updates, "scatter_nd_add", "updates", 2)
    return wrap(t.index_put(_index_nd(t, i, u, "scatter_nd_add"), u.to(t.dtype),
                            accumulate=True))


def scatter_nd(index, updates, shape, name=None):
    """Zeros of ``shape`` (updates' dtype) with ``updates`` summed in at ``index``."""
    u = _tensor(updates, "scatter_nd", "updates", 1)
    z = torch.zeros(shape_arg(shape, "scatter_nd", 2), dtype=u.dtype, device=u.device)
    return scatter_nd_add(wrap(z), index, updates)


def _index_add_args(x, index, axis, value, api):
    t = _tensor(x, api)
    i = _tensor(index, api, "index", 1)
    v = _tensor(value, api, "value", 3)
    ax = axis % t.dim()
    for d in range(t.dim()):
        if d != ax and (v.dim() != t.dim() or v.shape[d] != t.shape[d]):
            raise ValueError("(InvalidArgument) The add_value parameter does not supported "
                             f"broadcast, so input_dim[i]({t.shape[d]}) must be equal to "
                             f"add_value_dim[i]({v.shape[d] if d < v.dim() else 1}) when i({d}) "
                             f"!= axis({ax}).")
    return t, i, v.to(t.dtype), ax


def index_add(x, index, axis, value, alpha=1, name=None, *, out=None):
    """A copy of x with alpha * ``value`` slices added at ``index`` along ``axis``."""
    t, i, v, ax = _index_add_args(x, index, axis, value, "index_add")
    r = torch.index_add(t, ax, i, v, alpha=alpha)
    if out is not None:
        out._t = r
        return out
    return wrap(r)


def index_add_(x, index, axis, value, alpha=1, name=None):
    t, i, v, ax = _index_add_args(x, index, axis, value, "index_add_")
    writable(x).index_add_(ax, i, v, alpha=alpha)
    return x


def _fill_args(index, value, api):
    """index as int64 and value as torch takes them (a number or a 0-d tensor)."""
    i = _tensor(index, api, "index", 1)
    if i.dtype is not torch.int64:
        i = i.long()
    return i, (value._t if type(value) is Tensor else value)


def index_fill(x, index, axis, value, name=None):
    """A copy of x with the slices at ``index`` along ``axis`` set to ``value``."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("index_fill", "x", 0, x) from None
    return wrap(torch.index_fill(t, axis, *_fill_args(index, value, "index_fill")))


def index_fill_(x, index, axis, value, name=None):
    writable(x).index_fill_(axis, *_fill_args(index, value, "index_fill_"))
    return x


def masked_scatter(x, mask, value, name=None):
    """A copy of x with the places where ``mask`` (broadcast) is True filled, in order, from
    the leading elements of ``value``."""
    t = _tensor(x, "masked_scatter")
    m = _tensor(mask, "masked_scatter", "mask", 1)
    v = _tensor(value, "masked_scatter", "value", 2)
    try:
        return wrap(torch.masked_scatter(t, m, v.to(t.dtype)))
    except RuntimeError as e:
        raise _invalid(e) from None


def masked_scatter_(x, mask, value, name=None):
    t = writable(x)
    m = _tensor(mask, "masked_scatter_", "mask", 1)
    try:
        t.masked_scatter_(m, _tensor(value, "masked_scatter_", "value", 2).to(t.dtype))
    except RuntimeError as e:
        raise _invalid(e) from None
    return x


def take(x, index, mode="raise", name=None):
    """Elements of the flattened x at ``index`` (shape of index); negative indices count from
    the end; ``mode`` 'wrap' takes them modulo the size, 'clip' clamps them."""
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"'mode' in 'take' should be 'raise', 'wrap', 'clip', but received "
                         f"{mode}.")
    t = _tensor(x, "take")
    if not isinstance(index, Tensor):
        raise TypeError(f"The type of 'index' must be Tensor, but got {type(index)}")
    i = index._t
    if i.dtype not in (torch.int32, torch.int64):
        raise TypeError("The data type of 'index' must be one of ['int32', 'int64'], but got "
                        f"paddle.{_dt.from_torch_dtype(i.dtype).name}")
    flat = t.reshape(-1)
    n = flat.shape[0]
    j = i.reshape(-1)
    if mode == "raise":
        j = torch.where(j < 0, j + n, j)
    elif mode == "wrap":
        j = torch.remainder(j, n)
    elif n > 0:
        j = j.clamp(0, n - 1)
    try:
        return wrap(flat.index_select(0, j).reshape(i.shape))
    except (IndexError, RuntimeError):
        raise ValueError(f"(InvalidArgument) Variable value (index) of OP(index_select) "
                         f"expected >= -{n} and < {n}.") from None


def multiplex(inputs, index, name=None):
    """Row i of the result is row i of ``inputs[index[i]]`` (index: int32 [N, 1])."""
    ts = [_tensor(v, "multiplex", "inputs", 0) for v in inputs]
    i = _tensor(index, "multiplex", "index", 1)
    if i.dtype is not torch.int32:
        raise ValueError("(InvalidArgument) The type of data we are trying to retrieve (int32) "
                         "does not match the type of data "
                         f"({_dt.from_torch_dtype(i.dtype).name}) currently contained in the "
                         "container.")
    if ts[0].dim() < 2:
        raise ValueError("(InvalidArgument) The rank of candidate tensors must be not less "
                         "than 2.")
    rows = torch.arange(ts[0].shape[0], device=ts[0].device)
    return wrap(torch.stack(ts)[i.reshape(-1).long(), rows])


def shard_index(input, index_num, nshards, shard_id, ignore_value=-1):
    """Labels of shard ``shard_id`` (of ``nshards`` equal ranges over index_num) shifted to
    start at 0; labels of other shards become ``ignore_value``."""
    t = _tensor(input, "shard_index", "input")
    if t.dim() < 2:
        raise ValueError("(InvalidArgument) Rank of Input(X) should be at least 2, but the value "
                         f"given is {t.dim()}.")
    if not 0 <= shard_id < nshards:
        raise ValueError(f"The shard_id({shard_id}) should be in [0, {nshards})")
    size = (index_num + nshards - 1) // nshards
    return wrap(torch.where(torch.div(t, size, rounding_mode="floor") == shard_id,
                            torch.remainder(t, size), torch.full_like(t, ignore_value)))


# ---------------------------------------------------------------------- views
def _byte_offset(t, offset, esize, api):
    if offset % esize:
        raise NotImplementedError(f"{api}(): an offset of {offset} bytes that is not a multiple "
                                  f"of the element size ({esize}) is not supported")
    return offset // esize


def as_strided(x, shape, stride, offset=0, name=None):
    """A view of x's memory with the given shape, strides (in elements) and ``offset`` (in
    bytes, from the start of the memory x views, as Paddle counts it)."""
    t = _tensor(x, "as_strided")
    off = _byte_offset(t, offset, t.element_size(), "as_strided")
    return wrap(torch.as_strided(t, shape_arg(shape, "as_strided"),
                                 shape_arg(stride, "as_strided", 2), off))


def view(x, shape_or_dtype, name=None):
    """A view of x with another shape (-1 infers one dim) or another dtype (the bytes
    reinterpreted; the last dim scales with the element size)."""
    t = _tensor(x, "view")
    if isinstance(shape_or_dtype, (list, tuple, Tensor)):
        try:
            return wrap(t.view(shape_or_dtype))       # a list of ints: straight to torch
        except (TypeError, RuntimeError):
            pass
        shp = shape_arg(shape_or_dtype, "view")
        try:
            return wrap(t.view(shp))
        except RuntimeError as e:
            if 0 in shp:
                raise RuntimeError(f"(Unavailable) {e}") from None
            raise ValueError("(InvalidArgument) The 'shape' in ReshapeOp is invalid. The input "
                             f"tensor X'size must be equal to the capacity of 'shape'. But "
                             f"received X's shape = {list(t.shape)}, 'shape' is {list(shp)}.") \
                from None
    return wrap(t.view(_dt.convert_dtype(shape_or_dtype).torch))


def view_as(x, other, name=None):
    """``view(x, other.shape)``."""
    return view(x, list(_tensor(other, "view_as", "other", 1).shape))


def unfold(x, axis, size, step, name=None):
    """A view with every window of ``size`` elements along ``axis``, ``step`` apart, in a new
    last dim."""
    t = _tensor(x, "unfold")
    n = t.shape[axis] if t.dim() else 1
    if size > n:
        raise ValueError(f"(InvalidArgument) paddle.unfold size({size}) must be less than "
                         f"shape[axis]({n}).")
    if step <= 0:
        raise ValueError("(InvalidArgument) paddle.unfold step must be greater than 0")
    return wrap(t.unfold(axis, size, step))


def set_(x, source=None, shape=None, stride=None, offset=0, name=None):
    """Make x a view of ``source``'s memory (an empty tensor when None) with ``shape``,
    ``stride`` (elements) and ``offset`` (bytes from the start of that memory); x keeps its
    dtype, so a source of another dtype is reinterpreted, as in Paddle."""
    t = writable(x)
    if source is None:
        with torch.no_grad():
            t.set_(torch.empty(0, dtype=t.dtype, device=t.device))
        return x
    s = _tensor(source, "set_", "source", 1)
    shp = list(s.shape) if shape is None else list(shape_arg(shape, "set_"))
    if stride is None:
        stride, acc = [], 1
        for d in reversed(shp):
            stride.insert(0, acc)
            acc *= d
    with torch.no_grad():
        t.set_(s.untyped_storage(), _byte_offset(t, offset, t.element_size(), "set_"), shp,
               list(stride))
    return x


def fill_(x, value):
    """Fill x with the number ``value`` in place."""
    if not isinstance(value, (int, float)):
        raise TypeError(f"The type of 'value'  must be int or float, but received "
                        f"{type(value)}.")
    writable(x).fill_(value)
    return x


def is_coalesced(x):
    """Paddle defines it for sparse COO tensors only: a dense tensor is its TypeError."""
    raise TypeError("(InvalidType) Method is_coalesced only support sparse coo tensor.")


def coalesce(x, name=None):
    """Paddle defines it for sparse COO tensors only: a dense tensor is NotImplementedError."""
    raise NotImplementedError("(Unimplemented) The kernel of (coalesce) for input tensors is "
                              "unimplemented, please check the type of input tensors.")


# ---------------------------------------------------------------------- slicing & co
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


def reverse(x, axis, name=None):
    """x flipped along ``axis`` (an int or a list; an empty list copies)."""
    t = _tensor(x, "reverse")
    axes = _int_list(axis)
    return wrap(t.flip(axes) if axes else t.clone())


def rot90(x, k=1, axes=[0, 1], name=None):
    """x rotated by 90 degrees k times in the plane of ``axes``, from the first toward the
    second."""
    t = _tensor(x, "rot90")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError(f"expected total rotation axes == 2, but got axes = {len(axes)}")
    if t.dim() < 2:
        raise ValueError(f"expected total dims >= 2, but got total dims = {t.dim()}")
    if axes[0] % t.dim() == axes[1] % t.dim():
        raise ValueError(f"expected rotation axes to be different, but got axis0 = {axes[0]}, "
                         f"and axis1 = {axes[1]}")
    return wrap(torch.rot90(t, k, axes))


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


def rank(input):
    """The number of dimensions as a 0-d int32 tensor."""
    t = _tensor(input, "rank", "input")
    return wrap(torch.tensor(t.dim(), dtype=torch.int32))


def tolist(x):
    """The elements as (nested) Python lists."""
    return _tensor(x, "tolist").tolist()


def combinations(x, r=2, with_replacement=False, name=None):
    """All length-r combinations of the elements of a 1-d x, as rows."""
    t = _tensor(x, "combinations")
    if t.dim() != 1:
        raise TypeError(f"Expect a 1-D vector, but got x shape paddle.Size({list(t.shape)})")
    if r == 0:
        return wrap(t.new_empty(0))
    return wrap(torch.combinations(t, r, with_replacement).reshape(-1, r))


def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype="int64",
                       name=None):
    """x with runs of equal consecutive values (or slices along ``axis``) collapsed, with the
    inverse map (over the flattened x when axis is None) and run lengths in ``dtype``."""
    t = _tensor(x, "unique_consecutive")
    idt = _dt.convert_dtype(dtype).torch
    src = t.reshape(-1) if axis is None else t
    out, inverse, counts = torch.unique_consecutive(src, return_inverse=True, return_counts=True,
                                                    dim=0 if axis is None else axis)
    res = [wrap(out)]
    if return_inverse:
        res.append(wrap(inverse.to(idt)))
    if return_counts:
        res.append(wrap(counts.to(idt)))
    return res[0] if len(res) == 1 else tuple(res)


_MORE = ["diagonal_scatter", "select_scatter", "diagflat", "scatter_nd", "scatter_nd_add",
         "index_add", "index_add_", "index_fill", "index_fill_", "masked_scatter",
         "masked_scatter_", "take", "multiplex", "shard_index", "as_strided", "view", "view_as",
         "unfold", "strided_slice", "reverse", "rot90", "crop", "rank", "tolist",
         "combinations", "unique_consecutive"]
__all__ += _MORE
as_methods(globals(), [n for n in _MORE if n not in ("scatter_nd", "crop", "tolist")] + [
    "set_", "fill_", "is_coalesced", "coalesce"])


# ------------------------------------------------------------ Paddle 3's torch-style names
def permute(input, *dims, **kwargs):
    """``transpose(input, dims)``; the dims given as one sequence (or ``dims=``) or as ints."""
    if "dims" in kwargs:
        dims = (kwargs.pop("dims"),)
    if kwargs:
        raise TypeError(f"permute() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if not dims:
        raise TypeError("permute() missing 1 required positional argument: 'dims'")
    if len(dims) == 1 and isinstance(dims[0], (list, tuple, Tensor)):
        dims = dims[0]
    return transpose(input, list(dims) if isinstance(dims, tuple) else dims)


def swapaxes(x, perm, *dims, name=None):
    """Paddle 3.3.1's alias of ``transpose(x, perm)``, which also takes torch's
    ``swapaxes(x, dim0, dim1)``."""
    if isinstance(perm, int) and len(dims) == 1 and isinstance(dims[0], int):
        t = _tensor(x, "transpose")
        try:
            return wrap(t.transpose(perm, dims[0]))
        except (RuntimeError, IndexError) as e:
            raise _invalid(e) from None
    return transpose(x, perm)


swapdims = swapaxes


def take_along_dim(arr=None, indices=None, axis=None, broadcast=True, *, out=None, input=None,
                   dim=None):
    """``take_along_axis`` with torch's names ``input`` and ``dim`` accepted."""
    r = take_along_axis(input if arr is None else arr, indices, dim if axis is None else axis,
                        broadcast)
    return finish(r, out)


def ravel(input):
    """``flatten(input)``."""
    return flatten(input)


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


def repeat(input, *repeats, **kwargs):
    """``tile(input, repeats)`` (Tensor.repeat; the repeats as one sequence (or ``repeats=``)
    or separate ints)."""
    if "repeats" in kwargs:
        repeats = (kwargs.pop("repeats"),)
    if kwargs:
        raise TypeError(f"repeat() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if len(repeats) == 1:
        repeats = repeats[0]
        if isinstance(repeats, int):
            repeats = [repeats]
    return tile(input, repeats)


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


def scatter_add(input, dim, index, src):
    """``put_along_axis(input, index, src, dim, 'add', broadcast=False)``."""
    return put_along_axis(input, index, src, dim, "add", include_self=True, broadcast=False)


def scatter_add_(input, dim, index, src):
    return put_along_axis_(input, index, src, dim, "add", include_self=True, broadcast=False)


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """``put_along_axis`` with ``reduce`` ('sum', 'prod', 'mean', 'amin', 'amax')."""
    reduce = {"sum": "add", "prod": "multiply"}.get(reduce, reduce)
    return put_along_axis(input, index, src, dim, reduce, include_self, broadcast=False)


def block_diag(inputs, name=None):
    """The block-diagonal matrix of the (at most 2-D) tensors ``inputs``."""
    try:
        return wrap(torch.block_diag(*_tensors(inputs, "block_diag")))
    except RuntimeError as e:
        raise _invalid(e) from None


def broadcast_shapes(*shapes):
    """The broadcast of any number of shapes, as a list."""
    if not shapes:
        return []
    cur = list(shapes[0])
    for s in shapes[1:]:
        cur = broadcast_shape(cur, s)
    return cur


__all__ += ["permute", "swapaxes", "swapdims", "take_along_dim", "ravel", "narrow",
            "scatter_add", "scatter_add_", "scatter_reduce", "block_diag", "broadcast_shapes"]
as_methods(globals(), ["permute", "swapaxes", "swapdims", "take_along_dim", "ravel", "narrow",
                       "repeat", "split_with_sizes", "scatter_add", "scatter_add_",
                       "scatter_reduce", "block_diag", "broadcast_tensors", "broadcast_shape",
                       "broadcast_shapes"])
