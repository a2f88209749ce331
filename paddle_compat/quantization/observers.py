"""``paddle.quantization.observers``: observers of post-training quantisation.

``AbsmaxObserver``: the scale is the largest ``|x|`` seen (one value per tensor). Its layer
returns the input unchanged; ``scales()`` fixes the scale at the first call.
"""
import torch

from ..framework.tensor import wrap
from .base_observer import BaseObserver
from .factory import ObserverFactory

__all__ = ["AbsmaxObserver", "GroupWiseWeightObserver"]


class AbsmaxObserver(ObserverFactory):
    """Factory of ``AbsmaxObserverLayer``."""

    def __init__(self, quant_bits=8):
        super().__init__(quant_bits=quant_bits)

    def _get_class(self):
        return AbsmaxObserverLayer


class AbsmaxObserverLayer(BaseObserver):
    """Keeps the running ``max |x|`` (a 0-d Tensor) of what passes through."""

    INIT_ABS_MAX = 1e-7

    def __init__(self, layer, quant_bits=8):
        super().__init__()
        self._quant_bits = quant_bits
        self.abs_max_val = wrap(torch.tensor(AbsmaxObserverLayer.INIT_ABS_MAX))
        self._max = None
        self._scale = None
        self._zero_point = None

    def forward(self, input):
        self._min, self._max = self.cal_min_max(input)
        return input

    def cal_min_max(self, inputs):
        t = inputs._t
        m = t.abs().max()
        if self._max is not None:
            m = torch.maximum(m, self._max._t.to(t.dtype))
        return 0, wrap(m)

    def bit_length(self):
        return self._quant_bits

    def quant_axis(self):
        return -1

    def cal_thresholds(self):
        if self._scale is None:
            self._scale = self._max
        self._zero_point = wrap(torch.zeros_like(self._scale._t))

    def scales(self):
        if self._scale is None:
            self.cal_thresholds()
        return self._scale

    def zero_points(self):
        return self._zero_point


class GroupWiseWeightObserver(ObserverFactory):
    """Group-wise weight observer (Paddle's weight-only group quantisation): not supported."""

    def __init__(self, quant_bits=8, group_size=128):
        raise NotImplementedError("paddle.quantization.observers.GroupWiseWeightObserver is "
                                  "not supported by paddle_compat (group-wise scales)")

    def _get_class(self):
        raise NotImplementedError
