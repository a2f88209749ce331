"""Sparse convolution and pooling kernels on torch, for COO tensors in Paddle's channel-last
layout ``[N, D, H, W, C]`` (``[N, H, W, C]`` in 2-d): the indices hold ``(batch, z, y, x)``
of each active site, the values ``[nnz, C]`` its channels.

torch has no sparse convolution, so it is built here from a *rulebook*: for every kernel offset
``k`` the pairs (input row, output row) it joins. An input site ``q`` reaches the output site
``p`` through offset ``k`` when ``q + pad - k * dilation == p * stride`` (the cross-correlation
of a dense ``conv3d``, restricted to active sites):

* regular convolution (``subm=False``): the output sites are every site some active input
  reaches, in sorted (row-major) order, as Paddle returns them;
* submanifold convolution (``subm=True``): the output sites are the input sites, in the input's
  order, and the output keeps the input's spatial shape.

The rulebook is built without a Python loop over points: every site gets a linear key
(``((b * D + z) * H + y) * W + x``); all ``K x nnz`` candidate pairs are formed at once by
broadcasting; ``torch.unique`` numbers the output sites of a regular convolution and
``torch.searchsorted`` on the sorted input keys finds a submanifold convolution's neighbours.
The convolution then runs one gather, one matmul and one scatter-add per kernel offset (27
for a 3x3x3 kernel), in a ``torch.autograd.Function`` whose backward does the same per offset
(gradients of the values and of the kernel ``[kd, kh, kw, C_in, C_out]``).
"""
import math

import torch

__all__ = ["Rulebook", "build_rulebook", "sparse_conv", "sparse_max_pool", "cached_rulebook"]


class Rulebook:
    """Which input rows feed which output rows, per kernel offset.

    ``pairs[k]`` is ``None`` (offset ``k`` joins nothing), ``"identity"`` (input row i feeds
    output row i for every i: the centre of a submanifold kernel) or ``(in_rows, out_rows)``.
    ``out_indices`` are the output sites ``[1 + ndim, n_out]`` and ``out_spatial`` the output's
    spatial shape."""

    __slots__ = ("pairs", "out_indices", "n_out", "out_spatial", "signature", "_ref")

    def __init__(self, pairs, out_indices, out_spatial, signature, ref):
        self.pairs = pairs
        self.out_indices = out_indices
        self.n_out = out_indices.shape[1]
        self.out_spatial = tuple(out_spatial)
        self.signature = signature
        self._ref = ref  # the input indices, kept alive so that their storage stays theirs


def out_size(size, k, stride, pad_lo, pad_hi, dil):
    return (size + pad_lo + pad_hi - dil * (k - 1) - 1) // stride + 1


def _linear_keys(batch, coords, dims):
    """Row-major linear key of (batch, coords...) in a grid of ``dims`` (spatial)."""
    key = batch
    for i, d in enumerate(dims):
        key = key * d + coords[i]
    return key


def _offsets(ksize, device):
    grids = torch.meshgrid(*[torch.arange(k, device=device) for k in ksize], indexing="ij")
    return torch.stack([g.reshape(-1) for g in grids], 1)  # [K, ndim], last axis fastest


def build_rulebook(indices, spatial, ksize, stride, pad, dil, subm):
    """The rulebook of a convolution (or pooling) over the active sites ``indices``
    ``[1 + ndim, nnz]`` (int64) of a grid with spatial shape ``spatial``. ``pad`` is the
    padding before each spatial axis (after-padding only changes the output size)."""
    signature = (tuple(spatial), tuple(ksize), tuple(stride), tuple(pad), tuple(dil), bool(subm))
    if subm:
        pairs, out_indices, out_spatial = _subm_pairs(indices, spatial, ksize, pad, dil)
    else:
        pairs, out_indices, out_spatial = _conv_pairs(indices, spatial, ksize, stride, pad, dil)
    return Rulebook(pairs, out_indices, out_spatial, signature, indices)


def _subm_pairs(indices, spatial, ksize, pad, dil):
    """Submanifold: output site p takes input q = p - pad + k * dil where q is active. Keys are
    taken in a grid widened by the kernel's reach on every side, so that a neighbour's key is
    the site's key plus one constant per offset (no wrap-around from one row into the next),
    and all K x nnz neighbour keys are looked up at once in the sorted input keys."""
    nd = len(spatial)
    device = indices.device
    nnz = indices.shape[1]
    offs = _offsets(ksize, device) * torch.tensor(dil, device=device) \
        - torch.tensor(pad, device=device)                          # [K, nd] q - p
    reach = [max(int(offs[:, i].abs().max()), 0) if offs.numel() else 0 for i in range(nd)]
    wide = [spatial[i] + 2 * reach[i] for i in range(nd)]
    keys = _linear_keys(indices[0], [indices[1 + i] + reach[i] for i in range(nd)], wide)
    delta = _linear_keys(torch.zeros(offs.shape[0], dtype=torch.int64, device=device),
                         offs.unbind(1), wide)                      # [K] key(q) - key(p)
    sorted_keys, order = torch.sort(keys)
    query = sorted_keys.unsqueeze(0) + delta.unsqueeze(1)          # [K, nnz] from each p
    pos = torch.searchsorted(sorted_keys, query).clamp_(max=max(nnz - 1, 0))
    hit = sorted_keys[pos] == query if nnz else torch.zeros_like(query, dtype=torch.bool)
    # out-of-grid neighbours: a key in the widened grid whose coordinate is outside the real one
    # is never an input key, so ``hit`` already excludes them
    pairs = []
    is_sorted = bool((order[1:] > order[:-1]).all())   # coalesced input: order is 0..n-1
    for k, dk in enumerate(delta.tolist()):
        if dk == 0:
            pairs.append("identity")
            continue
        j = hit[k].nonzero().squeeze(1)
        if j.numel() == 0:
            pairs.append(None)
            continue
        src = pos[k].index_select(0, j)
        if is_sorted:
            pairs.append((src, j))
        else:
            pairs.append((order.index_select(0, src), order.index_select(0, j)))
    return pairs, indices, tuple(spatial)


def _conv_pairs(indices, spatial, ksize, stride, pad, dil):
    """Regular convolution: input q reaches output p through offset k when
    q + pad - k * dil == p * stride; all K x nnz candidates at once, the output sites
    numbered by ``torch.unique`` (sorted: Paddle's order)."""
    nd = len(spatial)
    device = indices.device
    K = math.prod(ksize)
    batch = indices[0]
    coords = indices[1:]
    offs = _offsets(ksize, device)  # [K, nd]
    st = torch.tensor(stride, device=device).view(1, nd, 1)
    num = coords.unsqueeze(0) + torch.tensor(pad, device=device).view(1, nd, 1) \
        - offs.unsqueeze(2) * torch.tensor(dil, device=device).view(1, nd, 1)  # [K, nd, nnz]
    out_spatial = tuple(out_size(spatial[i], ksize[i], stride[i], pad[i], pad[i], dil[i])
                        for i in range(nd))
    cand = torch.div(num, st, rounding_mode="floor")
    ok = ((num >= 0) & (num - cand * st == 0)
          & (cand < torch.tensor(out_spatial, device=device).view(1, nd, 1))).all(1)
    k_idx, in_rows = ok.nonzero(as_tuple=True)
    c = cand[k_idx, :, in_rows]  # [P, nd]
    keys = _linear_keys(batch[in_rows], c.unbind(1), out_spatial)
    uniq, out_rows = torch.unique(keys, sorted=True, return_inverse=True)
    out_indices = _unravel(uniq, out_spatial)
    counts = torch.bincount(k_idx, minlength=K).tolist()
    pairs = [None if n == 0 else (a, b) for n, a, b in
             zip(counts, torch.split(in_rows, counts), torch.split(out_rows, counts))]
    return pairs, out_indices, out_spatial


def _unravel(keys, dims):
    coords = []
    for d in reversed(dims):
        coords.append(keys % d)
        keys = torch.div(keys, d, rounding_mode="floor")
    coords.append(keys)
    return torch.stack(coords[::-1], 0)


# key -> Rulebook: the rulebooks shared between layers through ``key`` (subm convolutions of one
# point cloud). An entry is reused only for the same input sites (the same indices storage,
# unmodified) and the same geometry; otherwise it is rebuilt and replaced.
_CACHE = {}


def _same_sites(a, b):
    return (a is b) or (a.data_ptr() == b.data_ptr() and a.shape == b.shape
                        and a.stride() == b.stride() and a._version == b._version
                        and a.device == b.device)


def cached_rulebook(key, indices, spatial, ksize, stride, pad, dil, subm):
    signature = (tuple(spatial), tuple(ksize), tuple(stride), tuple(pad), tuple(dil), bool(subm))
    if key:
        rb = _CACHE.get(key)
        if rb is not None and rb.signature == signature and _same_sites(rb._ref, indices):
            return rb
    rb = build_rulebook(indices, spatial, ksize, stride, pad, dil, subm)
    if key:
        _CACHE[key] = rb
    return rb


class _SparseConv(torch.autograd.Function):
    """values ``[nnz, C_in]``, kernel ``[K, C_in, C_out]`` -> output values ``[n_out, C_out]``."""

    @staticmethod
    def forward(ctx, values, weight, rb):
        ctx.rb = rb
        ctx.save_for_backward(values, weight)
        return _conv_forward(values, weight, rb)

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad):
        values, weight = ctx.saved_tensors
        rb = ctx.rb
        need_x, need_w = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        gx = torch.zeros_like(values) if need_x else None
        gw = torch.zeros_like(weight) if need_w else None
        grad = grad.contiguous()
        for k, p in enumerate(rb.pairs):
            if p is None:
                continue
            if p == "identity":
                if need_w:
                    torch.mm(values.t(), grad, out=gw[k])
                if need_x:
                    gx.addmm_(grad, weight[k].t())
                continue
            in_rows, out_rows = p
            g = grad.index_select(0, out_rows)
            if need_w:
                torch.mm(values.index_select(0, in_rows).t(), g, out=gw[k])
            if need_x:
                _add_rows(gx, in_rows, torch.mm(g, weight[k].t()))
        return gx, gw, None


def _add_rows(out, rows, src):
    """``out[rows[i]] += src[i]`` (repeated rows add up). ``scatter_add_`` with the row index
    broadcast over the columns: torch's CPU ``index_add_`` runs one small kernel per row here,
    some 1000x slower."""
    out.scatter_add_(0, rows.unsqueeze(1).expand(-1, src.shape[1]), src)


def _conv_forward(values, weight, rb):
    out = values.new_zeros((rb.n_out, weight.shape[2]))
    for k, p in enumerate(rb.pairs):
        if p is None:
            continue
        if p == "identity":
            out.addmm_(values, weight[k])
        else:
            in_rows, out_rows = p
            _add_rows(out, out_rows, torch.mm(values.index_select(0, in_rows), weight[k]))
    return out


def sparse_conv(values, weight, rb):
    """Output values of the convolution given by rulebook ``rb``; ``weight`` is Paddle's kernel
    ``[*ksize, C_in, C_out]``."""
    K = len(rb.pairs)
    w = weight.reshape(K, weight.shape[-2], weight.shape[-1])
    if values.dtype != w.dtype:
        raise TypeError(f"sparse conv: x is {values.dtype} but the kernel is {w.dtype}")
    return _SparseConv.apply(values.contiguous(), w, rb)


class _SparseMaxPool(torch.autograd.Function):
    """Channel-wise max over the active inputs each output site reaches; the gradient goes to
    every input equal to its output's maximum (Paddle's rule: ties all receive it)."""

    @staticmethod
    def forward(ctx, values, rb):
        C = values.shape[1]
        out = values.new_full((rb.n_out, C), float("-inf"))
        for p in rb.pairs:
            if p is None:
                continue
            in_rows, out_rows = _rows(p, rb.n_out, values.device)
            out.scatter_reduce_(0, out_rows.unsqueeze(1).expand(-1, C),
                                values.index_select(0, in_rows), "amax")
        ctx.rb = rb
        ctx.save_for_backward(values, out)
        return out

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad):
        values, out = ctx.saved_tensors
        gx = torch.zeros_like(values)
        for p in ctx.rb.pairs:
            if p is None:
                continue
            in_rows, out_rows = _rows(p, ctx.rb.n_out, values.device)
            hit = values.index_select(0, in_rows) == out.index_select(0, out_rows)
            _add_rows(gx, in_rows, grad.index_select(0, out_rows) * hit)
        return gx, None


def _rows(p, n, device):
    if p == "identity":
        r = torch.arange(n, device=device)
        return r, r
    return p


def sparse_max_pool(values, rb):
    return _SparseMaxPool.apply(values.contiguous(), rb)
