"""``paddle.distributed.communication.reduce``: the reduction kinds (``ReduceOp``), their
process-group form (``_get_reduce_op``) and ``reduce``."""
import torch
import torch.distributed as dist

from ..collective import ReduceOp, reduce

__all__ = []

_PG_OPS = {ReduceOp.SUM: dist.ReduceOp.SUM, ReduceOp.MAX: dist.ReduceOp.MAX,
           ReduceOp.MIN: dist.ReduceOp.MIN, ReduceOp.PROD: dist.ReduceOp.PRODUCT,
           ReduceOp.AVG: dist.ReduceOp.AVG}


def _get_reduce_op(reduce_op):
    """The process group's reduction for ``reduce_op`` (a ``ReduceOp`` value); ValueError for
    anything else, as in Paddle."""
    try:
        return _PG_OPS[reduce_op]
    except (KeyError, TypeError):
        raise ValueError(f"Unknown reduce_op type for {reduce_op}.") from None


def is_avg_reduce_op_supported():
    """Whether ``ReduceOp.AVG`` reaches the backend as one operation (NCCL); gloo composes it
    (``all_reduce`` sums and divides), so the answer is False on CPU."""
    return torch.cuda.is_available() and dist.is_nccl_available()
