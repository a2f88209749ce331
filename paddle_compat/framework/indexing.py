"""``Tensor.__getitem__`` / ``__setitem__`` with Paddle's index forms, over torch indexing.

Paddle accepts ints, slices (any step, negative included), None, Ellipsis, bools, bool masks,
int Tensors, (nested) lists and numpy arrays, in any mix. Torch indexing follows the same rules
(an int is a basic index, as in Paddle, not an advanced one as in numpy) once lists and arrays
are torch tensors, except that torch has no negative steps: those slices are taken with a
positive step and flipped (``__getitem__``), or written through the flat positions they select
(``__setitem__``). Basic indexing returns views, as in Paddle.

``__setitem__`` casts the value to x's dtype (Tensors, numpy arrays and scalars; Paddle refuses
lists), broadcasts it, and keeps autograd: on an intermediate x the overwritten part gets no
gradient and a Tensor value gets its share. A leaf that does not stop gradient refuses it, as
every Paddle in-place op does (``tensor.writable``).
"""
import numpy as np
import torch

from . import mode as _mode
from .tensor import Tensor, wrap, writable

__all__ = ["getitem", "setitem"]

_INDEX_DTYPES = (torch.int64, torch.int32, torch.bool)


def _bad_index(i):
    return ValueError("(InvalidArgument) Currently, Tensor.__indices__() only allows indexing by "
                      "Boolean, Integers, Slices, Ellipsis, None, Tuples of these types and List "
                      f"/ Tensor of Bool and Integers, but received {type(i).__name__}.")


def _tensor_index(t):
    if t.dtype not in _INDEX_DTYPES:
        raise ValueError(f"(InvalidArgument) Index holds the wrong type, it holds [{t.dtype}], "
                         "but desires to be [int64].")
    return t


def _list_index(lst):
    return [(_list_index(v) if isinstance(v, (list, tuple)) else
             (v._t.item() if isinstance(v, Tensor) else v)) for v in lst]


def _part(i):
    """One index entry as torch takes it."""
    ti = type(i)
    if ti is int or ti is slice or i is None or i is Ellipsis or ti is bool:
        return i
    if ti is Tensor:
        return _tensor_index(i._t)
    if ti is list or ti is tuple or ti is range:
        vals = _list_index(i)
        return _tensor_index(torch.tensor(vals) if vals else torch.zeros(0, dtype=torch.int64))
    if isinstance(i, np.ndarray):
        if i.dtype.kind not in "biu":
            raise _bad_index(i)
        return torch.from_numpy(i.astype(np.int64) if i.dtype.kind in "iu" else i)
    if isinstance(i, np.bool_):
        return bool(i)
    if isinstance(i, np.integer):
        return int(i)
    if isinstance(i, torch.Tensor):
        return _tensor_index(i)
    raise _bad_index(i)


def _convert(idx):
    """The index as a torch index tuple, and whether it has a negative-step slice."""
    if type(idx) is not tuple:
        idx = (idx,)
    out = []
    neg = False
    ells = 0
    for i in idx:
        p = _part(i)
        if type(p) is slice:
            step = p.step
            if step is not None:
                step = int(step)
                if step == 0:
                    raise ValueError("(InvalidArgument) stride index in StridedSlice operator "
                                     "is 0.")
                neg = neg or step < 0
            p = slice(None if p.start is None else int(p.start),
                      None if p.stop is None else int(p.stop), step)
        elif p is Ellipsis:
            ells += 1
            if ells > 1:
                raise ValueError("(InvalidArgument) An index can only have a single ellipsis "
                                 "('...')")
        out.append(p)
    return tuple(out), neg


def _dims_used(p):
    if p is None or type(p) is bool:
        return 0
    if isinstance(p, torch.Tensor) and p.dtype is torch.bool:
        return max(p.dim(), 1)
    return 1


def _unflip(t, index):
    """Take negative-step slices with positive steps, flip those dims of ``t``; return the new
    ``t`` and the index with those slices replaced by ``:``."""
    used = sum(_dims_used(p) for p in index if p is not Ellipsis)
    pre = [slice(None)] * t.dim()
    flips = []
    rest = list(index)
    d = 0
    for k, p in enumerate(index):
        if p is Ellipsis:
            d += t.dim() - used
            continue
        if type(p) is slice and p.step is not None and p.step < 0:
            if d >= t.dim():
                raise IndexError(f"too many indices for tensor of dimension {t.dim()}")
            start, stop, step = p.indices(t.shape[d])
            n = len(range(start, stop, step))
            first = start + (n - 1) * step if n else 0
            pre[d] = slice(first, first + (n - 1) * -step + 1 if n else 0, -step)
            flips.append(d)
            rest[k] = slice(None)
        d += _dims_used(p)
    return t[tuple(pre)].flip(flips), tuple(rest)


def _get(t, idx):
    index, neg = _convert(idx)
    if neg:
        t, index = _unflip(t, index)
    return t[index]


def getitem(self, idx, *_):
    # ``*_``: a plain two-argument __getitem__ would be called directly by CPython's specialised
    # ``x[i]`` bytecode, bypassing the C slot (framework/_fastops.c) that handles basic indices.
    ti = type(idx)
    if ti is int or (ti is slice and idx.step is None):
        return wrap(self._t[idx])
    if ti is tuple:
        ells = 0
        for i in idx:
            tj = type(i)
            if i is Ellipsis:
                ells += 1
            elif not (tj is int or i is None or (tj is slice and i.step is None and
                                                 type(i.start) is not Tensor and
                                                 type(i.stop) is not Tensor)):
                break
        else:
            if ells < 2:
                return wrap(self._t[idx])
    return wrap(_get(self._t, idx))


def bad_value(value):
    """Paddle's error for assigning ``value`` (a list, ...) into a Tensor: TypeError while a
    program is built, ValueError in dynamic mode."""
    if not _mode.in_dynamic_mode():
        return TypeError("Only support to assign an integer, float, numpy.ndarray or "
                         f"paddle.Tensor to a paddle.Tensor, but received {type(value)}")
    return ValueError("(InvalidArgument) Value type error. The assign value allows Tensor, "
                      "numpy.ndarray, integer, float, complex or bool, but received "
                      f"{type(value).__name__}.")


def _value(t, value):
    """The value to assign, in t's dtype (a Python scalar stays a scalar)."""
    tv = type(value)
    if tv is float or tv is int or tv is bool or tv is complex:
        return value
    if isinstance(value, Tensor):
        v = value._t
    elif isinstance(value, np.ndarray):
        v = torch.from_numpy(value) if value.dtype != np.uint16 else \
            torch.from_numpy(value.astype(np.int32)).to(torch.int16).view(torch.bfloat16)
    elif isinstance(value, np.generic):
        return value.item()
    else:
        raise bad_value(value)
    if v.dtype is not t.dtype or v.device != t.device:
        v = v.to(device=t.device, dtype=t.dtype)
    return v


def setitem(self, idx, value):
    t = writable(self)
    v = _value(t, value)
    ti = type(idx)
    try:
        if ti is int or (ti is slice and idx.step is None):
            t[idx] = v
            return
        index, neg = _convert(idx)
        if not neg:
            t[index] = v
            return
        # No negative strides in torch: write through the flat positions the index selects.
        pos = _get(torch.arange(t.numel(), device=t.device).view(t.shape), idx)
        if not isinstance(v, torch.Tensor):
            v = torch.tensor(v, dtype=t.dtype, device=t.device)
        v = v.expand(pos.shape).reshape(-1) if v.shape != pos.shape else v.reshape(-1)
        if t.is_contiguous():
            t.view(-1)[pos.reshape(-1)] = v
        else:
            tmp = t.contiguous()
            tmp.view(-1)[pos.reshape(-1)] = v
            t.copy_(tmp)
    except RuntimeError as e:
        raise ValueError(f"(InvalidArgument) {e}") from None


