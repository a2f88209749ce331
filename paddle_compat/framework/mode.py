"""Static/dynamic mode: ``enable_static``, ``disable_static``, ``in_dynamic_mode``.

A framework-wide switch like grad mode (``paddle.in_dynamic_mode`` is a top-level name, so it
lives on the ground floor; ``static.mode`` re-exports it). The flag is one module global, read by the few places that behave differently in static mode
(``static_pylayer``, optimizers' ``minimize``, ``jit.to_static``). Ops on Variables need no
flag: a Variable's payload is a ``StaticProxy``, so the same op code records graph nodes, and
a real tensor an op meets (a creation op's result) is recorded as a constant of the graph.
"""
import contextlib

from .place import set_device

__all__ = ["enable_static", "disable_static", "in_dynamic_mode", "in_static_mode", "in_pir_mode",
           "use_pir_api", "IrGuard", "OldIrGuard", "ir_guard", "in_to_static_mode",
           "to_static_guard"]

_static = False


def enable_static():
    """Build programs from here on (``paddle.static.data``, ops on Variables record nodes)."""
    global _static
    _static = True


def disable_static(place=None):
    """Back to dynamic (eager) mode."""
    global _static
    _static = False
    if place is not None:
        set_device(place if isinstance(place, str) else
                   ("cpu" if place.is_cpu_place() else f"gpu:{place.get_device_id()}"))


def in_dynamic_mode():
    """True unless ``enable_static()`` is in force."""
    return not _static


def in_static_mode():
    return _static


def use_pir_api():
    """False: paddle_compat's static programs are torch.fx graphs that keep Paddle's legacy
    (ProgramDesc) variable names (``X@GRAD`` is fetchable), not PIR programs."""
    return False


def in_pir_mode():
    """``paddle.framework.in_pir_mode()``: building a PIR program. Always False (see
    ``use_pir_api``), so Paddle code takes its legacy-program branch, which ours follows."""
    return False


@contextlib.contextmanager
def mode_guard(static):
    """Run a block in static (True) or dynamic (False) mode, restoring the mode afterwards."""
    prev = _static
    (enable_static if static else disable_static)()
    try:
        yield
    finally:
        (enable_static if prev else disable_static)()


_to_static = False


def in_to_static_mode():
    """True while ``paddle.jit.to_static`` traces a function (Paddle's ``in_to_static_mode``,
    also exported as ``in_declarative_mode``): library code skips its eager value checks
    there."""
    return _to_static


@contextlib.contextmanager
def to_static_guard():
    """Trace a ``to_static`` function: static mode with ``in_to_static_mode()`` True."""
    global _to_static
    prev = _to_static
    _to_static = True
    try:
        with mode_guard(True):
            yield
    finally:
        _to_static = prev


class _StaticIrGuard(contextlib.ContextDecorator):
    """``paddle.pir_utils``' guards that select a static IR (paddle_compat has one): entered in
    dynamic mode, static mode holds until the guard exits (also when the body raises)."""

    def __enter__(self):
        self._from_dynamic = in_dynamic_mode()
        if self._from_dynamic:
            enable_static()
        return self

    def __exit__(self, *exc):
        if self._from_dynamic:
            disable_static()
        return False


class IrGuard(_StaticIrGuard):
    """``with IrGuard():`` build PIR programs (paddle_compat: its one static IR)."""


class OldIrGuard(_StaticIrGuard):
    """``with OldIrGuard():`` build legacy programs (paddle_compat: its one static IR)."""


ir_guard = IrGuard()        # paddle.ir_guard, the instance Paddle exposes
