"""Search, sort and selection ops: where, nonzero, argmax/argmin, sort/argsort, topk,
searchsorted, index_select/index_sample/masked_select, isin.

Indices are int64 (int32 where Paddle's ``dtype``/``out_int32`` asks); ``argmax`` without an
axis works on the flattened tensor and gives a 0-d result (``keepdim`` keeps every axis as 1).
"""
import torch

from ..framework import dtype as _dt
from ..framework.data_feeder import check_variable_and_dtype
from ..framework.fastops import fast_path
from ..framework.tensor import Tensor, wrap, writable
from .common import finish, no_kernel_error, not_tensor
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names

_BOOL = torch.bool
_FLOAT = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_COMPLEX = (torch.complex64, torch.complex128)


def _tensor(x, api, arg="x", pos=0):
    if isinstance(x, Tensor):
        return x._t
    raise not_tensor(api, arg, pos, x)


def _invalid(e):
    msg = str(e)
    if msg.startswith("Dimension out of range"):        # name the argument, as Paddle does
        msg = "Attr(axis) is out of range: " + msg
    return ValueError(f"(InvalidArgument) {msg}")


def _scalar_tensor(v, like):
    """A Python scalar as Paddle's where() sees it: float -> default float, int -> int64."""
    if isinstance(v, bool):
        dt = torch.bool
    elif isinstance(v, int):
        dt = torch.int64
    elif isinstance(v, complex):
        dt = torch.complex64
    else:
        dt = _dt.default_float().torch
    return torch.tensor(v, dtype=dt, device=like.device)


def _where_operands(c, x, y):
    a = x._t if isinstance(x, Tensor) else _scalar_tensor(x, c)
    b = y._t if isinstance(y, Tensor) else _scalar_tensor(y, c)
    if a.dtype is not b.dtype:
        fa, fb = a.dtype in _FLOAT or a.dtype in _COMPLEX, b.dtype in _FLOAT or b.dtype in _COMPLEX
        if not (fa and fb) and not ((a.dtype in _COMPLEX or b.dtype in _COMPLEX) and (fa or fb)):
            raise TypeError("(InvalidType) Type promotion only support calculations between "
                            "floating-point numbers and between complex and real numbers. But "
                            f"got different data type x: {_dt.from_torch_dtype(a.dtype).name}, "
                            f"y: {_dt.from_torch_dtype(b.dtype).name}.")
        dt = torch.promote_types(a.dtype, b.dtype)
        a, b = a.to(dt), b.to(dt)
    return a, b


@op(method=True, fast=("where", torch.where))
def where(condition, x=None, y=None, name=None):
    """``x`` where ``condition`` else ``y`` (broadcast; Python scalars allowed); with only the
    condition, the tuple of its nonzero coordinates."""
    try:
        c = condition._t
    except AttributeError:
        raise not_tensor("where", "condition", 0, condition) from None
    if type(x) is Tensor and type(y) is Tensor:             # hot path: bool c, one dtype
        a = x._t
        b = y._t
        if c.dtype is _BOOL and a.dtype is b.dtype and c.shape == a.shape == b.shape:
            return wrap(torch.where(c, a, b))
    if x is None and y is None:
        return nonzero(condition, as_tuple=True)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    if c.dtype is not torch.bool:
        raise ValueError("The `condition` is expected to be a boolean Tensor, but got a "
                         "Tensor with dtype "
                         f"{_dt.from_torch_dtype(c.dtype)}")
    a, b = _where_operands(c, x, y)
    try:
        return wrap(torch.where(c, a, b))
    except RuntimeError as e:            # shapes that do not broadcast: Paddle's ValueError
        raise ValueError(f"(InvalidArgument) Broadcast dimension mismatch in where(): the "
                         f"shapes of condition, x and y are {list(c.shape)}, "
                         f"{list(a.shape)} and {list(b.shape)} ({e})") from None


@op(method=True)
def where_(condition, x=None, y=None, name=None):
    """``where`` written into ``x``."""
    writable(x)
    out = where(condition, x, y)
    x._t.copy_(out._t)
    return x


@op(method=True)
def nonzero(x, as_tuple=False, *, out=None):
    """Coordinates of the nonzero entries: an int64 [n, ndim] tensor, or a tuple of ndim 1-d
    tensors (``as_tuple``)."""
    t = _tensor(x, "nonzero")
    if t.dim() == 0:
        raise ValueError("(InvalidArgument) Input(Condition) should have number of dimension at "
                         "least 1")
    if as_tuple:
        return tuple(wrap(i) for i in torch.nonzero(t, as_tuple=True))
    return finish(wrap(torch.nonzero(t)), out)


def _arg_dtype(dtype):
    dt = _dt.convert_dtype(dtype).torch
    if dt is not torch.int64 and dt is not torch.int32:
        raise ValueError("(InvalidArgument) The attribute of dtype in argmin/argmax must be "
                         f"[int32] or [int64], but received [{_dt.from_torch_dtype(dt).name}]")
    return dt


def _argext(fn, api):
    def f(x, axis=None, keepdim=False, dtype="int64", name=None):
        try:
            t = x._t
        except AttributeError:
            raise not_tensor(api, "x", 0, x) from None
        if isinstance(axis, Tensor):            # Paddle reads a one-element axis Tensor
            axis = int(axis._t.reshape(-1)[0].item())
        keepdim = bool(keepdim)
        if dtype == "int64" or dtype is _INT64:
            try:
                return wrap(fn(t, axis, keepdim))
            except IndexError as e:
                raise _invalid(e) from None
        return wrap(fn(t, axis, keepdim).to(_arg_dtype(dtype)))
    f.__name__ = api
    f.__doc__ = (f"Index of the {api[3:]}imum along ``axis`` (of the flattened x when None), "
                 "first occurrence on ties; int64 unless ``dtype`` is int32.")
    return f


_INT64 = _dt.convert_dtype("int64")
op(_argext(torch.argmax, "argmax"), method=True)
op(_argext(torch.argmin, "argmin"), method=True)


@op(method=True)
def sort(x, axis=-1, descending=False, stable=False, name=None):
    """Sorted values along ``axis``."""
    try:
        return wrap(torch.sort(x._t, dim=axis, descending=descending, stable=stable)[0])
    except AttributeError:
        raise not_tensor("sort", "x", 0, x) from None
    except IndexError as e:
        raise _invalid(e) from None


@op(method=True)
def argsort(x, axis=-1, descending=False, stable=False, name=None):
    """int64 indices that sort x along ``axis``."""
    try:
        return wrap(torch.argsort(x._t, dim=axis, descending=descending, stable=stable))
    except AttributeError:
        raise not_tensor("argsort", "x", 0, x) from None
    except IndexError as e:
        raise _invalid(e) from None


@op(method=True)
def topk(x, k, axis=None, largest=True, sorted=True, name=None):
    """(values, int64 indices) of the k largest (or smallest) entries along ``axis`` (last axis
    when None)."""
    t = _tensor(x, "topk")
    ax = -1 if axis is None else axis
    if isinstance(k, Tensor):
        if not isinstance(k._t, torch.Tensor):      # a static Variable: k known at run time
            dims = list(x.shape)
            dims[ax] = -1
            return tuple(wrap(k._t.record_dims(_topk_part, (t, k._t, ax, largest, sorted, j),
                                               {}, dims, dt))
                         for j, dt in enumerate((t.dtype, torch.int64)))
        k = int(k._t.item())
    elif k < 1:
        raise ValueError(f"(InvalidArgument) the attribute of k in the topk must >= 1 or be a "
                         f"Tensor, but received {k} .")
    try:
        v, i = torch.topk(t, k, ax, largest, sorted)
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None
    return wrap(v), wrap(i)


def _topk_part(t, k, axis, largest, sorted, which):
    """Run time of ``topk`` with a Variable ``k`` in a static program: the values
    (``which`` 0) or the indices (1)."""
    return torch.topk(t, int(k.reshape(-1)[0]), axis, largest, sorted)[which]


@op
def searchsorted(sorted_sequence, values, out_int32=False, right=False, name=None, *,
                 side=None, sorter=None):
    """Insertion points of ``values`` in the (last-axis) sorted ``sorted_sequence``;
    ``side='right'`` (Paddle 3, torch's spelling) is ``right=True``; ``sorter`` gives the
    order of an unsorted sequence."""
    s = _tensor(sorted_sequence, "searchsorted", "sorted_sequence")
    v = _tensor(values, "searchsorted", "values", 1)
    right = right or side == "right"
    if sorter is not None:
        sorter = _tensor(sorter, "searchsorted", "sorter", 6)
    for a, what in ((s, "sorted_sequence"), (v, "values")):
        if a.dtype not in (torch.float32, torch.float64, torch.int32, torch.int64, torch.float16,
                           torch.bfloat16):
            no_kernel_error("searchsorted", a.dtype, "float32, float64, int32, int64", arg=what)
    _searchsorted_dims(list(sorted_sequence.shape), list(values.shape), out_int32)
    try:
        return wrap(torch.searchsorted(s, v, out_int32=out_int32, right=right, sorter=sorter))
    except RuntimeError as e:
        raise _invalid(e) from None


def _searchsorted_dims(sd, vd, out_int32):
    """Paddle's RuntimeError (also while a program is built, -1 for an unknown dimension) for
    a sequence of more than 1 dimension whose leading dimensions are not the values', and for
    a last dimension an int32 output cannot index."""
    if len(sd) != 1 and (len(sd) != len(vd) or sd[:-1] != vd[:-1]):
        raise RuntimeError(f"(Unavailable) The dimensions of sorted_sequence tensor "
                           f"( {', '.join(map(str, sd))} ) and values tensor "
                           f"( {', '.join(map(str, vd))} ) can not match. Because the input "
                           "sorted_sequence tensor must be 1 dimension or the first N-1 "
                           "dimensions of sorted_sequence tensor and input values tensor must "
                           "match. Please input appropriate sorted_sequence again! ")
    if out_int32 and sd and sd[-1] >= 2 ** 31:
        raise RuntimeError(f"(Unavailable) The size of sorted_sequence {sd[-1]} exceed the "
                           f"maximum limit d{2 ** 31 - 1}Because the size of sorted_sequence "
                           "should be less than the output maximum value for int32 bit. Please "
                           "set appropriate sorted_sequence to meet this requirement! ")


@op(method=True)
@fast_path("index dim_index", torch.index_select)
def index_select(x, index, axis=0, name=None):
    """Entries of x along ``axis`` at the 1-d int ``index`` (or [N, 1], as Paddle takes)."""
    try:
        xt, it = x._t, index._t
        if it.dim() != 1:
            if it.dim() != 2 or it.shape[1] != 1:
                raise ValueError(f"(InvalidArgument) The 'shape' of Input(Index) must be 1-D "
                                 f"tensor. But received: the 'shape' of Input(Index) is "
                                 f"{list(it.shape)}, the dimension of Input(Index) is "
                                 f"[{it.dim()}].")
            it = it.reshape(-1)
        return wrap(torch.index_select(xt, axis, it))
    except AttributeError:
        raise not_tensor("index_select", "x" if not isinstance(x, Tensor) else "index",
                         0 if not isinstance(x, Tensor) else 1,
                         x if not isinstance(x, Tensor) else index) from None
    except RuntimeError as e:
        raise _invalid(e) from None


@op(method=True)
def index_sample(x, index):
    """For 2-d x and index: ``out[i, j] = x[i, index[i, j]]``."""
    t = _tensor(x, "index_sample")
    i = _tensor(index, "index_sample", "index", 1)
    try:
        return wrap(torch.gather(t, 1, i.to(torch.int64)))
    except RuntimeError as e:
        raise _invalid(e) from None


@op(method=True)
def masked_select(x, mask, name=None):
    """The 1-d tensor of x's entries where ``mask`` (broadcast with x) is True."""
    check_variable_and_dtype(x, "x", ["float16", "float32", "float64", "int32", "int64",
                                      "uint16", "bfloat16"], "paddle.tensor.search.mask_select")
    check_variable_and_dtype(mask, "mask", ["bool"], "paddle.tensor.search.masked_select")
    try:
        return wrap(torch.masked_select(x._t, mask._t))
    except AttributeError:
        raise not_tensor("masked_select", "x", 0, x) from None
    except RuntimeError as e:
        raise _invalid(e) from None


@op(method=True)
def isin(x, test_x, assume_unique=False, invert=False, name=None):
    """Bool tensor: whether each entry of x occurs in ``test_x``."""
    t = _tensor(x, "isin")
    e = _tensor(test_x, "isin", "test_x", 1)
    return wrap(torch.isin(t, e, assume_unique=assume_unique, invert=invert))


@op(method=True)
def kthvalue(x, k, axis=None, keepdim=False, name=None):
    """(values, int64 indices) of the k-th smallest entries along ``axis`` (default the last;
    NaN sorts last; among equal values the earlier position counts as smaller, as in Paddle)."""
    t = _tensor(x, "kthvalue")
    ax = -1 if axis is None else axis
    nd = t.dim()
    if k < 1:
        raise ValueError(f"(InvalidArgument) the k in the kthvalue must >= 1, but received {k} .")
    if nd and not -nd <= ax < nd:
        raise ValueError(f"(InvalidArgument) the axis must be [{-nd}, {nd}), but received {ax} .")
    n = t.shape[ax] if nd else 1
    if k > n:
        raise ValueError(f"(InvalidArgument) input of kthvalue must have >= {k} columns in "
                         f"axis of {ax}")
    if t.dim() == 0:
        return wrap(t.clone()), wrap(torch.zeros((), dtype=torch.int64, device=t.device))
    v, i = torch.sort(t, dim=ax, stable=True)
    v, i = v.narrow(ax, k - 1, 1), i.narrow(ax, k - 1, 1)
    if not keepdim:
        v, i = v.squeeze(ax), i.squeeze(ax)
    return wrap(v), wrap(i)


@op(method=True)
def mode(x, axis=-1, keepdim=False, name=None):
    """(values, int64 indices) of the most frequent entry along ``axis`` (the smallest of
    equally frequent ones, at its last position)."""
    try:
        v, i = torch.mode(_tensor(x, "mode"), axis, keepdim)
    except IndexError as e:
        raise _invalid(e) from None
    return wrap(v), wrap(i)


@op(method=True)
def bucketize(x, sorted_sequence, out_int32=False, right=False, name=None, *, out=None):
    """For each entry of x, the index of its bucket in the 1-d ``sorted_sequence`` (the first
    position with a value >= it; > with ``right``); int64, or int32 with ``out_int32``."""
    # Paddle reads sorted_sequence's dtype first (a non-tensor: AttributeError), then hands
    # x to searchsorted as its 'values' argument
    if not isinstance(sorted_sequence, Tensor):
        raise AttributeError(f"'{type(sorted_sequence).__name__}' object has no attribute "
                             "'dtype'")
    s = sorted_sequence._t
    if s.dim() != 1:
        raise ValueError(f"sorted_sequence tensor must be 1 dimension, but got dim {s.dim()}")
    t = _tensor(x, "searchsorted", "values", 1)
    r = torch.bucketize(t, s, out_int32=out_int32, right=right)
    if out is not None:
        out._t = r
        return out
    return wrap(r)


@op(method=True)
def argwhere(input):
    """``nonzero(input)``: the [n, ndim] int64 coordinates of the nonzero entries."""
    return nonzero(input)


@op(method=True)
def msort(input, *, out=None):
    """``sort(input, axis=0)``."""
    return finish(sort(input, axis=0), out)
