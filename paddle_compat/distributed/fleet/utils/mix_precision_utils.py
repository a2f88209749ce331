"""``paddle.distributed.fleet.utils.mix_precision_utils``: training with float32 "main"
gradients beside low-precision parameters (PaddleNLP's Trainer with ``amp_master_grad``).

``MixPrecisionLayer`` moves each backward's gradient of every parameter into
``param.main_grad`` (float32, accumulated across backwards; ``param.grad`` stays None);
``MixPrecisionOptimizer`` steps the wrapped optimizer on those main gradients and clears them;
``MixPrecisionScaler`` makes a loss scaler unscale (and check) the main gradients.
"""
import torch

from ....autograd import no_grad
from ....framework.tensor import wrap
from ....nn.layer.layers import Layer
from ....utils.deprecated import deprecated
from ... import collective as _c
from ...parallel import WrappedState
from .._state import get_hcg
from ..meta_parallel.sharding.group_sharded_utils import _unscale_grads
from .hybrid_parallel_util import obtain_optimizer_parameters_list

__all__ = []


def _main_grad_hook(param):
    """After a backward accumulated ``param``'s gradient: add it (as float32) to
    ``param.main_grad`` and drop it from ``param.grad``."""
    def hook(t):
        g = t.grad
        if g is None:
            return
        t.grad = None
        g = g.detach().to(torch.float32)
        if param.main_grad is None:
            param.main_grad = wrap(g.clone() if g.dtype == t.dtype else g)
        else:
            param.main_grad._t.add_(g)
    return hook


class MixPrecisionLayer(WrappedState, Layer):
    """``layers`` whose parameters' gradients accumulate in float32 ``main_grad``."""

    def __init__(self, layers, dtype="float16"):
        super().__init__(layers.full_name() + "_mix_precision")
        self._layers = layers
        self._dtype = dtype
        assert self._dtype in ["float16", "bfloat16"]
        for param in self._layers.parameters():
            if not hasattr(param, "main_grad"):
                param.main_grad = None
                if param._t.requires_grad:
                    param._t.register_post_accumulate_grad_hook(_main_grad_hook(param))

    def forward(self, *inputs, **kwargs):
        return self._layers(*inputs, **kwargs)


class MixPrecisionOptimizer:
    """Steps ``optimizer`` with the parameters' ``main_grad`` as their gradients."""

    def __init__(self, optimizer):
        self._inner_opt = optimizer
        self._parameter_list = obtain_optimizer_parameters_list(optimizer)

    def step(self):
        lent = []
        with no_grad():
            for p in self._parameter_list:
                mg = getattr(p, "main_grad", None)
                if p.stop_gradient or mg is None:
                    continue
                lent.append((p._t, p._t.grad))
                p._t.grad = mg._t if mg._t.dtype == p._t.dtype else mg._t.to(p._t.dtype)
            try:
                self._inner_opt.step()
            finally:
                for t, g in lent:
                    t.grad = g

    def clear_grad(self, set_to_zero=True):
        for p in self._parameter_list:
            if p.stop_gradient:
                continue
            if getattr(p, "main_grad", None) is not None:
                if set_to_zero:
                    p.main_grad._t.zero_()
                else:
                    p.main_grad = None
            elif not hasattr(p, "main_grad"):
                p.clear_gradient(set_to_zero)

    def __getattr__(self, item):
        return getattr(self._inner_opt, item)


def unscale_method(self, optimizer):
    """A scaler's ``_unscale`` on the main gradients (float32): divide them by the scale, note
    whether any is not finite (the flag is the max over the job when it has model, pipeline or
    sharding axes)."""
    if not self._enable:
        return
    grads = []
    for p in obtain_optimizer_parameters_list(optimizer):
        mg = getattr(p, "main_grad", None)
        if mg is not None:
            assert mg._t.dtype == torch.float32
            grads.append(mg._t)
    hcg = get_hcg()
    job = _c.get_group(0) if hcg is not None and \
        hcg.nranks > hcg.get_data_parallel_world_size() else None
    _unscale_grads(self, optimizer, grads, job)


@deprecated(since="2.5.0", update_to="paddle.distributed_scaler", level=1)
class MixPrecisionScaler:
    """``scaler`` unscaling the parameters' main gradients (other attributes pass through)."""

    def __init__(self, scaler):
        self._inner_scaler = scaler
        self._inner_scaler._unscale = unscale_method.__get__(scaler)

    def __getattr__(self, item):
        return getattr(self._inner_scaler, item)
