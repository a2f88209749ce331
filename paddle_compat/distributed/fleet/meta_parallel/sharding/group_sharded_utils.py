"""``...meta_parallel.sharding.group_sharded_utils``: ``GroupShardedScaler``, a loss scaler
taught that a sharded optimizer's ranks each check only their own gradients."""
import torch

from .....amp.grad_scaler import OptimizerState, _unscale_group
from .....framework.tensor import wrap
from .... import collective as _c

__all__ = []


def _grads(optimizer):
    inner = getattr(optimizer, "_optim", None) or getattr(optimizer, "_inner_opt", optimizer)
    groups = getattr(inner, "_param_groups", None)
    if groups and isinstance(groups[0], dict):
        params = [p for g in groups for p in g["params"]]
    else:
        params = list(inner._parameter_list)
    out = []
    for p in params:
        g = getattr(p, "main_grad", None)
        g = g._t if g is not None else p._t.grad
        if g is not None:
            out.append(g)
    return out


def _unscale_grads(scaler, optimizer, grads, group):
    """A scaler's unscale step on ``grads`` (torch tensors): divide them by the scale in place
    and record whether any is not finite (the max over ``group`` when it has several ranks)."""
    if not scaler._enable:
        return
    state = scaler._optimizer_states[id(optimizer)]
    scale = scaler._scale._t
    inv = (1.0 / scale.double()).float()[0]
    found = torch.zeros(1, dtype=torch.bool, device=scale.device)
    by_dtype = {}
    for g in grads:
        by_dtype.setdefault(g.dtype, []).append(g)
    with torch.no_grad():
        for same in by_dtype.values():
            found = found | _unscale_group(same, inv).to(found.device)
    if group is not None and group.nranks > 1:
        flag = wrap(found.to(torch.int32))
        _c.all_reduce(flag, op=_c.ReduceOp.MAX, group=group)
        found = flag._t.bool()
    scaler._found_inf = wrap(found)
    state["state"] = OptimizerState.UNSCALED


def _unscale(self, optimizer):
    """Unscale the gradients (``main_grad`` where present) the sharded optimizer holds; the
    found-inf flag is the max over the optimizer's group."""
    if self._enable:
        _unscale_grads(self, optimizer, _grads(optimizer), getattr(optimizer, "_group", None))


def GroupShardedScaler(scaler):
    """``scaler`` (an ``AmpScaler``/``GradScaler``) with its unscale step replaced by the
    sharded one; returns the same object, as Paddle does."""
    scaler._unscale = _unscale.__get__(scaler)
    return scaler
