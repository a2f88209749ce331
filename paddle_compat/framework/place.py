"""Paddle's places and the current device, over torch devices.

The places are classes, as Paddle's (``isinstance(p, paddle.CPUPlace)``): ``Place`` (Paddle's
``core.Place``; ``x.place`` is one) and its kinds ``CPUPlace``, ``CUDAPlace``,
``CUDAPinnedPlace`` and, constructible only on builds with such devices (never here),
``XPUPlace``, ``XPUPinnedPlace``, ``IPUPlace``, ``CustomPlace``. A place prints as Paddle prints
it (``Place(cpu)``, ``Place(gpu:0)``, ``Place(gpu_pinned)``), compares equal to any place of the
same kind and index and knows the torch device that holds its tensors. ``set_device`` chooses
where new tensors go.
"""
import torch

from .hooks import creation_defaults_changed

__all__ = ["Place", "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace", "XPUPinnedPlace",
           "IPUPlace", "CustomPlace", "set_device", "get_device",
           "is_compiled_with_cuda", "current_device", "place_of", "to_torch_device", "Device"]


class Place:
    """Where a tensor lives (Paddle's ``core.Place``); compares and hashes equal to a place of
    the same kind and index, whatever its class. ``Place()`` is the undefined place; the kinds
    are the subclasses below (``x.place`` is a plain Place, as in Paddle)."""

    __slots__ = ("_kind", "_index")
    _TYPES = {"undefined": 0, "cpu": 1, "gpu": 2, "gpu_pinned": 3}  # Paddle's AllocationType

    def __init__(self, kind="undefined", index=0):
        self._kind = kind
        self._index = index

    @property
    def torch_device(self):
        if self._kind == "gpu":
            return torch.device("cuda", self._index)
        return torch.device("cpu")

    def is_cpu_place(self):
        return self._kind == "cpu"

    def is_gpu_place(self):
        return self._kind == "gpu"

    def is_cuda_pinned_place(self):
        return self._kind == "gpu_pinned"

    def is_xpu_place(self):
        return False

    def is_xpu_pinned_place(self):
        return False

    def is_ipu_place(self):
        return False

    def is_custom_place(self):
        return False

    def gpu_device_id(self):
        return self._index if self._kind == "gpu" else 0

    def get_device_id(self):
        return self._index

    def xpu_device_id(self):
        return 0

    def ipu_device_id(self):
        return 0

    def custom_device_id(self):
        return 0

    def custom_device_type(self):
        return ""

    def _type(self):
        """Paddle's AllocationType number of this place's kind."""
        return self._TYPES[self._kind]

    def set_place(self, place):
        """Make this place the same as ``place``."""
        if not isinstance(place, Place):
            raise TypeError(f"set_place(): incompatible function arguments: expected a Place, "
                            f"but received {type(place).__name__}")
        self._kind, self._index = place._kind, place._index

    def _equals(self, other):
        return self == other

    def __eq__(self, other):
        return isinstance(other, Place) and (other._kind, other._index) == (self._kind, self._index)

    def __hash__(self):
        return hash((self._kind, self._index))

    def __repr__(self):
        if self._kind in ("gpu", "undefined"):
            return f"Place({self._kind}:{self._index})"
        return f"Place({self._kind})"

    __str__ = __repr__


def _check_gpu(index):
    if not torch.cuda.is_available():
        raise ValueError("(InvalidArgument) use wrong place: no CUDA device is available "
                         "(torch.cuda.is_available() is False); use CPUPlace() or set_device('cpu')")
    n = torch.cuda.device_count()
    if not 0 <= index < n:
        raise ValueError(f"(InvalidArgument) gpu:{index} does not exist: this machine has {n} "
                         f"CUDA device(s)")


class CPUPlace(Place):
    """The CPU."""

    __slots__ = ()

    def __init__(self):
        Place.__init__(self, "cpu", 0)


class CUDAPlace(Place):
    """GPU number ``id``; ValueError where there is no such GPU."""

    __slots__ = ()

    def __init__(self, id=0):
        _check_gpu(int(id))
        Place.__init__(self, "gpu", int(id))


class CUDAPinnedPlace(Place):
    """Page-locked host memory (tensors stay CPU tensors, pinned); needs CUDA, as in Paddle."""

    __slots__ = ()

    def __init__(self):
        if not torch.cuda.is_available():
            raise RuntimeError("(PermissionDenied) Cannot use CUDAPinnedPlace: no CUDA device is "
                               "available to torch")
        Place.__init__(self, "gpu_pinned", 0)


class _NoPlace(Place):
    """A place of a device kind torch does not run on: constructing one raises, as it does in
    a Paddle build without that device, and ``isinstance(p, paddle.XPUPlace)`` is False."""

    __slots__ = ()


class IPUPlace(_NoPlace):
    __slots__ = ()

    def __init__(self):
        raise ValueError("(InvalidArgument) IPUPlace(): paddle_compat runs on torch, which has no "
                         "Graphcore IPU backend; use CPUPlace() or CUDAPlace(n)")


class XPUPlace(_NoPlace):
    __slots__ = ()

    def __init__(self, dev_id=0):
        raise ValueError(f"(InvalidArgument) XPUPlace({dev_id!r}): paddle_compat runs on torch, "
                         "which has no Kunlun XPU backend; use CPUPlace() or CUDAPlace(n)")


class XPUPinnedPlace(_NoPlace):
    __slots__ = ()

    def __init__(self):
        raise RuntimeError("(PermissionDenied) XPUPinnedPlace(): paddle_compat runs on torch, "
                           "which has no Kunlun XPU backend; use CUDAPinnedPlace()")


class CustomPlace(_NoPlace):
    __slots__ = ()

    def __init__(self, dev_type, dev_id=0):
        raise ValueError(f"(InvalidArgument) CustomPlace({dev_type!r}, {dev_id!r}): the device "
                         f"type {dev_type!r} is not registered (paddle_compat has no custom-device "
                         "plugins)")


class _Current:
    device = torch.device("cpu")


def current_device():
    """The torch device that new tensors are created on."""
    return _Current.device


def is_compiled_with_cuda():
    """True where the installed torch can reach a CUDA device."""
    return torch.cuda.is_available()


def set_device(device):
    """Choose where new tensors go: 'cpu', 'gpu', 'gpu:N' (or a Place); returns the Place."""
    if isinstance(device, Place):
        place = device
    elif isinstance(device, str):
        d = device.strip().lower()
        if d == "cpu":
            place = CPUPlace()
        elif d in ("gpu", "cuda") or d.startswith(("gpu:", "cuda:")):
            idx = int(d.split(":")[1]) if ":" in d else 0
            if not torch.cuda.is_available():
                raise ValueError(f"The device should not be '{device}', since no CUDA device is "
                                 "available to torch")
            place = CUDAPlace(idx)
        else:
            raise ValueError(f"The device must be a string which is like 'cpu', 'gpu' or "
                             f"'gpu:x', but received {device!r}")
    else:
        raise ValueError(f"The device must be a string or a Place, but received {device!r}")
    if place.is_gpu_place():
        torch.cuda.set_device(place._index)
    _Current.device = place.torch_device if not place.is_cuda_pinned_place() else torch.device("cpu")
    creation_defaults_changed()
    return place


def get_device():
    """The current device as Paddle names it: 'cpu' or 'gpu:N'."""
    d = _Current.device
    return "cpu" if d.type == "cpu" else f"gpu:{d.index or 0}"


def place_of(t):
    """The Place of a torch tensor."""
    dev = t.device
    if dev.type == "cuda":
        return Place("gpu", dev.index or 0)
    if dev.type == "cpu" and t.is_pinned():
        return Place("gpu_pinned", 0)
    return Place("cpu", 0)


def to_torch_device(place):
    """The torch device for a ``place=`` argument (a Place, a string, None for current)."""
    if place is None:
        return _Current.device
    if isinstance(place, Place):
        if place.is_gpu_place():
            _check_gpu(place._index)
        return place.torch_device
    if isinstance(place, str):
        d = place.lower()
        if d == "cpu":
            return torch.device("cpu")
        if d.startswith(("gpu", "cuda")):
            idx = int(d.split(":")[1]) if ":" in d else 0
            _check_gpu(idx)
            return torch.device("cuda", idx)
    if isinstance(place, torch.device):
        return place
    raise ValueError(f"place must be a Place or one of 'cpu', 'gpu', 'gpu:N', but received {place!r}")


class Device(str):
    """``paddle.device("cuda:0")``, Paddle 3.x's device object: the device's name as a string
    ("cpu", "cuda:0"), so every API that takes a device string takes it, with ``type`` and
    ``index``. Built from a name ("gpu:1"), a type and an index ("cuda", 1), a GPU number (0 is
    "cuda:0") or a Place. Used in a ``with`` block it is the current device for the block."""

    _KINDS = ("cpu", "gpu", "cuda", "xpu")
    _outer = []         # the devices current before each open ``with`` block

    def __new__(cls, type=None, index=None):
        if isinstance(type, Place):
            if type.is_cpu_place():
                kind, idx = "cpu", None
            elif type.is_gpu_place():
                kind, idx = "cuda", type._index
            else:
                raise ValueError(f"Unknown place type: {type}")
        elif isinstance(type, str):
            name = type.lower()
            kind, sep, num = name.partition(":")
            if kind not in cls._KINDS:
                raise ValueError(f"Unsupported device type: {kind if sep else name}")
            if index is not None:
                kind, idx = name, index
            elif sep:
                idx = int(num)
            else:
                idx = 0
            if kind == "cpu":
                idx = None
        elif isinstance(type, int):
            kind, idx = "cuda", type
        elif type is None and index is not None:
            raise ValueError("Device type must be specified if index is given")
        else:
            raise TypeError(f"Unsupported type for Device: {type}")
        obj = str.__new__(cls, "cpu" if kind == "cpu" else f"{kind}:{idx}")
        obj._kind = kind
        obj._index = idx
        return obj

    @property
    def type(self):
        return self._kind

    @property
    def index(self):
        return self._index

    def __enter__(self):
        Device._outer.append(get_device())
        set_device(str(self))
        return self

    def __exit__(self, *exc):
        set_device(Device._outer.pop())
