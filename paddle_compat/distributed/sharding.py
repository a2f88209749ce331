"""``paddle.distributed.sharding``: dygraph group-sharded (ZeRO-style) data parallelism.

Each rank feeds its own batch; gradients are averaged over the group in the backward (as
``DataParallel`` does), so the values equal plain data-parallel training at every level.

- ``os`` and ``os_g`` keep the parameters whole on every rank (``DataParallel`` all-reduces
  the gradients). The parameters are assigned to ranks (greedily by size, in parameter
  order); each rank keeps optimizer states for, and updates, only its own parameters, and
  every parameter is broadcast from its owner after the step. ``os`` partitions the optimizer
  states; ``os_g`` also drops the gradients of parameters a rank does not own after the
  reduction.
- ``p_g_os`` partitions the parameters themselves with torch's FSDP2 ``fully_shard``
  (``auto_parallel.sharding.fully_shard_layer``): every parameter is a ``Shard(0)`` DTensor
  holding 1/N of its rows on each rank between steps, gathered block by block around the
  forward and the backward; gradients are reduce-scattered into the shards, and the
  optimizer steps the shards, so its states are 1/N too (the model returned is the Layer
  itself, its parameters sharded). ``save_group_sharded_model`` gathers the full values.
"""
import os

import torch
import torch.distributed as dist

from . import collective
from .env import get_world_size, is_initialized
from .fleet.hybrid_optimizer import _no_group_clip
from .parallel import DataParallel

__all__ = ["group_sharded_parallel", "save_group_sharded_model"]

_LEVELS = ("os", "os_g", "p_g_os")


class GroupShardedOptimizer:
    """The wrapped optimizer of ``group_sharded_parallel``; other attributes pass through."""

    def __init__(self, optimizer, group, level):
        self.__dict__.update(_inner_opt=optimizer, _group=group, _level=level)
        params = [p for g in optimizer._param_groups for p in g["params"]]
        self.__dict__["_params"] = params
        n = group.nranks if group is not None else 1
        loads = [0] * n
        owner = {}
        for p in params:
            r = loads.index(min(loads))
            owner[id(p)] = r
            loads[r] += p._t.numel()
        self.__dict__["_owner"] = owner
        self.__dict__["_rank"] = max(group.rank, 0) if group is not None else 0
        # p_g_os on FSDP2: every rank owns 1/N of every parameter (and of its states)
        self.__dict__["_fsdp"] = any(p.is_dist() for p in params)

    def __getattr__(self, name):
        return getattr(self.__dict__["_inner_opt"], name)

    def __setattr__(self, name, value):
        setattr(self.__dict__["_inner_opt"], name, value)

    def owned(self, p):
        return self._owner[id(p)] == self._rank

    def step(self):
        if self._fsdp:
            self._inner_opt.step()
            return
        inner, g = self._inner_opt, self._group
        clip = inner._grad_clip
        stashed = []
        with torch.no_grad():
            if type(clip).__name__ == "ClipGradByGlobalNorm":
                ts = [p._t for p in self._params if p._t.grad is not None
                      and getattr(p, "need_clip", True) is not False]
                if ts:
                    sq = sum(t.grad.double().pow(2).sum() for t in ts)
                    scale = clip.clip_norm / torch.clamp(sq.sqrt(), min=clip.clip_norm)
                    for t in ts:
                        t.grad.mul_(scale.to(t.grad.dtype))
            for p in self._params:
                if not self.owned(p) and p._t.grad is not None:
                    stashed.append((p._t, p._t.grad))
                    p._t.grad = None
            if type(clip).__name__ == "ClipGradByGlobalNorm":
                with _no_group_clip(inner):
                    inner.step()
            else:
                inner.step()
            if self._level == "os":                 # gradients stay whole on every rank
                for t, grad in stashed:
                    t.grad = grad
            if g is not None and g.nranks > 1:
                for p in self._params:
                    dist.broadcast(p._t.detach(), g.ranks[self._owner[id(p)]],
                                   group=g.process_group)

    def clear_grad(self, set_to_zero=True):
        for p in self._params:
            if not p.stop_gradient and p._t.grad is not None:
                p.clear_gradient(set_to_zero)

    def state_dict(self):
        return self._inner_opt.state_dict()

    def set_state_dict(self, state_dict):
        return self._inner_opt.set_state_dict(state_dict)


def group_sharded_parallel(model, optimizer, level, scaler=None, group=None, offload=False,
                           sync_buffers=False, buffer_max_size=2 ** 23, segment_size=2 ** 20,
                           sync_comm=False, dp_group=None, exclude_layer=None):
    """Wrap ``model`` and ``optimizer`` for group-sharded training over ``group`` (the whole
    job by default); returns ``(model, optimizer, scaler)``. See the module docstring for what
    each ``level`` partitions."""
    if level not in _LEVELS:
        raise ValueError(f"level must be one of {list(_LEVELS)}, got {level!r}")
    if offload:
        raise NotImplementedError("group_sharded_parallel: offload=True (optimizer states on "
                                  "the CPU while training on an accelerator) is not supported")
    if exclude_layer and level == "p_g_os":
        raise NotImplementedError("group_sharded_parallel: exclude_layer (layers left whole "
                                  "at level 'p_g_os') is not supported")
    if dp_group is not None:
        raise NotImplementedError("group_sharded_parallel: dp_group (sharding combined with "
                                  "another data-parallel axis) is not supported")
    active = is_initialized() and get_world_size() > 1
    g = collective._get_group(group) if active else None
    if active and level == "p_g_os":
        if g.nranks > 1:
            from .auto_parallel.sharding import fully_shard_layer   # lazy: FSDP2, DTensor
            from torch.distributed.device_mesh import DeviceMesh
            params = model.parameters()
            device = params[0]._t.device.type if params else "cpu"
            fully_shard_layer(model, DeviceMesh.from_group(g.process_group, device))
        return model, GroupShardedOptimizer(optimizer, g, level), scaler
    if active:
        model = DataParallel(model, group=g)
        if sync_buffers:
            model._sync_params_buffers()
    return model, GroupShardedOptimizer(optimizer, g, level), scaler


def save_group_sharded_model(model, output, optimizer=None):
    """Save the model (``output/model.pdmodel``) and, given the optimizer, its states gathered
    from the ranks that own them (``output/model.pdopt``); rank 0 writes."""
    from ..framework.io import save
    if os.path.isfile(output):
        raise ValueError(f"Saving directory ({output}) should be a directory, not a file")
    layer = getattr(model, "_layers", model)
    if "_fsdp" in layer.__dict__:          # p_g_os: the full values, gathered on every rank
        from .auto_parallel.sharding import full_state_dict
        state = full_state_dict(layer)
    else:
        state = dict(layer.state_dict())
    opt_state = None
    if optimizer is not None:
        inner = getattr(optimizer, "_inner_opt", optimizer)
        local = {k: (v.numpy() if hasattr(v, "numpy") else v)
                 for k, v in inner.state_dict().items()}
        if is_initialized() and get_world_size() > 1:
            parts = []
            collective.all_gather_object(parts, local)
            opt_state = {}
            for part in parts:
                opt_state.update(part)
        else:
            opt_state = local
    if not is_initialized() or dist.get_rank() == 0:
        os.makedirs(output, exist_ok=True)
        save(state, os.path.join(output, "model.pdmodel"))
        if opt_state is not None:
            save(opt_state, os.path.join(output, "model.pdopt"))
