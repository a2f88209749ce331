"""Static/dynamic mode: ``enable_static``, ``disable_static``, ``in_dynamic_mode``.

The flag is one module global read by the few places that behave differently in static mode
(creation ops: see ``created``). Ops on Variables need no flag: a Variable's payload is a
``StaticProxy``, so the same op code records graph nodes.
"""
import contextlib

__all__ = ["enable_static", "disable_static", "in_dynamic_mode", "in_static_mode"]

_static = False


def _eager_created(t):
    from ..framework.tensor import wrap
    return wrap(t)


def _static_created(t):
    from .program import _constant_variable
    return _constant_variable(t)


#: ``created(torch_tensor) -> Tensor``: what creation ops (``full``, ``zeros``, ``to_tensor`` ...)
#: call on the torch tensor they made. In dynamic mode it wraps; in static mode it records the
#: tensor as a constant of the default main program and returns that Variable.
created = _eager_created


def enable_static():
    """Build programs from here on (``paddle.static.data``, creation ops record constants)."""
    global _static, created
    _static = True
    created = _static_created


def disable_static(place=None):
    """Back to dynamic (eager) mode."""
    global _static, created
    _static = False
    created = _eager_created
    if place is not None:
        from ..framework.place import set_device
        set_device(place if isinstance(place, str) else
                   ("cpu" if place.is_cpu_place() else f"gpu:{place.get_device_id()}"))


def in_dynamic_mode():
    """True unless ``enable_static()`` is in force."""
    return not _static


def in_static_mode():
    return _static


@contextlib.contextmanager
def mode_guard(static):
    """Run a block in static (True) or dynamic (False) mode, restoring the mode afterwards."""
    prev = _static
    (enable_static if static else disable_static)()
    try:
        yield
    finally:
        (enable_static if prev else disable_static)()
