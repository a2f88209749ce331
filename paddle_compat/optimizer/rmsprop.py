"""``paddle.optimizer.RMSProp``. Paddle puts epsilon *inside* the square root::

    ms = rho * ms + (1 - rho) * g * g
    mg = rho * mg + (1 - rho) * g                      (centered only)
    mom = momentum * mom + lr * g / sqrt(ms - mg * mg + epsilon)   (mg = 0 if not centered)
    param -= mom

(torch's RMSprop adds epsilon after the square root.) On float64 parameters ``rho``,
``epsilon`` and ``momentum`` are float32 numbers (the kernel's float attributes), the learning
rate float64.
"""
import torch

from .optimizer import F64, Optimizer, attr32, sqrt_rn

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    """RMSProp with optional momentum and centering."""

    _defaults = {"rho": 0.95, "epsilon": 1e-6, "momentum": 0.0, "centered": False}

    def __init__(self, learning_rate, rho=0.95, epsilon=1.0e-6, momentum=0.0, centered=False,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        for value, what in ((learning_rate, "learning_rate"), (rho, "rho"),
                            (epsilon, "epsilon"), (momentum, "momentum")):
            if value is None:
                raise ValueError(f"{what} is not set.")
        for value, what in ((epsilon, "epsilon"), (momentum, "momentum"), (rho, "rho")):
            if not 0.0 <= value:
                raise ValueError(f"Invalid value of {what}, expect {what} >= 0.")
        self._rho, self._epsilon, self._momentum = rho, epsilon, momentum
        self._centered = centered
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "rmsprop"

    def _slots(self, p, group):
        return [("momentum", 0.0, None, None, False), ("mean_square", 0.0, None, None, False),
                ("mean_grad", 0.0, None, None, False)]

    def _update(self, w, g, state, lr, group, param):
        ms, mom = state["mean_square"], state["momentum"]
        if w.dtype is F64:
            rho, eps = attr32(group["rho"]), attr32(group["epsilon"])
            ms.mul_(rho).add_(g * (1.0 - rho) * g)
            if group["centered"]:
                mg = state["mean_grad"]
                mg.mul_(rho).add_(g * (1.0 - rho))
                denom = sqrt_rn(ms - mg * mg + eps)
            else:
                denom = sqrt_rn(ms + eps)
            mom.mul_(attr32(group["momentum"])).add_((g * lr).div_(denom))
            w.sub_(mom)
            return
        rho, eps = group["rho"], group["epsilon"]
        ms.mul_(rho).addcmul_(g, g, value=1 - rho)
        if group["centered"]:
            mg = state["mean_grad"]
            mg.mul_(rho).add_(g, alpha=1 - rho)
            denom = torch.sqrt(ms - mg * mg + eps)
        else:
            denom = torch.sqrt(ms + eps)
        mom.mul_(group["momentum"]).addcdiv_(g, denom, value=lr)
        w.sub_(mom)

    def _rule(self, w, g, state, lr, group, param):
        rho, eps, mu = group["rho"], group["epsilon"], group["momentum"]
        if w.dtype is F64:
            rho, eps, mu = attr32(rho), attr32(eps), attr32(mu)
        ms = state["mean_square"] * rho + g * g * (1 - rho)
        mg = state["mean_grad"]
        if group["centered"]:
            mg = mg * rho + g * (1 - rho)
            denom = sqrt_rn(ms - mg * mg + eps)
        else:
            denom = sqrt_rn(ms + eps)
        mom = state["momentum"] * mu + g * lr / denom
        return w - mom, {"mean_square": ms, "mean_grad": mg, "momentum": mom}
