"""``paddle.optimizer.ASGD``: Paddle's "averaged" SGD, a stochastic average gradient (SAG)
over the last ``batch_num`` gradients::

    m += 1;   i = (m - 1) % batch_num;   n = min(m, batch_num)
    d = d - y[i] + g;   y[i] = g
    param -= (lr / n) * d

``d`` (parameter-shaped), ``y`` (``[batch_num, *shape]``, the remembered gradients) and ``m``
(int64 ``[1]``, the step count) are the accumulators, named as Paddle names them. On float64
parameters ``lr / n`` is a float64 quotient.
"""
import torch

from .optimizer import F64, Optimizer, f32

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """ASGD (``weight_decay`` is an L2 term added to the gradient)."""

    def __init__(self, learning_rate=0.001, batch_num=1, parameters=None, weight_decay=None,
                 grad_clip=None, multi_precision=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate should not be none")
        if batch_num is None:
            raise ValueError("batch_num should not be none")
        if not 0 < batch_num:
            raise ValueError("batch_num should be greater than 0")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name,
                         multi_precision)
        self._n = batch_num
        self.type = "asgd"

    def _slots(self, p, group):
        return [("d", 0.0, None, None, False),
                ("y", 0.0, [self._n, *list(p.shape)], None, False),
                ("m", 0.0, [1], torch.int64, False)]

    def _update(self, w, g, state, lr, group, param):
        m = state["m"]
        index = int(m.item()) % self._n
        m.add_(1)
        n = f32(min(int(m.item()), self._n))
        d, y = state["d"], state["y"][index]
        d.sub_(y).add_(g)
        y.copy_(g)
        w.sub_(d * (lr / float(n) if w.dtype is F64 else float(f32(lr) / n)))
