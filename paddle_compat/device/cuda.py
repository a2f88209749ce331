"""``paddle.device.cuda``: CUDA device counts, synchronisation, streams and memory queries."""
import torch

__all__ = ["device_count", "synchronize", "current_stream", "Stream", "Event", "empty_cache",
           "memory_allocated", "max_memory_allocated", "memory_reserved",
           "max_memory_reserved", "get_device_name", "get_device_properties",
           "get_device_capability"]


def _index(device):
    """The CUDA index for a Paddle device argument (None, int, 'gpu:N', a Place)."""
    if device is None:
        return None
    if isinstance(device, int):
        return device
    if isinstance(device, str):
        return int(device.split(":")[1]) if ":" in device else 0
    if hasattr(device, "get_device_id"):
        return device.get_device_id()
    raise ValueError(f"device must be None, an int, 'gpu:N' or a CUDAPlace, but received "
                     f"{device!r}")


def device_count():
    """How many CUDA devices torch sees (0 without CUDA)."""
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def synchronize(device=None):
    if torch.cuda.is_available():
        torch.cuda.synchronize(_index(device))


def _need_cuda(api):
    if not torch.cuda.is_available():
        raise ValueError(f"paddle.device.cuda.{api}(): no CUDA device is available")


def current_stream(device=None):
    _need_cuda("current_stream")
    return torch.cuda.current_stream(_index(device))


Stream = torch.cuda.Stream
Event = torch.cuda.Event


def empty_cache():
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


def _memory(fn, name):
    def query(device=None):
        _need_cuda(name)
        return fn(_index(device))
    query.__name__ = name
    query.__doc__ = f"Bytes, as torch.cuda.{fn.__name__} reports them."
    return query


memory_allocated = _memory(torch.cuda.memory_allocated, "memory_allocated")
max_memory_allocated = _memory(torch.cuda.max_memory_allocated, "max_memory_allocated")
memory_reserved = _memory(torch.cuda.memory_reserved, "memory_reserved")
max_memory_reserved = _memory(torch.cuda.max_memory_reserved, "max_memory_reserved")
get_device_name = _memory(torch.cuda.get_device_name, "get_device_name")
get_device_properties = _memory(torch.cuda.get_device_properties, "get_device_properties")
get_device_capability = _memory(torch.cuda.get_device_capability, "get_device_capability")
