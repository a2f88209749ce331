"""paddle_compat: PaddlePaddle's API on PyTorch.

Use it as ``import paddle_compat as paddle``. Tensors wrap torch tensors (zero-copy to and from
torch), PyLayers are torch.autograd.Functions, static programs are torch.fx graphs.

Importing the package loads the core (``framework``, the op library, ``autograd``); every other
namespace (``nn``, ``optimizer``, ``static``, ``distributed`` ...) and the names they provide
here (``paddle.enable_static``, ``paddle.DataParallel``, ``paddle.save`` ...) are imported on
first use (``_Package.__getattr__`` below), so ``paddle.nn.Linear`` and
``from paddle_compat.vision import ...`` work as always and cost nothing until used.
"""
import importlib as _importlib
import sys as _sys
import types as _types

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
from .framework.param_attr import ParamAttr
from .framework.parameter import Parameter as _Parameter
from .framework import hooks as _hooks

from .ops import *          # noqa: F401,F403  the op library (ops/registry.py: how ops are made)
from .ops import registry as _registry
from . import autograd
from .autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled

# ---------------------------------------------------------------------- lazy namespaces
_SUBMODULES = frozenset([
    "amp", "audio", "compat", "device", "distributed", "fft", "geometric", "incubate", "io",
    "jit", "linalg", "nn", "optimizer", "regularizer", "signal", "static", "utils",
])
# name here -> the module that defines it (imported on first use)
_LAZY_NAMES = {
    "save": "framework.io", "load": "framework.io",
    "DataParallel": "distributed",
    "install": "compat", "uninstall": "compat",
    "enable_static": "static.mode", "disable_static": "static.mode",
    "in_dynamic_mode": "static.mode",
    "create_parameter": "nn.layer.layers",
}
# Tensor methods defined by lazily imported namespaces (ops/registry.py installs stand-ins)
_LAZY_METHODS = {
    "signal": ["stft", "istft"],
    "nn.functional": ["softmax"],
}


class _Package(_types.ModuleType):
    """The package module's class: imports a namespace (``paddle.nn``) or a name defined in one
    (``paddle.enable_static``) on first use; later reads find it in the module's globals. (A
    class rather than a PEP 562 ``__getattr__`` in the globals, which stay the import hook's
    to fill with its missing-API errors.)"""

    def __getattr__(self, name):
        if name in _SUBMODULES:
            value = _importlib.import_module(f"{__name__}.{name}")
        elif name in _LAZY_NAMES:
            value = getattr(_importlib.import_module(f"{__name__}.{_LAZY_NAMES[name]}"), name)
        else:
            missing = self.__dict__.get("__getattr__")   # the import hook's, where installed
            if missing is not None:
                return missing(name)
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        setattr(self, name, value)
        _hooks.namespace_loaded()
        return value

    def __dir__(self):
        return sorted(set(self.__dict__) | _SUBMODULES | set(_LAZY_NAMES))


_sys.modules[__name__].__class__ = _Package


def _missing_tensor_attr(tensor, name):
    from .compat import missing          # fills the hook with its own function for next time
    return missing.tensor_getattr(tensor, name)


_hooks.missing_tensor_attr.set(_missing_tensor_attr)
for _module, _names in _LAZY_METHODS.items():
    _registry.lazy_methods(f"{__name__}.{_module}", _names)
del _module, _names

# Last: setting a dunder on Tensor later resets its slot; the user-facing namespaces and the
# Tensor methods get the FastOps of the functions marked fast (ops/registry.py).
_registry.publish(__import__(__name__))
_registry.activate_fast_ops(_Parameter)

__version__ = "0.1.0"
