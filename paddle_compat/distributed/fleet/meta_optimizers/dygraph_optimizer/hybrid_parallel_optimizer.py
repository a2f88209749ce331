"""``...dygraph_optimizer.hybrid_parallel_optimizer``: ``HybridParallelOptimizer`` (kept in
``fleet.hybrid_optimizer``) and the parameter-list helper Paddle defines here."""
from ...hybrid_optimizer import HybridParallelOptimizer
from ...utils.hybrid_parallel_util import (
    obtain_optimizer_parameters_list as _obtain_optimizer_parameters_list)

__all__ = []
