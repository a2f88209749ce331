"""Paddle's older dygraph quantisation tools.

* ``ImperativeQuantAware``: swaps ``Conv2D`` / ``Linear`` for ``QuantizedConv2D`` /
  ``QuantizedLinear`` (fake-quantised input and weight) and wraps the other leaves so their
  output scale is recorded (``quant_layers``).
* ``ImperativePTQ``: forward post-hooks on the supported layers (``PTQRegistry``) feed
  calibration data to the quantizers of a ``PTQConfig``; ``_convert`` computes the
  thresholds, records ``out_threshold`` (in the layer's ``_op_recorder_attrs`` dict; Paddle
  writes it on the layer's program ops) and swaps Conv2D / Linear for their quantised forms
  holding the thresholds as scales.
* The quantizers (numpy statistics, as Paddle's): ``AbsmaxQuantizer`` (max|x|),
  ``PerChannelAbsmaxQuantizer`` (per output channel), ``HistQuantizer`` (the
  ``hist_percent`` quantile of a |x| histogram), ``KLQuantizer`` (the threshold minimising
  the KL divergence between the histogram and its quantised form).

``ImperativeQuantAware(onnx_format=True).save_quantized_model`` (PaddleSlim's ``QAT``) writes
what Paddle does: a Paddle 2.x ProgramDesc (``path.pdmodel``) in which each fake quantisation
is a ``quantize_linear`` / ``dequantize_linear`` pair and each quantised weight is stored int8
behind a ``dequantize_linear`` (``static.program_desc_writer``), ``path.pdiparams`` and
``path.pdiparams.info``; ``paddle.inference`` runs it. The older format (``onnx_format=False``:
fake-quant ops with threshold attributes) and ``ImperativePTQ.save_quantized_model`` (which
Paddle 3.3.1 itself fails to write) raise ``NotImplementedError``.
"""
import abc
import copy
import math
import os
import pickle

import numpy as np
import torch

from ..framework.tensor import Tensor
from ..nn import layer as _nn
from ..nn import quant as _quant
from ..nn.layer.layers import Layer
from ..static import io as _sio
from ..static import program_desc_writer as _pdw
from ..utils.layer_trace import trace_to_pir
from . import quant_layers

__all__ = ["BaseQuantizer", "AbsmaxQuantizer", "PerChannelAbsmaxQuantizer", "HistQuantizer",
           "KLQuantizer", "SUPPORT_ACT_QUANTIZERS", "SUPPORT_WT_QUANTIZERS", "PTQConfig",
           "default_ptq_config", "PTQRegistry", "ImperativePTQ", "ImperativeQuantAware"]


def _abs_np(tensor):
    return np.abs(tensor._t.detach().cpu().numpy()) if isinstance(tensor, Tensor) \
        else np.abs(np.asarray(tensor))


def _abs_max_value(tensor):
    return float(_abs_np(tensor).max())


def _merge_max_value(old, new):
    if old != []:
        assert len(old) == len(new)
        for i in range(len(old)):
            assert type(old[i]) == type(new[i])
            if isinstance(old[i], list):
                new[i] = _merge_max_value(old[i], new[i])
            else:
                new[i] = max(new[i], old[i])
    return new


def _histogram(tensor, top, bins):
    hist, _ = np.histogram(_abs_np(tensor), range=(0, top), bins=bins)
    return hist.astype(np.float32)


def _combine_abs_max_and_hist(tensor, origin_max, origin_hist, bins, upsample_bins):
    """Add a tensor to a histogram of |x| over [0, origin_max], widening the range (by whole
    multiples of the old bins, the old counts spread over the new bins) when the tensor
    goes further."""
    new_max = _abs_max_value(tensor)
    if new_max == 0.0:
        return origin_max, origin_hist
    if origin_max == 0.0:
        return new_max, _histogram(tensor, new_max, bins)
    if new_max <= origin_max:
        return origin_max, _histogram(tensor, origin_max, bins) + origin_hist
    width = origin_max / (bins * upsample_bins)
    factor = int(math.ceil(new_max / (bins * width)))
    new_max = bins * width * factor
    fine = np.zeros(bins * factor, dtype=np.float32)
    fine[:bins * upsample_bins] = np.repeat(origin_hist, upsample_bins)
    totals = np.cumsum(fine, dtype=np.float64)[factor - 1::factor]
    resampled = (np.diff(totals, prepend=0.0) / upsample_bins).astype(np.float32)
    return new_max, _histogram(tensor, new_max, bins) + resampled


def _kl_threshold(hist, bin_width, bits):
    """The |x| threshold whose clipped-and-quantised histogram is closest (KL divergence)
    to the histogram: candidates cut at bin i (outliers folded into the last kept bin),
    from the middle bin on; the kept bins merge into ``2**(bits-1) - 1`` levels (the last
    level takes the remainder), each level's count spread evenly over its non-empty bins."""
    bins = hist.shape[0]
    start = int((bins - 1) * 0.5)
    levels = 2 ** (bits - 1) - 1
    p_total = float(np.sum(hist))
    best, best_i = None, 0
    for i in range(start, bins):
        p = hist[:i].astype(np.float64)
        if p[i - 1] == 0:
            continue
        p[i - 1] += float(np.sum(hist[i:].astype(np.float64)))
        q_src = hist[:i].astype(np.float64)
        per = i // levels
        edges = [k * per for k in range(levels)] + [i]
        q = np.zeros(i)
        for k in range(levels):
            a, b = edges[k], edges[k + 1]
            seg = q_src[a:b]
            nonzero = p[a:b] != 0
            n = int(nonzero.sum())
            if n:
                q[a:b] = np.where(nonzero, seg.sum() / n, 0.0)
        q_total = q.sum()
        m = p != 0
        kl = (np.sum(p[m] * np.log(q_total * p[m])) - np.sum(p[m] * np.log(p_total * q[m])))
        kl /= p_total
        if best is None or kl < best:
            best, best_i = kl, i
    if best_i == 0:
        while start > 0 and hist[start] == 0:
            start -= 1
        best_i = start
    return (best_i + 0.5) * bin_width


class BaseQuantizer(metaclass=abc.ABCMeta):
    """Collects statistics of tensors (``sample_data``) and turns them into thresholds
    (``cal_thresholds``)."""

    def __init__(self, quant_bits=8):
        super().__init__()
        assert isinstance(quant_bits, int)
        assert 0 < quant_bits <= 16
        self.quant_bits = quant_bits
        self.abs_max_vals = []
        self.thresholds = []

    @abc.abstractmethod
    def sample_data(self, layer, tensors):
        pass

    @abc.abstractmethod
    def cal_thresholds(self):
        pass


class AbsmaxQuantizer(BaseQuantizer):
    """Threshold = the largest |x| seen, per tensor."""

    def sample_data(self, layer, tensors):
        assert isinstance(tensors, tuple)
        self.abs_max_vals = _merge_max_value(self.abs_max_vals,
                                             [_abs_max_value(t) for t in tensors])

    def cal_thresholds(self):
        self.thresholds = self.abs_max_vals


class PerChannelAbsmaxQuantizer(BaseQuantizer):
    """Thresholds = the largest |x| per channel: axis 1 for ``Linear`` and
    ``Conv2DTranspose`` weights, axis 0 otherwise."""

    def sample_data(self, layer, tensors):
        assert isinstance(layer, Layer)
        assert isinstance(tensors, tuple)
        axis = 1 if isinstance(layer, (_nn.Conv2DTranspose, _nn.Linear)) else 0
        vals = []
        for t in tensors:
            a = _abs_np(t)
            a = np.moveaxis(a, axis, 0).reshape(a.shape[axis], -1)
            vals.append([float(v) for v in a.max(1)])
        self.abs_max_vals = _merge_max_value(self.abs_max_vals, vals)

    def cal_thresholds(self):
        self.thresholds = self.abs_max_vals


class BaseHistQuantizer(BaseQuantizer, metaclass=abc.ABCMeta):
    """Keeps a histogram of |x| per tensor (``bins`` bins, rescaled with ``upsample_bins``
    when a later tensor goes beyond the range)."""

    def __init__(self, quant_bits=8, bins=1024, upsample_bins=64):
        super().__init__(quant_bits)
        self.bins = bins
        self.upsample_bins = upsample_bins
        self.hists = []

    def sample_data(self, layer, tensors):
        assert isinstance(tensors, tuple)
        if self.abs_max_vals == []:
            self.abs_max_vals = [_abs_max_value(t) for t in tensors]
            for m, t in zip(self.abs_max_vals, tensors):
                self.hists.append(None if m == 0.0 else _histogram(t, m, self.bins))
        else:
            assert len(self.abs_max_vals) == len(tensors)
            assert len(self.hists) == len(tensors)
            for i, t in enumerate(tensors):
                self.abs_max_vals[i], self.hists[i] = _combine_abs_max_and_hist(
                    t, self.abs_max_vals[i], self.hists[i], self.bins, self.upsample_bins)

    @abc.abstractmethod
    def cal_thresholds(self):
        pass


class HistQuantizer(BaseHistQuantizer):
    """Threshold = the ``hist_percent`` quantile of the |x| histogram (bin centre)."""

    def __init__(self, quant_bits=8, bins=1024, upsample_bins=64, hist_percent=0.99999):
        super().__init__(quant_bits, bins, upsample_bins)
        self.hist_percent = hist_percent

    def cal_thresholds(self):
        for m, hist in zip(self.abs_max_vals, self.hists):
            if hist is None:
                self.thresholds.append(m)
                continue
            assert hist.ndim == 1 and self.hist_percent < 1.0
            cdf = np.cumsum(hist / np.sum(hist, dtype=np.float64))
            index = int(np.argmax(cdf >= self.hist_percent))
            self.thresholds.append(float((index - 0.5) * (m / hist.shape[0])))


class KLQuantizer(BaseHistQuantizer):
    """Threshold by the KL divergence of the quantised |x| histogram (TensorRT's entropy
    calibration)."""

    def cal_thresholds(self):
        for m, hist in zip(self.abs_max_vals, self.hists):
            if hist is None:
                self.thresholds.append(m)
            else:
                self.thresholds.append(_kl_threshold(hist, m / hist.shape[0],
                                                     self.quant_bits))


SUPPORT_ACT_QUANTIZERS = [AbsmaxQuantizer, HistQuantizer, KLQuantizer]
SUPPORT_WT_QUANTIZERS = [AbsmaxQuantizer, PerChannelAbsmaxQuantizer]


class PTQConfig:
    """The quantizers of ``ImperativePTQ``: one for activations (copied for the inputs and
    the outputs) and one for weights."""

    def __init__(self, activation_quantizer, weight_quantizer):
        super().__init__()
        assert isinstance(activation_quantizer, tuple(SUPPORT_ACT_QUANTIZERS))
        assert isinstance(weight_quantizer, tuple(SUPPORT_WT_QUANTIZERS))
        self.in_act_quantizer = copy.deepcopy(activation_quantizer)
        self.out_act_quantizer = copy.deepcopy(activation_quantizer)
        self.wt_quantizer = copy.deepcopy(weight_quantizer)
        self.quant_hook_handle = None
        self.enable_in_act_quantizer = False


default_ptq_config = PTQConfig(KLQuantizer(), PerChannelAbsmaxQuantizer())


class LayerInfo:
    """The argument names of a layer's op (Paddle's program ops)."""

    def __init__(self, layer, input_names, weight_names, output_names):
        super().__init__()
        self.layer = layer
        self.input_names = input_names
        self.weight_names = weight_names
        self.output_names = output_names


_PTQ_LAYERS_INFO = [
    LayerInfo(_nn.Conv2D, ["Input"], ["Filter"], ["Output"]),
    LayerInfo(_nn.Linear, ["X"], ["Y"], ["Out"]),
    LayerInfo(_nn.BatchNorm2D, ["X"], [], ["Y"]),
    LayerInfo(_nn.AdaptiveMaxPool2D, ["X"], [], ["Out"]),
    LayerInfo(_nn.AdaptiveAvgPool2D, ["X"], [], ["Out"]),
    LayerInfo(_nn.AvgPool2D, ["X"], [], ["Out"]),
    LayerInfo(_nn.MaxPool2D, ["X"], [], ["Out"]),
    LayerInfo(_nn.ReLU, ["X"], [], ["Out"]),
    LayerInfo(_nn.ReLU6, ["X"], [], ["Out"]),
    LayerInfo(_nn.Hardswish, ["X"], [], ["Out"]),
    LayerInfo(_nn.Swish, ["X"], [], ["Out"]),
    LayerInfo(_nn.Sigmoid, ["X"], [], ["Out"]),
    LayerInfo(_nn.Softmax, ["X"], [], ["Out"]),
    LayerInfo(_nn.Tanh, ["X"], [], ["Out"]),
    LayerInfo(_quant.add, ["X", "Y"], [], ["Out"]),
]
_QUANT_LAYERS_INFO = [
    LayerInfo(quant_layers.QuantizedConv2D, ["Input"], ["Filter"], ["Output"]),
    LayerInfo(quant_layers.QuantizedLinear, ["X"], ["Y"], ["Out"]),
]
_SIMULATED_LAYERS = [_nn.Conv2D, _nn.Linear]


class PTQRegistry:
    """Which layers ``ImperativePTQ`` handles (``is_supported_layer``), knows
    (``is_registered_layer``: also the quantised Conv2D / Linear) and simulates in
    quantised form (``is_simulated_quant_layer``: Conv2D, Linear). Takes a layer or a
    layer class."""

    supported_layers_map = {info.layer: info for info in _PTQ_LAYERS_INFO}
    registered_layers_map = {info.layer: info
                             for info in _PTQ_LAYERS_INFO + _QUANT_LAYERS_INFO}
    is_inited = True

    def __init__(self):
        super().__init__()

    @classmethod
    def _init(cls):
        pass

    @classmethod
    def is_supported_layer(cls, layer):
        return layer in cls.supported_layers_map or isinstance(
            layer, tuple(cls.supported_layers_map))

    @classmethod
    def is_registered_layer(cls, layer):
        return layer in cls.registered_layers_map or isinstance(
            layer, tuple(cls.registered_layers_map))

    @classmethod
    def is_simulated_quant_layer(cls, layer):
        return layer in _SIMULATED_LAYERS or isinstance(layer, tuple(_SIMULATED_LAYERS))

    @classmethod
    def layer_info(cls, layer):
        assert cls.is_registered_layer(layer), "The input layer is not register."
        for key, info in cls.registered_layers_map.items():
            if layer == key or isinstance(layer, key):
                return info


def _is_leaf(layer):
    return isinstance(layer, Layer) and len(layer.sublayers()) == 0


def _parent_and_name(model, name):
    parent = model
    parts = name.split(".")
    for part in parts[:-1]:
        if hasattr(parent, part):
            parent = getattr(parent, part)
    return parent, parts[-1]


_LAYER_NAMES = {"Conv2D": _nn.Conv2D, "Linear": _nn.Linear}


def _quant_forward_post_hook(layer, inputs, outputs):
    qc = layer._quant_config
    if qc.enable_in_act_quantizer:
        qc.in_act_quantizer.sample_data(layer, inputs)
    qc.out_act_quantizer.sample_data(layer, (outputs,))


class ImperativePTQ:
    """Post-training quantisation of a dygraph model with a ``PTQConfig`` (see the module
    doc)."""

    def __init__(self, quant_config=default_ptq_config):
        super().__init__()
        assert isinstance(quant_config, PTQConfig)
        self._quant_config = quant_config

    def quantize(self, model, inplace=False, fuse=False, fuse_list=None):
        """Hook the supported leaf layers (not those with ``skip_quant``) so that running
        calibration data through the model samples their inputs and outputs."""
        assert isinstance(model, Layer), "The model must be the instance of paddle.nn.Layer."
        if fuse:
            raise NotImplementedError("ImperativePTQ.quantize: fuse=True (Conv2D + BatchNorm "
                                      "fusion) is not supported")
        if not inplace:
            model = copy.deepcopy(model)
        for _, layer in model.named_sublayers():
            if (PTQRegistry.is_supported_layer(layer) and _is_leaf(layer)
                    and not self._is_skip_layer(layer)):
                config = copy.deepcopy(self._quant_config)
                if PTQRegistry.is_simulated_quant_layer(layer):
                    config.enable_in_act_quantizer = True
                layer._quant_config = config
                config.quant_hook_handle = layer.register_forward_post_hook(
                    _quant_forward_post_hook, prepend=True)
        return model

    def save_quantized_model(self, model, path, input_spec=None, **config):
        raise NotImplementedError(
            "ImperativePTQ.save_quantized_model writes fake-quant ops with threshold "
            "attributes (Paddle's older quantised format; Paddle 3.3.1 itself fails in it), "
            "which paddle_compat does not write; call ptq._convert(model) and save it with "
            "paddle.jit.save, or quantise with ImperativeQuantAware(onnx_format=True)")

    def _convert(self, model):
        """Stop sampling, compute the thresholds, record the output thresholds and swap
        Conv2D / Linear for quantised layers holding the thresholds as scales."""
        for _, sub in model.named_sublayers():
            if self._is_quant_layer(sub):
                sub._quant_config.quant_hook_handle.remove()
        self._cal_thresholds(model)
        for _, sub in model.named_sublayers():
            if self._is_quant_layer(sub):
                self._save_output_thresholds(sub, sub._quant_config)
        self._wrap_simulated_layers(model)

    def _cal_thresholds(self, model):
        assert isinstance(model, Layer), \
            "The input model must be the instance of paddle.nn.Layer."
        for _, sub in model.named_sublayers():
            if self._is_quant_layer(sub):
                qc = sub._quant_config
                if qc.enable_in_act_quantizer:
                    qc.in_act_quantizer.cal_thresholds()
                qc.out_act_quantizer.cal_thresholds()
                if PTQRegistry.is_simulated_quant_layer(sub):
                    qc.wt_quantizer.sample_data(sub, (sub.weight,))
                    qc.wt_quantizer.cal_thresholds()

    def _save_output_thresholds(self, sub_layer, quant_config):
        names = PTQRegistry.layer_info(sub_layer).output_names
        thresholds = quant_config.out_act_quantizer.thresholds
        assert len(names) == 1
        if len(thresholds) == 1:
            attrs = {names[0] + "0_threshold": thresholds[0], "out_threshold": thresholds[0]}
            sub_layer.__dict__.setdefault("_op_recorder_attrs", {}).update(attrs)

    def _wrap_simulated_layers(self, model):
        for name, sub in list(model.named_sublayers()):
            if not (self._is_quant_layer(sub) and PTQRegistry.is_simulated_quant_layer(sub)):
                continue
            qc = sub._quant_config
            assert qc.enable_in_act_quantizer is True
            wt, act = qc.wt_quantizer, qc.in_act_quantizer
            cls = (quant_layers.QuantizedConv2D if isinstance(sub, _nn.Conv2D)
                   else quant_layers.QuantizedLinear)
            qlayer = cls(sub, weight_bits=wt.quant_bits, activation_bits=act.quant_bits,
                         weight_quantize_type="abs_max" if isinstance(wt, AbsmaxQuantizer)
                         else "channel_wise_abs_max",
                         activation_quantize_type="moving_average_abs_max")
            with torch.no_grad():
                if len(act.thresholds) == 1:
                    qlayer._fake_quant_input._scale._t.copy_(
                        torch.tensor([act.thresholds[0]], dtype=torch.float32))
                assert len(wt.thresholds) == 1
                w = wt.thresholds[0]
                w = np.array(w if isinstance(w, list) else [w], dtype=np.float32)
                qlayer._fake_quant_weight._scale._t.copy_(torch.from_numpy(w))
            self._save_output_thresholds(qlayer, qc)
            parent, sub_name = _parent_and_name(model, name)
            setattr(parent, sub_name, qlayer)

    @staticmethod
    def _is_skip_layer(layer):
        return getattr(layer, "skip_quant", False) is True

    @staticmethod
    def _is_quant_layer(layer):
        return hasattr(layer, "_quant_config")


_QUANT_TYPES = {"abs_max", "moving_average_abs_max", "channel_wise_abs_max", "lsq_weight",
                "channel_wise_lsq_weight"}
_ACT_TYPES = {"moving_average_abs_max", "lsq_act"}
_FAKE_QUANT_OUTPUT_LAYERS = (_quant.add, _quant.subtract, _quant.multiply, _quant.divide,
                             _quant.matmul)
_FAKE_QUANT_LEAF_LAYERS = (quant_layers.FakeQuantAbsMax,
                           quant_layers.FakeQuantChannelWiseAbsMax,
                           quant_layers.FakeQuantMovingAverageAbsMax,
                           _quant.MovingAverageAbsMaxScale)
_FAKE_QUANT_WRAP_LAYERS = (quant_layers.QuantizedConv2D, quant_layers.QuantizedLinear)


class ImperativeQuantAware:
    """Quantisation-aware training of a dygraph model (see the module doc).
    ``quantizable_layer_type`` takes ``'Conv2D'`` and ``'Linear'`` (names or classes);
    weights are quantised ``abs_max`` or ``channel_wise_abs_max``, activations
    ``moving_average_abs_max``. With ``onnx_format`` (PaddleSlim's ``QAT`` passes it) only
    the quantised layers get an output-scale wrapper, as in Paddle."""

    def __init__(self, quantizable_layer_type=("Conv2D", "Linear", "Conv2DTranspose",
                                               "ColumnParallelLinear", "RowParallelLinear"),
                 weight_quantize_type="abs_max", activation_quantize_type="moving_average_abs_max",
                 weight_bits=8, activation_bits=8, moving_rate=0.9, fuse_conv_bn=False,
                 weight_preprocess_layer=None, act_preprocess_layer=None,
                 weight_quantize_layer=None, act_quantize_layer=None, onnx_format=False):
        super().__init__()
        types = []
        for t in quantizable_layer_type:
            if t in ("Conv2DTranspose", _nn.Conv2DTranspose, "ColumnParallelLinear",
                     "RowParallelLinear"):
                continue        # no quantised form here (Paddle's default list names them)
            t = _LAYER_NAMES.get(t, t)
            assert not isinstance(t, str) and t in (_nn.Conv2D, _nn.Linear), \
                f"{t} is unsupported to be quantized."
            types.append(t)
        self._quantizable_layer_type = tuple(types)
        assert weight_quantize_type != "moving_average_abs_max" and \
            weight_quantize_type in _QUANT_TYPES, (
                f"Unsupported weight_quantize_type: {weight_quantize_type}. It can only be "
                "abs_max or channel_wise_abs_max.")
        assert activation_quantize_type in _ACT_TYPES, (
            f"Unsupported activation_quantize_type: {activation_quantize_type}. It can only "
            "be moving_average_abs_max or lsq_act now.")
        for kind, bits in (("weight_bits", weight_bits), ("activation_bits", activation_bits)):
            assert isinstance(bits, int) and 0 <= bits <= 16, \
                f"{kind} should be 1, 2,... or 16."
        for layer in (weight_preprocess_layer, act_preprocess_layer, weight_quantize_layer,
                      act_quantize_layer):
            assert layer is None or issubclass(layer, Layer), "should be nn.Layer."
        if fuse_conv_bn:
            raise NotImplementedError("ImperativeQuantAware: fuse_conv_bn is not supported")
        self.fuse_conv_bn = fuse_conv_bn
        self._onnx_format = onnx_format
        self._kwargs = {
            "weight_quantize_type": weight_quantize_type,
            "activation_quantize_type": activation_quantize_type,
            "weight_bits": weight_bits, "activation_bits": activation_bits,
            "moving_rate": moving_rate, "weight_pre_layer": weight_preprocess_layer,
            "act_pre_layer": act_preprocess_layer, "weight_quant_layer": weight_quantize_layer,
            "act_quant_layer": act_quantize_layer,
        }
        self._moving_rate = moving_rate
        self._activation_bits = activation_bits

    def quantize(self, model):
        """In place: swap the quantisable layers, then wrap the other leaves (and the
        quantised layers) so their output scales are recorded. Returns the model."""
        assert isinstance(model, Layer), "The model must be the instance of paddle.nn.Layer."
        for name, layer in list(model.named_sublayers()):
            if not isinstance(layer, self._quantizable_layer_type) or \
                    getattr(layer, "skip_quant", False) is True:
                continue
            cls = (quant_layers.QuantizedConv2D if isinstance(layer, _nn.Conv2D)
                   else quant_layers.QuantizedLinear)
            parent, sub_name = _parent_and_name(model, name)
            setattr(parent, sub_name, cls(layer, **self._kwargs))
        for name, layer in list(model.named_sublayers()):
            if "_act_preprocess" in name or not self._is_target_layer(layer, self._onnx_format):
                continue
            parent, sub_name = _parent_and_name(model, name)
            if isinstance(layer, _FAKE_QUANT_OUTPUT_LAYERS):
                wrapped = quant_layers.FakeQuantMAOutputScaleLayer(layer, self._moving_rate)
            else:
                wrapped = quant_layers.MAOutputScaleLayer(layer, self._moving_rate)
            setattr(parent, sub_name, wrapped)
        return model

    @staticmethod
    def _is_target_layer(layer, onnx_format=False):
        """Whether ``layer``'s output scale is recorded: with ``onnx_format`` only the
        quantised layers', else also every other leaf's and the functional layers'."""
        if not isinstance(layer, Layer):
            return False
        if onnx_format:
            return isinstance(layer, _FAKE_QUANT_WRAP_LAYERS)
        return ((_is_leaf(layer) and not isinstance(layer, _FAKE_QUANT_LEAF_LAYERS))
                or isinstance(layer, _FAKE_QUANT_WRAP_LAYERS)
                or isinstance(layer, _quant.FloatFunctionalLayer))

    def save_quantized_model(self, layer, path, input_spec=None, **config):
        """Write the quantised ``layer`` as Paddle's inference model (see the module doc):
        ``path.pdmodel``, ``path.pdiparams``, ``path.pdiparams.info``."""
        assert isinstance(layer, Layer), "The model must be the instance of paddle.nn.Layer."
        if not self._onnx_format:
            raise NotImplementedError(
                "ImperativeQuantAware.save_quantized_model with onnx_format=False writes "
                "fake-quant ops with threshold attributes (Paddle's older quantised format), "
                "which paddle_compat does not write; use onnx_format=True (PaddleSlim's QAT "
                "default)")
        if config.get("output_spec") is not None:
            raise NotImplementedError("save_quantized_model: output_spec (pruning outputs) is "
                                      "not supported")
        save_quantized_program(layer, path, input_spec, self._activation_bits)


def save_quantized_program(layer, path, input_spec, activation_bits=8):
    """Trace ``layer`` (in eval mode) with its fake quantisations as markers and write the
    three files; nothing is left behind when tracing or writing fails."""
    path = os.fspath(path)
    if not path or os.path.basename(path) == "":
        raise ValueError("The input path MUST be format of dirname/file_prefix [dirname\\"
                         "file_prefix in Windows system], but received file_prefix is "
                         "empty string.")
    where = f"save_quantized_model({type(layer).__name__})"
    modes = [(m, m.training) for m in [layer] + list(layer.sublayers())]
    writer = _pdw.FluidWriter(where)
    writer.output_bits = activation_bits
    try:
        layer.eval()
        with _pdw.quant_export():
            (variables, ops), arrays = trace_to_pir(layer, input_spec, where, writer,
                                                    _pdw.QUANT_EMIT)
    finally:
        for m, training in modes:
            m.training = training
    arrays = dict(arrays, **writer.extra_arrays)
    for name, (scale, axis, bits) in writer.weights.items():
        arrays[name] = _pdw.quantize_weight(arrays[name], arrays[scale], axis, bits)
    info = {}
    for key, t in layer.state_dict().items():
        info.setdefault(t.name, {"structured_name": key, "stop_gradient": t.stop_gradient,
                                 "trainable": bool(getattr(t, "trainable", False))})
    files = {".pdmodel": _pdw.encode_program(variables, ops),
             ".pdiparams": _sio.pdiparams_bytes(arrays),
             ".pdiparams.info": pickle.dumps(info, protocol=2)}
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    written = []
    try:
        for suffix, data in files.items():
            with open(path + suffix + ".tmp", "wb") as f:
                written.append(f.name)
                f.write(data)
        for suffix in files:
            os.replace(path + suffix + ".tmp", path + suffix)
    except BaseException:
        for name in written:
            if os.path.exists(name):
                os.remove(name)
        raise
