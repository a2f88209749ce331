"""Paddle's auto-parallel API on ``torch.distributed.tensor``: meshes (``process_mesh``),
placements (``placement``), distributed tensors (``api``), and the layer/optimizer/data
helpers built on them (``sharding``)."""
from .placement import Partial, Placement, ReduceType, Replicate, Shard
from .process_mesh import ProcessMesh, get_mesh, set_mesh
from .api import dtensor_from_fn, reshard, shard_tensor, unshard_dtensor
from .sharding import (ShardingStage1, ShardingStage2, ShardingStage3,
                       shard_dataloader, shard_layer, shard_optimizer, shard_scaler)

from .checkpoint import load_state_dict, save_state_dict
from .parallelize import (ColWiseParallel, PrepareLayerInput, PrepareLayerOutput,
                          RowWiseParallel, SequenceParallelBegin, SequenceParallelDisable,
                          SequenceParallelEnable, SequenceParallelEnd, SplitPoint, parallelize)
from .static_api import (ContextParallel, ConvParallel, DistAttr, DistModel, LocalLayer,
                         PrepareContextParallel, ShardedStateDict, ShardedWeight, Strategy,
                         build_sharded_state_dict, enable_auto_dp, load_merged_state_dict,
                         local_map, shard_op, shard_weight, to_distributed, to_static)

__all__ = ["ProcessMesh", "get_mesh", "set_mesh", "Placement", "Shard", "Replicate", "Partial",
           "ReduceType", "shard_tensor", "dtensor_from_fn", "reshard", "unshard_dtensor",
           "shard_layer", "shard_optimizer", "shard_scaler", "shard_dataloader",
           "ShardingStage1", "ShardingStage2", "ShardingStage3", "parallelize",
           "ColWiseParallel", "RowWiseParallel", "SequenceParallelBegin", "SequenceParallelEnd",
           "SequenceParallelEnable", "SequenceParallelDisable", "PrepareLayerInput",
           "PrepareLayerOutput", "SplitPoint", "save_state_dict", "load_state_dict",
           "Strategy", "DistModel", "to_static", "LocalLayer", "local_map", "shard_op",
           "DistAttr", "ShardedWeight", "ShardedStateDict", "shard_weight",
           "build_sharded_state_dict", "load_merged_state_dict", "to_distributed",
           "enable_auto_dp", "ContextParallel", "PrepareContextParallel", "ConvParallel"]
