"""``block_multihead_attention``: Paddle's inference attention over a paged (block) KV cache.

What Paddle 3.3.1's CUDA kernel does (``fusion/gpu/block_multi_head_attention_kernel.cu``,
``fusion/gpu/block_attn.h``, ``BlockMultiheadAttentionInferMeta``), and what this composition
of torch ops reproduces:

* ``qkv`` [token_num, (num_head + 2 * kv_num_head) * head_size] holds the unpadded tokens of
  every sequence, sequence after sequence; ``kv_num_head`` and ``head_size`` come from
  ``key_cache`` [max_block_num, kv_num_head, block_size, head_size], ``num_head`` from the
  width of ``qkv`` (GQA when ``num_head`` > ``kv_num_head``).
* The working copy of qkv is ``qkv`` (dequantised by ``qkv_out_scale`` when qkv is int32) plus
  ``qkv_bias``; the kernel writes it, with the RoPE of the prefill tokens, back into ``qkv``
  itself: the second result *is* ``qkv``, changed in place (an int32 qkv stays unchanged).
* A sequence with ``seq_lens_encoder[b] > 0`` is prefilled: its tokens (RoPE'd with the
  ``rope_emb`` rows of their positions) attend causally over themselves (with ``mask``: no
  causal rule, the mask is added; with ``pre_key_cache``: over the pre-cache then themselves,
  not causal, ``mask`` [bsz, 1, len, pre_len + len] added); their K/V go into the cache blocks
  ``block_tables[b]`` at positions ``pre_len + i`` (the pre-cache at ``0 .. pre_len - 1``).
* A sequence with ``seq_lens_encoder[b] == 0 < seq_lens_decoder[b]`` decodes its one token:
  its K/V are written at position ``seq_lens_decoder[b] (+ pre_len)`` and it attends over the
  cached positions up to and including that one (``tgt_mask`` [bsz, 1 or num_head, 1, >= len]
  added); its RoPE is computed from ``rope_theta`` at ``seq_lens_decoder[b]`` (interleaved
  pairs, ``rope_emb`` is not read) or, with ``use_neox_style``, read from the ``rope_emb`` row
  of ``seq_lens_decoder[b] (+ pre_len)``. The softmax divides by ``sum + 1e-6`` as the kernel.
* Sequences with ``seq_lens_this_time[b] == 0`` (stopped, or waiting) are skipped.
* ``out_scale > 0`` quantises the output to int8: ``round(quant_max_bound * out_scale * x)``
  (ties to even for ``quant_round_type=0``, away from zero for 1) clipped to the bounds, after
  ``(x + out_shift) * out_smooth`` when both are given (the kernel ignores them otherwise).

Layout tensors: ``padding_offsets``, ``cum_offsets``, ``cu_seqlens_q/k`` are what Paddle's
``get_padding_offset`` builds from ``seq_lens_this_time`` and ``max_seq_len`` (the padded
length); the kernel reads token positions from them, so they must agree (ValueError naming the
tensor otherwise), as must ``seq_lens_this_time`` with the phase of each sequence.

Differences from the kernel, each deliberate:

* float32 qkv (and ``compute_dtype='fp32'`` with int32 qkv) is computed too; Paddle registers
  float16, bfloat16 and int32 only. Any head_size (even with RoPE) and block_size work; the
  kernel's decoder takes 32/64/128 for both.
* Where the kernel reads or writes out of place the op raises instead: a ``rope_emb`` with a
  batch dimension > 1 (NotImplementedError: the kernel takes its sines from batch 1's
  cosines), RoPE with ``use_neox_style`` and a pre-cache (NotImplementedError: the kernel
  rotates decode tokens at ``seq_lens_decoder + pre_len`` but prefill tokens from 0), a
  sequence both prefilling and decoding, a decode step of more than one token, tokens of a
  sequence in neither phase, block ids outside the cache, ``max_*_len_this_time`` below the
  real maxima (ValueError).
* A sequence with ``seq_lens_this_time[b] == 0`` is skipped even if its ``seq_lens_decoder``
  is still positive (the kernel would decode another sequence's token into its cache).
* Not supported (NotImplementedError): the int8 cache (``cache_k_quant_scales`` and the other
  three scales, ``use_dynamic_cachekv_quant``), float8 output (``quant_max_bound=448``), a
  pre-cache with GQA (the kernel does not support it either), static-graph mode.

The op reads the sequence lengths on the host (one device-to-host copy), as the kernel does.
"""
import math

import torch

from ...framework.dtype import from_torch_dtype
from ...framework.tensor import wrap
from ...ops.common import not_tensor
from .inference import COMPUTE_DTYPES, quantise_int8

API = "block_multihead_attention"


def _name(dtype):
    return from_torch_dtype(dtype).name


def _bad(msg):
    return ValueError(f"{API}: {msg}")


def _unsupported(arg, why):
    return NotImplementedError(f"{API}: {arg} is not supported ({why})")


def _arg(x, name, pos):
    """The torch tensor of a Tensor argument (None stays None)."""
    if x is None:
        return None
    try:
        return x._t
    except AttributeError:
        raise not_tensor(API, name, pos, x) from None


def _shape(t):
    return list(t.shape)


# ---------------------------------------------------------------------- argument checks
def _compute_dtype(x, compute_dtype, qkv_out_scale):
    """The dtype the kernel computes in (its T), after InferMeta's checks."""
    if compute_dtype not in ("default", *COMPUTE_DTYPES):
        raise _bad(f"compute_dtype must be 'default', 'fp16', 'bf16' or 'fp32', but got "
                   f"{compute_dtype!r}")
    if x.dtype == torch.int32:
        if compute_dtype == "default":
            raise _bad("if qkv is int32 (quantised), compute_dtype must be set to 'fp16', "
                       "'bf16' or 'fp32'")
        if qkv_out_scale is None:
            raise _bad("an int32 qkv needs qkv_out_scale to dequantise it")
        return COMPUTE_DTYPES[compute_dtype]
    if x.dtype not in (torch.float16, torch.bfloat16, torch.float32):
        raise NotImplementedError(f"{API}: qkv of dtype {str(x.dtype).replace('torch.', '')} "
                                  "is not supported (Paddle's kernel takes float16, bfloat16 "
                                  "or int32 with qkv_out_scale; float32 is computed here too)")
    if compute_dtype != "default" and COMPUTE_DTYPES[compute_dtype] != x.dtype:
        raise _bad(f"qkv dtype {_name(x.dtype)} must be the same as compute_dtype "
                   f"{compute_dtype!r}")
    if qkv_out_scale is not None:
        raise _bad("qkv_out_scale dequantises an int32 qkv, but qkv is "
                   f"{_name(x.dtype)}")
    return x.dtype


def _heads(x, kc, vc, block_size):
    """(num_head, kv_num_head, head_size) as InferMeta derives them, with its checks."""
    if x.dim() != 2:
        raise _bad(f"qkv must be 2-D [token_num, (num_head + 2 * kv_num_head) * head_size], "
                   f"but its shape is {_shape(x)}")
    if kc.dim() != 4:
        raise _bad(f"key_cache must be 4-D [max_block_num, kv_num_head, block_size, "
                   f"head_size], but its shape is {_shape(kc)}")
    if _shape(vc) != _shape(kc):
        raise _bad(f"value_cache shape {_shape(vc)} must equal key_cache shape {_shape(kc)}")
    kv_heads, head_size = kc.shape[1], kc.shape[3]
    if kv_heads < 1 or head_size < 1:
        raise _bad(f"key_cache shape {_shape(kc)} has no heads")
    width = x.shape[1]
    heads = width // head_size - 2 * kv_heads
    if heads < 1 or (heads + 2 * kv_heads) * head_size != width:
        raise _bad(f"qkv width {width} must be (num_head + 2 * kv_num_head) * head_size with "
                   f"kv_num_head {kv_heads} and head_size {head_size} (from key_cache)")
    if heads % kv_heads:
        raise _bad(f"the q num_head ({heads}) must be divisible by kv num_head ({kv_heads})")
    if block_size != kc.shape[2]:
        raise _bad(f"block_size {block_size} must equal key_cache.shape[2] {kc.shape[2]}")
    return heads, kv_heads, head_size


def _host_ints(**tensors):
    """The int values of small tensors as Python lists, with one device-to-host copy."""
    flat = [t.reshape(-1).to(torch.int64) for t in tensors.values()]
    values = torch.cat(flat).cpu().tolist() if flat else []
    out, i = {}, 0
    for name, t in zip(tensors, flat):
        out[name] = values[i:i + t.numel()]
        i += t.numel()
    return out


def _plan(v, token_num, max_seq_len, n_blocks, block_size, pre_len):
    """The prefill sequences [(b, first token, length)] and decode sequences [(b, token,
    cache position)], after checking the layout tensors against seq_lens_this_time."""
    enc, dec, this = v["seq_lens_encoder"], v["seq_lens_decoder"], v["seq_lens_this_time"]
    bsz = len(v["cum_offsets"])
    for name in ("seq_lens_encoder", "seq_lens_decoder", "seq_lens_this_time"):
        if len(v[name]) != bsz:
            raise _bad(f"{name} has {len(v[name])} values but cum_offsets gives batch size "
                       f"{bsz}")
    if min(this, default=0) < 0 or min(enc, default=0) < 0 or min(dec, default=0) < 0:
        raise _bad("sequence lengths must not be negative")
    if sum(this) != token_num:
        raise _bad(f"qkv has {token_num} tokens but seq_lens_this_time sums to {sum(this)}")
    longest = max(this, default=0)
    if longest and max_seq_len < longest:
        raise _bad(f"max_seq_len ({max_seq_len}) must be at least the longest "
                   f"seq_lens_this_time ({longest}): it is the padded length padding_offsets "
                   "and cum_offsets are built with")
    cum, pad, cu = [], [], [0]
    for n in this:
        cum.append(len(cum) * max_seq_len - cu[-1])
        pad += [cum[-1]] * n
        cu.append(cu[-1] + n)
    for name, want in (("cum_offsets", cum), ("padding_offsets", pad),
                       ("cu_seqlens_q", cu), ("cu_seqlens_k", cu)):
        if v[name] != want:
            raise _bad(f"{name} {v[name]} does not match seq_lens_this_time {this} with "
                       f"max_seq_len {max_seq_len} (expected {want})")
    width = len(v["block_tables"]) // bsz if bsz else 0
    table = [v["block_tables"][b * width:(b + 1) * width] for b in range(bsz)]
    prefill, decode = [], []
    for b in range(bsz):
        n = this[b]
        if n == 0:
            continue                       # stopped or idle this step: skipped
        if enc[b] > 0:
            if dec[b] > 0:
                raise _bad(f"sequence {b} has both seq_lens_encoder ({enc[b]}) and "
                           f"seq_lens_decoder ({dec[b]}) positive")
            if n != enc[b]:
                raise _bad(f"sequence {b} is prefilled with seq_lens_encoder {enc[b]} tokens "
                           f"but seq_lens_this_time is {n}")
            prefill.append((b, cu[b], n))
            last = pre_len + n - 1
        elif dec[b] > 0:
            if n != 1:
                raise _bad(f"sequence {b} decodes (seq_lens_decoder {dec[b]}) one token per "
                           f"step, but seq_lens_this_time is {n}")
            decode.append((b, cu[b], dec[b] + pre_len))
            last = dec[b] + pre_len
        else:
            raise _bad(f"sequence {b} has {n} tokens but neither seq_lens_encoder nor "
                       "seq_lens_decoder is positive")
        if last // block_size >= width:
            raise _bad(f"sequence {b} reaches cache position {last}, beyond its "
                       f"{width} blocks of {block_size} in block_tables")
        for blk in table[b][:last // block_size + 1]:
            if not 0 <= blk < n_blocks:
                raise _bad(f"block_tables[{b}] names block {blk}, but the cache has "
                           f"{n_blocks} blocks")
    return prefill, decode


def _check_max_len(t, name, actual):
    if t is None:
        return
    given = int(t.reshape(-1)[0])
    if given < actual:
        raise _bad(f"{name} is {given}, but this step's longest is {actual}")


def _check_sizes(prefill, decode, pre_len, rope, neox, mask, tgt_mask):
    """The RoPE table and the masks cover the positions this step reads (before any write)."""
    enc_len = max((s[2] for s in prefill), default=0)
    dec_len = max((s[2] + 1 for s in decode), default=0)      # cache positions, incl. the new
    if rope is not None:
        need = max(enc_len, dec_len if neox else 0)
        if need > rope[0].shape[0]:
            raise _bad(f"rope_emb covers {rope[0].shape[0]} positions, this step needs {need}")
    if mask is not None and prefill and (mask.shape[2] < enc_len or
                                         mask.shape[3] < pre_len + enc_len):
        raise _bad(f"mask {_shape(mask)} must cover [bsz, 1, {enc_len}, {pre_len + enc_len}] "
                   "for this prefill")
    if tgt_mask is not None and decode and tgt_mask.shape[3] < dec_len:
        raise _bad(f"tgt_mask {_shape(tgt_mask)} must cover {dec_len} cache positions")


def _rope_tables(rope, head_size, neox):
    """(cos, sin) [positions, width] float32 from rope_emb [2, 1, positions, 1, width]: width
    head_size // 2 (pairs (2i, 2i+1)) or, neox style, head_size (pairs (i, i + half))."""
    width = head_size if neox else head_size // 2
    if head_size % 2:
        raise _bad(f"RoPE needs an even head_size, but it is {head_size}")
    if rope.dim() != 5 or rope.shape[0] != 2 or rope.shape[3] != 1 or rope.shape[4] != width:
        raise _bad(f"rope_emb must be [2, 1, max_seq_len, 1, {width}] "
                   f"({'head_size' if neox else 'head_size // 2'} with "
                   f"use_neox_style={neox}), but its shape is {_shape(rope)}")
    if rope.shape[1] != 1:
        raise _unsupported("rope_emb with a batch dimension > 1",
                           "Paddle's kernel reads one table for the whole batch and takes its "
                           "sines from where batch 1's cosines are")
    rope = rope.float()
    return rope[0, 0, :, 0, :], rope[1, 0, :, 0, :]


def _rotate(x, cos, sin, neox):
    """RoPE of x [..., head_size] (float32) with cos/sin [..., head_size // 2] broadcast, or
    for neox style [..., head_size] rows (x_j cos_j -+ x_(j +- half) sin_j)."""
    if neox:
        half = x.shape[-1] // 2
        turned = torch.cat([-x[..., half:], x[..., :half]], -1)
        return x * cos + turned * sin
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.stack([a * cos - b * sin, b * cos + a * sin], -1).flatten(-2)


# ---------------------------------------------------------------------- the two phases
def _prefill(buf, kc, vc, table, seqs, heads, kv_heads, head_size, block_size, pre_k, pre_v,
             rope, neox, mask, out):
    """RoPE, cache writes and attention of the prefilled sequences; writes buf and out."""
    dev, dt = buf.device, buf.dtype
    b_ids = torch.tensor([s[0] for s in seqs], device=dev)
    starts = torch.tensor([s[1] for s in seqs], device=dev)
    lens = torch.tensor([s[2] for s in seqs], device=dev)
    n_seq, longest = len(seqs), max(s[2] for s in seqs)
    ar = torch.arange(longest, device=dev)
    valid = ar < lens[:, None]                                      # [S, L]
    rows = torch.where(valid, starts[:, None] + ar, starts[:, None])
    tok = buf[rows].reshape(n_seq, longest, heads + 2 * kv_heads, head_size)
    if rope is not None:
        cos, sin = rope
        cos, sin = cos[:longest, None, :], sin[:longest, None, :]
        if neox:
            half = head_size // 2
            cos = torch.cat([cos[..., :half], cos[..., :half]], -1)
            sin = torch.cat([sin[..., :half], sin[..., :half]], -1)
        qk = tok[:, :, :heads + kv_heads].float()
        tok = torch.cat([_rotate(qk, cos, sin, neox).to(dt), tok[:, :, heads + kv_heads:]], 2)
        buf[rows[valid]] = tok[valid].reshape(-1, buf.shape[1])
    q = tok[:, :, :heads].transpose(1, 2)                           # [S, H, L, D]
    k = tok[:, :, heads:heads + kv_heads].transpose(1, 2)
    v = tok[:, :, heads + kv_heads:].transpose(1, 2)

    # the cache: the tokens at pre_len + i, the pre-cache at 0 .. pre_len - 1
    pre_len = 0 if pre_k is None else pre_k.shape[2]
    tables = table[b_ids]                                           # [S, M]
    pos = (ar + pre_len).expand(n_seq, longest)
    blocks = tables.gather(1, (pos // block_size).clamp(max=tables.shape[1] - 1))
    kc[blocks[valid], :, (pos % block_size)[valid], :] = k.transpose(1, 2)[valid]
    vc[blocks[valid], :, (pos % block_size)[valid], :] = v.transpose(1, 2)[valid]
    if pre_len:
        ppos = torch.arange(pre_len, device=dev).expand(n_seq, pre_len)
        pblocks = tables.gather(1, ppos // block_size).reshape(-1)
        poff = (ppos % block_size).reshape(-1)
        kc[pblocks, :, poff, :] = pre_k[b_ids].transpose(1, 2).reshape(-1, kv_heads, head_size)
        vc[pblocks, :, poff, :] = pre_v[b_ids].transpose(1, 2).reshape(-1, kv_heads, head_size)
        k = torch.cat([pre_k[b_ids], k], 2)
        v = torch.cat([pre_v[b_ids], v], 2)

    # attention: causal over the sequence itself, or (mask / pre-cache) the mask added
    work = dt if dev.type == "cuda" else torch.float32
    q, k, v = q.to(work), k.to(work), v.to(work)
    if heads != kv_heads:
        k = k.repeat_interleave(heads // kv_heads, 1)
        v = v.repeat_interleave(heads // kv_heads, 1)
    scale = 1.0 / math.sqrt(head_size)
    if mask is None and not pre_len:
        # padded keys j >= len are seen only by padded queries i >= len: plain causal is exact
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True,
                                                             scale=scale)
    else:
        keys = torch.arange(pre_len + longest, device=dev)
        bias = torch.zeros(n_seq, 1, longest, pre_len + longest, device=dev)
        bias = bias.masked_fill((keys >= (lens + pre_len)[:, None])[:, None, None, :],
                                -math.inf)
        if mask is not None:
            bias = bias + mask[b_ids, :, :longest, :pre_len + longest].float()
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v, bias.to(work),
                                                             scale=scale)
    o = o.transpose(1, 2).reshape(n_seq, longest, heads * head_size)
    out[rows[valid]] = o[valid].to(out.dtype)


def _decode(buf, kc, vc, table, seqs, heads, kv_heads, head_size, block_size, pre_len,
            rope, neox, rope_theta, tgt_mask, out):
    """One token per sequence: RoPE, cache write at its position, attention over the cache."""
    dev, dt = buf.device, buf.dtype
    b_ids = torch.tensor([s[0] for s in seqs], device=dev)
    rows = torch.tensor([s[1] for s in seqs], device=dev)
    pos = torch.tensor([s[2] for s in seqs], device=dev)            # cache position
    n_seq, longest = len(seqs), max(s[2] for s in seqs) + 1
    tok = buf[rows].reshape(n_seq, heads + 2 * kv_heads, head_size)
    q, k, v = tok[:, :heads], tok[:, heads:heads + kv_heads], tok[:, heads + kv_heads:]
    if rope is not None:
        if neox:
            cos, sin = rope
            cos, sin = cos[pos][:, None], sin[pos][:, None]
        else:                              # from rope_theta at seq_lens_decoder (rope_emb unread)
            step = (pos - pre_len).float()[:, None, None]
            expo = torch.arange(0, head_size, 2, device=dev, dtype=torch.float32) / head_size
            angle = step / torch.pow(torch.tensor(rope_theta, dtype=torch.float32,
                                                  device=dev), expo)
            cos, sin = torch.cos(angle), torch.sin(angle)
        q = _rotate(q.float(), cos, sin, neox).to(dt)
        k = _rotate(k.float(), cos, sin, neox).to(dt)
    tables = table[b_ids]
    blk = tables.gather(1, (pos // block_size)[:, None])[:, 0]
    kc[blk, :, pos % block_size, :] = k
    vc[blk, :, pos % block_size, :] = v

    # gather whole blocks: [S, blocks, kvH, bs, D] -> [S, kvH, L, D]
    n_blk = -(-longest // block_size)
    used = torch.arange(n_blk, device=dev) <= (pos // block_size)[:, None]
    blocks = torch.where(used, tables[:, :n_blk], torch.zeros_like(tables[:, :n_blk]))

    def cached(cache):
        c = cache[blocks].transpose(1, 2).reshape(n_seq, kv_heads, n_blk * block_size, -1)
        return c[:, :, :longest].float()

    ck, cv = cached(kc), cached(vc)
    seen = torch.arange(longest, device=dev) <= pos[:, None]        # [S, L]
    group = heads // kv_heads
    qg = q.float().reshape(n_seq, kv_heads, group, head_size)
    score = torch.einsum("skgd,skld->skgl", qg, ck) * (1.0 / math.sqrt(head_size))
    score = score.reshape(n_seq, heads, longest)
    if tgt_mask is not None:
        score = score + tgt_mask[b_ids, :, 0, :longest].float()
    score = score.masked_fill(~seen[:, None, :], -math.inf)
    e = torch.exp(score - score.amax(-1, keepdim=True))
    p = e / (e.sum(-1, keepdim=True) + 1e-6)
    o = torch.einsum("skgl,skld->skgd", p.reshape(n_seq, kv_heads, group, longest), cv)
    out[rows] = o.reshape(n_seq, heads * head_size).to(out.dtype)


def _quantize(x, out_scale, shift, smooth, round_type, max_bound, min_bound):
    """int8 ``clip(round(max_bound * out_scale * ((x + shift) * smooth)))`` as the kernel."""
    if shift is not None and smooth is not None:
        x = (x + shift.to(x.dtype).reshape(-1)) * smooth.to(x.dtype).reshape(-1)
    return quantise_int8(x, out_scale, round_type, max_bound, min_bound)


# ---------------------------------------------------------------------- the op
def block_multihead_attention(qkv, key_cache, value_cache, seq_lens_encoder, seq_lens_decoder,
                              seq_lens_this_time, padding_offsets, cum_offsets, cu_seqlens_q,
                              cu_seqlens_k, block_tables, pre_key_cache=None,
                              pre_value_cache=None, cache_k_quant_scales=None,
                              cache_v_quant_scales=None, cache_k_dequant_scales=None,
                              cache_v_dequant_scales=None, qkv_out_scale=None, qkv_bias=None,
                              out_shift=None, out_smooth=None, max_enc_len_this_time=None,
                              max_dec_len_this_time=None, rope_emb=None, mask=None,
                              tgt_mask=None, max_seq_len=-1, block_size=64,
                              use_neox_style=False, use_dynamic_cachekv_quant=False,
                              quant_round_type=1, quant_max_bound=127.0,
                              quant_min_bound=-127.0, out_scale=-1, compute_dtype="default",
                              rope_theta=10000.0):
    """Paddle's paged-KV-cache attention (prefill and decode steps of a batch in one call).

    Returns ``(fmha_out, qkv_out, key_cache_out, value_cache_out)``: the attention output
    [token_num, num_head * head_size] (int8 with ``out_scale > 0``) and the ``qkv``,
    ``key_cache`` and ``value_cache`` Tensors themselves, updated in place. See the module
    docstring for what is computed and what is not supported.
    """
    for name, value in (("cache_k_quant_scales", cache_k_quant_scales),
                        ("cache_v_quant_scales", cache_v_quant_scales),
                        ("cache_k_dequant_scales", cache_k_dequant_scales),
                        ("cache_v_dequant_scales", cache_v_dequant_scales)):
        if value is not None:
            raise _unsupported(name, "the int8 cache-KV quantisation")
    if use_dynamic_cachekv_quant:
        raise _unsupported("use_dynamic_cachekv_quant", "the int8 cache-KV quantisation")
    x = _arg(qkv, "qkv", 0)
    kc, vc = _arg(key_cache, "key_cache", 1), _arg(value_cache, "value_cache", 2)
    ints = {name: _arg(t, name, pos) for pos, (name, t) in enumerate((
        ("seq_lens_encoder", seq_lens_encoder), ("seq_lens_decoder", seq_lens_decoder),
        ("seq_lens_this_time", seq_lens_this_time), ("padding_offsets", padding_offsets),
        ("cum_offsets", cum_offsets), ("cu_seqlens_q", cu_seqlens_q),
        ("cu_seqlens_k", cu_seqlens_k), ("block_tables", block_tables)), start=3)}
    if isinstance(x, torch.fx.Proxy):
        raise NotImplementedError(f"{API}: static graph mode is not supported (the op reads "
                                  "the sequence lengths' values)")
    pre_k, pre_v = _arg(pre_key_cache, "pre_key_cache", 11), _arg(pre_value_cache,
                                                                  "pre_value_cache", 12)
    scale_in, bias = _arg(qkv_out_scale, "qkv_out_scale", 17), _arg(qkv_bias, "qkv_bias", 18)
    shift, smooth = _arg(out_shift, "out_shift", 19), _arg(out_smooth, "out_smooth", 20)
    max_enc = _arg(max_enc_len_this_time, "max_enc_len_this_time", 21)
    max_dec = _arg(max_dec_len_this_time, "max_dec_len_this_time", 22)
    rope = _arg(rope_emb, "rope_emb", 23)
    enc_mask, dec_mask = _arg(mask, "mask", 24), _arg(tgt_mask, "tgt_mask", 25)

    dt = _compute_dtype(x, compute_dtype, scale_in)
    heads, kv_heads, head_size = _heads(x, kc, vc, block_size)
    width = x.shape[1]
    if kc.dtype != dt or vc.dtype != dt:
        if kc.dtype in (torch.uint8, torch.int8):
            raise _unsupported("an int8 key_cache/value_cache", "the int8 cache-KV "
                               "quantisation")
        raise _bad(f"key_cache and value_cache must be {_name(dt)} like the computation, "
                   f"but they are {kc.dtype} and {vc.dtype}")
    if out_scale > 0:
        if x.dtype != torch.int32 and abs(quant_max_bound - 448.0) < 1e-6:
            raise _unsupported("out_scale with quant_max_bound=448", "float8_e4m3fn output")
        if x.dtype != torch.int32 and abs(quant_max_bound - 127.0) >= 1e-6:
            raise _bad(f"with out_scale > 0 quant_max_bound must be 127.0 (int8 output), but "
                       f"it is {quant_max_bound}")
        if not -128 <= quant_min_bound <= quant_max_bound <= 127:
            raise _bad(f"the int8 output needs -128 <= quant_min_bound <= quant_max_bound <= "
                       f"127, but they are {quant_min_bound} and {quant_max_bound}")
    if quant_round_type not in (0, 1):
        raise _bad(f"quant_round_type must be 0 or 1, but got {quant_round_type}")
    if (pre_k is None) != (pre_v is None):
        raise _bad("pre_key_cache and pre_value_cache must be given together")
    pre_len = 0
    if pre_k is not None:
        if heads != kv_heads:
            raise _unsupported("pre_key_cache with GQA (num_head != kv_num_head)",
                               "Paddle's kernel does not support it either")
        if rope is not None and use_neox_style:
            raise _unsupported("rope_emb with use_neox_style=True and a pre_key_cache",
                               "Paddle's kernel rotates decode tokens at seq_lens_decoder + "
                               "pre-cache length but prefill tokens from position 0")
        bsz = ints["cum_offsets"].shape[0]
        for name, t in (("pre_key_cache", pre_k), ("pre_value_cache", pre_v)):
            if t.dim() != 4 or t.shape[0] != bsz or t.shape[1] != kv_heads or \
                    t.shape[3] != head_size or _shape(t) != _shape(pre_k):
                raise _bad(f"{name} must be [{bsz}, {kv_heads}, pre_cache_length, "
                           f"{head_size}], but its shape is {_shape(t)}")
        pre_len = pre_k.shape[2]
        pre_k, pre_v = pre_k.to(dt), pre_v.to(dt)
    for name, t in (("qkv_out_scale", scale_in), ("qkv_bias", bias)):
        if t is not None and t.numel() != width:
            raise _bad(f"{name} must have qkv's width {width} values, but its shape is "
                       f"{_shape(t)}")
    for name, t in (("out_shift", shift), ("out_smooth", smooth)):
        if t is not None and t.numel() != heads * head_size:
            raise _bad(f"{name} must have {heads * head_size} values, but its shape is "
                       f"{_shape(t)}")
    for name, t in (("mask", enc_mask), ("tgt_mask", dec_mask)):
        if t is None:
            continue
        if t.dim() != 4 or t.shape[1] not in (1, heads) or (name == "tgt_mask" and
                                                            t.shape[2] != 1):
            rows = "1" if name == "tgt_mask" else "seq_len"
            raise _bad(f"{name} must be [bsz, 1 or num_head ({heads}), {rows}, ...], but its "
                       f"shape is {_shape(t)}")
        if t.shape[0] != ints["cum_offsets"].shape[0]:
            raise _bad(f"{name} batch size {t.shape[0]} must be the batch size "
                       f"{ints['cum_offsets'].shape[0]}")
    if enc_mask is not None and pre_len and enc_mask.shape[1] != 1:
        raise _bad(f"with a pre-cache the mask must be [bsz, 1, seq_len, pre_cache_length + "
                   f"seq_len], but its shape is {_shape(enc_mask)}")
    tables = ints["block_tables"]
    if tables.dim() != 2 or tables.shape[0] != ints["cum_offsets"].shape[0]:
        raise _bad(f"block_tables must be [bsz, max_blocks_per_seq] with bsz "
                   f"{ints['cum_offsets'].shape[0]}, but its shape is {_shape(tables)}")
    if rope is not None:
        rope = _rope_tables(rope, head_size, use_neox_style)

    values = _host_ints(**ints)
    prefill, decode = _plan(values, x.shape[0], max_seq_len, kc.shape[0], block_size, pre_len)
    _check_max_len(max_enc, "max_enc_len_this_time", max((s[2] for s in prefill), default=0))
    _check_max_len(max_dec, "max_dec_len_this_time",
                   max((s[2] - pre_len for s in decode), default=0))
    _check_sizes(prefill, decode, pre_len, rope, use_neox_style, enc_mask, dec_mask)

    with torch.no_grad():
        if scale_in is not None:
            buf = (x.float() * scale_in.float().reshape(-1)).to(dt)
        else:
            buf = x if rope is None else x.clone()   # the prefill RoPE writes into buf
        if bias is not None:
            buf = buf + bias.to(dt).reshape(-1)
        out = torch.zeros(x.shape[0], heads * head_size, dtype=dt, device=x.device)
        table = tables.to(device=x.device, dtype=torch.int64)
        if prefill:
            _prefill(buf, kc, vc, table, prefill, heads, kv_heads, head_size, block_size,
                     pre_k, pre_v, rope, use_neox_style, enc_mask, out)
        if decode:
            _decode(buf, kc, vc, table, decode, heads, kv_heads, head_size, block_size,
                    pre_len, rope, use_neox_style, rope_theta, dec_mask, out)
        if scale_in is None and (bias is not None or (rope is not None and prefill)):
            x.copy_(buf)                   # the kernel writes bias and RoPE into qkv itself
        if out_scale > 0:
            out = _quantize(out, out_scale, shift, smooth, quant_round_type, quant_max_bound,
                            quant_min_bound)
    return wrap(out), qkv, key_cache, value_cache
