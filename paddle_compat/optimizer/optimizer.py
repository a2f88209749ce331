"""The ``Optimizer`` base class: parameter groups, learning rate, clipping, weight decay,
accumulators with Paddle's names, master weights, ``state_dict``, ``minimize``.

One ``step()`` follows Paddle's order per parameter group: collect ``(param, grad)`` for the
trainable parameters that have a gradient; apply the group's ``grad_clip``; add the weight
decay term (the parameter's own ``regularizer`` wins over the optimizer's ``weight_decay``);
then the subclass's update rule, in place on the parameter's torch tensor under ``no_grad``.

Subclasses define:

* ``_defaults``: their hyperparameters (a parameter group's dict may override any of them);
* ``_slots(p, group)``: the accumulators of one parameter (name, fill value, shape, dtype),
  made lazily as Paddle-named Tensors in dynamic mode, as persistable Variables in static mode;
* ``_update(w, g, state, lr, group)``: the dynamic-mode rule on torch tensors, in place
  (``w`` is the parameter's tensor, or its float32 master weight with ``multi_precision``;
  ``lr`` is the learning rate as Paddle's kernels see it: a tensor of the first parameter's
  dtype, so float32-rounded, or exact with float64 parameters);
* ``_rule(w, g, state, lr, group)`` (optional): the same rule written without in-place ops,
  returning ``(new_w, {state_name: new_value})``; static mode's ``minimize`` uses it.

Float64 parameters: Paddle's kernels then compute in float64, but each hyperparameter keeps
the precision it reaches the kernel with. The learning rate and anything held in a tensor of the
parameter's dtype (Adam's beta powers, Rprop's ranges and etas) are float64 values; Adam's and
AdamW's ``beta1``/``beta2``/``epsilon`` are exact scalars; the kernels' ``float`` attributes
(momentum, rho, the epsilons of the other optimizers, the betas of Adamax, Lamb, NAdam and
RAdam, AdamW's and Momentum's decay coefficients) are float32 numbers used in float64. Each
optimizer module says which is which; the float64 branches round each product, quotient and
square root (``sqrt_rn``) where Paddle's kernel does, without fused multiply-adds, and
``tests/test_optimizer_f64.py`` checks them against Paddle to 1e-15. The float32 path does its
arithmetic as before: every such constant is float32 there anyway.
"""
import numpy as np
import torch

from ..framework import hooks
from ..framework import threads as _threads
from ..framework.dtype import default_float
from ..framework.parameter import unique_name
from ..framework.tensor import is_dtensor, wrap
from ..regularizer import L2Decay, WeightDecayRegularizer
from .compiled_step import try_compiled_update
from ..nn.clip import ClipGradBase
from ..static import mode as _mode
from .lr import LRScheduler
from ..static.optimizer import minimize as static_minimize
from ..static.program import create_global_var
from ..static.program import default_main_program

__all__ = ["Optimizer"]

_HALF = (torch.float16, torch.bfloat16)
f32 = np.float32
F64 = torch.float64
F32 = torch.float32


def attr32(x):
    """A kernel's ``float`` attribute as the float64 kernel sees it: rounded to float32."""
    return float(f32(x))


def sqrt_rn(t):
    """``sqrt(t)``, correctly rounded for float64 CPU tensors as Paddle's kernels compute it
    (ATen's vectorised float64 ``sqrt`` on CPU is off by an ulp for about 1% of inputs, and
    which ones depends on the CPU); ``torch.sqrt`` for everything else (float32, CUDA, static
    proxies)."""
    if t.dtype is F64 and type(t) is torch.Tensor and t.device.type == "cpu":
        a = t.detach().numpy()
        with np.errstate(invalid="ignore"):          # NaN for a negative, as torch gives
            return torch.from_numpy(np.sqrt(a, out=np.empty_like(a)))
    return torch.sqrt(t)


def _as_regularizer(weight_decay):
    if isinstance(weight_decay, (int, float)) and not isinstance(weight_decay, bool):
        return L2Decay(float(weight_decay))
    return weight_decay


def _held_here(t):
    """False for a distributed parameter whose mesh leaves this rank out (another pipeline
    stage's): it holds an empty value here, and its update is its own ranks' work."""
    return not is_dtensor(t) or t.device_mesh.get_coordinate() is not None


class Optimizer:
    """Base class of the optimizers; see the module docstring for what a subclass adds."""

    _defaults = {}

    def __init__(self, learning_rate, parameters=None, weight_decay=None, grad_clip=None,
                 name=None, multi_precision=False):
        if parameters is not None:
            if hasattr(parameters, "_t"):
                raise TypeError("`parameters` argument given to the optimizer should be an "
                                "iterable of paddle Tensors, but got argument type is "
                                f"`{type(parameters)}`.")
            if isinstance(parameters, dict):
                raise TypeError("`parameters` argument should not get dict type, if parameter "
                                "groups is needed, please set `parameters` as list of dict")
            parameters = list(parameters)
        elif _mode.in_dynamic_mode():
            raise AttributeError("parameters argument given to the Optimizer should not be None "
                                 "in dygraph mode.")
        if not isinstance(learning_rate, (float, LRScheduler)):
            raise TypeError("learning rate should be float or LRScheduler, got "
                            f"{type(learning_rate)} here")
        if grad_clip is not None and not isinstance(grad_clip, ClipGradBase):
            raise TypeError("'grad_clip' should be an instance of GradientClipBase's derived "
                            "class")
        self._parameter_list = parameters
        self._name = name
        self._learning_rate = learning_rate
        self.regularization = _as_regularizer(weight_decay)
        self._grad_clip = grad_clip
        self._multi_precision = multi_precision
        self._accumulators = {}          # acc name -> {param (or master) name -> Tensor}
        self._accumulators_holder = {}   # loaded by set_state_dict before the first step
        self._master_weights = {}        # param name -> float32 Tensor
        self._states = {}                # param name -> {short acc name -> torch tensor}
        self._opti_name_list = []
        self._static_lr = None
        self._param_groups = []
        if parameters and isinstance(parameters[0], dict):
            for group in parameters:
                self._add_param_group(dict(group))
        else:
            self._param_groups.append({"params": parameters or [], **self._group_defaults()})
        self._plain = not (parameters and isinstance(parameters[0], dict))
        first = self._param_groups[0]["params"] if self._param_groups else []
        # Paddle's learning-rate tensor has the first parameter's dtype (the default dtype when
        # there is none), float32 for the half types
        self._lr_f64 = (first[0]._t.dtype if first else default_float().torch) is F64
        self._dtype = first[0].dtype if first else None     # Paddle's: the first parameter's
        self.clear_gradients = self.clear_grad

    # ------------------------------------------------------------------ groups
    def _group_defaults(self):
        return {"weight_decay": self.regularization, "grad_clip": self._grad_clip,
                **self._defaults_now()}

    def _defaults_now(self):
        """The subclass's hyperparameters as given to this optimizer."""
        return {k: getattr(self, "_" + k, v) for k, v in self._defaults.items()}

    def _add_param_group(self, group):
        if "params" not in group:
            raise AssertionError("params should be set in parameters if parameter groups are "
                                 "optimized in different options")
        params = group["params"]
        if isinstance(params, set):
            raise TypeError("optimizer parameters should be in ordered collections,but received "
                            "set, please use list instead.")
        group["params"] = [params] if hasattr(params, "_t") else list(params)
        for k, v in self._group_defaults().items():
            group.setdefault(k, v)
        seen = {id(p) for g in self._param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        for p in group["params"]:
            self._claim(p, group)
        self._param_groups.append(group)

    def _claim(self, p, group):
        """What Paddle writes onto a parameter that joins a group: its regularizer and lr."""
        p.regularizer = _as_regularizer(group["weight_decay"])
        p.optimize_attr["learning_rate"] = group.get("learning_rate", 1.0)

    # ------------------------------------------------------------------ learning rate
    def get_lr(self):
        lr = self._learning_rate
        return lr if isinstance(lr, float) else lr()

    def set_lr(self, value):
        if not isinstance(value, (int, float)):
            raise TypeError("The type of 'value' in optimizer.set_lr must be float, but received "
                            f"{type(value)}.")
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError("optimizer's learning rate can't be LRScheduler when invoke this "
                               "API, because this will lead to conflict.")
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler):
        if not isinstance(scheduler, LRScheduler):
            raise TypeError("The type of 'scheduler' in optimizer.set_lr_scheduler must be "
                            f"LRScheduler, but received {type(scheduler)}.")
        self._learning_rate = scheduler

    def _param_lr(self, p, lr):
        """The learning rate of ``p``: the global one times ``optimize_attr``'s, in the
        learning-rate tensor's precision."""
        ratio = (getattr(p, "optimize_attr", None) or {}).get("learning_rate", 1.0)
        if ratio == 1.0:
            return lr
        return lr * ratio if self._lr_f64 else float(f32(lr) * f32(ratio))

    # ------------------------------------------------------------------ accumulators
    def _add_accumulator(self, name, param, dtype=None, fill_value=0.0, shape=None,
                         device=None):
        """A zero-filled (``fill_value``) state tensor named ``{param}_{name}_{n}``."""
        if self._name is not None:
            name = self._name + "_" + name
        slot = self._accumulators.setdefault(name, {})
        if param.name in slot:
            return slot[param.name]
        var_name = unique_name(param.name + "_" + name)
        self._opti_name_list.append(var_name)
        t = torch.full(list(param.shape) if shape is None else shape, float(fill_value),
                       dtype=dtype or param._t.dtype,
                       device=device if device is not None else param._t.device)
        if is_dtensor(param._t):
            # a state of its own shape (Adam's beta powers) is not elementwise: whole
            t = self._place_state(t, param) if shape is None else hooks.dist_like(t, param._t,
                                                                                  True)
        if self._accumulators_holder:
            if var_name not in self._accumulators_holder:
                raise AssertionError(f"Optimizer set error, {var_name} should in state dict")
            _copy_into(t, self._accumulators_holder.pop(var_name))
        var = wrap(t)
        var.name = var_name
        var.persistable = True
        slot[param.name] = var
        return var

    def _place_state(self, t, param):
        """A distributed parameter's state ``t`` (a full dense tensor) laid out as the
        parameter (``shard_optimizer`` replaces this to shard the states)."""
        return hooks.dist_like(t, param._t)

    def _slots(self, p, group):
        """The accumulators of ``p``: ``[(name, fill value, shape or None, dtype or None,
        on_cpu)]`` (None: the parameter's shape/dtype). Used in both modes."""
        return []

    def _state_of(self, p, group):
        """``{name: torch tensor}`` of ``p``'s accumulators, made on first use."""
        st = self._states.get(p.name)
        if st is None:
            target = p
            if self._multi_precision and p._t.dtype in _HALF:
                target = self._master_weight(p)
            st = self._states[p.name] = {
                name: self._add_accumulator(name, target, dtype, fill, shape,
                                            "cpu" if cpu else None)._t
                for name, fill, shape, dtype, cpu in self._slots(target, group)}
        return st

    def _master_weight(self, p):
        m = self._master_weights.get(p.name)
        if m is None:
            m = wrap(p._t.detach().float())
            m.name = unique_name(p.name + "_fp32_master")
            m.persistable = True
            self._master_weights[p.name] = m
        return m

    def get_opti_var_name_list(self):
        return self._opti_name_list

    # ------------------------------------------------------------------ state dict
    def state_dict(self):
        """The accumulators by name (``linear_0.w_0_moment1_0`` ...), ``master_weights`` and
        the scheduler's state under ``LR_Scheduler``; the values are the live Tensors."""
        out = {}
        if not self._accumulators and self._accumulators_holder:
            out.update(self._accumulators_holder)
        else:
            for slot in self._accumulators.values():
                for var in slot.values():
                    out[var.name] = var
        if self._master_weights:
            out["master_weights"] = self._master_weights
        if isinstance(self._learning_rate, LRScheduler):
            out["LR_Scheduler"] = self._learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict):
        lr = self._learning_rate
        if isinstance(lr, LRScheduler):
            lr_state = state_dict.get("LR_Scheduler")
            if lr_state is None and type(lr).__name__ != "LambdaDecay":
                raise AssertionError("LR_Scheduler state must be included in the state dict "
                                     "except LambdaDecay")
            if lr_state:
                lr.set_state_dict(lr_state)
        state_dict = dict(state_dict)
        state_dict.pop("LR_Scheduler", None)
        masters = state_dict.pop("master_weights", None)
        if masters is not None:
            for k, v in masters.items():
                if k in self._master_weights:
                    _copy_into(self._master_weights[k]._t, v)
                else:
                    self._master_weights[k] = v if hasattr(v, "_t") else wrap(torch.as_tensor(v))
        self._accumulators_holder = state_dict
        for slot in self._accumulators.values():
            for var in slot.values():
                if var.name not in state_dict:
                    raise AssertionError(f"optimizer Tensor {var.name} not found")
                _copy_into(var._t, state_dict[var.name])

    load_state_dict = set_state_dict

    # ------------------------------------------------------------------ gradients
    def clear_grad(self, set_to_zero=True):
        for group in self._param_groups:
            for p in group["params"]:
                if not p.stop_gradient:
                    p.clear_gradient(set_to_zero)

    def zero_grad(self, set_to_none=True):
        self.clear_grad(set_to_zero=not set_to_none)

    def _regularized(self, params, grads, group):
        out = []
        default = self.regularization
        for p, g in zip(params, grads):
            reg = getattr(p, "regularizer", None) or default
            if reg is not None and type(reg) is not WeightDecayRegularizer:
                w = self._master_weights.get(p.name) if g.dtype != p._t.dtype else None
                g = g + self._decay_term(reg, w._t if w is not None else p._t)
            out.append(g)
        return out

    def _decay_term(self, reg, t):
        """What ``reg`` adds to the gradient of the torch tensor ``t`` (Paddle's scale op: the
        coefficient in ``t``'s precision)."""
        return reg._term(t)

    # ------------------------------------------------------------------ step
    def _lr_now(self):
        """The learning rate as Paddle's kernels read it from its tensor."""
        lr = self.get_lr()
        return float(lr) if self._lr_f64 else float(f32(lr))

    def step(self):
        """Update every parameter that has a gradient, once."""
        if _mode.in_static_mode():
            raise RuntimeError("step() is only available in dynamic mode; use minimize(loss) "
                               "in static mode")
        _threads.govern()            # fewer intra-op threads while other work holds cores
        with torch.no_grad():
            lr = self._lr_now()
            for group in self._param_groups:
                params, grads = [], []
                for p in group["params"]:
                    t = p._t
                    if t.requires_grad and t.grad is not None and _held_here(t):
                        params.append(p)
                        grads.append(t.grad)
                if params:
                    self._apply(group, params, grads, lr)

    def _apply(self, group, params, grads, lr):
        clip = group["grad_clip"]
        if clip is not None:
            grads = clip._clip(params, grads)
        grads = self._regularized(params, grads, group)
        states = [self._state_of(p, group) for p in params]
        if try_compiled_update(self, group, params, grads, states, lr):
            self._finish(params, states, group)
            return
        for p, g, st in zip(params, grads, states):
            plr = self._param_lr(p, lr)
            master = self._master_weights.get(p.name) if self._multi_precision else None
            if master is not None:
                self._update(master._t, g.float(), st, plr, group, p)
                p._t.copy_(master._t)
            else:
                self._update(p._t, g, st, plr, group, p)
        self._finish(params, states, group)

    def _update(self, w, g, state, lr, group, param):
        """One parameter's eager update, in place. By default the functional rule that static
        mode records (``_rule``) applied to ``w`` and ``state``."""
        new_w, new_state = self._rule(w, g, state, lr, group, param)
        for k, v in new_state.items():
            state[k].copy_(v)
        w.copy_(new_w)

    def _finish(self, params, states, group):
        """After all updates of a group (Adamax advances its beta power here)."""

    # ------------------------------------------------------------------ minimize
    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Dynamic mode: apply the gradients already accumulated (Paddle does not run the
        backward here: call ``loss.backward()`` first). Static mode: append the backward of
        ``loss`` and the update ops to its program. Returns ``(ops, params_grads)``."""
        if not hasattr(loss, "_t"):
            raise AssertionError("The loss should be an Tensor.")
        plist = parameters or self._parameter_list
        if _mode.in_static_mode():
            if plist and isinstance(plist[0], dict):
                plist = [p for g in plist for p in g["params"]]
            if not self._parameter_list:         # Paddle then takes the loss's dtype
                self._lr_f64 = loss._t.dtype is F64
            return static_minimize(loss, self._static_update, plist, no_grad_set)
        if plist and isinstance(plist[0], dict):
            plist = [p for g in self._param_groups for p in g["params"]]
        params_grads = [(p, p.grad) for p in plist if p._t.grad is not None]
        with torch.no_grad():
            params = [p for p, _ in params_grads if not p.stop_gradient]
            if params:
                group = self._param_groups[0] if self._plain else \
                    {"params": params, **self._group_defaults()}
                self._apply(group, params, [p._t.grad for p in params], self._lr_now())
        return [], params_grads

    def backward(self, loss, startup_program=None, parameters=None, no_grad_set=None,
                 callbacks=None):
        """Dynamic mode: the ``(param, grad)`` pairs that have a gradient."""
        plist = parameters or [p for g in self._param_groups for p in g["params"]]
        return [(p, p.grad) for p in plist if p._t.grad is not None]

    def apply_gradients(self, params_grads):
        params = [p for p, g in params_grads if g is not None and not p.stop_gradient]
        grads = [g._t for p, g in params_grads if g is not None and not p.stop_gradient]
        with torch.no_grad():
            if params:
                self._apply(self._param_groups[0], params, grads, self._lr_now())
        return []

    # ------------------------------------------------------------------ static mode
    def _static_state(self, p, group):
        """Persistable global Variables holding ``p``'s accumulators in static mode."""
        st = self._states.get(p.name)
        if st is None:
            st = self._states[p.name] = {}
            for name, fill, shape, dtype, _ in self._slots(p, group):
                dtype = str(dtype or p.dtype).replace("paddle.", "").replace("torch.", "")
                st[name] = create_global_var(list(p.shape) if shape is None else shape, fill,
                                             dtype, persistable=True,
                                             name=unique_name(f"{p.name}_{name}"))
        return st

    def _static_update(self, p, g):
        if getattr(self._grad_clip, "_needs_all_grads", False) or \
                type(self._grad_clip).__name__ == "ClipGradByGlobalNorm":
            raise NotImplementedError("ClipGradByGlobalNorm in static mode: the minimize hook "
                                      "hands the optimizer one (param, grad) at a time")
        program = default_main_program()
        gt = g._t
        if self._grad_clip is not None:
            gt = self._grad_clip._clip([p], [gt])[0]
        reg = getattr(p, "regularizer", None) or self.regularization
        if reg is not None:
            gt = gt + self._decay_term(reg, p._t)
        group = self._param_groups[0]
        st = self._static_state(p, group)
        lr = self._param_lr(p, self._lr_now())
        new_w, new_state = self._rule(p._t, gt, {k: v._t for k, v in st.items()}, lr, group, p)
        for k, v in new_state.items():
            program.assign_persistable(st[k], wrap(v))
        return wrap(new_w)

    def _rule(self, w, g, state, lr, group, param):
        raise NotImplementedError(f"{type(self).__name__}.minimize in static mode")


def _copy_into(dst, value):
    src = value._t if hasattr(value, "_t") else torch.as_tensor(np.asarray(value))
    dst.copy_(src.detach().reshape(dst.shape).to(dst.dtype))
