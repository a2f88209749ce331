"""What ``paddle.device``, ``paddle.device.cuda`` and ``paddle.cuda`` share: turning Paddle's
device arguments into places and CUDA indices, the Stream and Event wrappers over torch's CUDA
streams and events, the memory statistics and the generator states.

Without CUDA every function behaves as Paddle's CPU build does (0 devices, the CPU generator's
state, ``ValueError`` for the memory statistics), except where that build fails by accident
(a ``NameError`` or ``AttributeError`` from inside Paddle): there it raises the error its
CUDA-less siblings raise, with a message naming the API. paddle_compat creates tensors on the
CPU until ``set_device('gpu')`` even where CUDA is available, so a CUDA function given no
device uses the current place when it is a GPU and torch's current CUDA device otherwise.
"""
import ctypes

import torch

from ..framework.place import CPUPlace, CUDAPlace, Place, get_device
from ..framework.place import set_device as _set_place
from ..random import default_generator
from ..random.engine import GeneratorState

_OTHER_KINDS = ("xpu", "ipu", "npu", "dcu")


def cuda_ok():
    """Whether torch can reach a CUDA device."""
    return torch.cuda.is_available()


def device_count():
    """How many CUDA devices torch sees (0 without CUDA)."""
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def current_place():
    """The Place new tensors are created on."""
    d = get_device()
    return CPUPlace() if d == "cpu" else Place("gpu", int(d.split(":")[1]))


def _no_kind(text, kind):
    raise ValueError(f"The device should not be {text!r}, since paddle_compat runs on torch, "
                     f"which has no {kind.upper()} backend here; use 'cpu' or 'gpu:x'")


def _gpu_place(text, idx):
    if not torch.cuda.is_available():
        raise ValueError(f"The device should not be {text!r}, since no CUDA device is available "
                         "to torch (torch.cuda.is_available() is False); use 'cpu'")
    return CUDAPlace(idx)


def str_to_place(device):
    """The Place a device string names: 'cpu', 'gpu', 'gpu:x', 'cuda', 'cuda:x' (any case)."""
    text = device.strip()
    low = text.lower()
    kind, sep, num = low.partition(":")
    if kind == "cuda":
        kind = "gpu"
    if kind == "cpu" and not sep:
        return CPUPlace()
    if kind in ("gpu", "dcu") and (not sep or num.isdigit()):
        return _gpu_place(text, int(num) if sep else 0)
    if kind in _OTHER_KINDS and (not sep or num.isdigit()):
        _no_kind(text, kind)
    raise ValueError("The device must be a string which is like 'cpu', 'gpu', 'gpu:x', 'cuda', "
                     f"'cuda:x', but received {device!r}")


def to_place(device=None):
    """Paddle's device argument (None, an int, a string, a Place) as a Place. An int is an
    index of the current device's kind (only 0 when that is the CPU)."""
    if device is None:
        return current_place()
    if isinstance(device, bool):
        raise ValueError(f"The device must be a string, an int or a Place, but received "
                         f"{device!r}")
    if isinstance(device, int):
        if device < 0:
            raise ValueError(f"Device index must be non-negative, got {device}")
        if get_device() == "cpu":
            if device != 0:
                raise ValueError(f"CPU device only supports index 0, got {device}")
            return CPUPlace()
        return _gpu_place(f"gpu:{device}", device)
    if isinstance(device, str):
        return str_to_place(device)
    if isinstance(device, Place):
        if device.is_gpu_place():
            return CUDAPlace(device.get_device_id())
        return device
    raise ValueError(f"The device must be a string, an int or a Place, but received "
                     f"{device!r} ({type(device).__name__})")


def set_place(device):
    """``paddle.device.set_device``: make ``device`` current for new tensors; returns its Place.
    A bad argument raises before anything changes."""
    return _set_place(to_place(device))


def not_on_cpu(api):
    """The error of a CUDA-only API of ``paddle.device`` on a machine without CUDA."""
    return ValueError(f"The API {api} is not supported without CUDA: no CUDA device is available "
                      "to torch (torch.cuda.is_available() is False)")


def cuda_index(device, api):
    """The CUDA device index for a CUDA API's ``device`` argument: None (the current GPU place,
    else torch's current device), an int, 'gpu'/'gpu:x'/'cuda:x' or a GPU Place."""
    if device is None:
        place = current_place()
        return place.get_device_id() if place.is_gpu_place() else torch.cuda.current_device()
    if isinstance(device, int) and not isinstance(device, bool):
        idx = device
    elif isinstance(device, str):
        low = device.strip().lower()
        kind, sep, num = low.partition(":")
        if kind not in ("gpu", "cuda") or (sep and not num.isdigit()):
            raise ValueError(f"{api}(): the device string {device!r} is not expected; use 'gpu', "
                             "'gpu:x' or 'cuda:x'")
        idx = int(num) if sep else 0
    elif isinstance(device, Place) and device.is_gpu_place():
        idx = device.get_device_id()
    else:
        raise ValueError(f"{api}(): the device {device!r} is not expected; use an int, 'gpu:x' or "
                         "a CUDAPlace")
    n = torch.cuda.device_count()
    if not 0 <= idx < n:
        raise ValueError(f"{api}(): the device {device!r} is out of range: there are {n} CUDA "
                         "device(s)")
    return idx


def _gpu_of(place, api):
    """The CUDA index of a place that must be a GPU (TypeError otherwise, as Paddle)."""
    if place.is_gpu_place():
        return place.get_device_id()
    if place.is_cpu_place() and torch.cuda.is_available():
        return torch.cuda.current_device()
    raise TypeError(f"{api}(): device should be a GPU ('gpu', 'gpu:x' or a CUDAPlace), but got "
                    f"{place}" + ("" if torch.cuda.is_available()
                                  else "; no CUDA device is available to torch"))


def _place_arg(device, api):
    """``device`` as a Place for the stream APIs; None is the current place, and where that is
    the CPU on a CUDA machine, torch's current CUDA device."""
    if device is None:
        place = current_place()
        if place.is_cpu_place() and torch.cuda.is_available():
            return Place("gpu", torch.cuda.current_device())
        return place
    return to_place(device)


# ------------------------------------------------------------------- streams and events
def _unavailable(cls):
    return RuntimeError(f"(Unavailable) {cls} needs a CUDA device, and none is available to torch "
                        "(torch.cuda.is_available() is False)")


class Event:
    """A CUDA event (``paddle.device.Event``), recorded on a stream to mark a point in its
    work: ``record``, ``query``, ``synchronize``, ``elapsed_time`` (milliseconds between two
    events made with ``enable_timing=True``). ``event_base`` is the torch.cuda.Event."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        if not torch.cuda.is_available():
            raise _unavailable("paddle.device.Event")
        self.device = _place_arg(None, "Event")
        self.enable_timing = enable_timing
        self.event_base = torch.cuda.Event(enable_timing=enable_timing, blocking=blocking,
                                           interprocess=interprocess)

    def record(self, stream=None):
        """Record the event on ``stream`` (the current stream of the event's device)."""
        if stream is None:
            stream = current_stream(self.device)
        self.event_base.record(_torch_stream(stream, "Event.record"))

    def query(self):
        """Whether all the work the event captured has finished."""
        return self.event_base.query()

    def elapsed_time(self, end_event):
        """Milliseconds from this event to ``end_event``."""
        return self.event_base.elapsed_time(end_event.event_base)

    def synchronize(self):
        """Wait until the work the event captured has finished."""
        self.event_base.synchronize()

    def __repr__(self):
        return f"Event(device={self.device}, event_base={self.event_base!r})"


def _torch_stream(stream, api):
    if isinstance(stream, Stream):
        return stream.stream_base
    if isinstance(stream, torch.cuda.Stream):
        return stream
    raise TypeError(f"{api}(): stream must be a paddle.device.Stream, but got {stream!r}")


class Stream:
    """A CUDA stream (``paddle.device.Stream``): work queued on it runs in order, and
    independently of other streams. ``device`` is a GPU (None: the current one); ``priority``
    1 or -1 is high, 0 or 2 (the default) low. ``stream_base`` is the torch.cuda.Stream; a
    torch stream given as ``stream_base`` is wrapped as it is."""

    def __init__(self, device=None, priority=2, stream_base=None):
        if stream_base is not None:
            if not isinstance(stream_base, torch.cuda.Stream):
                raise TypeError(f"stream_base should be a torch.cuda.Stream, but got "
                                f"{stream_base!r}")
            self.stream_base = stream_base
            self.device = Place("gpu", stream_base.device.index or 0)
            return
        place = _place_arg(device, "Stream")
        if not torch.cuda.is_available():
            raise _unavailable("paddle.device.Stream")
        if priority not in (-1, 0, 1, 2):
            raise ValueError(f"Stream(): priority must be one of -1, 0, 1, 2, but got {priority!r}")
        idx = _gpu_of(place, "Stream")
        self.device = Place("gpu", idx)
        self.stream_base = torch.cuda.Stream(device=torch.device("cuda", idx),
                                             priority=-1 if priority in (-1, 1) else 0)

    @property
    def place(self):
        return self.device

    @property
    def cuda_stream(self):
        """The raw ``cudaStream_t`` as an int."""
        return self.stream_base.cuda_stream

    def wait_event(self, event):
        """Make work queued on this stream from now on wait for ``event``."""
        self.stream_base.wait_event(event.event_base)

    def wait_stream(self, stream):
        """Make work queued on this stream from now on wait for what ``stream`` has queued."""
        self.stream_base.wait_stream(_torch_stream(stream, "Stream.wait_stream"))

    def record_event(self, event=None):
        """Record ``event`` (a new Event) on this stream and return it."""
        if event is None:
            event = Event()
        event.record(self)
        return event

    def query(self):
        """Whether all the work queued on the stream has finished."""
        return self.stream_base.query()

    def synchronize(self):
        """Wait until all the work queued on the stream has finished."""
        self.stream_base.synchronize()

    @property
    def _as_parameter_(self):
        return ctypes.c_void_p(self.stream_base.cuda_stream)

    def __cuda_stream__(self):
        return (0, self.stream_base.cuda_stream)

    def __eq__(self, other):
        return isinstance(other, Stream) and other.stream_base == self.stream_base

    def __hash__(self):
        return hash((self.stream_base, self.device))

    def __repr__(self):
        return f"<paddle.device.Stream device={self.device} stream={self.cuda_stream:#x}>"


def current_stream(device=None):
    """The current stream of a GPU (None: the current one)."""
    idx = _gpu_of(_place_arg(device, "current_stream"), "current_stream")
    return Stream(stream_base=torch.cuda.current_stream(idx))


def set_stream(stream):
    """Make ``stream`` the current stream of its device; returns the one it replaces."""
    base = _torch_stream(stream, "set_stream")
    prev = current_stream(Place("gpu", base.device.index or 0))
    torch.cuda.set_stream(base)
    return prev


class stream_guard:
    """``with stream_guard(s):`` runs the block with ``s`` as its device's current stream and
    restores the previous one after it, also when the block raises (None: nothing changes).
    Where ``s`` is on another GPU than the current one, that GPU is current inside the block
    (the current place too, when it is a GPU), as in Paddle."""

    def __init__(self, stream=None):
        if stream is not None:
            _torch_stream(stream, "stream_guard")
        self.stream = stream
        self._prev = self._prev_place = self._prev_index = None

    def __enter__(self):
        if self.stream is None:
            return
        idx = _torch_stream(self.stream, "stream_guard").device.index or 0
        if torch.cuda.current_device() != idx:
            self._prev_index = torch.cuda.current_device()
            place = current_place()
            if place.is_gpu_place():
                self._prev_place = place
                _set_place(Place("gpu", idx))
            else:
                torch.cuda.set_device(idx)
        self._prev = set_stream(self.stream)

    def __exit__(self, *exc):
        if self.stream is None:
            return False
        set_stream(self._prev)
        if self._prev_place is not None:
            _set_place(self._prev_place)
        elif self._prev_index is not None:
            torch.cuda.set_device(self._prev_index)
        self._prev = self._prev_place = self._prev_index = None
        return False


def get_stream_from_external(data_ptr, device=None):
    """A Stream over a ``cudaStream_t`` made elsewhere (an int); it is not freed by us."""
    idx = _gpu_of(_place_arg(device, "get_stream_from_external"), "get_stream_from_external")
    return Stream(stream_base=torch.cuda.ExternalStream(int(data_ptr),
                                                        device=torch.device("cuda", idx)))


# ------------------------------------------------------------------------- memory
def memory_query(torch_fn, api):
    """A memory statistic of one CUDA device, as torch's allocator counts it."""
    def query(device=None):
        if not torch.cuda.is_available():
            raise not_on_cpu(api)
        return torch_fn(cuda_index(device, api))
    query.__name__ = api.rsplit(".", 1)[1]
    query.__doc__ = (f"Bytes of one CUDA device, as ``torch.cuda.{torch_fn.__name__}`` counts "
                     "them (None: the current device); ValueError without CUDA.")
    return query


def reset_peaks(api):
    """Reset a device's peak memory statistics (torch keeps allocated and reserved peaks
    together: resetting one resets both)."""
    def reset(device=None):
        if not torch.cuda.is_available():
            raise not_on_cpu(api)
        torch.cuda.reset_peak_memory_stats(cuda_index(device, api))
    reset.__name__ = api.rsplit(".", 1)[1]
    reset.__doc__ = reset_peaks.__doc__
    return reset


def empty_cache():
    """Give the CUDA memory torch's allocator caches back to the driver (nothing without CUDA)."""
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


def properties(device, api):
    """torch's properties of a CUDA device: ``name``, ``major``, ``minor``, ``total_memory``,
    ``multi_processor_count`` (Paddle's fields)."""
    if not torch.cuda.is_available():
        raise not_on_cpu(api)
    return torch.cuda.get_device_properties(cuda_index(device, api))


# ------------------------------------------------------------------------- generators
def get_rng_state(device=None):
    """The generator state of a device: the CPU stream's (a GeneratorState, restored
    bit for bit by ``set_rng_state``) or a CUDA generator's (torch's state tensor).
    Without CUDA ``device`` is not looked at, as in Paddle's CPU build."""
    if not torch.cuda.is_available():
        return default_generator.get_state()
    place = to_place(device)
    if place.is_gpu_place():
        return torch.cuda.get_rng_state(place.get_device_id())
    return default_generator.get_state()


def set_rng_state(new_state, device=None):
    """Restore a state taken by ``get_rng_state`` on the same device."""
    place = to_place(device) if torch.cuda.is_available() else CPUPlace()
    if place.is_gpu_place():
        if not isinstance(new_state, torch.Tensor):
            raise TypeError(f"set_rng_state(): a CUDA generator state (a uint8 tensor from "
                            f"get_rng_state() on {place}) was expected, but got "
                            f"{type(new_state).__name__}")
        torch.cuda.set_rng_state(new_state, place.get_device_id())
        return
    if not isinstance(new_state, GeneratorState):
        raise TypeError(f"set_rng_state(): a CPU generator state (from get_rng_state() on the "
                        f"CPU) was expected, but got {type(new_state).__name__}")
    default_generator.set_state(new_state)


def manual_seed(seed):
    """Seed the current device's generator (the CPU stream, or the current GPU's)."""
    seed = int(seed)
    place = current_place()
    if place.is_gpu_place():
        with torch.cuda.device(place.get_device_id()):
            torch.cuda.manual_seed(seed % (1 << 64))
    else:
        default_generator.manual_seed(seed)
