"""``paddle.incubate.tensor.manipulation``: moving tensors between device and host memory
(activation / optimizer-state offload). ``create_async_load()`` gives a loader whose
``offload(dst, src)`` / ``reload(dst, src)`` copy ``src`` to host / to the current device into
``dst``; the copies are done when the call returns (the returned task reports completed).
``async_offload`` / ``async_reload`` make the destination and return ``(dst, task)``."""
import torch

from ...framework.parameter import Parameter
from ...framework.place import current_device
from ...framework.tensor import Tensor, wrap

__all__ = []


class _DoneTask:
    """A copy task that has already finished."""

    def is_completed(self):
        return True

    def cpu_wait(self):
        pass

    def cuda_wait(self):
        pass

    xpu_wait = cuda_wait

    def wait(self):
        pass


class AsyncLoad:
    """Copies between device and host memory for offloading (synchronous here)."""

    @staticmethod
    def _copy_into(dst, src, device):
        dst._t = src._t.detach().to(device, copy=True)
        return _DoneTask()

    def offload(self, dst, src):
        """Copy ``src`` into host memory as ``dst``."""
        return self._copy_into(dst, src, "cpu")

    def reload(self, dst, src):
        """Copy ``src`` onto the current device as ``dst``."""
        return self._copy_into(dst, src, current_device())

    def offload_with_offset(self, dst, src, dst_offset, src_offset, size):
        """Copy ``size`` elements of 1-D ``src`` from ``src_offset`` into 1-D ``dst`` at
        ``dst_offset`` (host side)."""
        with torch.no_grad():
            dst._t[dst_offset:dst_offset + size].copy_(src._t[src_offset:src_offset + size])
        return _DoneTask()


def create_async_load():
    """A new ``AsyncLoad``."""
    return AsyncLoad()


def _copy_to_new(src, fn):
    if not isinstance(src, Tensor):
        raise TypeError(f"expected a Tensor, got {type(src).__name__}")
    dst = wrap(torch.empty(0))
    task = fn(dst, src)
    if isinstance(src, Parameter):
        return Parameter(dst._t, requires_grad=src.trainable, name=src.name), task
    dst.stop_gradient = src.stop_gradient
    return dst, task


def async_offload(src_tensor, async_load):
    """``(host copy of src_tensor, task)``."""
    return _copy_to_new(src_tensor, async_load.offload)


def async_reload(src_tensor, async_load):
    """``(device copy of src_tensor, task)``."""
    return _copy_to_new(src_tensor, async_load.reload)


def async_offload_with_offset(src_tensor, dst_tensor, src_offset, dst_offset, offload_size,
                              async_loader):
    """Copy part of 1-D ``src_tensor`` into 1-D ``dst_tensor``; returns the task."""
    assert len(src_tensor.shape) <= 1, "Only support 1-D tensor"
    assert len(dst_tensor.shape) <= 1, "Only support 1-D tensor"
    assert src_tensor.dtype == dst_tensor.dtype, "Only support same dtype"
    return async_loader.offload_with_offset(dst_tensor, src_tensor, dst_offset, src_offset,
                                            offload_size)
