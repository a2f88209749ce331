"""Record goldens of Paddle 3.3.1's ``paddle.incubate.nn.functional.block_multihead_attention``
(the paged-KV-cache inference attention) for tests/test_ops_blha.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_ops_blha.py

The case format and helpers are those of record_ops_nn2.py (reused as ``base`` with this
file's rng and OUT). Paddle 3.3.1 registers the op for CUDA only, so every case carries
``ref``: ``blha_ref`` (in PRE below), a naive composition of real Paddle CPU ops written from
what the CUDA kernel does (paddle/phi/kernels/fusion/gpu/block_multi_head_attention_kernel.cu
and block_attn.h): per sequence, in order,

* the working qkv = qkv (int32: times qkv_out_scale, rounded to the compute dtype) + qkv_bias,
  rounded to the compute dtype; the kernel writes it back into qkv (the 2nd result);
* prefill (seq_lens_encoder[b] > 0): RoPE from the rope_emb table rows of positions 0..n-1
  (interleaved pairs, or neox halves with the first half of each row), K/V of the pre-cache and
  of the tokens written at block_tables[b][j // bs], j % bs, then softmax attention: causal,
  or with ``mask`` added and no causal rule, or over pre-cache + tokens (not causal);
* decode (seq_lens_decoder[b] > 0): the one token's RoPE (from rope_theta at seq_lens_decoder
  for interleaved pairs; the table row of seq_lens_decoder + pre_len, whole, for neox), its
  K/V written at seq_lens_decoder + pre_len, attention over cache positions 0..that one with
  tgt_mask added and the kernel's softmax denominator ``sum + 1e-6``;
* out_scale > 0: int8 = clip(round(quant_max_bound * out_scale * x)) after (x + out_shift) *
  out_smooth, round half to even (quant_round_type 0) or away from zero (1).

Values stored in the compute dtype are rounded to it where the kernel stores them. The error
cases are InferMeta's checks (InvalidArgument, a ValueError in Python), which ``blha_ref``
makes first.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_ops_nn2 as base  # noqa: E402  (its helpers: T, case, the Paddle env)

base.rng = np.random.default_rng(20240807)
base.OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                        "goldens", "ops_blha.json")
T, case = base.T, base.case
API = base.IFN + "block_multihead_attention"

PRE = r'''
def _tables(rope, width):
    # the kernel reads rope_emb as a flat float32 buffer: cos rows, then sin rows
    flat = rope.astype('float32').reshape([-1])
    r = rope.shape[2]
    return (flat[:r * width].reshape([r, width]),
            flat[r * width:2 * r * width].reshape([r, width]))

def _pairs(x, c, s):
    a, b = x[..., 0::2], x[..., 1::2]
    return paddle.stack([a * c - b * s, b * c + a * s], -1).reshape(x.shape)

def _halves(x, c, s):
    h = x.shape[-1] // 2
    return x * c + paddle.concat([-x[..., h:], x[..., :h]], -1) * s

def blha_ref(qkv, kc, vc, se, sd, st, bt, bs, pre_k=None, pre_v=None, bias=None, rope=None,
             neox=False, mask=None, tgt=None, theta=10000.0, qscale=None, cdt='default',
             out_scale=-1.0, shift=None, smooth=None, rtype=1, qmax=127.0, qmin=-127.0):
    names = {'fp16': 'float16', 'bf16': 'bfloat16', 'fp32': 'float32'}
    if len(qkv.shape) != 2:
        raise ValueError('The input(qkv) must be a 2D Tensor.')
    if len(kc.shape) != 4:
        raise ValueError('The input(key_cache) must be a 4D Tensor.')
    D, kvh = kc.shape[3], kc.shape[1]
    H = qkv.shape[1] // D - 2 * kvh
    if H % kvh:
        raise ValueError('The q num_head must be divisible by kv num_head')
    if (H + 2 * kvh) * D != qkv.shape[1]:
        raise ValueError('The input_dims[1] must be equal to (2 * kv_num_head + q_num_head) '
                         '* dim_head')
    is_int = qkv.dtype == paddle.int32
    if is_int and cdt == 'default':
        raise ValueError('If Input(x) dtype is INT32, Attr(compute_dtype) must be set.')
    if not is_int and cdt != 'default' and names[cdt] != str(qkv.dtype).split('.')[-1]:
        raise ValueError('Input(qkv) dtype must be the same with Attr(compute_dtype)')
    T = names[cdt] if is_int else qkv.dtype
    f32 = lambda t: t.astype('float32')
    rnd = lambda t: t.astype(T).astype('float32')        # a value stored in the compute dtype
    se, sd, st = [[int(a) for a in t.numpy().reshape(-1)] for t in (se, sd, st)]
    table = bt.numpy()
    buf = rnd(f32(qkv) * qscale) if is_int else f32(qkv)
    if bias is not None:
        buf = rnd(buf + f32(bias))
    kc_o, vc_o = f32(kc), f32(vc)
    out = paddle.zeros([qkv.shape[0], H * D], 'float32')
    P = 0 if pre_k is None else pre_k.shape[2]
    scale = D ** -0.5
    start = 0
    for b in range(len(st)):
        n = st[b]
        if n == 0:
            continue
        x = buf[start:start + n].reshape([n, H + 2 * kvh, D])
        q, k, v = x[:, :H], x[:, H:H + kvh], x[:, H + kvh:]
        if se[b] > 0:
            if rope is not None:
                if neox:
                    c, s = _tables(rope, D)
                    c = paddle.concat([c[:n, :D // 2], c[:n, :D // 2]], -1).unsqueeze(1)
                    s = paddle.concat([s[:n, :D // 2], s[:n, :D // 2]], -1).unsqueeze(1)
                    q, k = rnd(_halves(q, c, s)), rnd(_halves(k, c, s))
                else:
                    c, s = _tables(rope, D // 2)
                    c, s = c[:n].unsqueeze(1), s[:n].unsqueeze(1)
                    q, k = rnd(_pairs(q, c, s)), rnd(_pairs(k, c, s))
                buf[start:start + n] = paddle.concat([q, k, v], 1).reshape([n, -1])
            keys, vals = k.transpose([1, 0, 2]), v.transpose([1, 0, 2])
            if P:
                keys = paddle.concat([f32(pre_k[b]), keys], 1)
                vals = paddle.concat([f32(pre_v[b]), vals], 1)
            for j in range(P + n):
                blk = int(table[b, j // bs])
                kc_o[blk, :, j % bs, :] = keys[:, j, :]
                vc_o[blk, :, j % bs, :] = vals[:, j, :]
            keys = paddle.repeat_interleave(keys, H // kvh, 0)
            vals = paddle.repeat_interleave(vals, H // kvh, 0)
            sc = paddle.matmul(q.transpose([1, 0, 2]), keys, transpose_y=True) * scale
            if mask is not None:
                sc = sc + f32(mask[b, :, :n, :P + n])
            elif not P:
                sc = sc + paddle.to_tensor(np.triu(np.full((n, n), -np.inf, 'float32'), 1))
            o = paddle.matmul(F.softmax(sc, -1), vals)
            out[start:start + n] = o.transpose([1, 0, 2]).reshape([n, H * D])
        else:
            t = sd[b] + P
            q1, k1, v1 = q[0], k[0], v[0]
            if rope is not None:
                if neox:
                    c, s = _tables(rope, D)
                    q1, k1 = rnd(_halves(q1, c[t], s[t])), rnd(_halves(k1, c[t], s[t]))
                else:
                    freq = paddle.pow(paddle.full([D // 2], theta, 'float32'),
                                      paddle.arange(0, D, 2, dtype='float32') / D)
                    ang = paddle.full([D // 2], float(sd[b]), 'float32') / freq
                    c, s = paddle.cos(ang), paddle.sin(ang)
                    q1, k1 = rnd(_pairs(q1, c, s)), rnd(_pairs(k1, c, s))
            blk = int(table[b, t // bs])
            kc_o[blk, :, t % bs, :] = k1
            vc_o[blk, :, t % bs, :] = v1
            keys = paddle.stack([kc_o[int(table[b, j // bs]), :, j % bs, :]
                                 for j in range(t + 1)], 1)
            vals = paddle.stack([vc_o[int(table[b, j // bs]), :, j % bs, :]
                                 for j in range(t + 1)], 1)
            keys = paddle.repeat_interleave(keys, H // kvh, 0)
            vals = paddle.repeat_interleave(vals, H // kvh, 0)
            sc = (q1.unsqueeze(1) * keys).sum(-1) * scale
            if tgt is not None:
                sc = sc + f32(tgt[b, :, 0, :t + 1])
            e = paddle.exp(sc - sc.max(-1, keepdim=True))
            p = e / (e.sum(-1, keepdim=True) + 1e-6)
            out[start] = (p.unsqueeze(-1) * vals).sum(1).reshape([H * D])
        start += n
    out = out.astype(T)
    if out_scale > 0:
        y = out
        if shift is not None and smooth is not None:
            y = rnd(rnd(f32(y) + f32(shift)) * f32(smooth))
        val = (np.float32(qmax) * np.float32(out_scale)) * f32(y).numpy()
        val = val.astype('float64')
        val = np.rint(val) if rtype == 0 else np.sign(val) * np.floor(np.abs(val) + 0.5)
        out = paddle.to_tensor(np.clip(val, qmin, qmax).astype('int8'))
    qkv_out = qkv if is_int else buf.astype(qkv.dtype)
    return out, qkv_out, kc_o.astype(kc.dtype), vc_o.astype(vc.dtype)
'''


def I(values, shape=None):  # noqa: E743
    """An int32 tensor spec."""
    values = [int(v) for v in values]
    return T("int32", [len(values)] if shape is None else shape, values=values)


def rope_table(positions, head, neox, theta=10000.0, random=False):
    """rope_emb [2, 1, positions, 1, width]: the standard cos/sin of position * theta^(-2i/D)
    (neox: the frequencies twice over), or random values."""
    width = head if neox else head // 2
    if random:
        return T("float32", [2, 1, positions, 1, width], -1.0, 1.0)
    inv = theta ** (-np.arange(0, head, 2, dtype=np.float32) / head)
    ang = np.arange(positions, dtype=np.float32)[:, None] * inv[None, :]
    if neox:
        ang = np.concatenate([ang, ang], -1)
    tab = np.stack([np.cos(ang), np.sin(ang)]).astype(np.float32).reshape(
        [2, 1, positions, 1, width])
    return T("float32", list(tab.shape), values=[float(v) for v in tab.reshape(-1)])


def blha(tag, enc, dec, this=None, heads=2, kv_heads=2, head=8, bs=4, msl=None,
         dtype="float32", pre_len=0, bias=False, rope=None, rope_random=False, theta=None,
         mask=None, tgt=None, quant=None, cdt=None, out_scale=None, rtype=None, shift=False,
         max_lens=False, tol=None, call_tail="", width=None, zero_cache=False):
    """One case: random qkv, caches and block tables for sequences with these encoder /
    decoder lengths; ``rope`` 'pairs' or 'neox'; ``mask`` 'causal' (Paddle's
    create_attn_mask) or 'random' / 'heads'; ``tgt`` 'one' or 'heads'; ``quant`` an int32
    qkv with compute dtype ``cdt``."""
    if this is None:
        this = [e if e > 0 else (1 if d > 0 else 0) for e, d in zip(enc, dec)]
    bsz = len(this)
    msl = msl or max(max(this), 1)
    cdt_torch = {"fp16": "float16", "bf16": "bfloat16"}.get(cdt, dtype)
    tdt = cdt_torch if quant else dtype
    last = [pre_len + e - 1 if e > 0 else (pre_len + d if n else -1)
            for e, d, n in zip(enc, dec, this)]
    need = [p // bs + 1 if p >= 0 else 0 for p in last]
    cols = max(need) + 1
    n_blocks = sum(need) + 2
    perm = list(base.rng.permutation(n_blocks))
    table = []
    for b in range(bsz):
        row = [int(perm.pop()) for _ in range(need[b])]
        table += row + [-1] * (cols - len(row))
    c = (heads + 2 * kv_heads) * head
    tokens = sum(this)
    shape = [n_blocks, kv_heads, bs, head]

    def cache():
        if zero_cache:                                     # keeps a big prefill case small
            return T(tdt, shape, values=[0.0] * int(np.prod(shape)))
        return T(tdt, shape)

    cum, pad, cu = [], [], [0]
    for n in this:
        cum.append(len(cum) * msl - cu[-1])
        pad += [cum[-1]] * n
        cu.append(cu[-1] + n)
    inputs = dict(
        qkv=(T("int32", [tokens, c], ints=(-1000, 1000)) if quant else
             T(dtype, [tokens, c])),
        kc=cache(), vc=cache(),
        se=I(enc), sd=I(dec), st=I(this), po=I(pad), co=I(cum), cq=I(cu), ck=I(cu),
        bt=I(table, [bsz, cols]))
    if width is not None:                                  # a bad qkv width (error case)
        inputs["qkv"] = T(dtype, [tokens, width])
    kw, ref = [f"max_seq_len={msl}", f"block_size={bs}"], [f"bs={bs}"]
    if pre_len:
        inputs["pk"] = T(tdt, [bsz, kv_heads, pre_len, head])
        inputs["pv"] = T(tdt, [bsz, kv_heads, pre_len, head])
        kw.append("pre_key_cache=pk, pre_value_cache=pv")
        ref.append("pre_k=pk, pre_v=pv")
    if quant:
        inputs["qs"] = T("float32", [c], 5e-4, 2e-3)
        kw.append("qkv_out_scale=qs")
        ref.append("qscale=qs")
    if bias:
        inputs["qb"] = T(tdt, [c], -0.5, 0.5)
        kw.append("qkv_bias=qb")
        ref.append("bias=qb")
    if rope:
        neox = rope == "neox"
        positions = max(max(last) + 2, msl)
        inputs["re"] = rope_table(positions, head, neox, theta or 10000.0, rope_random)
        kw.append("rope_emb=re" + (", use_neox_style=True" if neox else ""))
        ref.append("rope=re" + (", neox=True" if neox else ""))
    if theta:
        kw.append(f"rope_theta={theta}")
        ref.append(f"theta={theta}")
    if mask:
        mh = heads if mask == "heads" else 1
        if mask == "causal":
            m = np.zeros([bsz, 1, msl, pre_len + msl], np.float32)
            m[:, :, :, :pre_len] = 1.0
            for b, n in enumerate(this):
                m[b, 0, :n, pre_len:pre_len + n] = (np.tril(np.ones((n, n))) - 1) * 1e4
            inputs["m"] = T(tdt, list(m.shape), values=[float(v) for v in m.reshape(-1)])
        else:
            inputs["m"] = T(tdt, [bsz, mh, msl, pre_len + msl], -2.0, 2.0)
        kw.append("mask=m")
        ref.append("mask=m")
    if tgt:
        th = heads if tgt == "heads" else 1
        inputs["tm"] = T(tdt, [bsz, th, 1, max(last) + 3], -2.0, 2.0)
        kw.append("tgt_mask=tm")
        ref.append("tgt=tm")
    if cdt:
        kw.append(f"compute_dtype='{cdt}'")
        ref.append(f"cdt='{cdt}'")
    if out_scale:
        kw.append(f"out_scale={out_scale}")
        ref.append(f"out_scale={out_scale}")
        if rtype is not None:
            kw.append(f"quant_round_type={rtype}")
            ref.append(f"rtype={rtype}")
        if shift:
            inputs["sh"] = T(tdt, [heads * head], -0.5, 0.5)
            inputs["sm"] = T(tdt, [heads * head], 0.5, 1.5)
            kw.append("out_shift=sh, out_smooth=sm")
            ref.append("shift=sh, smooth=sm")
    if max_lens:
        inputs["me"] = I([max(enc)])
        inputs["md"] = I([max(dec)])
        kw.append("max_enc_len_this_time=me, max_dec_len_this_time=md")
    call = ("IF.block_multihead_attention(qkv, kc, vc, se, sd, st, po, co, cq, ck, bt, "
            + ", ".join(kw) + ")" + call_tail)
    ref_call = "blha_ref(qkv, kc, vc, se, sd, st, bt, " + ", ".join(ref) + ")" + call_tail
    case(API, call, grad=False, tag=tag, pre=PRE, ref=ref_call, tol=tol, **inputs)


# ---------------------------------------------------------------------------- cases
def phase_cases():
    blha("prefill", [5, 3], [0, 0])
    blha("prefill, one sequence", [6], [0])
    blha("prefill, block_size 2: 4 blocks", [7, 2], [0, 0], bs=2)
    blha("prefill, block_size 16, max_seq_len 9 padded", [4, 6], [0, 0], bs=16, msl=9)
    blha("decode", [0, 0, 0], [5, 2, 7])
    blha("decode, block_size 8, across blocks", [0, 0], [9, 15], bs=8)
    blha("decode, a stopped sequence", [0, 0, 0], [5, 0, 3])
    blha("decode, first step after a one-token prefill", [0], [1])
    blha("mixed prefill, decode and stopped", [4, 0, 0, 2], [0, 6, 0, 0])
    blha("mixed, max_seq_len 6", [3, 0, 5], [0, 9, 0], msl=6)
    blha("mixed, max_enc/max_dec_len_this_time given", [4, 0], [0, 5], max_lens=True)


def gqa_cases():
    blha("gqa 4/2 mixed", [5, 0, 3], [0, 6, 0], heads=4, kv_heads=2)
    blha("gqa 4/1 decode", [0, 0], [4, 9], heads=4, kv_heads=1)
    blha("gqa 6/2 prefill", [6, 2], [0, 0], heads=6, kv_heads=2, bs=2)


def input_cases():
    blha("qkv_bias mixed", [4, 0, 3], [0, 5, 0], bias=True)
    blha("rope pairs mixed", [5, 0, 2], [0, 6, 0], rope="pairs")
    blha("rope pairs, random table (decode computes from rope_theta)", [3, 0], [0, 4],
         rope="pairs", rope_random=True)
    blha("rope neox mixed", [5, 0, 2], [0, 6, 0], rope="neox")
    blha("rope neox, random table (decode reads whole rows)", [3, 0], [0, 4], rope="neox",
         rope_random=True)
    blha("rope pairs gqa with bias", [4, 0], [0, 7], heads=4, kv_heads=2, rope="pairs",
         bias=True)
    blha("rope neox gqa", [4, 0], [0, 7], heads=4, kv_heads=1, rope="neox")
    blha("rope_theta 500", [3, 0], [0, 5], rope="pairs", theta=500.0)
    blha("mask causal (create_attn_mask)", [5, 3], [0, 0], mask="causal")
    blha("mask random", [4, 3], [0, 0], mask="random")
    blha("mask per head", [4, 2], [0, 0], mask="heads")
    blha("tgt_mask", [0, 0], [5, 3], tgt="one")
    blha("tgt_mask per head", [0, 0], [5, 3], tgt="heads")
    blha("mixed with mask and tgt_mask", [4, 0], [0, 6], mask="random", tgt="one")
    blha("pre_key_cache with mask", [4, 3], [0, 0], pre_len=3, mask="causal")
    blha("pre_key_cache without mask (not causal)", [4, 2], [0, 0], pre_len=2)
    blha("pre_key_cache decode", [0, 0], [4, 2], pre_len=3)
    blha("pre_key_cache mixed with rope pairs", [3, 0], [0, 4], pre_len=2, rope="pairs")


def quant_cases():
    blha("out_scale int8, round half away", [4, 0], [0, 5], out_scale=0.5)
    blha("out_scale int8, round half even", [4, 0], [0, 5], out_scale=0.5, rtype=0)
    blha("out_scale with out_shift and out_smooth", [3, 0], [0, 4], out_scale=0.8,
         shift=True)
    blha("int32 qkv, fp16 compute, bias", [4, 0], [0, 5], quant=True, cdt="fp16", bias=True)
    blha("int32 qkv, bf16 compute, rope", [3, 0], [0, 4], quant=True, cdt="bf16",
         rope="pairs")
    blha("int32 qkv, fp16 compute, int8 out", [3, 0], [0, 4], quant=True, cdt="fp16",
         bias=True, out_scale=1.0, call_tail="[0].astype('float32')", tol=[0, 1.01])


def dtype_cases():
    for dt in ("float16", "bfloat16"):
        blha(f"{dt} mixed", [5, 0, 3], [0, 6, 0], dtype=dt)
        blha(f"{dt} gqa rope bias", [4, 0], [0, 6], dtype=dt, heads=4, kv_heads=2,
             rope="pairs", bias=True)
        blha(f"{dt} rope neox with masks", [4, 0], [0, 5], dtype=dt, rope="neox",
             mask="random", tgt="heads")
        blha(f"{dt} pre_key_cache", [3, 0], [0, 3], dtype=dt, pre_len=2, mask="causal")
        blha(f"{dt} int8 out", [3, 0], [0, 4], dtype=dt, out_scale=1.0,
             call_tail="[0].astype('float32')", tol=[0, 1.01])
    blha("float16 head 32, block 32: a prefill over 2 blocks", [40, 3], [0, 0],
         dtype="float16", heads=1, kv_heads=1, head=32, bs=32, zero_cache=True)
    blha("float16 head 32, block 32: decode at position 35", [0], [35],
         dtype="float16", heads=1, kv_heads=1, head=32, bs=32)


def error_cases():
    blha("qkv width not (num_head + 2 * kv_num_head) * head_size", [3], [0], width=50)
    blha("num_head not divisible by kv_num_head", [3], [0], heads=3, kv_heads=2)
    blha("int32 qkv without compute_dtype", [3], [0], quant=True)
    blha("compute_dtype not qkv's dtype", [3], [0], cdt="fp16")


def main():
    phase_cases()
    gqa_cases()
    input_cases()
    quant_cases()
    dtype_cases()
    error_cases()
    base.save()


if __name__ == "__main__":
    main()
