"""``HybridParallelOptimizer`` (what ``fleet.distributed_optimizer`` returns in collective
mode): before the wrapped optimizer's step, gradients are averaged over the data-parallel group
(unless a ``DataParallel`` model already did it) and a ``ClipGradByGlobalNorm`` clip uses the
norm of the whole model: squared norms of model-parallel slices summed over the model-parallel
group, replicated parameters counted once, stages summed over the pipeline group."""
import contextlib

import torch
import torch.distributed as dist

from .topology import ParallelMode

__all__ = ["HybridParallelOptimizer"]


def _pg(group):
    return None if group is None or group.nranks <= 1 else group.process_group


@contextlib.contextmanager
def _no_group_clip(opt):
    """The optimizer's own clip switched off (the clip was applied to all ranks' gradients)."""
    saved = [(g, g.get("grad_clip")) for g in opt._param_groups]
    clip = opt._grad_clip
    for g, _ in saved:
        g["grad_clip"] = None
    opt._grad_clip = None
    try:
        yield
    finally:
        for g, c in saved:
            g["grad_clip"] = c
        opt._grad_clip = clip


class HybridParallelOptimizer:
    def __init__(self, optimizer, hcg, strategy):
        self.__dict__["_inner_opt"] = optimizer
        self._hcg = hcg
        self._strategy = strategy

    def __getattr__(self, name):
        return getattr(self.__dict__["_inner_opt"], name)

    def __setattr__(self, name, value):
        if name in ("_hcg", "_strategy") or name in self.__dict__:
            self.__dict__[name] = value
        else:
            setattr(self.__dict__["_inner_opt"], name, value)

    def _params(self):
        out = []
        for p in self._inner_opt._parameter_list or []:
            out += list(p["params"]) if isinstance(p, dict) else [p]
        return [p for p in out if not p.stop_gradient]

    def _sync_dp_grads(self):
        """Average the gradients over the ranks that see different data: the data-parallel
        group (unless DataParallel did it in backward) and the sharding group (its ranks are
        data-parallel replicas too, as in Paddle's sharding)."""
        hcg = self._hcg
        if hcg is None:
            return
        groups = [_pg(hcg.get_sharding_parallel_group())]
        if hcg.get_parallel_mode() != ParallelMode.DATA_PARALLEL:
            groups.append(_pg(hcg.get_data_parallel_group()))
        groups = [g for g in groups if g is not None]
        if not groups:
            return
        ts = [p._t for p in self._params()]
        grads = [t.grad if t.grad is not None else torch.zeros_like(t) for t in ts]
        flat = torch.cat([x.reshape(-1) for x in grads])
        for g in groups:
            dist.all_reduce(flat, group=g)
            flat.div_(dist.get_world_size(g))
        off = 0
        for t, x in zip(ts, grads):
            n = x.numel()
            t.grad = flat[off:off + n].view_as(x).clone()
            off += n

    def _global_clip(self, clip):
        hcg = self._hcg
        dist_sq = torch.zeros((), dtype=torch.float64)
        rep_sq = torch.zeros((), dtype=torch.float64)
        ts = []
        for p in self._params():
            t = p._t
            if t.grad is None or getattr(p, "need_clip", True) is False:
                continue
            ts.append(t)
            s = t.grad.double().pow(2).sum()
            if getattr(p, "is_distributed", False):
                dist_sq = dist_sq + s
            else:
                rep_sq = rep_sq + s
        mp = _pg(hcg.get_model_parallel_group())
        if mp is not None:
            dist.all_reduce(dist_sq, group=mp)
        total = dist_sq + rep_sq
        pp = _pg(hcg.get_pipe_parallel_group())
        if pp is not None:
            dist.all_reduce(total, group=pp)
        norm = total.sqrt()
        scale = clip.clip_norm / torch.clamp(norm, min=clip.clip_norm)
        with torch.no_grad():
            for t in ts:
                t.grad.mul_(scale.to(t.grad.dtype))

    def step(self):
        self._sync_dp_grads()
        inner = self._inner_opt
        clip = getattr(inner, "_grad_clip", None)
        hcg = self._hcg
        hybrid = hcg is not None and (hcg.get_model_parallel_world_size() > 1
                                      or hcg.get_pipe_parallel_world_size() > 1)
        if hybrid and type(clip).__name__ == "ClipGradByGlobalNorm":
            self._global_clip(clip)
            with _no_group_clip(inner):
                inner.step()
        else:
            inner.step()

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        self.step()
        return None, None

    def clear_grad(self, set_to_zero=True):
        return self._inner_opt.clear_grad(set_to_zero)
