"""``paddle.distributed.fleet.meta_optimizers``: the optimizer wrappers of collective training
(``dygraph_optimizer``)."""
from . import dygraph_optimizer
from .dygraph_optimizer import (DygraphShardingOptimizer, DygraphShardingOptimizerV2,
                                HybridParallelOptimizer)

__all__ = []
