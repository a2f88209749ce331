"""``paddle.autograd.jacobian`` and ``hessian``: Paddle 3's lazily evaluated Jacobian/Hessian
matrices.

A ``Jacobian`` of ys [M] (or 0-d) by xs [N] (or 0-d) has shape [M, N] (0-d parts drop their
dim); with ``batch_axis=0`` ys [B, M] (or [B]) and xs [B, N] (or [B]) give [B, M, N]. Indexing
(``J[:]``, ``J[i]``, ``J[:, j]``, slices) evaluates only the rows it needs, one backward pass per
row of ys, and caches them; any other attribute (``J.numpy()``, ``J + 1`` ...) evaluates the
whole matrix. Gradients are taken with ``create_graph=True``, so results can be differentiated
again; an x that ys does not depend on gives zeros.
"""
from collections.abc import Sequence

import torch

from ..framework.tensor import wrap

__all__ = ["jacobian", "hessian", "Jacobian", "Hessian"]


def _flat(t, batched):
    """The torch tensor t flattened to [n] (or [B, n])."""
    return t.reshape(t.shape[0], -1) if batched else t.reshape(-1)


def _grad(y, x):
    """d sum(y) / d x for torch tensors (create_graph; zeros where x is unused)."""
    g = None
    if y.requires_grad and x.requires_grad:     # an x that stops gradient: zeros, as Paddle
        g, = torch.autograd.grad(y, (x,), torch.ones_like(y), create_graph=True,
                                 allow_unused=True)
    return torch.zeros_like(x) if g is None else g


def _positive(indexes, shape):
    """Paddle's index normalisation: a tuple with one int or step slice per dim, negative
    positions counted from the end."""
    indexes = indexes if isinstance(indexes, tuple) else (indexes,)
    if any(i is Ellipsis for i in indexes):
        raise IndexError("Ellipsis index currently is not supported.")
    indexes = indexes + (slice(0, None, None),) * (len(shape) - len(indexes))
    out = []
    for i, n in zip(indexes, shape):
        if isinstance(i, slice):
            start, stop, step = i.start or 0, i.stop or n, i.step or 1
            out.append(slice(start + n if start < 0 else start, stop + n if stop < 0 else stop,
                             step))
        elif isinstance(i, int):
            out.append(i + n if i < 0 else i)
        else:
            raise TypeError(f"Not supported index type {i}.")
    return tuple(out)


class Jacobian:
    """The Jacobian matrix of ys by xs, evaluated row by row on indexing."""

    def __init__(self, ys, xs, is_batched=False):
        # ys may be a Jacobian (a Hessian's rows): its shape counts, its values are evaluated
        yshape = ys.shape if isinstance(ys, Jacobian) else list(ys._t.shape)
        lo, hi = (1, 2) if is_batched else (0, 1)
        for name, n in (("xs", xs._t.dim()), ("ys", len(yshape))):
            if not lo <= n <= hi:
                raise ValueError(f"{name}.ndim should be {lo} or {hi} when is_batched="
                                 f"{is_batched} but got {n}")
        self.is_batched = is_batched
        self._xs = xs
        self._ys_dim = len(yshape)
        xf = _flat(xs._t, is_batched)
        yt = ys._evaluate_all()._t if isinstance(ys, Jacobian) else ys._t
        yt = yt.reshape(-1, 1) if is_batched and len(yshape) == 1 else yt
        self._ys = _flat(yt, is_batched)
        if is_batched:
            self.shape = [xf.shape[0], *yshape[1:2], *xs._t.shape[1:2]]
            self._inner = [xf.shape[0], self._ys.shape[1], xf.shape[1]]
        else:
            self.shape = [*yshape[0:1], *xs._t.shape[0:1]]
            self._inner = [self._ys.shape[0], xf.shape[0]]
        self._cache = {}

    def _row(self, k):
        """Row k of ys differentiated: [N] (or [B, N])."""
        r = self._cache.get(k)
        if r is None:
            y = self._ys[:, k] if self.is_batched else self._ys[k]
            r = _flat(_grad(y, self._xs._t), self.is_batched)
            if not r.requires_grad:             # a constant derivative: Paddle's grad with
                r.requires_grad_(True)          # create_graph still does not stop gradient
            self._cache[k] = r
        return r

    def _standard_index(self, idx):
        nd, ys_dim = len(self.shape), self._ys_dim
        if not self.is_batched:
            if nd == 0:
                raise IndexError("0-D tensor can not be indexed.")
            if nd == 1:
                idx = (0, idx) if ys_dim == 0 else (idx, 0)
        elif nd == 1:
            idx = (idx, 0, 0)
        elif nd == 2:
            if isinstance(idx, slice):
                idx = (idx, slice(None))
            else:
                idx = (idx[0], 0, idx[1]) if ys_dim == 1 else (idx[0], idx[1], 0)
        return _positive(idx, self._inner)

    def __getitem__(self, indexes):
        idx = self._standard_index(indexes)
        lz = 1 if self.is_batched else 0     # the dim of ys's rows in idx
        k = idx[lz]
        if isinstance(k, int):
            return wrap(self._row(k)[idx[:lz] + idx[lz + 1:]])
        rows = range(k.start, k.stop, k.step)
        part = torch.stack([self._row(i) for i in rows], lz)
        sub = idx[:lz] + (slice(0, len(rows), 1),) + idx[lz + 1:]
        r = part[sub]
        for _ in range(r.dim() - len(self.shape)):     # as Paddle: a trailing dim of 1 goes,
            r = r.squeeze(-1)                         # another one stays ([B, 1, N] for ys [B])
        return wrap(r)

    def _evaluate_all(self):
        if not self.shape:
            return wrap(self._row(0).reshape([]))
        return self[:]

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._evaluate_all(), name)


def _operator(name):
    def op(self, other):
        rhs = other._evaluate_all() if isinstance(other, Jacobian) else other
        return getattr(self._evaluate_all(), name)(rhs)
    op.__name__ = name
    return op


for _n in ("__add__", "__sub__", "__mul__", "__truediv__", "__pow__", "__mod__",
           "__floordiv__", "__matmul__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__",
           "__ge__"):
    setattr(Jacobian, _n, _operator(_n))
Jacobian.__div__ = Jacobian.__truediv__
Jacobian.__hash__ = object.__hash__


class Hessian(Jacobian):
    """The Hessian matrix: the Jacobian of the gradient."""


def _seq(v):
    return isinstance(v, Sequence)


def jacobian(ys, xs, batch_axis=None):
    """The Jacobian(s) of ys by xs: one ``Jacobian``, a tuple of them when ys or xs is a
    sequence, a tuple of tuples (by ys, then xs) when both are."""
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"batch_axis should be None or 0, but got {batch_axis}.")
    b = batch_axis is not None
    if _seq(ys) and _seq(xs):
        return tuple(tuple(Jacobian(y, x, b) for x in xs) for y in ys)
    if _seq(ys):
        return tuple(Jacobian(y, xs, b) for y in ys)
    if _seq(xs):
        return tuple(Jacobian(ys, x, b) for x in xs)
    return Jacobian(ys, xs, b)


def hessian(ys, xs, batch_axis=None):
    """The Hessian(s) of the one-element ys (one element per batch row with batch_axis=0) by
    xs: one ``Hessian``, or a tuple of tuples of them when xs is a sequence."""
    n = ys._t.numel()
    if batch_axis is None:
        if n > 1:
            raise ValueError(f"Only support ys.numel()({n})==1 when batch_axis is None.")
        ys = wrap(ys._t.reshape(()))
    elif isinstance(batch_axis, int):
        if ys._t[0].numel() > 1:
            raise ValueError(f"Only support ys[0].numel()({n})==1 when batch_axis is int")
        if batch_axis != 0:
            raise ValueError("Only support batch_axis=0 yet.")
        ys = wrap(ys._t.reshape(-1))
    else:
        raise ValueError(f"batch_axis should be None or int, but got {type(batch_axis)}.")
    b = batch_axis is not None
    if not _seq(xs):
        return Hessian(jacobian(ys, xs, batch_axis), xs, b)
    return tuple(tuple(Hessian(j, x, b) for x in xs) for j in jacobian(ys, xs, batch_axis))
