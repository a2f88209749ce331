"""``paddle.device``: choose and query devices (CPU, CUDA through torch). As in Paddle 3.x the
module is also callable: ``paddle.device("cuda:0")`` is ``paddle.device.Device("cuda:0")``.

Where torch sees a CUDA device every function does the real thing through ``torch.cuda``
(streams, events, memory statistics, generator states, properties); without one each behaves
as Paddle's CPU build does: ``device_count() == 0``, ``is_available() is False``,
``get_cudnn_version() is None``, the generator functions work on the CPU stream (its state
round-trips bit for bit), and the CUDA-only functions raise Paddle's exception types
(``ValueError`` for the memory statistics and ``get_device_properties``, ``TypeError`` for a
stream of a non-GPU device, ``RuntimeError`` for ``Stream``/``Event``/``ipc_collect``).
``device_guard``, ``device`` and ``set_default_device`` change where new tensors are created,
as ``set_device`` does, and a bad device raises before anything changes.
"""
import sys
import types

import torch

from ..framework.place import (CustomPlace, Device, IPUPlace, Place, XPUPinnedPlace, XPUPlace,
                              is_compiled_with_cuda)
from ..framework.place import get_device as _get_device
from ..ops.random import seed as _seed
from ..ops.torch_style import (BFloat16Tensor, BoolTensor, ByteTensor, CharTensor,
                               DoubleTensor, FloatTensor, HalfTensor, IntTensor, LongTensor,
                               ShortTensor)
from . import _runtime as _rt
from ._runtime import (Event, Stream, current_stream, device_count, get_rng_state,
                       get_stream_from_external, manual_seed, set_rng_state, set_stream,
                       stream_guard)
from ._runtime import empty_cache
from ._runtime import set_place as set_device
from . import cpu, cuda

__all__ = ["get_cudnn_version", "set_device", "get_device", "XPUPlace", "IPUPlace",
           "is_compiled_with_xpu", "is_compiled_with_ipu", "is_compiled_with_cinn",
           "is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_distribute",
           "is_compiled_with_custom_device", "get_all_device_type", "get_all_custom_device_type",
           "get_available_device", "get_available_custom_device", "get_device_properties",
           "Stream", "Event", "current_stream", "set_stream", "stream_guard", "device_guard",
           "synchronize", "device_count", "empty_cache", "max_memory_allocated",
           "max_memory_reserved", "reset_max_memory_allocated", "reset_max_memory_reserved",
           "memory_allocated", "memory_reserved", "is_available", "is_current_stream_capturing",
           "get_device_name", "get_device_capability", "get_rng_state", "set_rng_state",
           "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "ByteTensor",
           "CharTensor", "ShortTensor", "IntTensor", "LongTensor", "BoolTensor", "device",
           "is_bf16_supported", "manual_seed", "reset_peak_memory_stats", "ipc_collect",
           "get_stream_from_external", "StreamContext"]


class _DeviceNamespace(types.ModuleType):
    """The ``paddle.device`` module, callable."""

    def __call__(self, *args, **kwargs):
        return Device(*args, **kwargs)


sys.modules[__name__].__class__ = _DeviceNamespace
_ROOT = __name__.rpartition(".")[0]


# ------------------------------------------------------------------ what was built in
def _convert_to_place(device):
    """The Place a device string names ('cpu', 'gpu', 'gpu:1', 'cuda:0' ...); anything that is
    not a string is returned as it is (Paddle's helper behind set_device, which PaddleSlim's
    analysis tools call)."""
    return _rt.str_to_place(device) if isinstance(device, str) else device


def is_compiled_with_cinn():
    """False: there is no CINN compiler under torch."""
    return False


def is_compiled_with_custom_device(device_type):
    """False for every type: paddle_compat has no custom-device plugins."""
    return False


def is_compiled_with_distribute():
    """Whether torch.distributed is available."""
    return torch.distributed.is_available()


def is_compiled_with_ipu():
    """False: no Graphcore IPU backend."""
    return False


def is_compiled_with_rocm():
    """Whether the installed torch is a ROCm (HIP) build."""
    return torch.version.hip is not None


def is_compiled_with_xpu():
    """False: no Kunlun XPU backend."""
    return False


def get_cudnn_version():
    """cuDNN's version as one int (8907 is 8.9.7, 90100 is 9.1.0); None without CUDA/cuDNN."""
    if not torch.cuda.is_available():
        return None
    return torch.backends.cudnn.version()


def get_all_device_type():
    """The accelerator types: ['gpu'] with CUDA, else [] (the CPU is not listed, as in Paddle)."""
    return ["gpu"] if torch.cuda.is_available() else []


def get_available_device():
    """The accelerators: ['gpu:0', 'gpu:1', ...] with CUDA, else []."""
    return [f"gpu:{i}" for i in range(device_count())]


def get_device(input=None):
    """The current device, 'cpu' or 'gpu:x'; given a Tensor, the index of the GPU holding it
    (-1 for the CPU)."""
    if input is None:
        return _get_device()
    try:
        dev = input._t.device
    except AttributeError:
        raise TypeError(f"get_device(): input must be a Tensor or None, but got "
                        f"{type(input).__name__}") from None
    return (dev.index or 0) if dev.type == "cuda" else -1


def get_all_custom_device_type():
    """[]: no custom-device plugins."""
    return []


def get_available_custom_device():
    """[]: no custom-device plugins."""
    return []


# ------------------------------------------------------------------------- devices
device_to_place = _rt.to_place


def extract_device_id(device, op_name):
    """The CUDA index of ``device`` (None: the current one) for the API ``op_name``."""
    return _rt.cuda_index(device, op_name)


def is_available():
    """Whether at least one CUDA device can be used."""
    return device_count() >= 1


def current_device():
    """The index of the current device (0 on the CPU)."""
    d = get_device()
    return int(d.split(":")[1]) if ":" in d else 0


def get_default_device():
    """The current device as a ``paddle.device.Device`` ('cpu' or 'cuda:x')."""
    return Device(get_device().replace("gpu", "cuda"))


def set_default_device(device):
    """Create new tensors on ``device`` from now on (``set_device``, returning None)."""
    set_device(device)


class device:
    """``with paddle.device.device("gpu:0"):`` creates the block's tensors there and restores
    the previous device after it (also when the block raises). ``device`` is a Place, a string
    or an index of the current device's kind; None keeps the current device."""

    def __init__(self, device=None):
        self.place = _rt.to_place(device)
        self.prev_place_str = "-1"

    def __enter__(self):
        self.prev_place_str = get_device()
        set_device(self.place)

    def __exit__(self, *exc):
        set_device(self.prev_place_str)
        return False


class device_guard:
    """``with paddle.device.device_guard("gpu:0"):`` as ``device``, for a string or a Place
    (anything else is a ValueError)."""

    def __init__(self, device):
        if isinstance(device, str):
            self._target_place = _rt.str_to_place(device)
        elif isinstance(device, Place):
            self._target_place = _rt.to_place(device)
        else:
            raise ValueError("'device' must be a string or a Place (paddle.CPUPlace(), "
                             f"paddle.CUDAPlace(n)), but got {device!r} of {type(device)}")
        self._original_place = None

    def __enter__(self):
        self._original_place = _rt.current_place()
        set_device(self._target_place)

    def __exit__(self, *exc):
        set_device(self._original_place)
        return False


def get_device_module(device=None):
    """The namespace of a device's functions: ``paddle.cuda`` for a GPU, ``paddle.device.cpu``
    for 'cpu' (``paddle.device`` for a CPUPlace, as in Paddle)."""
    if isinstance(device, Place):
        place = _rt.to_place(device)
        return getattr(sys.modules[_ROOT], "cuda") if place.is_gpu_place() else sys.modules[__name__]
    if device is None:
        device = get_device()
    elif isinstance(device, int) and not isinstance(device, bool):
        device = _rt.to_place(device)
        return get_device_module(get_device() if device.is_cpu_place() else f"gpu:{device._index}")
    elif not isinstance(device, str):
        raise ValueError(f"get_device_module(): device must be a string, an int or a Place, but "
                         f"got {device!r}")
    kind = device.strip().lower().split(":")[0]
    if kind in ("cuda", "gpu"):
        return getattr(sys.modules[_ROOT], "cuda")
    if kind == "cpu":
        return cpu
    if kind in ("xpu", "npu", "mlu", "gcu", "sdaa", "mps", "intel_gpu", "intel_hpu",
                "iluvatar_gpu", "metax_gpu", "biren_gpu", "custom_cpu"):
        raise NotImplementedError(f"get_device_module(): paddle_compat has no {kind!r} device "
                                  "module (torch runs on CPU and CUDA here)")
    raise RuntimeError(f"Unsupported device type: {kind!r} (get_device_module takes 'cpu', 'gpu', "
                       "'gpu:x', 'cuda:x', an int or a Place)")


def synchronize(device=None):
    """Wait until all the work queued on a GPU has finished. ``device`` None is the current
    place, and where that is the CPU on a CUDA machine the current CUDA device; a CPU device
    is a TypeError, as in Paddle."""
    place = _rt.to_place(device) if device is not None else None
    if place is None or place.is_gpu_place():
        idx = place.get_device_id() if place is not None else None
        if idx is not None or torch.cuda.is_available():
            torch.cuda.synchronize(idx)
            return
        place = _rt.current_place()
    raise TypeError(f"synchronize(): device should be a GPU ('gpu', 'gpu:x' or a CUDAPlace), but "
                    f"got {place}" + ("" if torch.cuda.is_available()
                                      else "; no CUDA device is available to torch"))


def is_current_stream_capturing():
    """Whether the current CUDA stream is capturing a CUDA graph (False without CUDA)."""
    return torch.cuda.is_available() and torch.cuda.is_current_stream_capturing()


def is_bf16_supported(including_emulation=True):
    """Whether the current CUDA device computes in bfloat16 (False without CUDA)."""
    return torch.cuda.is_available() and torch.cuda.is_bf16_supported(including_emulation)


def get_device_properties(device=None):
    """A CUDA device's properties (``name``, ``major``, ``minor``, ``total_memory``,
    ``multi_processor_count``); ValueError without CUDA."""
    return _rt.properties(device, "paddle.device.get_device_properties")


def get_device_name(device=None):
    """A CUDA device's name, e.g. 'NVIDIA H100 80GB HBM3'."""
    return get_device_properties(device).name


def get_device_capability(device=None):
    """A CUDA device's compute capability (major, minor)."""
    p = get_device_properties(device)
    return p.major, p.minor


max_memory_allocated = _rt.memory_query(torch.cuda.max_memory_allocated,
                                        "paddle.device.max_memory_allocated")
max_memory_reserved = _rt.memory_query(torch.cuda.max_memory_reserved,
                                       "paddle.device.max_memory_reserved")
memory_allocated = _rt.memory_query(torch.cuda.memory_allocated,
                                    "paddle.device.memory_allocated")
memory_reserved = _rt.memory_query(torch.cuda.memory_reserved, "paddle.device.memory_reserved")
reset_max_memory_allocated = _rt.reset_peaks("paddle.device.reset_max_memory_allocated")
reset_max_memory_reserved = _rt.reset_peaks("paddle.device.reset_max_memory_reserved")
reset_peak_memory_stats = _rt.reset_peaks("paddle.device.reset_peak_memory_stats")


def ipc_collect():
    """Free CUDA memory of tensors shared with other processes that no one uses any more."""
    if not torch.cuda.is_available():
        raise RuntimeError("(Unavailable) ipc_collect() needs CUDA, and no CUDA device is "
                           "available to torch")
    torch.cuda.ipc_collect()


def manual_seed_all(seed):
    """Seed every generator (``paddle.seed``)."""
    _seed(seed)


StreamContext = stream_guard


def stream(stream):
    """``with paddle.device.stream(s):`` is ``stream_guard(s)``."""
    return StreamContext(stream)


class nvtx:
    """NVTX ranges for the profilers (torch.cuda.nvtx); RuntimeError without CUDA."""

    @staticmethod
    def range_push(msg):
        if not torch.cuda.is_available():
            raise RuntimeError("nvtx.range_push(): NVTX needs CUDA, and no CUDA device is "
                               "available to torch")
        torch.cuda.nvtx.range_push(msg)

    @staticmethod
    def range_pop():
        if not torch.cuda.is_available():
            raise RuntimeError("nvtx.range_pop(): NVTX needs CUDA, and no CUDA device is "
                               "available to torch")
        torch.cuda.nvtx.range_pop()


class amp:
    """``paddle.device.amp.autocast(enabled, dtype, cache_enabled)``: ``paddle.amp.auto_cast``
    with those settings."""

    @staticmethod
    def autocast(enabled=True, dtype="float16", cache_enabled=True):
        return getattr(sys.modules[_ROOT], "amp").auto_cast(enable=enabled, dtype=dtype)
