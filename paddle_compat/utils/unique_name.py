"""``paddle.utils.unique_name``: Paddle's name generator (``fc_0``, ``fc_1`` ...) and scopes
that start the numbering afresh."""
import contextlib
import itertools

from ..framework import parameter as _parameter
from ..static.mode import in_dynamic_mode

__all__ = ["generate", "guard", "switch"]

_dygraph_tmp = itertools.count()       # the eager tracer's own numbering of temporaries


def generate(key):
    """The next unique name for ``key``: ``key_0``, ``key_1`` ..."""
    return _parameter.unique_name(key)


def generate_with_ignorable_key(key):
    """A name for a temporary: in dynamic mode the eager tracer's next ``dygraph_tmp_N``
    (``key`` ignored, a numbering of its own), in static mode ``generate(key)``."""
    if in_dynamic_mode():
        return f"dygraph_tmp_{next(_dygraph_tmp)}"
    return generate(key)


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
