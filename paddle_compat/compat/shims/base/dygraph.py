"""``paddle.base.dygraph``: ``guard``, ``to_variable``, ``no_grad`` of the 1.x dygraph API."""
import contextlib

from ....autograd import no_grad
from ....ops.creation import to_tensor
from ....static import mode as _mode

__all__ = ["guard", "to_variable", "no_grad", "enabled"]


@contextlib.contextmanager
def guard(place=None):
    """Run the block in dynamic mode (Paddle's default since 2.0)."""
    was_static = not _mode.in_dynamic_mode()
    _mode.disable_static()
    try:
        yield
    finally:
        if was_static:
            _mode.enable_static()


def to_variable(value, name=None, zero_copy=None, dtype=None):
    return to_tensor(value, dtype=dtype)


def enabled():
    return _mode.in_dynamic_mode()
