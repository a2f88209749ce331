"""Attention of ``paddle.nn.functional``: ``scaled_dot_product_attention``, ``flash_attention``
(Paddle's ``paddle.nn.functional.flash_attention.flash_attention``), ``flashmask_attention`` and
the ``sdp_kernel`` backend switch.

Paddle's layout is [batch, seq, heads, head_dim]; torch's SDPA wants [batch, heads, seq, dim],
so q, k and v go in as transposed views and the result comes back the same way. GQA (fewer key
heads than query heads) is torch's ``enable_gqa``. With dropout in training the weights are
computed explicitly and dropped with Paddle's dropout (the same mask as Paddle on CPU).

``flashmask_attention`` (GPU-only in Paddle) builds the dense mask its docs define from
``startend_row_indices``; rows with every key masked give zeros, as Paddle's kernel does.

``sparse_attention`` (CUDA-only in Paddle, no CPU kernel) follows its kernel's definition with
dense torch ops: the scores q.k / sqrt(head_dim) are kept at the CSR layout's positions, a key
padding mask or attention mask value of 0 masks a position, and the softmax runs over the kept
positions of each row (a row with none gives zeros).
"""
import contextlib
import math

import torch

from ...framework.tensor import wrap
from ...ops.common import not_tensor
from .common import dropout

__all__ = ["scaled_dot_product_attention", "flashmask_attention", "sdp_kernel",
           "sparse_attention"]

_sdpa = torch._C._nn.scaled_dot_product_attention


def _dropout(weights, p, training):
    return dropout(wrap(weights), p, training=training)._t


def _explicit(q, k, v, mask, dropout_p, causal, training, scale):
    """Attention in torch layout with the weights spelled out (for dropout and for returning
    the softmax); Paddle's causal mask puts -1e4 above the diagonal (exp underflows to 0
    either way)."""
    hq, hk = q.shape[1], k.shape[1]
    if hk and hq != hk:
        k = k.repeat_interleave(hq // hk, 1)
        v = v.repeat_interleave(hq // hk, 1)
    scores = torch.matmul(q * scale, k.transpose(-1, -2))
    if causal:
        upper = torch.ones(scores.shape[-2:], dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(upper, -1e4)
    elif mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, -1)
    if dropout_p > 0:
        weights = _dropout(weights, dropout_p, training)
    return torch.matmul(weights, v), weights


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, training=True, backend=None, scale=None,
                                 enable_gqa=True, name=None):
    """softmax(q k^T * scale + mask) v over [batch, seq, heads, head_dim] inputs (3-D inputs
    are one batch). A bool mask keeps True; a float mask is added; ``is_causal`` ignores
    ``attn_mask`` as Paddle does."""
    try:
        q, k, v = query._t, key._t, value._t
    except AttributeError:
        bad = next(a for a in (query, key, value) if not hasattr(a, "_t"))
        raise not_tensor("scaled_dot_product_attention", "query", 0, bad) from None
    batched = q.dim() == 4
    if not batched:
        q, k, v = q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0)
    hq, hk, hv = q.shape[2], k.shape[2], v.shape[2]
    if enable_gqa:
        assert hk == 0 or hq % hk == 0, (
            f"The number of groups in query({hq}) must be divisible by the number of groups in "
            f"key({hk}) if GQA enabled.")
        assert hk == hv, (f"The number of groups in key({hk}) must be equal to the number of "
                          f"groups in value({hv}) if GQA enabled.")
    else:
        assert hq == hk == hv, (
            f"The number of groups in query({hq}) must be equal to the number of groups in "
            f"key({hk}) and the number of groups in value({hv}) if GQA disabled.")
    q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
    mask = None
    if attn_mask is not None and not is_causal:
        mask = attn_mask._t
        if mask.dtype != torch.bool and mask.dtype != q.dtype:
            mask = mask.to(q.dtype)
    if dropout_p > 0 and training:
        if mask is not None and mask.dtype == torch.bool:
            mask = torch.zeros((), dtype=q.dtype, device=q.device).masked_fill(~mask, -math.inf)
        out = _explicit(q, k, v, mask, dropout_p, is_causal, training,
                        scale or q.shape[-1] ** -0.5)[0]
    elif q.numel() == 0 or k.numel() == 0:
        out = torch.zeros(q.shape[:-1] + v.shape[-1:], dtype=q.dtype, device=q.device)
    else:
        out = _sdpa(q, k, v, mask, 0.0, is_causal, scale=scale or None,
                    enable_gqa=hq != hk)
    out = out.transpose(1, 2)
    return wrap(out if batched else out.squeeze(0))


def flash_attention(query, key, value, dropout=0.0, causal=False, return_softmax=False, *,
                    fixed_seed_offset=None, rng_name="", training=True, name=None,
                    softmax_scale=None):
    """Attention over [batch, seq, heads, head_dim]; returns ``(out, softmax or None)``."""
    if fixed_seed_offset is not None:
        raise NotImplementedError("flash_attention: fixed_seed_offset is not supported")
    q, k, v = query._t.transpose(1, 2), key._t.transpose(1, 2), value._t.transpose(1, 2)
    scale = softmax_scale or q.shape[-1] ** -0.5
    if return_softmax or (dropout > 0 and training):
        out, weights = _explicit(q, k, v, None, dropout, causal, training, scale)
        return wrap(out.transpose(1, 2)), wrap(weights) if return_softmax else None
    out = _sdpa(q, k, v, None, 0.0, causal, scale=scale, enable_gqa=q.shape[1] != k.shape[1])
    return wrap(out.transpose(1, 2)), None


def _window_rows(window_size, causal, sq, bsz, device):
    """Paddle's ``startend_row_indices`` for a sliding window of ``window_size``."""
    if isinstance(window_size, int):
        window_size = (window_size, window_size)
    rows = torch.arange(sq, dtype=torch.int32, device=device)
    lower = (rows + window_size[0] + 1).clamp(max=sq)
    if causal:
        sri = lower.reshape(1, 1, sq, 1)
    else:
        upper = (rows - window_size[1]).clamp(min=0, max=sq)
        sri = torch.stack([lower, upper], -1).reshape(1, 1, sq, 2)
    return sri.expand(bsz, -1, -1, -1)


def flashmask_mask(startend_row_indices, causal, sq):
    """The dense keep-mask [batch, heads, sq, sk] that ``startend_row_indices``
    [batch, heads, sk, 1|2|4] describes (column j masks rows in the given ranges)."""
    sri = startend_row_indices.to(torch.int64).transpose(-1, -2).unsqueeze(-2)  # [B,H,r,1,sk]
    r = sri.shape[2]
    rows = torch.arange(sq, device=sri.device).reshape(sq, 1)
    if causal:
        if r not in (1, 2):
            raise ValueError("Invalid shape of startend_row_indices, when causal is True, the "
                             f"last dimension should be either 1 or 2 but got {r}")
        masked = rows >= sri[:, :, 0]
        if r == 2:
            masked &= rows < sri[:, :, 1]
        sk = sri.shape[-1]
        masked |= rows < torch.arange(sk, device=sri.device)     # above the diagonal
    else:
        if r not in (2, 4):
            raise ValueError("Invalid shape of startend_row_indices, when causal is False, the "
                             f"last dimension should be either 2 or 4 but got {r}")
        if r == 2:
            masked = (rows >= sri[:, :, 0]) | (rows < sri[:, :, 1])
        else:
            masked = ((rows >= sri[:, :, 0]) & (rows < sri[:, :, 1])) | \
                     ((rows >= sri[:, :, 2]) & (rows < sri[:, :, 3]))
    return ~masked


def flashmask_attention(query, key, value, startend_row_indices=None, *, dropout=0.0,
                        causal=False, window_size=None, return_softmax_lse=False,
                        return_seed_offset=False, fixed_seed_offset=None, rng_name="",
                        training=True, name=None, softmax_scale=None, block_mask=None):
    """Attention over [batch, seq, heads, head_dim] with FlashMask's column-wise sparse mask
    (see ``flashmask_mask``), a sliding ``window_size``, or plain (causal) attention."""
    for arg, val in (("return_seed_offset", return_seed_offset),
                     ("fixed_seed_offset", fixed_seed_offset), ("block_mask", block_mask)):
        if val not in (None, False):
            raise NotImplementedError(f"flashmask_attention: {arg} is not supported")
    q, k, v = query._t.transpose(1, 2), key._t.transpose(1, 2), value._t.transpose(1, 2)
    bsz, hq, sq = q.shape[:3]
    hk = k.shape[1]
    if window_size is not None:
        assert startend_row_indices is None, \
            "can't use window_size with startend_row_indices"
        sri = _window_rows(window_size, causal, sq, bsz, q.device)
    elif startend_row_indices is not None:
        sri = startend_row_indices._t
        assert sri.dtype == torch.int32, \
            f"startend_row_indices.dtype must be paddle.int32, but got {sri.dtype}"
        assert sri.dim() == 4, f"startend_row_indices rank must be 4,but got {list(sri.shape)}"
        assert sri.shape[0] == k.shape[0] and sri.shape[2] == k.shape[2], \
            "startend_row_indices must be [batch_size, heads, seqlen_k, r]"
        assert sri.shape[1] in (1, hq, hk), ("startend_row_indices head_num must be equal to "
                                             "1(broadcast) or head_num_q or head_num_k.")
    else:
        sri = None
    scale = softmax_scale or q.shape[-1] ** -0.5
    if hq != hk:
        k = k.repeat_interleave(hq // hk, 1)
        v = v.repeat_interleave(hq // hk, 1)
    if sri is None:
        keep = None
        if causal:
            keep = torch.ones(sq, k.shape[2], dtype=torch.bool, device=q.device).tril()
    else:
        keep = flashmask_mask(sri, causal, sq)
        if keep.shape[1] not in (1, hq):
            keep = keep.repeat_interleave(hq // keep.shape[1], 1)
    if keep is not None:
        empty = ~keep.any(-1, keepdim=True)            # rows with no key: output zeros
        keep = keep | empty
    p = dropout if training else 0.0
    out = _sdpa(q, k, v, keep, p, False, scale=scale)
    if keep is not None:
        out = out.masked_fill(empty, 0)
    result = [wrap(out.transpose(1, 2))]
    if return_softmax_lse:
        scores = torch.matmul(q.float() * scale, k.float().transpose(-1, -2))
        if keep is not None:
            scores = scores.masked_fill(~keep, -math.inf)
        result.append(wrap(torch.logsumexp(scores, -1)))
    return result[0] if len(result) == 1 else result


@contextlib.contextmanager
def sdp_kernel(enable_math=False, enable_flash=True, enable_mem_efficient=True):
    """Paddle's backend switch for attention; torch picks its kernel itself, so this only
    scopes the call."""
    yield


def _csr_layout(offset, columns, seq):
    """The dense boolean [B, H, seq, seq] layout of per-(batch, head) CSR rows."""
    nnz = columns.shape[-1]
    pos = torch.arange(nnz, device=columns.device).expand(columns.shape).contiguous()
    rows = torch.searchsorted(offset[..., 1:].contiguous().long(), pos, right=True)
    flat = rows.clamp(max=seq - 1) * seq + columns.long()
    keep = (pos < offset[..., -1:].long()) & (rows < seq)
    counts = torch.zeros(columns.shape[:-1] + (seq * seq,), dtype=torch.int32,
                         device=columns.device).scatter_add(-1, flat, keep.to(torch.int32))
    return (counts > 0).reshape(columns.shape[:-1] + (seq, seq))


def sparse_attention(query, key, value, sparse_csr_offset, sparse_csr_columns,
                     key_padding_mask=None, attn_mask=None, name=None):
    """Attention over [batch, heads, seq, head_dim] restricted to the CSR layout
    (``sparse_csr_offset`` [B, H, seq + 1], ``sparse_csr_columns`` [B, H, nnz]);
    ``key_padding_mask`` [B, seq] and ``attn_mask`` [seq, seq] mask where they are 0."""
    q, k, v = query._t, key._t, value._t
    seq = q.shape[-2]
    layout = _csr_layout(sparse_csr_offset._t, sparse_csr_columns._t, seq)
    scores = torch.matmul(q, k.transpose(-1, -2)) * (1.0 / math.sqrt(q.shape[-1]))
    masked = ~layout
    if key_padding_mask is not None:
        masked = masked | (key_padding_mask._t == 0)[:, None, None, :]
    if attn_mask is not None:
        masked = masked | (attn_mask._t == 0)
    weights = torch.softmax(scores.masked_fill(masked, -math.inf), -1)
    weights = weights.masked_fill(~layout.any(-1, keepdim=True), 0.0)
    return wrap(torch.matmul(weights, v))
