"""``paddle.tensor``: Paddle 3.x's ``paddle.tensor(data, ...)`` constructor, and the module of
Paddle's tensor functions under the same name.

Calling it builds a new tensor (``tensor``); reading a name from it (``paddle.tensor.sum``) or
from one of Paddle's submodules of it (``paddle.tensor.math.sum``, ``from
paddle.tensor.manipulation import reshape``) gives the package's function of that name.
"""
import sys
import types

import numpy as np
import torch

from ..framework import dtype as _dt
from ..framework.place import to_torch_device
from ..framework.tensor import Tensor, wrap
from ..ops import arrays as _arrays
from ..ops.creation import full, to_tensor
from ..ops.linalg import einsum as _einsum
from ..ops.random import exponential_ as _exponential_
from ..ops.manipulation import concat as _concat
from ..ops.manipulation import stack as _stack
from ..ops.random import gaussian as _gaussian

__all__ = ["tensor", "fill_constant", "tensor_array_to_tensor"]

#: Paddle's submodules of ``paddle.tensor``; each reads its names from the package
SUBMODULES = ("array", "attribute", "creation", "einsum", "linalg", "logic", "manipulation",
              "math", "ops", "random", "search", "stat", "to_string")


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding ``data`` (a number, nested list/tuple, numpy array or Tensor, which
    is copied), stopping gradient unless ``requires_grad``; dtypes as ``paddle.to_tensor``
    infers them. ``pin_memory`` needs CUDA, as in Paddle."""
    if pin_memory and not torch.cuda.is_available():
        raise RuntimeError("Pinning memory is not supported for Place(cpu).")
    if isinstance(data, Tensor):
        t = data._t.detach()
        if dtype is not None:
            t = t.to(_dt.to_torch_dtype(dtype))
        t = t.to(to_torch_device(device), copy=True)
        if pin_memory:
            t = t.pin_memory()
        out = wrap(t)
        out.stop_gradient = not requires_grad
        return out
    if isinstance(data, torch.Tensor):
        data = data.detach()
    out = to_tensor(data, dtype=dtype, place=device, stop_gradient=not requires_grad)
    if pin_memory:
        out._t = out._t.pin_memory()
    return out


def fill_constant(shape, dtype, value, force_cpu=False, out=None, place=None, name=None):
    """``paddle.tensor.fill_constant``: a tensor of ``shape`` and ``dtype`` filled with
    ``value`` (``paddle.full``); given ``out`` (of that dtype), ``out`` becomes it and is
    returned."""
    res = full(shape, value, dtype)
    dev = torch.device("cpu") if force_cpu else (None if place is None else
                                                 to_torch_device(place))
    if dev is not None and res._t.device != dev:
        res = wrap(res._t.to(dev))
    if out is None:
        return res
    if not isinstance(out, Tensor):
        raise TypeError(f"fill_constant(): out must be a Tensor, but got {type(out).__name__}")
    if out.dtype != res.dtype:
        raise TypeError(f"Required out.dtype == dtype if specifying out, but received "
                        f"{out.dtype} != {res.dtype}")
    out._t = res._t
    return out


def tensor_array_to_tensor(input, axis=1, use_stack=False, name=None):
    """``paddle.tensor.manipulation.tensor_array_to_tensor``: the tensors of ``input`` (a
    list, Paddle's tensor array) stacked (``use_stack``) or concatenated along ``axis``, and
    an int64 tensor of each one's size along ``axis``."""
    if not isinstance(input, (list, tuple)):
        raise TypeError(f"tensor_array_to_tensor(): input must be a list of Tensors (a tensor "
                        f"array), but got {type(input).__name__}")
    items = list(input)
    res = _stack(items, axis) if use_stack else _concat(items, axis)
    sizes = [int(t.shape[axis]) for t in items]
    return res, to_tensor(np.array(sizes, dtype="int64"))


#: the functions this module itself has (Paddle's paddle.tensor names that paddle has not)
_OWN = {"tensor_array_to_tensor": tensor_array_to_tensor}


def _package():
    return sys.modules[__name__.rpartition(".")[0]]


class _TensorNamespace(types.ModuleType):
    """The ``paddle.tensor`` module, callable as ``paddle.tensor(data, ...)``."""

    def __call__(self, *args, **kwargs):
        return tensor(*args, **kwargs)


def _find(name):
    """``name`` as Paddle's ``paddle.tensor`` exports it: the package's function, else the
    one of ``paddle.linalg`` / ``paddle.signal`` (``paddle.tensor.matrix_power``,
    ``paddle.tensor.stft``), else for an inplace name the Tensor method as a function
    (``paddle.tensor.add_(x, y)``)."""
    if name in _OWN:
        return _OWN[name]
    pkg = _package()
    try:
        return getattr(pkg, name)
    except AttributeError:
        pass
    for sub in ("linalg", "signal"):
        fn = getattr(getattr(pkg, sub, None), name, None)
        if fn is not None:
            return fn
    if name.endswith("_") and not name.startswith("_"):
        fn = getattr(Tensor, name, None)
        if callable(fn):
            return fn
    raise AttributeError(name)


def _names_of_the_package(where):
    """A module ``__getattr__`` reading names from the package (``_find``)."""
    def getattr_(name):
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return _find(name)
        except AttributeError:
            raise AttributeError(f"module '{where}' has no attribute '{name}'") from None
    return getattr_


__getattr__ = _names_of_the_package("paddle.tensor")


def _submodule(short):
    full = f"{__name__}.{short}"
    mod = types.ModuleType(full, f"Paddle's paddle.tensor.{short}: reads its names from the "
                                 f"package (paddle.tensor.{short}.sum is paddle.sum).")
    mod.__getattr__ = _names_of_the_package(f"paddle.tensor.{short}")
    sys.modules[full] = mod
    return mod


for _short in SUBMODULES:
    _submodule(_short)
    if _short != "einsum":
        globals()[_short] = sys.modules[f"{__name__}.{_short}"]
del _short
# Paddle's paddle.tensor.einsum is the function (the module of that name stays in sys.modules,
# and importing it keeps the function bound: framework/submodules.py)
einsum = _einsum
# Paddle has gaussian in paddle.tensor.random only (not paddle.gaussian), exponential_ in
# paddle.tensor (and paddle.tensor.random), not as paddle.exponential_
random.gaussian = _gaussian
exponential_ = random.exponential_ = _exponential_
# and its tensor arrays in paddle.tensor / paddle.tensor.array only
for _f in (_arrays.create_array, _arrays.array_write, _arrays.array_read,
           _arrays.array_length):
    globals()[_f.__name__] = _f
    setattr(array, _f.__name__, _f)
del _f

sys.modules[__name__].__class__ = _TensorNamespace
