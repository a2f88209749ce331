"""``paddle.distributed.fleet.meta_parallel.sharding``: the group-sharded (ZeRO) optimizer and
scaler under Paddle's module path (``paddle.distributed.sharding`` runs them)."""
from . import group_sharded_optimizer_stage2, group_sharded_utils
from .group_sharded_optimizer_stage2 import GroupShardedOptimizerStage2
from .group_sharded_utils import GroupShardedScaler

__all__ = []
