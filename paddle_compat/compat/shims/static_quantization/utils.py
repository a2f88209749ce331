"""``paddle.static.quantization.utils``: the symmetric quantization arithmetic of Paddle's
quantization tools on numpy arrays (per tensor, or per channel along ``quant_axis`` 0 or 1).

``quant_tensor`` maps values to the integer grid of ``weight_bits`` (``bnt = 2**(bits-1) - 1``):
clipped to ``[-scale, scale]`` and scaled to ``[-bnt, bnt]`` (not rounded), or, with
``onnx_format``, rounded and clipped to ``[-bnt - 1, bnt]``. ``dequant_tensor`` scales back.
A zero scale counts as 1e-8. Per-channel scales write into ``x`` itself, as Paddle's do."""
import numpy as np

__all__ = ["quant_tensor", "dequant_tensor", "stable_sigmoid", "calculate_quant_cos_error",
           "l2_loss"]


def _bnt(bits):
    return (1 << (bits - 1)) - 1


def _channels(x, quant_axis):
    """Channel ``i``'s index: ``x[i]`` on axis 0, ``x[:, i]`` otherwise (as Paddle's)."""
    if quant_axis == 0:
        return lambda i: (i,)
    return lambda i: (slice(None), i)


def _quant(values, scale, bnt, onnx_format):
    scale = 1e-8 if scale == 0.0 else scale
    if onnx_format:
        return np.clip(np.round(values / scale * bnt), -bnt - 1, bnt)
    return np.clip(values, -scale, scale) / scale * bnt


def quant_tensor(x, scale, quant_axis=0, weight_bits=8, onnx_format=False):
    """``x`` quantized with ``scale`` (a number, or one per channel along ``quant_axis``)."""
    bnt = _bnt(weight_bits)
    if isinstance(scale, list) and len(scale) == 1:
        scale = scale[0]
    if not isinstance(scale, list):
        return _quant(x, scale, bnt, onnx_format)
    assert quant_axis in [-1, 0, 1], 'quant_axis should be 0 or 1 for now.'
    index = _channels(x, quant_axis)
    for i, s in enumerate(scale):
        x[index(i)] = _quant(x[index(i)], s, bnt, onnx_format)
    return x


def dequant_tensor(x, scale, quant_axis=0, weight_bits=8):
    """The values of quantized ``x`` (the inverse of ``quant_tensor``'s scaling)."""
    assert quant_axis in [0, 1], 'quant_axis should be 0 or 1 for now.'
    bnt = _bnt(weight_bits)
    if not isinstance(scale, list):
        return x * (1e-8 if scale == 0.0 else scale) / bnt
    index = _channels(x, quant_axis)
    for i, s in enumerate(scale):
        x[index(i)] = x[index(i)] * (1e-8 if s == 0.0 else s) / bnt
    return x


def stable_sigmoid(x):
    """The logistic function of ``x`` without overflow for large ``|x|``."""
    e = np.exp(-np.abs(x))
    return np.where(x < 0, e / (1 + e), 1 / (1 + e))


def calculate_quant_cos_error(orig_tensor, qdq_tensor):
    """The cosine similarity of a tensor and its quantize-dequantized form."""
    a, b = orig_tensor.flatten(), qdq_tensor.flatten()
    return np.inner(a, b) / (np.linalg.norm(a) * np.linalg.norm(b))


def l2_loss(gt, pred):
    """The mean squared error of ``pred`` against ``gt``."""
    return ((gt - pred) ** 2).mean()
