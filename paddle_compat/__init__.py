"""paddle_compat: PaddlePaddle's API on PyTorch.

Use it as ``import paddle_compat as paddle``. Tensors wrap torch tensors (zero-copy to and from
torch), PyLayers are torch.autograd.Functions, static programs are torch.fx graphs.
"""
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
from .framework.tensor import Tensor, _install_operators
from .framework.interop import from_dlpack, from_torch, to_dlpack, to_torch
from .framework.printing import set_printoptions

_install_operators()
from .framework import indexing as _indexing  # noqa: F401  installs __getitem__/__setitem__

from . import autograd
from .autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled
from .ops.creation import (arange, assign, empty, empty_like, eye, full, full_like, linspace,
                           ones, ones_like, to_tensor, zeros, zeros_like)
from .ops import *          # noqa: F401,F403  the op library
from .ops.random import *  # noqa: F401,F403  seed, randn, ...
from . import device, fft, linalg, signal, utils
from . import amp, audio, geometric, incubate, io, jit, nn, optimizer, regularizer, static
from .framework.io import load, save
from . import distributed
from .distributed import DataParallel
from .compat import install, uninstall
from .static.mode import disable_static, enable_static, in_dynamic_mode
from .framework.param_attr import ParamAttr
from .nn.layer.layers import create_parameter

from .framework.fastops import install_fast_ops as _install_fast_ops
from .framework.parameter import Parameter as _Parameter
from .framework.tensor import install_fast_slots as _install_fast_slots

# Last: setting a dunder on Tensor later resets its slot; the user-facing namespaces and the
# Tensor methods get the FastOps of the functions marked @fast_path (framework/fastops.py).
_install_fast_slots(_Parameter)
_install_fast_ops(__import__(__name__), nn.functional, linalg, Tensor)

__version__ = "0.1.0"
