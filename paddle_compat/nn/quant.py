"""``paddle.nn.quant``: weight-only int8 quantisation (``weight_quantize``,
``weight_dequantize``, ``weight_only_linear``).

Paddle runs these on CUDA only and stores the int8 weight in a CUTLASS-interleaved layout per GPU
``arch``; here the quantised weight is the plain transposed matrix ``[out, in]`` with one scale
per output channel (``scale = max|w[:, j]| / 127``, ``q = round(w / scale)``), which the three
functions agree on. Group-wise scales and the int4 / llm.int8 algorithms are not supported.
"""
import torch

from ..framework import dtype as _dt
from ..framework.tensor import wrap

__all__ = ["weight_quantize", "weight_dequantize", "weight_only_linear"]


def _check(api, algo, group_size):
    if algo != "weight_only_int8":
        raise NotImplementedError(f"{api}: algo '{algo}' is not supported (weight_only_int8 "
                                  "only)")
    if group_size != -1:
        raise NotImplementedError(f"{api}: group_size {group_size} is not supported (-1 only)")


def weight_quantize(x, algo="weight_only_int8", arch=None, group_size=-1):
    """Quantise a weight [in, out] per output channel: ``(int8 weight [out, in], scale [out])``
    with the scale in x's dtype."""
    _check("weight_quantize", algo, group_size)
    w = x._t
    wf = w.float()
    scale = wf.abs().amax(0) / 127.0
    q = torch.round(wf / torch.where(scale == 0, 1.0, scale)).clamp(-127, 127)
    return wrap(q.to(torch.int8).t().contiguous()), wrap(scale.to(w.dtype))


def weight_dequantize(x, scale, algo="weight_only_int8", out_dtype="float16", group_size=-1):
    """The float weight [in, out] back from ``weight_quantize``'s int8 [out, in] and scale."""
    _check("weight_dequantize", algo, group_size)
    dt = _dt.convert_dtype(out_dtype).torch
    return wrap((x._t.float() * scale._t.float()[:, None]).t().to(dt))


def weight_only_linear(x, weight, bias=None, weight_scale=None, weight_dtype="int8",
                       arch=None, group_size=-1):
    """x @ dequantised(weight) + bias, with ``weight`` int8 [out, in] and ``weight_scale``
    [out] from ``weight_quantize``."""
    if weight_dtype != "int8":
        raise NotImplementedError(f"weight_only_linear: weight_dtype '{weight_dtype}' is not "
                                  "supported (int8 only)")
    _check("weight_only_linear", "weight_only_int8", group_size)
    t = x._t
    w = weight._t.to(t.dtype)
    if weight_scale is not None:
        w = w * weight_scale._t.to(t.dtype)[:, None]
    return wrap(torch.nn.functional.linear(t, w, None if bias is None else bias._t))
