"""Shape and layout ops: reshape, transpose, concat/stack/split and their relatives, squeeze,
expand/broadcast, flatten, tile, slice, gather/scatter, diagonal helpers, flip/roll, unique.

Paddle differs from torch mostly in argument names (``axis``, ``perm``, ``num_or_sections``),
in ``reshape``'s 0 ("keep this dim"), ``unsqueeze``'s sequential axis lists, ``concat`` and
``stack`` refusing mixed dtypes, and in raising ``ValueError`` where torch raises
``RuntimeError``/``IndexError`` for bad shapes and axes (``_invalid`` converts).
"""
import torch

from ..framework import dtype as _dt
from ..framework.tensor import Tensor, wrap, writable
from .common import as_methods, not_tensor, shape_arg

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
    try:
        return wrap(torch.movedim(x._t, source, destination))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def flatten(x, start_axis=0, stop_axis=-1, name=None):
    """Merge axes start_axis..stop_axis into one (a 0-d x gives shape [1])."""
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


def squeeze(x, axis=None, name=None):
    """Drop size-1 axes (all, or those in ``axis``; axes of other sizes are left alone)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("squeeze", "x", 0, x) from None
    try:
        if axis is None:
            return wrap(t.squeeze())
        if type(axis) is int:
            return wrap(t.squeeze(axis))
        return wrap(t.squeeze(tuple(_int_list(axis))))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def squeeze_(x, axis=None, name=None):
    return _inplace(x, squeeze(x, axis)._t)


def unsqueeze(x, axis, name=None):
    """Insert size-1 axes; a list of axes is applied one after another, each negative axis
    counted against the rank reached so far (Paddle's rule)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("unsqueeze", "x", 0, x) from None
    try:
        if type(axis) is int:
            return wrap(t.unsqueeze(axis))
        for a in _int_list(axis):
            t = t.unsqueeze(a)
        return wrap(t)
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def unsqueeze_(x, axis, name=None):
    return _inplace(x, unsqueeze(x, axis)._t)


def expand(x, shape, name=None):
    """Broadcast x to ``shape`` (-1 keeps a dim)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("expand", "x", 0, x) from None
    if type(shape) is not list and type(shape) is not tuple:
        shape = shape_arg(shape, "expand")
    try:
        return wrap(t.expand(shape))
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
def concat(x, axis=0, name=None):
    """Join tensors of one dtype along ``axis`` (Paddle refuses mixed dtypes)."""
    try:
        ts = [v._t for v in x]
    except AttributeError:
        ts = _tensors(x, "concat")
    dt = ts[0].dtype
    for s in ts:
        if s.dtype is not dt:
            _same_dtype(ts, "concat")
    try:
        return wrap(torch.cat(ts, axis if type(axis) is int else _int(axis)))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def stack(x, axis=0, name=None):
    """Stack tensors of one shape and dtype along a new ``axis``."""
    try:
        ts = [v._t for v in x]
    except AttributeError:
        ts = _tensors(x, "stack")
    dt = ts[0].dtype
    for s in ts:
        if s.dtype is not dt:
            _same_dtype(ts, "stack")
    try:
        return wrap(torch.stack(ts, axis))
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
        return [wrap(p) for p in t.split(n // num_or_sections, axis)]
    sections = _int_list(num_or_sections)
    if sections.count(-1) == 1:
        sections[sections.index(-1)] = n - (sum(sections) + 1)
    if sum(sections) != n or any(s < 0 for s in sections):
        raise ValueError("(InvalidArgument) Sum of Attr(num_or_sections) must be equal to the "
                         "input's size along the split dimension. But received Attr("
                         f"num_or_sections) = {list(num_or_sections)}, input(X)'s shape = "
                         f"{list(t.shape)}, Attr(dim) = {axis}.")
    return [wrap(p) for p in t.split(sections, axis)]


def chunk(x, chunks, axis=0, name=None):
    """``split`` into ``chunks`` equal parts (Paddle requires them to divide the axis)."""
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


def tril(x, diagonal=0, name=None):
    try:
        return wrap(torch.tril(x._t, diagonal))
    except AttributeError:
        raise not_tensor("tril", "x", 0, x) from None
    except RuntimeError as e:
        raise _invalid(e) from None


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
    except (RuntimeError, IndexError) as e:
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


def diff(x, n=1, axis=-1, prepend=None, append=None, name=None):
    """n-th forward difference along ``axis`` (bool tensors: logical xor)."""
    t = _tensor(x, "diff")
    p = None if prepend is None else _tensor(prepend, "diff", "prepend", 4)
    a = None if append is None else _tensor(append, "diff", "append", 5)
    try:
        return wrap(torch.diff(t, n, axis, p, a))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


def repeat_interleave(x, repeats, axis=None, name=None, *, output_size=None):
    t = _tensor(x, "repeat_interleave")
    r = repeats._t if isinstance(repeats, Tensor) else repeats
    try:
        return wrap(torch.repeat_interleave(t, r, axis, output_size=output_size))
    except (RuntimeError, IndexError) as e:
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
    "squeeze_", "unsqueeze", "unsqueeze_", "expand", "expand_as", "broadcast_to", "flatten", "flatten_", "unflatten", "tile", "slice",
    "slice_scatter", "tensor_split", "hsplit", "vsplit", "dsplit", "unstack", "unbind",
    "atleast_1d", "atleast_2d", "atleast_3d", "gather", "gather_nd", "scatter", "scatter_",
    "take_along_axis", "put_along_axis", "put_along_axis_", "index_put", "index_put_",
    "masked_fill", "masked_fill_", "roll", "triu", "triu_", "tril", "tril_", "diag",
    "diag_embed", "fill_diagonal_", "fill_diagonal_tensor", "fill_diagonal_tensor_", "vander",
    "diff", "repeat_interleave", "flip", "moveaxis", "unique"])
