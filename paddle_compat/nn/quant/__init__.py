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

Group-wise scales and the llm.int8 algorithm of ``weight_quantize`` are not supported.

Also here: ``llm_int8_linear`` and ``apply_per_channel_scale`` (GPU-only kernels in Paddle,
written with torch ops here), ``Stub`` and ``QuantStub`` (the activation marks of
``paddle.quantization``), ``FloatFunctionalLayer`` and the op layers ``add`` ... ``matmul``,
and the fake-quantisation arithmetic that ``paddle.quantization`` builds on.
"""
import functools

import numpy as np
import torch

from ...framework import dtype as _dt
from ...framework.param_attr import ParamAttr
from ...framework.parameter import unique_name as _unique
from ...framework.tensor import wrap
from ...ops import joining as _joining
from ...ops import linalg as _linalg
from ...ops import math as _math
from ...ops import reshaping as _reshaping
from ..initializer import Constant
from ..layer.layers import Layer
from ...static.program_desc_writer import quant_exporting, record_fake_quant

__all__ = ["Stub", "weight_only_linear", "llm_int8_linear", "weight_quantize",
           "weight_dequantize"]


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


# ---------------------------------------------------------------------------------------------
# llm.int8 and the pre-quant channel scale (Paddle has GPU kernels only; these are the
# reference semantics written with torch ops)

def apply_per_channel_scale(x, scales):
    """Multiply the activations ``x`` by a scale per channel (its last axis):
    ``out[..., j] = x[..., j] * scales[j]``. Paddle 3.3.1 registers this kernel for GPUs only
    (on its CPU build the call raises); here it runs on any device."""
    t = x._t
    return wrap(t * scales._t.to(t.dtype))


def llm_int8_linear(x, weight, bias=None, weight_scale=None, threshold=6.0):
    """``x @ dequant(weight).T + bias`` by the LLM.int8() decomposition: the input features
    (columns of ``x``) holding any ``|value| >= threshold`` are multiplied in x's dtype with
    the dequantised weight; the others are quantised per row of ``x`` to int8 (absmax / 127),
    multiplied in integers and dequantised with ``weight_scale`` (per output channel, as
    ``weight_quantize(algo="llm.int8")`` gives it). ``weight`` is int8 ``[out, in]``.
    Paddle 3.3.1 has this kernel on GPUs only."""
    t = x._t
    w = weight._t
    if w.dim() != 2:
        raise ValueError(f"(InvalidArgument) The weight of llm_int8_linear must be 2-D, but "
                         f"got {w.dim()}-D")
    if weight_scale is None:
        raise ValueError("llm_int8_linear needs weight_scale")
    ws = weight_scale._t.float()
    xf = t.float().reshape(-1, t.shape[-1])
    outlier = (xf.abs() >= threshold).any(0)
    out = torch.zeros(xf.shape[0], w.shape[0], dtype=torch.float32, device=t.device)
    if bool(outlier.any()):
        wo = w[:, outlier].float() * ws[:, None]
        out = out + xf[:, outlier] @ wo.t()
    keep = ~outlier
    if bool(keep.any()):
        xk = xf[:, keep]
        row = xk.abs().amax(1) / 127.0
        qx = torch.round(xk / torch.where(row == 0, 1.0, row)[:, None]).clamp(-127, 127)
        acc = qx.double() @ w[:, keep].double().t()          # exact integer products
        out = out + (acc * row.double()[:, None] * ws.double()[None, :]).float()
    if bias is not None:
        out = out + bias._t.float()
    return wrap(out.reshape(*t.shape[:-1], w.shape[0]).to(t.dtype))


# ---------------------------------------------------------------------------------------------
# fake quantisation: the arithmetic of Paddle's fake-quant kernels (CPU, float32), eager mode;
# the quantisation namespace (QAT, PTQ) builds on these

def _round_half_away(t):
    """Round half away from zero (C's ``round``; torch.round rounds half to even)."""
    r = torch.round(t)
    f = torch.trunc(t)
    return torch.where((t - f).abs() == 0.5, f + torch.sign(t), r)


def _channel_view(s, ndim, axis):
    if axis is None or axis < 0 or s.numel() == 1 and ndim == 0:
        return s.reshape(())
    shape = [1] * ndim
    shape[axis] = -1
    return s.reshape(shape)


def _fake_qdq(t, scale, bits, axis=None):
    """Quantise-dequantise ``t`` with Paddle's ``round_type=1`` kernels: clip to
    ``[-s, s]``, ``q = round_half_away((bin / s) * x)``, ``out = q * s / bin`` with
    ``bin = 2**(bits-1) - 1``; a scale per channel along ``axis`` when given. The gradient
    passes straight through (identity), as Paddle's."""
    bin_cnt = float((1 << (bits - 1)) - 1)
    s = _channel_view(scale.to(t.dtype), t.dim(), axis)
    with torch.no_grad():
        inv = (1.0 / s) * bin_cnt
        xc = torch.minimum(torch.maximum(t.detach(), -s), s)
        out = _round_half_away(inv * xc) * s / bin_cnt
    return out + (t - t.detach())


def _abs_max(t, axis=None):
    """max |t| (per channel along ``axis``), without gradient."""
    with torch.no_grad():
        a = t.detach().abs()
        if axis is None or axis < 0:
            return a.max().reshape(1)
        dims = [d for d in range(t.dim()) if d != axis]
        return a.amax(dim=dims) if dims else a


def _moving_average_update(cur, scale, state, accum, rate):
    """Paddle's moving-average abs-max: ``state = rate * state + 1``, ``accum = rate * accum
    + cur``, ``scale = accum / state`` (float32, written into the three Parameters)."""
    with torch.no_grad():
        st = state._t * rate + 1.0
        ac = accum._t * rate + cur.to(accum._t.dtype)
        state._t.copy_(st)
        accum._t.copy_(ac)
        scale._t.copy_(ac / st)


def _buffer_param(layer, prefix, init, dtype, shape=(1,), exact_name=False):
    """A non-trainable Parameter named ``<prefix>_<n>`` (``prefix`` itself with
    ``exact_name``) as Paddle's quant layers make it."""
    attr = ParamAttr(name=prefix if exact_name else _unique(prefix), initializer=Constant(init),
                     trainable=False)
    p = layer.create_parameter(shape=list(shape), attr=attr, dtype=dtype)
    p.stop_gradient = True
    return p


class Stub(Layer):
    """Marks where an activation should be quantised: an identity layer that ``QAT`` /
    ``PTQ`` replace with a quanter stub (``observer`` given, it is used, else the config's
    activation quanter)."""

    def __init__(self, observer=None):
        super().__init__()
        self._observer = observer

    def forward(self, input):
        return input


class MovingAverageAbsMaxScale(Layer):
    """Records the moving average of ``max |input|`` in training (``scale = accum / state``,
    state and accum starting at 0) and returns the input unchanged."""

    def __init__(self, name=None, moving_rate=0.9, dtype="float32", reduce_type=None):
        super().__init__()
        if reduce_type is not None:
            raise NotImplementedError("MovingAverageAbsMaxScale: reduce_type is not supported")
        self._moving_rate = moving_rate
        self._reduce_type = reduce_type
        pre = name if name else "outscale"
        self._scale = _buffer_param(self, f"{pre}.scale", 0.0, dtype)
        self._state = _buffer_param(self, f"{pre}.state", 0.0, dtype)
        self._accum = _buffer_param(self, f"{pre}.accum", 0.0, dtype)

    def forward(self, input):
        if quant_exporting():               # save_quantized_model: the output's scale
            return record_fake_quant(input, self._scale, "output", 8)
        t = input._t
        if t.dtype != torch.float32:
            raise RuntimeError("(NotFound) There are no kernels which are registered in the "
                               "moving_average_abs_max_scale operator.")
        if self.training:
            _moving_average_update(_abs_max(t), self._scale, self._state, self._accum,
                                   self._moving_rate)
        return wrap(t.clone())


QuantStub = MovingAverageAbsMaxScale


class FloatFunctionalLayer(Layer):
    """Base class of the layers that wrap one functional op, so that quantisation can find
    (and observe) the op as a layer."""


class add(FloatFunctionalLayer):
    def forward(self, x, y, name=None):
        return _math.add(x, y, name=name)


class subtract(FloatFunctionalLayer):
    def forward(self, x, y, name=None):
        return _math.subtract(x, y, name=name)


class multiply(FloatFunctionalLayer):
    def forward(self, x, y, name=None):
        return _math.multiply(x, y, name=name)


class divide(FloatFunctionalLayer):
    def forward(self, x, y, name=None):
        return _math.divide(x, y, name=name)


class reshape(FloatFunctionalLayer):
    def forward(self, x, shape, name=None):
        return _reshaping.reshape(x, shape, name=name)


class transpose(FloatFunctionalLayer):
    def forward(self, x, perm, name=None):
        return _reshaping.transpose(x, perm, name=name)


class concat(FloatFunctionalLayer):
    def forward(self, x, axis=0, name=None):
        return _joining.concat(x, axis, name=name)


class flatten(FloatFunctionalLayer):
    def forward(self, x, start_axis=0, stop_axis=-1, name=None):
        return _reshaping.flatten(x, start_axis, stop_axis, name=name)


class matmul(FloatFunctionalLayer):
    def forward(self, x, y, transpose_x=False, transpose_y=False, name=None):
        return _linalg.matmul(x, y, transpose_x, transpose_y, name=name)
