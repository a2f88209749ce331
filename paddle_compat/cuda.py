"""``paddle.cuda``: Paddle 3's torch.cuda-style namespace.

Most names are ``paddle.device``'s (torch's CUDA runtime underneath; 0 devices and
``is_available() is False`` without CUDA, as on a CPU build of Paddle, with the same errors).
The typed tensor constructors are the top-level ones (``paddle.cuda.FloatTensor is
paddle.FloatTensor``). ``manual_seed`` seeds the current device's generator and
``manual_seed_all`` every generator (``paddle.seed``); ``get_rng_state`` / ``set_rng_state``
take the current device's state (the CPU stream's on the CPU, round-tripping bit for bit).
``cudart()``, ``CudaError`` and ``check_error`` are torch's CUDA runtime binding and checks.
"""
import torch

from .device import (BFloat16Tensor, BoolTensor, ByteTensor, CharTensor, DoubleTensor, Event,
                     FloatTensor, HalfTensor, IntTensor, LongTensor, ShortTensor, Stream,
                     StreamContext, amp, current_device, current_stream, device, device_count,
                     empty_cache, get_device_capability, get_device_name, get_device_properties,
                     get_rng_state, get_stream_from_external, ipc_collect,
                     is_available, is_bf16_supported, is_current_stream_capturing, manual_seed,
                     max_memory_allocated, max_memory_reserved, memory_allocated,
                     memory_reserved, nvtx, reset_max_memory_allocated, reset_max_memory_reserved,
                     reset_peak_memory_stats, set_rng_state, set_stream, stream, synchronize)
from .device import manual_seed_all as device_manual_seed_all
from .device import set_device as _set_device
from .device import _runtime as _rt
from .framework.place import Place, get_device

__all__ = ["cudart", "check_error", "is_available", "is_initialized", "mem_get_info",
           "synchronize", "current_stream", "get_device_properties", "get_device_name",
           "get_device_capability", "stream", "Stream", "get_stream_from_external",
           "current_device", "device_count", "empty_cache", "memory_allocated",
           "memory_reserved", "set_device", "set_stream", "manual_seed_all", "get_rng_state",
           "set_rng_state", "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor",
           "ByteTensor", "CharTensor", "ShortTensor", "IntTensor", "LongTensor", "BoolTensor",
           "device", "is_bf16_supported", "manual_seed", "max_memory_allocated",
           "reset_peak_memory_stats", "Event", "ipc_collect", "StreamContext"]


def is_initialized():
    """Whether CUDA can be used (Paddle: whether it was built with CUDA)."""
    return torch.cuda.is_available()


def manual_seed_all(seed):
    """Seed every generator (``paddle.seed``)."""
    device_manual_seed_all(seed)


def _no_cudart():
    return RuntimeError("cudart(): the CUDA runtime needs CUDA, and no CUDA device is available "
                        "to torch (torch.cuda.is_available() is False)")


def cudart():
    """The CUDA runtime binding (torch's: ``cudaGetErrorString``, ``cudaMemGetInfo``,
    ``cudaProfilerStart`` ...)."""
    if not torch.cuda.is_available():
        raise _no_cudart()
    return torch.cuda.cudart()


class CudaError(RuntimeError):
    """A CUDA runtime error code as an exception: "<the runtime's text> (<code>)"."""

    def __init__(self, code):
        text = "CUDA error"
        if torch.cuda.is_available():
            rt = torch.cuda.cudart()
            text = rt.cudaGetErrorString(rt.cudaError(code))
        super().__init__(f"{text} ({code})")


def check_error(res):
    """Raise CudaError unless ``res`` is cudaSuccess (0)."""
    if int(res) != 0:
        raise CudaError(int(res))


def mem_get_info(device=None):
    """(free, total) bytes of a GPU (an int, 'gpu:x', a CUDAPlace; None: the current one)."""
    if device is None and torch.cuda.is_available():
        return torch.cuda.mem_get_info(_rt.cuda_index(None, "mem_get_info"))
    if isinstance(device, int) and not isinstance(device, bool):
        idx = device
    else:
        place = _rt.to_place(get_device() if device is None else device)
        if not place.is_gpu_place():
            raise ValueError(f"Expected a cuda device, but got: {place}")
        idx = place.get_device_id()
    if not torch.cuda.is_available():
        raise ValueError(f"mem_get_info(): expected a cuda device, but got {device!r}: no CUDA "
                         "device is available to torch")
    return torch.cuda.mem_get_info(_rt.cuda_index(idx, "mem_get_info"))


def set_device(device):
    """Create new tensors on ``device`` (an int is a GPU index; 'gpu:x', 'cpu', a Place) and
    make it torch's current CUDA device."""
    if isinstance(device, int) and not isinstance(device, bool):
        if not torch.cuda.is_available():
            raise ValueError(f"set_device({device}): a GPU index needs CUDA, and no CUDA device "
                             "is available to torch; use set_device('cpu')")
        device = f"gpu:{device}"
    elif not isinstance(device, (str, Place)):
        raise ValueError(f"set_device(): device must be an int, a string or a Place, but got "
                         f"{device!r}")
    _set_device(device)
