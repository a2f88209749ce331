"""``paddle.utils.unique_name``: Paddle's name generator (``fc_0``, ``fc_1`` ...) and scopes
that start the numbering afresh."""
import contextlib

from ..framework import parameter as _parameter

__all__ = ["generate", "guard", "switch"]


def generate(key):
    """The next unique name for ``key``: ``key_0``, ``key_1`` ..."""
    return _parameter.unique_name(key)


def _state():
    return dict(_parameter._counters), set(_parameter.used_param_names)


def switch(new_generator=None):
    """Start numbering afresh (or restore a state ``switch`` returned); returns the old one."""
    old = _state()
    counters, used = new_generator if new_generator is not None else ({}, set())
    _parameter._counters.clear()
    _parameter._counters.update(counters)
    _parameter.used_param_names.clear()
    _parameter.used_param_names.update(used)
    return old


@contextlib.contextmanager
def guard(new_generator=None):
    """Inside, names are numbered afresh; on exit the previous numbering continues."""
    old = switch(new_generator if not isinstance(new_generator, str) else None)
    try:
        yield
    finally:
        switch(old)
