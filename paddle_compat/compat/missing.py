"""The "not supported yet" errors for Paddle APIs that paddle_compat does not have.

A missing API must say what it is and that paddle_compat lacks it, never surface as a bare
``AttributeError`` deep inside. The errors subclass both the exception Python would raise
(``AttributeError``, ``ModuleNotFoundError``, ``ImportError``) and ``NotImplementedError``, so
``hasattr``, ``getattr(m, name, default)``, ``try: import ... except ImportError`` and users'
``except NotImplementedError`` all keep working::

    >>> import paddle                      # with the hook installed
    >>> paddle.vision
    Traceback (most recent call last):
    ...
    UnsupportedAPIError: paddle.vision is not supported by paddle_compat yet

The module-level ``__getattr__`` made here is only called after normal attribute lookup failed
(PEP 562), so it costs nothing on the functions that exist.
"""
import dis
import importlib
import sys

from ..framework import hooks

__all__ = ["UnsupportedAPIError", "UnsupportedModuleError", "UnsupportedImportError",
           "unsupported_message", "make_module_getattr", "tensor_getattr"]

_IMPORT_FROM = dis.opmap["IMPORT_FROM"]


def unsupported_message(api, hint=None):
    msg = f"{api} is not supported by paddle_compat yet"
    return f"{msg}: {hint}" if hint else msg


class UnsupportedAPIError(AttributeError, NotImplementedError):
    """``paddle.foo.bar`` names an API paddle_compat does not have (yet)."""

    def __init__(self, api, hint=None):
        super().__init__(unsupported_message(api, hint))
        self.api = api


class UnsupportedModuleError(ModuleNotFoundError, NotImplementedError):
    """``import paddle.foo`` names a Paddle module paddle_compat does not have (yet)."""

    def __init__(self, api, hint=None, message=None):
        super().__init__(message or unsupported_message(api, hint), name=api)
        self.api = api


class UnsupportedImportError(ImportError, NotImplementedError):
    """``from paddle.foo import bar`` where paddle_compat has no ``bar``."""

    def __init__(self, api, module_name, hint=None):
        super().__init__(unsupported_message(api, hint), name=module_name)
        self.api = api


def _called_by_import_from(depth=2):
    """True when the Python frame ``depth`` levels up is executing ``from m import name``.

    ``from m import name`` turns any AttributeError from ``m.__getattr__`` into a generic
    "cannot import name" ImportError; raising an ImportError subclass there keeps our message.
    """
    try:
        f = sys._getframe(depth)
        return f.f_code.co_code[f.f_lasti] == _IMPORT_FROM
    except (ValueError, IndexError, AttributeError):
        return False


def _missing(api, module_name, hint=None):
    """The error for a missing ``api``, raised by the ``__getattr__`` calling this."""
    if _called_by_import_from(3):
        return UnsupportedImportError(api, module_name, hint)
    return UnsupportedAPIError(api, hint)


def make_module_getattr(module, paddle_name, resolve=None, previous=None, private=()):
    """A PEP 562 ``__getattr__`` for ``module`` seen as ``paddle_name``.

    ``previous``: the module's own ``__getattr__`` (asked first). ``resolve(paddle_name, attr)``:
    returns an object for names defined elsewhere in paddle_compat (a submodule to import
    lazily, a function Paddle also exposes here), or raises LookupError (its argument, if a
    string other than ``attr``, is a hint added to the message). Private names
    (``_x``, ``__x__``) fail with Python's plain message: tools probe for those; except the
    private names in ``private``, which ``resolve`` is asked for (``paddle._C_ops``).
    """
    mod_name = module.__name__

    def __getattr__(name):
        if previous is not None:
            try:
                return previous(name)
            except AttributeError:
                pass
        if name[:1] == "_":
            if resolve is not None and name in private:
                try:
                    return resolve(paddle_name, name)
                except LookupError:
                    pass
            raise AttributeError(f"module {mod_name!r} has no attribute {name!r}")
        hint = None
        if resolve is not None:
            try:
                return resolve(paddle_name, name)
            except LookupError as e:
                hint = e.args[0] if e.args and e.args[0] != name else None
        raise _missing(f"{paddle_name}.{name}", paddle_name, hint) from None

    __getattr__._paddle_compat_missing = True
    __getattr__._previous = previous
    return __getattr__


def tensor_getattr(self, name):
    """``Tensor.__getattr__``: reached only when normal lookup failed (free on the hot path).

    A property that raised AttributeError inside is re-run so its own error shows; private
    names fail as Python would; public ones name the missing Paddle API.
    """
    cls = type(self)
    if name == "desc" and hasattr(self._t, "node"):     # a static Variable's VarDesc
        return _static_var_desc(self)
    if name[:1] != "_":
        for k in cls.__mro__:
            if name in k.__dict__:                  # a descriptor failed inside: show why
                return object.__getattribute__(self, name)
        if _called_by_import_from(2):
            raise UnsupportedImportError(f"paddle.Tensor.{name}", "paddle.Tensor")
        raise UnsupportedAPIError(f"paddle.Tensor.{name}")
    raise AttributeError(f"{cls.__name__!r} object has no attribute {name!r}")


def _static_var_desc(var):
    """``var.desc`` of a static Variable (old-IR code sets flags on it, such as
    ``set_need_check_feed(False)``): a ``VarDesc`` of its name, shape, data type and flags,
    detached from the Variable (our Executor checks no feeds)."""
    from .shims.base.var_desc import VarDesc, VarType
    d = VarDesc(var.name)
    d.set_shape(var.shape)
    d.set_dtype(VarType[_VARTYPE_NAMES.get(var.dtype.name, "FP32")])
    d.set_persistable(bool(var.persistable))
    d.set_stop_gradient(bool(var.stop_gradient))
    d.set_need_check_feed(var._t.node.op == "placeholder" and not var.persistable)
    return d


_VARTYPE_NAMES = {"bool": "BOOL", "int16": "INT16", "int32": "INT32", "int64": "INT64",
                  "float16": "FP16", "float32": "FP32", "float64": "FP64", "uint8": "UINT8",
                  "int8": "INT8", "bfloat16": "BF16", "complex64": "COMPLEX64",
                  "complex128": "COMPLEX128"}


def import_target(spec_str):
    """``"pkg.mod:attr"`` -> the attribute; ``"pkg.mod"`` -> the module."""
    mod, _, attr = spec_str.partition(":")
    m = importlib.import_module(mod)
    return getattr(m, attr) if attr else m


hooks.missing_tensor_attr.set(tensor_getattr)
