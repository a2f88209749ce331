"""Elementwise math and reductions: ``tanh``, ``exp``, ``add``, ``pow``, ``clip``, ``sum``,
``mean``, ``max``, ``cumsum``, ``logsumexp``, ``cast``, ``scale`` ...

Paddle and torch agree on most elementwise math: those are one-line aliases through
``_unary``/``_binary``. Integer inputs to transcendental functions give float32 in both.
Reductions take Paddle's ``axis`` (int, list, tuple or None) and ``keepdim``.

Binary functions take two Tensors (a Python number for ``y`` is Paddle's ValueError, except
where Paddle accepts one: ``floor_divide``, ``remainder``, ``pow``, ``copysign``); tensors of
different dtypes follow the operators' promotion (``framework.promotion``): floating types mix,
anything else is Paddle's TypeError.

In-place forms (``x.add_(y)``, ``paddle.tanh_(x)``) modify ``x._t`` in place and return ``x``;
on a leaf that does not stop gradient they raise Paddle's ValueError.
"""
import builtins
import math
import operator

import torch

from ..framework import dtype as _dt
from ..framework.fastops import fast_path
from ..framework.promotion import binary_operands
from ..framework.tensor import Tensor, _new, wrap, writable
from .common import as_methods, finish, not_tensor

__all__ = [
    # elementwise unary
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "deg2rad",
    "digamma", "erf", "erfinv", "exp", "expm1", "floor", "frac", "i0", "isfinite", "isinf",
    "isnan", "isneginf", "isposinf", "isreal", "lgamma", "gammaln", "log", "log10", "log1p",
    "log2", "logit", "nan_to_num", "neg", "rad2deg", "reciprocal", "round", "rsqrt", "sgn",
    "sigmoid", "sign", "signbit", "sin", "sinh", "sqrt", "square", "stanh", "tan", "tanh",
    "trunc", "conj", "is_complex", "is_floating_point", "is_integer",
    # elementwise binary
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "mod", "floor_mod",
    "pow", "maximum", "minimum", "fmax", "fmin", "atan2", "copysign", "heaviside", "hypot",
    "logaddexp", "gcd", "lcm", "lerp",
    # others
    "cast", "scale", "increment", "add_n", "clip",
    # reductions
    "sum", "mean", "prod", "max", "min", "amax", "amin", "any", "all", "logsumexp", "nansum",
    "nanmean", "count_nonzero",
    # cumulative
    "cumsum", "cumprod", "logcumsumexp", "cummax", "cummin",
]

_FLOATS = frozenset([torch.float16, torch.bfloat16, torch.float32, torch.float64])
_INT_TO_INT64 = frozenset([torch.bool, torch.int32])


def _x(x, api, arg="x", pos=0):
    """The torch tensor of ``x``; Paddle's not-a-Tensor ValueError otherwise (slow paths)."""
    try:
        return x._t
    except AttributeError:
        raise not_tensor(api, arg, pos, x) from None


def _pyx(x, attr="dtype"):
    """The torch tensor of ``x`` for APIs that Paddle writes in Python: a non-Tensor fails on
    its first attribute access, with AttributeError."""
    try:
        return x._t
    except AttributeError:
        raise AttributeError(f"'{type(x).__name__}' object has no attribute '{attr}'") from None


def _name(t):
    return _dt.from_torch_dtype(t.dtype).name


def _writable(x, api):
    """``x._t`` for an in-place op (Paddle's not-a-Tensor and leaf errors)."""
    return writable(x) if type(x) is Tensor else _x(x, api)


# ---------------------------------------------------------------------- elementwise unary
def _unary(fn, api):
    def op(x, name=None):
        try:
            t = x._t
        except AttributeError:
            raise not_tensor(api, "x", 0, x) from None
        o = _new(Tensor)                # wrap(), inlined: a call less on the hottest path
        o._t = fn(t)
        return o
    op.__name__ = api
    op.__doc__ = f"Elementwise {api} (torch.{fn.__name__})."
    return fast_path("x", fn)(op)


def _unary_(fn_, api):
    """In-place form: ``fn_`` is a torch.Tensor in-place method (``torch.Tensor.tanh_``)."""
    def op(x, name=None):
        fn_(_writable(x, api))
        return x
    op.__name__ = api
    op.__doc__ = f"In-place {api[:-1]}: modifies and returns x."
    return op


abs = _unary(torch.abs, "abs")
acos = _unary(torch.acos, "acos")
acosh = _unary(torch.acosh, "acosh")
asin = _unary(torch.asin, "asin")
asinh = _unary(torch.asinh, "asinh")
atan = _unary(torch.atan, "atan")
atanh = _unary(torch.atanh, "atanh")
ceil = _unary(torch.ceil, "ceil")
cos = _unary(torch.cos, "cos")
cosh = _unary(torch.cosh, "cosh")
digamma = _unary(torch.digamma, "digamma")
erf = _unary(torch.erf, "erf")
erfinv = _unary(torch.erfinv, "erfinv")
exp = _unary(torch.exp, "exp")
expm1 = _unary(torch.expm1, "expm1")
floor = _unary(torch.floor, "floor")
i0 = _unary(torch.i0, "i0")
isfinite = _unary(torch.isfinite, "isfinite")
isinf = _unary(torch.isinf, "isinf")
isnan = _unary(torch.isnan, "isnan")
lgamma = _unary(torch.lgamma, "lgamma")
log = _unary(torch.log, "log")
log10 = _unary(torch.log10, "log10")
log1p = _unary(torch.log1p, "log1p")
log2 = _unary(torch.log2, "log2")
reciprocal = _unary(torch.reciprocal, "reciprocal")
rsqrt = _unary(torch.rsqrt, "rsqrt")
sigmoid = _unary(torch.sigmoid, "sigmoid")
sin = _unary(torch.sin, "sin")
sinh = _unary(torch.sinh, "sinh")
sqrt = _unary(torch.sqrt, "sqrt")
square = _unary(torch.square, "square")
tan = _unary(torch.tan, "tan")
tanh = _unary(torch.tanh, "tanh")
conj = _unary(torch.conj, "conj")
gammaln = lgamma


def sign(x, name=None):
    """-1, 0 or 1 by the sign of x; NaN stays NaN."""
    t = _x(x, "sign")
    if t.is_floating_point():
        return wrap(torch.where(torch.isnan(t), t, torch.sign(t)))
    return wrap(torch.sign(t))


def neg(x, name=None):
    """-x (Paddle scales by -1, so a bool tensor stays bool and unchanged)."""
    t = _x(x, "scale")
    return wrap(t.clone() if t.dtype is torch.bool else torch.neg(t))


def trunc(input, name=None):
    """Round toward zero (integers unchanged)."""
    return wrap(torch.trunc(_x(input, "trunc", "input")))


def _typecheck(t, api, allowed):
    if _name(t) not in allowed:
        raise TypeError(f"The data type of input must be one of {list(allowed)}, but received "
                        f"{_name(t)}")


def frac(x, name=None):
    """The fractional part x - trunc(x) (integers give 0)."""
    t = _pyx(x)
    _typecheck(t, "frac", ("int32", "int64", "float16", "float32", "float64"))
    return wrap(torch.frac(t) if t.is_floating_point() else torch.zeros_like(t))


def sgn(x, name=None):
    """Sign of a real tensor, x / |x| of a complex one."""
    t = _pyx(x)
    _typecheck(t, "sgn", ("float16", "float32", "float64", "complex64", "complex128"))
    return wrap(torch.sgn(t))


def round(x, decimals=0, name=None):
    """Round half to even, to ``decimals`` places after the point; integers unchanged."""
    t = _x(x, "round")
    if not t.is_floating_point():
        return wrap(t.clone())
    return wrap(torch.round(t, decimals=decimals) if decimals else torch.round(t))


def _tensor_only(x, api, arg="x"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{arg} must be tensor type, but got {type(x)}")
    return x._t


def signbit(x, name=None):
    return wrap(torch.signbit(_tensor_only(x, "signbit")))


def isreal(x, name=None):
    t = _tensor_only(x, "isreal")
    return wrap(torch.isreal(t) if t.is_complex() else torch.ones_like(t, dtype=torch.bool))


def isposinf(x, name=None):
    return wrap(torch.isposinf(_tensor_only(x, "isposinf")))


def isneginf(x, name=None):
    return wrap(torch.isneginf(_tensor_only(x, "isneginf")))


def _float_of(t):
    """Integer tensors compute in float32, as Paddle's autocast for math ops does."""
    return t if t.is_floating_point() or t.is_complex() else t.to(torch.float32)


def deg2rad(x, name=None):
    t = _pyx(x)
    return wrap(torch.deg2rad(_float_of(t)) if t.dtype is not torch.bool else t.clone())


def rad2deg(x, name=None):
    t = _pyx(x)
    return wrap(torch.rad2deg(_float_of(t)) if t.dtype is not torch.bool else t.clone())


def stanh(x, scale_a=0.67, scale_b=1.7159, name=None):
    """scale_b * tanh(scale_a * x)."""
    return wrap(torch.tanh(_x(x, "stanh") * scale_a) * scale_b)


def logit(x, eps=None, name=None):
    """log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps is given."""
    return wrap(torch.logit(_x(x, "logit"), eps))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None, name=None):
    """NaN -> ``nan``, +-inf -> ``posinf``/``neginf`` (the dtype's extremes by default)."""
    t = _pyx(x)
    if t.dtype not in (torch.float32, torch.float64):
        raise AssertionError()
    return wrap(torch.nan_to_num(t, nan, posinf, neginf))


def _expect_tensor(x):
    if not isinstance(x, Tensor):
        raise TypeError(f"Expected Tensor, but received type of x: {type(x)}")
    return x._t


def is_complex(x):
    """Whether x holds complex numbers (a Python bool)."""
    return _expect_tensor(x).is_complex()


def is_floating_point(x):
    return _expect_tensor(x).is_floating_point()


def is_integer(x):
    t = _expect_tensor(x)
    return not (t.is_floating_point() or t.is_complex() or t.dtype is torch.bool)


# ---------------------------------------------------------------------- elementwise binary
def _not_tensors(api, x, y):
    if not isinstance(x, Tensor):
        return not_tensor(api, "x", 0, x)
    return not_tensor(api, "y", 1, y)


def _broadcast_shape(a, b):
    """The broadcast shape of a and b; Paddle's ValueError when they do not broadcast."""
    try:
        return torch.broadcast_shapes(a.shape, b.shape)
    except RuntimeError:
        raise ValueError(
            "(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast "
            f"together with the shape of X = {list(a.shape)} and the shape of Y = "
            f"{list(b.shape)}.") from None


def _check_inplace_shape(a, b):
    """Paddle's ValueError when broadcasting y would grow the in-place x."""
    if b.shape != a.shape and _broadcast_shape(a, b) != a.shape:
        raise ValueError(f"The shape of broadcast output {list(_broadcast_shape(a, b))} is "
                         f"different from that of inplace tensor {list(a.shape)} in the Inplace "
                         "operation.")


def _binary(fn, api, op):
    """``api(x, y)`` on two Tensors; differing dtypes go through Paddle's promotion."""
    def f(x, y, name=None):
        try:
            a = x._t
            b = y._t
        except AttributeError:
            raise _not_tensors(api, x, y) from None
        if a.dtype is not b.dtype:
            a, b = binary_operands(op, a, b)
        try:
            return wrap(fn(a, b))
        except RuntimeError:
            _broadcast_shape(a, b)
            raise
    f.__name__ = api
    f.__doc__ = f"Elementwise {api} of two Tensors (torch.{fn.__name__})."
    return fast_path("xy", fn)(f)


def _binary_(fn_, api, op):
    """In-place ``x.api_(y)``: the result keeps x's shape and dtype (but divide_ of an integer
    x makes it float32, as Paddle does)."""
    int_to_float = api == "divide_"

    def f(x, y, name=None):
        a = _x(x, api)
        b = _x(y, api[:-1], "y", 1)
        _check_inplace_shape(a, b)
        if a.dtype is not b.dtype:
            binary_operands(op, a, b)
        if int_to_float and not (a.is_floating_point() or a.is_complex()):
            # Paddle divides integers in float32 and x takes the result (and its dtype)
            _writable(x, api)
            x._t = divide(x, y)._t
            return x
        if api == "floor_divide_":           # not differentiable: Paddle allows it on any leaf
            with torch.no_grad():
                fn_(a, b)
            return x
        _writable(x, api)
        fn_(a, b)
        return x
    f.__name__ = api
    f.__doc__ = f"In-place {api[:-1]}: modifies and returns x."
    return f


add = _binary(torch.add, "add", "add")
subtract = _binary(torch.sub, "subtract", "sub")
multiply = _binary(torch.mul, "multiply", "mul")
divide = _binary(torch.true_divide, "divide", "div")
maximum = _binary(torch.maximum, "maximum", "maximum")
minimum = _binary(torch.minimum, "minimum", "minimum")
fmax = _binary(torch.fmax, "fmax", "maximum")
fmin = _binary(torch.fmin, "fmin", "minimum")


def _scalar_or_tensor(fn, api, op, int_scalar):
    """``api(x, y)`` where y may also be a Python number; ``int_scalar`` says whether a float
    number meeting an integer tensor is truncated to int (Paddle casts it to x's dtype)."""
    def f(x, y, name=None):
        a = _x(x, api)
        if isinstance(y, Tensor):
            b = y._t
            if a.dtype is not b.dtype:
                a, b = binary_operands(op, a, b)
            return wrap(fn(a, b))
        if isinstance(y, float) and not a.is_floating_point():
            # remainder casts y to x's dtype; floor_divide computes in float32
            return wrap(fn(a, int(y)) if int_scalar else fn(a.to(torch.float32), y))
        return wrap(fn(a, y))
    f.__name__ = api
    return f


floor_divide = _scalar_or_tensor(torch.floor_divide, "floor_divide", "floordiv", False)
remainder = _scalar_or_tensor(torch.remainder, "remainder", "mod", True)
mod = floor_mod = remainder


@fast_path("x_num real", torch.pow)
def pow(x, y, name=None):
    """x ** y for a Tensor or number y; an integer tensor keeps its dtype with a number y."""
    if type(y) is float or type(y) is int:                  # the hot path
        try:
            a = x._t
        except AttributeError:
            raise not_tensor("pow", "x", 0, x) from None
        return wrap(torch.pow(a, y if a.dtype in _FLOATS else int(y)))
    if not isinstance(y, (Tensor, int, float)):
        raise TypeError("y must be scalar, Tensor(in dygraph mode), Value(in pir mode) but "
                        f"received: {type(y)}")
    a = _x(x, "pow")
    if isinstance(y, Tensor):
        b = y._t
        if a.dtype is not b.dtype:
            a, b = binary_operands("pow", a, b)
        return wrap(torch.pow(a, b))
    return wrap(torch.pow(a, y if a.is_floating_point() else int(y)))


def pow_(x, y, name=None):
    """In-place x ** y for a number y (Paddle refuses a Tensor y here)."""
    if not isinstance(y, (int, float)):
        raise TypeError(f"y must be scalar type, but received: {type(y)} ")
    _writable(x, "pow_").pow_(y)
    return x


def atan2(x, y, name=None):
    """Elementwise atan2(x, y); integers compute in float64 as in Paddle."""
    a, b = x._t, y._t
    if a.dtype is not b.dtype:
        a, b = binary_operands("atan2", a, b)
    if not a.is_floating_point():
        a, b = a.to(torch.float64), b.to(torch.float64)
    return wrap(torch.atan2(a, b))


def copysign(x, y, name=None):
    """|x| with the sign of y; integer tensors stay integer."""
    a = x._t
    b = y._t if isinstance(y, Tensor) else y
    if isinstance(b, torch.Tensor) and a.dtype is not b.dtype:
        a, b = binary_operands("mul", a, b)
    if a.is_floating_point():
        return wrap(torch.copysign(a, b))
    if a.dtype is torch.bool:
        return wrap(torch.broadcast_to(a, torch.broadcast_shapes(a.shape, getattr(b, "shape", ())))
                    .clone())
    if not isinstance(b, torch.Tensor):
        return wrap(-a.abs() if b < 0 else a.abs())
    return wrap(torch.where(torch.signbit(b), -a.abs(), a.abs()))


def _same_dtype(api, a, b):
    """Paddle's kernels that take one dtype for both inputs reject a mix with ValueError."""
    if a.dtype is not b.dtype:
        raise ValueError("(InvalidArgument) The type of data we are trying to retrieve "
                         f"({_name(a)}) does not match the type of data ({_name(b)}) currently "
                         "contained in the container.")


def heaviside(x, y, name=None):
    """0 where x < 0, y where x == 0, 1 where x > 0."""
    a = _x(x, "heaviside")
    b = _x(y, "heaviside", "y", 1)
    _same_dtype("heaviside", a, b)
    # torch.heaviside has no gradient; this form passes y's gradient where x == 0
    return wrap(torch.where(a == 0, b, (a > 0).to(a.dtype)))


def hypot(x, y, name=None):
    """sqrt(x**2 + y**2); integers compute in float32."""
    a = _tensor_only(x, "hypot")
    b = _tensor_only(y, "hypot", "y")
    if a.dtype is not b.dtype:
        a, b = binary_operands("add", a, b)
    return wrap(torch.hypot(_float_of(a), _float_of(b)))


def logaddexp(x, y, name=None):
    """log(exp(x) + exp(y)); integers compute in float32."""
    a = _x(x, "maximum")
    b = _x(y, "maximum", "y", 1)
    if a.dtype is not b.dtype:
        a, b = binary_operands("add", a, b)
    return wrap(torch.logaddexp(_float_of(a), _float_of(b)))


def gcd(x, y, name=None):
    a, b = x._t, y._t
    if a.dtype is not b.dtype:
        a, b = binary_operands("add", a, b)
    if a.shape != b.shape:
        _broadcast_shape(a, b)
    return wrap(torch.gcd(a, b))


def lcm(x, y, name=None):
    a, b = x._t, y._t
    if a.dtype is not b.dtype:
        a, b = binary_operands("add", a, b)
    return wrap(torch.lcm(a, b))


def lerp(x, y, weight, name=None):
    """x + weight * (y - x); weight is a float or a Tensor, all of one dtype."""
    a = _x(x, "lerp")
    b = _x(y, "lerp", "y", 1)
    _same_dtype("lerp", a, b)
    if isinstance(weight, Tensor):
        w = weight._t
        _same_dtype("lerp", a, w)
        w = w.detach()                                  # Paddle gives weight no gradient
        if w.dim() > a.dim() or w.dim() > b.dim():     # torch.lerp broadcasts all three alike
            return wrap(torch.lerp(*torch.broadcast_tensors(a, b, w)))
        return wrap(torch.lerp(a, b, w))
    if not isinstance(weight, float):
        raise not_tensor("lerp", "weight", 2, weight)
    return wrap(torch.lerp(a, b, weight))


def lerp_(x, y, weight, name=None):
    a = _writable(x, "lerp_")
    a.lerp_(_x(y, "lerp", "y", 1), weight._t if isinstance(weight, Tensor) else weight)
    return x


# ---------------------------------------------------------------------- cast, scale, add_n ...
_TORCH_DTYPE_OF = {}


def _torch_dtype(dtype):
    """The torch dtype for a Paddle dtype argument, remembered per spelling."""
    try:
        return _TORCH_DTYPE_OF[dtype]
    except (KeyError, TypeError):
        d = _dt.convert_dtype(dtype).torch
        try:
            _TORCH_DTYPE_OF[dtype] = d
        except TypeError:
            pass
        return d


@fast_path("x_dtype", torch.Tensor.to)
def cast(x, dtype):
    """x converted to ``dtype`` (a copy even when the dtype is unchanged)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("cast", "x", 0, x) from None
    d = _torch_dtype(dtype)             # t.to(dtype=d) parses ~0.5 us faster than t.to(d)
    return wrap(t.to(dtype=d) if t.dtype is not d else t.clone())


def cast_(x, dtype):
    """In-place cast: x now holds the converted data."""
    t = _writable(x, "cast_")
    x._t = t.to(_dt.convert_dtype(dtype).torch)
    return x


_ACTS = {"tanh": torch.tanh, "relu": torch.relu, "sigmoid": torch.sigmoid}


@fast_path("x_num real", operator.mul)
def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    """scale * x + bias (or scale * (x + bias)); integer tensors keep their dtype."""
    t = _x(x, "scale")
    if act is None and t.dtype in _FLOATS and type(scale) is float and bias_after_scale:
        return wrap(t * scale + bias if bias else t * scale)          # the hot path
    s = scale._t if isinstance(scale, Tensor) else scale
    if t.dtype is torch.bool:
        f = t.to(torch.float32)
        r = (f * s + bias if bias_after_scale else (f + bias) * s) != 0
    elif not t.is_floating_point():          # Paddle casts scale and bias to x's dtype
        s = s.to(t.dtype) if isinstance(s, torch.Tensor) else int(s)
        r = t * s + int(bias) if bias_after_scale else (t + int(bias)) * s
    elif bias_after_scale:
        r = t * s + bias if bias else t * s
    else:
        r = (t + bias) * s
    if act is not None:
        r = _ACTS[act](r)
    return wrap(r)


def scale_(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    t = _writable(x, "scale_")
    s = scale._t if isinstance(scale, Tensor) else scale
    if bias_after_scale:
        t.mul_(s).add_(bias)
    else:
        t.add_(bias).mul_(s)
    if act is not None:
        t.copy_(_ACTS[act](t))
    return x


def increment(x, value=1.0, name=None):
    """x += value in place for a one-element x; returns x."""
    t = _x(x, "increment")
    if t.numel() != 1:
        raise ValueError("(InvalidArgument) The number of elements in Input(X) should be 1."
                         f"Now the number is {t.numel()}.")
    if t.requires_grad:
        return wrap(t + value)
    t.add_(value if t.is_floating_point() else int(value))
    return x


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


def clip(x, min=None, max=None, name=None):
    """Clamp x to [min, max]; an integer x with float bounds gives float32, as in Paddle."""
    t = _pyx(x)
    if t.dtype in _FLOATS and type(min) is float and type(max) is float and min <= max:
        return wrap(torch.clamp(t, min, max))                          # the hot path
    if not t.is_floating_point() and (isinstance(min, float) or isinstance(max, float)):
        t = t.to(torch.float32)
    lo, hi = _bound(min, t, max), _bound(max, t, min)
    if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and lo > hi:
        raise ValueError("(InvalidArgument) max should be greater than or equal to min. "
                         f"But received min = {lo}, max = {hi}")
    if lo is None and hi is None:
        return wrap(t.clone())
    if isinstance(lo, torch.Tensor) and lo.dim() > t.dim() or \
            isinstance(hi, torch.Tensor) and hi.dim() > t.dim():
        raise ValueError("(InvalidArgument) clip bounds must not have more dims than x")
    return wrap(torch.clamp(t, lo, hi))


def clip_(x, min=None, max=None, name=None):
    t = _writable(x, "clip_")
    t.clamp_(_bound(min, t, max), _bound(max, t, min))
    return x


# ---------------------------------------------------------------------- reductions
def _axis(axis):
    """Paddle's axis argument as torch's dim: None (all), an int or a tuple of ints."""
    if isinstance(axis, Tensor):
        axis = axis._t.tolist()
    if axis is None or axis == [] or axis == ():
        return None
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


def _check_axes(t, ax):
    """Paddle's ValueError for an axis out of range (torch would raise IndexError)."""
    nd = builtins.max(t.dim(), 1)
    seen = set()
    for a in (ax if isinstance(ax, tuple) else (ax,)):
        if not isinstance(a, int) or not -nd <= a < nd:
            raise ValueError(f"(InvalidArgument) The reduce dim index {a} should be in the range "
                             f"[ -dimension(X), dimension(X) ) which dimesion = {t.dim()}")
        if a % nd in seen:
            raise ValueError("(InvalidArgument) Axis contains duplicate dimensions. Dimension "
                             f"{a % nd} appears more than once in axis.")
        seen.add(a % nd)


def _reduce(t, fn, ax, keepdim, **kw):
    """``fn(t, dim, keepdim)`` with Paddle's axis handling: None reduces everything (to a 0-d
    tensor, or all-ones shape with keepdim); 0-d inputs accept axis 0 and -1."""
    if ax is None or t.dim() == 0:
        if ax is not None:
            _check_axes(t, ax)
        r = fn(t, **kw)
        return r.reshape([1] * t.dim()) if keepdim else r
    try:
        return fn(t, ax, keepdim, **kw)
    except (IndexError, RuntimeError):
        _check_axes(t, ax)
        raise


@fast_path("x x_int real", torch.sum)
def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over ``axis`` (all axes by default); bool and small ints sum to int64."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("sum", "x", 0, x) from None
    if dtype is None and t.dtype in _FLOATS:               # the hot path
        if axis is None:
            r = torch.sum(t)
            return wrap(r.reshape([1] * t.dim()) if keepdim else r)
        if type(axis) is int:
            try:
                return wrap(torch.sum(t, axis, keepdim))
            except IndexError:
                pass                                        # Paddle's error below
    tdt = None if dtype is None else _dt.convert_dtype(dtype).torch
    if tdt is None and not t.is_floating_point():
        tdt = torch.int64 if t.dtype in _INT_TO_INT64 else t.dtype
    if axis is None:
        r = torch.sum(t, dtype=tdt)
        return wrap(r.reshape([1] * t.dim()) if keepdim else r)
    return wrap(_reduce(t, torch.sum, _axis(axis), keepdim, dtype=tdt))


def _int_mean(t, dim=None, keepdim=False):
    """Paddle's mean of integers: the integer sum divided by the count, truncated."""
    s = torch.sum(t, dim, keepdim, dtype=torch.int64) if dim is not None else torch.sum(
        t, dtype=torch.int64)
    n = t.numel() // builtins.max(s.numel(), 1)
    if t.dtype is torch.bool:
        return s != 0            # the mean cast back to bool
    return torch.div(s, n, rounding_mode="trunc").to(t.dtype)


@fast_path("x x_int real", torch.mean)
def mean(x, axis=None, keepdim=False, name=None):
    """Mean over ``axis`` (all axes by default); integer tensors keep their dtype."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("mean", "x", 0, x) from None
    if t.dtype in _FLOATS:                                  # the hot path
        if axis is None:
            r = torch.mean(t)
            return wrap(r.reshape([1] * t.dim()) if keepdim else r)
        if type(axis) is int:
            try:
                return wrap(torch.mean(t, axis, keepdim))
            except IndexError:
                pass
    fn = torch.mean if t.is_floating_point() or t.is_complex() else _int_mean
    return wrap(_reduce(t, fn, _axis(axis), keepdim))


@fast_path("x real", torch.prod)
def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    """Product over ``axis``; the result keeps x's dtype unless ``dtype`` is given."""
    t = _x(x, "prod")
    tdt = t.dtype if dtype is None else _dt.convert_dtype(dtype).torch
    ax = _axis(axis)
    if isinstance(ax, tuple):          # torch.prod reduces one dim at a time
        _check_axes(t, ax)
        nd = t.dim()
        r = t.to(tdt)
        for a in sorted({a % nd for a in ax}, reverse=True):
            r = torch.prod(r, a, keepdim)
        return wrap(r)
    return wrap(_reduce(t, torch.prod, ax, keepdim, dtype=tdt))


def _extreme(fn, api):
    """max/min/amax/amin: values only; Paddle refuses an empty reduction."""
    def f(x, axis=None, keepdim=False, name=None):
        try:
            t = x._t
        except AttributeError:
            raise not_tensor(api, "x", 0, x) from None
        if axis is None:
            try:
                r = fn(t)
                return wrap(r.reshape([1] * t.dim()) if keepdim else r)
            except RuntimeError:
                pass                                        # empty: Paddle's error below
        ax = _axis(axis)
        if t.numel() == 0:
            dims = range(t.dim()) if ax is None else (ax if isinstance(ax, tuple) else (ax,))
            for a in dims:
                if t.shape[a] == 0:
                    raise ValueError("(InvalidArgument) Cannot perform reduction along an axis "
                                     f"({a}) that has a size of 0.")
        return wrap(_reduce(t, fn, ax, keepdim))
    f.__name__ = api
    f.__doc__ = f"{api} over ``axis`` (all axes by default)."
    return f


max = _extreme(torch.amax, "max")
min = _extreme(torch.amin, "min")
amax = _extreme(torch.amax, "amax")
amin = _extreme(torch.amin, "amin")


def _boolean(fn, api):
    def f(x, axis=None, keepdim=False, name=None):
        try:
            t = x._t
        except AttributeError:
            raise not_tensor(api, "x", 0, x) from None
        if axis is None:
            r = fn(t)
            return wrap(r.reshape([1] * t.dim()) if keepdim else r)
        return wrap(_reduce(t, fn, _axis(axis), keepdim))
    f.__name__ = api
    f.__doc__ = f"Whether {api} elements over ``axis`` are true (a bool tensor)."
    return fast_path("x", fn)(f)


any = _boolean(torch.any, "any")
all = _boolean(torch.all, "all")


def logsumexp(x, axis=None, keepdim=False, name=None):
    """log(sum(exp(x))) over ``axis``, computed stably; integers give float32."""
    t = _float_of(_x(x, "logsumexp"))
    ax = _axis(axis)
    if t.dim() == 0:
        if ax is not None:
            _check_axes(t, ax)
        return wrap(t.clone())
    if ax is None:
        ax = tuple(range(t.dim()))
        if not ax:
            return wrap(t.clone())
    return wrap(_reduce(t, torch.logsumexp, ax, keepdim))


def nansum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum treating NaN as zero."""
    t = _pyx(x)
    if not t.is_floating_point():
        return sum(x, axis, dtype, keepdim)
    tdt = None if dtype is None else _dt.convert_dtype(dtype).torch
    return wrap(_reduce(t, torch.nansum, _axis(axis), keepdim, dtype=tdt))


def nanmean(x, axis=None, keepdim=False, name=None):
    """Mean of the non-NaN elements; integers give float32."""
    t = _pyx(x)
    if t.dtype in (torch.int8, torch.int16, torch.int32, torch.uint8):
        binary_operands("add", t, torch.empty(0))          # Paddle's TypeError
    t = _float_of(t)
    return wrap(_reduce(t, torch.nanmean, _axis(axis), keepdim))


def count_nonzero(x, axis=None, keepdim=False, name=None):
    """The number of non-zero elements over ``axis`` (int64)."""
    t = _x(x, "count_nonzero")
    ax = _axis(axis)
    r = _reduce(t != 0, torch.sum, ax, keepdim, dtype=torch.int64)
    return wrap(r)


# ---------------------------------------------------------------------- cumulative
def _cum_axis(t, axis, api):
    """(tensor, dim): flattened with dim 0 when axis is None; Paddle's error otherwise."""
    if axis is None:
        return t.reshape(-1), 0
    nd = builtins.max(t.dim(), 1)
    if api == "cumprod" and not -t.dim() <= axis < nd:
        raise ValueError("(InvalidArgument) Attr(axis) value should be in range [-R, R-1], R is "
                         "the rank of Input(X).")
    if not -nd <= axis < nd:
        raise IndexError(f"(OutOfRange) axis is out of range (expected to be in range of "
                         f"[{-nd}, {nd - 1}], but got {axis}).")
    return t, (0 if t.dim() == 0 else axis)


@fast_path("x_int", torch.cumsum)
def cumsum(x, axis=None, dtype=None, name=None):
    """Running sum along ``axis`` (of the flattened x when None); int32 sums to int64."""
    if dtype is None and type(axis) is int and type(x) is Tensor:
        try:                                    # hot path; torch's IndexError: Paddle's below
            return wrap(torch.cumsum(x._t, axis))
        except IndexError:
            pass
    t, d = _cum_axis(_pyx(x), axis, "cumsum")
    return wrap(torch.cumsum(t, d, dtype=None if dtype is None else _dt.convert_dtype(dtype).torch))


def _cum_inplace(x, axis, api, fn):
    """In-place running op: along ``axis``, or over the flattened x (rebinding it) when None."""
    t = _writable(x, api)
    if axis is None:
        x._t = fn(t.reshape(-1), 0)
    else:
        getattr(t, api)(axis)
    return x


def cumsum_(x, axis=None, dtype=None, name=None):
    return _cum_inplace(x, axis, "cumsum_", torch.cumsum)


def cumprod(x, dim=None, dtype=None, name=None):
    """Running product along ``dim`` (of the flattened x when None); keeps x's dtype."""
    t, d = _cum_axis(_pyx(x, "flatten"), dim, "cumprod")
    return wrap(torch.cumprod(t, d, dtype=t.dtype if dtype is None else
                              _dt.convert_dtype(dtype).torch))


def cumprod_(x, dim=None, dtype=None, name=None):
    return _cum_inplace(x, dim, "cumprod_", torch.cumprod)


def logcumsumexp(x, axis=None, dtype=None, name=None):
    """log(cumsum(exp(x))) computed stably; integers give float32."""
    t = _x(x, "logcumsumexp")
    if dtype is not None:
        t = t.to(_dt.convert_dtype(dtype).torch)
    t, d = _cum_axis(_float_of(t), axis, "logcumsumexp")
    return wrap(torch.logcumsumexp(t, d))


def _cum_extreme(fn, api):
    def f(x, axis=None, dtype="int64", name=None):
        t, d = _cum_axis(_pyx(x, "flatten"), axis, api)
        if _dt.convert_dtype(dtype).name not in ("int32", "int64"):
            raise ValueError("(InvalidArgument) dtype of indices must be DataType::INT32 or "
                             "DataType::INT64")
        v, i = fn(t, d)
        return wrap(v), wrap(i.to(_dt.convert_dtype(dtype).torch))
    f.__name__ = api
    f.__doc__ = f"Running {api[3:]} along ``axis`` and its indices."
    return f


cummax = _cum_extreme(torch.cummax, "cummax")
cummin = _cum_extreme(torch.cummin, "cummin")


# ---------------------------------------------------------------------- in-place forms
_UNARY_INPLACE = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh",
                  "digamma", "erfinv", "exp", "floor", "i0", "lgamma", "log", "log10", "log1p",
                  "log2", "reciprocal", "round", "rsqrt", "sigmoid", "sin", "sinh", "sqrt",
                  "square", "tan", "tanh", "trunc", "frac", "neg", "expm1", "erf", "logit",
                  "nan_to_num"]
_TORCH_INPLACE = {"round": lambda t: t.round_(), "square": lambda t: t.pow_(2),
                  # torch has no gradient for these in place: compute aside, copy back
                  "asinh": lambda t: t.copy_(torch.asinh(t.clone())),
                  "acosh": lambda t: t.copy_(torch.acosh(t.clone())),
                  "atanh": lambda t: t.copy_(torch.atanh(t.clone())),
                  "frac": lambda t: t.frac_(), "nan_to_num": lambda t: t.nan_to_num_(),
                  "neg": lambda t: t.neg_(), "logit": lambda t: t.logit_()}
for _n in _UNARY_INPLACE:
    globals()[_n + "_"] = _unary_(_TORCH_INPLACE.get(_n) or getattr(torch.Tensor, _n + "_"),
                                  _n + "_")
gammaln_ = lgamma_

for _n, _m, _op in [("add", "add_", "add"), ("subtract", "sub_", "sub"),
                    ("multiply", "mul_", "mul"), ("divide", "div_", "div"),
                    ("floor_divide", "floor_divide_", "floordiv"),
                    ("remainder", "remainder_", "mod"),
                    ("copysign", "copysign_", "mul"), ("hypot", "hypot_", "add"),
                    ("gcd", "gcd_", "add"), ("lcm", "lcm_", "add")]:
    globals()[_n + "_"] = _binary_(getattr(torch.Tensor, _m), _n + "_", _op)
mod_ = floor_mod_ = remainder_


def zero_(x):
    """Fill x with zeros in place."""
    _writable(x, "zero_").zero_()
    return x


# Paddle has these in-place forms as top-level functions too.
_INPLACE_FUNCTIONS = [
    "abs_", "acos_", "acosh_", "asin_", "asinh_", "atan_", "atanh_", "cos_", "cosh_", "digamma_",
    "lgamma_", "gammaln_", "log_", "log10_", "log1p_", "log2_", "sin_", "sinh_", "square_",
    "tan_", "tanh_", "trunc_", "frac_", "neg_", "expm1_", "erf_", "i0_", "logit_", "nan_to_num_",
    "subtract_", "multiply_", "divide_", "floor_divide_", "remainder_", "mod_", "floor_mod_",
    "pow_", "copysign_", "hypot_", "gcd_", "lcm_", "cumsum_", "cumprod_", "cast_",
]
__all__ += _INPLACE_FUNCTIONS

as_methods(globals(), [n for n in __all__ if n not in (
    "cast", "cast_", "add_n", "is_tensor", "is_floating_point", "is_complex", "is_integer",
    "expm1_", "erf_", "gammaln", "gammaln_")])
as_methods(globals(), [
    "add_", "scale_", "clip_", "lerp_", "zero_", "cast_", "exp_", "sqrt_", "rsqrt_", "floor_",
    "ceil_", "round_", "reciprocal_", "sigmoid_", "erfinv_", "add_n", "gammaln", "gammaln_"])


# ---------------------------------------------------------------------- special functions
def _special(fn, api):
    """Elementwise ``fn``; integers compute in float32 (Paddle's autocast)."""
    def op(x, name=None):
        try:
            t = x._t
        except AttributeError:
            raise not_tensor(api, "x", 0, x) from None
        return wrap(fn(t if t.is_floating_point() else t.to(torch.float32)))
    op.__name__ = api
    op.__doc__ = f"Elementwise {api} (torch.special.{fn.__name__})."
    return op


i0e = _special(torch.special.i0e, "i0e")
i1 = _special(torch.special.i1, "i1")
i1e = _special(torch.special.i1e, "i1e")


def _sinc(t):
    # Paddle's formula: sin(pi x) / (pi x) with 0 replaced by 1e-20, and 1 wherever that is
    # NaN (so NaN and +-inf inputs give 1)
    u = torch.where(t != 0, t, torch.full_like(t, 1.0e-20)) * math.pi
    r = torch.sin(u) / u
    return torch.where(torch.isnan(r), torch.ones_like(r), r)


def sinc(x, name=None):
    """sin(pi x) / (pi x), 1 at 0 (and, as in Paddle, at NaN and +-inf)."""
    t = _tensor_only(x, "sinc")
    _typecheck(t, "sinc", ("float16", "bfloat16", "float32", "float64"))
    return wrap(_sinc(t))


def sinc_(x, name=None):
    t = _tensor_only(x, "sinc_")
    _typecheck(t, "sinc_", ("float16", "bfloat16", "float32", "float64"))
    _writable(x, "sinc_").copy_(_sinc(t.clone()))
    return x


def positive(x, name=None):
    """x itself (Paddle returns its input); a bool tensor is a TypeError."""
    if _pyx(x).dtype is torch.bool:
        raise TypeError("The `+` operator, on a bool tensor is not supported.")
    return x


def negative(x, name=None):
    """-x; a bool tensor is a TypeError."""
    t = _pyx(x)
    if t.dtype is torch.bool:
        raise TypeError("The `-` operator, on a bool tensor is not supported.")
    return wrap(torch.neg(t))


def _polygamma_n(n):
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"The input of n must be int type, but received: {type(n)} ")
    if n < 0:
        raise ValueError(f"The input of n must be greater than or equal to 0. But received n = {n}")


def polygamma(x, n, name=None):
    """The n-th derivative of digamma (n = 0 is digamma); integers compute in float32."""
    _polygamma_n(n)
    t = _x(x, "polygamma")
    return wrap(torch.polygamma(n, t if t.is_floating_point() else t.to(torch.float32)))


def polygamma_(x, n, name=None):
    _polygamma_n(n)
    t = _writable(x, "polygamma_")
    t.copy_(torch.polygamma(n, t.clone()))
    return x


def multigammaln(x, p, name=None):
    """log of the multivariate gamma function of dimension p:
    p(p-1)/4 log(pi) + sum_j lgamma(x + (1 - j)/2), j = 1..p."""
    if p < 1:
        raise AssertionError(f"The p must be greater than or equal to 1, But received p is {p}.\n")
    return wrap(_multigammaln(_pyx(x), p))


def _multigammaln(t, p):
    # torch.mvlgamma's sum without its domain check (Paddle has none)
    b = torch.arange(1 - p, 1, dtype=t.dtype, device=t.device) * 0.5
    c = 0.25 * p * (p - 1) * math.log(math.pi)
    return torch.lgamma(t.unsqueeze(-1) + b).sum(-1) + c


def multigammaln_(x, p, name=None):
    if p < 1:
        raise AssertionError(f"The p must be greater than or equal to 1, But received p is {p}.\n")
    t = _writable(x, "multigammaln_")
    t.copy_(_multigammaln(t.clone(), p))
    return x


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
    return wrap(torch.renorm(t, p, axis % nd, max_norm))


def renorm_(x, p, axis, max_norm):
    t = _writable(x, "renorm_")
    t.copy_(renorm(wrap(t.clone()), p, axis, max_norm)._t)
    return x


def ldexp(x, y, name=None):
    """x * 2**y; integer x computes in float32."""
    a = _tensor_only(x, "ldexp")
    b = _tensor_only(y, "ldexp", "y")
    if not a.is_floating_point():
        a = a.to(torch.float32)
    return wrap(a * torch.pow(2.0, b.to(a.dtype)))


def ldexp_(x, y, name=None):
    a = _writable(x, "ldexp_")
    b = _tensor_only(y, "ldexp", "y")
    a.mul_(torch.pow(2.0, b.to(a.dtype)))
    return x


def nextafter(x, y, name=None):
    """The next representable float after x towards y."""
    try:
        a = x._t
        b = y._t
    except AttributeError:
        raise _not_tensors("nextafter", x, y) from None
    if a.dtype is not b.dtype:
        a, b = binary_operands("add", a, b)
    if a.dtype not in (torch.float32, torch.float64):
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_name(a)}) of kernel `nextafter` is not registered.")
    return wrap(torch.nextafter(a, b))


def _gamma_args(x, y, api):
    try:
        a = x._t
        b = y._t
    except AttributeError:
        raise _not_tensors(api, x, y) from None
    if a.dtype is not b.dtype:
        a, b = binary_operands("add", a, b)
    if a.dtype not in (torch.float32, torch.float64):
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_name(a)}) of kernel `gammaincc` is not registered.")
    # Paddle checks the values in Python (so do we: it is part of the API)
    if bool((a < 0).any()):
        raise ValueError("The input argument x must be greater than or equal to 0.")
    if bool((b < 0).any()):
        raise ValueError("The input argument y must be greater than or equal to 0.")
    return a, b


def _gammaincc(a, b):
    # Paddle's kernel: Q(0, y) = 1; no gradient for the parameter a (none in torch either)
    q = torch.special.gammaincc(a.detach(), b)
    return torch.where(a == 0, torch.ones_like(q), q)


def gammaincc(x, y, name=None):
    """The regularized upper incomplete gamma function Q(x, y) (differentiable in y)."""
    return wrap(_gammaincc(*_gamma_args(x, y, "gammaincc")))


def gammainc(x, y, name=None):
    """The regularized lower incomplete gamma function P(x, y) = 1 - Q(x, y), as Paddle
    computes it."""
    return wrap(1 - _gammaincc(*_gamma_args(x, y, "gammainc")))


def gammainc_(x, y, name=None):
    a, b = _gamma_args(x, y, "gammainc")
    _writable(x, "gammainc_").copy_(1 - _gammaincc(a.clone(), b))
    return x


def gammaincc_(x, y, name=None):
    a, b = _gamma_args(x, y, "gammaincc")
    _writable(x, "gammaincc_").copy_(_gammaincc(a.clone(), b))
    return x


def frexp(x, name=None):
    """(mantissa, exponent) with x = mantissa * 2**exponent, |mantissa| in [0.5, 1); both in
    x's float dtype (Paddle's formula: inf gives exponent 1, NaN gives NaN)."""
    t = _pyx(x)
    if t.dtype not in (torch.float32, torch.float64):
        raise TypeError("The data type of input must be one of ['float32', 'float64'], but got "
                        f"paddle.{_name(t)}")
    a = torch.abs(t)
    with torch.no_grad():                  # the exponent has no gradient (Paddle: zero)
        e = torch.floor(torch.log2(a))
        e = torch.where(torch.isinf(e), torch.zeros_like(e), e)
        e = torch.where(a / torch.pow(2.0, e) >= 1, e + 1, e)
    m = a / torch.pow(2.0, e)
    if t.requires_grad:                    # Paddle's exponent does not stop gradient either
        e.requires_grad_(True)
    return wrap(torch.where(t < 0, -m, m)), wrap(e)


_NO_TRACE = frozenset([torch.bool, torch.bfloat16])


def trace(x, offset=0, axis1=0, axis2=1, name=None):
    """Sum of the diagonal (``offset`` above the main one) over axis1/axis2; x's dtype."""
    t = _x(x, "trace")
    if t.dtype in _NO_TRACE:
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_name(t)}) of kernel `trace` is not registered.")
    try:
        return wrap(torch.diagonal(t, offset, axis1, axis2).sum(-1, dtype=t.dtype))
    except (RuntimeError, IndexError):
        _diag_check(t, axis1, axis2, "Input(x)'s dim is out of range (expected at least 2, but "
                                     f"got {t.dim()}).")
        raise


def diagonal(x, offset=0, axis1=0, axis2=1, name=None):
    """The diagonal ``offset`` above the main one of the planes axis1/axis2, in a new last
    dim."""
    try:
        return wrap(torch.diagonal(x._t, offset, axis1, axis2))
    except AttributeError:
        raise not_tensor("diagonal", "x", 0, x) from None
    except (RuntimeError, IndexError):
        _diag_check(x._t, axis1, axis2, "Input's dim is out of range (expected at least 2 "
                                        f"dimensions, but got {x._t.dim()}).")
        raise


def _diag_check(t, axis1, axis2, few_dims):
    """Paddle's errors where torch.diagonal failed: too few dims, identical axes."""
    if t.dim() < 2:
        raise IndexError(f"(OutOfRange) {few_dims}")
    if axis1 % t.dim() == axis2 % t.dim():
        raise ValueError(f"(InvalidArgument) The dimensions should not be identical "
                         f"{axis1} vs {axis2}.")


def _trapezoid(y, x, dx, axis, cumulative):
    if x is not None and dx is not None:
        raise ValueError("Not permitted to specify both x and dx input args.")
    t = _pyx(y)
    for v in (t,) if x is None else (t, x._t):
        if v.dtype not in _FLOATS or v.dtype is torch.bfloat16:
            raise TypeError("The data type of input must be Tensor, and dtype should be one of "
                            "['paddle.float16', 'paddle.float32', 'paddle.float64'], but got "
                            f"paddle.{_name(v)}")
    if t.dtype is torch.float16:
        raise RuntimeError("(NotFound) The kernel with key (CPU, Undefined(AnyLayout), float16) "
                           "of kernel `gather` is not registered.")
    fn = torch.cumulative_trapezoid if cumulative else torch.trapezoid
    if x is not None:
        return wrap(fn(t, x._t, dim=axis))
    return wrap(fn(t, dx=1.0 if dx is None else float(dx), dim=axis))


def trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The integral of y along ``axis`` by the trapezoidal rule (sample points x, or spacing
    dx, default 1)."""
    return _trapezoid(y, x, dx, axis, False)


def cumulative_trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The running trapezoidal integral of y along ``axis`` (one element shorter)."""
    return _trapezoid(y, x, dx, axis, True)


def reduce_as(x, target, name=None):
    """Sum x over the dimensions that broadcasting ``target`` to x's shape would add or
    stretch, giving target's shape (bool and int32 sum to int64, as ``sum``)."""
    t = _x(x, "reduce_as")
    s = _x(target, "reduce_as", "target", 1)
    lead = t.dim() - s.dim()
    try:
        if lead < 0 or torch.broadcast_shapes(s.shape, t.shape) != t.shape:
            raise RuntimeError
    except RuntimeError:
        raise ValueError("(InvalidArgument) ReduceDims dimension mismatch. Operands could not "
                         f"be broadcast together with the shape of in_dims = {list(t.shape)} "
                         f"and the shape of out_dims = {list(s.shape)}.") from None
    dims = list(range(lead)) + [lead + i for i, n in enumerate(s.shape)
                                if n == 1 and t.shape[lead + i] != 1]
    dt = torch.int64 if t.dtype in _INT_TO_INT64 else None
    if not dims:
        return wrap(t.to(dt) if dt is not None else t.clone())
    r = t.sum(dims, keepdim=True, dtype=dt)
    return wrap(r.reshape(s.shape))


Tensor.__div__ = Tensor.__truediv__          # Python 2's name, which Paddle keeps
__all__ += ["i0e", "i1", "i1e", "sinc", "sinc_", "positive", "negative", "polygamma",
            "polygamma_", "multigammaln", "multigammaln_", "renorm", "renorm_", "ldexp",
            "ldexp_", "nextafter", "gammainc", "gammaincc", "gammainc_", "gammaincc_", "frexp",
            "trace", "diagonal", "trapezoid", "cumulative_trapezoid", "reduce_as"]
as_methods(globals(), ["i0e", "i1", "i1e", "sinc", "sinc_", "negative", "polygamma",
                       "polygamma_", "multigammaln", "multigammaln_", "renorm", "renorm_",
                       "ldexp", "ldexp_", "nextafter", "gammainc", "gammaincc", "gammainc_",
                       "gammaincc_", "frexp", "trace", "diagonal", "trapezoid",
                       "cumulative_trapezoid", "reduce_as"])


# ------------------------------------------------------------ Paddle 3's torch-style names
clamp = clip


def mul(x, y, name=None, *, out=None):
    """``multiply(x, y)`` (Paddle 3's torch-style name, with ``out``)."""
    return finish(multiply(x, y), out)


def _rounded_div(x, y, rounding_mode):
    """``x / y`` rounded toward zero ('trunc') or down ('floor'), in the promoted dtype."""
    if rounding_mode not in ("trunc", "floor"):
        raise ValueError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                         f"found {rounding_mode}.")
    return wrap(_promoted(torch.div, "divide", "div", x, y, rounding_mode=rounding_mode))


def _promoted(fn, api, op, x, y, **kw):
    """``fn(a, b, **kw)`` of x's and y's tensors after Paddle's promotion for ``op``, with
    Paddle's ValueError where their shapes do not broadcast."""
    a = _x(x, api)
    b = _x(y, api, "y", 1)
    if a.dtype is not b.dtype:
        a, b = binary_operands(op, a, b)
    try:
        return fn(a, b, **kw)
    except RuntimeError:
        _broadcast_shape(a, b)
        raise


def div(x, y, name=None, *, rounding_mode=None, out=None):
    """``divide(x, y)``; ``rounding_mode`` 'trunc' or 'floor' rounds the quotient (integers
    then stay integers)."""
    r = divide(x, y) if rounding_mode is None else _rounded_div(x, y, rounding_mode)
    return finish(r, out)


def div_(x, y, name=None, *, rounding_mode=None):
    """In-place ``div``; returns x."""
    if rounding_mode is None:
        return divide_(x, y)
    r = _rounded_div(x, y, rounding_mode)._t
    _check_inplace_shape(x._t, r)
    _writable(x, "divide_").copy_(r)
    return x


def sub(x, y, name=None, *, alpha=1, out=None):
    """``x - alpha * y`` (Paddle 3's torch-style name for subtract)."""
    r = subtract(x, y) if alpha == 1 else wrap(_promoted(torch.sub, "subtract", "sub", x, y,
                                                           alpha=alpha))
    return finish(r, out)


def sub_(x, y, name=None, *, alpha=1):
    """In-place ``sub``; returns x."""
    if alpha == 1:
        return subtract_(x, y)
    r = _promoted(torch.sub, "subtract", "sub", x, y, alpha=alpha)
    _check_inplace_shape(x._t, r)
    _writable(x, "subtract_").copy_(r)
    return x


def true_divide(input, other, *, out=None):
    """``divide(input, other)`` (Paddle 3's torch-style name)."""
    return finish(divide(input, other), out)


__all__ += ["clamp", "mul", "div", "div_", "sub", "sub_", "true_divide"]
as_methods(globals(), ["clamp", "mul", "div", "div_", "sub", "sub_", "true_divide"])
Tensor.clamp_ = clip_                 # methods only: Paddle has no paddle.clamp_ / paddle.mul_
Tensor.mul_ = multiply_
