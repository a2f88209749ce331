"""paddle_compat: PaddlePaddle's API on PyTorch.

Use it as ``import paddle_compat as paddle``. Tensors wrap torch tensors (zero-copy to and from
torch), PyLayers are torch.autograd.Functions, static programs are torch.fx graphs.

Importing the package runs the core (``framework``, the op library, ``autograd``, ``compat``);
every other namespace (``nn``, ``optimizer``, ``static``, ``distributed`` ...) is bound as a
module that runs its code on first use (``_bind_lazily`` below), so ``paddle.nn.Linear`` and
``from paddle_compat.nn import Linear`` work as always and cost nothing until used.
"""
import importlib.util as _importlib_util
import sys as _sys

from .framework.dtype import (bfloat16, bool, complex64, complex128, finfo, float16, float32,
                              float64, get_default_dtype, iinfo, int8, int16, int32, int64,
                              set_default_dtype, uint8)
from .framework.dtype import DType as dtype
# Paddle 3's torch-style dtype names (int/long/short, which would shadow builtins on a star
# import, are left out)
from .framework.dtype import (complex64 as cfloat, complex128 as cdouble, float16 as half,
                              float32 as float, float64 as double)
from .framework.place import (CPUPlace, CUDAPinnedPlace, CUDAPlace, Place, get_device,
                              is_compiled_with_cuda, set_device)
from .framework.tensor import Tensor
from .framework.interop import from_dlpack, from_torch, to_dlpack, to_torch
from .framework.printing import set_printoptions
from .framework.flags import get_flags, set_flags
from .framework.param_attr import ParamAttr
from .framework.parameter import Parameter as _Parameter
from .framework import hooks as _hooks

from .ops import *          # noqa: F401,F403  the op library (ops/registry.py: how ops are made)
from .ops import registry as _registry
from . import autograd
from .autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled

from .framework.io import load, save
from .framework.mode import disable_static, enable_static, in_dynamic_mode
from .compat import install, uninstall

# ---------------------------------------------------------------------- lazy namespaces
# Bound now as modules that execute on first attribute access (importlib's LazyLoader), so the
# package stays a plain module whose attribute reads cost nothing extra.
_LAZY_SUBMODULES = ("amp", "audio", "device", "distributed", "fft", "geometric", "incubate",
                    "io", "jit", "linalg", "nn", "optimizer", "pir_utils", "regularizer", "signal",
                    "static", "sysconfig", "utils", "vision")
# Tensor methods defined by lazily imported namespaces (ops/registry.py installs stand-ins)
_LAZY_METHODS = {
    "signal": ["stft", "istft"],
    "nn.functional": ["softmax"],
}


class _AnnouncingLoader:
    """Runs a lazily bound namespace's code, then tells ``hooks.namespace_loaded`` (the import
    hook gives the new modules its missing-API errors)."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        _hooks.namespace_loaded()


def _bind_lazily(name):
    full = f"{__name__}.{name}"
    module = _sys.modules.get(full)
    if module is None:
        spec = _importlib_util.find_spec(full)
        spec.loader = _importlib_util.LazyLoader(_AnnouncingLoader(spec.loader))
        module = _importlib_util.module_from_spec(spec)
        _sys.modules[full] = module
        spec.loader.exec_module(module)
    globals()[name] = module


for _name in _LAZY_SUBMODULES:
    _bind_lazily(_name)
for _module, _names in _LAZY_METHODS.items():
    _registry.lazy_methods(f"{__name__}.{_module}", _names)
del _name, _module, _names


class _LazyClass:
    """A class of a lazily bound namespace under a name of the package (``paddle.DataParallel``):
    calling it, ``isinstance``/``issubclass`` and subclassing reach the real class, whose
    namespace is imported on first use."""

    def __init__(self, namespace, name):
        self._where = (namespace, name)

    def _real(self):
        namespace, name = self._where
        return getattr(globals()[namespace], name)

    def __call__(self, *args, **kwargs):
        return self._real()(*args, **kwargs)

    def __instancecheck__(self, obj):
        return isinstance(obj, self._real())

    def __subclasscheck__(self, cls):
        return issubclass(cls, self._real())

    def __mro_entries__(self, bases):
        return (self._real(),)

    def __getattr__(self, name):
        return getattr(self._real(), name)

    def __repr__(self):
        return repr(self._real())


DataParallel = _LazyClass("distributed", "DataParallel")


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False,
                     default_initializer=None):
    """``paddle.create_parameter`` (``nn.create_parameter``, imported on first use)."""
    from .nn.layer.layers import create_parameter as create
    return create(shape, dtype, name, attr, is_bias, default_initializer)


# Last: setting a dunder on Tensor later resets its slot; the user-facing namespaces and the
# Tensor methods get the FastOps of the functions marked fast (ops/registry.py).
_registry.publish(__import__(__name__))
_registry.activate_fast_ops(_Parameter)

__version__ = "0.1.0"
