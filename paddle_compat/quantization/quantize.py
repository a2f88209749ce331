"""``Quantization``: what ``QAT`` and ``PTQ`` share (swapping layers, inserting observers,
``convert``)."""
import abc
import copy

from .base_quanter import BaseQuanter
from .format import ConvertibleQuantedLayer, LinearQuanterDequanter

__all__ = ["Quantization"]


class Quantization(metaclass=abc.ABCMeta):
    """Prepares a copy of a model for calibration or quantisation-aware training."""

    def __init__(self, config):
        self._config = copy.deepcopy(config)

    @abc.abstractmethod
    def quantize(self, model, inplace=False):
        pass

    def convert(self, model, inplace=False, remain_weight=False):
        """The deployable form of a quantised model: every quanter becomes a quantise /
        dequantise pair with its scales, and the weights are stored quantised (integers
        in float) unless ``remain_weight``."""
        _model = model if inplace else copy.deepcopy(model)
        replaced = {}
        for name, child in _model.named_children():
            if isinstance(child, ConvertibleQuantedLayer):
                if child.converted:
                    continue
                if hasattr(child, "weight_quanter") and (
                        child.weight_quanter is None or child.weight_quanter.scales() is None):
                    continue
                child._convert(remain_weight=remain_weight)
            elif isinstance(child, BaseQuanter):
                replaced[name] = LinearQuanterDequanter.from_quanter(child)
            else:
                self.convert(child, inplace=True, remain_weight=remain_weight)
        for key, value in replaced.items():
            _model._sub_layers[key] = value
        return _model

    def _convert_to_quant_layers(self, model, config):
        replaced = {}
        for name, child in model.named_children():
            if config._is_quantifiable(child) and type(child) in config.qat_layer_mappings:
                replaced[name] = config._get_qat_layer(child)
            else:
                self._convert_to_quant_layers(child, config)
        for key, value in replaced.items():
            model._sub_layers[key] = value

    def _insert_activation_observers(self, model, config):
        replaced = {}
        quantized = set(config._qat_layer_mapping.values()) | set(
            config._customized_qat_layer_mapping.values())
        for name, child in model.named_children():
            if config._need_observe(child):
                replaced[name] = config._get_observe_wrapper(child)
            elif type(child) not in quantized:
                self._insert_activation_observers(child, config)
        for key, value in replaced.items():
            model._sub_layers[key] = value

    def _details(self):
        return self._config.details()

    def __str__(self):
        return self._details()

    __repr__ = __str__
