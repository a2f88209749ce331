"""``paddle.optimizer.Adagrad``: ``m += g * g``; ``param -= lr * g / (sqrt(m) + epsilon)``.

On float64 parameters ``epsilon`` is a float32 number (the kernel's float attribute); the
learning rate and the starting ``initial_accumulator_value`` are float64.
"""

from .optimizer import F64, Optimizer, attr32, sqrt_rn

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad; the ``moment`` accumulator starts at ``initial_accumulator_value``."""

    _defaults = {"epsilon": 1e-6, "initial_accumulator_value": 0.0}

    def __init__(self, learning_rate, epsilon=1.0e-6, parameters=None, weight_decay=None,
                 grad_clip=None, name=None, initial_accumulator_value=0.0):
        if learning_rate is None or epsilon is None:
            raise AssertionError
        self._epsilon = epsilon
        self._initial_accumulator_value = initial_accumulator_value
        self.initial_accumulator_value = initial_accumulator_value
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "adagrad"

    def _slots(self, p, group):
        return [("moment", float(group["initial_accumulator_value"]), None, None, False)]

    def _update(self, w, g, state, lr, group, param):
        m = state["moment"]
        if w.dtype is F64:
            m.add_(g * g)
            w.sub_((g * lr).div_(sqrt_rn(m).add_(attr32(group["epsilon"]))))
            return
        m.addcmul_(g, g)
        w.addcdiv_(g, m.sqrt().add_(group["epsilon"]), value=-lr)

    def _rule(self, w, g, state, lr, group, param):
        m = state["moment"] + g * g
        return w - g * lr / (sqrt_rn(m) + attr32(group["epsilon"])), {"moment": m}
