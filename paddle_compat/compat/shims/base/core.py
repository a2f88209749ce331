"""``paddle.base.core``: the build queries scripts branch on, answered for torch's build."""
import torch

from ....framework.place import CPUPlace, CUDAPinnedPlace, CUDAPlace, is_compiled_with_cuda

__all__ = ["is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
           "is_compiled_with_custom_device", "is_compiled_with_distribute",
           "get_cuda_device_count", "CPUPlace", "CUDAPlace", "CUDAPinnedPlace"]


def is_compiled_with_rocm():
    return torch.version.hip is not None


def is_compiled_with_xpu():
    return False


def is_compiled_with_custom_device(device_type=None):
    return False


def is_compiled_with_distribute():
    return torch.distributed.is_available()


def get_cuda_device_count():
    return torch.cuda.device_count() if torch.cuda.is_available() else 0
