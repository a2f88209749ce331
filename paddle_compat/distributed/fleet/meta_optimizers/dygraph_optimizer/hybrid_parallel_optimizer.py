"""``...dygraph_optimizer.hybrid_parallel_optimizer``: ``HybridParallelOptimizer`` (kept in
``fleet.hybrid_optimizer``) and the parameter-list helper Paddle imports into it."""
from ...hybrid_optimizer import HybridParallelOptimizer
from ...utils.hybrid_parallel_util import obtain_optimizer_parameters_list

__all__ = []
