"""``paddle.distributed.fleet.meta_parallel``: tensor-parallel layers, model-parallel random
states and pipeline parallelism."""
from .mp_layers import (ColumnParallelLinear, ParallelCrossEntropy, RowParallelLinear,
                        VocabParallelEmbedding)
from .random import RNGStatesTracker, get_rng_state_tracker, model_parallel_random_seed
from .pp_layers import LayerDesc, LocalSharedLayerDesc, PipelineLayer, SharedLayerDesc
from .pipeline_parallel import PipelineParallel
from .tensor_parallel import TensorParallel

__all__ = ["ColumnParallelLinear", "RowParallelLinear", "VocabParallelEmbedding",
           "ParallelCrossEntropy", "RNGStatesTracker", "get_rng_state_tracker",
           "model_parallel_random_seed", "LayerDesc", "SharedLayerDesc", "LocalSharedLayerDesc",
           "PipelineLayer",
           "PipelineParallel", "TensorParallel"]
