"""``paddle.device``: choose and query devices (CPU, CUDA through torch). As in Paddle 3.x the
module is also callable: ``paddle.device("cuda:0")`` is ``paddle.device.Device("cuda:0")``."""
import sys
import types

import torch

from ..framework.place import Device, get_device, is_compiled_with_cuda, set_device
from . import cuda

__all__ = ["set_device", "get_device", "synchronize", "is_compiled_with_cuda", "cuda",
           "get_all_device_type", "get_available_device", "Device"]


class _DeviceNamespace(types.ModuleType):
    """The ``paddle.device`` module, callable."""

    def __call__(self, *args, **kwargs):
        return Device(*args, **kwargs)


sys.modules[__name__].__class__ = _DeviceNamespace


def synchronize(device=None):
    """Wait for all work on a CUDA device to finish (nothing to wait for on CPU)."""
    if torch.cuda.is_available():
        torch.cuda.synchronize(cuda._index(device))


def get_all_device_type():
    return ["cpu", "gpu"] if torch.cuda.is_available() else ["cpu"]


def get_available_device():
    return ["cpu"] + [f"gpu:{i}" for i in range(torch.cuda.device_count())]
