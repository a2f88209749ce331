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
           "sparse_attention", "flash_attn_qkvpacked", "flash_attn_varlen_qkvpacked",
           "flash_attention_v3_varlen", "flash_attn_unpadded", "attention_math"]

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
    return torch.matmul(weights, v), weights, scores


def attention_math(q, k, v, mask, dropout_p, causal, training, scale):
    """Attention in torch layout [batch, heads, seq, dim] with everything a fused kernel
    returns: (out, the softmax weights, their float32 log-sum-exp [batch, heads, seq_q]).
    ``mask`` is added to the scores (a bool mask keeps True)."""
    if mask is not None and mask.dtype == torch.bool:
        mask = torch.zeros((), dtype=q.dtype, device=q.device).masked_fill(~mask, -math.inf)
    elif mask is not None and mask.dtype != q.dtype:
        mask = mask.to(q.dtype)
    out, weights, scores = _explicit(q, k, v, mask, dropout_p if training else 0.0, causal,
                                     training, scale)
    return out, weights, torch.logsumexp(scores.float(), -1)


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
        out, weights, _ = _explicit(q, k, v, None, dropout, causal, training, scale)
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


# ---------------------------------------------------------------------- packed / varlen flash
def flash_attn_qkvpacked(qkv, dropout=0.0, causal=False, return_softmax=False, *,
                         fixed_seed_offset=None, rng_name="", training=True, name=None):
    """``flash_attention`` of one packed tensor ``qkv`` [batch, seq, groups + 2, kv_heads,
    head_dim]: the query heads are ``qkv[:, :, :-2]`` read as [batch, seq, groups * kv_heads,
    head_dim] (as Paddle's non-flash path reads them), key and value ``qkv[:, :, -2]`` and
    ``qkv[:, :, -1]``; query head i uses key/value head ``i // groups``."""
    t = qkv._t
    q = t[:, :, :-2].reshape(t.shape[0], t.shape[1], -1, t.shape[-1])
    return flash_attention(wrap(q), wrap(t[:, :, -2]), wrap(t[:, :, -1]), dropout, causal,
                           return_softmax, fixed_seed_offset=fixed_seed_offset,
                           rng_name=rng_name, training=training)


def _varlen_rows(cu, total, max_len, padded, used):
    """For each of ``total`` packed rows: its sequence, its position in it and whether it is
    a real token. Unpadded rows run ``cu[i]:cu[i + 1]``; padded ones (``varlen_padded``) sit
    in blocks of ``max_len`` rows, sequence i's first ``cu[i + 1] - cu[i]`` rows real;
    ``used`` (seqused) caps each sequence's length."""
    cu = cu.to(torch.int64)
    n = cu.numel() - 1
    rows = torch.arange(total, device=cu.device)
    if padded:
        seq, pos = rows // max_len, rows % max_len
    else:
        seq = torch.searchsorted(cu[1:].contiguous(), rows, right=True)
        pos = rows - cu[seq.clamp(max=n - 1)]
    real = seq < n
    seq = seq.clamp(max=n - 1)
    lens = (cu[1:] - cu[:-1]) if used is None else used.to(torch.int64)
    length = lens[seq]
    return seq, pos, length, real & (pos < length)


def _varlen(q, k, v, cu_q, cu_k, max_q, max_k, scale, causal, padded=False, used_q=None,
            used_k=None, window=(-1, -1), softcap=0.0, dropout=0.0, training=True):
    """Attention of packed tokens q [Tq, Hq, D], k/v [Tk, Hk, D] within each sequence, as one
    masked dense product. Causal masks and windows align each sequence's last query with its
    last key (bottom-right, as flash-attn does when the lengths differ). Rows with no key give
    zeros; returns (out [Tq, Hq, D], lse [Hq, Tq] float32)."""
    sq, pq, lq, rq = _varlen_rows(cu_q, q.shape[0], max_q, padded, used_q)
    sk, pk, lk, rk = _varlen_rows(cu_k, k.shape[0], max_k, padded, used_k)
    keep = (sq[:, None] == sk[None, :]) & rq[:, None] & rk[None, :]
    diag = pq[:, None] + (lk[None, :] - lq[:, None])     # the key aligned with each query
    left, right = window
    if causal:
        right = 0
    if left >= 0:
        keep &= pk[None, :] >= diag - left
    if right >= 0:
        keep &= pk[None, :] <= diag + right
    hq, hk = q.shape[1], k.shape[1]
    if hq != hk:
        k = k.repeat_interleave(hq // hk, 1)
        v = v.repeat_interleave(hq // hk, 1)
    scores = torch.matmul(q.transpose(0, 1) * scale, k.permute(1, 2, 0))    # [H, Tq, Tk]
    if softcap > 0:
        scores = softcap * torch.tanh(scores / softcap)
    empty = ~keep.any(-1)
    lse = torch.logsumexp(scores.float().masked_fill(~keep, -math.inf), -1)
    # a row with no key: softmax over all (finite) then zeroed, so no NaN reaches backward
    scores = scores.masked_fill(~(keep | empty[:, None]), -math.inf)
    weights = torch.softmax(scores, -1).masked_fill(empty[:, None], 0.0)
    if dropout > 0:
        weights = _dropout(weights, dropout, training)
    out = torch.matmul(weights, v.transpose(0, 1)).transpose(0, 1)
    return out, lse


def flash_attn_varlen_qkvpacked(qkv, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
                                scale, dropout=0.0, causal=False, return_softmax=False,
                                fixed_seed_offset=None, rng_name="", varlen_padded=True,
                                training=True, name=None):
    """Variable-length attention of packed tokens ``qkv`` [total, groups + 2, kv_heads,
    head_dim] (query heads ``qkv[:, :-2]`` read as groups * kv_heads), each sequence attending
    only to itself. With ``varlen_padded`` (the default) sequence i's tokens are the first
    ``cu_seqlens[i + 1] - cu_seqlens[i]`` of the rows ``i * max_seqlen`` onwards and the
    padding rows of the output are zeros; otherwise the sequences are packed back to back at
    ``cu_seqlens``. Returns ``(out [total, heads, head_dim], None)``. (GPU-only in Paddle.)"""
    if return_softmax:
        raise NotImplementedError("flash_attn_varlen_qkvpacked: return_softmax is not supported")
    if fixed_seed_offset is not None:
        raise NotImplementedError("flash_attn_varlen_qkvpacked: fixed_seed_offset is not "
                                  "supported")
    t = qkv._t
    q = t[:, :-2].reshape(t.shape[0], -1, t.shape[-1])
    out, _ = _varlen(q, t[:, -2], t[:, -1], cu_seqlens_q._t, cu_seqlens_k._t,
                     int(max_seqlen_q), int(max_seqlen_k), scale, causal, varlen_padded,
                     dropout=dropout if training else 0.0, training=training)
    return wrap(out), None


def flash_attn_unpadded(query, key, value, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                        max_seqlen_k, scale, dropout=0.0, causal=False, return_softmax=False,
                        fixed_seed_offset=None, rng_name="", training=True, name=None):
    """Variable-length attention of sequences packed back to back: query [total_q, heads,
    head_dim], key/value [total_k, kv_heads, head_dim], sequence i's tokens at rows
    ``cu_seqlens[i]:cu_seqlens[i + 1]``, each attending only to itself (``causal`` aligns each
    sequence's last query with its last key). Returns ``(out [total_q, heads, head_dim],
    None)``. (GPU-only in Paddle.)"""
    for arg, val in (("return_softmax", return_softmax),
                     ("fixed_seed_offset", fixed_seed_offset)):
        if val not in (None, False):
            raise NotImplementedError(f"flash_attn_unpadded: {arg} is not supported")
    q, k, v = (a._t if hasattr(a, "_t") else _raise_not_tensor("flash_attn_unpadded", n, i, a)
               for i, (a, n) in enumerate(((query, "query"), (key, "key"), (value, "value"))))
    out, _ = _varlen(q, k, v, cu_seqlens_q._t, cu_seqlens_k._t, int(max_seqlen_q),
                     int(max_seqlen_k), scale, causal, dropout=dropout if training else 0.0,
                     training=training)
    return wrap(out), None


def _raise_not_tensor(op, name, pos, value):
    raise not_tensor(op, name, pos, value)


def flash_attention_v3_varlen(query, key, value, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                              max_seqlen_k, seqused_q=None, seqused_k=None, softmax_scale=None,
                              causal=False, qv=None, q_descale=None, k_descale=None,
                              v_descale=None, window_size=(-1, -1), softcap=0.0, num_splits=1,
                              pack_gqa=None, sm_margin=0):
    """FlashAttention-3's variable-length attention: query [total_q, heads, head_dim],
    key/value [total_k, kv_heads, head_dim] packed at ``cu_seqlens_q/k`` (``seqused_q/k``
    cap each sequence's length), ``window_size`` (left, right; -1 unbounded), ``softcap``
    (``softcap * tanh(s / softcap)`` on the scores). Returns ``(out, softmax_lse [heads,
    total_q])``. ``num_splits``, ``pack_gqa`` and ``sm_margin`` tune the GPU kernel and change
    nothing here; the fp8 descales are not supported. (GPU-only in Paddle.)"""
    assert qv is None, "flash_attn_varlen_func does not support setting qv"
    if any(d is not None for d in (q_descale, k_descale, v_descale)):
        raise NotImplementedError("flash_attention_v3_varlen: q/k/v_descale are not supported")
    q = query._t
    if softmax_scale is None:
        softmax_scale = q.shape[-1] ** -0.5
    out, lse = _varlen(q, key._t, value._t, cu_seqlens_q._t, cu_seqlens_k._t,
                       int(max_seqlen_q), int(max_seqlen_k), softmax_scale, causal,
                       used_q=None if seqused_q is None else seqused_q._t,
                       used_k=None if seqused_k is None else seqused_k._t,
                       window=tuple(window_size), softcap=float(softcap))
    return wrap(out), wrap(lse)
