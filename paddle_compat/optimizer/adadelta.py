"""``paddle.optimizer.Adadelta``::

    Eg = rho * Eg + (1 - rho) * g * g
    d = -sqrt(Ed + epsilon) / sqrt(Eg + epsilon) * g
    param += lr * d;   Ed = rho * Ed + (1 - rho) * d * d
"""
import torch

from .optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta (accumulators ``_avg_squared_grad`` and ``_avg_squared_update``)."""

    _defaults = {"epsilon": 1e-6, "rho": 0.95}

    def __init__(self, learning_rate=0.001, epsilon=1.0e-6, rho=0.95, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        for value, what in ((learning_rate, "learning_rate"), (epsilon, "epsilon"),
                            (rho, "rho")):
            if value is None:
                raise ValueError(f"{what} is not set.")
        self._epsilon, self._rho = epsilon, rho
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "adadelta"

    def _slots(self, p, group):
        return [("_avg_squared_grad", 0.0, None, None, False),
                ("_avg_squared_update", 0.0, None, None, False)]

    def _update(self, w, g, state, lr, group, param):
        rho, eps = group["rho"], group["epsilon"]
        eg, ed = state["_avg_squared_grad"], state["_avg_squared_update"]
        eg.mul_(rho).addcmul_(g, g, value=1 - rho)
        d = torch.sqrt(ed + eps).div_(torch.sqrt(eg + eps)).mul_(g).neg_()
        w.add_(d, alpha=lr)
        ed.mul_(rho).addcmul_(d, d, value=1 - rho)
