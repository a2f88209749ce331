"""``GroupShardedOptimizerStage2``: ZeRO stage 2 (optimizer states and gradients sharded over
``group``) of ``paddle.distributed.sharding`` (level ``os_g``), constructed as Paddle's class
is (``params``, ``optim``, ``group`` ...)."""
from .... import collective as _c
from ....sharding import GroupShardedOptimizer

__all__ = []


class GroupShardedOptimizerStage2(GroupShardedOptimizer):
    """``optim`` updating only this rank's share of ``params`` (the job's group when ``group``
    is None); other attributes pass through to ``optim``. ``offload`` (optimizer states in
    host memory beside device parameters) is not supported: it raises at construction."""

    def __init__(self, params, optim, group=None, offload=False, device="gpu",
                 pretrain_sync_models=True, dp_group=None, **kw):
        if offload:
            raise NotImplementedError("GroupShardedOptimizerStage2(offload=True): offloading "
                                      "optimizer states to host memory is not supported by "
                                      "paddle_compat (its parameters already live where the "
                                      "optimizer runs); use offload=False")
        params = list(params)
        if group is None and _c.get_group(0) is not None:
            group = _c.get_group(0)
        super().__init__(optim, group, "os_g")
        self.__dict__.update(_optim=optim, offload=False, _broadcast_overlap=False,
                             _dp_group=dp_group, _local_params=params, _default_device=device)
        if pretrain_sync_models and group is not None and group.nranks > 1:
            for p in params:
                _c.broadcast(p, src=group.ranks[0], group=group)
