"""``paddle.device``: choose and query devices (CPU, CUDA through torch)."""
import torch

from ..framework.place import get_device, is_compiled_with_cuda, set_device
from . import cuda

__all__ = ["set_device", "get_device", "synchronize", "is_compiled_with_cuda", "cuda",
           "get_all_device_type", "get_available_device"]


def synchronize(device=None):
    """Wait for all work on a CUDA device to finish (nothing to wait for on CPU)."""
    if torch.cuda.is_available():
        torch.cuda.synchronize(cuda._index(device))


def get_all_device_type():
    return ["cpu", "gpu"] if torch.cuda.is_available() else ["cpu"]


def get_available_device():
    return ["cpu"] + [f"gpu:{i}" for i in range(torch.cuda.device_count())]
