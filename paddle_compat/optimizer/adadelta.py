"""``paddle.optimizer.Adadelta``::

    Eg = rho * Eg + (1 - rho) * g * g
    d = -sqrt(Ed + epsilon) / sqrt(Eg + epsilon) * g
    param += lr * d;   Ed = rho * Ed + (1 - rho) * d * d

On float64 parameters ``rho`` and ``epsilon`` are float32 numbers (the kernel's float
attributes), the learning rate float64.
"""
import torch

from .optimizer import F64, Optimizer, attr32, sqrt_rn

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
        eg, ed = state["_avg_squared_grad"], state["_avg_squared_update"]
        if w.dtype is F64:
            rho, eps = attr32(group["rho"]), attr32(group["epsilon"])
            eg.mul_(rho).add_((g * g).mul_(1.0 - rho))
            d = sqrt_rn(ed + eps).div_(sqrt_rn(eg + eps)).mul_(g).neg_()
            w.add_(d * lr)
            ed.mul_(rho).add_((d * d).mul_(1.0 - rho))
            return
        rho, eps = group["rho"], group["epsilon"]
        eg.mul_(rho).addcmul_(g, g, value=1 - rho)
        d = torch.sqrt(ed + eps).div_(torch.sqrt(eg + eps)).mul_(g).neg_()
        w.add_(d, alpha=lr)
        ed.mul_(rho).addcmul_(d, d, value=1 - rho)
