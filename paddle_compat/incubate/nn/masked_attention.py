"""``masked_multihead_attention``: one decoding step of multi-head attention over a KV cache.

Paddle ships this as a fused CUDA kernel; here it is a torch composition that runs on any
device. Per batch row ``b`` the step is ``t = sequence_lengths[b]`` (or, without them,
``src_mask.shape[3] - 1``):

- ``x`` holds the fused q, k, v heads ``[num_head + 2 * kv_num_head, head_dim]`` of the new
  token (int32 with ``qkv_out_scale``: dequantised per column first), plus ``bias``, then
  rotary embedding on q and k;
- k and v are written into ``cache_kv`` at position ``t`` in place;
- q attends over positions ``0..t`` of the cache (scaled by ``1/sqrt(head_dim)``, plus
  ``src_mask[..., :t+1]``), grouped-query heads sharing their kv head;
- the result ``[batch, num_head * head_dim]`` optionally gets ``(out + out_shift) *
  out_smooth`` and int8 quantisation (``out_scale > 0``).

Where the CUDA kernel departs from its documentation and its unit test's reference, those
win: the cache is the documented ``[2, batch, kv_num_head, max_seq_len, head_dim]`` (the
kernel stores K in 16-byte interleaved groups), a ``beam_cache_offset`` of 0 reads beam 0
(the kernel reads the row's own beam), rotary embedding rotates every pair (the kernel skips
it for float32 with head_dim <= 32 and uses a wrong sine for some float16 pairs), rows with a
negative sequence length give zeros (the kernel leaves them unwritten) and a step outside the
cache is an error (the kernel writes past it). The op has no gradient in Paddle; its outputs
stop gradients.
"""
import math

import torch

from ...framework.tensor import Tensor, wrap
from .inference import COMPUTE_DTYPES, quantise_int8

_API = "masked_multihead_attention"


def _bad(msg):
    return ValueError(f"{_API}: {msg}")


def _tensor(value, name, required=False):
    if value is None:
        if required:
            raise _bad(f"{name} is required")
        return None
    if not isinstance(value, Tensor):
        raise TypeError(f"{_API}: {name} must be a Tensor, got {type(value).__name__}")
    return value._t


def _compute_dtype(xt, compute_dtype, scale):
    """The dtype the kernel computes and stores in: x's, or for int32 x ``compute_dtype``."""
    if xt.dtype == torch.int32:
        if compute_dtype not in COMPUTE_DTYPES:
            raise _bad("with an int32 x (quantised qkv), compute_dtype must be 'fp16', 'bf16' "
                       f"or 'fp32', got {compute_dtype!r}")
        if scale is None:
            raise _bad("an int32 x needs qkv_out_scale to dequantise it")
        return COMPUTE_DTYPES[compute_dtype]
    if not xt.is_floating_point():
        raise _bad(f"x must be float16, bfloat16, float32 or int32, got {xt.dtype}")
    if scale is not None:
        raise _bad("qkv_out_scale dequantises an int32 x; x is " + str(xt.dtype))
    return xt.dtype


def _rotate(t, cos, sin, neox, dims):
    """Rotary embedding of ``t`` [B, H, D] (float) with per-row tables [B, 1, D]: adjacent
    pairs, or with ``neox`` the two halves of each of ``dims`` chunks."""
    if not neox:
        a, b = t[..., 0::2], t[..., 1::2]
        out = torch.stack([a * cos[..., 0::2] - b * sin[..., 0::2],
                           b * cos[..., 1::2] + a * sin[..., 1::2]], -1)
        return out.flatten(-2)
    shape = t.shape
    t = t.unflatten(-1, (dims, 2, -1))
    cos, sin = cos.unflatten(-1, (dims, 2, -1)), sin.unflatten(-1, (dims, 2, -1))
    a, b = t[..., 0, :], t[..., 1, :]
    out = torch.stack([a * cos[..., 0, :] - b * sin[..., 0, :],
                       b * cos[..., 1, :] + a * sin[..., 1, :]], -2)
    return out.reshape(shape)


def masked_multihead_attention(x, cache_kv=None, bias=None, src_mask=None, cum_offsets=None,
                               sequence_lengths=None, rotary_tensor=None,
                               beam_cache_offset=None, qkv_out_scale=None, out_shift=None,
                               out_smooth=None, seq_len=1, rotary_emb_dims=0,
                               use_neox_rotary_style=False, compute_dtype="default",
                               out_scale=-1, quant_round_type=1, quant_max_bound=127.0,
                               quant_min_bound=-127.0):
    """One decoding step over ``cache_kv`` (updated in place); returns ``(out, cache_kv)``,
    and ``beam_cache_offset`` third when given. ``seq_len`` is accepted and unused, as in
    Paddle's kernel."""
    xt = _tensor(x, "x", True)
    cache = _tensor(cache_kv, "cache_kv", True)
    if cum_offsets is not None:
        raise NotImplementedError(f"{_API}: cum_offsets is not supported (Paddle's kernel "
                                  "rejects it too)")
    scale = _tensor(qkv_out_scale, "qkv_out_scale")
    if cache.dim() != 5 or cache.shape[0] != 2:
        raise _bad("cache_kv must be [2, batch_size, kv_num_head, max_seq_len, head_dim], got "
                   f"shape {list(cache.shape)}")
    _, cache_bsz, kv, max_len, dh = cache.shape
    if xt.dim() != 2:
        raise _bad(f"x must be [batch_size, (num_head + 2 * kv_num_head) * head_dim], got "
                   f"shape {list(xt.shape)}")
    bsz, width = xt.shape
    nh = width // dh - 2 * kv
    if width % dh or nh <= 0 or nh % kv:
        raise _bad(f"x's last dimension {width} is not (num_head + 2 * {kv}) * {dh} with "
                   f"num_head a multiple of kv_num_head {kv} (from cache_kv)")
    if cache_bsz < bsz:
        raise _bad(f"cache_kv holds {cache_bsz} batch rows, x has {bsz}")
    dtype = _compute_dtype(xt, compute_dtype, scale)
    if cache.dtype != dtype:
        raise _bad(f"cache_kv must be {dtype} like the computation, got {cache.dtype}")
    if (out_shift is None) != (out_smooth is None):
        raise _bad("out_shift and out_smooth go together")
    mask = _tensor(src_mask, "src_mask")
    lens = _tensor(sequence_lengths, "sequence_lengths")
    beams = _tensor(beam_cache_offset, "beam_cache_offset")
    timestep = max_len if mask is None else mask.shape[-1] - 1
    if mask is not None and (mask.dim() != 4 or mask.shape[1] not in (1, nh)):
        raise _bad(f"src_mask must be [batch_size, 1 or num_head ({nh}), 1, steps + 1], got "
                   f"shape {list(mask.shape)}")

    with torch.no_grad():
        # ---- the new token's q, k, v
        if scale is not None:
            cols = 3 * nh * dh
            flat = torch.arange(bsz * width, device=xt.device).remainder(cols)
            qkv = (xt.to(torch.float32).reshape(-1) * scale.reshape(-1).to(torch.float32)[flat])
            qkv = qkv.to(dtype).reshape(bsz, width)
        else:
            qkv = xt
        if bias is not None:
            qkv = qkv + _tensor(bias, "bias").reshape(1, width).to(dtype)
        qkv = qkv.reshape(bsz, nh + 2 * kv, dh)
        q, k, v = qkv[:, :nh], qkv[:, nh:nh + kv], qkv[:, nh + kv:]
        if rotary_emb_dims > 0:
            emb = _tensor(rotary_tensor, "rotary_tensor", True).reshape(-1).to(torch.float32)
            if emb.numel() < 2 * bsz * dh:
                raise _bad(f"rotary_tensor needs cos and sin tables of {bsz} x {dh} values, got "
                           f"{emb.numel()} values")
            if use_neox_rotary_style and dh % (2 * rotary_emb_dims):
                raise _bad(f"head_dim {dh} does not split into {rotary_emb_dims} rotary halves")
            cos = emb[:bsz * dh].reshape(bsz, 1, dh)
            sin = emb[bsz * dh:2 * bsz * dh].reshape(bsz, 1, dh)
            q = _rotate(q.to(torch.float32), cos, sin, use_neox_rotary_style,
                        rotary_emb_dims).to(dtype)
            k = _rotate(k.to(torch.float32), cos, sin, use_neox_rotary_style,
                        rotary_emb_dims).to(dtype)

        # ---- the step of each row, checked against the cache and the mask (when concrete:
        # in static mode the values exist only at Executor.run)
        if lens is None:
            steps = torch.full((bsz,), timestep, dtype=torch.int64, device=xt.device)
            span = timestep + 1
            if timestep >= max_len:
                raise _bad(f"without sequence_lengths the step is src_mask's last dimension "
                           f"- 1 ({timestep}); it must be below cache_kv's max_seq_len "
                           f"{max_len}" if mask is not None else
                           "pass src_mask ([batch_size, 1, 1, steps + 1]) or sequence_lengths"
                           " to say which cache position the new token takes")
        else:
            steps = lens.reshape(-1)[:bsz].to(torch.int64)
            if steps.shape[0] < bsz:
                raise _bad(f"sequence_lengths has {steps.shape[0]} values for {bsz} rows")
            span = min(max_len, timestep + 1)
            if isinstance(steps, torch.Tensor):
                top = int(steps.max())
                if top >= span:
                    raise _bad(f"sequence_lengths reaches {top}; the step must be below "
                               f"cache_kv's max_seq_len {max_len}" + (
                                   "" if mask is None else f" and within src_mask ({timestep})"))
                span = max(top, 0) + 1
        live = steps >= 0
        rows = torch.arange(bsz, device=xt.device)

        # ---- write k, v at each live row's step, in place (a skipped row rewrites its own
        # value, which keeps the write free of data-dependent shapes)
        kc, vc = cache[0], cache[1]
        at = steps.clamp(min=0)
        keep = live[:, None, None]
        where = (rows[:, None], torch.arange(kv, device=xt.device)[None, :], at[:, None])
        kc.index_put_(where, torch.where(keep, k, kc[where]))
        vc.index_put_(where, torch.where(keep, v, vc[where]))

        # ---- gather the keys and values each row attends over
        pos = torch.arange(span, device=xt.device)
        if beams is None:
            keys, values = kc[:bsz, :, :span], vc[:bsz, :, :span]
        else:
            width_b = beams.shape[1] if beams.dim() == 3 else 1
            offs = beams.reshape(bsz, -1)
            if offs.shape[1] < span:
                raise _bad(f"beam_cache_offset covers {offs.shape[1]} steps, the cache needs "
                           f"{span}")
            src = (rows // width_b * width_b)[:, None] + offs[:, :span].to(torch.int64)
            src = torch.where(pos[None, :] == steps[:, None], rows[:, None], src)
            keys = kc[src, :, pos].permute(0, 2, 1, 3)
            values = vc[src, :, pos].permute(0, 2, 1, 3)

        # ---- attention, in float32 like the kernel's accumulators
        group = nh // kv
        qf = q.to(torch.float32).reshape(bsz, kv, group, dh)
        scores = torch.einsum("bkgd,bkld->bkgl", qf, keys.to(torch.float32))
        scores = scores.reshape(bsz, nh, span) * (1.0 / math.sqrt(dh))
        if mask is not None:
            m = mask.reshape(-1, mask.shape[-1])[:bsz * mask.shape[1]]
            scores = scores + m.reshape(bsz, mask.shape[1], -1)[..., :span].to(torch.float32)
        scores = scores.masked_fill((pos[None, :] > steps[:, None])[:, None, :], -math.inf)
        scores = scores.masked_fill(~live[:, None, None], 0.0)
        e = torch.exp(scores - scores.amax(-1, keepdim=True))
        p = e / (e.sum(-1, keepdim=True) + 1e-6)
        out = torch.einsum("bkgl,bkld->bkgd", p.reshape(bsz, kv, group, span),
                           values.to(torch.float32))
        out = out.reshape(bsz, nh * dh).masked_fill(~live[:, None], 0.0).to(dtype)

        # ---- output smoothing and quantisation
        if out_shift is not None:
            out = (out + _tensor(out_shift, "out_shift").reshape(1, -1).to(dtype)) \
                * _tensor(out_smooth, "out_smooth").reshape(1, -1).to(dtype)
        if out_scale > 0:
            out = quantise_int8(out, out_scale, quant_round_type, quant_max_bound, quant_min_bound)
    result = (wrap(out), cache_kv)
    return result + (beam_cache_offset,) if beam_cache_offset is not None else result
