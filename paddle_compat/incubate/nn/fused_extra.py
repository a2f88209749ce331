"""More of ``paddle.incubate.nn.functional``: CUDA-only kernels in Paddle (its CPU build has no
kernel for any of them), written here from their documented formulas with torch ops.

- ``fused_rms_norm_ext(x, scale, epsilon)`` -> (y, invvar); ``fast_rms_norm`` the same;
  ``fast_ln(x, scale, bias, epsilon)`` -> (y, mean, invvar). The input is seen as
  ``[rows, cols]`` (the last dimension normalised); mean and invvar (``1 / sqrt(var + eps)``,
  the mean of squares for RMS) are float32 ``[rows]``; half inputs are normalised in float32.
- ``batched_gemm(lhs, rhs, batch_sizes)``: ``lhs`` rows split by ``batch_sizes``, batch ``i``
  times ``rhs[i]``, concatenated.
- ``int_bincount(x, low, high, dtype)``: counts of the values ``low..high-1``.
- ``fused_dot_product_attention`` / ``cudnn_flash_attention``: softmax attention on
  ``[batch, seq, heads, head_dim]`` tensors.
- ``embedding_grad_add_to_(token_indices, main_grad_, out_grad)``: adds the rows of
  ``out_grad`` into ``main_grad_`` at ``token_indices`` (in place).
- ``block_multihead_attention_xpu``: a Kunlun XPU kernel; raises.
- ``fused_partial_rope``: rotary embedding on the last features of each head.
- ``moe_combine``: the weighted sum of each token's expert outputs.
"""
import torch

from ...framework.tensor import wrap
from ...nn.functional import dropout as _dropout

__all__ = ["fused_rms_norm_ext", "fast_ln", "fast_rms_norm", "batched_gemm", "int_bincount",
           "fused_dot_product_attention", "cudnn_flash_attention", "embedding_grad_add_to_",
           "block_multihead_attention_xpu", "fused_partial_rope", "moe_combine"]

_HALF = (torch.float16, torch.bfloat16)


def _rows(t):
    return t.reshape(-1, t.shape[-1]) if t.dim() else t.reshape(1, 1)


def _rms(x, scale, epsilon):
    t = x._t
    r = _rows(t).float() if t.dtype in _HALF else _rows(t)
    invvar = torch.rsqrt(r.pow(2).mean(-1, keepdim=True) + epsilon)
    y = (r * invvar * scale._t.to(r.dtype)).to(t.dtype).reshape(t.shape)
    return wrap(y), wrap(invvar.reshape(-1).float())


def fused_rms_norm_ext(x, scale, epsilon=1e-5, name=None):
    """RMS norm of the last dimension: ``y = x / sqrt(mean(x**2) + eps) * scale``; returns
    ``(y, invvar)``."""
    return _rms(x, scale, epsilon)


def fast_rms_norm(x, scale, epsilon=1e-5):
    """Same as ``fused_rms_norm_ext``: ``(y, invvar)``."""
    return _rms(x, scale, epsilon)


def fast_ln(x, scale, bias, epsilon=1e-5):
    """Layer norm of the last dimension: ``y = (x - mean) * invvar * scale + bias``; returns
    ``(y, mean, invvar)``."""
    t = x._t
    r = _rows(t).float() if t.dtype in _HALF else _rows(t)
    mean = r.mean(-1, keepdim=True)
    invvar = torch.rsqrt((r - mean).pow(2).mean(-1, keepdim=True) + epsilon)
    y = (r - mean) * invvar * scale._t.to(r.dtype) + bias._t.to(r.dtype)
    return (wrap(y.to(t.dtype).reshape(t.shape)), wrap(mean.reshape(-1).float()),
            wrap(invvar.reshape(-1).float()))


def batched_gemm(lhs, rhs, batch_sizes, trans_lhs=False, trans_rhs=False):
    """Grouped matmul: the rows of ``lhs`` ``[total, k]`` split by ``batch_sizes``, group ``i``
    times ``rhs[i]`` (``[k, n]``, or ``[n, k]`` transposed with ``trans_rhs``); the products
    concatenated, ``[total, n]``."""
    if trans_lhs:
        raise NotImplementedError("batched_gemm: trans_lhs=True is not supported")
    a, b = lhs._t, rhs._t
    sizes = [int(s) for s in batch_sizes]
    if sum(sizes) != a.shape[0] or len(sizes) != b.shape[0]:
        raise ValueError(f"batched_gemm: batch_sizes {sizes} should sum to lhs.shape[0] "
                         f"({a.shape[0]}) and have one entry per rhs batch ({b.shape[0]})")
    if trans_rhs:
        b = b.transpose(-1, -2)
    parts = torch.split(a, sizes)
    return wrap(torch.cat([p @ b[i] for i, p in enumerate(parts)]))


def int_bincount(x, low, high, dtype=None, name=None):
    """How often each value ``low, ..., high-1`` occurs in the int ``x`` (values outside are
    not counted); ``dtype`` (int32/int64) defaults to x's."""
    t = x._t
    if t.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"x.dtype must be int32 or int64, but got {x.dtype}")
    if high < low:
        raise ValueError(f"'high' ({high}) must be greater than or equal to 'low' ({low})")
    out = torch.bincount(t.reshape(-1).long().clamp(min=low - 1) - (low - 1),
                         minlength=high - low + 2)[1:high - low + 1]
    if dtype is None:
        tdt = t.dtype
    else:
        tdt = {"int32": torch.int32, "int64": torch.int64}.get(
            str(dtype).replace("paddle.", ""), None)
        if tdt is None:
            raise ValueError(f"dtype must be 'int32' or 'int64', but got '{dtype}'")
    return wrap(out.to(tdt))


def _attention(q, k, v, bias, causal, scale, dropout_p, training):
    # [b, s, h, d] -> [b, h, s, d]
    qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))
    s = torch.matmul(qt, kt.transpose(-1, -2)) * scale
    if bias is not None:
        s = s + bias
    if causal:
        n, m = s.shape[-2:]
        s = s.masked_fill(torch.ones(n, m, dtype=torch.bool, device=s.device).triu(m - n + 1),
                          -torch.inf)
    p = torch.softmax(s.float() if s.dtype in _HALF else s, -1).to(s.dtype)
    if dropout_p > 0 and training:
        p = _dropout(wrap(p), dropout_p, training=True)._t
    return wrap(torch.matmul(p, vt).transpose(1, 2))


def fused_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                is_causal=False, scaling_factor=None, training=True, name=None):
    """``softmax(q k^T * scale + attn_mask) v`` on ``[batch, seq, heads, head_dim]``
    (``scale`` defaults to ``head_dim ** -0.5``; ``is_causal`` masks later keys and needs
    ``attn_mask`` None; dropout on the weights in training, from Paddle's random stream)."""
    if is_causal:
        assert attn_mask is None, "mask must be None when is_causal is True"
    if scaling_factor is None:
        scaling_factor = query.shape[-1] ** -0.5
    mask = None if attn_mask is None else attn_mask._t
    if mask is not None and mask.dtype == torch.bool:
        mask = torch.zeros(mask.shape, dtype=query._t.dtype).masked_fill(~mask, -torch.inf)
    return _attention(query._t, key._t, value._t, mask, is_causal, scaling_factor, dropout_p,
                      training)


def cudnn_flash_attention(q, k, v, bias=None, cu_seqlen_q=None, cu_seqlen_k=None,
                          scaling_factor=1.0, dropout_prob=0.0, training=True, mask_type=None,
                          bias_type=None, name=None):
    """cuDNN's attention: ``softmax(q k^T * scaling_factor + bias) v`` on ``[batch, seq, heads,
    head_dim]``; ``mask_type="causal"`` masks later keys. Packed variable-length batches
    (``cu_seqlen_q``/``cu_seqlen_k``) are not supported."""
    if cu_seqlen_q is not None or cu_seqlen_k is not None:
        raise NotImplementedError("cudnn_flash_attention: cu_seqlen_q / cu_seqlen_k "
                                  "(variable-length batches) are not supported")
    if mask_type not in (None, "none", "causal", "padding"):
        raise ValueError(f"cudnn_flash_attention: unknown mask_type {mask_type!r}")
    return _attention(q._t, k._t, v._t, None if bias is None else bias._t,
                      mask_type == "causal", scaling_factor, dropout_prob, training)


def embedding_grad_add_to_(token_indices, main_grad_, out_grad, name=None):
    """``main_grad_[token_indices[i]] += out_grad[i]`` for every i (repeated indices add up),
    in place; returns ``main_grad_``."""
    g = main_grad_._t
    idx = token_indices._t.reshape(-1).long()
    with torch.no_grad():
        g.index_add_(0, idx, out_grad._t.reshape(idx.numel(), -1).to(g.dtype))
    return main_grad_


def block_multihead_attention_xpu(*args, **kwargs):
    """Paddle's Kunlun XPU kernel of ``block_multihead_attention``: XPU only."""
    raise NotImplementedError(
        "block_multihead_attention_xpu is a kernel for Baidu Kunlun XPU devices, which "
        "paddle_compat does not support; use "
        "paddle.incubate.nn.functional.block_multihead_attention instead")


def fused_partial_rope(x, cos, sin):
    """Rotary position embedding on the last ``pe = cos.shape[-1]`` features of each head of
    x ``[batch, seq, heads, head_dim]`` (the others pass through). Those features, stored as
    interleaved pairs, are regrouped as (evens, odds) halves, then
    ``pe * cos + rotate_half(pe) * sin`` with ``rotate_half([a, b]) = [-b, a]``; cos and sin
    are ``[1, >=seq, 1, pe]``."""
    t = x._t
    d = cos.shape[-1]
    if d % 2 or d > t.shape[-1]:
        raise ValueError(f"fused_partial_rope: pe_head_dim ({d}) must be even and at most "
                         f"head_dim ({t.shape[-1]})")
    s = t.shape[1]
    c, sn = cos._t[:, :s].to(t.dtype), sin._t[:, :s].to(t.dtype)
    nope, pe = t[..., :t.shape[-1] - d], t[..., t.shape[-1] - d:]
    pe = pe.reshape(*pe.shape[:-1], d // 2, 2).transpose(-1, -2).reshape(pe.shape)
    first, second = pe[..., :d // 2], pe[..., d // 2:]
    rotated = torch.cat([-second, first], -1)
    return wrap(torch.cat([nope, pe * c + rotated * sn], -1))


def moe_combine(x, combine_weights, scatter_index, name=None):
    """Mixture-of-experts combine: ``y[s] = sum_k combine_weights[s, k] * x[scatter_index[k,
    s]]`` with x ``[rows, dim]`` (the experts' outputs), combine_weights ``[seq, k]`` and
    scatter_index ``[k, seq]`` (int32); y is ``[seq, dim]``."""
    xt, w, idx = x._t, combine_weights._t, scatter_index._t.long()
    if idx.dim() != 2 or w.dim() != 2 or idx.shape[0] != w.shape[1] or \
            idx.shape[1] != w.shape[0]:
        raise ValueError(f"moe_combine: scatter_index should be [k, seq] = "
                         f"{list(w.shape[::-1])} for combine_weights {list(w.shape)}, got "
                         f"{list(idx.shape)}")
    picked = xt[idx.t()]                                    # [seq, k, dim]
    return wrap((picked * w.to(xt.dtype).unsqueeze(-1)).sum(1))
