"""The one way to define an op: a registration gives the function, its Tensor methods, its
in-place form and its C fast path.

Each op module makes one ``OpSet`` and registers every public function through it::

    from .registry import OpSet

    op = OpSet(__name__)
    __all__ = op.names                       # filled by the registrations below

    @op(method=True, fast=("x", torch.tanh))
    def tanh(x, name=None):
        return wrap(torch.tanh(x._t))

That one edit makes ``paddle.tanh`` (the module's ``__all__``, star-imported by the namespaces),
``Tensor.tanh`` (installed by ``install_methods``, the only place that sets Tensor methods from
ops), and the FastOp that runs ``paddle.tanh(x)`` / ``x.tanh()`` in C for the listed forms (see
``framework/fastops.py`` for the forms). Static mode needs nothing: the same function records a
node when ``x._t`` is a ``torch.fx.Proxy``. A factory-made function registers the same way:
``op(_unary(torch.exp, "exp"), method=True, fast=("x", torch.exp))`` also binds the module's
global ``exp``.

Arguments of a registration:

* ``method``: ``True`` for a Tensor method of the same name, a name or a tuple of names for
  others (``method=("mm", "matmul")``); default no method.
* ``export``: ``False`` for a Tensor-only method that is no public function.
* ``name``: the public name when it differs from the function's ``__name__`` (aliases:
  ``op(remainder_, name="mod_", method=True)``).
* ``fast``: ``(forms, torch_fn)`` or ``(forms, torch_fn, extra)``, the FastOp promise.

Namespaces a user reaches (``paddle_compat``, ``paddle_compat.linalg``, ``nn.functional``) call
``publish(module)`` once they are built; ``activate_fast_ops`` (the package's last step) turns
the marked functions there, and among the Tensor methods, into FastOps. A namespace published
later (the lazily imported ones) gets its FastOps at once.

Publishing also gives each public function, and ``install_methods`` each Tensor method, the
torch-style spellings Paddle 3.3.1 accepts for it (``paddle.sum(x, dim=1)``,
``paddle.zeros(2, 3)``, ``out=``): ``spelling.respell``, from the table recorded from Paddle
(``alias_table``). The op modules define every function once, in Paddle's own spelling.
"""
import importlib
import sys
import types

import torch

from ..framework import dtype as _dt
from ..framework import hooks
from ..framework.fastops import FastOp, c_module, fast_path
from ..framework.place import current_device
from ..framework import indexing
from ..framework.tensor import Tensor, install_fast_slots
from .spelling import respell, respell_class

__all__ = ["OpSet", "install_methods", "lazy_methods", "publish", "published",
           "activate_fast_ops", "method_origin"]

_REAL = (torch.float16, torch.bfloat16, torch.float32, torch.float64)

_methods = {}           # Tensor method name -> the registered function (or FastOp's function)
_origin = {}            # Tensor method name -> "module.function" that registered it
_state = {"installed": False, "c": None}
_published = []         # namespaces whose marked functions become FastOps
_fast = {}              # function -> its one FastOp


class OpSet:
    """The ops one module defines (see the module docstring); ``names`` is its ``__all__``."""

    def __init__(self, module_name):
        self.module = sys.modules[module_name]
        self.names = []

    def __call__(self, fn=None, *, name=None, method=False, export=True, fast=None):
        if fn is None:                                 # used as @op(...)
            return lambda f: self(f, name=name, method=method, export=export, fast=fast)
        name = name or fn.__name__
        if "<locals>" in getattr(fn, "__qualname__", ""):     # made by a factory
            fn.__qualname__ = fn.__name__
            fn.__module__ = self.module.__name__
        if fast is not None:
            fast_path(*fast)(fn)
        if export:
            if name in self.names:
                raise ValueError(f"{self.module.__name__}: {name} is registered twice")
            self.names.append(name)
            setattr(self.module, name, fn)
        if method:
            for m in (name,) if method is True else (method,) if isinstance(method, str) \
                    else method:
                _add_method(m, fn, f"{self.module.__name__}.{fn.__name__}")
        return fn


def _add_method(name, fn, origin):
    old = _methods.get(name)
    if old is not None and old is not fn:
        raise ValueError(f"Tensor.{name} is registered by {_origin[name]} and by {origin}")
    _methods[name] = fn
    _origin[name] = origin
    if _state["installed"]:                     # a namespace imported after start-up
        fn = respell(fn, f"paddle.Tensor.{name}")
        setattr(Tensor, name, _fast_op(fn) if _state["c"] else fn)


def method_origin(name):
    """Where ``Tensor.<name>`` was registered ("paddle_compat.ops.math.tanh"), or None for the
    methods written in the Tensor class itself (framework/tensor.py)."""
    return _origin.get(name)


def install_methods():
    """Install on Tensor indexing (framework/indexing.py) and every registered op as a method
    (ops/__init__ calls this once; later registrations are installed as they come). The
    operators (``+``, ``<`` ...) are the Tensor class's own (framework/tensor.py)."""
    Tensor.__getitem__ = indexing.getitem
    Tensor.__setitem__ = indexing.setitem
    for name, fn in _methods.items():
        setattr(Tensor, name, respell(fn, f"paddle.Tensor.{name}"))
    # the methods written in the Tensor class itself take the spellings too
    for name, fn in list(vars(Tensor).items()):
        if name not in _methods and type(fn) is types.FunctionType and not name.startswith("_"):
            spelled = respell(fn, f"paddle.Tensor.{name}")
            if spelled is not fn:
                setattr(Tensor, name, spelled)
    _state["installed"] = True


def lazy_methods(module, names):
    """Tensor methods registered by ``module`` (a namespace that is imported lazily): each name
    gets a stand-in that imports the module, whose registration replaces it, and calls the real
    method."""
    for name in names:
        _origin.setdefault(name, f"{module}.{name}")
        setattr(Tensor, name, _stand_in(module, name))


def _stand_in(module, name):
    def method(self, *args, **kwargs):
        importlib.import_module(module)
        if Tensor.__dict__[name] is method:
            raise AttributeError(f"{module} did not register Tensor.{name}")
        return getattr(self, name)(*args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Tensor.{name}, defined in {module} (imported on first use)."
    return method


# ------------------------------------------------------------------------------ FastOps
def _fast_op(fn):
    if type(fn) is not types.FunctionType or not hasattr(fn, "_fast_path"):
        return fn
    op = _fast.get(fn)
    if op is None:
        c = _state["c"]
        flags = 0
        for form in fn._fast_path[0].split():
            flags |= getattr(c, form.upper())
        op = _fast[fn] = FastOp(fn, flags)
        if hasattr(fn, "use_fast"):         # a spelling wrapper: renamed calls take the C path
            fn.use_fast(op)
    return op


def _replace_marked(namespace):
    for name, fn in list(vars(namespace).items()):
        op = _fast_op(fn)
        if op is not fn:
            setattr(namespace, name, op)


def publish(namespace):
    """Give the user-facing ``namespace`` (a module, or the Tensor class) FastOps for its
    marked functions, now if they are active, else when ``activate_fast_ops`` runs."""
    _published.append(namespace)
    _respell_namespace(namespace)
    if _state["c"] is not None:
        _replace_marked(namespace)


def _respell_namespace(namespace):
    mod = namespace.__name__
    path = "paddle" + mod[len("paddle_compat"):] if mod.startswith("paddle_compat") else mod
    for name, fn in list(vars(namespace).items()):
        # (type(), not isinstance(): that would read a lazily bound module's __class__)
        if issubclass(type(fn), type) and not name.startswith("_"):
            respell_class(fn, f"{path}.{name}")     # constructor keywords (LayerNorm(eps=))
        elif type(fn) is types.FunctionType and not name.startswith("_"):
            spelled = respell(fn, f"{path}.{name}")
            if spelled is not fn:
                setattr(namespace, name, spelled)
                # pickled by reference as the public name it is found under
                spelled.__module__, spelled.__qualname__ = namespace.__name__, name


def published(fn, path):
    """The user-facing object of the op ``fn`` under the public ``path`` (``"paddle.norm"``):
    the one a published namespace holds there (its spelling wrapper, its FastOp), for a module
    that re-exports ops under another name (``paddle.functional.norm is paddle.norm``)."""
    spelled = respell(fn, path)
    return _fast_op(spelled) if _state["c"] is not None else spelled


def _tell_creation_defaults():
    _state["c"].set_creation_defaults(current_device().type == "cpu", _dt.default_float().torch)


def activate_fast_ops(*subclasses):
    """Install the C operator slots on Tensor (and ``subclasses``) and the FastOps in every
    published namespace and among the Tensor methods. False, changing nothing, where the C
    module is missing or PADDLE_COMPAT_PURE_PYTHON is set. Run last at start-up: assigning an
    operator dunder to Tensor afterwards gives it back to its Python method."""
    c = c_module()
    if c is None or not install_fast_slots(*subclasses):
        return False
    c.install_ops(FastOp, _REAL, torch.bool, _dt.TORCH_OF, torch.get_default_dtype)
    _state["c"] = c
    hooks.creation_defaults_changed.add(_tell_creation_defaults)
    _tell_creation_defaults()
    for namespace in _published:
        _replace_marked(namespace)
    _replace_marked(Tensor)
    return True
