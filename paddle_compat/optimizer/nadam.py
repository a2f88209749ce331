"""``paddle.optimizer.NAdam``: Adam with Nesterov momentum (Dozat), as Paddle's kernel does it
in the parameter's dtype::

    decay_pow *= 0.96;   beta2_pow *= b2                      (start at 1, param-shaped)
    mu_t  = b1 * (1 - 0.5 * decay_pow ** psi)
    mu_t1 = b1 * (1 - 0.5 * decay_pow ** psi * 0.96 ** psi)
    mu_product *= mu_t
    m = b1 * m + (1 - b1) * g;   v = b2 * v + (1 - b2) * g * g
    m_hat = mu_t1 * m / (1 - mu_product * mu_t1) + (1 - mu_t) * g / (1 - mu_product)
    param -= lr * m_hat / (sqrt(v / (1 - beta2_pow)) + epsilon)

``psi`` is ``momentum_decay``. The accumulators (``momentum_decay_pow``, ``beta2_pow``,
``mu_product``, ``moment1``, ``moment2``) all have the parameter's shape, as in Paddle. On
float64 parameters ``b1``, ``b2``, ``epsilon`` and ``psi`` are float32 numbers (the kernel's
float attributes), 0.96 and everything else float64.
"""
import numpy as np
import torch

from .adam import _scalar
from .optimizer import F64, Optimizer, _HALF, f32, sqrt_rn

__all__ = ["NAdam"]


def check_args(learning_rate, epsilon, beta1, beta2):
    """The constructor checks NAdam and RAdam share (Paddle's ValueError messages)."""
    if isinstance(learning_rate, (float, int)) and not 0.0 <= learning_rate:
        raise ValueError(f"Invalid learning rate: {learning_rate}, expect learning_rate >= 0.")
    if not 0.0 <= epsilon:
        raise ValueError(f"Invalid epsilon value: {epsilon}, expect epsilon >= 0.")
    if not 0.0 <= _scalar(beta1) < 1.0:
        raise ValueError(f"Invalid beta1: {beta1}, expect 0. <= beta1 < 1.0.")
    if not 0.0 <= _scalar(beta2) < 1.0:
        raise ValueError(f"Invalid beta2: {beta2}, expect 0. <= beta2 < 1.0.")


def acc_dtype(p):
    return torch.float32 if p._t.dtype in _HALF else None


class NAdam(Optimizer):
    """NAdam (``weight_decay`` is an L2 term added to the gradient)."""

    _defaults = {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "momentum_decay": 0.004}

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, epsilon=1.0e-8,
                 momentum_decay=0.004, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        check_args(learning_rate, epsilon, beta1, beta2)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}, expect "
                             "momentum_decay >= 0.")
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._momentum_decay = momentum_decay
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "nadam"

    def _slots(self, p, group):
        dtype = acc_dtype(p)
        return [("momentum_decay_pow", 1.0, None, dtype, False),
                ("beta2_pow", 1.0, None, dtype, False),
                ("mu_product", 1.0, None, dtype, False),
                ("moment1", 0.0, None, dtype, False), ("moment2", 0.0, None, dtype, False)]

    def _rule(self, w, g, state, lr, group, param):
        b1, b2 = f32(_scalar(group["beta1"])), f32(_scalar(group["beta2"]))
        psi = f32(group["momentum_decay"])
        num = f32                                           # the kernel's arithmetic type
        if w.dtype is F64:
            num = np.float64
            b1, b2, psi = num(b1), num(b2), num(psi)
        one = num(1)
        decay_pow = state["momentum_decay_pow"] * float(num(0.96))
        beta2_pow = state["beta2_pow"] * float(b2)
        powed = torch.pow(decay_pow, float(psi))
        mu_t = (1.0 - powed * 0.5) * float(b1)
        mu_t1 = (1.0 - powed * 0.5 * float(np.power(num(0.96), psi))) * float(b1)
        mu_product = state["mu_product"] * mu_t
        mu_product_t1 = mu_product * mu_t1
        m = state["moment1"] * float(b1) + g * float(one - b1)
        v = state["moment2"] * float(b2) + g * float(one - b2) * g
        m_hat = mu_t1 * m / (1.0 - mu_product_t1) + (1.0 - mu_t) * g / (1.0 - mu_product)
        v_hat = v / (1.0 - beta2_pow)
        new_w = w - lr * m_hat / (sqrt_rn(v_hat) + float(f32(group["epsilon"])))
        return new_w, {"momentum_decay_pow": decay_pow, "beta2_pow": beta2_pow,
                       "mu_product": mu_product, "moment1": m, "moment2": v}
