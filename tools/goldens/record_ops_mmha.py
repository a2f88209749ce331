"""Record goldens for ``paddle.incubate.nn.functional.masked_multihead_attention`` for
tests/test_ops_mmha.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_ops_mmha.py

Paddle 3.3.1 has this op only as a CUDA kernel, so every case carries ``ref``: a naive
composition in Paddle's CPU ops, one batch row and head at a time, of what the op does (Paddle's
docs and the reference in its unit test test_masked_multihead_attention_op.py, extended with the
kernel's rotary, grouped-query, beam, dequantisation and output-quantisation rules). It returns
what the op returns: the output, the cache after the in-place write (and the beam offsets).
The case format and helpers are those of record_ops_nn2.py.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_ops_nn2 as base  # noqa: E402  (its helpers: T, case, the Paddle env)

base.rng = np.random.default_rng(20241122)
base.OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                        "goldens", "ops_mmha.json")
T, case = base.T, base.case
API = base.IFN + "masked_multihead_attention"

# The reference, evaluated in real Paddle. Shapes: x [B, (H + 2 * KV) * D], cache
# [2, B, KV, L, D]; row b writes its new k, v at step t_b and attends over steps 0..t_b.
REF = '''
def rotate(t, cos, sin, neox, dims):
    d = t.shape[-1]
    out = paddle.zeros_like(t)
    if not neox:
        for i in range(0, d, 2):
            out[:, i] = t[:, i] * cos[i] - t[:, i + 1] * sin[i]
            out[:, i + 1] = t[:, i + 1] * cos[i + 1] + t[:, i] * sin[i + 1]
        return out
    last = d // dims
    half = last // 2
    for c in range(0, d, last):
        for j in range(half):
            a, b = c + j, c + j + half
            out[:, a] = t[:, a] * cos[a] - t[:, b] * sin[a]
            out[:, b] = t[:, b] * cos[b] + t[:, a] * sin[b]
    return out

def quant(v, scale, round_type, hi, lo):
    f = paddle.to_tensor(hi, 'float32') * paddle.to_tensor(scale, 'float32')
    v = (v.astype('float32') * f).astype('float64')
    if round_type == 0:
        v = paddle.to_tensor(np.rint(v.numpy()))
    else:
        v = paddle.sign(v) * paddle.floor(paddle.abs(v) + 0.5)
    return paddle.clip(v, lo, hi).astype('int8')

def mmha_ref(x, cache, bias=None, mask=None, lens=None, rot=None, dims=0, neox=False,
             beams=None, scale=None, compute='float32', shift=None, smooth=None,
             out_scale=-1, round_type=1, hi=127.0, lo=-127.0):
    B = x.shape[0]
    KV, L, D = cache.shape[2], cache.shape[3], cache.shape[4]
    H = x.shape[1] // D - 2 * KV
    dt = compute if scale is not None else str(x.dtype).replace('paddle.', '')
    f = lambda t: t.astype('float32')
    if scale is not None:
        cols = 3 * H * D
        flat = paddle.arange(B * x.shape[1]) % cols
        qkv = (f(x).reshape([-1]) * paddle.gather(f(scale).reshape([-1]), flat))
        qkv = qkv.astype(dt).reshape([B, -1])
    else:
        qkv = x
    if bias is not None:
        qkv = (f(qkv) + f(bias).reshape([1, -1])).astype(dt)
    new = f(cache).clone()
    steps = [mask.shape[-1] - 1] * B if lens is None else lens.numpy().reshape(-1).tolist()
    width = 1 if beams is None else beams.shape[1]
    outs = []
    for b in range(B):
        t = int(steps[b])
        row = f(qkv[b]).reshape([H + 2 * KV, D])
        q, k, v = row[:H], row[H:H + KV], row[H + KV:]
        if dims > 0:
            emb = f(rot).reshape([-1])
            cos, sin = emb[b * D:(b + 1) * D], emb[(B + b) * D:(B + b + 1) * D]
            q = f(rotate(q, cos, sin, neox, dims).astype(dt))
            k = f(rotate(k, cos, sin, neox, dims).astype(dt))
        if t < 0:
            outs.append(paddle.zeros([H * D], 'float32'))
            continue
        new[0, b, :, t] = k
        new[1, b, :, t] = v
        heads = []
        for h in range(H):
            g = h // (H // KV)
            if beams is None:
                keys, vals = new[0, b, g, :t + 1], new[1, b, g, :t + 1]
            else:
                offs = beams.reshape([B, -1])[b].numpy().tolist()
                src = [b // width * width + int(offs[s]) for s in range(t)] + [b]
                keys = paddle.stack([new[0, src[s], g, s] for s in range(t + 1)])
                vals = paddle.stack([new[1, src[s], g, s] for s in range(t + 1)])
            s = paddle.matmul(keys, q[h]) / float(np.sqrt(D))
            if mask is not None:
                m = f(mask).reshape([-1, mask.shape[-1]])
                s = s + m[b * mask.shape[1] + (h if mask.shape[1] > 1 else 0), :t + 1]
            e = paddle.exp(s - s.max())
            heads.append(paddle.matmul(e / (e.sum() + 1e-6), vals))
        outs.append(paddle.concat(heads))
    out = paddle.stack(outs).astype(dt)
    if shift is not None:
        out = ((out + shift.astype(dt)) * smooth.astype(dt))
    if out_scale > 0:
        out = quant(out, out_scale, round_type, hi, lo)
    res = (out, new.astype(dt))
    return res + (beams,) if beams is not None else res
'''


def x_of(b, h, kv, d, dtype="float32"):
    return T(dtype, [b, (h + 2 * kv) * d], -1.0, 1.0)


def cache_of(b, kv, L, d, dtype="float32"):
    return T(dtype, [2, b, kv, L, d], -1.0, 1.0)


def lens_of(values):
    return T("int32", [len(values), 1], values=values)


def cases():
    call = "IF.masked_multihead_attention(x, c, {})"

    def mmha(args, ref, tag=None, tol=None, **inputs):
        case(API, call.format(args), grad=False, pre=REF, ref=f"mmha_ref(x, c, {ref})",
             tag=tag, tol=tol, **inputs)

    # the doc example's shape family: a mask fixes the step for every row
    mmha("src_mask=m", "mask=m", x=x_of(2, 2, 2, 8), c=cache_of(2, 2, 6, 8),
         m=T("float32", [2, 1, 1, 4]))
    mmha("b, m", "bias=b, mask=m", x=x_of(2, 2, 2, 8), c=cache_of(2, 2, 6, 8),
         b=T("float32", [3, 2, 8]), m=T("float32", [2, 1, 1, 6]))
    mmha("src_mask=m", "mask=m", tag="per-head mask", x=x_of(2, 3, 3, 4),
         c=cache_of(2, 3, 5, 4), m=T("float32", [2, 3, 1, 3]))
    mmha("src_mask=m", "mask=m", tag="cache rows beyond the batch", x=x_of(2, 2, 2, 8),
         c=cache_of(3, 2, 6, 8), m=T("float32", [2, 1, 1, 2]))
    mmha("src_mask=m", "mask=m", tag="step 0", x=x_of(1, 2, 2, 16), c=cache_of(1, 2, 4, 16),
         m=T("float32", [1, 1, 1, 1]))
    # per-row steps
    mmha("sequence_lengths=n", "lens=n", x=x_of(3, 2, 2, 8), c=cache_of(3, 2, 7, 8),
         n=lens_of([5, 0, 2]))
    mmha("b, m, sequence_lengths=n", "bias=b, mask=m, lens=n", x=x_of(3, 2, 2, 8),
         c=cache_of(3, 2, 7, 8), b=T("float32", [3, 2, 8]), m=T("float32", [3, 1, 1, 7]),
         n=lens_of([6, 3, 1]))
    # grouped-query attention: 4 query heads share 2 (or 1) kv heads
    mmha("b, m, sequence_lengths=n", "bias=b, mask=m, lens=n", tag="gqa 4/2",
         x=x_of(2, 4, 2, 8), c=cache_of(2, 2, 6, 8), b=T("float32", [8, 8]),
         m=T("float32", [2, 1, 1, 6]), n=lens_of([4, 2]))
    mmha("src_mask=m", "mask=m", tag="mqa 4/1", x=x_of(2, 4, 1, 8), c=cache_of(2, 1, 5, 8),
         m=T("float32", [2, 4, 1, 4]))
    # rotary embedding: adjacent pairs, or neox halves of 1 or 2 chunks
    for neox, dims in ((False, 1), (True, 1), (True, 2)):
        mmha(f"src_mask=m, rotary_tensor=r, rotary_emb_dims={dims}, "
             f"use_neox_rotary_style={neox}",
             f"mask=m, rot=r, dims={dims}, neox={neox}", x=x_of(2, 2, 2, 8),
             c=cache_of(2, 2, 6, 8), m=T("float32", [2, 1, 1, 5]),
             r=T("float32", [2, 2, 1, 1, 8], -1.0, 1.0))
    mmha("b, sequence_lengths=n, rotary_tensor=r, rotary_emb_dims=1", "bias=b, lens=n, rot=r, "
         "dims=1", tag="rotary gqa", x=x_of(2, 4, 2, 8), c=cache_of(2, 2, 6, 8),
         b=T("float32", [8, 8]), n=lens_of([3, 5]), r=T("float32", [2, 2, 1, 1, 8], -1.0, 1.0))
    # beam search: 2 sequences x 2 beams; offsets say which beam's cache holds each step
    mmha("src_mask=m, beam_cache_offset=o", "mask=m, beams=o", x=x_of(4, 2, 2, 8),
         c=cache_of(4, 2, 6, 8), m=T("float32", [4, 1, 1, 5]),
         o=T("int32", [2, 2, 6], ints=(0, 2)))
    # int32 qkv dequantised per column into the compute dtype
    mmha("b, m, qkv_out_scale=s, compute_dtype='fp32'", "bias=b, mask=m, scale=s",
         x=T("int32", [2, 48], ints=(-60, 60)), c=cache_of(2, 2, 6, 8),
         b=T("float32", [3, 2, 8]), m=T("float32", [2, 1, 1, 4]),
         s=T("float32", [3, 2, 8], 0.001, 0.03))
    # output smoothing and int8 quantisation
    mmha("src_mask=m, out_shift=sh, out_smooth=sm", "mask=m, shift=sh, smooth=sm",
         x=x_of(2, 2, 2, 8), c=cache_of(2, 2, 6, 8), m=T("float32", [2, 1, 1, 5]),
         sh=T("float32", [16]), sm=T("float32", [16]))
    for rt in (0, 1):
        mmha(f"src_mask=m, out_scale=0.5, quant_round_type={rt}, quant_max_bound=126.0, "
             "quant_min_bound=-126.0",
             f"mask=m, out_scale=0.5, round_type={rt}, hi=126.0, lo=-126.0",
             x=x_of(2, 2, 2, 8), c=cache_of(2, 2, 6, 8), m=T("float32", [2, 1, 1, 5]))
    mmha("src_mask=m, out_shift=sh, out_smooth=sm, out_scale=2.0",
         "mask=m, shift=sh, smooth=sm, out_scale=2.0", tag="shift, smooth and quantise",
         x=x_of(2, 2, 2, 8), c=cache_of(2, 2, 6, 8), m=T("float32", [2, 1, 1, 5]),
         sh=T("float32", [16]), sm=T("float32", [16]))
    # half precision: Paddle's kernel takes float16 and bfloat16 (computing in float32)
    for dt, tol in (("float16", [4e-3, 4e-3]), ("bfloat16", [3e-2, 3e-2])):
        mmha("b, m, sequence_lengths=n", "bias=b, mask=m, lens=n", tag=dt, tol=tol,
             x=x_of(2, 2, 2, 16, dt), c=cache_of(2, 2, 6, 16, dt), b=T(dt, [3, 2, 16]),
             m=T(dt, [2, 1, 1, 6]), n=lens_of([5, 3]))
        mmha("src_mask=m, rotary_tensor=r, rotary_emb_dims=1, use_neox_rotary_style=True",
             "mask=m, rot=r, dims=1, neox=True", tag=dt + " rotary", tol=tol,
             x=x_of(2, 2, 2, 16, dt), c=cache_of(2, 2, 6, 16, dt), m=T(dt, [2, 1, 1, 4]),
             r=T("float32", [2, 2, 1, 1, 16], -1.0, 1.0))


def main():
    cases()
    base.save()


if __name__ == "__main__":
    main()
