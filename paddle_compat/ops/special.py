"""Special functions: the modified Bessel functions ``i0e``, ``i1``, ``i1e``; ``sinc``;
``polygamma``; ``multigammaln``; the regularized incomplete gamma functions ``gammainc`` and
``gammaincc``; and the float decompositions ``ldexp``, ``frexp``, ``nextafter``; with their
in-place forms.

(``digamma``, ``lgamma``, ``erf``, ``erfinv`` and ``i0``, which torch has as plain elementwise
functions, are in ``math``.) Integer inputs compute in float32, as Paddle's autocast does; the
formulas follow Paddle's kernels where they differ from torch (``sinc`` at NaN, ``gammaincc``
at 0, ``frexp`` of inf).
"""
import math

import torch

from ..framework import dtype as _dt
from ..framework.promotion import binary_operands
from ..framework.tensor import wrap
from .common import not_tensor
from .math import _name, _not_tensors, _pyx, _tensor_only, _typecheck, _writable, _x
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


def _special(fn, api):
    """Elementwise ``fn``; integers compute in float32 (Paddle's autocast)."""
    def f(x, name=None):
        try:
            t = x._t
        except AttributeError:
            raise not_tensor(api, "x", 0, x) from None
        return wrap(fn(t if t.is_floating_point() else t.to(torch.float32)))
    f.__name__ = api
    f.__doc__ = f"Elementwise {api} (torch.special.{fn.__name__})."
    return f


op(_special(torch.special.i0e, "i0e"), method=True)
op(_special(torch.special.i1, "i1"), method=True)
op(_special(torch.special.i1e, "i1e"), method=True)


def _sinc(t):
    # Paddle's formula: sin(pi x) / (pi x) with 0 replaced by 1e-20, and 1 wherever that is
    # NaN (so NaN and +-inf inputs give 1)
    u = torch.where(t != 0, t, torch.full_like(t, 1.0e-20)) * math.pi
    r = torch.sin(u) / u
    return torch.where(torch.isnan(r), torch.ones_like(r), r)


@op(method=True)
def sinc(x, name=None):
    """sin(pi x) / (pi x), 1 at 0 (and, as in Paddle, at NaN and +-inf)."""
    t = _tensor_only(x, "sinc")
    _typecheck(t, "sinc", ("float16", "bfloat16", "float32", "float64"))
    return wrap(_sinc(t))


@op(method=True)
def sinc_(x, name=None):
    t = _tensor_only(x, "sinc_")
    _typecheck(t, "sinc_", ("float16", "bfloat16", "float32", "float64"))
    _writable(x, "sinc_").copy_(_sinc(t.clone()))
    return x


def _polygamma_n(n):
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"The input of n must be int type, but received: {type(n)} ")
    if n < 0:
        raise ValueError(f"The input of n must be greater than or equal to 0. But received n = {n}")


@op(method=True)
def polygamma(x, n, name=None):
    """The n-th derivative of digamma (n = 0 is digamma); integers compute in float32."""
    _polygamma_n(n)
    t = _x(x, "polygamma")
    return wrap(torch.polygamma(n, t if t.is_floating_point() else t.to(torch.float32)))


@op(method=True)
def polygamma_(x, n, name=None):
    _polygamma_n(n)
    t = _writable(x, "polygamma_")
    t.copy_(torch.polygamma(n, t.clone()))
    return x


@op(method=True)
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


@op(method=True)
def multigammaln_(x, p, name=None):
    if p < 1:
        raise AssertionError(f"The p must be greater than or equal to 1, But received p is {p}.\n")
    t = _writable(x, "multigammaln_")
    t.copy_(_multigammaln(t.clone(), p))
    return x


@op(method=True)
def ldexp(x, y, name=None):
    """x * 2**y, computed in float64 when x or y is float64, else in the default float dtype
    (int and float16 x included), as Paddle casts both first."""
    a = _tensor_only(x, "ldexp")
    b = _tensor_only(y, "ldexp", "y")
    dtype = _ldexp_dtype(a, b)
    return wrap(a.to(dtype) * torch.pow(2.0, b.to(dtype)))


def _ldexp_dtype(a, b):
    return torch.float64 if torch.float64 in (a.dtype, b.dtype) else _dt.default_float().torch


@op(method=True)
def ldexp_(x, y, name=None):
    """x = x * 2**y in place, x first cast in place (as Paddle's ``cast_``) to float64 when x
    or y is float64, else to the default float dtype (an int64 x becomes float32)."""
    _tensor_only(x, "ldexp_")
    b = _tensor_only(y, "ldexp_", "y")
    a = _writable(x, "ldexp_")
    dtype = _ldexp_dtype(a, b)
    if a.dtype != dtype:
        x._t = a = a.to(dtype)
    a.mul_(torch.pow(2.0, b.to(dtype)))
    return x


@op(method=True)
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


@op(method=True)
def gammaincc(x, y, name=None):
    """The regularized upper incomplete gamma function Q(x, y) (differentiable in y)."""
    return wrap(_gammaincc(*_gamma_args(x, y, "gammaincc")))


@op(method=True)
def gammainc(x, y, name=None):
    """The regularized lower incomplete gamma function P(x, y) = 1 - Q(x, y), as Paddle
    computes it."""
    return wrap(1 - _gammaincc(*_gamma_args(x, y, "gammainc")))


@op(method=True)
def gammainc_(x, y, name=None):
    a, b = _gamma_args(x, y, "gammainc")
    _writable(x, "gammainc_").copy_(1 - _gammaincc(a.clone(), b))
    return x


@op(method=True)
def gammaincc_(x, y, name=None):
    a, b = _gamma_args(x, y, "gammaincc")
    _writable(x, "gammaincc_").copy_(_gammaincc(a.clone(), b))
    return x


@op(method=True)
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
