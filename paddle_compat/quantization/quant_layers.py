"""The fake-quant layers of the dygraph quantisation tools (Paddle's
``nn.quant.quant_layers``): ``FakeQuantAbsMax``, ``FakeQuantMovingAverageAbsMax``,
``FakeQuantChannelWiseAbsMax``, ``QuantizedLinear``, ``QuantizedConv2D``,
``MAOutputScaleLayer``, ``FakeQuantMAOutputScaleLayer`` (``QuantStub`` /
``MovingAverageAbsMaxScale`` live in ``nn.quant``).

All quantise-dequantise with ties rounded away from zero and pass the gradient straight
through: ``FakeQuantAbsMax`` with ``scale = max|x|`` of the current input,
``FakeQuantChannelWiseAbsMax`` with one such scale per channel along ``quant_axis``,
``FakeQuantMovingAverageAbsMax`` with the moving average of ``quanters``. float32 only, as
Paddle's CPU kernels.
"""
import torch

from ..framework.tensor import wrap
from ..nn import functional as F
from ..nn.layer.layers import Layer
from ..nn.quant import (MovingAverageAbsMaxScale, _abs_max, _buffer_param, _fake_qdq,
                        _moving_average_update)
from ..framework.parameter import unique_name
from ..static.program_desc_writer import quant_exporting, record_fake_quant

__all__ = ["FakeQuantAbsMax", "FakeQuantMovingAverageAbsMax", "FakeQuantChannelWiseAbsMax",
           "MovingAverageAbsMaxScale", "QuantStub", "QuantizedConv2D", "QuantizedLinear",
           "MAOutputScaleLayer", "FakeQuantMAOutputScaleLayer"]

QuantStub = MovingAverageAbsMaxScale


def _float32_only(t, kernel):
    if t.dtype != torch.float32:
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{str(t.dtype).replace('torch.', '')}) of kernel `{kernel}` is not "
                           "registered. Paddle support following DataTypes: float32.")


def _no_reduce(reduce_type):
    if reduce_type is not None:
        raise NotImplementedError("reduce_type (an all-reduce of the scale across ranks) is "
                                  "not supported")


class FakeQuantAbsMax(Layer):
    """Quantise-dequantise with ``scale = max|x|`` (stored in ``_scale`` when
    ``quant_on_weight``)."""

    def __init__(self, name=None, quant_bits=8, dtype="float32", quant_on_weight=False,
                 reduce_type=None):
        super().__init__()
        _no_reduce(reduce_type)
        self._quant_bits = quant_bits
        self._name = name
        self._reduce_type = reduce_type
        pre = f"{name}.scale" if name else "quant_dequant.scale"
        self._scale_name = unique_name(pre)
        self._scale = None
        if quant_on_weight:
            self._scale = _buffer_param(self, self._scale_name, 0.001, self._dtype,
                                        exact_name=True)

    def forward(self, input):
        if quant_exporting():
            if self._scale is None:
                raise NotImplementedError(
                    "save_quantized_model: an abs_max fake quantisation of an activation (its "
                    "scale is not a parameter) cannot be written")
            return record_fake_quant(input, self._scale, "weight", self._quant_bits, -1)
        t = input._t
        _float32_only(t, "fake_quantize_dequantize_abs_max")
        s = _abs_max(t)
        if self._scale is not None:
            with torch.no_grad():
                self._scale._t.copy_(s)
        return wrap(_fake_qdq(t, s, self._quant_bits))


class FakeQuantChannelWiseAbsMax(Layer):
    """Quantise-dequantise with one ``max|x|`` scale per channel along ``quant_axis``
    (weights only)."""

    def __init__(self, name=None, channel_num=None, quant_bits=8, quant_axis=0,
                 dtype="float32", quant_on_weight=False, reduce_type=None):
        assert quant_on_weight, "Channel_wise only can be used on weight quantization."
        super().__init__()
        _no_reduce(reduce_type)
        self._quant_bits = quant_bits
        self._quant_axis = quant_axis
        self._dtype = dtype
        self._name = name
        self._channel_num = channel_num
        self._reduce_type = reduce_type
        pre = f"{name}.scale" if name else "quant_dequant.scale"
        self._scale_name = unique_name(pre)
        self._scale = _buffer_param(self, self._scale_name, 0.0, dtype, shape=(channel_num,),
                                    exact_name=True)

    def forward(self, input):
        if quant_exporting():
            return record_fake_quant(input, self._scale, "weight", self._quant_bits,
                                     self._quant_axis)
        t = input._t
        _float32_only(t, "fake_channel_wise_quantize_dequantize_abs_max")
        s = _abs_max(t, self._quant_axis)
        with torch.no_grad():
            self._scale._t.copy_(s)
        return wrap(_fake_qdq(t, s, self._quant_bits, self._quant_axis))


class FakeQuantMovingAverageAbsMax(Layer):
    """Quantise-dequantise with the moving average of ``max|x|`` (training updates it; eval
    uses the stored scale)."""

    def __init__(self, name=None, moving_rate=0.9, quant_bits=8, dtype="float32",
                 reduce_type=None):
        super().__init__()
        _no_reduce(reduce_type)
        self._moving_rate = moving_rate
        self._quant_bits = quant_bits
        self._reduce_type = reduce_type
        pre = name if name else "quant_dequant"
        self._scale = _buffer_param(self, f"{pre}.scale", 0.001, dtype)
        self._state = _buffer_param(self, f"{pre}.state", 1.0, dtype)
        self._accum = _buffer_param(self, f"{pre}.accum", 1.0, dtype)

    def forward(self, input):
        if quant_exporting():
            return record_fake_quant(input, self._scale, "activation", self._quant_bits)
        t = input._t
        _float32_only(t, "fake_quantize_dequantize_moving_average_abs_max")
        if self.training:
            _moving_average_update(_abs_max(t), self._scale, self._state, self._accum,
                                   self._moving_rate)
        return wrap(_fake_qdq(t, self._scale._t.detach(), self._quant_bits))


def _get_fake_quant_type(quant_type, name=None, quant_bits=8, dtype="float32",
                         reduce_type=None, quant_on_weight=False, moving_rate=0.9,
                         channel_num=None, quant_axis=0, **_):
    if quant_type == "abs_max":
        return FakeQuantAbsMax(name=name, quant_bits=quant_bits, dtype=dtype,
                               quant_on_weight=quant_on_weight, reduce_type=reduce_type)
    if quant_type == "moving_average_abs_max":
        return FakeQuantMovingAverageAbsMax(name=name, moving_rate=moving_rate,
                                            quant_bits=quant_bits, dtype=dtype,
                                            reduce_type=reduce_type)
    if quant_type == "channel_wise_abs_max":
        assert channel_num is not None, ("You need to input channel_numwhen you use "
                                         "channel_wise_abs_max strategy.")
        return FakeQuantChannelWiseAbsMax(name=name, channel_num=channel_num,
                                          quant_bits=quant_bits, quant_axis=quant_axis,
                                          dtype=dtype, quant_on_weight=quant_on_weight,
                                          reduce_type=reduce_type)
    raise NotImplementedError(f"quantize type '{quant_type}' is not supported (abs_max, "
                              "moving_average_abs_max and channel_wise_abs_max are; the LSQ "
                              "types are not)")


class _QuantizedWeightLayer(Layer):
    _quant_axis = 0

    def _setup(self, layer, weight_bits, activation_bits, moving_rate, weight_quantize_type,
               activation_quantize_type, weight_pre_layer, act_pre_layer, weight_quant_layer,
               act_quant_layer):
        self.weight = layer.weight
        self.bias = layer.bias
        if weight_quant_layer is not None:
            self._fake_quant_weight = weight_quant_layer()
        else:
            self._fake_quant_weight = _get_fake_quant_type(
                weight_quantize_type, name=self.weight.name, moving_rate=moving_rate,
                quant_bits=weight_bits, dtype=self._dtype, quant_on_weight=True,
                channel_num=self.weight.shape[self._quant_axis], quant_axis=self._quant_axis)
        if act_quant_layer is not None:
            self._fake_quant_input = act_quant_layer()
        else:
            self._fake_quant_input = _get_fake_quant_type(
                activation_quantize_type, name=layer.full_name(), moving_rate=moving_rate,
                quant_bits=activation_bits, dtype=self._dtype, quant_on_weight=False)
        self._act_preprocess = act_pre_layer() if act_pre_layer is not None else None
        self._weight_preprocess = weight_pre_layer() if weight_pre_layer is not None else None

    def _quant_inputs(self, input):
        if self._act_preprocess is not None:
            input = self._act_preprocess(input)
        x = self._fake_quant_input(input)
        weight = self.weight
        if self._weight_preprocess is not None:
            weight = self._weight_preprocess(self.weight)
        return x, self._fake_quant_weight(weight)


class QuantizedConv2D(_QuantizedWeightLayer):
    """``Conv2D`` whose input and weight are fake-quantised."""

    def __init__(self, layer, weight_bits=8, activation_bits=8, moving_rate=0.9,
                 weight_quantize_type="abs_max", activation_quantize_type="abs_max",
                 weight_pre_layer=None, act_pre_layer=None, weight_quant_layer=None,
                 act_quant_layer=None):
        super().__init__()
        self._groups = layer._groups
        self._stride = layer._stride
        self._padding = layer._padding
        self._padding_mode = layer._padding_mode
        if self._padding_mode != "zeros":
            self._reversed_padding_repeated_twice = layer._reversed_padding_repeated_twice
        self._dilation = layer._dilation
        self._data_format = layer._data_format
        self._conv2d_quant_axis = 0
        self._setup(layer, weight_bits, activation_bits, moving_rate, weight_quantize_type,
                    activation_quantize_type, weight_pre_layer, act_pre_layer,
                    weight_quant_layer, act_quant_layer)

    def forward(self, input):
        x, w = self._quant_inputs(input)
        padding = self._padding
        if self._padding_mode != "zeros":
            x = F.pad(x, self._reversed_padding_repeated_twice, mode=self._padding_mode,
                      data_format=self._data_format)
            padding = 0
        return F.conv2d(x, w, bias=self.bias, padding=padding, stride=self._stride,
                        dilation=self._dilation, groups=self._groups,
                        data_format=self._data_format)


class QuantizedLinear(_QuantizedWeightLayer):
    """``Linear`` whose input and weight are fake-quantised (channel-wise along the
    weight's axis 1, its output features)."""

    _quant_axis = 1

    def __init__(self, layer, weight_bits=8, activation_bits=8, moving_rate=0.9,
                 weight_quantize_type="abs_max", activation_quantize_type="abs_max",
                 weight_pre_layer=None, act_pre_layer=None, weight_quant_layer=None,
                 act_quant_layer=None):
        super().__init__()
        self.name = layer.name
        self._linear_quant_axis = 1
        self._setup(layer, weight_bits, activation_bits, moving_rate, weight_quantize_type,
                    activation_quantize_type, weight_pre_layer, act_pre_layer,
                    weight_quant_layer, act_quant_layer)

    def forward(self, input):
        x, w = self._quant_inputs(input)
        return F.linear(x=x, weight=w, bias=self.bias, name=self.name)


class MAOutputScaleLayer(Layer):
    """Runs ``layer`` and records the moving-average abs-max of its (single) output."""

    def __init__(self, layer=None, moving_rate=0.9, name=None, dtype="float32",
                 reduce_type=None):
        super().__init__()
        self._layer = layer
        if name is None:
            name = layer.full_name()
        self._ma_output_scale = MovingAverageAbsMaxScale(name, moving_rate, dtype, reduce_type)

    def forward(self, *inputs, **kwargs):
        out = self._layer(*inputs, **kwargs)
        if isinstance(out, (list, tuple, dict)):
            return out
        return self._ma_output_scale(out)


class FakeQuantMAOutputScaleLayer(Layer):
    """Runs ``layer`` and fake-quantises its output with a moving-average scale."""

    def __init__(self, layer, weight_bits=8, activation_bits=8, moving_rate=0.9, name=None,
                 reduce_type=None, *args, **kwargs):
        super().__init__()
        self._layer = layer
        self._fake_quant_output = _get_fake_quant_type(
            "moving_average_abs_max", name=layer.full_name() if name is None else name,
            moving_rate=moving_rate, quant_bits=activation_bits, dtype=self._dtype,
            quant_on_weight=False, reduce_type=reduce_type)

    def forward(self, *inputs, **kwargs):
        out = self._layer(*inputs, **kwargs)
        if isinstance(out, (list, tuple)) and len(out) > 1:
            return out
        return self._fake_quant_output(out)
