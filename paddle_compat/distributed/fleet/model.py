"""``paddle.distributed.fleet.model``: ``distributed_model`` (what ``fleet.distributed_model``
is) and the parallel model wrappers Paddle imports into this module."""
from .fleet_base import fleet
from .meta_parallel import PipelineParallel, TensorParallel
from .topology import ParallelMode

__all__ = []


def distributed_model(model):
    """``model`` prepared for the job's hybrid parallelism (see ``Fleet.distributed_model``)."""
    return fleet.distributed_model(model)
