"""``paddle.quantization.quanters``: the fake quanters of quantisation-aware training.

``FakeQuanterWithAbsMaxObserver`` (Paddle 3.3.1's only one) computes Paddle's
``fake_quantize_dequantize_moving_average_abs_max`` (CPU, float32 only): in training
``state = rate * state + 1``, ``accum = rate * accum + max|x|``, ``scale = accum / state``
(state and accum start at 1, the scale at 0.001), then ``x`` is clipped to ``[-scale,
scale]``, quantised with ties rounded away from zero and dequantised; in eval the stored
scale is used as it is. The gradient passes straight through (identity, not masked by the
clip), as Paddle's.
"""
import torch

from ..framework.tensor import wrap
from ..nn.quant import _abs_max, _buffer_param, _fake_qdq, _moving_average_update
from .base_quanter import BaseQuanter
from .factory import QuanterFactory

__all__ = ["FakeQuanterWithAbsMaxObserver"]


class FakeQuanterWithAbsMaxObserver(QuanterFactory):
    """Factory of ``FakeQuanterWithAbsMaxObserverLayer`` (moving-average abs-max scale)."""

    def __init__(self, moving_rate=0.9, bit_length=8, dtype="float32", name=None):
        super().__init__(name=name, moving_rate=moving_rate, bit_length=bit_length,
                         dtype=dtype)

    def _get_class(self):
        return FakeQuanterWithAbsMaxObserverLayer


class FakeQuanterWithAbsMaxObserverLayer(BaseQuanter):
    """Fake quantisation with a moving-average abs-max scale (see the module doc)."""

    def __init__(self, layer, name=None, moving_rate=0.9, bit_length=8, dtype="float32"):
        super().__init__()
        self._moving_rate = moving_rate
        self._bit_length = bit_length
        pre = name if name else "quant_dequant"
        self._scale = _buffer_param(self, f"{pre}.scale", 0.001, dtype)
        self._state = _buffer_param(self, f"{pre}.state", 1.0, dtype)
        self._accum = _buffer_param(self, f"{pre}.accum", 1.0, dtype)

    def forward(self, input):
        t = input._t
        if t.dtype != torch.float32:
            raise RuntimeError(
                "(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                f"{str(t.dtype).replace('torch.', '')}) of kernel "
                "`fake_quantize_dequantize_moving_average_abs_max` is not registered. "
                "Paddle support following DataTypes: float32.")
        if self.training:
            _moving_average_update(_abs_max(t), self._scale, self._state, self._accum,
                                   self._moving_rate)
        return wrap(_fake_qdq(t, self._scale._t.detach(), self._bit_length))

    def bit_length(self):
        return self._bit_length

    def quant_axis(self):
        return -1

    def scales(self):
        return self._scale

    def zero_points(self):
        return None
