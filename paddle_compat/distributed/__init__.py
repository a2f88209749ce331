"""``paddle.distributed`` on ``torch.distributed``: the parallel environment, collectives,
``DataParallel``, ``spawn`` and ``launch``.

The job is described by Paddle's environment variables, which ``launch`` / ``spawn`` set (see
``env``); ``init_parallel_env()`` starts a torch process group (gloo on CPU, NCCL on GPU), and
the collectives (``collective``) work in place on paddle_compat Tensors over it.
"""
from .collective import (Group, ReduceOp, all_gather, all_gather_object, all_reduce, alltoall,
                         alltoall_single, barrier, broadcast, broadcast_object_list, gather,
                         get_group, irecv, isend, new_group, recv, reduce, reduce_scatter,
                         scatter, scatter_object_list, send, wait)
from .env import (ParallelEnv, destroy_process_group, get_backend, get_rank, get_world_size,
                  init_parallel_env, is_available, is_initialized)
from .parallel import DataParallel
from .spawn import spawn
from .launch.main import launch      # as in Paddle, the attribute is the function

__all__ = ["ParallelEnv", "init_parallel_env", "get_rank", "get_world_size", "is_initialized",
           "is_available", "destroy_process_group", "get_backend", "ReduceOp", "Group",
           "new_group", "get_group", "all_reduce", "all_gather", "all_gather_object",
           "broadcast", "broadcast_object_list", "reduce", "reduce_scatter", "scatter",
           "scatter_object_list", "gather", "alltoall", "alltoall_single", "barrier", "send",
           "recv", "isend", "irecv", "wait", "DataParallel", "spawn", "launch"]
