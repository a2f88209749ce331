"""``paddle.distributed.fleet.meta_optimizers``: the optimizer wrappers of collective training
(``dygraph_optimizer``) and ``DGCMomentumOptimizer`` (refused, see ``dgc``)."""
from . import dygraph_optimizer
from .dgc import DGCMomentumOptimizer
from .dygraph_optimizer import (DygraphShardingOptimizer, DygraphShardingOptimizerV2,
                                HybridParallelOptimizer)

__all__ = []
