"""Loss layers: each keeps its functional's settings as attributes (a Tensor ``weight`` becomes a
non-persistable buffer, as in Paddle) and calls the functional with them.
"""
from .. import functional as F
from .layers import Layer

__all__ = ["CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "SmoothL1Loss", "BCELoss",
           "BCEWithLogitsLoss", "KLDivLoss", "MarginRankingLoss", "PoissonNLLLoss"]


class _Loss(Layer):
    _fn = None
    _params = ()      # ((setting, default), ...) in the layer's argument order
    _reductions = ("sum", "mean", "none")

    def __init__(self, *args, **kwargs):
        super().__init__()
        names = [k for k, _ in self._params]
        values = dict(self._params, name=None)
        values.update(zip(names + ["name"], args))
        for k, v in kwargs.items():
            if k not in values:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument "
                                f"'{k}'")
            values[k] = v
        red = values.get("reduction")
        if red is not None and red not in self._reductions:
            raise ValueError(f"The value of 'reduction' in {type(self).__name__} should be "
                             f"one of {self._reductions}, but received {red}, which is not "
                             "allowed.")
        for k in names + ["name"]:
            setattr(self, k, values[k])

    def forward(self, *inputs):
        return type(self)._fn(*inputs, **{k: getattr(self, k) for k, _ in self._params})


class CrossEntropyLoss(_Loss):
    """Softmax cross entropy (hard or soft labels, class weights, label smoothing)."""

    _fn = staticmethod(F.cross_entropy)
    _params = (("weight", None), ("ignore_index", -100), ("reduction", "mean"),
               ("soft_label", False), ("axis", -1), ("use_softmax", True),
               ("label_smoothing", 0.0))


class NLLLoss(_Loss):
    _fn = staticmethod(F.nll_loss)
    _params = (("weight", None), ("ignore_index", -100), ("reduction", "mean"))


class MSELoss(_Loss):
    _fn = staticmethod(F.mse_loss)
    _params = (("reduction", "mean"),)


class L1Loss(_Loss):
    _fn = staticmethod(F.l1_loss)
    _params = (("reduction", "mean"),)


class SmoothL1Loss(_Loss):
    _fn = staticmethod(F.smooth_l1_loss)
    _params = (("reduction", "mean"), ("delta", 1.0), ("is_huber", True))


class BCELoss(_Loss):
    _fn = staticmethod(F.binary_cross_entropy)
    _params = (("weight", None), ("reduction", "mean"))


class BCEWithLogitsLoss(_Loss):
    _fn = staticmethod(F.binary_cross_entropy_with_logits)
    _params = (("weight", None), ("reduction", "mean"), ("pos_weight", None))


class KLDivLoss(_Loss):
    _fn = staticmethod(F.kl_div)
    _reductions = ("sum", "mean", "none", "batchmean")
    _params = (("reduction", "mean"), ("log_target", False))


class MarginRankingLoss(_Loss):
    _fn = staticmethod(F.margin_ranking_loss)
    _params = (("margin", 0.0), ("reduction", "mean"))


class PoissonNLLLoss(_Loss):
    _fn = staticmethod(F.poisson_nll_loss)
    _params = (("log_input", True), ("full", False), ("epsilon", 1e-8), ("reduction", "mean"))
