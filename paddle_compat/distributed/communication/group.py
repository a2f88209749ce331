"""``paddle.distributed.communication.group``: Paddle's ``Group`` and the private helpers over
the job's group registry that libraries import (``_get_global_group`` ...)."""
import warnings

from ..collective import Group, _get_group, _groups, barrier, get_group, wait
from ..env import destroy_process_group, get_backend, get_rank, is_initialized

__all__ = []


def _get_global_group():
    """The group of the whole job; RuntimeError (Paddle's) before ``init_parallel_env``."""
    try:
        return _get_group(None)
    except RuntimeError:
        raise RuntimeError("The global group is not initialized.") from None


def _add_new_group(group):
    """Register ``group`` under its id (RuntimeError when the id is taken)."""
    if group.id in _groups:
        raise RuntimeError(f"The group with id {group.id} already exist.")
    _groups[group.id] = group


def _is_global_group(group):
    """Whether ``group`` is the job's global group (id 0)."""
    return group.id == 0


def _warn_cur_rank_not_in_group(group):
    """Warn (and return True) when this process is not a member of ``group``."""
    me = get_rank()
    if group is not None and not group.is_member():
        warnings.warn(f"Current global rank {me} is not in group {group.name}")
        return True
    return False


def _get_or_throw_group_rank(global_rank, group):
    """The rank of ``global_rank`` inside ``group``; RuntimeError when it is not a member."""
    group_rank = group.get_group_rank(global_rank) if group.nranks > 1 else (
        0 if global_rank in group.ranks else -1)
    if group_rank < 0:
        raise RuntimeError("The input rank is not in the group.")
    return group_rank
