"""``paddle.optimizer.AdamW``: Adam with Paddle's decoupled weight decay.

Before the Adam update (see ``adam``) the parameter decays by the *undecayed* learning rate:
``param -= lr * lr_ratio(param) * coeff * param`` (torch's AdamW uses ``lr * coeff`` too, but
Paddle also scales Adam's step by ``lr_ratio``). ``apply_decay_param_fun(name)`` False skips
the decay for that parameter. ``lr_ratio`` is GPU-only in Paddle 3.3.1 (its CPU build raises
NotImplementedError); here it works on every device, with the GPU kernel's formula.

On float64 parameters the decay factor is ``lr * lr_ratio * coeff`` in float64 with
``lr_ratio`` and ``coeff`` float32 numbers (the kernel's float attributes), the Adam part as in
``adam``.
"""

from .adam import adam_rule, adam_scalars, adam_slots, adam_step, check_betas
from .optimizer import F64, Optimizer, attr32, f32

__all__ = ["AdamW"]


class AdamW(Optimizer):
    """Adam with decoupled weight decay ``weight_decay`` (default 0.01)."""

    _defaults = {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "lazy_mode": False,
                 "weight_decay": 0.01}

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=0.01, use_lowprecision_moment=False,
                 lr_ratio=None, apply_decay_param_fun=None, grad_clip=None, lazy_mode=False,
                 multi_precision=False, amsgrad=False, name=None):
        for value in (learning_rate, beta1, beta2, epsilon):
            if value is None:
                raise AssertionError
        check_betas(beta1, beta2, epsilon)
        if not isinstance(weight_decay, (int, float)) and not hasattr(weight_decay, "_t"):
            raise TypeError("weight_decay should be int, float or Tensor.")
        if lr_ratio is not None and not callable(lr_ratio):
            raise AssertionError("lr_ratio must be callable")
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lazy_mode = lazy_mode
        self._amsgrad = amsgrad
        self._weight_decay = float(weight_decay)
        self._lr_ratio = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun
        self._use_lowprecision_moment = use_lowprecision_moment
        super().__init__(learning_rate, parameters, None, grad_clip, name, multi_precision)
        self.type = "adamw"

    def _group_defaults(self):
        out = super()._group_defaults()
        out["weight_decay"] = self._weight_decay     # a coefficient here, not a regularizer
        return out

    def _claim(self, p, group):
        p.optimize_attr["learning_rate"] = group.get("learning_rate", 1.0)

    def _slots(self, p, group):
        return adam_slots(p, group, self._amsgrad)

    def _decay(self, param, lr, group, wide=False):
        """``(ratio, decay factor)`` of ``param``; factor 0.0 when it is not decayed."""
        ratio = 1.0 if self._lr_ratio is None else float(self._lr_ratio(param))
        fun = self._apply_decay_param_fun
        if fun is not None and not fun(param.name):
            return ratio, 0.0
        if wide:
            return ratio, lr * attr32(ratio) * attr32(group["weight_decay"])
        return ratio, float(f32(lr) * f32(ratio) * f32(group["weight_decay"]))

    def _update(self, w, g, state, lr, group, param):
        wide = w.dtype is F64
        ratio, c = self._decay(param, lr, group, wide)
        if ratio != 1.0:
            lr = lr * attr32(ratio) if wide else float(f32(lr) * f32(ratio))
        b1, b2, lr_t, eps_t = adam_scalars(state, group, lr, wide)
        if c:
            if wide:
                w.sub_(w * c)
            else:
                w.add_(w, alpha=-c)
        adam_step(w, g, state, b1, b2, lr_t, eps_t, self._amsgrad)

    def _rule(self, w, g, state, lr, group, param):
        ratio, c = self._decay(param, lr, group, w.dtype is F64)
        if c:
            w = w - w * c
        return adam_rule(w, g, state, group, lr * ratio, self._amsgrad)

    def __str__(self):
        return "Weight Decay, params:"
