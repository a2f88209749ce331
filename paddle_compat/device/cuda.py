"""``paddle.device.cuda``: CUDA device counts, synchronisation, streams, events, memory
statistics and generator states (Paddle 2.x's names, kept by Paddle 3.x). Without CUDA each
function behaves as Paddle's CPU build: ``device_count() == 0``, ``empty_cache()`` does nothing,
``Stream``/``Event``/``synchronize`` raise RuntimeError, the memory statistics ValueError, and
the generator functions work on the CPU stream."""
import contextlib

import torch

from . import _runtime as _rt
from ._runtime import device_count, empty_cache, get_rng_state, manual_seed, set_rng_state

__all__ = ["Stream", "Event", "current_stream", "synchronize", "device_count", "empty_cache",
           "max_memory_allocated", "max_memory_reserved", "memory_allocated", "memory_reserved",
           "stream_guard", "get_device_properties", "get_device_name", "get_device_capability",
           "reset_max_memory_allocated", "reset_max_memory_reserved", "memory_summary",
           "vmm_compact"]


def _need_cuda(what):
    if not torch.cuda.is_available():
        raise RuntimeError(f"(Unavailable) paddle.device.cuda.{what} needs CUDA, and no CUDA "
                           "device is available to torch (torch.cuda.is_available() is False)")


def _index(device, api="paddle.device.cuda"):
    """The CUDA index of a ``device`` argument (None: the current device)."""
    return _rt.cuda_index(device, api)


def extract_cuda_device_id(device, op_name):
    """The CUDA index of ``device`` (None: the current one) for the API ``op_name``."""
    return _rt.cuda_index(device, op_name)


class Stream(_rt.Stream):
    """A CUDA stream on GPU ``device`` (None: the current one); RuntimeError without CUDA."""

    def __init__(self, device=None, priority=2, stream_base=None):
        if stream_base is None:
            _need_cuda("Stream")
        super().__init__(device, priority, stream_base)


class Event(_rt.Event):
    """A CUDA event; RuntimeError without CUDA."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        _need_cuda("Event")
        super().__init__(enable_timing, blocking, interprocess)


def create_stream(device_id=None, priority=2, blocking=False, device_type=None):
    """A new Stream on GPU ``device_id`` (None: the current one)."""
    _need_cuda("create_stream")
    return Stream(device_id, priority)


def create_event(enable_timing=False, blocking=False, interprocess=False, device_type=None,
                 device_id=None):
    """A new Event."""
    _need_cuda("create_event")
    return Event(enable_timing, blocking, interprocess)


def current_stream(device=None):
    """The current stream of a GPU (an int, 'gpu:x', a CUDAPlace; None: the current one)."""
    _need_cuda("current_stream")
    return Stream(stream_base=torch.cuda.current_stream(_index(device, "current_stream")))


def synchronize(device=None):
    """Wait until all the work queued on a GPU has finished."""
    _need_cuda("synchronize")
    torch.cuda.synchronize(_index(device, "synchronize"))


@contextlib.contextmanager
def stream_guard(stream):
    """Run the block with ``stream`` current (None: nothing changes), restoring the previous
    stream after it, also when the block raises."""
    if stream is not None and not isinstance(stream, _rt.Stream):
        raise TypeError(f"stream_guard(): stream should be a paddle.device.cuda.Stream, but got "
                        f"{stream!r}")
    with _rt.stream_guard(stream):
        yield


def _memory(fn, name):
    return _rt.memory_query(fn, f"paddle.device.cuda.{name}")


memory_allocated = _memory(torch.cuda.memory_allocated, "memory_allocated")
max_memory_allocated = _memory(torch.cuda.max_memory_allocated, "max_memory_allocated")
memory_reserved = _memory(torch.cuda.memory_reserved, "memory_reserved")
max_memory_reserved = _memory(torch.cuda.max_memory_reserved, "max_memory_reserved")
reset_max_memory_allocated = _rt.reset_peaks("paddle.device.cuda.reset_max_memory_allocated")
reset_max_memory_reserved = _rt.reset_peaks("paddle.device.cuda.reset_max_memory_reserved")


def get_device_properties(device=None):
    """A CUDA device's properties (``name``, ``major``, ``minor``, ``total_memory``,
    ``multi_processor_count``); ValueError without CUDA."""
    return _rt.properties(device, "paddle.device.cuda.get_device_properties")


def get_device_name(device=None):
    return get_device_properties(device).name


def get_device_capability(device=None):
    p = get_device_properties(device)
    return p.major, p.minor


def memory_summary(device=None):
    """Print torch's table of the device's memory use (ValueError without CUDA)."""
    if not torch.cuda.is_available():
        raise _rt.not_on_cpu("paddle.device.cuda.memory_summary")
    print(torch.cuda.memory_summary(_index(device, "memory_summary")))


def vmm_compact(device=None):
    """Give the device's cached, unused memory back to the driver; returns the bytes freed.
    (Paddle compacts its virtual-memory allocator; torch's allocator has no compaction, so
    this releases its cache, which frees the same unused blocks.)"""
    if not torch.cuda.is_available():
        raise _rt.not_on_cpu("paddle.device.cuda.vmm_compact")
    idx = _index(device, "vmm_compact")
    before = torch.cuda.memory_reserved(idx)
    with torch.cuda.device(idx):
        torch.cuda.empty_cache()
    return before - torch.cuda.memory_reserved(idx)
