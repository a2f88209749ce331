"""``paddle.optimizer.Adamax``: Adam with the infinity norm::

    m = b1 * m + (1 - b1) * g;   u = max(|g|, b2 * u + epsilon)
    param -= lr / (1 - b1^t) * m / u

On float64 parameters ``beta1``, ``beta2`` and ``epsilon`` are float32 numbers (the kernel's
float attributes); the learning rate and ``b1^t`` (a float64 accumulator, advanced by the exact
``beta1`` after the group's updates) are float64.
"""
import torch

from .adam import _scalar, check_betas
from .optimizer import F64, Optimizer, _HALF, attr32, f32

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax; ``beta1_pow_acc`` advances after the whole group is updated."""

    _defaults = {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8}

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        check_betas(beta1, beta2, epsilon)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "adamax"

    def _slots(self, p, group):
        dtype = torch.float32 if p._t.dtype in _HALF else None
        return [("moment", 0.0, None, dtype, False), ("inf_norm", 0.0, None, dtype, False),
                ("beta1_pow_acc", _scalar(group["beta1"]), [1], None, False)]

    def _update(self, w, g, state, lr, group, param):
        m, u = state["moment"], state["inf_norm"]
        if w.dtype is F64:
            b1, b2 = attr32(group["beta1"]), attr32(group["beta2"])
            m.mul_(b1).add_(g * (1.0 - b1))
            torch.maximum(g.abs(), u.mul_(b2).add_(attr32(group["epsilon"])), out=u)
            w.sub_((m / u).mul_(lr / (1.0 - state["beta1_pow_acc"].item())))
            return
        b1, b2 = f32(group["beta1"]), f32(group["beta2"])
        m.mul_(float(b1)).add_(g, alpha=float(f32(1) - b1))
        torch.maximum(g.abs(), u.mul_(float(b2)).add_(group["epsilon"]), out=u)
        lr_t = f32(lr) / (f32(1) - f32(state["beta1_pow_acc"].item()))
        w.sub_((m / u).mul_(float(lr_t)))

    def _finish(self, params, states, group):
        for st in states:
            st["beta1_pow_acc"].mul_(group["beta1"])
