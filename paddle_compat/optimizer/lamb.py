"""``paddle.optimizer.Lamb``: layer-wise adaptive moments (You et al.), Paddle's kernel::

    m = b1 * m + (1 - b1) * g;   v = b2 * v + (1 - b2) * g * g
    r = (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + epsilon) + wd * param
    trust = |param| / |r|  (1 when either norm is 0, or when wd == 0 and not always_adapt)
    param -= lr * trust * r

On float64 parameters ``b1``, ``b2``, ``epsilon`` and ``wd`` are float32 numbers (the kernel's
float attributes): the beta powers start at the exact betas (float64 accumulators) and are
multiplied by the float32 ones; the learning rate is float64.
"""
import torch

from .adam import _scalar
from .optimizer import F64, Optimizer, _HALF, attr32, f32, sqrt_rn

__all__ = ["Lamb"]


class Lamb(Optimizer):
    """LAMB; ``exclude_from_weight_decay_fn(param)`` True turns the decay off for ``param``."""

    _defaults = {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-6, "lamb_weight_decay": 0.01,
                 "exclude_from_weight_decay_fn": None}

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999,
                 epsilon=1e-6, parameters=None, grad_clip=None,
                 exclude_from_weight_decay_fn=None, multi_precision=False, always_adapt=False,
                 name=None):
        for value in (learning_rate, beta1, beta2, epsilon):
            if value is None:
                raise AssertionError
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lamb_weight_decay = lamb_weight_decay
        self._exclude_from_weight_decay_fn = exclude_from_weight_decay_fn
        self.always_adapt = always_adapt
        super().__init__(learning_rate, parameters, None, grad_clip, name, multi_precision)
        self.type = "lamb"

    def _slots(self, p, group):
        dtype = torch.float32 if p._t.dtype in _HALF else None
        return [("moment1", 0.0, None, dtype, False), ("moment2", 0.0, None, dtype, False),
                ("beta1_pow_acc", _scalar(group["beta1"]), [1], dtype, True),
                ("beta2_pow_acc", _scalar(group["beta2"]), [1], dtype, True)]

    def _wd(self, param, group):
        fn = group["exclude_from_weight_decay_fn"]
        return 0.0 if fn is not None and fn(param) else group["lamb_weight_decay"]

    def _update(self, w, g, state, lr, group, param):
        if w.dtype is F64:
            return self._update64(w, g, state, lr, group, param)
        b1, b2 = f32(_scalar(group["beta1"])), f32(_scalar(group["beta2"]))
        one = f32(1)
        p1, p2 = state["beta1_pow_acc"], state["beta2_pow_acc"]
        b1p, b2p = f32(p1.item()), f32(p2.item())
        m, v = state["moment1"], state["moment2"]
        m.mul_(float(b1)).add_(g, alpha=float(one - b1))
        v.mul_(float(b2)).addcmul_(g, g, value=float(one - b2))
        r = (m / float(one - b1p)).div_((v / float(one - b2p)).sqrt_().add_(group["epsilon"]))
        wd = self._wd(param, group)
        if wd:
            r.add_(w, alpha=wd)
        if wd > 0 or self.always_adapt:
            pn = torch.linalg.vector_norm(w)
            tn = torch.linalg.vector_norm(r)
            trust = torch.where((pn > 0) & (tn > 0), pn / tn, torch.ones_like(pn))
            w.sub_(r * (trust * lr))
        else:
            w.add_(r, alpha=-lr)
        p1.fill_(float(b1 * b1p))
        p2.fill_(float(b2 * b2p))

    def _update64(self, w, g, state, lr, group, param):
        """The float64 update: each product and quotient rounded as Paddle's kernel does."""
        b1, b2 = attr32(_scalar(group["beta1"])), attr32(_scalar(group["beta2"]))
        p1, p2 = state["beta1_pow_acc"], state["beta2_pow_acc"]
        b1p, b2p = p1.item(), p2.item()
        m, v = state["moment1"], state["moment2"]
        m.mul_(b1).add_(g * (1.0 - b1))
        v.mul_(b2).add_(g * (1.0 - b2) * g)
        r = (m / (1.0 - b1p)).div_(sqrt_rn(v / (1.0 - b2p)).add_(attr32(group["epsilon"])))
        wd = attr32(self._wd(param, group))
        if wd:
            r.add_(w * wd)
        if wd > 0 or self.always_adapt:
            pn = sqrt_rn(torch.sum(w * w))
            tn = sqrt_rn(torch.sum(r * r))
            trust = torch.where((pn > 0) & (tn > 0), pn / tn, torch.ones_like(pn))
            w.sub_(r * (trust * lr))
        else:
            w.sub_(r * lr)
        p1.fill_(b1 * b1p)
        p2.fill_(b2 * b2p)
