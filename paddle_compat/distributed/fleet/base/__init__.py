"""``paddle.distributed.fleet.base``: the modules Paddle keeps fleet's machinery in. Ours live
one level up (``fleet.topology``, ``fleet.role_maker``, ``fleet.strategy``); Paddle's names for
them (``fleet.base.topology`` ...) resolve to those modules."""
from .. import role_maker, topology
from . import private_helper_function
from .. import strategy as distributed_strategy

__all__ = []
