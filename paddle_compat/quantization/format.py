"""The layers of a quantised model: ``QuantedLinear`` / ``QuantedConv2D`` (a layer whose
input and weight pass through quanters), ``QuanterStub`` (what a ``nn.quant.Stub``
becomes), and the quantise / dequantise pair a converted model holds (``LinearQuanter``,
``LinearDequanter``, ``LinearQuanterDequanter``; Paddle's ``nn.quant.format``).

``LinearQuanter`` computes Paddle's ``quantize_linear``: ``q = clip(round_half_even((qmax /
s) * x), qmin, qmax)`` with ``qmax = 2**(bits-1) - 1``, ``qmin = -qmax - 1`` (no clipping of
x itself), a scale per tensor (``quant_axis`` -1) or per channel; ``LinearDequanter``
``x * s / qmax``. Both compute in float32 and cast back to the input's dtype.
"""
import abc

import torch

from ..framework.param_attr import ParamAttr
from ..framework.parameter import unique_name
from ..framework.tensor import Tensor, wrap
from ..nn import functional as F
from ..nn.initializer import Constant
from ..nn.layer.layers import Layer
from ..nn.quant import _channel_view

__all__ = ["LinearQuanter", "LinearDequanter", "LinearQuanterDequanter",
           "ConvertibleQuantedLayer", "QuantedLinear", "QuantedConv2D", "QuanterStub"]


def _float32(value):
    if isinstance(value, Tensor):
        return value._t.detach().to(torch.float32)
    if value is None:
        raise TypeError("Can't constructs a 'paddle.Tensor' with data type <class 'NoneType'>, "
                        "data type must be scalar|list|tuple|np.ndarray|paddle.Tensor")
    return torch.as_tensor(value, dtype=torch.float32)


class _LinearQuantBase(Layer):
    def __init__(self, scales, zero_point=None, quant_axis=None, bit_length=8,
                 group_size=128):
        super().__init__()
        s = _float32(scales)
        # Paddle 3.3.1 fails here when the quanter has no zero points (its own
        # FakeQuanterWithAbsMaxObserver): its documented QAT.convert then crashes. We take
        # them as zeros, as the quantisation is symmetric.
        z = torch.zeros_like(s) if zero_point is None else _float32(zero_point)
        self._scales = self._make(s, "quant_dequant.scale", 1.0)
        self._zero_point = self._make(z, "quant_dequant.zero_point", 0.0)
        self._quant_axis = -1 if quant_axis is None else quant_axis
        if isinstance(bit_length, tuple):
            raise NotImplementedError(f"{type(self).__name__}: float8 formats (bit_length "
                                      f"{bit_length}) are not supported")
        self._bit_length = bit_length
        self._group_size = group_size
        self._qmax = (1 << (bit_length - 1)) - 1
        self._qmin = -self._qmax - 1
        if s.dim() > 1:
            raise NotImplementedError(f"{type(self).__name__}: group-wise scales are not "
                                      "supported")

    def _make(self, value, prefix, init):
        attr = ParamAttr(name=unique_name(prefix), initializer=Constant(init), trainable=False)
        p = self.create_parameter(shape=list(value.shape), attr=attr, dtype="float32")
        with torch.no_grad():
            p._t.copy_(value)
        return p

    def _scale_for(self, t):
        s = self._scales._t
        if self._quant_axis is None or self._quant_axis < 0:
            return s.reshape(-1)[0]
        return _channel_view(s, t.dim(), self._quant_axis)


class LinearQuanter(_LinearQuantBase):
    """Quantise to integers (kept in the input's float dtype)."""

    def forward(self, input):
        t = input._t
        x = t.to(torch.float32)
        s = self._scale_for(x)
        q = torch.round((self._qmax / s) * x).clamp(self._qmin, self._qmax)
        return wrap(q.to(t.dtype))

    @staticmethod
    def from_quanter(quanter):
        return LinearQuanter(quanter.scales(), zero_point=quanter.zero_points(),
                             quant_axis=quanter.quant_axis(), bit_length=quanter.bit_length())


class LinearDequanter(_LinearQuantBase):
    """Integers back to floats: ``x * s / qmax``."""

    def forward(self, input):
        t = input._t
        x = t.to(torch.float32)
        return wrap((x * self._scale_for(x) / self._qmax).to(t.dtype))

    @staticmethod
    def from_quanter(quanter):
        return LinearDequanter(quanter.scales(), zero_point=quanter.zero_points(),
                               quant_axis=quanter.quant_axis(), bit_length=quanter.bit_length())


class LinearQuanterDequanter(Layer):
    """A quanter followed by a dequanter (either may be None)."""

    def __init__(self, quanter, dequanter):
        super().__init__()
        self._quanter = quanter
        self._dequanter = dequanter

    def forward(self, input):
        out = input
        if self._quanter is not None:
            out = self._quanter(out)
        if self._dequanter is not None:
            out = self._dequanter(out)
        return out

    @staticmethod
    def from_quanter(quanter):
        assert quanter is not None
        return LinearQuanterDequanter(LinearQuanter.from_quanter(quanter),
                                      LinearDequanter.from_quanter(quanter))


class ConvertibleQuantedLayer(Layer, metaclass=abc.ABCMeta):
    """A quantised layer that ``convert`` turns into its deployable form: each quanter
    becomes a ``LinearQuanterDequanter`` and (unless ``remain_weight``) the weights are
    stored quantised, with only the dequanter left on them."""

    def __init__(self):
        super().__init__()
        self.converted = False

    def _set_quanters(self, layer, q_config):
        """``weight_quanter`` and ``activation_quanter`` of ``layer`` as ``q_config`` says
        (None where it gives none)."""
        self.weight_quanter = None
        self.activation_quanter = None
        if q_config.weight is not None:
            self.weight_quanter = q_config.weight._instance(layer)
        if q_config.activation is not None:
            self.activation_quanter = q_config.activation._instance(layer)

    def _quanted(self, input):
        """``(input, weight)`` passed through their quanters."""
        if self.activation_quanter is not None:
            input = self.activation_quanter(input)
        weight = self.weight
        if self.weight_quanter is not None:
            weight = self.weight_quanter(weight)
        return input, weight

    @abc.abstractmethod
    def weights_to_quanters(self):
        """Pairs ``(weight name, quanter name)``."""

    @abc.abstractmethod
    def activation_quanters(self):
        """Names of the activation quanters."""

    def _convert_quanter_to_qdq(self, quanter_name):
        quanter = getattr(self, quanter_name, None)
        if quanter is None:
            return None
        qdq = LinearQuanterDequanter.from_quanter(quanter)
        setattr(self, quanter_name, qdq)
        return qdq

    def _quant_weights(self, weight_name, quanter):
        weight = getattr(self, weight_name)
        weight.set_value(quanter(weight))

    def _convert(self, remain_weight=False):
        assert not self.converted, "The model should be converted only once."
        for weight_name, quanter_name in self.weights_to_quanters():
            qdq = self._convert_quanter_to_qdq(quanter_name)
            if qdq is not None and remain_weight is False:
                self._quant_weights(weight_name, qdq._quanter)
                qdq._quanter = None
        for quanter_name in self.activation_quanters():
            self._convert_quanter_to_qdq(quanter_name)
        self.converted = True


class QuantedLinear(ConvertibleQuantedLayer):
    """``nn.Linear`` with its input and weight passed through quanters (shares the
    Linear's weight and bias)."""

    def __init__(self, layer, q_config):
        super().__init__()
        self.weight = layer.weight
        self.bias = layer.bias
        self.name = layer.name
        self._set_quanters(layer, q_config)

    def forward(self, input):
        input, weight = self._quanted(input)
        return F.linear(x=input, weight=weight, bias=self.bias, name=self.name)

    def weights_to_quanters(self):
        return [("weight", "weight_quanter")]

    def activation_quanters(self):
        return ["activation_quanter"]


class QuantedConv2D(ConvertibleQuantedLayer):
    """``nn.Conv2D`` with its input and weight passed through quanters."""

    def __init__(self, layer, q_config):
        super().__init__()
        self._groups = layer._groups
        self._stride = layer._stride
        self._padding = layer._padding
        self._padding_mode = layer._padding_mode
        if self._padding_mode != "zeros":
            self._reversed_padding_repeated_twice = layer._reversed_padding_repeated_twice
        self._dilation = layer._dilation
        self._data_format = layer._data_format
        self.weight = layer.weight
        self.bias = layer.bias
        self._set_quanters(layer, q_config)

    def forward(self, input):
        input, weight = self._quanted(input)
        padding = self._padding
        if self._padding_mode != "zeros":
            input = F.pad(input, self._reversed_padding_repeated_twice,
                          mode=self._padding_mode, data_format=self._data_format)
            padding = 0
        return F.conv2d(input, weight, bias=self.bias, padding=padding, stride=self._stride,
                        dilation=self._dilation, groups=self._groups,
                        data_format=self._data_format)

    def weights_to_quanters(self):
        return [("weight", "weight_quanter")]

    def activation_quanters(self):
        return ["activation_quanter"]


class QuanterStub(Layer):
    """What a ``nn.quant.Stub`` becomes: its own observer if it was given one, else the
    config's activation quanter (identity when there is neither)."""

    def __init__(self, layer, q_config):
        super().__init__()
        self._observer = None
        if layer._observer is not None:
            self._observer = layer._observer._instance(layer)
        elif q_config.activation is not None:
            self._observer = q_config.activation._instance(layer)

    def forward(self, input):
        return self._observer(input) if self._observer is not None else input
