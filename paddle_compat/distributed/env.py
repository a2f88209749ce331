"""The parallel environment: ``ParallelEnv``, ``init_parallel_env``, ``get_rank``,
``get_world_size``, on ``torch.distributed``.

Paddle describes a job with environment variables (set by ``paddle.distributed.launch`` /
``spawn``): ``PADDLE_TRAINER_ID``, ``PADDLE_TRAINERS_NUM``, ``PADDLE_TRAINER_ENDPOINTS``,
``PADDLE_CURRENT_ENDPOINT``, ``FLAGS_selected_gpus``. ``init_parallel_env`` reads them and
starts a ``torch.distributed`` process group: gloo on CPU, NCCL when the current device is a
GPU (``PADDLE_DISTRI_BACKEND=gloo|nccl`` overrides). The rendezvous is ``MASTER_ADDR`` /
``MASTER_PORT`` if set, else ``PADDLE_MASTER``, else the first trainer endpoint, as in Paddle.
"""
import atexit
import datetime
import os
import warnings

import torch
import torch.distributed as dist
from ..framework.place import get_device, set_device
from . import collective

__all__ = ["ParallelEnv", "init_parallel_env", "get_rank", "get_world_size",
           "is_initialized", "is_available", "destroy_process_group", "get_backend"]


class ParallelEnv:
    """The job as the environment describes it (read once, at construction)."""

    def __init__(self):
        self._rank = int(os.getenv("PADDLE_TRAINER_ID", "0"))
        self._world_size = int(os.getenv("PADDLE_TRAINERS_NUM", "1"))
        self._device_type = ""
        self._pg_timeout = int(os.getenv("PADDLE_PG_TIMEOUT", "1800000"))
        self._device_id = int(os.getenv("FLAGS_selected_gpus", "0").split(",")[0])
        self._trainer_endpoints = os.getenv("PADDLE_TRAINER_ENDPOINTS", "").split(",")
        self._current_endpoint = os.getenv("PADDLE_CURRENT_ENDPOINT", "")
        self._nrings = int(os.getenv("FLAGS_nccl_nrings", "1"))

    @property
    def rank(self):
        """``PADDLE_TRAINER_ID`` (default 0)."""
        return self._rank

    @property
    def world_size(self):
        """``PADDLE_TRAINERS_NUM`` (default 1)."""
        return self._world_size

    @property
    def device_id(self):
        """The first of ``FLAGS_selected_gpus`` (default 0)."""
        return self._device_id

    @property
    def device_type(self):
        return self._device_type

    @property
    def current_endpoint(self):
        """``PADDLE_CURRENT_ENDPOINT`` (default "")."""
        return self._current_endpoint

    @property
    def trainer_endpoints(self):
        """``PADDLE_TRAINER_ENDPOINTS`` split at commas (default ``[""]``)."""
        return self._trainer_endpoints

    @property
    def nrings(self):
        return self._nrings

    @property
    def pg_timeout(self):
        return self._pg_timeout

    # the 1.x names
    local_rank = rank
    nranks = world_size
    dev_id = device_id

    def __repr__(self):
        return (f"ParallelEnv(rank={self.rank}, world_size={self.world_size}, "
                f"device_id={self.device_id}, current_endpoint={self.current_endpoint!r}, "
                f"trainer_endpoints={self.trainer_endpoints!r})")


_global_env = None


def _get_global_parallel_env():
    global _global_env
    if _global_env is None:
        _global_env = ParallelEnv()
    return _global_env


def _on_gpu():
    """True when Paddle's current device is a GPU (the launchers then default to NCCL)."""
    return get_device().startswith("gpu") and torch.cuda.is_available()


def _choose_backend():
    backend = os.environ.get("PADDLE_DISTRI_BACKEND", "auto").lower()
    if backend == "auto":
        return "nccl" if _on_gpu() else "gloo"
    if backend in ("gloo", "nccl"):
        return backend
    raise NotImplementedError(f"paddle.distributed backend {backend!r} is not supported by "
                              "paddle_compat yet: use 'gloo' (CPU) or 'nccl' (CUDA)")


def _rendezvous(env):
    addr, port = os.getenv("MASTER_ADDR"), os.getenv("MASTER_PORT")
    if addr and port:
        return addr, int(port)
    ep = os.getenv("PADDLE_MASTER") or env.trainer_endpoints[0]
    if not ep:
        raise ValueError("paddle.distributed initialize error: set MASTER_ADDR and MASTER_PORT, "
                         "or PADDLE_TRAINER_ENDPOINTS, or start the job with "
                         "paddle.distributed.launch / spawn")
    host, _, port = ep.rpartition(":")
    return host, int(port)


def init_parallel_env():
    """Start the process group this job's environment describes; returns the global Group.

    With fewer than two trainers it does nothing (Paddle warns and returns None). Calling it
    again returns the existing group.
    """
    global _global_env
    _global_env = env = ParallelEnv()
    if env.world_size < 2:
        warnings.warn("Currently not a parallel execution environment, "
                      "`paddle.distributed.init_parallel_env` will not do anything.")
        return None
    if collective._default_group is not None:
        return collective._default_group
    for var in ("PADDLE_TRAINER_ID", "PADDLE_CURRENT_ENDPOINT", "PADDLE_TRAINERS_NUM"):
        if os.getenv(var) is None:
            raise ValueError("paddle.distributed initialize error, "
                             f"environment variable {var} is needed, but not set.")
    backend = _choose_backend()
    if backend == "nccl":
        set_device(f"gpu:{env.device_id}")      # also torch.cuda.set_device
    else:
        set_device("cpu")
    addr, port = _rendezvous(env)
    if not dist.is_initialized():
        dist.init_process_group(backend, init_method=f"tcp://{addr}:{port}", rank=env.rank,
                                world_size=env.world_size,
                                timeout=datetime.timedelta(milliseconds=env.pg_timeout))
        # Paddle programs never tear the group down; torch's must be destroyed before the
        # interpreter exits, or its C++ threads can abort the process at exit ("terminate
        # called without an active exception") after the program has finished.
        atexit.register(_destroy_at_exit)
    return collective._make_default_group(backend)


def _destroy_at_exit():
    if is_initialized():
        destroy_process_group()


def get_rank(group=None):
    """This process's rank in ``group`` (-1 if not a member), else in the whole job."""
    if group is not None:
        return group.rank
    if is_initialized():
        return dist.get_rank()
    return _get_global_parallel_env().rank


def get_world_size(group=None):
    """The number of processes in ``group`` (-1 if not a member), else in the whole job."""
    if group is not None:
        return group.world_size
    if is_initialized():
        return dist.get_world_size()
    return _get_global_parallel_env().world_size


def is_initialized():
    return dist.is_available() and dist.is_initialized()


def is_available():
    return dist.is_available()


def get_backend(group=None):
    """``"GLOO"`` or ``"NCCL"``, as Paddle names its process groups' backends."""
    g = collective._get_group(group)
    return g.backend


def destroy_process_group(group=None):
    """Tear down ``group``, or everything (the default group and every new_group)."""
    if group is None or group is collective._default_group:
        if dist.is_initialized():
            dist.destroy_process_group()
        collective._reset()
    else:
        if group.process_group not in (None, dist.GroupMember.NON_GROUP_MEMBER):
            dist.destroy_process_group(group.process_group)
        collective._groups.pop(group.id, None)
