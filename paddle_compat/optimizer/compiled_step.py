"""The optimizer update as one compiled region, for networks under ``to_static(backend="CINN")``.

torch recommends compiling its own optimizers' ``step`` with ``torch.compile``; this does the
same for Paddle's update rules. Every optimizer here defines its update twice: in place for
dynamic mode (``_update``) and as a functional rule for static mode (``_rule``: new weight and
new state from weight, gradient, state and learning rate). For a parameter group, the rule over
all of its parameters is traced once by dynamo and compiled by inductor, with the results
written back into the weights and the accumulators inside the compiled code: a few fused loops
that read weight, gradient and state once, instead of one eager kernel (and one Python call) per
op and parameter.

When: the parameters of a Layer that ``to_static(..., backend="CINN")`` compiles are marked
(``framework.parameter.mark_compiled``); an optimizer step over a group holding a marked
parameter takes this path, for the float32 parameters of ``SGD`` and ``Momentum`` without
master weights. Anything else, and a group whose compile failed (one warning naming
the error), runs the eager per-parameter loop. Gradient clipping and weight decay run as written
before the update; the learning rates enter as one float64 tensor (each parameter's, as the
eager loop computes it), so an LR scheduler changes values, not the graph. One graph per group
and set of parameters with gradients, at most ``MAX_GRAPHS`` per optimizer.
"""
import warnings

import torch

from ..framework import threads as _threads
from ..framework.parameter import is_marked_compiled

__all__ = ["try_compiled_update", "TORCH_BACKEND", "MAX_GRAPHS"]

#: torch.compile's backend for the update (tests set "aot_eager": no C++ build)
TORCH_BACKEND = "inductor"

#: compiled update graphs per optimizer (one per group and set of parameters with gradients)
MAX_GRAPHS = 4

#: optimizers whose static-mode rule rounds as their eager update does (Adam's rule takes
#: ``1 - beta`` in float64 where the eager update takes it in float32: not here)
_SUPPORTED = {"SGD", "Momentum"}


def _supported(opt):
    """Whether ``opt``'s class is one whose ``_rule`` is traced here (its own class, not a
    subclass that may override the eager update with other arithmetic)."""
    cls = type(opt)
    return cls.__name__ in _SUPPORTED and cls.__module__.startswith(__package__)


def _rule_loop(rule):
    """The function dynamo traces: ``rule`` applied to every parameter, written back in
    place (``copy_`` into the weight and the accumulators)."""
    def update(ws, gs, states, lrs, hp):
        for i in range(len(ws)):
            new_w, new_state = rule(ws[i], gs[i], states[i], lrs[i], hp, None)
            for name, v in new_state.items():
                states[i][name].copy_(v)
            ws[i].copy_(new_w)
    return update


class _Compiled:
    """An optimizer's compiled updates, keyed by group and the parameters updated."""

    __slots__ = ("fn", "graphs", "failed")

    def __init__(self, opt):
        _threads.hold()          # a thread-count change would recompile (dynamo guards it)
        self.fn = torch.compile(_rule_loop(opt._rule), backend=TORCH_BACKEND, dynamic=False)
        self.graphs = set()
        self.failed = None


def try_compiled_update(opt, group, params, grads, states, lr):
    """Run ``opt``'s update of ``params`` compiled and return True; False (nothing done) where
    this path does not apply and the caller's eager loop must run. ``lr``: the step's learning
    rate (a float; each parameter's own is derived as the eager loop does)."""
    if not _supported(opt) or opt._multi_precision or \
            not any(map(is_marked_compiled, params)):
        return False
    ws = [p._t for p in params]
    if any(w.dtype is not torch.float32 or g.dtype is not torch.float32 or g.is_sparse
           for w, g in zip(ws, grads)):
        return False             # float64 keeps eager's exact roundings; halves: master weights
    comp = opt.__dict__.get("_compiled_update")
    if comp is None:
        comp = opt.__dict__["_compiled_update"] = _Compiled(opt)
    if comp.failed is not None:
        return False
    key = (id(group), tuple(map(id, ws)))
    if key not in comp.graphs:
        if len(comp.graphs) >= MAX_GRAPHS:
            return False
        comp.graphs.add(key)
    hp = {k: v for k, v in group.items() if k != "params" and k != "grad_clip"}
    if any(hasattr(v, "_t") for v in hp.values()):
        return False             # a hyperparameter given as a Tensor (Adam's betas): eager
    lrs = torch.tensor([opt._param_lr(p, lr) for p in params], dtype=torch.float64)
    try:
        comp.fn(ws, list(grads), states, lrs, hp)
    except Exception as e:        # noqa: BLE001 -- any compiler error: eager from now on
        comp.failed = e
        warnings.warn(f"optimizer.step: the compiled update of {type(opt).__name__} failed "
                      f"and runs eagerly from now on: {type(e).__name__}: {' '.join(str(e).split())[:300]}")
        return False
    return True
