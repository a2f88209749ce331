"""``paddle.optimizer.RAdam``: Adam with the variance of the adaptive step rectified (Liu et
al.), as Paddle's kernel does it in the parameter's dtype::

    rho_inf = 2 / (1 - b2) - 1
    beta1_pow *= b1;   beta2_pow *= b2                       (start at 1, param-shaped)
    rho = (rho * (b2 - beta2_pow) + beta2_pow) / (1 - beta2_pow)   (starts at 1)
    m = b1 * m + (1 - b1) * g;   v = b2 * v + (1 - b2) * g * g
    rho_t = rho_inf - 2 * rho
    rho_t > 5:  param -= lr * m / (1 - beta1_pow) * r_t * sqrt(1 - beta2_pow) / (sqrt(v) + eps)
                with r_t = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
    otherwise:  param -= lr * m / (1 - beta1_pow)

Paddle reads ``rho_t`` from the first element of ``rho`` (every element holds the same value).
On float64 parameters ``b1``, ``b2`` and ``eps`` are float32 numbers (the kernel's float
attributes), ``rho_inf`` and everything else float64.
"""
import numpy as np
import torch

from .adam import _scalar
from .nadam import acc_dtype, check_args
from .optimizer import F64, Optimizer, f32, sqrt_rn

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam (``weight_decay`` is an L2 term added to the gradient)."""

    _defaults = {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8}

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1.0e-8,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        check_args(learning_rate, epsilon, beta1, beta2)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "radam"

    def _slots(self, p, group):
        dtype = acc_dtype(p)
        return [("beta1_pow", 1.0, None, dtype, False), ("beta2_pow", 1.0, None, dtype, False),
                ("rho", 1.0, None, dtype, False),
                ("moment1", 0.0, None, dtype, False), ("moment2", 0.0, None, dtype, False)]

    def _rule(self, w, g, state, lr, group, param):
        b1, b2 = f32(_scalar(group["beta1"])), f32(_scalar(group["beta2"]))
        num = f32                                           # the kernel's arithmetic type
        if w.dtype is F64:
            num = np.float64
            b1, b2 = num(b1), num(b2)
        one = num(1)
        rho_inf = num(2) / (one - b2) - one
        beta1_pow = state["beta1_pow"] * float(b1)
        beta2_pow = state["beta2_pow"] * float(b2)
        rho = (state["rho"] * (float(b2) - beta2_pow) + beta2_pow) / (1.0 - beta2_pow)
        m = state["moment1"] * float(b1) + g * float(one - b1)
        v = state["moment2"] * float(b2) + g * float(one - b2) * g
        m_hat = m / (1.0 - beta1_pow)
        rho_t = float(rho_inf) - 2.0 * rho.reshape(-1)[0]           # a 0-d tensor
        r_t = sqrt_rn((rho_t - 4.0) * (rho_t - 2.0) * float(rho_inf) /
                         (float((rho_inf - num(4)) * (rho_inf - num(2))) * rho_t))
        l_t = sqrt_rn(1.0 - beta2_pow) / (sqrt_rn(v) + float(f32(group["epsilon"])))
        rectified = w - lr * m_hat * r_t * l_t
        plain = w - lr * m_hat
        new_w = torch.where(rho_t > 5.0, rectified, plain)
        return new_w, {"beta1_pow": beta1_pow, "beta2_pow": beta2_pow, "rho": rho,
                       "moment1": m, "moment2": v}
