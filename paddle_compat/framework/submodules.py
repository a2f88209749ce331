"""A package's function or class that an import of its same-named submodule must not replace.

Paddle has packages whose attribute ``name`` is a function or class while a submodule
``name`` exists too (``paddle.amp.auto_cast``, ``paddle.distributed.spawn``,
``paddle.text.viterbi_decode`` ...). Python's import system binds ``package.name`` to the
submodule whenever it loads that submodule under a name not yet in ``sys.modules``, which
happens to paddle_compat's already-loaded modules twice: under their ``paddle.*`` alias (the
import hook) and when a lazily bound namespace loaded them while Python was looking for them
(``paddle_compat._AlreadyLoaded``). Paddle's packages import those submodules before binding the
function, so there ``paddle.amp.auto_cast`` stays the function after ``import
paddle.amp.auto_cast``; ``keep_bound`` gives paddle_compat the same.

The parent's class becomes a ``ModuleType`` subclass with only ``__setattr__`` of its own:
reading attributes costs exactly what it did.
"""
import types

__all__ = ["keep_bound"]

#: (id(package), name) whose next binding to a module is the import system's, to be skipped
_pending = set()
_subclasses = {}


class _KeepsBound:
    """Mixin of a package module: skips the import system's rebinding of a kept name."""

    __slots__ = ()

    def __setattr__(self, name, value):
        key = (id(self), name)
        if key in _pending and isinstance(value, types.ModuleType):
            _pending.discard(key)
            current = self.__dict__.get(name)
            if current is not None and not isinstance(current, types.ModuleType):
                return
        super().__setattr__(name, value)


def _subclass(cls):
    sub = _subclasses.get(cls)
    if sub is None:
        sub = _subclasses[cls] = type(cls.__name__, (_KeepsBound, cls),
                                      {"__slots__": (), "__module__": cls.__module__})
    return sub


def keep_bound(package, name):
    """Called by a loader just before the import system binds ``package.name`` to the
    submodule it loaded: a function or class bound there now stays bound."""
    current = package.__dict__.get(name)
    if current is None or isinstance(current, types.ModuleType):
        return
    cls = type(package)
    if not issubclass(cls, _KeepsBound):
        if cls.__name__ == "_LazyModule":       # not run yet: nothing of its own bound
            return
        package.__class__ = _subclass(cls)
    _pending.add((id(package), name))
