"""``paddle.incubate.nn.functional``: Paddle's fused operators, written as the unfused torch
compositions they stand for (torch's autograd gives their gradients).

Half-precision inputs of the norms are normalised in float32 and cast back, as Paddle's kernels
do. Quantised variants (``quant_scale`` > 0, ``dequant_scales``) are not supported and raise
NotImplementedError naming the argument.
"""
import math

import torch

from ...framework.tensor import wrap
from .block_attention import block_multihead_attention
from .fused_extra import (batched_gemm, block_multihead_attention_xpu, cudnn_flash_attention,
                          embedding_grad_add_to_, fast_ln, fast_rms_norm,
                          fused_dot_product_attention, fused_partial_rope, fused_rms_norm_ext,
                          int_bincount, moe_combine)
from .masked_attention import masked_multihead_attention
from ...nn.functional import dropout as _dropout

__all__ = ["cal_aux_loss", "fused_dropout_add", "fused_rms_norm", "fused_layer_norm",
           "fused_bias_act",
           "swiglu", "fused_linear", "fused_matmul_bias", "fused_rotary_position_embedding",
           "fused_multi_head_attention", "variable_length_memory_efficient_attention",
           "masked_multihead_attention", "block_multihead_attention", "fused_feedforward",
           "fused_bias_dropout_residual_layer_norm", "fused_linear_activation",
           "blha_get_max_len", "fused_rms_norm_ext", "fast_ln", "fast_rms_norm",
           "batched_gemm", "int_bincount", "fused_dot_product_attention",
           "cudnn_flash_attention", "embedding_grad_add_to_", "block_multihead_attention_xpu",
           "fused_multi_transformer", "fused_partial_rope", "moe_combine"]

_HALF = (torch.float16, torch.bfloat16)
_silu = torch.nn.functional.silu


def _opt(t):
    return None if t is None else t._t


def _no_quant(api, quant_scale=-1, **tensors):
    if quant_scale > 0:
        raise NotImplementedError(f"{api}: quant_scale (quantised output) is not supported")
    for name, value in tensors.items():
        if value is not None:
            raise NotImplementedError(f"{api}: {name} is not supported")


def fused_dropout_add(x, y, p=0.5, training=True, mode="upscale_in_train", name=None):
    """dropout(x) + y, with Paddle's dropout (the same mask under the same seed on CPU)."""
    return wrap(_dropout(x, p, training=training, mode=mode)._t + y._t)


def _residual_sum(x, bias, residual, alpha=1.0):
    """The pre-norm input: x + bias + alpha * residual; Paddle adds the bias only together
    with a residual."""
    if residual is None:
        return x
    if bias is not None:
        x = x + bias
    return x + residual * alpha if alpha != 1.0 else x + residual


def _norm_axes(t, begin_norm_axis):
    n = t.dim()
    axis = begin_norm_axis + n if begin_norm_axis < 0 else begin_norm_axis
    if not 0 <= axis < n:
        raise ValueError(f"begin_norm_axis must be in range [0, {n}), but got "
                         f"{begin_norm_axis}")
    return tuple(range(axis, n))


def _residual_out(s, t, residual):
    """The fused norms' second output: the pre-norm sum when a residual was given, else Paddle's
    empty placeholder (x's leading dims, last dim 0: its kernels leave that output unwritten)."""
    if residual is not None:
        return wrap(s)
    return wrap(torch.empty(tuple(t.shape[:-1]) + (0,), dtype=t.dtype, device=t.device))


def fused_rms_norm(x, norm_weight, norm_bias, epsilon, begin_norm_axis=1, bias=None,
                   residual=None, quant_scale=-1, quant_round_type=0, quant_max_bound=0,
                   quant_min_bound=0):
    """RMS norm over the dims from ``begin_norm_axis`` of x (+ bias + residual when a residual
    is given): ``(out, residual_out)``; residual_out is empty without a residual."""
    _no_quant("fused_rms_norm", quant_scale)
    t = x._t
    axes = _norm_axes(t, begin_norm_axis)
    size = math.prod(t.shape[axes[0]:])
    if norm_weight._t.dim() != 1 or norm_weight._t.shape[0] != size:
        raise ValueError("(InvalidArgument) The normalized size of Input(X) must equal to be "
                         f"the size of Weight, but received normalized size of Input(X) is "
                         f"[{size}], received size of Weight is [{norm_weight._t.shape[0]}]")
    s = _residual_sum(t, _opt(bias), _opt(residual))
    h = s.float() if s.dtype in _HALF else s
    out = h * torch.rsqrt(h.pow(2).mean(axes, keepdim=True) + epsilon)
    out = out * norm_weight._t.reshape(t.shape[axes[0]:]).to(h.dtype)
    if norm_bias is not None:
        out = out + norm_bias._t.reshape(t.shape[axes[0]:]).to(h.dtype)
    return wrap(out.to(t.dtype)), _residual_out(s, t, residual)


def fused_layer_norm(x, norm_weight, norm_bias, epsilon, residual_alpha=1.0, begin_norm_axis=1,
                     bias=None, residual=None, quant_scale=-1, quant_round_type=0,
                     quant_max_bound=0, quant_min_bound=0):
    """Layer norm over the dims from ``begin_norm_axis`` of x + bias + residual_alpha *
    residual (bias only with a residual): ``(out, residual_out, mean, inv_std)``; residual_out
    is the empty placeholder without a residual, mean and inv_std float32, one per row."""
    _no_quant("fused_layer_norm", quant_scale)
    t = x._t
    axes = _norm_axes(t, begin_norm_axis)
    s = _residual_sum(t, _opt(bias), _opt(residual), residual_alpha)
    h = s.float() if s.dtype in _HALF else s
    mean = h.mean(axes, keepdim=True)
    inv = torch.rsqrt((h - mean).pow(2).mean(axes, keepdim=True) + epsilon)
    out = (h - mean) * inv
    shape = t.shape[axes[0]:]
    if norm_weight is not None:
        out = out * norm_weight._t.reshape(shape).to(h.dtype)
    if norm_bias is not None:
        out = out + norm_bias._t.reshape(shape).to(h.dtype)
    return (wrap(out.to(t.dtype)), _residual_out(s, t, residual),
            wrap(mean.reshape(-1).float()), wrap(inv.reshape(-1).float()))


def _gelu(t):
    return torch.nn.functional.gelu(t)


_ACTS = {"gelu": (_gelu, False), "relu": (torch.relu, False), "geglu": (_gelu, True),
         "swiglu": (_silu, True)}


def fused_bias_act(x, bias=None, dequant_scales=None, shift=None, smooth=None,
                   act_method="gelu", compute_dtype="default", quant_scale=-1,
                   quant_round_type=0, quant_max_bound=0, quant_min_bound=0):
    """act(x + bias) for ``act_method`` gelu (erf) or relu; geglu/swiglu split the last dim in
    halves a, b and give act(a) * b. ``shift``/``smooth`` then give (out + shift) * smooth."""
    _no_quant("fused_bias_act", quant_scale, dequant_scales=dequant_scales)
    try:
        act, glu = _ACTS[act_method]
    except KeyError:
        raise ValueError(f"(InvalidArgument) act_method must be geglu, swiglu or gelu, but get "
                         f"act_method ({act_method})") from None
    t = x._t
    if bias is not None:
        t = t + bias._t
    if glu:
        if t.shape[-1] % 2:
            raise ValueError("(InvalidArgument) The second dimension of x must be even, but "
                             f"receive {t.shape[-1]}")
        a, b = t.chunk(2, -1)
        out = act(a) * b
    else:
        out = act(t)
    if shift is not None:
        out = out + shift._t
    if smooth is not None:
        out = out * smooth._t
    return wrap(out)


def swiglu(x, y=None, name=None):
    """silu(x) * y; with no ``y`` the last dim of x is split in halves a, b: silu(a) * b."""
    t = x._t
    if y is None:
        a, b = t.chunk(2, -1)
        return wrap(_silu(a) * b)
    return wrap(_silu(t) * y._t)


def fused_matmul_bias(x, y, bias=None, transpose_x=False, transpose_y=False, name=None):
    """matmul(x, y) (each optionally transposed in its last two dims) + bias."""
    a, b = x._t, y._t
    if transpose_x:
        a = a.mT
    if transpose_y:
        b = b.mT
    out = torch.matmul(a, b)
    return wrap(out if bias is None else out + bias._t)


def fused_linear(x, weight, bias=None, transpose_weight=False, name=None):
    """x @ weight + bias, with weight [in, out] (or [out, in] with ``transpose_weight``)."""
    w = weight._t.t() if transpose_weight else weight._t
    return wrap(torch.nn.functional.linear(x._t, w.t(), _opt(bias)))


# ---------------------------------------------------------------------- rotary embedding
def _rope_tables(seq, dim, base, every_two, dtype, device):
    """sin/cos [seq, dim] for positions 0..seq-1: angle pos * base^(-2i/dim) on both elements
    of pair i (adjacent pairs, or i and i + dim/2)."""
    inv = 1.0 / base ** (torch.arange(0, dim, 2, dtype=torch.float32, device=device) / dim)
    ang = torch.arange(seq, dtype=torch.float32, device=device)[:, None] * inv[None, :]
    ang = ang.repeat_interleave(2, -1) if every_two else torch.cat([ang, ang], -1)
    return ang.sin().to(dtype), ang.cos().to(dtype)


def _rotate(t, sin, cos, every_two):
    if every_two:
        rot = torch.stack([-t[..., 1::2], t[..., 0::2]], -1).reshape(t.shape)
    else:
        half = t.shape[-1] // 2
        rot = torch.cat([-t[..., half:], t[..., :half]], -1)
    return t * cos + rot * sin


def fused_rotary_position_embedding(q, k=None, v=None, sin=None, cos=None, position_ids=None,
                                    use_neox_rotary_style=True, time_major=False,
                                    rotary_emb_base=10000.0):
    """Rotary embedding of q, k and v ([batch, seq, heads, dim], or [seq, batch, ...] when
    ``time_major``): out = x * cos + rotate(x) * sin, where ``use_neox_rotary_style`` (Paddle's
    naming) rotates adjacent pairs (x0, x1) and otherwise the halves. ``sin``/``cos``
    ([seq, dim] or [1, seq, 1, dim]) default to the tables of ``rotary_emb_base``;
    ``position_ids`` [batch, seq] pick their rows. Returns ``(q, k, v)``, None where absent."""
    if sin is None or cos is None:
        assert position_ids is None, \
            "position_ids without sin/cos is not correctly supported now."
        assert use_neox_rotary_style, \
            "rotate_half without sin/cos is not correctly supported now."
    qt = q._t
    every_two = use_neox_rotary_style
    seq_dim = 0 if time_major else 1
    seq, dim = qt.shape[seq_dim], qt.shape[-1]
    if sin is None or cos is None:
        s, c = _rope_tables(seq, dim, rotary_emb_base, every_two, qt.dtype, qt.device)
    else:
        s, c = sin._t.reshape(-1, dim), cos._t.reshape(-1, dim)
    if position_ids is not None:
        ids = position_ids._t.to(torch.int64)                 # [batch, seq]
        s, c = s[ids].unsqueeze(2), c[ids].unsqueeze(2)       # [batch, seq, 1, dim]
        if time_major:
            s, c = s.transpose(0, 1), c.transpose(0, 1)
    else:
        s, c = s[:seq], c[:seq]
        view = (seq, 1, 1, dim) if time_major else (1, seq, 1, dim)
        s, c = s.reshape(view), c.reshape(view)
    out = [None if t is None else wrap(_rotate(t._t, s.to(t._t.dtype), c.to(t._t.dtype),
                                               every_two))
           for t in (q, k, v)]
    return tuple(out)


# ---------------------------------------------------------------------- attention
def _layer_norm(t, weight, bias, eps):
    return torch.nn.functional.layer_norm(t, t.shape[-1:], _opt(weight), _opt(bias), eps)


def fused_multi_head_attention(x, qkv_weight, linear_weight, pre_layer_norm=False,
                               pre_ln_scale=None, pre_ln_bias=None, ln_scale=None,
                               ln_bias=None, pre_ln_epsilon=1e-05, qkv_bias=None,
                               linear_bias=None, cache_kv=None, attn_mask=None,
                               dropout_rate=0.5, attn_dropout_rate=0.5, ln_epsilon=1e-05,
                               training=True, mode="upscale_in_train", ring_id=-1,
                               add_residual=True, num_heads=-1, transpose_qkv_wb=False,
                               name=None):
    """A transformer attention block on x [batch, seq, embed]: optional pre layer norm, the
    qkv projection (weight [3, heads, head_dim, embed], or [embed, 3*embed] with
    ``transpose_qkv_wb``), scaled softmax attention (+ attn_mask, dropout), the output
    projection, dropout, the residual, and the post layer norm when not ``pre_layer_norm``."""
    if cache_kv is not None:
        raise NotImplementedError("fused_multi_head_attention: cache_kv is not supported")
    if ring_id != -1:
        raise NotImplementedError("fused_multi_head_attention: ring_id is not supported")
    t = x._t
    bsz, seq, embed = t.shape
    h = _layer_norm(t, pre_ln_scale, pre_ln_bias, pre_ln_epsilon) if pre_layer_norm else t
    w = qkv_weight._t
    if transpose_qkv_wb:
        heads = num_heads
        qkv = torch.matmul(h, w)
        if qkv_bias is not None:
            qkv = qkv + qkv_bias._t
    else:
        heads = w.shape[1]
        qkv = torch.matmul(h, w.reshape(-1, embed).t())
        if qkv_bias is not None:
            qkv = qkv + qkv_bias._t.reshape(-1)
    qkv = qkv.reshape(bsz, seq, 3, heads, -1).permute(2, 0, 3, 1, 4)
    q, k, v = qkv[0], qkv[1], qkv[2]
    scores = torch.matmul(q * q.shape[-1] ** -0.5, k.transpose(-1, -2))
    if attn_mask is not None:
        scores = scores + attn_mask._t
    weights = torch.softmax(scores, -1)
    if attn_dropout_rate:
        weights = _dropout(wrap(weights), attn_dropout_rate, training=training, mode=mode)._t
    out = torch.matmul(weights, v).transpose(1, 2).reshape(bsz, seq, -1)
    out = torch.matmul(out, linear_weight._t)
    if linear_bias is not None:
        out = out + linear_bias._t
    if dropout_rate:
        out = _dropout(wrap(out), dropout_rate, training=training, mode=mode)._t
    if add_residual:
        out = out + t
    if not pre_layer_norm:
        out = _layer_norm(out, ln_scale, ln_bias, ln_epsilon)
    return wrap(out)


def variable_length_memory_efficient_attention(query, key, value, seq_lens, kv_seq_lens,
                                               mask=None, scale=None, causal=False,
                                               pre_cache_length=0):
    """Attention over [batch, heads, seq, head_dim] where batch b has ``seq_lens[b]`` queries
    and ``kv_seq_lens[b]`` keys (the rest is padding: keys beyond are masked, queries beyond
    give zeros); ``mask`` [batch, 1, sq, sk] is added; ``causal`` lets query i see keys up to
    i + pre_cache_length."""
    q, k, v = query._t, key._t, value._t
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    hq, hk = q.shape[1], k.shape[1]
    if hq != hk:
        k, v = k.repeat_interleave(hq // hk, 1), v.repeat_interleave(hq // hk, 1)
    sq, sk = q.shape[2], k.shape[2]
    ql = seq_lens._t.reshape(-1, 1, 1, 1).to(torch.int64)
    kl = kv_seq_lens._t.reshape(-1, 1, 1, 1).to(torch.int64)
    rows = torch.arange(sq, device=q.device).reshape(sq, 1)
    cols = torch.arange(sk, device=q.device)
    keep = cols < kl
    if causal:
        keep = keep & (cols <= rows + pre_cache_length)
    valid_row = rows < ql
    keep = keep | ~keep.any(-1, keepdim=True)          # rows with no key stay finite
    bias = torch.zeros((), dtype=q.dtype, device=q.device).masked_fill(~keep, -math.inf)
    if mask is not None:
        bias = bias + mask._t.to(q.dtype)
    out = torch._C._nn.scaled_dot_product_attention(q, k, v, bias, 0.0, False, scale=scale)
    return wrap(out.masked_fill(~valid_row, 0))


# ---------------------------------------------------------------------- feed-forward blocks
def _check_mode(mode):
    if mode not in ("downscale_in_infer", "upscale_in_train"):
        raise ValueError("mode argument should be 'downscale_in_infer' or 'upscale_in_train'")


def _drop(t, p, training, mode):
    return _dropout(wrap(t), p, training=training, mode=mode)._t


def _ln(t, scale, bias, eps):
    """Layer norm over the last axis (half precision computed in float32)."""
    h = t.float() if t.dtype in _HALF else t
    out = torch.layer_norm(h, h.shape[-1:], None if scale is None else scale._t.to(h.dtype),
                           None if bias is None else bias._t.to(h.dtype), eps)
    return out.to(t.dtype)


_FF_ACTS = {"relu": torch.relu, "gelu": torch.nn.functional.gelu}


def fused_feedforward(x, linear1_weight, linear2_weight, linear1_bias=None, linear2_bias=None,
                      ln1_scale=None, ln1_bias=None, ln2_scale=None, ln2_bias=None,
                      dropout1_rate=0.5, dropout2_rate=0.5, activation="relu",
                      ln1_epsilon=1e-5, ln2_epsilon=1e-5, pre_layer_norm=False, training=True,
                      mode="upscale_in_train", ring_id=-1, add_residual=True, name=None):
    """The transformer feed-forward block: ``linear2(dropout1(act(linear1(h))))`` with h = x
    (or layer_norm1(x) when ``pre_layer_norm``), then dropout2, + x when ``add_residual``, and
    layer_norm2 unless ``pre_layer_norm``. Weights are [in, out]."""
    for rate in (dropout1_rate, dropout2_rate):
        if not isinstance(rate, (float, int)) or not 0 <= rate <= 1:
            raise ValueError("p argument should between 0 and 1")
    _check_mode(mode)
    if activation not in _FF_ACTS:
        raise NotImplementedError(f"fused_feedforward: activation {activation!r} is not "
                                  "supported")
    if ring_id != -1:
        raise NotImplementedError("fused_feedforward: ring_id (tensor parallelism) is not "
                                  "supported")
    t = x._t
    h = _ln(t, ln1_scale, ln1_bias, ln1_epsilon) if pre_layer_norm else t
    h = torch.matmul(h, linear1_weight._t)
    if linear1_bias is not None:
        h = h + linear1_bias._t
    h = _drop(_FF_ACTS[activation](h), dropout1_rate, training, mode)
    h = torch.matmul(h, linear2_weight._t)
    if linear2_bias is not None:
        h = h + linear2_bias._t
    h = _drop(h, dropout2_rate, training, mode)
    if add_residual:
        h = t + h
    return wrap(h if pre_layer_norm else _ln(h, ln2_scale, ln2_bias, ln2_epsilon))


def fused_bias_dropout_residual_layer_norm(x, residual, bias=None, ln_scale=None, ln_bias=None,
                                           dropout_rate=0.5, ln_epsilon=1e-5, training=True,
                                           mode="upscale_in_train", name=None):
    """layer_norm(residual + dropout(x + bias)) over the last axis."""
    _check_mode(mode)
    t = x._t
    for p, what in ((ln_scale, "ln_scale"), (ln_bias, "ln_bias")):
        if p is not None:
            assert p._t.dim() == 1, f"The dims of the shape of {what} should be 1."
            assert t.shape[-1] == p._t.shape[0], \
                f"The dim of {what} must equal to the last dim of x."
    if bias is not None:
        t = t + bias._t
    h = residual._t + _drop(t, dropout_rate, training, mode)
    return wrap(_ln(h, ln_scale, ln_bias, ln_epsilon))


_GEMM_ACTS = {"none": lambda t: t, "relu": torch.relu,
              "gelu": lambda t: torch.nn.functional.gelu(t, approximate="tanh")}


def fused_linear_activation(x, y, bias, trans_x=False, trans_y=False, activation=None):
    """act(x @ y + bias) for ``activation`` None, 'relu' or 'gelu' (cuBLASLt's GELU epilogue:
    the tanh approximation)."""
    act = _GEMM_ACTS.get("none" if activation is None else activation)
    if act is None:
        raise ValueError(f"(InvalidArgument) The activation attribute of fused_gemm_epilogue op "
                         f"should be one of {{\"none\", \"relu\", \"gelu\"}}. But received "
                         f"activation={activation}.")
    return wrap(act(fused_matmul_bias(x, y, bias, trans_x, trans_y)._t))


def blha_get_max_len(seq_lens_encoder, seq_lens_decoder, batch_size):
    """(max encoder length, max decoder length) over the first ``batch_size.shape[0]``
    sequences, each an int32 Tensor of shape [1] (0 when every length is below 0)."""
    n = batch_size._t.shape[0]

    def longest(lens):
        head = lens._t.reshape(-1)[:n].to(torch.int32)
        return wrap(head.amax(0, keepdim=True).clamp(min=0) if n else
                    torch.zeros(1, dtype=torch.int32, device=head.device))
    return longest(seq_lens_encoder), longest(seq_lens_decoder)


def fused_multi_transformer(x, ln_scales, ln_biases, qkv_weights, qkv_biases, linear_weights,
                            linear_biases, ffn_ln_scales, ffn_ln_biases, ffn1_weights,
                            ffn1_biases, ffn2_weights, ffn2_biases, pre_layer_norm=True,
                            epsilon=1e-05, residual_alpha=1.0, cache_kvs=None,
                            beam_offset=None, pre_caches=None, seq_lens=None, rotary_embs=None,
                            time_step=None, attn_mask=None, dropout_rate=0.0,
                            rotary_emb_dims=0, activation="gelu", training=False,
                            mode="upscale_in_train", trans_qkvw=True, ring_id=-1,
                            norm_type="layernorm", use_neox_rotary_style=False,
                            gqa_group_size=-1, name=None):
    """A stack of transformer layers on x [batch, seq, embed], one per entry of the weight
    lists. Each layer: (pre) layer norm, the qkv projection (weight [3, heads, head_dim, embed],
    or [embed, 3, heads, head_dim] without ``trans_qkvw``; bias [3, heads, head_dim]),
    softmax(q k^T / sqrt(head_dim) + attn_mask) v, the output projection, dropout, the residual
    (then the layer norm when not ``pre_layer_norm``); then the feed-forward block
    ``ffn2(act(ffn1(h)))`` with its own layer norm, dropout and residual. Biases and norm
    parameters may be None (absent).

    Not supported (NotImplementedError naming them): the decoding caches and positions
    (``cache_kvs``, ``pre_caches``, ``beam_offset``, ``seq_lens``, ``time_step``), rotary
    embeddings, ``residual_alpha`` other than 1, ``norm_type="rmsnorm"``, grouped-query
    attention (``gqa_group_size``)."""
    unsupported = {"cache_kvs": cache_kvs, "pre_caches": pre_caches, "beam_offset": beam_offset,
                   "seq_lens": seq_lens, "rotary_embs": rotary_embs, "time_step": time_step}
    for arg, value in unsupported.items():
        if value is not None:
            raise NotImplementedError(f"fused_multi_transformer: {arg} is not supported")
    if residual_alpha != 1.0:
        raise NotImplementedError("fused_multi_transformer: residual_alpha != 1 is not supported")
    if norm_type != "layernorm":
        raise NotImplementedError(f"fused_multi_transformer: norm_type={norm_type!r} is not "
                                  f"supported")
    if gqa_group_size > 0:
        raise NotImplementedError("fused_multi_transformer: gqa_group_size is not supported")

    def at(seq, i):
        return None if seq is None else seq[i]

    out = x
    for i in range(len(qkv_weights)):
        qkv_w = qkv_weights[i]
        if not trans_qkvw:
            qkv_w = wrap(qkv_w._t.permute(1, 2, 3, 0))
        ln_s, ln_b = at(ln_scales, i), at(ln_biases, i)
        out = fused_multi_head_attention(
            out, qkv_w, linear_weights[i], pre_layer_norm=pre_layer_norm,
            pre_ln_scale=ln_s, pre_ln_bias=ln_b, ln_scale=ln_s, ln_bias=ln_b,
            pre_ln_epsilon=epsilon, qkv_bias=at(qkv_biases, i),
            linear_bias=at(linear_biases, i), attn_mask=attn_mask, dropout_rate=dropout_rate,
            attn_dropout_rate=dropout_rate, ln_epsilon=epsilon, training=training, mode=mode)
        f_s, f_b = at(ffn_ln_scales, i), at(ffn_ln_biases, i)
        out = fused_feedforward(
            out, ffn1_weights[i], ffn2_weights[i], at(ffn1_biases, i), at(ffn2_biases, i),
            ln1_scale=f_s, ln1_bias=f_b, ln2_scale=f_s, ln2_bias=f_b, dropout1_rate=0.0,
            dropout2_rate=dropout_rate, activation=activation, ln1_epsilon=epsilon,
            ln2_epsilon=epsilon, pre_layer_norm=pre_layer_norm, training=training, mode=mode)
    return out


def cal_aux_loss(gate_prob, dispatch_mask, tokens_mask, dispatch_tokens_mask, num_experts,
                 use_group, moe_k, clip_min, name=None):
    """The load-balancing loss of a mixture-of-experts gate: with ``seqlen`` the token count
    (``dispatch_tokens_mask``'s sum, else ``tokens_mask``'s, else gate_prob.numel() /
    num_experts; at least ``clip_min``), ``ce = tokens per expert / seqlen`` (from
    ``dispatch_mask`` [experts] or [tokens, experts], no gradient) and ``me = gate_prob.sum(0)
    / seqlen``, ``l_aux = sum(me * ce) * num_experts`` (divided by ``moe_k`` with
    ``use_group``). When the dispatch covers other tokens than ``gate_prob`` (sizes differ),
    the gradient is scaled by seqlen / tokens_mask.sum(). Returns ``(l_aux, seqlen, ce)``."""
    g = gate_prob._t
    scale = None
    tm = None if tokens_mask is None else tokens_mask._t.to(g.dtype)
    if dispatch_tokens_mask is not None:
        dtm = dispatch_tokens_mask._t
        seqlen = dtm.to(g.dtype).sum()
        if tm is not None and g.shape[0] != dtm.shape[0]:
            scale = seqlen / tm.sum().clamp(min=clip_min)
    elif tm is not None:
        seqlen = tm.sum()
    else:
        seqlen = torch.tensor(g.numel(), dtype=g.dtype, device=g.device) / num_experts
    seqlen = seqlen.clamp(min=clip_min)
    dm = dispatch_mask._t
    if dm.dim() == 2:
        dm = dm.sum(0)
    ce = dm.to(g.dtype).detach() / seqlen
    me = g.sum(0) / seqlen
    l_aux = (me * ce).sum() * num_experts
    if use_group:
        l_aux = l_aux / moe_k
    if scale is not None:
        l_aux = l_aux + (scale - 1) * l_aux.detach()
    return wrap(l_aux), wrap(seqlen), wrap(ce)
