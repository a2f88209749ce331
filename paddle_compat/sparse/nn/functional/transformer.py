"""``attention``: scaled dot-product attention computed only at the positions of a sparse CSR
mask (Paddle's kernel is CUDA-only; this one runs on any device with torch ops).

    out = softmax_rows(Q K^T / sqrt(head_dim) at the mask's positions) V

``query``/``key``/``value`` are dense ``[batch, heads, seq, head_dim]``; ``sparse_mask`` a CSR
tensor ``[batch * heads, seq, seq]`` whose *positions* matter, not its values. A position whose
``key_padding_mask[b, j]`` (``[batch, seq]``) or ``attn_mask[i, j]`` (``[seq, seq]``) is 0 takes
no part in its row's softmax (as Paddle's kernel does; a row with every position masked gives
NaN there, as exp(-inf - -inf) does in Paddle's).
"""
import math

import torch

from ....framework.tensor import Tensor, wrap
from ...tensor import coo_indices, is_csr

__all__ = ["attention"]


def _dense(x, api, arg, pos):
    if not isinstance(x, Tensor):
        raise ValueError(f"(InvalidArgument) {api}(): argument '{arg}' (position {pos}) must "
                         f"be Tensor, but got {type(x).__name__}")
    return x._t


def attention(query, key, value, sparse_mask, key_padding_mask=None, attn_mask=None,
              name=None):
    """Sparse attention over the CSR layout ``sparse_mask``: ``[batch, heads, seq,
    head_dim]`` out."""
    q = _dense(query, "attention", "query", 0)
    k = _dense(key, "attention", "key", 1)
    v = _dense(value, "attention", "value", 2)
    for t, n in ((q, "query"), (k, "key"), (v, "value")):
        if t.dim() != 4:
            raise ValueError(f"(InvalidArgument)  '{n}' must be 4D Tensor")
    if not isinstance(sparse_mask, Tensor) or not is_csr(sparse_mask._t):
        raise ValueError("(InvalidArgument) attention(): argument 'sparse_mask' must be a "
                         "sparse CSR tensor")
    m = sparse_mask._t
    b, h, s, d = q.shape
    if m.dim() != 3 or list(m.shape) != [b * h, s, s]:
        raise ValueError("(InvalidArgument) dense shape of 'sparse_mask' must be "
                         "[batch_size*num_heads, seq_len, seq_len]")
    idx = coo_indices(m)
    bh, i, j = idx[0], idx[1], idx[2]
    qf = q.reshape(b * h, s, d)
    kf = k.reshape(b * h, s, d)
    vf = v.reshape(b * h, s, v.shape[-1])
    score = (qf[bh, i] * kf[bh, j]).sum(-1) * (1.0 / math.sqrt(d))
    masked = None
    if key_padding_mask is not None:
        kp = _dense(key_padding_mask, "attention", "key_padding_mask", 4)
        if list(kp.shape) != [b, s]:
            raise ValueError("(InvalidArgument) shape of 'key_padding_mask' must be "
                             "[batch_size, seq_len]")
        masked = kp[torch.div(bh, h, rounding_mode="floor"), j] == 0
    if attn_mask is not None:
        am = _dense(attn_mask, "attention", "attn_mask", 5)
        if list(am.shape) != [s, s]:
            raise ValueError("(InvalidArgument) shape of 'attn_mask' must be "
                             "[seq_len, seq_len]")
        hit = am[i, j] == 0
        masked = hit if masked is None else masked | hit
    if masked is not None:
        score = score.masked_fill(masked, float("-inf"))
    rows = bh * s + i
    n = b * h * s
    top = torch.full((n,), float("-inf"), dtype=score.dtype, device=score.device)
    top = top.scatter_reduce(0, rows, score.detach(), "amax")
    e = torch.exp(score - top[rows])
    p = e / torch.zeros(n, dtype=e.dtype, device=e.device).scatter_add(0, rows, e)[rows]
    out = torch.zeros((n, vf.shape[-1]), dtype=vf.dtype, device=vf.device)
    src = p.unsqueeze(1) * vf[bh, j]
    out = out.scatter_add(0, rows.unsqueeze(1).expand(-1, src.shape[1]), src)
    return wrap(out.reshape(b, h, s, vf.shape[-1]))
