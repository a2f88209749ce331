"""``paddle.base.core``: the build queries scripts branch on, answered for torch's build."""
import torch

from ....framework.place import (CPUPlace, CUDAPinnedPlace, CUDAPlace, CustomPlace, IPUPlace,
                                Place, XPUPinnedPlace, XPUPlace, is_compiled_with_cuda)

__all__ = ["is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
           "is_compiled_with_custom_device", "is_compiled_with_distribute",
           "get_cuda_device_count", "Place", "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace",
           "XPUPinnedPlace", "IPUPlace", "CustomPlace",
           "is_compiled_with_onednn", "is_compiled_with_mkldnn", "get_all_device_type"]


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


def is_compiled_with_onednn():
    """Whether the build uses oneDNN on CPU: torch's does where ``torch.backends.mkldnn`` is
    available."""
    return torch.backends.mkldnn.is_available()


is_compiled_with_mkldnn = is_compiled_with_onednn


def get_all_device_type():
    """The custom-device plugin types registered (Paddle's PluggableDevice): none."""
    return []
