"""``paddle.optimizer.Adam`` and the Adam arithmetic AdamW shares.

Paddle's kernel folds the bias corrections into the step size and epsilon, in float32::

    m = b1 * m + (1 - b1) * g;   v = b2 * v + (1 - b2) * g * g
    lr_t = lr * sqrt(1 - b2^t) / (1 - b1^t);   eps_t = eps * sqrt(1 - b2^t)
    param -= lr_t * m / (sqrt(v) + eps_t)        (amsgrad: v -> running max of v)

``b1^t``/``b2^t`` are the ``beta1_pow_acc``/``beta2_pow_acc`` accumulators (shape [1], on the
CPU), starting at ``b1``/``b2`` and multiplied by them after each update.

On float64 parameters everything is float64: the learning rate, the beta powers (float64
accumulators) and ``beta1``/``beta2``/``epsilon`` (the kernel's scalar arguments, exact), each
product and quotient rounded in the order written above.
"""
import numpy as np
import torch

from .optimizer import F64, Optimizer, _HALF, f32, sqrt_rn

__all__ = ["Adam"]


def check_betas(beta1, beta2, epsilon):
    for value, what in ((beta1, "beta1"), (beta2, "beta2")):
        if not hasattr(value, "_t") and not 0 <= value < 1:
            raise ValueError(f"Invalid value of {what}, expect {what} in [0,1).")
    if not hasattr(epsilon, "_t") and not 0 <= epsilon:
        raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")


def _scalar(x):
    return float(x) if not hasattr(x, "_t") else float(x.item())


def _static_value(x):
    """The payload of a static-mode Variable (a beta given as a Variable), else None."""
    t = getattr(x, "_t", None)
    return None if t is None or isinstance(t, torch.Tensor) else t


def _beta(x):
    """A beta for the static update: a Variable's payload (its value comes when the program
    runs), else the number."""
    v = _static_value(x)
    return _scalar(x) if v is None else v.reshape([])


def adam_slots(p, group, amsgrad):
    dtype = torch.float32 if p._t.dtype in _HALF else None
    slots = [("moment1", 0.0, None, dtype, False), ("moment2", 0.0, None, dtype, False)]
    if amsgrad:
        slots.append(("moment2_max", 0.0, None, dtype, False))
    # a beta given as a static Variable: the powers start at Paddle's defaults, 0.9 and 0.999
    b1 = 0.9 if _static_value(group["beta1"]) is not None else _scalar(group["beta1"])
    b2 = 0.999 if _static_value(group["beta2"]) is not None else _scalar(group["beta2"])
    return slots + [("beta1_pow_acc", b1, [1], dtype, True),
                    ("beta2_pow_acc", b2, [1], dtype, True)]


def adam_scalars(state, group, lr, wide=False):
    """``(b1, b2, lr_t, eps_t)`` for this step, float32 numbers (float64 ones when ``wide``);
    advances the beta powers."""
    num = np.float64 if wide else f32
    b1, b2 = num(_scalar(group["beta1"])), num(_scalar(group["beta2"]))
    p1, p2 = state["beta1_pow_acc"], state["beta2_pow_acc"]
    b1p, b2p = num(p1.item()), num(p2.item())
    one = num(1)
    root = np.sqrt(one - b2p)
    lr_t = num(lr) * (root / (one - b1p))
    eps_t = num(_scalar(group["epsilon"])) * root
    p1.fill_(float(b1 * b1p))
    p2.fill_(float(b2 * b2p))
    return b1, b2, float(lr_t), float(eps_t)


def adam_step(w, g, state, b1, b2, lr_t, eps_t, amsgrad):
    """The in-place moment and parameter update."""
    m, v = state["moment1"], state["moment2"]
    if w.dtype is F64:                # float64: Paddle's roundings, no fused multiply-adds
        one = np.float64(1)
        m.mul_(float(b1)).add_(g * float(one - b1))
        v.mul_(float(b2)).add_(g * float(one - b2) * g)
        if amsgrad:
            v = torch.maximum(state["moment2_max"], v, out=state["moment2_max"])
        w.sub_(m.div(sqrt_rn(v).add_(eps_t)).mul_(lr_t))
        return
    one = f32(1)
    m.mul_(float(b1)).add_(g, alpha=float(one - b1))
    v.mul_(float(b2)).addcmul_(g, g, value=float(one - b2))
    if amsgrad:
        v = torch.maximum(state["moment2_max"], v, out=state["moment2_max"])
    w.addcdiv_(m, v.sqrt().add_(eps_t), value=-lr_t)


def adam_rule(w, g, state, group, lr, amsgrad):
    """The same update without in-place ops (static mode): returns ``(new_w, new_state)``."""
    b1, b2 = _beta(group["beta1"]), _beta(group["beta2"])
    p1, p2 = state["beta1_pow_acc"], state["beta2_pow_acc"]
    root = torch.sqrt(1 - p2)
    lr_t = (root / (1 - p1)) * lr
    eps_t = root * _scalar(group["epsilon"])
    m = state["moment1"] * b1 + g * (1 - b1)
    v = state["moment2"] * b2 + g * g * (1 - b2)
    new = {"moment1": m, "moment2": v, "beta1_pow_acc": p1 * b1, "beta2_pow_acc": p2 * b2}
    if amsgrad:
        v = new["moment2_max"] = torch.maximum(state["moment2_max"], v)
    return w - lr_t * (m / (sqrt_rn(v) + eps_t)), new


class Adam(Optimizer):
    """Adam (``weight_decay`` is an L2 term added to the gradient; see AdamW for decoupled)."""

    _defaults = {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "lazy_mode": False}

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode=False,
                 multi_precision=False, use_multi_tensor=False, amsgrad=False, name=None):
        for value in (learning_rate, beta1, beta2, epsilon):
            if value is None:
                raise AssertionError
        check_betas(beta1, beta2, epsilon)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lazy_mode = lazy_mode
        self._amsgrad = amsgrad
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name,
                         multi_precision)
        self.type = "adam"

    def step(self):
        """As ``Optimizer.step``; Paddle refuses an L2 ``weight_decay`` for parameters whose
        gradient is sparse (a ``sparse=True`` embedding's weight)."""
        if self.regularization is not None and type(self) is Adam:
            for group in self._param_groups:
                for p in group["params"]:
                    if p.__dict__.get("_sparse_grad") and p._t.grad is not None:
                        raise RuntimeError("Adam don't support weight_decay with sparse "
                                           "parameters, please set it to None.")
        return super().step()

    def _slots(self, p, group):
        return adam_slots(p, group, self._amsgrad)

    def _update(self, w, g, state, lr, group, param):
        b1, b2, lr_t, eps_t = adam_scalars(state, group, lr, w.dtype is F64)
        adam_step(w, g, state, b1, b2, lr_t, eps_t, self._amsgrad)

    def _rule(self, w, g, state, lr, group, param):
        return adam_rule(w, g, state, group, lr, self._amsgrad)
