"""``paddle.static.quantization.utils``: the symmetric quantization arithmetic of Paddle's
quantization tools on numpy arrays (per tensor, or per channel along ``quant_axis`` 0 or 1).

``quant_tensor`` maps values to the integer grid of ``weight_bits`` (``bnt = 2**(bits-1) - 1``):
clipped to ``[-scale, scale]`` and scaled to ``[-bnt, bnt]`` (not rounded), or, with
``onnx_format``, rounded and clipped to ``[-bnt - 1, bnt]``. ``dequant_tensor`` scales back.
A zero scale counts as 1e-8. Per-channel scales write into ``x`` itself, as Paddle's do.

Also the helpers the quantization tools share: a variable's value in a Scope
(``load_variable_data``/``set_variable_data``), the input/output variable names of an op by the
slots ``quant_config`` lists, weight bias correction, and the small progress bar ``tqdm``."""
import sys

import numpy as np

from .quant_config import SUPPORT_QUANTIZATION_OP_DICT

__all__ = ["quant_tensor", "dequant_tensor", "stable_sigmoid", "calculate_quant_cos_error",
           "l2_loss", "load_variable_data", "set_variable_data", "bias_correction_w", "tqdm",
           "_channelwise_quant_axis1_ops", "_get_op_input_var_names",
           "_get_op_output_var_names", "_get_input_name_index", "_get_output_name_index"]

#: op types whose weights are quantized per channel along axis 1 (the others: axis 0)
_channelwise_quant_axis1_ops = ["conv2d_transpose", "mul", "matmul", "matmul_v2"]


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


def _op_slots(op, side):
    """The slot names ``quant_config`` lists for ``op``'s inputs (side 0) or outputs (1), or
    None when its type is not quantizable. ``op`` is an operator or graph node with
    ``input(slot)``/``output(slot)`` (an ``IrNode``'s type is its ``name()``)."""
    if not (callable(getattr(op, "input", None)) and callable(getattr(op, "output", None))):
        raise AssertionError("The input op should be IrNode or Operator.")
    op_type = op.name() if callable(getattr(op, "name", None)) else op.type
    slots = SUPPORT_QUANTIZATION_OP_DICT.get(op_type)
    return None if slots is None else slots[side]


def _var_names(op, side):
    slots = _op_slots(op, side)
    read = op.input if side == 0 else op.output
    names = []
    for slot in slots or ():
        got = read(slot)
        names.extend(got if isinstance(got, list) else [got])
    return names


def _get_op_input_var_names(op):
    """The names of ``op``'s quantizable inputs (``[]`` for an op type not quantized)."""
    return _var_names(op, 0)


def _get_op_output_var_names(op):
    """The names of ``op``'s outputs in its quantizable slots (``[]`` for other op types)."""
    return _var_names(op, 1)


def _name_index(op, var_name, side):
    slots = _op_slots(op, side)
    if slots is None:
        return None
    read = op.input if side == 0 else op.output
    found = None
    for slot in slots:
        for index, name in enumerate(read(slot)):
            if name == var_name:
                found = (slot, index)        # the last match wins, as in Paddle
    return found


def _get_input_name_index(op, input_var_name):
    """``(slot, index)`` of ``input_var_name`` among ``op``'s quantizable inputs, or None."""
    return _name_index(op, input_var_name, 0)


def _get_output_name_index(op, output_var_name):
    """``(slot, index)`` of ``output_var_name`` among ``op``'s quantizable outputs, or None."""
    return _name_index(op, output_var_name, 1)


def load_variable_data(scope, var_name):
    """The value of variable ``var_name`` in ``scope`` as a numpy array (a 0-D value as shape
    ``[1]``); AssertionError when the scope has no such variable."""
    var = scope.find_var(var_name)
    assert var is not None, "Cannot find " + var_name + " in scope."
    value = np.array(var.get_tensor())
    return value.reshape(1) if value.shape == () else value


def set_variable_data(scope, place, var_name, np_value):
    """Write ``np_value`` (a numpy array) into variable ``var_name`` of ``scope``; a name the
    scope does not have is left alone, as in Paddle."""
    assert isinstance(np_value, np.ndarray), 'The type of value should be numpy array.'
    var = scope.find_var(var_name)
    if var is not None:
        var.get_tensor().set(np_value, place)


def _flat_stats(a, quant_axis):
    """Per-channel (mean, std) of ``a`` along ``quant_axis`` (0 or 1)."""
    rows = a.reshape(a.shape[0], -1) if quant_axis == 0 else np.moveaxis(a, 1, 0).reshape(
        a.shape[1], -1)
    return rows.mean(-1), rows.std(-1)


def bias_correction_w(x, x_quant, scale_v, quant_axis, weight_bits=8):
    """Bias-corrected quantized weights: ``x_quant`` dequantized with ``scale_v``, shifted by the
    mean quantization error and rescaled to ``x``'s standard deviation (per channel along
    ``quant_axis`` when ``scale_v`` is a list), then quantized again."""
    eps = 1e-8
    bnt = _bnt(weight_bits)
    if isinstance(scale_v, list):
        x_dequant = x_quant.copy()
        index = _channels(x_dequant, quant_axis)
        for i, s in enumerate(scale_v):
            x_dequant[index(i)] = x_quant[index(i)] * s / bnt
        mean_bias, _ = _flat_stats(x - x_dequant, quant_axis)
        std_bias = _flat_stats(x, quant_axis)[1] / (_flat_stats(x_dequant, quant_axis)[1] + eps)
    else:
        x_dequant = x_quant * scale_v / bnt
        mean_bias = (x - x_dequant).mean()
        std_bias = x.std() / (x_dequant.std() + eps)
    if mean_bias.ndim == 1:
        # Paddle tiles the per-channel numbers over x's shape in memory order
        std_bias = np.resize(std_bias, x.shape)
        mean_bias = np.resize(mean_bias, x.shape)
    x_dequant = (mean_bias + x_dequant) * std_bias
    return quant_tensor(x_dequant, scale_v, quant_axis, weight_bits)


class tqdm:
    """A minimal progress bar on stderr (``with tqdm(total) as t: t.update()``): ``ncols``
    ``=`` marks for the done share, the prefix of ``bar_format`` before ``|``, ``n/total``."""

    def __init__(self, total, bar_format='Loading|{bar}', ncols=80):
        self.total = total
        self.bar_format = bar_format
        self.ncols = ncols
        self.n = 0

    def update(self, n=1):
        self.n += n
        done = "=" * round((self.n / self.total) * self.ncols)
        prefix = self.bar_format.split('|')[0]
        sys.stderr.write(f"\r{prefix}|{done}=>{' ' * (self.ncols - len(done))}| "
                         f"{self.n}/{self.total}")
        sys.stderr.flush()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        sys.stderr.write('\n')
