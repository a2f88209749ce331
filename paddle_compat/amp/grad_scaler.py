"""``paddle.amp.GradScaler`` / ``AmpScaler``: dynamic loss scaling with Paddle's decisions.

``scale`` multiplies the loss by the scale (a float32 Tensor of shape [1]); ``unscale_`` (run by
``step``/``minimize`` if not called) multiplies the gradients by ``1/scale`` per dtype group
(float16, bfloat16, the rest) and sets ``found_inf`` if any is not finite; ``step`` skips the
optimizer's update on ``found_inf`` (through ``optimizer._set_auxiliary_var('found_inf', ...)``
when the optimizer has it, as Paddle's do); ``update`` halves the scale after
``decr_every_n_nan_or_inf`` bad steps and doubles it after ``incr_every_n_steps`` good ones,
printing Paddle's "Found inf or nan" line when it decreases.

Where the gradients hold an inf/nan, the CPU unscale follows Paddle's CPU kernel: a gradient
at or after the first non-finite one in its dtype group is multiplied by 0 instead of 1/scale;
on CUDA torch's fused ``_amp_foreach_non_finite_check_and_unscale_`` is used, which (like
Paddle's CUDA kernel) always multiplies by 1/scale.

As in Paddle, the scaler is enabled only on a device where AMP runs (a CUDA GPU): elsewhere it
warns and passes everything through; and its first ``scale()`` switches it off when the last
``auto_cast`` was not float16. Paddle 3.3.1 with numpy >= 2.4 raises TypeError while printing
the decrease message (``float()`` of a shape-[1] tensor); we print it as Paddle meant to.
"""
import warnings
from collections import defaultdict
from enum import Enum

import numpy as np
import torch

from ..framework.place import current_device
from ..framework.tensor import Tensor, wrap
from .auto_cast import amp_global_state

__all__ = ["AmpScaler", "GradScaler", "OptimizerState"]


class OptimizerState(Enum):
    INIT = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh_state():
    return {"state": OptimizerState.INIT}


def _place_supports_scaling():
    """Paddle enables loss scaling on GPU (and XPU/custom) places only."""
    return current_device().type == "cuda"


def _scalar_tensor(value, dtype=torch.float32):
    return wrap(torch.tensor([value], dtype=dtype, device=current_device()))


def _unscale_group(grads, inv_scale):
    """Unscale ``grads`` (torch tensors, one dtype) in place; a bool tensor: any non-finite."""
    if grads[0].device.type == "cuda":
        found = torch.zeros(1, dtype=torch.float32, device=grads[0].device)
        torch._amp_foreach_non_finite_check_and_unscale_(grads, found, inv_scale)
        return found.bool()
    bad = torch.stack([~torch.isfinite(g).all() for g in grads])
    seen = torch.cummax(bad.to(torch.uint8), 0).values.bool()
    factors = torch.where(seen, torch.zeros((), dtype=torch.float32), inv_scale)
    for g, f in zip(grads, factors):
        g.mul_(f)
    return seen[-1:]


class AmpScaler:
    """Loss scaling for AMP training (Paddle's defaults: init 2**15, incr every 1000 steps)."""

    def __init__(self, enable=True, init_loss_scaling=2.0 ** 15, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=1000, decr_every_n_nan_or_inf=1,
                 use_dynamic_loss_scaling=True):
        if enable and not _place_supports_scaling():
            warnings.warn("AmpScaler can only be enabled on CUDAPlace, XPUPlace and CustomPlace, "
                          "current place is Place(cpu), so it makes no effect.")
            enable = False
        self._enable = enable
        self._use_dynamic_loss_scaling = False
        self._init_loss_scaling = 1.0
        self._scale = None
        if enable:
            assert incr_ratio > 1.0, "The incr_ratio must be > 1.0."
            assert decr_ratio < 1.0, "The decr_ratio must be < 1.0."
            self._init_loss_scaling = init_loss_scaling
            self._incr_ratio = incr_ratio
            self._decr_ratio = decr_ratio
            self._incr_every_n_steps = incr_every_n_steps
            self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
            self._incr_count = 0
            self._decr_count = 0
            self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
            self._found_inf = _scalar_tensor(False, torch.bool)
            self._scale = _scalar_tensor(float(init_loss_scaling))
            self._cache_found_inf = None
            self._optimizer_states = defaultdict(_fresh_state)

    # ------------------------------------------------------------------ scaling
    def scale(self, var):
        """``var * scale`` (``var`` itself when the scaler is off)."""
        if not isinstance(var, Tensor):
            raise TypeError(f"The type of 'var' in AmpScaler.scale() must be <class "
                            f"'paddle.Tensor'>, but received {type(var)}. ")
        amp_dtype = amp_global_state().amp_dtype
        if self._enable and amp_dtype != "float16" and self._use_dynamic_loss_scaling:
            self._enable = False
            self._use_dynamic_loss_scaling = False
            self._init_loss_scaling = 1.0
            warnings.warn(f"It is not recommended to use dynamic loss scaling for {amp_dtype}, "
                          "so GradScaler is disable by default.")
        if not self._enable:
            return var
        return var * self._scale

    def _params(self, optimizer):
        groups = getattr(optimizer, "_param_groups", None)
        if groups and isinstance(groups[0], dict):
            return [p for g in groups for p in g["params"]]
        return list(optimizer._parameter_list)

    def _unscale(self, optimizer):
        if not self._enable:
            return
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        groups = {torch.float16: [], torch.bfloat16: [], None: []}
        for p in self._params(optimizer):
            g = p._t.grad
            if g is not None:
                groups.get(g.dtype, groups[None]).append(g)
        scale = self._scale._t
        inv = (1.0 / scale.double()).float()[0]
        found = torch.zeros(1, dtype=torch.bool, device=scale.device)
        with torch.no_grad():
            for grads in groups.values():
                if grads:
                    found = found | _unscale_group(grads, inv).to(found.device)
        self._found_inf = wrap(found)
        state["state"] = OptimizerState.UNSCALED

    def _run_optimizer(self, optimizer, call):
        if hasattr(optimizer, "_set_auxiliary_var"):
            optimizer._set_auxiliary_var("found_inf", self._found_inf)
            out = call()
            self._cache_found_inf = optimizer._get_auxiliary_var("found_inf")
            return out
        if self._found_inf:
            self._cache_found_inf = True
            return None
        out = call()
        self._cache_found_inf = False
        return out

    def minimize(self, optimizer, *args, **kwargs):
        """Unscale (unless done), ``optimizer.minimize`` unless a gradient is not finite, then
        update the scale."""
        if not self._enable:
            return optimizer.minimize(*args, **kwargs)
        if self._optimizer_states[id(optimizer)]["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        out = self._run_optimizer(optimizer, lambda: optimizer.minimize(*args, **kwargs))
        if self._use_dynamic_loss_scaling:
            self._update()
        self._optimizer_states = defaultdict(_fresh_state)
        return (None, None) if out is None else out

    def _update(self):
        if not self._enable:
            return
        if self._cache_found_inf:
            self._incr_count = 0
            self._decr_count += 1
            if self._decr_count == self._decr_every_n_nan_or_inf:
                s = self._scale._t.item()
                print(f"Found inf or nan, current scale is: {s}, decrease to: "
                      f"{s}*{float(self._decr_ratio)}")
                self._scale = self._scale * self._decr_ratio
                self._decr_count = 0
        else:
            self._decr_count = 0
            self._incr_count += 1
            if self._incr_count == self._incr_every_n_steps:
                self._scale = self._scale * self._incr_ratio
                self._incr_count = 0

    # ------------------------------------------------------------------ settings
    def is_enable(self):
        return self._enable

    def is_use_dynamic_loss_scaling(self):
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self):
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling):
        self._init_loss_scaling = new_init_loss_scaling
        self._scale = _scalar_tensor(float(new_init_loss_scaling))

    def get_incr_ratio(self):
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio):
        assert new_incr_ratio > 1.0, "The new_incr_ratio must be > 1.0."
        self._incr_ratio = new_incr_ratio

    def get_decr_ratio(self):
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio):
        assert new_decr_ratio < 1.0, "The new_decr_ratio must be < 1.0."
        self._decr_ratio = new_decr_ratio

    def get_incr_every_n_steps(self):
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps):
        self._incr_every_n_steps = new_incr_every_n_steps

    def get_decr_every_n_nan_or_inf(self):
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf):
        self._decr_every_n_nan_or_inf = new_decr_every_n_nan_or_inf

    def state_dict(self):
        """The scaler's state (``scale`` as a float32 array of shape [1]); {} when off."""
        if not self._enable:
            return {}
        return {"scale": self._scale.numpy(), "incr_ratio": self._incr_ratio,
                "decr_ratio": self._decr_ratio, "incr_every_n_steps": self._incr_every_n_steps,
                "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
                "incr_count": self._incr_count, "decr_count": self._decr_count,
                "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling}

    def load_state_dict(self, state_dict):
        if not self._enable:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The input state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_loss_scaling = state_dict["scale"][0]
        self._scale = _scalar_tensor(float(np.float32(self._init_loss_scaling)))
        self._incr_ratio = state_dict["incr_ratio"]
        self._decr_ratio = state_dict["decr_ratio"]
        self._incr_every_n_steps = state_dict["incr_every_n_steps"]
        self._decr_every_n_nan_or_inf = state_dict["decr_every_n_nan_or_inf"]
        self._incr_count = state_dict["incr_count"]
        self._decr_count = state_dict["decr_count"]
        self._use_dynamic_loss_scaling = state_dict["use_dynamic_loss_scaling"]


class GradScaler(AmpScaler):
    """``AmpScaler`` with Paddle's GradScaler defaults (init 2**16, incr every 2000 steps) and
    the torch-style ``step``/``update``/``unscale_`` split of ``minimize``."""

    def __init__(self, enable=True, init_loss_scaling=2.0 ** 16, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=2000, decr_every_n_nan_or_inf=1,
                 use_dynamic_loss_scaling=True):
        super().__init__(enable, init_loss_scaling, incr_ratio, decr_ratio, incr_every_n_steps,
                         decr_every_n_nan_or_inf, use_dynamic_loss_scaling)

    def step(self, optimizer):
        """Unscale (unless done) and ``optimizer.step()`` unless a gradient is not finite."""
        if not self._enable:
            return optimizer.step()
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        self._run_optimizer(optimizer, optimizer.step)
        state["state"] = OptimizerState.STEPPED
        if not self._use_dynamic_loss_scaling:
            self._optimizer_states = defaultdict(_fresh_state)

    def update(self):
        """Update the scale from the last step's ``found_inf``."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            self._update()
            self._optimizer_states = defaultdict(_fresh_state)

    def unscale_(self, optimizer):
        """Divide the optimizer's gradients by the scale now (e.g. before clipping them)."""
        return self._unscale(optimizer)
