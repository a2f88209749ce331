"""``paddle.distributed.fleet.meta_optimizers.dygraph_optimizer``: ``HybridParallelOptimizer``
(what ``fleet.distributed_optimizer`` returns) and the sharding-stage-1 optimizers."""
from . import dygraph_sharding_optimizer, hybrid_parallel_optimizer
from .dygraph_sharding_optimizer import DygraphShardingOptimizer, DygraphShardingOptimizerV2
from .hybrid_parallel_optimizer import HybridParallelOptimizer

__all__ = []
