"""``paddle.device.cpu``: the CPU's device functions (``paddle.device.get_device_module('cpu')``).
The generator functions work on the CPU stream; the memory statistics do not exist for the CPU
and raise ValueError, as in Paddle."""
from ._runtime import default_generator

__all__ = ["device_count", "get_rng_state", "set_rng_state", "manual_seed",
           "max_memory_allocated", "max_memory_reserved", "reset_max_memory_allocated",
           "reset_max_memory_reserved"]


def device_count():
    """0: the CPU is not counted as an accelerator."""
    return 0


def get_rng_state(device=None):
    """The CPU stream's state (restored bit for bit by ``set_rng_state``)."""
    return default_generator.get_state()


def set_rng_state(new_state, device=None):
    default_generator.set_state(new_state)


def manual_seed(seed):
    """Seed the CPU stream."""
    default_generator.manual_seed(int(seed))


def _no_stat(name):
    def stat(device=None):
        raise ValueError(f"The API paddle.device.{name} is not supported on the CPU: it counts "
                         "CUDA memory (use paddle.device.cuda on a CUDA machine)")
    stat.__name__ = name
    return stat


max_memory_allocated = _no_stat("max_memory_allocated")
max_memory_reserved = _no_stat("max_memory_reserved")
reset_max_memory_allocated = _no_stat("reset_max_memory_allocated")
reset_max_memory_reserved = _no_stat("reset_max_memory_reserved")
