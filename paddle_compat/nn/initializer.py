"""``paddle.nn.initializer``: how parameters get their first values.

An initializer is called on a parameter (``init(param)``) and fills it in place; layers call
``init.make(shape, dtype)`` for a new parameter's data. On CPU the random ones draw from the
same mt19937_64 stream as ``paddle.randn``/``paddle.uniform`` with Paddle's kernels (uniform,
gaussian, truncated gaussian), so with the same ``paddle.seed`` a layer's initial weights are
Paddle's, bit for bit. On CUDA they use torch's generator (Paddle's CUDA stream is not
reproduced).

The fan rule (``_fans``): a 1-D shape has fan_in = fan_out = its size; a 2-D ``[in, out]``
(Paddle's Linear layout) has fan_in = in, fan_out = out; a conv weight ``[out_c, in_c, *k]`` has
fan_in = in_c * prod(k), fan_out = out_c * prod(k).
"""
import math

import numpy as np
import torch

from ..framework import dtype as _dt
from ..framework.mode import in_dynamic_mode
from ..framework.place import current_device
from ..framework.tensor import Tensor
from ..random import default_generator as _gen
from ..random import distributions as _dist
from ..static.program import legacy_program_seed

__all__ = ["Initializer", "Constant", "Normal", "TruncatedNormal", "Uniform", "XavierNormal",
           "XavierUniform", "KaimingNormal", "KaimingUniform", "Assign", "Orthogonal", "Dirac",
           "calculate_gain", "set_global_initializer", "Bilinear"]


def _fans(shape):
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    rf = int(np.prod(shape[2:]))
    return shape[1] * rf, shape[0] * rf


def _to_torch(array, tdtype, device):
    t = torch.from_numpy(np.ascontiguousarray(array))
    return t.to(device=device, dtype=tdtype)


def _uniform(shape, dtype, lo, hi, device, seed=0):
    """Paddle's uniform kernel: on CPU the values ``paddle.uniform`` would draw next (with a
    non-zero ``seed``, those of a private engine seeded with it)."""
    if device.type != "cpu":
        return torch.empty(shape, dtype=dtype.torch, device=device).uniform_(lo, hi)
    return _to_torch(_dist.uniform(_gen, shape, dtype.name, lo, hi, seed), dtype.torch, device)


def _gaussian(shape, dtype, mean, std, device, seed=0):
    """Paddle's gaussian kernel: on CPU the values ``paddle.normal`` would draw next (with a
    non-zero ``seed``, those of a private engine seeded with it)."""
    if device.type != "cpu":
        return torch.empty(shape, dtype=dtype.torch, device=device).normal_(mean, std)
    return _to_torch(_dist.normal(_gen, shape, dtype.name, mean, std, seed), dtype.torch, device)


class Initializer:
    """Base class: subclasses say how to make the values (``make``); calling the initializer on
    a parameter (or any Tensor) overwrites its data in place and returns None."""

    _seed = 0       # the fluid-era classes' per-initializer seed (0: the global stream)

    def make(self, shape, dtype=None, device=None):
        """A torch tensor of the initial values for a parameter of ``shape`` and ``dtype``."""
        raise NotImplementedError

    def __call__(self, param, block=None):
        t = param._t
        with torch.no_grad():
            t.copy_(self.make(list(t.shape), _dt.from_torch_dtype(t.dtype), t.device))
        return None

    forward = __call__

    def _draw_seed(self):
        """The seed of this draw: the initializer's own, else in dygraph the ``random_seed`` of
        Paddle's legacy default main program (``legacy_program_seed``), which then stays the
        initializer's, as in Paddle. 0: the global stream."""
        if self._seed == 0 and in_dynamic_mode():
            self._seed = legacy_program_seed()
        return self._seed

    def _args(self, shape, dtype, device):
        return ([int(s) for s in shape], _dt.default_float() if dtype is None
                else _dt.convert_dtype(dtype), current_device() if device is None else device)

    def __repr__(self):
        return f"{type(self).__name__}()"


class Constant(Initializer):
    """Every element ``value``."""

    def __init__(self, value=0.0):
        if value is None:
            raise ValueError("value must not be none.")
        self._value = value

    def make(self, shape, dtype=None, device=None):
        shape, dtype, device = self._args(shape, dtype, device)
        return torch.full(shape, float(self._value), dtype=dtype.torch, device=device)


class Normal(Initializer):
    """Normal values with ``mean`` and ``std`` (Paddle's gaussian kernel)."""

    def __init__(self, mean=0.0, std=1.0, name=None):
        if isinstance(mean, complex):
            if mean.real != mean.imag:
                raise ValueError("if mean is a complex number, its real part should equal imag "
                                 f"part, but got real part: {mean.real} != imag part: "
                                 f"{mean.imag}")
            mean = mean.real
        self._mean, self._std = mean, std

    def make(self, shape, dtype=None, device=None):
        shape, dtype, device = self._args(shape, dtype, device)
        return _gaussian(shape, dtype, self._mean, self._std, device, self._draw_seed())


class Uniform(Initializer):
    """Uniform values in ``[low, high)``."""

    def __init__(self, low=-1.0, high=1.0, name=None):
        assert high >= low, "high should greater or equal than low"
        self._low, self._high = low, high

    def make(self, shape, dtype=None, device=None):
        shape, dtype, device = self._args(shape, dtype, device)
        out = _uniform(shape, dtype, self._low, self._high, device, self._draw_seed())
        diag = getattr(self, "_diag", None)
        if diag:                # UniformInitializer: diag_num entries diag_step apart
            num, step, val = diag
            flat = out.view(-1)
            flat[torch.arange(num, device=flat.device) * step] = val
        return out


class TruncatedNormal(Initializer):
    """Normal values with ``mean`` and ``std`` kept in ``[a, b]`` (inverse-CDF sampling, one
    uniform per element, as Paddle's CPU kernel does)."""

    def __init__(self, mean=0.0, std=1.0, a=-2.0, b=2.0, name=None):
        self._mean, self._std, self._a, self._b = mean, std, a, b

    def make(self, shape, dtype=None, device=None):
        shape, dtype, device = self._args(shape, dtype, device)
        if device.type != "cpu":
            t = torch.empty(shape, dtype=torch.float32 if dtype.name in ("float16", "bfloat16")
                            else dtype.torch, device=device)
            torch.nn.init.trunc_normal_(t, self._mean, self._std, self._a, self._b)
            return t.to(dtype.torch)
        ctype = np.float64 if dtype.name == "float64" else np.float32
        n = int(np.prod(shape)) if shape else 1
        vals = _truncated_normal(n, ctype, self._mean, self._std, self._a, self._b,
                                 self._draw_seed())
        return _to_torch(vals.reshape(shape), dtype.torch, device)


class XavierNormal(Initializer):
    """Normal values with std ``gain * sqrt(2 / (fan_in + fan_out))``."""

    _uniform = False

    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        self._fan_in, self._fan_out, self._gain = fan_in, fan_out, gain

    def make(self, shape, dtype=None, device=None):
        shape, dtype, device = self._args(shape, dtype, device)
        f_in, f_out = _fans(shape)
        f_in = f_in if self._fan_in is None else self._fan_in
        f_out = f_out if self._fan_out is None else self._fan_out
        zero = 0 in (f_in, f_out)
        if self._uniform:
            limit = 0.0 if zero else self._gain * math.sqrt(6.0 / float(f_in + f_out))
            return _uniform(shape, dtype, -limit, limit, device, self._draw_seed())
        std = 0.0 if zero else self._gain * math.sqrt(2.0 / float(f_in + f_out))
        return _gaussian(shape, dtype, 0.0, std, device, self._draw_seed())


class XavierUniform(XavierNormal):
    """Uniform values in ``±gain * sqrt(6 / (fan_in + fan_out))`` (the default for weights)."""

    _uniform = True


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for a nonlinearity ('relu', 'tanh', 'leaky_relu', ...)."""
    param = 0.01 if param is None else float(param)
    gains = {"sigmoid": 1, "linear": 1, "conv1d": 1, "conv2d": 1, "conv3d": 1,
             "conv1d_transpose": 1, "conv_transpose1d": 1, "conv2d_transpose": 1,
             "conv_transpose2d": 1, "conv3d_transpose": 1, "conv_transpose3d": 1,
             "tanh": 5.0 / 3, "relu": math.sqrt(2.0),
             "leaky_relu": math.sqrt(2.0 / (1 + param ** 2)), "selu": 3.0 / 4}
    if nonlinearity not in gains:
        raise ValueError(f"nonlinearity function {nonlinearity} is not supported now.")
    return gains[nonlinearity]


class KaimingNormal(Initializer):
    """Normal values with std ``gain / sqrt(fan)`` (He et al.), fan being fan_in or fan_out."""

    _uniform = False

    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu", mode="fan_in"):
        if mode not in ("fan_in", "fan_out"):
            raise ValueError("The mode of KaimingNormal/KaimingUniform should be 'fan_in' or "
                             f"'fan_out', but received {mode}.")
        if mode == "fan_out" and fan_in is not None:
            raise ValueError("The mode of KaimingNormal/KaimingUniform is 'fan_out', but fan_in "
                             "is set. Please set fan_in to None.")
        self._fan_in, self._slope, self._nonlinearity, self._mode = (
            fan_in, negative_slope, nonlinearity, mode)

    def make(self, shape, dtype=None, device=None):
        shape, dtype, device = self._args(shape, dtype, device)
        f_in, f_out = _fans(shape)
        fan = f_out if self._mode == "fan_out" else (
            f_in if self._fan_in is None else self._fan_in)
        gain = calculate_gain(self._nonlinearity, self._slope)
        if self._uniform:
            limit = gain * math.sqrt(3.0 / float(fan))
            return _uniform(shape, dtype, -limit, limit, device, self._draw_seed())
        std = gain / math.sqrt(float(fan))
        return _gaussian(shape, dtype, 0.0, std, device, self._draw_seed())


class KaimingUniform(KaimingNormal):
    """Uniform values in ``±gain * sqrt(3 / fan)``."""

    _uniform = True


# ---------------------------------------------------------------- the fluid-era spellings
# Paddle 3.3.1 still has them (its new classes derive from them); here they derive from the new
# ones, taking the old arguments: ``seed`` (a private engine per draw when non-zero), ``uniform``
# choosing the distribution of Xavier/MSRA.

class ConstantInitializer(Constant):
    def __init__(self, value=0.0, force_cpu=False):
        super().__init__(value)


class NormalInitializer(Normal):
    def __init__(self, loc=0.0, scale=1.0, seed=0):
        super().__init__(loc, scale)
        self._seed = seed


class TruncatedNormalInitializer(TruncatedNormal):
    def __init__(self, loc=0.0, scale=1.0, seed=0, a=-2.0, b=2.0):
        super().__init__(loc, scale, a, b)
        self._seed = seed


class UniformInitializer(Uniform):
    def __init__(self, low=-1.0, high=1.0, seed=0, diag_num=0, diag_step=0, diag_val=1.0):
        super().__init__(low, high)
        self._seed = seed
        self._diag = (diag_num, diag_step, diag_val) if diag_num else None


class XavierInitializer(XavierNormal):
    def __init__(self, uniform=True, fan_in=None, fan_out=None, seed=0, gain=1.0):
        super().__init__(fan_in, fan_out, gain)
        self._uniform, self._seed = bool(uniform), seed


class MSRAInitializer(KaimingNormal):
    def __init__(self, uniform=True, fan_in=None, seed=0, negative_slope=0,
                 nonlinearity="relu", mode="fan_in"):
        super().__init__(fan_in, negative_slope, nonlinearity, mode)
        self._uniform, self._seed = bool(uniform), seed



class Assign(Initializer):
    """Given values (a numpy array, list, scalar or Tensor) of the parameter's shape."""

    def __init__(self, value, name=None):
        if isinstance(value, Tensor):
            value = value.numpy()
        self._value = np.asarray(value)

    def make(self, shape, dtype=None, device=None):
        shape, dtype, device = self._args(shape, dtype, device)
        if list(self._value.shape) != shape and self._value.size != int(np.prod(shape)):
            raise ValueError(f"Assign initializer got values of shape {list(self._value.shape)}"
                             f" for a parameter of shape {shape}")
        return _to_torch(self._value.reshape(shape), dtype.torch, device)


class NumpyArrayInitializer(Assign):
    def __init__(self, value):
        super().__init__(value)


class Bilinear(Initializer):
    """The bilinear-upsampling kernel for a transposed convolution's weight ``[C_out, C_in, K,
    K]``: ``(1 - |x / f - c|) * (1 - |y / f - c|)`` with ``f = ceil(K / 2)``,
    ``c = (2f - 1 - f % 2) / 2f``, over the flat index i: ``x = i % K`` and, as Paddle 3.3.1
    computes it (true division), ``y = (i / K) % K``. Made in float32 (cast for float16 /
    float64 parameters), at most 1024 * 1024 elements."""

    def make(self, shape, dtype=None, device=None):
        shape, dtype, device = self._args(shape, dtype, device)
        if len(shape) != 4:
            raise ValueError("the length of shape must be 4.")
        if shape[2] != shape[3]:
            raise ValueError("shape[2] must be equal to shape[3].")
        n = int(np.prod(shape))
        if n > 1024 * 1024:
            raise ValueError("The size of input is too big. ")
        size = shape[3]
        f = np.ceil(size / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        i = np.arange(n, dtype=np.float64)
        x, y = i % size, (i / size) % size
        w = ((1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))).astype(np.float32)
        return _to_torch(w.reshape(shape), dtype.torch, device)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times ``gain``: QR of a standard normal matrix of shape
    ``[max(rows, cols), min(rows, cols)]``, columns signed by R's diagonal, transposed when
    rows < cols (rows = shape[0], cols = the product of the rest)."""

    def __init__(self, gain=1.0, name=None):
        self._gain = gain

    def make(self, shape, dtype=None, device=None):
        shape, dtype, device = self._args(shape, dtype, device)
        if len(shape) < 2:
            raise AssertionError("Only Tensor with 2 or more dimensions can be initialized by "
                                 "Orthogonal")
        rows, cols = shape[0], int(np.prod(shape[1:]))
        z = _gaussian([max(rows, cols), min(rows, cols)], dtype, 0.0, 1.0, device)
        q, r = torch.linalg.qr(z.to(torch.float64 if dtype.name == "float64" else torch.float32))
        q = q * torch.sign(torch.diagonal(r))
        if rows < cols:
            q = q.T
        return (q.reshape(shape) * self._gain).to(dtype.torch)


class Dirac(Initializer):
    """The Dirac delta of a 3-D/4-D/5-D convolution weight ``[out_c, in_c, *k]``: zeros but
    ``W[g * n + j, j, k0 // 2, k1 // 2, ...] = 1`` for each of ``groups`` groups ``g`` of
    ``n = out_c // groups`` output channels and ``j < min(n, in_c)``, so that the convolution
    passes ``min(n, in_c)`` input channels through unchanged."""

    def __init__(self, groups=1, name=None):
        if not (isinstance(groups, int) and groups > 0):
            raise AssertionError(" 'groups' must be a positive integer. ")
        self._groups = groups

    def make(self, shape, dtype=None, device=None):
        shape, dtype, device = self._args(shape, dtype, device)
        if dtype.name not in ("float16", "bfloat16", "float32", "float64"):
            raise TypeError("The data type of 'Out' in Dirac must be one of ['float16', "
                            f"'bfloat16', 'float32', 'float64'], but received {dtype.name}.")
        if len(shape) not in (3, 4, 5):
            raise AssertionError("Only Tensor with 3/4/5 dimensions can be initialized by Dirac")
        if shape[0] % self._groups:
            raise AssertionError("Tensor 0-dimension must be divisible by groups")
        per_group = shape[0] // self._groups
        out = torch.zeros(shape, dtype=dtype.torch, device=device)
        j = torch.arange(min(per_group, shape[1]), device=device)
        centre = tuple(k // 2 for k in shape[2:])
        for g in range(self._groups):
            out[(j + g * per_group, j) + centre] = 1
        return out


class _Global:
    weight = None
    bias = None


def set_global_initializer(weight_init, bias_init=None):
    """Use ``weight_init`` / ``bias_init`` for every parameter created afterwards, overriding
    the layers' own defaults (a ParamAttr's initializer still wins); None resets."""
    if weight_init is not None and not isinstance(weight_init, Initializer):
        raise TypeError("weight_init should be an Initializer or None")
    if bias_init is not None and not isinstance(bias_init, Initializer):
        raise TypeError("bias_init should be an Initializer or None")
    _Global.weight, _Global.bias = weight_init, bias_init


def global_initializer(is_bias):
    return _Global.bias if is_bias else _Global.weight


# ---------------------------------------------------------------------------------------------
# Paddle's CPU truncated gaussian: u = uniform_real_distribution<T>(FLT_MIN, 1) (one word each),
# p = cdf(a') + (cdf(b') - cdf(a')) * u, x = sqrt(2) * erfinv(2p - 1) * std + mean, clamped to
# [a, b]. erfinv is a rational approximation (Giles-style, three ranges) evaluated in T except
# where the C++ mixes in double literals; the steps below keep those roundings.
# ---------------------------------------------------------------------------------------------
_ERFINV = {
    "A": (1.1975323115670912564578e0, 4.7072688112383978012285e1, 6.9706266534389598238465e2,
          4.8548868893843886794648e3, 1.6235862515167575384252e4, 2.3782041382114385731252e4,
          1.1819493347062294404278e4, 8.8709406962545514830200e2),
    "B": (1.0, 4.2313330701600911252e1, 6.8718700749205790830e2, 5.3941960214247511077e3,
          2.1213794301586595867e4, 3.9307895800092710610e4, 2.8729085735721942674e4,
          5.2264952788528545610e3),
    "C": (1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0,
          3.64784832476320460504e0, 1.27045825245236838258e0, 2.41780725177450611770e-1,
          2.27238449892691845833e-2, 7.74545014278341407640e-4),
    "D": (1.4142135623730950488016887e0, 2.9036514445419946173133295e0,
          2.3707661626024532365971225e0, 9.7547832001787427186894837e-1,
          2.0945065210512749128288442e-1, 2.1494160384252876777097297e-2,
          7.7441459065157709165577218e-4, 1.4859850019840355905497876e-9),
    "E": (6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0,
          2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
          2.71155556874348757815e-5, 2.01033439929228813265e-7),
    "F": (1.414213562373095048801689e0, 8.482908416595164588112026e-1,
          1.936480946950659106176712e-1, 2.103693768272068968719679e-2,
          1.112800997078859844711555e-3, 2.611088405080593625138020e-5,
          2.010321207683943062279931e-7, 2.891024605872965461538222e-15),
}


def _poly(name, r, ctype):
    coefs = _ERFINV[name]
    acc = np.full_like(r, ctype(coefs[7]))
    for c in coefs[6::-1]:
        acc *= r
        acc += ctype(c)
    return acc


def _erfinv(x, ctype):
    out = np.empty_like(x)
    ax = np.abs(x)
    mid = ax <= 0.85
    xm = x[mid].astype(np.float64)
    r = (0.180625 - 0.25 * xm * xm).astype(ctype)
    out[mid] = x[mid] * _poly("A", r, ctype) / _poly("B", r, ctype)
    tail = ~mid
    xt = x[tail]
    ln2 = np.float64(ctype(0.6931471805599453094172321214581))
    r = np.sqrt(ln2 - _dist.glibc_log(1.0 - ax[tail].astype(np.float64))).astype(ctype)
    res = np.empty_like(xt)
    near = r <= 5.0
    rn = (r[near].astype(np.float64) - 1.6).astype(ctype)
    res[near] = _poly("C", rn, ctype) / _poly("D", rn, ctype)
    rf = (r[~near].astype(np.float64) - 5.0).astype(ctype)
    res[~near] = _poly("E", rf, ctype) / _poly("F", rf, ctype)
    out[tail] = np.where(xt < 0, -res, res)
    return out


def _truncated_normal(n, ctype, mean, std, a, b, seed=0):
    mean, std, a, b = ctype(mean), ctype(std), ctype(a), ctype(b)

    def cdf(z):
        return ctype((1.0 + math.erf(float(z) / math.sqrt(2.0))) / 2.0)

    lo_cdf, hi_cdf = cdf((a - mean) / std), cdf((b - mean) / std)
    tiny = ctype(np.finfo(np.float32).tiny)
    gen = _dist._private_engine(seed, "truncated_gaussian") if seed else _gen
    u = _dist.canonical(gen.random_raw(n), ctype)
    u *= ctype(ctype(1.0) - tiny)
    u += tiny
    p = (hi_cdf - lo_cdf) * u
    p += lo_cdf
    e = _erfinv(ctype(2) * p - ctype(1), ctype).astype(np.float64)
    ret = (math.sqrt(2.0) * e * np.float64(std) + np.float64(mean)).astype(ctype)
    return np.clip(ret, a, b)
