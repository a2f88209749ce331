"""``...dygraph_optimizer.dygraph_sharding_optimizer``: sharding stage 1 inside hybrid
parallelism. The parameters are assigned to the ranks of the hybrid group's sharding axis
(Paddle's rule: largest first, each to the least loaded rank); each rank keeps optimizer
states for, and updates, only its own, then every parameter is broadcast from its owner.
``reduce_gradients`` averages the gradients over the sharding group first. With one sharding
rank it is the wrapped optimizer.

``DygraphShardingOptimizerV2`` is Paddle's variant that keeps the parameters in fused
communication buffers split into equal slices; paddle_compat updates the same values with the
stage-1 assignment above (``pp_overlap`` and the buffer options are recorded, not used)."""
from .....autograd import no_grad
from .....ops.creation import zeros_like
from .... import collective as _c
from ....sharding import GroupShardedOptimizer

__all__ = []


def _numel(p):
    n = 1
    for d in p.shape:
        n *= d
    return n


class DygraphShardingOptimizer(GroupShardedOptimizer):
    """See the module docstring; ``hcg`` is the hybrid communicate group of ``fleet.init``."""

    def __init__(self, optimizer, hcg):
        params = list(optimizer._parameter_list)
        if params and isinstance(params[0], dict):
            raise TypeError("Do not support param_groups now, please set "
                            "optimizer._parameter_list as a list of Parameter")
        group = hcg.get_sharding_parallel_group() if hcg is not None else None
        super().__init__(optimizer, group, "os")
        n = group.nranks if group is not None else 1
        rank2params = {r: [] for r in range(n)}
        sizes = [0] * n
        for p in sorted(params, key=_numel, reverse=True):
            r = sizes.index(min(sizes))
            rank2params[r].append(p)
            sizes[r] += _numel(p)
        owner = {id(p): r for r, ps in rank2params.items() for p in ps}
        self.__dict__.update(_hcg=hcg, _sharding_world_size=n, _sharding_rank=self._rank,
                             _rank2params=rank2params, _owner=owner,
                             _param2rank={p.name: r for r, ps in rank2params.items()
                                          for p in ps},
                             _parameter_list=params, comm_overlap=False, pp_overlap=False)

    def filter_parameters(self, parameter_list, hcg):
        """The parameters of ``parameter_list`` this sharding rank updates."""
        rank = hcg.get_sharding_parallel_rank()
        return [p for p in parameter_list if self._param2rank[p.name] == rank]

    def reduce_gradients(self, parameter_list, hcg):
        """Average the gradients (``main_grad`` where a parameter has one) over the sharding
        group; a trainable parameter without one gets zeros first."""
        group = hcg.get_sharding_parallel_group()
        if group is None or group.nranks <= 1:
            return
        with no_grad():
            for p in parameter_list:
                if p.stop_gradient:
                    continue
                uses_main = hasattr(p, "main_grad")
                g = p.main_grad if uses_main else p.grad
                if g is None:
                    g = zeros_like(p, dtype="float32" if uses_main else p.dtype)
                    if uses_main:
                        p.main_grad = g
                    else:
                        p._t.grad = g._t
                        g = p.grad
                g.scale_(1.0 / group.nranks)
                _c.all_reduce(g, group=group)

    def _sharding_sync_parameters(self):
        """Broadcast every parameter from the sharding rank that owns it."""
        g = self._group
        if g is None or g.nranks <= 1:
            return
        for p in self._params:
            _c.broadcast(p, src=g.ranks[self._owner[id(p)]], group=g)


class DygraphShardingOptimizerV2(DygraphShardingOptimizer):
    """See the module docstring."""
