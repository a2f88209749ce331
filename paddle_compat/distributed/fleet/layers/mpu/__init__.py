"""``paddle.distributed.fleet.layers.mpu``: the tensor-parallel layers, their communication
ops (``mp_ops``) and the model-parallel random states (``random``), under Paddle's module path;
they are the ones ``fleet.meta_parallel`` exports (Paddle re-exports them there too)."""
from ...meta_parallel import mp_layers, mp_ops, random
from ...meta_parallel.mp_layers import (ColumnParallelLinear, ParallelCrossEntropy,
                                        RowParallelLinear, VocabParallelEmbedding)
from ...meta_parallel.random import (RNGStatesTracker, dropout, get_rng_state_tracker,
                                     model_parallel_random_seed)

__all__ = []
