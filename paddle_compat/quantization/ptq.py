"""``PTQ``: post-training quantisation (calibrate observers, then ``convert``)."""
import copy

from .quantize import Quantization

__all__ = ["PTQ"]


class PTQ(Quantization):
    """Prepares a model for post-training quantisation: observers collect the scales while
    calibration data runs through the model (in eval mode)::

        observer = AbsmaxObserver()
        ptq = PTQ(QuantConfig(activation=observer, weight=observer))
        quant_model = ptq.quantize(model.eval())
        for x in data: quant_model(x)
        deploy = ptq.convert(quant_model)
    """

    def __init__(self, config):
        super().__init__(config)

    def quantize(self, model, inplace=False):
        """Swap the configured layers for quantised ones and put observers before the
        configured leaves; the model must be in eval mode (the copy made when not
        ``inplace`` is set to eval)."""
        _model = model
        if not inplace:
            _model = copy.deepcopy(model)
            _model.eval()
        assert not model.training, ("Post-Training Quantization should not work on training "
                                    "models. Please set evaluation mode by model.eval().")
        self._config._specify(_model)
        self._convert_to_quant_layers(_model, self._config)
        self._insert_activation_observers(_model, self._config)
        return _model
