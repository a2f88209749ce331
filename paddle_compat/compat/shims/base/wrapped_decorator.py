"""``paddle.base.wrapped_decorator``: decorators that keep the decorated function's signature.

``wrap_decorator(deco)`` turns ``deco`` (a function from a function to a function) into a
decorator whose result carries the name, docstring and ``inspect.signature`` of the function it
decorates; ``signature_safe_contextmanager`` is ``contextlib.contextmanager`` made so.
"""
import contextlib
import functools
import inspect

__all__ = []


def copy_signature(src, dst):
    """Give ``dst`` the ``inspect.signature`` of ``src``."""
    sig = inspect.signature(src)
    dst.__signature__ = sig.replace(parameters=list(sig.parameters.values()))


def wrap_decorator(decorator_func):
    """``decorator_func`` as a decorator whose wrappers look like the functions they wrap."""
    @functools.wraps(decorator_func)
    def decorate(func):
        decorated = decorator_func(func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return decorated(*args, **kwargs)
        copy_signature(func, wrapper)
        return wrapper
    return decorate


signature_safe_contextmanager = wrap_decorator(contextlib.contextmanager)
