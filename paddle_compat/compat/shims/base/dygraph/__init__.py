"""``paddle.base.dygraph`` (also seen as ``paddle.base.dygraph.base``): ``guard``,
``to_variable``, ``no_grad``, ``grad`` of the 1.x dygraph API and the to_static queries.

Paddle keeps these in the submodule ``paddle.base.dygraph.base``; here the package is that
module too, so ``paddle.base.dygraph.base.guard`` (an attribute path, no import) finds them."""
import contextlib
import functools
import sys

from .....autograd import grad, no_grad
from .....ops.creation import to_tensor
from .....static import mode as _mode
from .....static.mode import in_to_static_mode
from .....framework.mode import mode_guard as _mode_guard

in_declarative_mode = in_to_static_mode
#: ``paddle.base.dygraph.base`` is this module too (``base.dygraph.base.guard``)
base = sys.modules[__name__]

__all__ = ["switch_to_static_graph", "guard", "to_variable", "no_grad", "grad", "enabled",
           "in_to_static_mode",
           "in_declarative_mode", "param_guard"]


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


@contextlib.contextmanager
def param_guard(parameters):
    """Paddle turns a Layer's parameters into static Variables for the block while
    ``to_static`` traces it; paddle_compat's parameters serve both modes as they are, so the
    block runs with them unchanged."""
    yield


def switch_to_static_graph(func):
    """Decorator: ``func`` runs in static mode (the mode before comes back afterwards)."""
    @functools.wraps(func)
    def run(*args, **kwargs):
        with _mode_guard(static=True):
            return func(*args, **kwargs)
    return run
