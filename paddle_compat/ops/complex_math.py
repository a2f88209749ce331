"""Complex numbers: ``complex``, ``polar``, ``real``/``imag``, ``as_real``/``as_complex``,
``angle``.

Paddle builds complex64/complex128 from float32/float64 parts only; ``real``/``imag``/``as_real``
have kernels for complex inputs only (a real tensor is Paddle's missing-kernel RuntimeError), and
``real``/``imag`` give new tensors (torch's views are copied).
"""
import torch

from ..framework import dtype as _dt
from ..framework import mode as _mode
from ..framework.tensor import wrap
from .common import not_tensor
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names

_PARTS = (torch.float32, torch.float64)


def _t(x, api, arg="x", pos=0):
    try:
        return x._t
    except AttributeError:
        raise not_tensor(api, arg, pos, x) from None


def _no_kernel(api, t):
    if not _mode.in_dynamic_mode():     # a program checks the dtype when the op is added
        return TypeError(f"(InvalidType) Check data type error for op: {api}, input: x, "
                         f"x.dtype: {_dt.from_torch_dtype(t.dtype).name}, and expected_dtype: "
                         "complex128, complex64, ")
    return RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                        f"{_dt.from_torch_dtype(t.dtype).name}) of kernel `{api}` is not "
                        "registered.")


def _parts(a, b, api):
    if a.dtype not in _PARTS:
        raise _no_kernel(api, a)
    if b.dtype is not a.dtype:
        raise ValueError(f"(InvalidArgument) {api}(): the parts must have one dtype, but got "
                         f"{_dt.from_torch_dtype(a.dtype).name} and "
                         f"{_dt.from_torch_dtype(b.dtype).name}")


@op
def complex(real, imag, name=None, *, out=None):
    """A complex tensor from float32/float64 real and imaginary parts (broadcast)."""
    a = _t(real, "complex", "real")
    b = _t(imag, "complex", "imag", 1)
    _parts(a, b, "complex")
    r = torch.complex(a, b)
    if out is not None:
        out._t = r
        return out
    return wrap(r)


@op(method=True)
def polar(abs, angle, name=None, *, out=None):
    """abs * (cos(angle) + i sin(angle)) for float32/float64 parts."""
    a = _t(abs, "polar", "abs")
    b = _t(angle, "polar", "angle", 1)
    if a.dtype not in _PARTS or b.dtype is not a.dtype:
        raise TypeError("(InvalidType) Type promotion only support calculations between "
                        "floating-point numbers and between complex and real numbers. But got "
                        f"different data type x: {_dt.from_torch_dtype(a.dtype).name}, y: "
                        f"{_dt.from_torch_dtype(b.dtype).name}.")
    r = torch.polar(a, b)
    if out is not None:
        out._t = r
        return out
    return wrap(r)


@op(method=True)
def real(x, name=None):
    """The real part of a complex tensor (a new tensor)."""
    t = _t(x, "real")
    if not t.is_complex():
        raise _no_kernel("real", t)
    return wrap(torch.real(t).clone())


@op(method=True)
def imag(x, name=None):
    """The imaginary part of a complex tensor (a new tensor)."""
    t = _t(x, "imag")
    if not t.is_complex():
        raise _no_kernel("imag", t)
    return wrap(torch.imag(t).clone())


@op(method=True)
def as_real(x, name=None):
    """A complex tensor as real pairs: shape [..., 2]."""
    t = _t(x, "as_real")
    if not t.is_complex():
        raise _no_kernel("as_real", t)
    return wrap(torch.view_as_real(t.resolve_conj()))


@op(method=True)
def as_complex(x, name=None):
    """Real pairs (last dim 2) as a complex tensor."""
    t = _t(x, "as_complex")
    if t.dim() == 0 or t.shape[-1] != 2:
        raise ValueError("(InvalidArgument) The size of the last dimension of input(X)does not "
                         "equals 2.Expected the size of last dimension of input(X) to be 2.But "
                         f"received {t.shape[-1] if t.dim() else 0}")
    if t.dtype not in _PARTS:
        raise _no_kernel("as_complex", t)
    return wrap(torch.view_as_complex(t.contiguous()))


@op(method=True)
def angle(x, name=None):
    """The argument of each element: atan2(imag, real); 0 or pi for real floats."""
    t = _t(x, "angle")
    if not (t.is_complex() or t.dtype in _PARTS):
        raise _no_kernel("angle", t)
    return wrap(torch.angle(t))


@op(method=True)
def view_as_complex(input):
    """``as_complex(input)`` (Paddle 3's torch-style name)."""
    return as_complex(input)


@op(method=True)
def view_as_real(input):
    """``as_real(input)`` (Paddle 3's torch-style name)."""
    return as_real(input)
