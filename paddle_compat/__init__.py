"""paddle_compat: PaddlePaddle's API on PyTorch.

Use it as ``import paddle_compat as paddle``. Tensors wrap torch tensors (zero-copy to and from
torch), PyLayers are torch.autograd.Functions, static programs are torch.fx graphs.

Importing the package runs the core (``framework``, the op library, ``autograd``, ``compat``);
every other namespace (``nn``, ``optimizer``, ``static``, ``distributed`` ...) is bound as a
module that runs its code on first use (``_bind_lazily`` below), so ``paddle.nn.Linear`` and
``from paddle_compat.nn import Linear`` work as always and cost nothing until used.
"""
import builtins as _builtins
import importlib as _importlib
import importlib.util as _importlib_util
import sys as _sys

from .framework.dtype import (bfloat16, bool, complex64, complex128, finfo, float16, float32,
                              float64, get_default_dtype, iinfo, int8, int16, int32, int64,
                              set_default_dtype, uint8, uint32, uint64)
from .framework.dtype import DType as dtype
from .framework.dtype import float8_e4m3fn, float8_e5m2, pstring, raw, uint16
# Paddle 3's torch-style dtype names (int/long/short, which shadow builtins, are bound at the end)
from .framework.dtype import (complex64 as cfloat, complex128 as cdouble, float16 as half,
                              float32 as float, float64 as double)
from .framework.place import CPUPlace, CUDAPinnedPlace, CUDAPlace, Place, is_compiled_with_cuda
from .framework.tensor import Tensor
from .framework.interop import from_dlpack, from_torch, to_dlpack, to_torch
from .framework.printing import set_printoptions
from .framework.flags import get_flags, set_flags
from .framework.param_attr import ParamAttr
from .framework.parameter import Parameter as _Parameter
from .framework import hooks as _hooks
from .framework.submodules import keep_bound as _keep_bound

from .ops import *          # noqa: F401,F403  the op library (ops/registry.py: how ops are made)
from .ops import registry as _registry
from . import autograd
from . import device, tensor    # callable modules (paddle.device("cpu"), paddle.tensor([1.]))
from .device import (CustomPlace, Event, IPUPlace, Stream, XPUPinnedPlace, XPUPlace,
                     device_guard, get_cudnn_version, get_default_device, get_device,
                     get_device_module, is_compiled_with_cinn, is_compiled_with_custom_device,
                     is_compiled_with_distribute, is_compiled_with_ipu, is_compiled_with_rocm,
                     is_compiled_with_xpu, set_default_device, set_device)
from .autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled

from .framework.io import async_save, clear_async_save_task_queue, load, save
from .framework.mode import IrGuard, disable_static, enable_static, in_dynamic_mode, ir_guard
from .framework.data_feeder import check_shape
from .framework.mmap_storage import MmapStorage
from .framework.parameter import LazyGuard
from .compat import install, uninstall
# Paddle 3's torch-proxy switches under their top-level names (paddle_compat.compat.torch_api)
from .compat import disable_torch_proxy as disable_compat
from .compat import enable_torch_proxy as enable_compat
from .compat import use_torch_proxy_guard as use_compat_guard
from .framework.tensor import Size

# math constants and numpy's newaxis, as Paddle 3 exposes them
from math import e, inf, nan, pi
newaxis = None

# ---------------------------------------------------------------------- lazy namespaces
# Bound now as modules that execute on first attribute access (importlib's LazyLoader), so the
# package stays a plain module whose attribute reads cost nothing extra.
_LAZY_SUBMODULES = ("amp", "audio", "callbacks", "cuda", "distributed", "distribution", "fft",
                    "functional", "geometric", "hapi", "hub", "incubate", "inference", "io", "jit", "linalg",
                    "metric", "nn", "onnx", "optimizer", "pir_utils", "profiler", "quantization",
                    "regularizer", "signal", "sparse", "special", "static", "sysconfig", "text",
                    "utils", "version", "vision")
# Tensor methods defined by lazily imported namespaces (ops/registry.py installs stand-ins)
_LAZY_METHODS = {
    "signal": ["stft", "istft"],
    "nn.functional": ["softmax"],
    "nn.layer.layers": ["create_parameter"],
    "sparse.tensor": ["is_sparse", "is_sparse_coo", "is_sparse_csr", "indices", "values", "crows",
                      "cols", "nnz", "dense_dim", "sparse_dim", "is_coalesced", "coalesce",
                      "to_dense", "to_sparse_coo", "to_sparse_csr"],
}


class _AnnouncingLoader:
    """Runs a lazily bound namespace's code, then tells ``hooks.namespace_loaded`` (the import
    hook gives the new modules its missing-API errors)."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        try:
            self.loader.exec_module(module)
        except BaseException as e:
            _import_failed(module, e)
            raise
        _hooks.namespace_loaded()


def _import_failed(module, error):
    """A lazily bound namespace whose code raised: like any failed import it leaves
    ``sys.modules`` (``import`` runs it again and raises again), and the half-run module still
    bound here answers every missing name with an ImportError caused by ``error``, never with
    an AttributeError that would read as "not supported"."""
    name = module.__spec__.name
    if _sys.modules.get(name) is module:
        del _sys.modules[name]
    message = f"{name} failed to import ({type(error).__name__}: {error})"

    def __getattr__(attr):
        raise ImportError(message, name=name) from error

    module.__getattr__ = __getattr__


class _AlreadyLoaded:
    """Meta-path finder for one race of lazy binding: ``import paddle_compat.nn.clip`` while
    ``nn`` is still unexecuted runs ``nn`` (Python reads its ``__path__``), which imports
    ``clip``; Python, having looked for ``clip`` in sys.modules before that, would then load it
    a second time (two ``ClipGradBase`` classes). This hands it the module already loaded, with
    its own spec, and keeps a same-named function of the package bound (``amp.auto_cast``)."""

    def __init__(self, module):
        self.module = module
        self.spec = module.__spec__

    @staticmethod
    def find_spec(name, path=None, target=None):
        module = _sys.modules.get(name) if name.startswith(__name__ + ".") else None
        if module is None or target is not None or isinstance(module,
                                                               _importlib_util._LazyModule):
            return None
        return _importlib_util.spec_from_loader(name, _AlreadyLoaded(module),
                                                is_package=hasattr(module, "__path__"))

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        module.__spec__ = self.spec             # the import system stamped ours on it
        parent, _, child = self.spec.name.rpartition(".")
        _keep_bound(_sys.modules[parent], child)


_sys.meta_path.insert(0, _AlreadyLoaded)


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
Model = _LazyClass("hapi", "Model")      # paddle.Model (hapi: fit / evaluate / predict)


def _lazy_function(namespace, name):
    """``paddle.<name>``, the function ``paddle.<namespace>.<name>``, whose namespace is
    imported on its first call (Paddle 3 re-exports some functional and amp names at the top)."""
    def function(*args, **kwargs):
        return getattr(_importlib.import_module(f"{__name__}.{namespace}"), name)(*args,
                                                                                **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"paddle.{namespace}.{name} (imported on first use)."
    return function


for _namespace, _names in (("nn", ("conv1d", "conv2d", "conv3d", "group_norm", "layer_norm",
                                   "adaptive_avg_pool1d")),
                           ("amp", ("autocast", "get_autocast_dtype", "get_autocast_cpu_dtype",
                                    "is_autocast_enabled"))):
    for _name in _names:
        globals()[_name] = _lazy_function(
            _namespace + ".functional" if _namespace == "nn" else _namespace, _name)
del _namespace, _names, _name
summary = _lazy_function("hapi", "summary")
_hooks.load_inference_model.set(_lazy_function("inference", "load_inference_model"))
_hooks.fluid_op_tables.set(lambda: [_importlib.import_module(f"{__name__}.{_m}") for _m in
                                     ("jit.program_desc", "geometric")])
_hooks.deform_conv2d.set(_lazy_function("vision.ops", "deform_conv2d"))
_hooks.matrix_nms.set(_lazy_function("vision.ops", "matrix_nms"))
flops = _lazy_function("hapi", "flops")
# a Layer as a torch.nn.Module sharing its parameters (ours; Paddle has no such function)
to_torch_module = _lazy_function("nn.torch_module", "to_torch_module")


def get_autocast_gpu_dtype(device_type=None):
    """The dtype auto-cast uses on GPU (``paddle.amp.get_autocast_dtype``)."""
    return get_autocast_dtype(device_type)


def disable_signal_handler():
    """Paddle removes its C++ fault-signal handlers here; paddle_compat installs none, so
    there is nothing to remove."""


def batch(reader, batch_size, drop_last=False):
    """A reader (a generator function) of lists of ``batch_size`` items from ``reader``."""
    batch_size = _builtins.int(batch_size)
    if batch_size <= 0:
        raise ValueError("batch_size should be a positive integer value, "
                         f"but got batch_size={batch_size}")

    def batch_reader():
        b = []
        for item in reader():
            b.append(item)
            if len(b) == batch_size:
                yield b
                b = []
        if b and not drop_last:
            yield b

    return batch_reader


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False,
                     default_initializer=None):
    """``paddle.create_parameter`` (``nn.create_parameter``, imported on first use)."""
    from .nn.layer.layers import create_parameter as create
    return create(shape, dtype, name, attr, is_bias, default_initializer)


# Last: setting a dunder on Tensor later resets its slot; the user-facing namespaces and the
# Tensor methods get the FastOps of the functions marked fast (ops/registry.py).
_registry.publish(__import__(__name__))
_registry.activate_fast_ops(_Parameter)

__version__ = "3.3.1"    # the Paddle release we follow (paddle_compat.version; ours: pyproject.toml)

# What `from paddle_compat import *` binds: Paddle's own top-level __all__, as far as it exists
from .star_names import PADDLE_ALL as _PADDLE_ALL
__all__ = [_n for _n in _PADDLE_ALL if _n in globals()]
# Paddle 3's torch-style dtype names that shadow builtins, outside __all__ as in Paddle; bound
# last, and the functions above reach the builtins through `_builtins`
int, long, short = int32, int64, int16
# In Paddle the package is its own attribute `paddle.paddle` (PaddleDetection's DETR loss calls
# `paddle.paddle.zeros`)
paddle = _sys.modules[__name__]
