"""``paddle.nn.initializer.lazy_init``: ``LazyGuard`` and the switch behind it
(``lazy_init_helper()``), which libraries read to skip initialising weights that a
``LazyGuard`` leaves without values (ppdiffusers' initializers)."""
from ..framework.parameter import LazyGuard, _lazy_depth, lazy_init_enabled

__all__ = ["LazyGuard"]


class LazyInitHelper:
    """The lazy-initialisation switch: ``state`` says whether parameters being created now
    get no values (inside a ``LazyGuard``, or between ``enable()`` and ``disable()``)."""

    def __init__(self):
        self._enabled_here = False

    def enable(self):
        """Switch lazy creation on (a no-op when this helper already did)."""
        if not self._enabled_here:
            self._enabled_here = True
            _lazy_depth[0] += 1

    def disable(self):
        """Undo ``enable()`` (a no-op when this helper did not enable it)."""
        if self._enabled_here:
            self._enabled_here = False
            _lazy_depth[0] -= 1

    def __enter__(self):
        self.enable()

    def __exit__(self, *exc):
        self.disable()

    @property
    def state(self):
        return lazy_init_enabled()

    _state = state


_lazy_init_helper = LazyInitHelper()


def lazy_init_helper():
    """The process's ``LazyInitHelper``."""
    return _lazy_init_helper
