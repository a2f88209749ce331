"""Elementwise math: unary (``tanh``, ``exp``, ``sign``, ``round`` ...) and binary (``add``,
``pow``, ``maximum``, ``lerp`` ...) functions with their in-place forms (``tanh_``, ``x.add_``).

Paddle and torch agree on most elementwise math: those are one-line registrations through
``_unary_op``/``_binary_op`` (a registration also binds the module global; the few names this
module's own code uses are assigned as well, for readers and linters). Integer inputs to
transcendental functions give float32 in both.

Binary functions take two Tensors (a Python number for ``y`` is Paddle's ValueError, except
where Paddle accepts one: ``floor_divide``, ``remainder``, ``pow``, ``copysign``); tensors of
different dtypes follow the operators' promotion (``framework.promotion``): floating types mix,
anything else is Paddle's TypeError.

In-place forms (``x.add_(y)``, ``paddle.tanh_(x)``) modify ``x._t`` in place and return ``x``;
on a leaf that does not stop gradient they raise Paddle's ValueError. Some are Tensor methods
only (``x.exp_()``), some functions only (``paddle.erf_``), as in Paddle.

The helpers (``_x``, ``_writable``, ``_binary`` ...) serve the other op modules too.
"""
import warnings

import torch

from ..framework import dtype as _dt
from ..framework.data_feeder import check_variable_and_dtype
from ..framework.promotion import binary_operands
from ..framework.tensor import Tensor, _new, wrap, writable
from .common import F64, float_attr, not_tensor
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names

_FLOATS = frozenset([torch.float16, torch.bfloat16, torch.float32, torch.float64])


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


def _typecheck(t, api, allowed):
    if _name(t) not in allowed:
        raise TypeError(f"The data type of input must be one of {list(allowed)}, but received "
                        f"{_name(t)}")


def _tensor_only(x, api, arg="x"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{arg} must be tensor type, but got {type(x)}")
    return x._t


def _float_of(t):
    """Integer tensors compute in float32, as Paddle's autocast for math ops does."""
    return t if t.is_floating_point() or t.is_complex() else t.to(torch.float32)


# ---------------------------------------------------------------------- elementwise unary
def _unary(fn, api):
    def f(x, name=None):
        try:
            t = x._t
        except AttributeError:
            raise not_tensor(api, "x", 0, x) from None
        o = _new(Tensor)                # wrap(), inlined: a call less on the hottest path
        o._t = fn(t)
        return o
    f.__name__ = api
    f.__doc__ = f"Elementwise {api} (torch.{fn.__name__})."
    return f


def _unary_(fn_, api):
    """In-place form: ``fn_`` changes a torch tensor in place (``torch.Tensor.tanh_``)."""
    def f(x, name=None):
        t = _writable(x, api)
        if not isinstance(t, torch.Tensor):     # a static Variable's proxy
            return _static_inplace(t, api)
        fn_(t)
        return x
    f.__name__ = api
    f.__doc__ = f"In-place {api[:-1]}: modifies and returns x."
    return f


def _static_inplace(t, api):
    """``api`` (``tanh_``) on a static Variable: as in Paddle's static mode, the out-of-place
    op (a new Variable; the input keeps its value), with Paddle's warning."""
    warnings.warn(f"In static graph mode, {api}() is the same as {api[:-1]}() and does not "
                  "perform inplace operation.", UserWarning, stacklevel=3)
    return wrap(getattr(t, api[:-1])())


def _inplace_op(api, where=True, fn_=None):
    """Register ``api_``, done by ``fn_`` (default ``torch.Tensor.<api>_``): as a function and
    a Tensor method (``where=True``), or only as one of them ("function", "method")."""
    f = _unary_(fn_ or getattr(torch.Tensor, api + "_"), api + "_")
    return op(f, export=where != "method", method=where != "function")


def _unary_op(api, fn, inplace=None, fn_=None):
    """Register ``api``: ``wrap(fn(t))`` as a function, Tensor method and FastOp; and, unless
    ``inplace`` is None, its in-place form (``_inplace_op(api, inplace, fn_)``)."""
    f = op(_unary(fn, api), method=True, fast=("x", fn))
    if inplace is not None:
        _inplace_op(api, inplace, fn_)
    return f


def _aside(fn):
    """An in-place form for torch functions whose in-place kernels have no gradient: compute
    aside, copy back."""
    return lambda t: t.copy_(fn(t.clone()))


_unary_op("abs", torch.abs, inplace=True)
_unary_op("acos", torch.acos, inplace=True)
_unary_op("acosh", torch.acosh, inplace=True, fn_=_aside(torch.acosh))
_unary_op("asin", torch.asin, inplace=True)
_unary_op("asinh", torch.asinh, inplace=True, fn_=_aside(torch.asinh))
_unary_op("atan", torch.atan, inplace=True)
_unary_op("atanh", torch.atanh, inplace=True, fn_=_aside(torch.atanh))
_unary_op("ceil", torch.ceil, inplace="method")
_unary_op("cos", torch.cos, inplace=True)
_unary_op("cosh", torch.cosh, inplace=True)
_unary_op("digamma", torch.digamma, inplace=True)
_unary_op("erf", torch.erf, inplace="function")
def _erfinv(t):
    """erfinv as Paddle's CPU kernel: -inf / inf below -1 / above 1 (torch: NaN), read as
    erfinv of x clamped to [-1, 1]; with a gradient the clamp passes it straight through, so
    d/dx is inf there as in Paddle (0 only at x = +-inf)."""
    c = torch._C._nn.hardtanh(t)        # the clamp to [-1, 1] with the fewest arguments
    if isinstance(t, torch.Tensor) and t.requires_grad:      # not a static graph's proxy
        c = c.detach() + torch.where(torch.isinf(t), 0.0, t - t.detach())
    return torch.erfinv(c)


_erfinv.__name__ = "erfinv"
_unary_op("erfinv", _erfinv, inplace="method", fn_=lambda t: t.copy_(_erfinv(t.clone())))
_unary_op("exp", torch.exp, inplace="method")
_unary_op("expm1", torch.expm1, inplace="function")
_unary_op("floor", torch.floor, inplace="method")
_unary_op("i0", torch.i0, inplace=True)
_unary_op("isfinite", torch.isfinite)
_unary_op("isinf", torch.isinf)
_unary_op("isnan", torch.isnan)
lgamma = _unary_op("lgamma", torch.lgamma)
lgamma_ = _inplace_op("lgamma")
op(lgamma, name="gammaln", method=True)
op(lgamma_, name="gammaln_", method=True)
_unary_op("log", torch.log, inplace=True)
_unary_op("log10", torch.log10, inplace=True)
_unary_op("log1p", torch.log1p, inplace=True)
_unary_op("log2", torch.log2, inplace=True)
_unary_op("reciprocal", torch.reciprocal, inplace="method")
_unary_op("rsqrt", torch.rsqrt, inplace="method")
_unary_op("sigmoid", torch.sigmoid, inplace="method")
_unary_op("sin", torch.sin, inplace=True)
_unary_op("sinh", torch.sinh, inplace=True)
_unary_op("sqrt", torch.sqrt, inplace="method")
_unary_op("square", torch.square, inplace=True, fn_=lambda t: t.pow_(2))
_unary_op("tan", torch.tan, inplace=True)
_unary_op("tanh", torch.tanh, inplace=True)
def _conj(t):
    # a new tensor, as Paddle's (torch.conj of a real tensor is that tensor)
    return torch.conj_physical(t) if t.is_complex() else t.clone()


_unary_op("conj", _conj)


@op(method=True)
def sign(x, name=None):
    """-1, 0 or 1 by the sign of x; NaN stays NaN."""
    t = _x(x, "sign")
    if t.is_floating_point():
        return wrap(torch.where(torch.isnan(t), t, torch.sign(t)))
    return wrap(torch.sign(t))


@op(method=True)
def neg(x, name=None):
    """-x (Paddle scales by -1, so a bool tensor stays bool and unchanged)."""
    t = _x(x, "scale")
    return wrap(t.clone() if t.dtype is torch.bool else torch.neg(t))


_inplace_op("neg", fn_=lambda t: t.neg_())


@op(method=True)
def trunc(input, name=None):
    """Round toward zero (integers unchanged)."""
    return wrap(torch.trunc(_x(input, "trunc", "input")))


@op(name="trunc_", method=True)
def trunc_(input, name=None):
    """In-place trunc: modifies and returns input."""
    _writable(input, "trunc_").trunc_()
    return input


@op(method=True)
def frac(x, name=None):
    """The fractional part x - trunc(x) (integers give 0)."""
    t = _pyx(x)
    _typecheck(t, "frac", ("int32", "int64", "float16", "float32", "float64"))
    return wrap(torch.frac(t) if t.is_floating_point() else torch.zeros_like(t))


_inplace_op("frac", fn_=lambda t: t.frac_())


@op(method=True)
def sgn(x, name=None):
    """Sign of a real tensor, x / |x| of a complex one."""
    t = _pyx(x)
    _typecheck(t, "sgn", ("float16", "float32", "float64", "complex64", "complex128"))
    return wrap(torch.sgn(t))


@op(method=True)
def round(x, decimals=0, name=None):
    """Round half to even, to ``decimals`` places after the point; integers unchanged."""
    t = _x(x, "round")
    if not t.is_floating_point():
        return wrap(t.clone())
    return wrap(torch.round(t, decimals=decimals) if decimals else torch.round(t))


@op(name="round_", method=True, export=False)
def round_(x, decimals=0, name=None):
    """In-place round (to ``decimals`` places): modifies and returns x; integers unchanged."""
    t = _writable(x, "round_")
    if t.is_floating_point():
        t.round_(decimals=decimals)
    return x


@op(method=True)
def signbit(x, name=None):
    return wrap(torch.signbit(_tensor_only(x, "signbit")))


@op(method=True)
def isreal(x, name=None):
    t = _tensor_only(x, "isreal")
    return wrap(torch.isreal(t) if t.is_complex() else torch.ones_like(t, dtype=torch.bool))


@op(method=True)
def isposinf(x, name=None):
    return wrap(torch.isposinf(_tensor_only(x, "isposinf")))


@op(method=True)
def isneginf(x, name=None):
    return wrap(torch.isneginf(_tensor_only(x, "isneginf")))


@op(method=True)
def deg2rad(x, name=None):
    t = _pyx(x)
    return wrap(torch.deg2rad(_float_of(t)) if t.dtype is not torch.bool else t.clone())


@op(method=True)
def rad2deg(x, name=None):
    t = _pyx(x)
    return wrap(torch.rad2deg(_float_of(t)) if t.dtype is not torch.bool else t.clone())


@op(method=True)
def stanh(x, scale_a=0.67, scale_b=1.7159, name=None):
    """scale_b * tanh(scale_a * x) (Paddle's float attributes: float64 x sees them rounded to
    float32)."""
    t = _x(x, "stanh")
    if t.dtype is F64:
        scale_a, scale_b = float_attr(scale_a), float_attr(scale_b)
    return wrap(torch.tanh(t * scale_a) * scale_b)


@op(method=True)
def logit(x, eps=None, name=None):
    """log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps is given."""
    return wrap(torch.logit(_x(x, "logit"), eps))


@op(name="logit_", method=True)
def logit_(x, eps=None, name=None):
    """In-place logit: modifies and returns x."""
    _writable(x, "logit_").logit_(eps)
    return x


@op(method=True)
def nan_to_num(x, nan=0.0, posinf=None, neginf=None, name=None):
    """NaN -> ``nan``, +-inf -> ``posinf``/``neginf`` (the dtype's extremes by default)."""
    t = _pyx(x)
    if t.dtype not in (torch.float32, torch.float64):
        raise AssertionError()
    return wrap(torch.nan_to_num(t, nan, posinf, neginf))


@op(name="nan_to_num_", method=True)
def nan_to_num_(x, nan=0.0, posinf=None, neginf=None, name=None):
    """In-place nan_to_num: modifies and returns x."""
    _writable(x, "nan_to_num_").nan_to_num_(nan, posinf, neginf)
    return x


@op
def positive(x, name=None):
    """x itself (Paddle returns its input); a bool tensor is a TypeError."""
    if _pyx(x).dtype is torch.bool:
        raise TypeError("The `+` operator, on a bool tensor is not supported.")
    return x


@op(method=True)
def negative(x, name=None):
    """-x; a bool tensor is a TypeError."""
    t = _pyx(x)
    if t.dtype is torch.bool:
        raise TypeError("The `-` operator, on a bool tensor is not supported.")
    return wrap(torch.neg(t))


def _expect_tensor(x):
    if not isinstance(x, Tensor):
        raise TypeError(f"Expected Tensor, but received type of x: {type(x)}")
    return x._t


@op
def is_complex(x):
    """Whether x holds complex numbers (a Python bool)."""
    return _expect_tensor(x).is_complex()


@op
def is_floating_point(x):
    return _expect_tensor(x).is_floating_point()


@op
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


def _same_dtype(api, a, b):
    """Paddle's kernels that take one dtype for both inputs reject a mix with ValueError."""
    if a.dtype is not b.dtype:
        raise ValueError("(InvalidArgument) The type of data we are trying to retrieve "
                         f"({_name(a)}) does not match the type of data ({_name(b)}) currently "
                         "contained in the container.")


def _binary(fn, api, promote):
    """``api(x, y)`` on two Tensors; differing dtypes go through Paddle's promotion."""
    def f(x, y, name=None):
        try:
            a = x._t
            b = y._t
        except AttributeError:
            raise _not_tensors(api, x, y) from None
        if a.dtype is not b.dtype:
            a, b = binary_operands(promote, a, b)
        try:
            return wrap(fn(a, b))
        except RuntimeError:
            _broadcast_shape(a, b)
            raise
    f.__name__ = api
    f.__doc__ = f"Elementwise {api} of two Tensors (torch.{fn.__name__})."
    return _TORCH_KEYWORDS.get(api, lambda g: g)(f)


def _scaled(f):
    """``add``/``subtract`` with Paddle 3's ``alpha``: ``x + alpha * y`` (y scaled first, as
    Paddle computes it)."""
    def g(x, y, name=None, *, alpha=1):
        if alpha != 1:
            y = wrap(_x(y, f.__name__, "y", 1) * alpha)
        return f(x, y)
    g.__name__ = f.__name__
    g.__doc__ = f.__doc__ + " ``alpha`` scales y first."
    return g


def _promoted(fn, api, promote, x, y, **kw):
    """``fn(a, b, **kw)`` of x's and y's tensors after Paddle's promotion for ``promote``, with
    Paddle's ValueError where their shapes do not broadcast."""
    a = _x(x, api)
    b = _x(y, api, "y", 1)
    if a.dtype is not b.dtype:
        a, b = binary_operands(promote, a, b)
    try:
        return fn(a, b, **kw)
    except RuntimeError:
        _broadcast_shape(a, b)
        raise


def _rounded_div(x, y, rounding_mode):
    """``x / y`` rounded toward zero ('trunc') or down ('floor'), in the promoted dtype (so
    integers stay integers)."""
    if rounding_mode not in ("trunc", "floor"):
        raise ValueError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                         f"found {rounding_mode}.")
    return wrap(_promoted(torch.div, "divide", "div", x, y, rounding_mode=rounding_mode))


def _rounding(f):
    """``divide`` with Paddle 3's ``rounding_mode`` ('trunc' or 'floor')."""
    def g(x, y, name=None, *, rounding_mode=None):
        return f(x, y) if rounding_mode is None else _rounded_div(x, y, rounding_mode)
    g.__name__ = f.__name__
    g.__doc__ = f.__doc__ + " ``rounding_mode`` 'trunc'/'floor' rounds the quotient."
    return g


#: the keywords Paddle 3 added to some of these ops
_TORCH_KEYWORDS = {"add": _scaled, "subtract": _scaled, "divide": _rounding}


def _binary_(fn_, api, promote):
    """In-place ``x.api_(y)``: the result keeps x's shape and dtype (but divide_ of an integer
    x makes it float32, as Paddle does)."""
    int_to_float = api == "divide_"

    def f(x, y, name=None):
        a = _x(x, api)
        b = _x(y, api[:-1], "y", 1)
        _check_inplace_shape(a, b)
        if a.dtype is not b.dtype:
            binary_operands(promote, a, b)
        if int_to_float and not (a.is_floating_point() or a.is_complex()):
            # Paddle divides integers in float32 and x takes the result (and its dtype)
            _writable(x, api)
            x._t = divide(x, y)._t
            return x
        if not isinstance(a, torch.Tensor):  # a static Variable: as Paddle's programs, a new
            return wrap(getattr(a, fn_.__name__[:-1])(b))   # Variable; x fetches as it was
        if api == "floor_divide_":           # not differentiable: Paddle allows it on any leaf
            with torch.no_grad():
                fn_(a, b)
            return x
        _writable(x, api)
        fn_(a, b)
        return x
    f.__name__ = api
    f.__doc__ = f"In-place {api[:-1]}: modifies and returns x."
    return _TORCH_KEYWORDS_.get(api, lambda g: g)(f)


def _rounding_(f):
    def g(x, y, name=None, *, rounding_mode=None):
        if rounding_mode is None:
            return f(x, y)
        r = _rounded_div(x, y, rounding_mode)._t
        _check_inplace_shape(x._t, r)
        _writable(x, "divide_").copy_(r)
        return x
    g.__name__ = f.__name__
    g.__doc__ = f.__doc__ + " ``rounding_mode`` 'trunc'/'floor' rounds the quotient."
    return g


_TORCH_KEYWORDS_ = {"add_": _scaled, "subtract_": _scaled, "divide_": _rounding_}


def _binary_inplace_op(api, fn_, promote, export=True):
    """Register ``api_``: x changed in place by the torch method ``fn_`` (``torch.Tensor.add_``)
    after the checks of Paddle's promotion ``promote``; a Tensor method, and a function unless
    ``export`` is False."""
    return op(_binary_(fn_, api + "_", promote), export=export, method=True)


def _binary_op(api, fn, promote, fn_=None, export_=True):
    """Register ``api``: ``wrap(fn(a, b))`` as a function, Tensor method and FastOp, with
    Paddle's promotion ``promote`` for mixed dtypes; and, given the torch method ``fn_``, its
    in-place form (``_binary_inplace_op(api, fn_, promote, export_)``)."""
    f = op(_binary(fn, api, promote), method=True, fast=("xy", fn))
    if fn_ is not None:
        _binary_inplace_op(api, fn_, promote, export_)
    return f


_binary_op("add", torch.add, "add", torch.Tensor.add_, export_=False)   # no paddle.add_
_binary_op("subtract", torch.sub, "sub", torch.Tensor.sub_)
_binary_op("multiply", torch.mul, "mul", torch.Tensor.mul_)
divide = _binary_op("divide", torch.true_divide, "div", torch.Tensor.div_)
_binary_op("maximum", torch.maximum, "maximum")
_binary_op("minimum", torch.minimum, "minimum")
_binary_op("fmax", torch.fmax, "maximum")
_binary_op("fmin", torch.fmin, "minimum")


def _scalar_or_tensor(fn, api, promote, int_scalar):
    """``api(x, y)`` where y may also be a Python number; ``int_scalar`` says whether a float
    number meeting an integer tensor is truncated to int (Paddle casts it to x's dtype)."""
    def f(x, y, name=None):
        a = _x(x, api)
        if isinstance(y, Tensor):
            b = y._t
            if a.dtype is not b.dtype:
                a, b = binary_operands(promote, a, b)
            return wrap(fn(a, b))
        if isinstance(y, float) and not a.is_floating_point():
            # remainder casts y to x's dtype; floor_divide computes in float32
            return wrap(fn(a, int(y)) if int_scalar else fn(a.to(torch.float32), y))
        return wrap(fn(a, y))
    f.__name__ = api
    return f


op(_scalar_or_tensor(torch.floor_divide, "floor_divide", "floordiv", False), method=True)
_binary_inplace_op("floor_divide", torch.Tensor.floor_divide_, "floordiv")
remainder = op(_scalar_or_tensor(torch.remainder, "remainder", "mod", True), method=True)
remainder_ = _binary_inplace_op("remainder", torch.Tensor.remainder_, "mod")
op(remainder, name="mod", method=True)
op(remainder, name="floor_mod", method=True)
op(remainder_, name="mod_", method=True)
op(remainder_, name="floor_mod_", method=True)


@op(method=True, fast=("x_num real f32", torch.pow))
def pow(x, y, name=None):
    """x ** y for a Tensor or number y; an integer tensor keeps its dtype with a number y.
    A number y is Paddle's float attribute ``factor``: float64 x sees it rounded to float32."""
    if type(y) is float or type(y) is int:                  # the hot path
        try:
            a = x._t
        except AttributeError:
            raise not_tensor("pow", "x", 0, x) from None
        d = a.dtype
        if d is F64:
            return wrap(torch.pow(a, float_attr(y)))
        if d in _FLOATS:
            return wrap(torch.pow(a, y))
        check_variable_and_dtype(x, "x", ["int32", "int64", "float16", "uint16", "float32",
                                          "float64", "complex64", "complex128"], "pow")
        return wrap(torch.pow(a, int(y)))
    if not isinstance(y, (Tensor, int, float)):
        raise TypeError("y must be scalar, Tensor(in dygraph mode), Value(in pir mode) but "
                        f"received: {type(y)}")
    a = _x(x, "pow")
    if isinstance(y, Tensor):
        b = y._t
        if a.dtype is not b.dtype:
            a, b = binary_operands("pow", a, b)
        try:
            return wrap(torch.pow(a, b))
        except RuntimeError as e:       # shapes that do not broadcast: Paddle's ValueError
            if "must match the size" not in str(e) and "broadcast" not in str(e):
                raise
            raise ValueError(f"(InvalidArgument) pow: {e}") from None
    if a.dtype is F64:
        y = float_attr(y)
    return wrap(torch.pow(a, y if a.is_floating_point() else int(y)))


@op(method=True)
def pow_(x, y, name=None):
    """In-place x ** y for a number y (Paddle refuses a Tensor y here)."""
    if not isinstance(y, (int, float)):
        raise TypeError(f"y must be scalar type, but received: {type(y)} ")
    t = _writable(x, "pow_")
    t.pow_(float_attr(y) if t.dtype is F64 else y)
    return x


@op(method=True)
def atan2(x, y, name=None):
    """Elementwise atan2(x, y); integers compute in float64 as in Paddle."""
    a, b = x._t, y._t
    if a.dtype is not b.dtype:
        a, b = binary_operands("atan2", a, b)
    if not a.is_floating_point():
        a, b = a.to(torch.float64), b.to(torch.float64)
    return wrap(torch.atan2(a, b))


@op(method=True)
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


_copysign_by_tensor = _binary_(torch.Tensor.copysign_, "copysign_", "mul")


@op(name="copysign_", method=True)
def copysign_(x, y, name=None):
    """In-place copysign: modifies and returns x; ``y`` a Tensor or a Python number (whose
    sign, -0.0's included, is taken; x keeps its dtype)."""
    if not isinstance(y, (bool, int, float)):
        return _copysign_by_tensor(x, y)
    t = _writable(x, "copysign_")
    if t.is_floating_point():
        t.copysign_(float(y))
    else:
        t.copy_(copysign(x, float(y))._t)
    return x


@op(method=True)
def heaviside(x, y, name=None):
    """0 where x < 0, y where x == 0, 1 where x > 0."""
    a = _x(x, "heaviside")
    b = _x(y, "heaviside", "y", 1)
    _same_dtype("heaviside", a, b)
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        # a static Variable: a form with torch gradients (y's where x == 0; x's a zero
        # tensor through an added 0 * x, whose inf and nan become 0)
        out = torch.where(a == 0, b, (a > 0).to(a.dtype))
        return wrap(out + torch.nan_to_num(a * 0, 0.0, 0.0, 0.0))
    if not (a.requires_grad or b.requires_grad):
        return wrap(torch.heaviside(a, b))
    # torch.heaviside has no gradient: Paddle's is zero for x (a zero tensor, not none) and
    # passes y's where x == 0
    return wrap(_Heaviside.apply(a, b))


class _Heaviside(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return torch.heaviside(a, b)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        gy = torch.where(a == 0, g, torch.zeros((), dtype=g.dtype, device=g.device))
        return torch.zeros_like(a), gy.sum_to_size(b.shape)


@op(method=True)
def hypot(x, y, name=None):
    """sqrt(x**2 + y**2); integers compute in float32."""
    a = _tensor_only(x, "hypot")
    b = _tensor_only(y, "hypot", "y")
    if a.dtype is not b.dtype:
        a, b = binary_operands("add", a, b)
    return wrap(torch.hypot(_float_of(a), _float_of(b)))


_binary_inplace_op("hypot", torch.Tensor.hypot_, "add")


@op(method=True)
def logaddexp(x, y, name=None):
    """log(exp(x) + exp(y)); integers compute in float32."""
    a = _x(x, "maximum")
    b = _x(y, "maximum", "y", 1)
    if a.dtype is not b.dtype:
        a, b = binary_operands("add", a, b)
    return wrap(torch.logaddexp(_float_of(a), _float_of(b)))


@op(method=True)
def gcd(x, y, name=None):
    a, b = x._t, y._t
    if a.dtype is not b.dtype:
        a, b = binary_operands("add", a, b)
    if a.shape != b.shape:
        _broadcast_shape(a, b)
    return wrap(torch.gcd(a, b))


_binary_inplace_op("gcd", torch.Tensor.gcd_, "add")


@op(method=True)
def lcm(x, y, name=None):
    a, b = x._t, y._t
    if a.dtype is not b.dtype:
        a, b = binary_operands("add", a, b)
    return wrap(torch.lcm(a, b))


_binary_inplace_op("lcm", torch.Tensor.lcm_, "add")


@op(method=True)
def lerp(x, y, weight, name=None):
    """x + weight * (y - x); weight is a float or a Tensor, all of one dtype."""
    a = _x(x, "lerp")
    b = _x(y, "lerp", "y", 1)
    _same_dtype("lerp", a, b)
    if a.shape != b.shape:
        _broadcast_shape(a, b)                          # Paddle's ValueError
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


@op(method=True, export=False)
def lerp_(x, y, weight, name=None):
    a = _writable(x, "lerp_")
    b = _x(y, "lerp", "y", 1)
    w = weight._t if isinstance(weight, Tensor) else weight
    _check_inplace_shape(a, b)                  # Paddle's check: the result must fit x
    if isinstance(w, torch.Tensor):
        _check_inplace_shape(a, w)
    a.lerp_(b, w)
    return x
