"""``paddle.optimizer.Rprop``: resilient backpropagation; each element has its own step size
(the ``learning_rates`` accumulator, starting at ``learning_rate``), and only the sign of the
gradient is used::

    s = g * prev
    s > 0: lr_e *= eta_plus;   s < 0: lr_e *= eta_minus and g = 0;   s == 0: lr_e kept
    lr_e = clip(lr_e, lr_min, lr_max)
    param -= sign(g) * lr_e;   prev = g

The optimizer's own learning rate is only the starting step size (Paddle has no
``weight_decay`` argument for Rprop). The ranges and etas are tensors of the (first)
parameter's dtype: exact on float64 parameters.
"""
import torch

from .optimizer import F64, Optimizer, f32

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop with ``learning_rate_range = (lr_min, lr_max)`` and ``etas = (eta_minus,
    eta_plus)``."""

    def __init__(self, learning_rate=0.001, learning_rate_range=(1e-5, 50), parameters=None,
                 etas=(0.5, 1.2), grad_clip=None, multi_precision=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if not 0.0 < learning_rate_range[0] <= learning_rate <= learning_rate_range[1]:
            raise ValueError("'0.0 < learning_rate_range[0] <= learning_rate <= "
                             "learning_rate_range[1]' must be true")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError("'0.0 < etas[0] < 1.0 < etas[1]' must be true")
        super().__init__(learning_rate, parameters, 0.0, grad_clip, name, multi_precision)
        self._initial_learning_rate = learning_rate
        self._learning_rate_range = tuple(learning_rate_range)
        self._etas = tuple(etas)
        self.type = "rprop"

    def _slots(self, p, group):
        return [("prevs", 0.0, None, None, False),
                ("learning_rates", float(self._initial_learning_rate), None, None, False)]

    def _rule(self, w, g, state, lr, group, param):
        num = float if w.dtype is F64 else f32
        lo, hi = (float(num(v)) for v in self._learning_rate_range)
        eta_minus, eta_plus = (float(num(v)) for v in self._etas)
        s = g * state["prevs"]
        eta = torch.where(s > 0, eta_plus, torch.where(s < 0, eta_minus, torch.ones_like(g)))
        g = torch.where(s < 0, torch.zeros_like(g), g)
        rates = torch.clamp(state["learning_rates"] * eta, lo, hi)
        return w - torch.sign(g) * rates, {"prevs": g, "learning_rates": rates}
