"""``paddle.distributed`` on ``torch.distributed``: the parallel environment, collectives,
``DataParallel``, ``spawn`` and ``launch``.

The job is described by Paddle's environment variables, which ``launch`` / ``spawn`` set (see
``env``); ``init_parallel_env()`` starts a torch process group (gloo on CPU, NCCL on GPU), and
the collectives (``collective``) work in place on paddle_compat Tensors over it.
"""
from .collective import (Group, ReduceOp, all_gather, all_gather_object, all_reduce, alltoall,
                         alltoall_single, barrier, broadcast, broadcast_object_list, gather,
                         get_group, irecv, isend, new_group, recv, reduce, reduce_scatter,
                         scatter, scatter_object_list, send, wait, P2POp, batch_isend_irecv,
                         send_object_list, recv_object_list, shutdown_process_group,
                         restart_process_group, ParallelMode, gloo_init_parallel_env,
                         gloo_barrier, gloo_release)
from . import io, stream
from .ps_stubs import (BoxPSDataset, CountFilterEntry, InMemoryDataset, ProbabilityEntry,
                       QueueDataset, ShowClickEntry, create_nccl_config)
from .split import split
from .env import (ParallelEnv, destroy_process_group, get_backend, get_rank, get_world_size,
                  init_parallel_env, is_available, is_initialized)
from .parallel import DataParallel
from .spawn import spawn
from .launch.main import launch      # as in Paddle, the attribute is the function
from . import fleet, sharding                                # noqa: E402
from .sharding import group_sharded_parallel, save_group_sharded_model      # noqa: E402

# The auto-parallel API (``auto_parallel``) is bound on first use: it imports
# torch.distributed.tensor, which must not start while torch itself may still be importing
# (``inspect.getmodule`` walking sys.modules during ``import torch._inductor`` touches this
# package) and which costs import time that plain collective jobs do not need.
_AUTO_PARALLEL = (
    "ProcessMesh", "get_mesh", "set_mesh", "Placement", "Shard", "Replicate", "Partial",
    "ReduceType", "shard_tensor", "dtensor_from_fn", "reshard", "unshard_dtensor", "shard_layer",
    "shard_optimizer", "shard_scaler", "shard_dataloader", "ShardingStage1", "ShardingStage2",
    "ShardingStage3", "parallelize", "ColWiseParallel", "RowWiseParallel",
    "SequenceParallelBegin", "SequenceParallelEnd", "SequenceParallelEnable",
    "SequenceParallelDisable", "PrepareLayerInput", "PrepareLayerOutput", "SplitPoint",
    "save_state_dict", "load_state_dict", "Strategy", "DistModel", "to_static", "LocalLayer",
    "local_map", "shard_op", "DistAttr", "ShardedWeight", "ShardedStateDict", "shard_weight",
    "build_sharded_state_dict", "load_merged_state_dict", "to_distributed", "enable_auto_dp",
    "ContextParallel", "PrepareContextParallel", "ConvParallel")


__all__ = ["ParallelEnv", "init_parallel_env", "get_rank", "get_world_size", "is_initialized",
           "is_available", "destroy_process_group", "get_backend", "ReduceOp", "Group",
           "new_group", "get_group", "all_reduce", "all_gather", "all_gather_object",
           "broadcast", "broadcast_object_list", "reduce", "reduce_scatter", "scatter",
           "scatter_object_list", "gather", "alltoall", "alltoall_single", "barrier", "send",
           "recv", "isend", "irecv", "wait", "DataParallel", "spawn", "launch",
           "P2POp", "batch_isend_irecv", "send_object_list", "recv_object_list",
           "shutdown_process_group", "restart_process_group", "ParallelMode",
           "gloo_init_parallel_env", "gloo_barrier", "gloo_release", "io", "stream",
           "BoxPSDataset", "CountFilterEntry", "InMemoryDataset", "ProbabilityEntry",
           "QueueDataset", "ShowClickEntry", "create_nccl_config", "split"
           ] + list(_AUTO_PARALLEL)


def __getattr__(name):
    if name in _AUTO_PARALLEL:
        from . import auto_parallel
        value = getattr(auto_parallel, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
