"""Grad-mode switches: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``is_grad_enabled``.

They are torch's thread-local grad mode under Paddle's names; each works as a context manager
and as a decorator, and ``no_grad()`` and ``no_grad`` both decorate.
"""
import functools

import torch

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]


class _GradMode:
    """A context manager and decorator that sets torch's grad mode and restores it on exit."""

    _enabled = None

    def __init__(self, func=None):
        self._prev = []
        if func is not None:                      # used as @no_grad without parentheses
            functools.update_wrapper(self, func)
        self._func = func

    def __enter__(self):
        self._prev.append(torch.is_grad_enabled())
        torch.set_grad_enabled(self._enabled)
        return self

    def __exit__(self, *exc):
        torch.set_grad_enabled(self._prev.pop())
        return False

    def __call__(self, *args, **kwargs):
        if self._func is not None:
            with self:
                return self._func(*args, **kwargs)
        func = args[0]

        @functools.wraps(func)
        def wrapper(*a, **k):
            with self.__class__():
                return func(*a, **k)
        return wrapper


class no_grad(_GradMode):
    """Ops inside record no gradient (results have ``stop_gradient=True``)."""

    _enabled = False


class enable_grad(_GradMode):
    """Ops inside record gradients again, e.g. inside ``no_grad``."""

    _enabled = True


class set_grad_enabled:
    """Set grad mode now; as a context manager it restores the previous mode on exit."""

    def __init__(self, mode):
        self._prev = torch.is_grad_enabled()
        torch.set_grad_enabled(bool(mode))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        torch.set_grad_enabled(self._prev)
        return False


def is_grad_enabled():
    """Whether ops record gradients in this thread."""
    return torch.is_grad_enabled()
