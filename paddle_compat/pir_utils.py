"""``paddle.pir_utils``: Paddle's switches between its two static-graph IRs.

Paddle 3 builds static programs in PIR or, under ``OldIrGuard``, in the legacy ProgramDesc;
tests run a body under both with ``test_with_pir_api``. paddle_compat has one static IR (a
``torch.fx`` graph whose Variables keep Paddle's legacy names: ``X@GRAD`` can be fetched), and
``paddle.framework.in_pir_mode()`` is False (``use_pir_api()`` is True, as in Paddle, but
False inside ``OldIrGuard``): the guards only do what they do to the mode (as in
Paddle, ``IrGuard`` and ``OldIrGuard`` entered in dynamic mode build a static program until they
exit) and ``test_with_pir_api`` runs its test once.
"""
import contextlib
import functools

from .framework.mode import IrGuard, OldIrGuard, ir_guard

__all__ = ["IrGuard", "OldIrGuard", "DygraphPirGuard", "DygraphOldIrGuard",
           "test_with_pir_api", "test_with_old_ir_only", "test_with_dygraph_pir", "ir_guard"]


class _OneIrGuard(contextlib.ContextDecorator):
    """A guard selecting a static IR; paddle_compat has only one, so entering it does nothing."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class DygraphPirGuard(_OneIrGuard):
    """Dynamic-to-static with PIR (paddle_compat: its one static IR)."""


class DygraphOldIrGuard(_OneIrGuard):
    """Dynamic-to-static with the legacy IR (paddle_compat: its one static IR)."""


def _once(func):
    @functools.wraps(func)
    def run(*args, **kwargs):
        return func(*args, **kwargs)
    return run


test_with_pir_api = _once
test_with_old_ir_only = _once
test_with_dygraph_pir = _once
