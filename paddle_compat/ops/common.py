"""Argument handling shared by the ops: shapes, axes, dtypes, Paddle's error messages."""
import torch
import torch.fx
from torch.utils._pytree import tree_flatten, tree_map

from ..framework import dtype as _dt
from ..framework import mode as _mode
from ..framework.dtype import float_attr
from ..framework.place import current_device
from ..framework.tensor import Tensor, shape_arg, wrap

__all__ = ["shape_arg", "not_tensor", "tensor_arg", "dtype_or_default", "float_attr", "F64",
           "static_payload", "at_run_time"]

# float_attr(v): v as Paddle's kernels hold a C++ ``float`` attribute (see framework.dtype);
# the ops round only for float64 tensors: ``float_attr(a) if t.dtype is F64 else a``
F64 = torch.float64


def not_tensor(api, arg, pos, value):
    """The error Paddle raises when a non-Tensor is given where a Tensor is required: ValueError
    in dynamic mode, TypeError (a ``Value`` is required) while a program is built."""
    if not _mode.in_dynamic_mode():
        return TypeError(f"(InvalidType) {api}(): argument (position {pos + 1}) must be Value, "
                         f"but got {type(value).__name__}")
    return ValueError(f"(InvalidArgument) {api}(): argument '{arg}' (position {pos}) must be "
                      f"Tensor, but got {type(value).__name__}")


def tensor_arg(x, api, arg="x", pos=0, error=ValueError):
    """The torch tensor inside ``x``; if x is no Tensor, Paddle's error for ``api`` (ValueError
    for most ops, AttributeError where Paddle reads an attribute first) naming ``arg``."""
    if type(x) is Tensor or isinstance(x, Tensor):                # a Parameter too
        return x._t
    if error is ValueError:
        raise not_tensor(api, arg, pos, x)
    raise error(f"{api}(): argument '{arg}' (position {pos}) must be Tensor, but got "
                f"{type(x).__name__}")


def finish(r, out=None, requires_grad=False):
    """Paddle 3's torch-style keywords on a result Tensor ``r``: ``requires_grad=True`` clears
    its stop_gradient, and an ``out`` Tensor takes it over and is returned instead."""
    if requires_grad:
        r.stop_gradient = False
    if out is None:
        return r
    out._t = r._t
    return out


def dtype_or_default(dtype):
    """The torch dtype for ``dtype``, or the default float dtype when it is None."""
    return _dt.default_float().torch if dtype is None else _dt.convert_dtype(dtype).torch


# ---------------------------------------------------------------------- static Variables as values
def static_payload(values):
    """The payload (a ``StaticProxy``) of the first static Variable among ``values`` (Tensors
    or payloads, in lists and tuples too); None when there is none."""
    for v in tree_flatten(values)[0]:
        t = getattr(v, "_t", v)
        if isinstance(t, torch.fx.Proxy):
            return t
    return None


def at_run_time(fn, args, dims, dtype):
    """An op whose sizes or values are static Variables (Paddle's ShapeTensor, ValueTensor,
    a Variable ``num`` or ``out_shape``...): ``fn(*args)`` recorded into their Program, which
    calls it with the Variables' values as torch tensors when it runs. The output has torch
    ``dtype`` and Paddle's static shape ``dims`` (-1: known only at run time). None when no
    argument is a Variable (the caller computes the op now)."""
    anchor = static_payload(args)
    if anchor is None:
        return None
    args = tree_map(lambda v: v._t if isinstance(v, Tensor) else v, tuple(args))
    return wrap(anchor.record_dims(fn, args, {}, list(dims), dtype))


def no_kernel_error(op_name, tdt, expected, kernel=None, arg=None):
    """A dtype (torch ``tdt``) Paddle's op has no kernel for: TypeError while a program is built
    (naming the input ``arg`` when the dtype is an input's), the missing-kernel RuntimeError
    when run on the CPU; nothing on another device."""
    name = _dt.from_torch_dtype(tdt).name
    if not _mode.in_dynamic_mode():
        what = f"input: {arg}, {arg}.dtype: {name}" if arg else f"dtype: {name}"
        raise TypeError(f"(InvalidType) Check data type error for op: {op_name}, {what}, "
                        f"and expected_dtype: {expected}, ")
    if current_device().type == "cpu":
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {name}) "
                           f"of kernel `{kernel or op_name}` is not registered.")
