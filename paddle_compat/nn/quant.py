"""``paddle.nn.quant``: weight-only int8/int4 quantisation (``weight_quantize``,
``weight_dequantize``, ``weight_only_linear``).

Paddle stores the quantised weight in the layout its mixed-precision GEMM of a GPU ``arch``
reads. Without ``arch`` the quantised weight here is the plain transposed matrix ``[out, in]``
(int8) with one scale per output channel (``scale = max|w[:, j]| / 127``, ``q = round(w /
scale)``), which the three functions agree on. With an ``arch`` (70, 75, 80, 86, 89, 90, 100)
``weight_quantize`` gives the bytes of Paddle's CPU kernel (checked against Paddle 3.3.1 in
tests/goldens/quant_layouts.json), and ``weight_only_linear`` given the same ``arch`` reads
them back:

* scale per output column ``j``: ``T(max_i |w[i, j]| / bound)`` in float (bound 127 for int8,
  7 for int4), and ``q = round_half_away(float(w) / float(scale))`` clipped to the bound;
* arch 70: the quantised matrix ``[in, out]`` row-major as it is; arch 75 and up: rows
  permuted in blocks of 16 (int8) / 32 (int4) rows, transposed to ``[out, in]``, and the
  32-bit words of each group of 2 (int8) / 4 (int4) output columns interleaved in tiles of 64
  input rows;
* then each value is biased to unsigned (+128 / +8) and the values inside each 32-bit word
  reordered (bytes 0 2 1 3; nibbles 0 2 4 6 1 3 5 7); int4 packs two values per byte, the
  first in the low nibble.

Group-wise scales and the llm.int8 algorithm are not supported.
"""
import functools

import numpy as np
import torch

from ..framework import dtype as _dt
from ..framework.tensor import wrap

__all__ = ["weight_quantize", "weight_dequantize", "weight_only_linear"]


def _check(api, algo, group_size, int4=False):
    if algo != "weight_only_int8" and not (int4 and algo == "weight_only_int4"):
        raise NotImplementedError(f"{api}: algo '{algo}' is not supported (weight_only_int8 "
                                  f"{'and weight_only_int4 with an arch ' if int4 else ''}"
                                  "only)")
    if group_size != -1:
        raise NotImplementedError(f"{api}: group_size {group_size} is not supported (-1 only)")


_ARCHS = (70, 75, 80, 86, 89, 90, 100)


def _check_arch(arch, m, n):
    if arch not in _ARCHS:
        raise ValueError("(InvalidArgument) Currently, arch only support 70, 75, 80, 86, 89, "
                         "90, 100.")
    if n % 16:
        raise ValueError("(InvalidArgument) The second dimension of input must be divisible by "
                         f"16, but got[{n}]")
    if arch != 70 and m % 64:
        # Paddle's kernel reads and writes out of bounds here (it crashes)
        raise NotImplementedError(f"the arch {arch} layout needs the input dimension to be a "
                                  f"multiple of 64, got {m}")


@functools.lru_cache(maxsize=32)
def _layout(m, n, bits, arch):
    """Where each stored value comes from: ``src[k]`` is the row-major index into the
    quantised ``[m, n]`` matrix of the k-th value (byte for int8, nibble for int4) that
    Paddle's kernel stores for ``arch``."""
    per_word = 32 // bits
    idx = np.arange(m * n, dtype=np.int64).reshape(m, n)
    if arch != 70:
        block = 128 // bits                         # rows per MMA tile: 16 or 32
        r = np.arange(block)
        rows = 8 * ((r % per_word) // 2) + r % 2 + 2 * (r // per_word)
        idx = idx.reshape(m // block, block, n)[:, rows, :].reshape(m, n)
        cols = idx.T.reshape(n, m // per_word, per_word)    # column-major words
        inter = 1024 // bits // 64                  # columns interleaved: 2 or 4
        tile = 64 // per_word                       # words per column in a 64-row tile
        nv = m // per_word
        c = np.arange(n)[:, None]
        v = np.arange(nv)[None, :]
        dst_row = inter * (v - v % tile) + tile * (c % inter) + v % tile
        out = np.empty((n // inter, nv * inter, per_word), dtype=np.int64)
        out[c // inter, dst_row] = cols
        idx = out
    order = [0, 2, 1, 3] if bits == 8 else [0, 2, 4, 6, 1, 3, 5, 7]
    src = idx.reshape(-1, per_word)[:, order].reshape(-1)
    src.flags.writeable = False                 # shared by the cache
    return src


def _paddle_quant(w, bits):
    """Paddle's per-channel scale (in w's dtype) and quantised values (int64 [m, n])."""
    bound = 127.0 if bits == 8 else 7.0
    a = w.float().numpy()
    # the running max starts from the column's first value as it is (signed), so an all-zero
    # column whose first value is -0.0 keeps the scale -0.0
    # (NaN below the first row never wins a comparison)
    top = np.fmax.reduce(np.abs(a), axis=0)
    mx = np.where(top > a[0], top, a[0])
    scale = torch.from_numpy(mx.astype(np.float32) / np.float32(bound)).to(w.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        v = (a / scale.float().numpy()).astype(np.float64)
        r = np.where(v >= 0, np.floor(v + 0.5), np.ceil(v - 0.5))
    if bits == 8:
        # a NaN (0 / 0 of an all-zero column) survives min/max with the bound first: 127
        q = np.where(np.isnan(r), 127.0, np.clip(r, -127.0, 127.0))
    else:
        # the C++ int cast of NaN gives INT_MIN, clipped to -7
        q = np.where(np.isnan(r), -7.0, np.clip(r, -7.0, 7.0))
    return scale, q.astype(np.int64)


def weight_quantize(x, algo="weight_only_int8", arch=None, group_size=-1):
    """Quantise a weight [in, out] per output channel: ``(int8 weight [out, in], scale [out])``
    with the scale in x's dtype; with ``arch``, Paddle's stored layout (int8 [out, in], or
    int4 packed in int8 [out / 2, in]; see the module doc)."""
    _check("weight_quantize", algo, group_size, int4=arch is not None)
    w = x._t
    if arch is not None:
        m, n = w.shape
        _check_arch(arch, m, n)
        bits = 8 if algo == "weight_only_int8" else 4
        scale, q = _paddle_quant(w, bits)
        vals = q.reshape(-1)[_layout(m, n, bits, arch)]
        if bits == 8:
            stored = (vals + 128).astype(np.uint8).view(np.int8).reshape(n, m)
        else:
            nib = (vals + 8).astype(np.uint8).reshape(-1, 2)
            stored = (nib[:, 0] | (nib[:, 1] << 4)).view(np.int8).reshape(n // 2, m)
        return wrap(torch.from_numpy(stored.copy())), wrap(scale)
    wf = w.float()
    scale = wf.abs().amax(0) / 127.0
    q = torch.round(wf / torch.where(scale == 0, 1.0, scale)).clamp(-127, 127)
    return wrap(q.to(torch.int8).t().contiguous()), wrap(scale.to(w.dtype))


def _unpack(weight, bits, arch):
    """The quantised ``[out, in]`` matrix back from Paddle's stored layout of ``arch``."""
    raw = weight.detach().cpu().numpy().view(np.uint8)
    if bits == 8:
        n, m = raw.shape
        vals = raw.reshape(-1).astype(np.int64) - 128
    else:
        n, m = raw.shape[0] * 2, raw.shape[1]
        b = raw.reshape(-1)
        vals = np.stack([b & 0xF, b >> 4], 1).reshape(-1).astype(np.int64) - 8
    _check_arch(arch, m, n)
    q = np.empty(m * n, dtype=np.int64)
    q[_layout(m, n, bits, arch)] = vals
    return torch.from_numpy(q.reshape(m, n).T.copy())


def weight_dequantize(x, scale, algo="weight_only_int8", out_dtype="float16", group_size=-1):
    """The float weight [in, out] back from ``weight_quantize``'s int8 [out, in] and scale."""
    _check("weight_dequantize", algo, group_size)
    dt = _dt.convert_dtype(out_dtype).torch
    return wrap((x._t.float() * scale._t.float()[:, None]).t().to(dt))


def weight_only_linear(x, weight, bias=None, weight_scale=None, weight_dtype="int8",
                       arch=None, group_size=-1):
    """x @ dequantised(weight) + bias, with ``weight`` int8 [out, in] and ``weight_scale``
    [out] from ``weight_quantize``."""
    if weight_dtype != "int8" and not (weight_dtype == "int4" and arch is not None):
        raise NotImplementedError(f"weight_only_linear: weight_dtype '{weight_dtype}' is not "
                                  "supported (int8, and int4 with an arch, only)")
    _check("weight_only_linear", "weight_only_int8", group_size)
    t = x._t
    w = weight._t
    if arch is not None:            # Paddle's stored layout (see the module doc)
        w = _unpack(w, 8 if weight_dtype == "int8" else 4, arch).to(t.device)
    w = w.to(t.dtype)
    if weight_scale is not None:
        w = w * weight_scale._t.to(t.dtype)[:, None]
    return wrap(torch.nn.functional.linear(t, w, None if bias is None else bias._t))
