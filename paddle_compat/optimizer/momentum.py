"""``paddle.optimizer.Momentum``: heavy-ball or Nesterov momentum.

Paddle's form: ``v = mu * v + g``; ``param -= lr * v`` (Nesterov:
``param -= lr * (g + mu * v)``), with ``g = grad * rescale_grad + l2_coeff * param``.
(Paddle 3.3.1's CPU kernel ignores ``rescale_grad``; its docs and GPU kernel apply it, as we do.)

An L2 decay (the optimizer's ``weight_decay`` as a number or ``L2Decay``, or a parameter's own
``L2Decay``) is fused into Paddle's kernel, whose coefficient, ``mu`` and ``rescale_grad`` are
float32 attributes: on float64 parameters they are float32 numbers, the learning rate is exact.
"""
from ..regularizer import L2Decay
from .optimizer import F32, F64, Optimizer, attr32

__all__ = ["Momentum"]


class Momentum(Optimizer):
    """Momentum SGD; ``use_nesterov`` for Nesterov's variant."""

    _defaults = {"momentum": 0.9, "use_nesterov": False, "rescale_grad": 1.0}

    def __init__(self, learning_rate=0.001, momentum=0.9, parameters=None, use_nesterov=False,
                 weight_decay=None, grad_clip=None, multi_precision=False, rescale_grad=1.0,
                 use_multi_tensor=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if momentum is None:
            raise ValueError("momentum is not set")
        self._momentum = momentum
        self._use_nesterov = bool(use_nesterov)
        self._rescale_grad = rescale_grad
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name,
                         multi_precision)
        self.type = "momentum"

    def _slots(self, p, group):
        return [("velocity", 0.0, None, None, False)]

    def _regularized(self, params, grads, group):
        scale = group["rescale_grad"]
        if scale != 1.0:
            grads = [g * (attr32(scale) if g.dtype is F64 else scale) for g in grads]
        return super()._regularized(params, grads, group)

    def _decay_term(self, reg, t):
        if t.dtype is F64 and isinstance(reg, L2Decay):   # fused: a float attribute
            return t * attr32(reg._coeff)
        return reg._term(t)

    def _update(self, w, g, state, lr, group, param):
        mu = group["momentum"]
        v = state["velocity"]
        if w.dtype is F64:
            mu = attr32(mu)
            v.mul_(mu).add_(g)
            w.sub_((g + v * mu) * lr if group["use_nesterov"] else v * lr)
            return
        v.mul_(mu).add_(g)
        if group["use_nesterov"]:
            w.sub_((g + v * mu) * lr)
        elif w.dtype is F32:
            w.sub_(v * lr)          # two roundings, as Paddle's kernel (not a fused add)
        else:
            w.add_(v, alpha=-lr)

    def _rule(self, w, g, state, lr, group, param):
        mu = attr32(group["momentum"]) if w.dtype is F64 else group["momentum"]
        v = state["velocity"] * mu + g
        step = (g + v * mu) * lr if group["use_nesterov"] else v * lr
        return w - step, {"velocity": v}
