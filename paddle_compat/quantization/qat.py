"""``QAT``: quantisation-aware training."""
import copy

from .quantize import Quantization

__all__ = ["QAT"]


class QAT(Quantization):
    """Prepares a model for quantisation-aware training::

        quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        qat = QAT(QuantConfig(activation=quanter, weight=quanter))
        quant_model = qat.quantize(model)       # Linear -> QuantedLinear, ReLU observed ...
        ... train ...
        deploy = qat.convert(quant_model)
    """

    def __init__(self, config):
        super().__init__(config)

    def quantize(self, model, inplace=False):
        """Swap the configured layers for quantised ones and put fake quanters before the
        configured leaves; the model must be in training mode."""
        assert model.training, ("Quantization-Aware Training should work on training models. "
                                "Please set training mode by model.train().")
        _model = model if inplace else copy.deepcopy(model)
        self._config._specify(_model)
        self._convert_to_quant_layers(_model, self._config)
        self._insert_activation_observers(_model, self._config)
        return _model
