"""``paddle.distributed.communication``: the collectives under the module path Paddle defines
them in (``paddle.distributed`` re-exports them); ``group`` holds the group registry's private
helpers, ``reduce`` the reduction kinds, ``stream`` the stream-level forms."""
from ..collective import (P2POp, all_gather, all_gather_object, all_reduce, alltoall,
                          alltoall_single, barrier, batch_isend_irecv, broadcast,
                          broadcast_object_list, gather, get_group, irecv, isend, recv,
                          recv_object_list, reduce_scatter, scatter, scatter_object_list, send,
                          send_object_list, wait)
from ..env import destroy_process_group, get_backend, is_initialized
from .. import stream
from . import group
from .reduce import ReduceOp, reduce

__all__ = []
