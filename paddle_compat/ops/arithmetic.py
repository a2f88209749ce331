"""Arithmetic over a whole tensor that Paddle names as ops: ``scale``, ``clip`` (``clamp``),
``renorm``, ``increment``, ``add_n``, ``cast``, ``zero_``; and Paddle 3's torch-style names
for the binary ops of ``math``: ``mul``, ``div`` (with ``rounding_mode``), ``sub`` (with
``alpha``), ``true_divide``, which also take ``out``.
"""
import operator

import torch

from ..framework import dtype as _dt
from ..framework.int_grad import IntGradPayload, cast_payload
from ..framework.tensor import Tensor, wrap
from .common import F64, finish, float_attr, not_tensor
from .math import (_FLOATS, _check_inplace_shape, _promoted, _pyx, _same_dtype, _writable, _x,
                   divide, divide_, multiply, multiply_, subtract, subtract_)
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


# ---------------------------------------------------------------------- cast, scale, add_n ...
_TORCH_DTYPE_OF = {}


def _torch_dtype(dtype):
    """The torch dtype for a Paddle dtype argument, remembered per spelling."""
    try:
        return _TORCH_DTYPE_OF[dtype]
    except (KeyError, TypeError):
        d = _dt.cast_dtype(dtype)
        try:
            _TORCH_DTYPE_OF[dtype] = d
        except TypeError:
            pass
        return d


@op(fast=("x_dtype", torch.Tensor.to))    # Tensor.cast is the class's astype
def cast(x, dtype):
    """x converted to ``dtype`` (a copy even when the dtype is unchanged)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("cast", "x", 0, x) from None
    d = _torch_dtype(dtype)             # t.to(dtype=d) parses ~0.5 us faster than t.to(d)
    if d in _dt.SATURATING:             # float8, uint16: Paddle's conversion
        return wrap(_dt.saturating_cast(t, d))
    if type(t) is IntGradPayload:       # an integer tensor taking part in autograd
        o = wrap(None)
        o._t, o._sgf = cast_payload(t, d)
        return o
    return wrap(t.to(dtype=d) if t.dtype is not d else t.clone())


@op(method=True)
def cast_(x, dtype):
    """In-place cast: x now holds the converted data."""
    t = _writable(x, "cast_")
    x._t = t.to(_dt.convert_dtype(dtype).torch)
    return x


_ACTS = {"tanh": torch.tanh, "relu": torch.relu, "sigmoid": torch.sigmoid}


@op(method=True, fast=("x_num real", operator.mul))
def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    """scale * x + bias (or scale * (x + bias)); integer tensors keep their dtype."""
    t = _x(x, "scale")
    if act is None and t.dtype in _FLOATS and type(scale) is float and bias_after_scale:
        return wrap(t * scale + bias if bias else t * scale)          # the hot path
    s = scale._t if isinstance(scale, Tensor) else scale
    if t.dtype is torch.bool:
        f = t.to(torch.float32)
        r = (f * s + bias if bias_after_scale else (f + bias) * s) != 0
    elif not (t.is_floating_point() or t.is_complex()):  # Paddle casts scale and bias to x's dtype
        s = s.to(t.dtype) if isinstance(s, torch.Tensor) else int(s)
        r = t * s + int(bias) if bias_after_scale else (t + int(bias)) * s
    elif bias_after_scale:
        r = t * s + bias if bias else t * s
    else:
        r = (t + bias) * s
    if act is not None:
        r = _ACTS[act](r)
    return wrap(r)


@op(method=True, export=False)
def scale_(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    t = _writable(x, "scale_")
    version = t._version if isinstance(t, torch.Tensor) else None
    s = scale._t if isinstance(scale, Tensor) else scale
    if bias_after_scale:
        t.mul_(s).add_(bias)
    else:
        t.add_(bias).mul_(s)
    if act is not None:
        t.copy_(_ACTS[act](t))
    if version is not None:     # one in-place op for Paddle's counter (x._inplace_version())
        torch._C._autograd._unsafe_set_version_counter((t,), (version + 1,))
    return x


@op(method=True)
def increment(x, value=1.0, name=None):
    """x += value in place for a one-element x; returns x."""
    t = _x(x, "increment")
    if t.numel() != 1:
        raise ValueError("(InvalidArgument) The number of elements in Input(X) should be 1."
                         f"Now the number is {t.numel()}.")
    if t.dtype is F64:                                # Paddle's float attribute
        value = float_attr(value)
    if t.requires_grad:
        return wrap(t + value)
    t.add_(value if t.is_floating_point() else int(value))
    return x


@op(method=True)
def add_n(inputs, name=None):
    """The sum of a list of Tensors of one shape and dtype."""
    if isinstance(inputs, Tensor):
        return wrap(inputs._t.clone())
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError("(InvalidArgument) add_n(): argument 'inputs' (position 0) must be "
                         f"list of Tensors, but got {type(inputs).__name__}")
    ts = [_x(v, "add_n", "inputs") for v in inputs]
    r = ts[0]
    for t in ts[1:]:
        _same_dtype("add_n", r, t)
        if t.shape != r.shape:
            raise ValueError("(InvalidArgument) The input tensor X of AddNOp must have same "
                             f"shape, but received X[0] {list(r.shape)}, X[i] {list(t.shape)}")
        r = r + t
    return wrap(r if len(ts) > 1 else r.clone())


def _bound(v, t, other):
    """A clip bound for torch.clamp: a Tensor's data (Paddle gives bounds no gradient), or a
    number, made a tensor when the other bound is one (clamp takes two of a kind)."""
    if isinstance(v, Tensor):
        return v._t.detach()
    if v is not None and isinstance(other, Tensor):
        return torch.tensor(v, dtype=t.dtype, device=t.device)
    return v


#: the dtypes Paddle's PIR clip accepts while a program is built (CPU build)
_CLIP_STATIC_DTYPES = ("bfloat16", "float32", "float64", "int32", "int64")


@op(method=True)
def clip(x, min=None, max=None, name=None):
    """Clamp x to [min, max]; an integer x with float bounds gives float32, as in Paddle."""
    try:
        t = x._t
    except AttributeError:
        if hasattr(x, "dtype"):     # Paddle reads x.dtype, then its kernel refuses x
            raise not_tensor("clip", "x", 0, x) from None
        raise AttributeError(f"'{type(x).__name__}' object has no attribute 'dtype'") from None
    if t.dtype in _FLOATS and type(min) is float and type(max) is float and min <= max and \
            (t.dtype is not torch.float16 or isinstance(t, torch.Tensor)):
        return wrap(torch.clamp(t, min, max))                          # the hot path
    if not isinstance(t, torch.Tensor):     # a program's Variable: PIR checks x's dtype
        name = _dt.convert_dtype(x.dtype).name
        if name not in _CLIP_STATIC_DTYPES:
            raise TypeError("(InvalidType) Check data type error for op: clip, input: x, "
                            f"x.dtype: {name}, and expected_dtype: "
                            f"{', '.join(_CLIP_STATIC_DTYPES)}, ")
    if not t.is_floating_point() and (isinstance(min, float) or isinstance(max, float)):
        t = t.to(torch.float32)
    lo, hi = _bound(min, t, max), _bound(max, t, min)
    if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and lo > hi:
        raise ValueError("(InvalidArgument) max should be greater than or equal to min. "
                         f"But received min = {lo}, max = {hi}")
    if isinstance(min, Tensor) and isinstance(max, Tensor) and isinstance(lo, torch.Tensor) \
            and isinstance(hi, torch.Tensor) and lo.numel() == 1 and hi.numel() == 1 \
            and bool(lo.reshape(()) > hi.reshape(())):
        # Paddle's kernel reads one-element bounds and checks them
        raise ValueError("(InvalidArgument) max should be greater than or equal to min. "
                         f"But received min = {float(lo):f}, max = {float(hi):f}")
    if lo is None and hi is None:
        return wrap(t.clone())
    if isinstance(lo, torch.Tensor) and lo.dim() > t.dim() or \
            isinstance(hi, torch.Tensor) and hi.dim() > t.dim():
        raise ValueError("(InvalidArgument) clip bounds must not have more dims than x")
    return wrap(torch.clamp(t, lo, hi))


@op(method=True, export=False)
def clip_(x, min=None, max=None, name=None):
    t = _writable(x, "clip_")
    t.clamp_(_bound(min, t, max), _bound(max, t, min))
    return x


@op(method=True)
def renorm(x, p, axis, max_norm):
    """Rescale each slice along ``axis`` whose p-norm exceeds max_norm to norm max_norm."""
    t = _pyx(x)
    nd = t.dim()
    if not axis < nd:
        raise ValueError(f"the axis:{axis} should be less then the shape's size {nd}:"
                         f"paddle.Size({list(t.shape)})")
    if axis < -nd:
        raise ValueError(f"the axis:{axis} should not be less than -1 * length of input_shape:"
                         f"{-nd}")
    axis %= nd
    if t.dtype is F64 and nd > 1:
        # Paddle: the slice's p-norm with p as given, max_norm a float attribute, and
        # max_norm / norm without torch's 1e-7 in the denominator
        mx = float_attr(max_norm)
        norm = torch.linalg.vector_norm(t, p, [d for d in range(nd) if d != axis], True)
        return wrap(t * torch.where(norm > mx, mx / norm, 1.0))
    return wrap(torch.renorm(t, p, axis, max_norm))


@op(method=True)
def renorm_(x, p, axis, max_norm):
    t = _writable(x, "renorm_")
    t.copy_(renorm(wrap(t.clone()), p, axis, max_norm)._t)
    return x


@op(method=True, export=False)
def zero_(x):
    """Fill x with zeros in place."""
    _writable(x, "zero_").zero_()
    return x


# ------------------------------------------------------------ Paddle 3's torch-style names
op(clip, name="clamp", method=True)
op(clip_, name="clamp_", method=True, export=False)     # no paddle.clamp_ / paddle.mul_
op(multiply_, name="mul_", method=True, export=False)


@op(method=True)
def mul(x, y, name=None, *, out=None):
    """``multiply(x, y)`` (Paddle 3's torch-style name, with ``out``)."""
    return finish(multiply(x, y), out)


@op(method=True)
def div(x, y, name=None, *, rounding_mode=None, out=None):
    """``divide(x, y)``; ``rounding_mode`` 'trunc' or 'floor' rounds the quotient (integers
    then stay integers)."""
    return finish(divide(x, y, rounding_mode=rounding_mode), out)


@op(method=True)
def div_(x, y, name=None, *, rounding_mode=None):
    """In-place ``div``; returns x."""
    return divide_(x, y, rounding_mode=rounding_mode)


@op(method=True)
def sub(x, y, name=None, *, alpha=1, out=None):
    """``x - alpha * y`` (Paddle 3's torch-style name for subtract)."""
    r = subtract(x, y) if alpha == 1 else wrap(_promoted(torch.sub, "subtract", "sub", x, y,
                                                           alpha=alpha))
    return finish(r, out)


@op(method=True)
def sub_(x, y, name=None, *, alpha=1):
    """In-place ``sub``; returns x."""
    if alpha == 1:
        return subtract_(x, y)
    r = _promoted(torch.sub, "subtract", "sub", x, y, alpha=alpha)
    _check_inplace_shape(x._t, r)
    _writable(x, "subtract_").copy_(r)
    return x


@op(method=True)
def true_divide(input, other, *, out=None):
    """``divide(input, other)`` (Paddle 3's torch-style name)."""
    return finish(divide(input, other), out)
