"""``paddle.regularizer``: weight decay added to a parameter's gradient by the optimizer.

``L2Decay(c)`` adds ``c * param``, ``L1Decay(c)`` adds ``c * sign(param)``. A regularizer set on
a parameter (``ParamAttr(regularizer=...)``) wins over the optimizer's ``weight_decay``.
"""
import torch

from .framework.tensor import wrap

__all__ = ["WeightDecayRegularizer", "L1Decay", "L2Decay"]


class WeightDecayRegularizer:
    """Base class: ``term(param)`` is what gets added to the gradient."""

    def __init__(self, coeff=0.0):
        if coeff is None:
            raise AssertionError("coeff must not be None")
        self._coeff = coeff

    def _term(self, p):
        """The decay term for the torch tensor (or static proxy) ``p``."""
        raise NotImplementedError

    def __call__(self, param, grad=None, block=None):
        return wrap(self._term(param._t))

    def __str__(self):
        return f"{type(self).__name__}, coeff={self._coeff:f}"


class L1Decay(WeightDecayRegularizer):
    """Adds ``coeff * sign(param)`` to the gradient (a Lasso penalty)."""

    def _term(self, p):
        return torch.sign(p) * self._coeff


class L2Decay(WeightDecayRegularizer):
    """Adds ``coeff * param`` to the gradient (a ridge penalty)."""

    def _term(self, p):
        return p * self._coeff
