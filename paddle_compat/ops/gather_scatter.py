"""Gather and scatter: read or write the entries an index tensor names.

``gather``/``gather_nd``/``take``/``take_along_axis`` read; ``scatter``, ``scatter_nd(_add)``,
``put_along_axis`` (with its reductions) and torch's ``scatter_add``/``scatter_reduce``,
``index_put``/``index_add``/``index_fill`` and ``masked_fill``/``masked_scatter`` write into a
copy (or in place, the ``_`` forms); ``multiplex`` and ``shard_index`` are Paddle's own.
"""
import builtins

import torch

from ..framework import dtype as _dt
from ..framework import mode as _mode
from ..framework.fastops import fast_path
from ..framework.tensor import Tensor, wrap, writable
from .common import finish, not_tensor, shape_arg
from .manip_common import _at_run_time, _int, _invalid, _tensor
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


# ---------------------------------------------------------------------- gather
@op(method=True)
@fast_path("index", torch.index_select)
def gather(x, index, axis=None, name=None):
    """Rows (or entries along ``axis``) of x picked by a 1-d index; a 0-d index drops the axis."""
    try:
        t, i = x._t, index._t
    except AttributeError:
        raise not_tensor("gather", "x" if not isinstance(x, Tensor) else "index",
                         0 if not isinstance(x, Tensor) else 1,
                         x if not isinstance(x, Tensor) else index) from None
    if isinstance(axis, Tensor) and _mode._static and not isinstance(axis._t, torch.Tensor):
        # an axis Variable, known when the program runs; the static shape Paddle reports
        # then is the one for axis 0
        dims = list(x.shape)
        if dims:
            dims[0] = int(index.shape[0]) if index.ndim else 1
        return _at_run_time(gather, (x, index, axis), {}, dims, t.dtype)
    axis = 0 if axis is None else _int(axis)
    if i.dtype is not torch.int64 and i.dtype is not torch.int32:
        raise ValueError("(InvalidArgument) The data type of Input(Index) of gather must be "
                         f"int32 or int64, but got {_dt.from_torch_dtype(i.dtype)}.")
    if i.dim() == 0:
        return wrap(t.index_select(axis, i.reshape(1)).squeeze(axis))
    if i.dim() == 2 and i.shape[1] == 1:
        i = i.reshape(-1)
    elif i.dim() != 1:
        raise ValueError("(InvalidArgument) The index of gather should be 1-D (or 2-D with last "
                         f"dim 1), but got shape {list(i.shape)}.")
    return wrap(t.index_select(axis, i))


@op(method=True)
def gather_nd(x, index, name=None):
    """x at the coordinates in the last dim of ``index`` (fewer coordinates than x.ndim pick
    whole slices)."""
    t = _tensor(x, "gather_nd")
    i = _tensor(index, "gather_nd", "index", 1)
    k = i.shape[-1]
    if k == 0:
        return wrap(t.expand(tuple(i.shape[:-1]) + tuple(t.shape)))
    if k > t.dim():
        raise ValueError("(InvalidArgument) Input(Index).shape[-1] should be no greater than "
                         f"Input(X).rank, but received {k} > {t.dim()}.")
    if i.dim() == 1:
        # one coordinate: index with 1-element tensors, not 0-d ones (torch reads a 0-d index's
        # value while indexing, which a static Variable has only when the program runs)
        return wrap(t[tuple(i.reshape(1, k).unbind(-1))].squeeze(0))
    return wrap(t[tuple(i.unbind(-1))])


@op(method=True)
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


@op(method=True)
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


@op(method=True)
def take_along_dim(arr=None, indices=None, axis=None, broadcast=True, *, out=None, input=None,
                   dim=None):
    """``take_along_axis`` with torch's names ``input`` and ``dim`` accepted."""
    r = take_along_axis(input if arr is None else arr, indices, dim if axis is None else axis,
                        broadcast)
    return finish(r, out)


# ---------------------------------------------------------------------- scatter
@op(method=True)
def scatter(x, index, updates, overwrite=True, name=None):
    """A copy of x with rows ``index`` replaced by ``updates`` (overwrite), or zeroed and then
    summed with all updates aimed at them (``overwrite=False``)."""
    t = _tensor(x, "scatter")
    i = _tensor(index, "scatter", "index", 1).reshape(-1).to(torch.int64)
    u = _tensor(updates, "scatter", "updates", 2)
    if i.numel() == 1 and u.dim() == t.dim() - 1:
        u = u.unsqueeze(0)                      # a 0-d index with one row of updates
    if overwrite:
        try:
            return wrap(t.index_copy(0, i, u))
        except RuntimeError as e:       # updates of the wrong shape: Paddle's ValueError
            raise ValueError(f"(InvalidArgument) scatter: the shape of updates "
                             f"{list(u.shape)} does not fit x {list(t.shape)} ({e})") from None
    return wrap(t.index_fill(0, i, 0).index_add(0, i, u))


@op(method=True)
def scatter_(x, index, updates, overwrite=True, name=None):
    writable(x)
    t = x._t
    i = index._t.reshape(-1).to(torch.int64)
    if overwrite:
        t.index_copy_(0, i, updates._t)
    else:
        t.index_fill_(0, i, 0).index_add_(0, i, updates._t)
    return x


def _index_nd(t, i, u, api):
    """The coordinate tuple of ``i`` ([..., k]) into t; Paddle's ValueError when k exceeds
    t's rank or updates u do not have shape i.shape[:-1] + t.shape[k:]."""
    k = i.shape[-1]
    if k > t.dim():
        raise ValueError("(InvalidArgument) The last dimension of Input(Index)'s shape should be "
                         "no greater than the rank of Input(X), but received the last dimension "
                         f"of Input(Index)'s shape is {k}, the rank of Input(X) is {t.dim()}.")
    want = tuple(i.shape[:-1]) + tuple(t.shape[k:])
    if tuple(u.shape) != want:
        raise ValueError(f"(InvalidArgument) {api}: Updates has wrong shape. Expected "
                         f"{list(want)}, but received {list(u.shape)}.")
    return tuple(i.unbind(-1))


@op(method=True)
def scatter_nd_add(x, index, updates, name=None):
    """A copy of x with ``updates`` added at the coordinates in ``index``'s last dim (repeats
    accumulate)."""
    t = _tensor(x, "scatter_nd_add")
    i = _tensor(index, "scatter_nd_add", "index", 1)
    u = _tensor(updates, "scatter_nd_add", "updates", 2)
    return wrap(t.index_put(_index_nd(t, i, u, "scatter_nd_add"), u.to(t.dtype),
                            accumulate=True))


@op
def scatter_nd(index, updates, shape, name=None):
    """Zeros of ``shape`` (updates' dtype) with ``updates`` summed in at ``index``."""
    u = _tensor(updates, "scatter_nd", "updates", 1)
    z = torch.zeros(shape_arg(shape, "scatter_nd", 2), dtype=u.dtype, device=u.device)
    return scatter_nd_add(wrap(z), index, updates)


_REDUCE = {"add": "sum", "mul": "prod", "multiply": "prod", "mean": "mean", "amin": "amin",
           "amax": "amax"}


@op(method=True)
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


@op(method=True, export=False)
def put_along_axis_(arr, indices, values, axis, reduce="assign", include_self=True,
                    broadcast=True):
    writable(arr)
    out = put_along_axis(arr, indices, values, axis, reduce, include_self, broadcast)
    arr._t.copy_(out._t)
    return arr


@op(method=True)
def scatter_add(input, dim, index, src):
    """``put_along_axis(input, index, src, dim, 'add', broadcast=False)``."""
    return put_along_axis(input, index, src, dim, "add", include_self=True, broadcast=False)


@op(method=True)
def scatter_add_(input, dim, index, src):
    return put_along_axis_(input, index, src, dim, "add", include_self=True, broadcast=False)


@op(method=True)
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """``put_along_axis`` with ``reduce`` ('sum', 'prod', 'mean', 'amin', 'amax')."""
    reduce = {"sum": "add", "prod": "multiply"}.get(reduce, reduce)
    return put_along_axis(input, index, src, dim, reduce, include_self, broadcast=False)


# ---------------------------------------------------------------------- index_put / add / fill
def _index_put_args(x, indices, value, api):
    t = _tensor(x, api)
    idx = tuple(_tensor(i, api, "indices", 1) for i in indices)
    v = value._t if isinstance(value, Tensor) else torch.tensor(value, device=t.device)
    return t, idx, v.to(t.dtype)


@op(method=True)
def index_put(x, indices, value, accumulate=False, name=None):
    """A copy of x with ``value`` written (or added, ``accumulate``) at the advanced index
    ``tuple(indices)``."""
    t, idx, v = _index_put_args(x, indices, value, "index_put")
    try:
        return wrap(t.index_put(idx, v, accumulate))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


@op(method=True)
def index_put_(x, indices, value, accumulate=False, name=None):
    writable(x)
    t, idx, v = _index_put_args(x, indices, value, "index_put_")
    t.index_put_(idx, v, accumulate)
    return x


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


@op(method=True)
def index_add(x, index, axis, value, alpha=1, name=None, *, out=None):
    """A copy of x with alpha * ``value`` slices added at ``index`` along ``axis``."""
    t, i, v, ax = _index_add_args(x, index, axis, value, "index_add")
    r = torch.index_add(t, ax, i, v, alpha=alpha)
    if out is not None:
        out._t = r
        return out
    return wrap(r)


@op(method=True)
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


@op(method=True)
def index_fill(x, index, axis, value, name=None):
    """A copy of x with the slices at ``index`` along ``axis`` set to ``value``."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("index_fill", "x", 0, x) from None
    return wrap(torch.index_fill(t, axis, *_fill_args(index, value, "index_fill")))


@op(method=True)
def index_fill_(x, index, axis, value, name=None):
    writable(x).index_fill_(axis, *_fill_args(index, value, "index_fill_"))
    return x


# ---------------------------------------------------------------------- masks
def _fill_value(t, value):
    if isinstance(value, Tensor):
        v = value._t
        return v.reshape(()).to(t.dtype) if v.dim() else v.to(t.dtype)
    return value


@op(method=True)
def masked_fill(x, mask, value, name=None):
    """x with ``value`` where ``mask`` is True (x and mask broadcast together)."""
    t = _tensor(x, "masked_fill")
    m = _tensor(mask, "masked_fill", "mask", 1)
    if m.shape != t.shape:
        t, m = torch.broadcast_tensors(t, m)
    return wrap(t.masked_fill(m, _fill_value(t, value)))


@op(method=True)
def masked_fill_(x, mask, value, name=None):
    writable(x)
    x._t.masked_fill_(mask._t, _fill_value(x._t, value))
    return x


@op(method=True)
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


@op(method=True)
def masked_scatter_(x, mask, value, name=None):
    t = writable(x)
    m = _tensor(mask, "masked_scatter_", "mask", 1)
    try:
        t.masked_scatter_(m, _tensor(value, "masked_scatter_", "value", 2).to(t.dtype))
    except RuntimeError as e:
        raise _invalid(e) from None
    return x


# ---------------------------------------------------------------------- Paddle's own
@op(method=True)
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
    # one output row per index row (index may have fewer rows than the candidates)
    rows = torch.arange(i.shape[0], device=ts[0].device)
    return wrap(torch.stack(ts)[i.reshape(-1).long(), rows])


@op(method=True)
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
