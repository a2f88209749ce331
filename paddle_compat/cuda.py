"""``paddle.cuda``: Paddle 3's torch.cuda-style namespace.

The device queries and memory statistics are ``paddle.device.cuda``'s (torch's CUDA runtime
underneath; 0 devices and ``is_available() == False`` on a machine without CUDA, as on a CPU
build of Paddle). The typed tensor constructors are the top-level ones
(``paddle.cuda.FloatTensor is paddle.FloatTensor``, as in Paddle). ``manual_seed`` and
``manual_seed_all`` seed every generator, as ``paddle.seed`` does; ``get_rng_state`` /
``set_rng_state`` read and restore the CUDA generator where CUDA is available, else the CPU
stream (what Paddle's CPU build does).
"""
import torch

from .device.cuda import (Event, Stream, current_stream, device_count, empty_cache,
                          get_device_capability, get_device_name, get_device_properties,
                          max_memory_allocated, max_memory_reserved, memory_allocated,
                          memory_reserved, synchronize)
from .device.cuda import _index, _need_cuda
from .ops.random import get_rng_state as _get_rng_state
from .ops.random import seed as _seed
from .ops.random import set_rng_state as _set_rng_state
from .ops.torch_style import (BFloat16Tensor, BoolTensor, ByteTensor, CharTensor,
                              DoubleTensor, FloatTensor, HalfTensor, IntTensor, LongTensor,
                              ShortTensor)

__all__ = ["BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor",
           "FloatTensor", "HalfTensor", "IntTensor", "LongTensor", "ShortTensor", "Event",
           "Stream", "current_device", "current_stream", "device_count", "empty_cache",
           "get_device_capability", "get_device_name", "get_device_properties",
           "get_rng_state", "is_available", "is_bf16_supported",
           "is_current_stream_capturing", "is_initialized", "manual_seed", "manual_seed_all",
           "max_memory_allocated", "max_memory_reserved", "mem_get_info", "memory_allocated",
           "memory_reserved", "reset_max_memory_allocated", "reset_peak_memory_stats",
           "set_rng_state", "synchronize"]


def is_available():
    """Whether a CUDA device can be used."""
    return torch.cuda.is_available()


def current_device():
    """The index of the current CUDA device (0 without CUDA, as Paddle's CPU build)."""
    return torch.cuda.current_device() if torch.cuda.is_available() else 0


def is_initialized():
    return torch.cuda.is_initialized()


def is_current_stream_capturing():
    """Whether the current stream is capturing a CUDA graph (False without CUDA)."""
    return torch.cuda.is_available() and torch.cuda.is_current_stream_capturing()


def is_bf16_supported(including_emulation=True):
    return torch.cuda.is_available() and torch.cuda.is_bf16_supported(including_emulation)


def manual_seed(seed):
    """Seed every generator (``paddle.seed``)."""
    _seed(seed)


manual_seed_all = device_manual_seed_all = manual_seed


def get_rng_state(device=None):
    """The CUDA generator's state (the CPU stream's without CUDA)."""
    if torch.cuda.is_available():
        return torch.cuda.get_rng_state(_index(device) or 0)
    return _get_rng_state()[0]


def set_rng_state(new_state, device=None):
    if torch.cuda.is_available():
        torch.cuda.set_rng_state(new_state, _index(device) or 0)
    else:
        _set_rng_state([new_state])


def mem_get_info(device=None):
    """(free, total) bytes of the device."""
    _need_cuda("mem_get_info")
    return torch.cuda.mem_get_info(_index(device))


def reset_max_memory_allocated(device=None):
    _need_cuda("reset_max_memory_allocated")
    torch.cuda.reset_peak_memory_stats(_index(device))


def reset_peak_memory_stats(device=None):
    _need_cuda("reset_peak_memory_stats")
    torch.cuda.reset_peak_memory_stats(_index(device))


reset_max_memory_reserved = reset_peak_memory_stats


def set_device(device):
    """Make ``device`` (an int, 'gpu:N' or a CUDAPlace) the current CUDA device."""
    _need_cuda("set_device")
    torch.cuda.set_device(_index(device))


def stream(stream):
    """A context manager that makes ``stream`` current (None: nothing changes)."""
    return torch.cuda.stream(stream)


StreamContext = torch.cuda.StreamContext


def set_stream(stream):
    _need_cuda("set_stream")
    torch.cuda.set_stream(stream)


def ipc_collect():
    if not torch.cuda.is_available():
        raise RuntimeError("(Unavailable) Paddle is not compiled with CUDA/XPU, so `ipc_collect` "
                           "cannot be used")
    torch.cuda.ipc_collect()
