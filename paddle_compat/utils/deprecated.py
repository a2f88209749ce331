"""``paddle.utils.deprecated``: mark a function or class as deprecated, as Paddle does.

The docstring gets a "Warning: API ... is deprecated" preamble; the call then depends on
``level``: 0 nothing more, 1 a :class:`VisibleDeprecationWarning` (a UserWarning, so Python
shows it outside ``__main__`` too) when this release is at or past ``since`` (always when
``since`` is empty), 2 a RuntimeError.
"""
import functools
import inspect
import sys
import warnings

from .. import version as _version

__all__ = ["deprecated", "VisibleDeprecationWarning"]


class VisibleDeprecationWarning(UserWarning):
    """The category of ``deprecated``'s warnings (a UserWarning: shown by default)."""


def _numbers(v):
    parts = [int(p) for p in v.split(".") if p.isdigit()]
    return parts + [0] * (4 - len(parts))


def deprecated(update_to="", since="", reason="", level=0):
    """Decorator: ``@deprecated(update_to="paddle.new_api", since="2.0", reason="...",
    level=1)``."""

    def decorate(func):
        assert isinstance(update_to, str), 'type of "update_to" must be str.'
        assert isinstance(since, str), 'type of "since" must be str.'
        assert isinstance(reason, str), 'type of "reason" must be str.'
        assert isinstance(level, int) and 0 <= level < 3, (
            f'type of "level" must be int and must be one of 0, 1, 2. But received: {level}.')
        new, when, why = update_to.strip(), since.strip(), reason.strip()
        api = f"{func.__module__}.{func.__name__}"
        text = f'API "{api}" is deprecated'
        if when:
            text += f" since {when}"
        text += ", and will be removed in future versions."
        if new:
            assert new.startswith("paddle."), (
                f'Argument update_to must start with "paddle.", your value is "{update_to}"')
            text += f' Please use "{new}" instead.'
        if why:
            text += f"\n    Reason: {why}"
        if func.__doc__:
            func.__doc__ = f"\n\nWarning:\n    {text}\n\n" + inspect.cleandoc(func.__doc__)
        if level == 0:
            return func
        shown = f"\nWarning:\n{text} " if sys.platform.lower() == "win32" else \
            f"\033[93m\nWarning:\n{text} \033[0m"

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if level == 2:
                raise RuntimeError(f'API "{api}" has been deprecated.')
            current = _version.full_version
            if current == "0.0.0" or not when or _numbers(current) >= _numbers(since):
                warnings.warn(shown, category=VisibleDeprecationWarning, stacklevel=2)
            return func(*args, **kwargs)

        return wrapper

    return decorate
