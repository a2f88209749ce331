"""How a sparse tensor is held, how it is made, and its Tensor methods.

Representation (shared by ``paddle_compat.sparse`` and ``paddle_compat.sparse.nn``)
-------------------------------------------------------------------------------------
A Paddle sparse tensor is an ordinary ``paddle_compat.Tensor`` whose ``_t`` is a torch sparse
tensor, so ``paddle_compat.to_torch(x)`` hands it over without a copy:

* COO: ``torch.sparse_coo_tensor(indices, values, shape)``: ``indices`` int64
  ``[sparse_dim, nnz]``, ``values`` ``[nnz, *dense_shape]``. Like Paddle, nothing is coalesced
  unless asked (``coalesce``), and an op keeps the order of its input's entries.
* CSR: ``torch.sparse_csr_tensor(crows, cols, values, shape)`` for 2-D; a 3-D Paddle CSR tensor
  (flat ``crows`` of ``B * (rows + 1)``, flat ``cols``/``values``) is torch's batched CSR
  (``crow_indices`` ``[B, rows + 1]``, ``col_indices``/``values`` ``[B, nnz_per_batch]``), which
  needs the same nnz in every batch: another 3-D tensor raises NotImplementedError.
  ``crows()``, ``cols()``, ``values()`` give Paddle's flat forms.

Autograd: torch's own sparse autograd covers few ops, so every sparse op here works on the
values with the structure fixed: ``values_of(t)`` reads the values differentiably (the gradient
of a sparse input comes back as a sparse tensor of the same structure) and ``coo(...)`` /
``csr(...)`` build a result differentiably in its values (a dense or sparse gradient of the
result is read back at the result's positions). As in Paddle, ``sparse_coo_tensor(indices,
values, stop_gradient=...)`` sets ``values.stop_gradient`` and the gradient reaches that values
tensor (the sparse tensor itself is no leaf: its ``.grad`` stays None); ``to_sparse_coo`` /
``to_sparse_csr`` of a dense tensor pass the gradient to the dense tensor.

Building on it (sparse.nn does)::

    from paddle_compat.sparse.tensor import values_of, coo, is_coo
    t = x._t                                   # a torch sparse COO tensor
    out = wrap(coo(t._indices(), torch.relu(values_of(t)), t.shape))
"""
import warnings

import torch

from ..framework import dtype as _dt
from ..framework.place import to_torch_device
from ..framework.tensor import Tensor, wrap
from ..ops.creation import to_tensor
from ..ops.registry import OpSet

op = OpSet(__name__)
__all__ = op.names

_COO = torch.sparse_coo
_CSR = torch.sparse_csr


def is_coo(t):
    """Whether the torch tensor ``t`` is sparse COO."""
    return isinstance(t, torch.Tensor) and t.layout is _COO


def is_csr(t):
    """Whether the torch tensor ``t`` is sparse CSR."""
    return isinstance(t, torch.Tensor) and t.layout is _CSR


def is_sparse_t(t):
    return isinstance(t, torch.Tensor) and t.layout in (_COO, _CSR)


# ------------------------------------------------------------------ differentiable crossings
def _linear_keys(indices, sizes):
    """One int64 key per column of ``indices`` (row-major over ``sizes``)."""
    key = torch.zeros(indices.shape[1], dtype=torch.int64, device=indices.device)
    for d, n in enumerate(sizes):
        key = key * n + indices[d]
    return key


def coo_indices(t):
    """COO indices of a sparse torch tensor, in the order of its values (CSR: row-major, the
    batch first)."""
    if t.layout is _COO:
        return t._indices()
    crow, col = t.crow_indices(), t.col_indices()
    if crow.dim() == 1:
        rows = torch.repeat_interleave(torch.arange(crow.numel() - 1, device=crow.device),
                                       crow.diff())
        return torch.stack([rows, col.to(torch.int64)])
    b, r1 = crow.shape
    counts = crow.diff(dim=1).reshape(-1)
    rows = torch.repeat_interleave(torch.arange(r1 - 1, device=crow.device).repeat(b), counts)
    batch = torch.arange(b, device=crow.device).repeat_interleave(col.shape[1])
    return torch.stack([batch, rows, col.reshape(-1).to(torch.int64)])


def _read_at(grad, indices, sizes):
    """The entries of ``grad`` (dense or sparse, of the full shape) at the positions
    ``indices`` (``[len(sizes), nnz]``): ``[nnz, *dense_shape]``."""
    if grad.layout is torch.strided:
        return grad[tuple(indices)]
    if grad.layout is _CSR:
        grad = grad.to_sparse_coo()
    gi = grad._indices()
    if gi.data_ptr() == indices.data_ptr() and gi.shape == indices.shape:
        return grad._values()                        # the same structure: the common case
    grad = grad.coalesce()
    gi, gv = grad._indices(), grad._values()
    if gv.shape[0] == 0:
        return gv.new_zeros((indices.shape[1],) + tuple(gv.shape[1:]))
    gk = _linear_keys(gi, sizes)
    k = _linear_keys(indices, sizes)
    pos = torch.searchsorted(gk, k).clamp_(max=gk.numel() - 1)
    hit = (gk[pos] == k).reshape((-1,) + (1,) * (gv.dim() - 1))
    return torch.where(hit, gv[pos], gv.new_zeros(()))


class _Build(torch.autograd.Function):
    """A sparse tensor of a given structure from its values, differentiable in the values."""

    @staticmethod
    def forward(ctx, values, make):
        out = make(values)
        ctx.out = out.detach()
        return out

    @staticmethod
    def backward(ctx, grad):
        out = ctx.out
        idx = coo_indices(out)
        if out.layout is _CSR and out.dim() == 3:
            g = _read_at(grad, idx, out.shape[:3])
            return g.reshape(out.values().shape), None
        return _read_at(grad, idx, out.shape[:idx.shape[0]]), None


class _Values(torch.autograd.Function):
    """The values of a sparse tensor, differentiable: the gradient comes back as a sparse
    tensor of the input's structure."""

    @staticmethod
    def forward(ctx, t):
        ctx.t = t.detach()
        return (t._values() if t.layout is _COO else t.values()).view_as(
            t._values() if t.layout is _COO else t.values())

    @staticmethod
    def backward(ctx, g):
        return _like(ctx.t, g)


def _like(t, values):
    """A sparse tensor of ``t``'s structure holding ``values`` (no gradient tracking). As in
    Paddle, where an elementwise kernel writes new values the result does not report itself
    coalesced."""
    if t.layout is _COO:
        return torch.sparse_coo_tensor(t._indices(), values, t.shape, check_invariants=False)
    return _make_csr(t.crow_indices(), t.col_indices(), values, t.shape,
                     check_invariants=False)


def values_of(t):
    """The values of the sparse torch tensor ``t`` (COO: ``[nnz, *dense]``; CSR: torch's, i.e.
    ``[B, nnz_per_batch]`` when batched), differentiable when ``t`` requires grad."""
    if t.requires_grad:
        v = t.__dict__.get("_pc_values")     # t was built from these values: use them directly
        return _Values.apply(t) if v is None else v
    return t._values() if t.layout is _COO else t.values()


def _built(values, make):
    out = _Build.apply(values, make)
    out._pc_values = values        # values_of(out) is ``values`` itself (no round trip)
    return out


def coo(indices, values, shape, coalesced=False):
    """A torch sparse COO tensor, differentiable in ``values``."""
    def make(v):
        return torch.sparse_coo_tensor(indices, v, tuple(shape), is_coalesced=coalesced,
                                       check_invariants=False)
    if values.requires_grad:
        return _built(values, make)
    return make(values)


def like(t, values):
    """A sparse tensor of the structure of ``t`` (COO or CSR) holding ``values``,
    differentiable in ``values``."""
    if values.requires_grad:
        return _built(values, lambda v: _like(t.detach(), v))
    return _like(t, values)


def _first_csr(*args, **kwargs):
    """torch warns once per process that CSR is in beta; the first CSR tensor is made with that
    warning silenced (torch does not warn again), so Paddle code does not see it."""
    global _make_csr
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Sparse CSR tensor support is in beta")
        out = torch.sparse_csr_tensor(*args, **kwargs)
    _make_csr = torch.sparse_csr_tensor
    return out


_make_csr = _first_csr


def csr(crows, cols, values, shape):
    """A torch sparse CSR tensor (2-D, or batched 3-D with torch's batched layout),
    differentiable in ``values``."""
    def make(v):
        return _make_csr(crows, cols, v, tuple(shape), check_invariants=False)
    if values.requires_grad:
        return _built(values, make)
    return make(values)


def csr_from_flat(crows, cols, values, shape):
    """Paddle's flat CSR arrays (3-D: crows of B * (rows + 1)) as a torch CSR tensor."""
    if len(shape) == 2:
        return csr(crows, cols, values, shape)
    b, r = shape[0], shape[1]
    crows = crows.reshape(b, r + 1)
    per = crows[:, -1]
    n = int(per[0]) if b else 0
    if b and not bool((per == n).all()):
        raise NotImplementedError(
            "paddle_compat holds a 3-D sparse CSR tensor as torch's batched CSR, which needs "
            f"the same number of non-zeros in every batch; got {per.tolist()}")
    return csr(crows, cols.reshape(b, n), values.reshape((b, n) + tuple(values.shape[1:])),
               shape)


def coo_to_csr(t):
    """A 2-D or 3-D COO torch tensor (no dense dims) as CSR, differentiable in its values."""
    t = coalesce_t(t)
    idx, v = t._indices(), values_of(t)
    if t.dim() == 2:
        r = t.shape[0]
        counts = torch.bincount(idx[0], minlength=r)
        crows = torch.cat([counts.new_zeros(1), counts.cumsum(0)])
        return csr(crows, idx[1], v, t.shape)
    b, r = t.shape[0], t.shape[1]
    counts = torch.bincount(idx[0] * r + idx[1], minlength=b * r).reshape(b, r)
    crows = torch.cat([counts.new_zeros(b, 1), counts.cumsum(1)], 1)
    return csr_from_flat(crows.reshape(-1), idx[2], v, t.shape)


def csr_to_coo(t):
    """A CSR torch tensor as (coalesced) COO, differentiable in its values."""
    v = values_of(t)
    return coo(coo_indices(t), v.reshape((-1,) + tuple(v.shape[2 if t.dim() == 3 else 1:])),
               t.shape, coalesced=True)


def coalesce_t(t):
    """``t`` (COO) coalesced as Paddle does (duplicates summed, indices sorted),
    differentiable in its values."""
    if t.is_coalesced():
        return t
    if not t.requires_grad:
        return t.coalesce()
    c = t.detach().coalesce()
    sizes = t.shape[:t.sparse_dim()]
    k = _linear_keys(t._indices(), sizes)
    inv = torch.searchsorted(_linear_keys(c._indices(), sizes), k)
    v = values_of(t)
    summed = v.new_zeros(c._values().shape).index_add(0, inv, v)
    return coo(c._indices(), summed, t.shape, coalesced=True)


def to_dense_t(t):
    """The dense torch tensor of a sparse one, differentiable in its values."""
    if not t.requires_grad:
        return t.to_dense()
    v = values_of(t)
    idx = coo_indices(t)
    if t.layout is _CSR and t.dim() == 3:
        v = v.reshape((-1,) + tuple(v.shape[2:]))
    return v.new_zeros(t.shape).index_put(tuple(idx), v, accumulate=True)


# ------------------------------------------------------------------ making sparse tensors
def _as_index(x, name):
    if isinstance(x, Tensor):
        return x._t
    if isinstance(x, torch.Tensor):
        return x
    return to_tensor(x)._t


def _as_values(values, dtype, place, stop_gradient):
    if not isinstance(values, Tensor):
        values = to_tensor(values, dtype=dtype, place=place)
    elif dtype is not None and values.dtype != _dt.convert_dtype(dtype):
        values = values.astype(dtype)
    # Paddle sets the flag on the values tensor given, which then receives the gradient
    values.stop_gradient = stop_gradient
    v = values._t
    if place is not None:
        v = v.to(to_torch_device(place))
    return v


@op
def sparse_coo_tensor(indices, values, shape=None, dtype=None, place=None, stop_gradient=True):
    """A sparse COO tensor from ``indices`` ``[sparse_dim, nnz]`` and ``values``
    ``[nnz, *dense_shape]``; ``shape`` defaults to the smallest that holds the indices."""
    idx = _as_index(indices, "indices")
    v = _as_values(values, dtype, place, stop_gradient)
    if idx.dim() != 2:
        raise ValueError("'indices' must be 2-D.")
    if idx.shape[1] != v.shape[0]:
        raise ValueError("the indices and values must have same number of non-zero, but get "
                         f"{idx.shape[1]} and {v.shape[0]}")
    idx = idx.to(device=v.device, dtype=torch.int64)
    sparse_dim = idx.shape[0]
    least = (idx.amax(1) + 1).tolist() if idx.shape[1] else [0] * sparse_dim
    least += list(v.shape[1:])
    if shape is None:
        shape = least
    else:
        shape = [int(s) for s in (shape.tolist() if isinstance(shape, Tensor) else shape)]
        if len(shape) != len(least) or any(s < m for s, m in zip(shape, least)):
            raise ValueError(f"the minimum shape required is {least}, but get {shape}")
    return wrap(coo(idx, v, shape))


@op
def sparse_csr_tensor(crows, cols, values, shape, dtype=None, place=None, stop_gradient=True):
    """A sparse CSR tensor (2-D, or 3-D with flat ``crows`` of ``B * (rows + 1)``)."""
    shape = [int(s) for s in (shape.tolist() if isinstance(shape, Tensor) else shape)]
    if len(shape) not in (2, 3):
        raise ValueError(f"SparseCsrTensor only support 2-D or 3-D matrix. but get shape {shape}")
    cr = _as_index(crows, "crows")
    cl = _as_index(cols, "cols")
    v = _as_values(values, dtype, place, stop_gradient)
    for name, a in (("crows", cr), ("cols", cl), ("values", v)):
        if a.dim() != 1:
            raise ValueError(f"SparseCsrTensor only support 1-D {name}, but get {a.dim()}-D")
    if cl.shape[0] != v.shape[0]:
        raise ValueError("the length of cols must be same as length of values")
    rows = shape[-2] + 1
    if cr.shape[0] != (rows if len(shape) == 2 else shape[0] * rows):
        raise ValueError(f"the length of crows must be {rows if len(shape) == 2 else 'batch * '}"
                         f"(rows + 1), but get {cr.shape[0]}")
    cr, cl = cr.to(v.device), cl.to(v.device)
    if cl.dtype != cr.dtype:
        cl = cl.to(cr.dtype)
    return wrap(csr_from_flat(cr, cl, v, shape))


# ------------------------------------------------------------------ Tensor methods
def _fatal(what):
    return SystemError(f"(Fatal) this method is only effective for {what}")


def _unimplemented(kernel):
    return NotImplementedError(f"(Unimplemented) The kernel of ({kernel}) for input tensors is "
                               "unimplemented, please check the type of input tensors.")


@op(method=True, export=False)
def is_sparse(x):
    """Whether x is a sparse (COO or CSR) tensor."""
    return is_sparse_t(x._t)


@op(method=True, export=False)
def is_sparse_coo(x):
    return is_coo(x._t)


@op(method=True, export=False)
def is_sparse_csr(x):
    return is_csr(x._t)


@op(method=True, export=False)
def indices(x):
    """The ``[sparse_dim, nnz]`` indices of a COO tensor."""
    if not is_coo(x._t):
        raise _fatal("SparseCooTensor")
    return wrap(x._t._indices())


@op(method=True, export=False)
def values(x):
    """The values of a sparse tensor (CSR: flat, Paddle's layout); the gradient reaches x."""
    t = x._t
    if not is_sparse_t(t):
        raise _unimplemented("values")
    v = values_of(t)
    if t.layout is _CSR and t.dim() == 3:
        v = v.reshape((-1,) + tuple(v.shape[2:]))
    return wrap(v)


@op(method=True, export=False)
def crows(x):
    """The compressed row offsets of a CSR tensor (3-D: the batches' offsets one after another)."""
    if not is_csr(x._t):
        raise _fatal("SparseCsrTensor")
    return wrap(x._t.crow_indices().reshape(-1))


@op(method=True, export=False)
def cols(x):
    """The column of each value of a CSR tensor (flat)."""
    if not is_csr(x._t):
        raise _fatal("SparseCsrTensor")
    return wrap(x._t.col_indices().reshape(-1))


@op(method=True, export=False)
def nnz(x):
    """The number of stored values (an int)."""
    t = x._t
    if t.layout is _COO:
        return t._nnz()
    if t.layout is _CSR:
        return t.col_indices().numel()
    raise _fatal("SparseCooTensor or SparseCsrTensor")


@op(method=True, export=False)
def dense_dim(x):
    t = x._t
    return t.dense_dim() if is_sparse_t(t) else t.dim()


@op(method=True, export=False)
def sparse_dim(x):
    t = x._t
    return t.sparse_dim() if is_sparse_t(t) else 0


@op(method=True, export=False)
def is_coalesced(x):
    """Whether a COO tensor is coalesced; Paddle defines it for COO tensors only."""
    if not is_coo(x._t):
        raise TypeError("(InvalidType) Method is_coalesced only support sparse coo tensor.")
    return x._t.is_coalesced()


@op(method=True)
def coalesce(x, name=None):
    """x (COO) with duplicate indices summed and the indices sorted."""
    if not is_coo(x._t):
        raise _unimplemented("coalesce")
    return wrap(coalesce_t(x._t))


@op(method=True, export=False)
def to_dense(x):
    """The dense tensor of a sparse one; the gradient reaches the values."""
    if not is_sparse_t(x._t):
        raise _unimplemented("to_dense")
    return wrap(to_dense_t(x._t))


def dense_to_coo(t, sparse_dim):
    """A dense torch tensor as COO (its non-zero entries, coalesced), differentiable."""
    if sparse_dim > t.dim():
        raise ValueError("(InvalidArgument) sparse_dim must be less than the size of x.dims()")
    s = t.detach().to_sparse(sparse_dim).coalesce()
    idx = s._indices()
    v = t[tuple(idx)] if t.requires_grad else s._values()
    return coo(idx, v, t.shape, coalesced=True)


@op(method=True, export=False)
def to_sparse_coo(x, sparse_dim):
    """x as a sparse COO tensor with ``sparse_dim`` sparse dims (a COO tensor is returned as
    it is; CSR is converted)."""
    t = x._t
    if t.layout is _COO:
        return x
    if t.layout is _CSR:
        return wrap(csr_to_coo(t))
    return wrap(dense_to_coo(t, sparse_dim))


@op(method=True, export=False)
def to_sparse_csr(x):
    """x (dense or COO, 2-D or 3-D) as a sparse CSR tensor."""
    t = x._t
    if t.layout is _CSR:
        return x
    if t.dim() not in (2, 3):
        raise ValueError("(InvalidArgument) SparseCsrTensor only support 2-D or 3-D Tensor.")
    if t.layout is _COO:
        return wrap(coo_to_csr(t))
    return wrap(coo_to_csr(dense_to_coo(t, t.dim())))
