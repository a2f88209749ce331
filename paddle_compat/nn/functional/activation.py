"""Activation functions of ``paddle.nn.functional``: relu family, sigmoid family, gelu/silu,
shrink functions, softmax/log_softmax, prelu, glu and their in-place ``*_`` forms.

``rrelu`` (training) and ``gumbel_softmax`` draw their noise from the shared CPU engine of
``paddle_compat.random`` as Paddle's CPU kernels do (one ``uniform_real_distribution`` draw per
negative element / per element), so they match Paddle bit for bit under the same ``paddle.seed``.

Most are one torch call. Where Paddle's definition differs from torch's (hardsigmoid's slope,
selu's free constants, prelu's channel-last layout) the function says so.
"""
import math
import warnings

import numpy as np
import torch

from ...framework import dtype as _dt
from ...framework import mode as _mode
from ...framework.data_feeder import check_variable_and_dtype
from ...framework.tensor import wrap
from ...ops.common import F64, float_attr, not_tensor
from ...ops.registry import OpSet
from ...random import default_generator as _engine
from ...random.distributions import _uniform_values

op = OpSet(__name__)
__all__ = op.names

_nn = torch._C._nn


def _unary(fn, api):
    """``api(x, name=None)`` computing ``fn(x._t)``, registered with its C fast path."""
    def unary(x, name=None):
        try:
            t = x._t
        except AttributeError:
            raise not_tensor(api, "x", 0, x) from None
        return wrap(fn(t))
    unary.__name__ = unary.__qualname__ = api
    return op(unary, fast=("x", fn))


def inplace_target(x, api):
    """The torch tensor of ``x`` for an in-place op; Paddle's ValueError on a leaf that needs
    its gradient."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor(api, "x", 0, x) from None
    if t.requires_grad and t.is_leaf:
        raise ValueError(f"(InvalidArgument) Leaf Tensor ({x.name}) that doesn't stop gradient "
                         "can't use inplace strategy.")
    return t


relu = _unary(torch.relu, "relu")
sigmoid = _unary(torch.sigmoid, "sigmoid")
tanh = _unary(torch.tanh, "tanh")
@op(fast=("x", _nn.silu))
def silu(x, inplace=False, name=None):
    """x * sigmoid(x); ``inplace=True`` writes the result into x and returns it."""
    if inplace:
        _nn.silu_(inplace_target(x, "silu"))
        return x
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("silu", "x", 0, x) from None
    return wrap(_nn.silu(t))


swish = _unary(_nn.silu, "swish")
log_sigmoid = _unary(_nn.log_sigmoid, "log_sigmoid")
op(log_sigmoid, name="logsigmoid")     # torch's spelling; the same function in Paddle 3.3.1


class _HardSwish(torch.autograd.Function):
    """torch's hardswish; the backward tests Paddle's ``x + 3 < 6`` in the input's precision
    (torch tests ``x < 3``): at the largest x below 3, where x + 3 rounds to 6, Paddle's
    gradient is already 1."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _nn.hardswish(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return torch.where(x + 3.0 < 6.0, torch.ops.aten.hardswish_backward(grad, x), grad)


def _hardswish(t):
    if isinstance(t, torch.Tensor):
        return _HardSwish.apply(t) if t.requires_grad else _nn.hardswish(t)
    # a static graph's proxy: torch's hardswish node, which jit.save / save_inference_model
    # write as Paddle's hardswish op (a composed form with the kink's gradient would not be
    # writable); its gradient differs from Paddle's only at the one float below 3
    return _nn.hardswish(t)


_hardswish.__name__ = "hardswish"
hardswish = _unary(_hardswish, "hardswish")
mish = _unary(_nn.mish, "mish")


@op
def relu6(x, name=None):
    # hardtanh, not clamp: Paddle's gradient is 0 at exactly 0 and 6, as hardtanh's is
    try:
        return wrap(_nn.hardtanh(x._t, 0.0, 6.0))
    except AttributeError:
        raise not_tensor("relu6", "x", 0, x) from None


@op
def softsign(x, name=None):
    t = x._t
    return wrap(t / (t.abs() + 1))


@op
def tanhshrink(x, name=None):
    t = x._t
    return wrap(t - torch.tanh(t))


@op
def leaky_relu(x, negative_slope=0.01, name=None):
    # Paddle's gradient is 1 at x == 0 (torch's kernel gives the slope there): torch's values,
    # with the kink's gradient on the identity side
    t = x._t
    if t.requires_grad:
        if isinstance(t, torch.Tensor):
            return wrap(_LeakyReLU.apply(t, negative_slope))
        return wrap(torch.where(t >= 0, t, t * negative_slope))     # static graphs
    return wrap(_nn.leaky_relu(t, negative_slope))


class _LeakyReLU(torch.autograd.Function):
    """torch's leaky_relu forward; backward with Paddle's rule (slope only where x < 0)."""

    @staticmethod
    def forward(ctx, x, slope):
        ctx.save_for_backward(x)
        ctx.slope = slope
        return _nn.leaky_relu(x, slope)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        if x.dtype is torch.float16:
            return torch.where(x < 0, grad * ctx.slope, grad), None
        # torch's backward takes the slope where its input is <= 0; heaviside(x, 1) is 1
        # exactly where Paddle's side is the identity (x >= 0, -0.0 included; negative
        # subnormals keep the slope) and 0 elsewhere: one pass, cheaper than a where
        side = torch.heaviside(x, x.new_ones(()))
        return torch.ops.aten.leaky_relu_backward(grad, side, ctx.slope, False), None


@op
def elu(x, alpha=1.0, name=None):
    # Paddle's elu/celu/hardsigmoid/hardtanh/softshrink/thresholded_relu kernels take their
    # attributes as C++ float: a float64 x sees them rounded to float32 (ops.common.float_attr)
    t = x._t
    return wrap(_nn.elu(t, float_attr(alpha) if t.dtype is F64 else alpha))


@op
def celu(x, alpha=1.0, name=None):
    if alpha == 0:
        raise ZeroDivisionError("alpha cannot be 0 for celu")
    t = x._t
    return wrap(torch.celu(t, float_attr(alpha) if t.dtype is F64 else alpha))


@op
def selu(x, scale=1.0507009873554804934193349852946,
         alpha=1.6732632423543772848170429916717, name=None):
    """scale * elu(x, alpha) with Paddle's checks (any scale > 1, alpha >= 0)."""
    if not _mode.in_dynamic_mode():
        check_variable_and_dtype(x, "x", ["float16", "float32", "float64"], "selu")
    if scale <= 1.0:
        raise ValueError(f"The scale must be greater than 1.0. Received: {scale}.")
    if alpha < 0:
        raise ValueError(f"The alpha must be no less than zero. Received: {alpha}.")
    # Paddle holds the constants as float attributes; its float64 gradient for x <= 0 uses
    # scale * alpha multiplied in float (the forward multiplies in x's dtype)
    t = x._t
    a32, s32 = float(np.float32(alpha)), float(np.float32(scale))
    if t.dtype is F64 and t.requires_grad:
        sa = float(np.float32(s32) * np.float32(a32))
        fwd = _nn.elu(t.detach(), a32, s32, 1.0)
        # the value is elu's; the surrogate (zero in value) carries Paddle's gradient:
        # s32 for x > 0, out + sa for x <= 0
        slope = torch.where(t.detach() > 0, s32, fwd + sa)
        surrogate = t * slope
        return wrap(fwd + (surrogate - surrogate.detach()))
    return wrap(_nn.elu(t, a32, s32, 1.0))


# Paddle's float32 tanh-form gelu evaluates tanh with Eigen's fast rational approximation (the
# input clamped to +-7.90531110763549805, identity below 4e-4, an odd degree-13 numerator over
# an even degree-6 denominator, Horner steps as separate float multiply and add). It differs
# from an accurate tanh by a few ulp, which 1 + tanh(u) turns into percent-level differences
# in the negative tail (gelu(-5) is -0.0 in Paddle) and in the derivative's 1 - tanh^2 on both
# sides. The approximation is reproduced below on the tails only (|x| > 1.5, where the
# cancellation shows); elsewhere torch's kernel agrees to an ulp of the result.
_F32 = torch.float32
_TANH_NUM = [float(np.float32(v)) for v in (
    -2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11, 5.12229709037114e-08,
    1.48572235717979e-05, 6.37261928875436e-04, 4.89352455891786e-03)]
_TANH_DEN = [float(np.float32(v)) for v in (
    1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03)]
_TANH_CLAMP = float(np.float32(7.90531110763549805))
_GELU_K = float(np.float32(math.sqrt(2.0 / math.pi)))
_GELU_C = float(np.float32(0.044715))
_GELU_TAIL = 1.5


_f32 = np.float32


def _horner(x2, coefs):
    acc = x2 * _f32(coefs[0]) + _f32(coefs[1])
    for c in coefs[2:]:
        acc = acc * x2 + _f32(c)
    return acc


def _fast_tanh_f32(u):
    """Eigen's float32 fast tanh of the float32 array ``u``, op for op (see above)."""
    uc = np.clip(u, _f32(-_TANH_CLAMP), _f32(_TANH_CLAMP))
    x2 = uc * uc
    return np.where(np.abs(u) < _f32(0.0004), u, (_horner(x2, _TANH_NUM) * uc) /
                    _horner(x2, _TANH_DEN))


def _gelu_tanh_paddle_f32(xs):
    """Paddle's float32 tanh-gelu value and derivative at the float32 array ``xs`` (numpy:
    each step one correctly rounded float32 operation, like the torch ops, at a fraction of
    their per-call cost on the few tail elements)."""
    half, one = _f32(0.5), _f32(1.0)
    t = _fast_tanh_f32(((xs * xs * xs) * _f32(_GELU_C) + xs) * _f32(_GELU_K))
    value = (xs * half) * (one + t)
    slope = _f32(_GELU_K) + _f32(_GELU_K * _GELU_C * 3) * (xs * xs)
    slope = (xs * half) * ((one - t * t) * slope) + half * (one + t)
    return value, slope


class _GeluTanhF32(torch.autograd.Function):
    """float32 tanh-gelu: torch's kernel, with Paddle's values and derivatives on the tail."""

    @staticmethod
    def forward(ctx, x):
        out = torch._C._nn.gelu(x, approximate="tanh")
        tail = x.abs() > _GELU_TAIL
        xs = x[tail].numpy()
        value, slope = _gelu_tanh_paddle_f32(xs)
        out.masked_scatter_(tail, torch.from_numpy(value))
        ctx.save_for_backward(x, tail)
        ctx.slope = torch.from_numpy(slope)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, tail = ctx.saved_tensors
        gx = torch.ops.aten.gelu_backward(grad, x, approximate="tanh")
        return gx.masked_scatter_(tail, grad[tail] * ctx.slope)


def _gelu_tanh(t):
    if isinstance(t, torch.Tensor) and t.dtype is _F32 and t.device.type == "cpu":
        return _GeluTanhF32.apply(t)
    return torch._C._nn.gelu(t, approximate="tanh")  # other dtypes, devices, static graphs


# The erf form x / 2 * (1 + erf(x / sqrt 2)) loses its negative tail to cancellation: 1 + erf
# keeps only the last bits of erf near -1, and those differ from kernel to kernel (Paddle's MKL
# vsErf, torch's AVX2 and AVX-512 kernels: gelu(-4) is -1.26719e-4, -1.26685e-4 or -1.26481e-4
# by CPU; the exact value is -1.2668497e-4). We keep torch's fused kernel: every one of these is
# within its erf's absolute error (~1e-7) times |x| / 2 of the exact value, which is what the
# tests hold on any CPU. The cancellation-free x / 2 * erfc(-x / sqrt 2) was measured at 17x
# torch's forward on 1M elements (ATen's float32 erfc is not vectorised), and a tail-only fix at
# 10x (nonzero + index_put): not worth a transformer's feed-forward.
_gelu_erf = _nn.gelu


@op
def gelu(x, approximate=False, name=None):
    """``approximate`` is a bool or 'tanh'/'none'."""
    if approximate is True or approximate == "tanh":
        return wrap(_gelu_tanh(x._t))
    if not (approximate is False or approximate == "none"):
        raise ValueError("(InvalidArgument) the value of approximate in gelu should be 'tanh' "
                         f"or 'none', but received {approximate}")
    return wrap(_gelu_erf(x._t))


@op
def hardsigmoid(x, slope=0.1666667, offset=0.5, name=None):
    """clip(slope * x + offset, 0, 1); Paddle's default slope is 0.1666667, not torch's 1/6."""
    t = x._t
    if t.dtype is F64:
        slope, offset = float_attr(slope), float_attr(offset)
    return wrap(_nn.hardtanh(t * slope + offset, 0.0, 1.0))


@op
def hardtanh(x, min=-1.0, max=1.0, name=None):
    t = x._t
    if t.dtype is F64:
        min, max = float_attr(min), float_attr(max)
    return wrap(_nn.hardtanh(t, min, max))


@op
def hardshrink(x, threshold=0.5, name=None):
    """x where |x| >= threshold (Paddle keeps the boundary values, torch zeroes them), else 0."""
    t = x._t
    if t.dtype is F64:
        threshold = float_attr(threshold)
    return wrap(torch.where(t.abs() >= threshold, t, 0.0))


@op
def softshrink(x, threshold=0.5, name=None):
    if threshold < 0:
        raise ValueError(f"The threshold must be no less than zero. Received: {threshold}.")
    t = x._t
    return wrap(torch._C._nn.softshrink(t, float_attr(threshold) if t.dtype is F64 else threshold))


@op
def softplus(x, beta=1, threshold=20, name=None):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold."""
    return wrap(_nn.softplus(x._t, beta, threshold))


@op
def thresholded_relu(x, threshold=1.0, value=0.0, name=None):
    """x where x > threshold, else ``value``."""
    t = x._t
    if t.dtype is F64:
        threshold, value = float_attr(threshold), float_attr(value)
    return wrap(torch.threshold(t, threshold, value))


@op
def prelu(x, weight, data_format="NCHW", name=None):
    """max(0, x) + weight * min(0, x); a weight of more than one element is per channel, the
    channel being axis 1 (``N C ...`` formats) or the last axis (``N ... C`` formats)."""
    t, w = x._t, weight._t
    if w.dim() > 1:
        raise AssertionError("The dim count of weight shape should be 0 or 1 in prelu().")
    if w.numel() > 1:
        if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError("data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', "
                             f"'NLC', 'NHWC', 'NDHWC' but receive {data_format}")
        if t.dim() < 2:
            raise AssertionError("The dim count of x should be equal or larger than 2 in prelu() "
                                 "when weight shape is not [1].")
        channel_last = data_format[1] != "C"
        if w.shape[0] != t.shape[-1 if channel_last else 1]:
            raise AssertionError("The weight size should be equal to x input channel in prelu() "
                                 "when weight shape is not [1].")
        if channel_last:
            return wrap(torch.where(t > 0, t, t * w))
        return wrap(torch.prelu(t, w))
    return wrap(torch.where(t > 0, t, t * w.reshape(())))


@op
def glu(x, axis=-1, name=None):
    """a * sigmoid(b) with a, b the two halves of x along ``axis``."""
    if not _mode.in_dynamic_mode():
        check_variable_and_dtype(x, "input", ["float16", "float32", "float64"], "glu")
    t = x._t
    rank = t.dim()
    if not -rank <= axis < rank:
        raise ValueError(f"Expected value range of `axis` is [{-rank}, {rank}), but received "
                         f"axis: {axis}")
    if t.shape[axis] % 2:
        raise ValueError(f"The input's size along the split dimension must be evenly divisible "
                         f"by Attr(num_or_sections). But received Attr(num_or_sections) = 2, "
                         f"input(X)'s shape = {list(t.shape)}, Attr(dim) = {axis}.")
    return wrap(_nn.glu(t, axis))


@op
def swiglu(x, y=None, name=None):
    """silu(x) * y; without ``y`` the two halves of x's last axis."""
    if y is None:
        a, b = torch.chunk(x._t, 2, dim=-1)
        return wrap(_nn.silu(a) * b)
    return wrap(_nn.silu(x._t) * y._t)


def _axis_error(t, axis):
    r = t.dim()
    return ValueError(f"(InvalidArgument) Attr(axis) value should be in range [-R, R-1], R is the "
                      f"rank of Input(X). But received: {axis}, R: {r}.")


@op(fast=("x x_int", torch.softmax, (-1,)))
def softmax(x, axis=-1, dtype=None, name=None):
    """Softmax along ``axis``, computed in ``dtype`` when given (x is cast first)."""
    try:
        t = x._t if dtype is None else x._t.to(_dt.convert_dtype(dtype).torch)
        if t.dtype not in _SOFTMAX_DTYPES:
            raise _softmax_dtype_error(t)
        return wrap(torch.softmax(t, axis))
    except AttributeError:
        raise not_tensor("softmax", "x", 0, x) from None
    except IndexError:
        raise _axis_error(x._t, axis) from None


_SOFTMAX_DTYPES = frozenset((torch.float16, torch.bfloat16, torch.float32, torch.float64))


def _softmax_dtype_error(t):
    """Paddle's error for softmax of a tensor of another dtype than its kernels take: a
    TypeError when a program adds the op, the kernel's RuntimeError when run eagerly."""
    name = _dt.from_torch_dtype(t.dtype).name
    if not _mode.in_dynamic_mode():
        return TypeError(f"(InvalidType) Check data type error for op: softmax, input: x, "
                         f"x.dtype: {name}, and expected_dtype: bfloat16, float32, float64, ")
    return RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {name}) of "
                        f"kernel `softmax` is not registered. Selected wrong DataType `{name}`. "
                        "Paddle support following DataTypes: float64, float32.")


SOFTMAX_FLOOR = 64.0


def clip_logits(t, axis):
    """``t`` with every logit lifted to at least ``max - 64`` along ``axis``, the gradient
    passing through unchanged. Paddle's CPU softmax kernels clip ``x - max(x)`` at -64 before
    the exponential, so log-softmax and cross entropy never go below -64 / above 64: logits
    [200, 0, -10] with label 1 give a loss of 64, and the gradient is softmax(clipped) minus
    the one-hot label (-1 at the label), as Paddle's. Where nothing is clipped the lift is an
    exact 0 and the result is ``t``'s values."""
    if t.numel() == 0:
        return t
    d = t.detach()
    if isinstance(d, torch.Tensor):     # (a static Variable has no values to look at yet)
        lo, hi = torch.aminmax(d)       # one pass: no row spans more than the whole tensor
        if float(hi) - float(lo) <= SOFTMAX_FLOOR:
            return t
    lift = (d.amax(axis, keepdim=True) - SOFTMAX_FLOOR - d).clamp_min_(0)
    return t + lift


@op
def log_softmax(x, axis=-1, dtype=None, name=None):
    """Log-softmax along ``axis``, computed in ``dtype`` when given (x is cast first);
    ``x - max`` is clipped at -64 as Paddle's kernel does (see ``clip_logits``)."""
    try:
        t = x._t if dtype is None else x._t.to(_dt.convert_dtype(dtype).torch)
        return wrap(torch.log_softmax(clip_logits(t, axis), axis))
    except AttributeError:
        raise not_tensor("log_softmax", "x", 0, x) from None
    except IndexError:
        raise _axis_error(x._t, axis) from None


@op(method="softmax", export=False)
def _tensor_softmax(input, dim=None, dtype=None, *, out=None, **kwargs):
    """``Tensor.softmax``: Paddle binds its torch-style softmax here (``dim``, with torch's
    implicit dim when None: 0 for 0/1/3-d input, else 1)."""
    if kwargs:
        raise TypeError(f"paddle.compat.nn.functional.softmax() received unexpected keyword "
                        f"argument '{next(iter(kwargs))}'. ")
    t = input._t
    if isinstance(dtype, int) and not isinstance(dtype, bool):
        dtype = None                                      # torch's positional _stacklevel
    if dim is None:
        dim = 0 if t.dim() in (0, 1, 3) else 1
    if dtype is not None:
        t = t.to(_dt.convert_dtype(dtype).torch)
    res = torch.softmax(t, dim)
    if out is not None:
        out._t = res
        return out
    return wrap(res)


# ---------------------------------------------------------------------- random activations
def _cpu_uniform(n, lo, hi, dtype, device):
    """``n`` draws of ``uniform_real_distribution<T>(lo, hi)`` (T float32, or float64 for a
    float64 ``dtype``) from the shared CPU engine; torch's generator off the CPU."""
    ctype = np.float64 if dtype is torch.float64 else np.float32
    if device.type != "cpu":
        return torch.empty(n, dtype=torch.float64 if ctype is np.float64 else torch.float32,
                           device=device).uniform_(lo, hi)
    return torch.from_numpy(_uniform_values(_engine, n, ctype, lo, hi)).to(device)


@op
def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None):
    """x where x >= 0, else x * a: a drawn uniformly from [lower, upper) per element in
    training, (lower + upper) / 2 otherwise."""
    if not isinstance(lower, float) or not isinstance(upper, float):
        raise TypeError(f"The lower and upper values must be float type. Received: lower "
                        f"{lower}, upper {upper}.")
    if lower < 0 or lower > 1:
        raise ValueError(f"The lower value must be no less than zero or greater than one. "
                         f"Received: {lower}.")
    if upper < lower:
        raise ValueError(f"The upper value must be greater than lower value. Received: lower "
                         f"{lower}, upper {upper}.")
    if upper > 1:
        raise ValueError(f"The upper value must be no greater than one. Received: {upper}.")
    check_variable_and_dtype(x, "X", ["float16", "uint16", "float32", "float64"], "rrelu")
    t = x._t
    if not training:
        mid = float((np.float32(lower) + np.float32(upper)) / np.float32(2))
        return wrap(torch.where(t >= 0, t, t * mid))
    lo, hi = float(np.float32(lower)), float(np.float32(upper))
    if isinstance(t, torch.Tensor):
        noise = _rrelu_noise(t, lo, hi)
    else:       # a static Variable: the slopes are drawn when the program runs
        noise = t.record_like(_rrelu_noise, (t.detach(), lo, hi))
    return wrap(t * noise)


def _rrelu_noise(t, lo, hi):
    """rrelu's factors: 1 where ``t`` >= 0, else a slope drawn from [lo, hi) (one draw per
    negative element, in order, from the CPU stream)."""
    neg = t < 0
    slopes = _cpu_uniform(int(neg.sum()), lo, hi, torch.float32, t.device)
    return torch.ones_like(t).masked_scatter(neg, slopes.to(t.dtype))


@op
def maxout(x, groups, axis=1, name=None):
    """Max over each run of ``groups`` consecutive channels (axis 1, or the last axis for
    channel-last input): C channels become C / groups."""
    t = x._t
    if axis not in (1, -1, 3):
        raise ValueError(f"Attr(axis) should be 1 when data format is NCHW, -1 or 3 when data "
                         f"format is NHWC. Received Attr(axis): {axis}.")
    axis = axis % t.dim()
    c = t.shape[axis]
    if c % groups:
        raise ValueError(f"(InvalidArgument) ValueError: Input channels should be divisible by "
                         f"Attr(groups). But received: the input channels is [{c}], the shape "
                         f"of Attr(groups) is [{groups}].")
    return wrap(t.unflatten(axis, (c // groups, groups)).max(axis + 1).values)


@op
def gumbel_softmax(x, temperature=1.0, hard=False, axis=-1, name=None):
    """softmax((x + g) / temperature) with Gumbel noise g = -log(-log(u)), u uniform in
    [1e-5, 1). As in Paddle the gradient is the softmax gradient alone (no 1 / temperature
    factor). ``hard`` gives the one-hot of the argmax, whose gradient (Paddle's softmax
    gradient of a one-hot) is zero."""
    t = x._t
    u = _cpu_uniform(t.numel(), 0.00001, 1.0, t.dtype, t.device).reshape(t.shape)
    noise = -torch.log(-torch.log(u)).to(t.dtype)
    if t.dtype is F64:                                # Paddle's float attribute
        temperature = float_attr(temperature)
    z = (t + noise) / temperature
    y = torch.softmax(z if temperature == 1 else t + (z - t).detach(), axis)
    if not hard:
        return wrap(y)
    onehot = torch.zeros_like(y.detach()).scatter_(axis, y.argmax(axis, keepdim=True), 1.0)
    return wrap(onehot + y * 0)


# ---------------------------------------------------------------------- in-place forms
@op
def relu_(x, name=None):
    torch.relu_(inplace_target(x, "relu_"))
    return x


@op
def tanh_(x, name=None):
    torch.tanh_(inplace_target(x, "tanh_"))
    return x


@op
def leaky_relu_(x, negative_slope=0.01, name=None):
    t = inplace_target(x, "leaky_relu_")
    if t.requires_grad:             # Paddle's gradient at 0 is 1 (see leaky_relu)
        t.copy_(torch.where(t >= 0, t, t * negative_slope))
    else:
        _nn.leaky_relu_(t, negative_slope)
    return x


@op
def elu_(x, alpha=1.0, name=None):
    if alpha < 0:
        raise AssertionError("elu_ only support alpha >= 0, please use elu instead.")
    t = inplace_target(x, "elu_")
    _nn.elu_(t, float_attr(alpha) if t.dtype is F64 else alpha)
    return x


@op
def hardtanh_(x, min=-1.0, max=1.0, name=None):
    t = inplace_target(x, "hardtanh_")
    if t.dtype is F64:
        min, max = float_attr(min), float_attr(max)
    _nn.hardtanh_(t, min, max)
    return x


@op
def thresholded_relu_(x, threshold=1.0, value=0.0, name=None):
    t = inplace_target(x, "thresholded_relu_")
    if t.dtype is F64:
        threshold, value = float_attr(threshold), float_attr(value)
    torch.threshold_(t, threshold, value)
    return x


@op
def softmax_(x, axis=-1, dtype=None, name=None):
    """In-place softmax. As in Paddle, with ``dtype`` it is the softmax of a cast copy of x (x
    keeps its value), and in static mode it is ``softmax`` (a new Variable) with a warning."""
    if dtype is not None or not _mode.in_dynamic_mode():
        if not _mode.in_dynamic_mode():
            warnings.warn("In static graph mode, softmax_() is the same as softmax() and does "
                          "not perform inplace operation.", UserWarning, stacklevel=3)
        return softmax(x, axis, dtype)
    t = inplace_target(x, "softmax_")
    if t.dtype not in _SOFTMAX_DTYPES:
        raise _softmax_dtype_error(t)
    t.copy_(torch.softmax(t, axis))
    return x
