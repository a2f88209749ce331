"""``paddle.utils.dlpack``: share tensor memory with other libraries.

``DLDeviceType`` numbers the devices as the DLPack standard does (``__dlpack_device__``
returns one of them); ``SupportDLPack`` is the typing Protocol of objects ``from_dlpack``
takes (``__dlpack__`` and ``__dlpack_device__``)."""
import enum
from typing import Protocol

from ..framework.interop import from_dlpack, to_dlpack

__all__ = ["to_dlpack", "from_dlpack"]


class DLDeviceType(enum.IntEnum):
    """DLPack's device type codes."""
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17
    kDLTrn = 18


class SupportDLPack(Protocol):
    """What ``from_dlpack`` accepts besides a capsule: an object exporting DLPack."""

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        ...

    def __dlpack_device__(self):
        ...
