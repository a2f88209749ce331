"""Continuous univariate families (and Dirichlet/Beta, drawn from the same gamma sampler).

Draws compose Paddle's own random ops in Paddle's order (``randn``/``uniform``/``rand``/
``standard_gamma`` from the CPU stream), so after ``paddle.seed(s)`` they equal Paddle's.
Formulas follow Paddle's (its dtype rules, broadcasting and its quirks, e.g. ``Normal(0., 1.)``
drawing ``sample([3])`` with shape ``[3]``)."""
import math
import numbers
from collections.abc import Iterable, Sequence

import numpy as np

from .. import ops as P
from ..autograd import no_grad
from ..framework import dtype as _dt
from ..framework.place import current_device
from ..framework.tensor import Tensor
from ..random import distributions as _rd
from ..random.engine import Generator, GeneratorState, _mt19937_64_int_seed
from .distribution import Distribution, ExponentialFamily, dtype_name

__all__ = ["Normal", "Uniform", "Exponential", "Gamma", "Chi2", "Dirichlet", "Beta", "Cauchy",
           "Laplace", "StudentT", "ContinuousBernoulli"]

_TINY32 = float(np.finfo(np.float32).tiny)
_HALF_STD = float(np.float32(math.sqrt(0.5)))


def _private_engine(seed):
    """An engine seeded with ``mt19937_64::seed(seed)`` (``seed`` a C int), for the ``seed=``
    argument of Paddle's samplers."""
    seed = int(seed)
    if not -(1 << 31) <= seed < (1 << 31):
        raise OverflowError("seed must fit in a C int")
    seed &= (1 << 64) - 1
    return Generator(0).set_state(GeneratorState(_mt19937_64_int_seed(seed), 312, seed))


def _real_scalar(v, name):
    """A Python real as a 0-d Tensor of the default dtype; a Tensor as is; else TypeError."""
    if isinstance(v, Tensor):
        return v
    if isinstance(v, numbers.Real):
        return P.full([], v)
    raise TypeError(f"Expected type of {name} is Real|Variable|Value, but got {type(v)}")


def _pair(a, b):
    return tuple(P.broadcast_tensors([a, b])) if tuple(a.shape) != tuple(b.shape) else (a, b)


def _float_family(self, *args):
    """Tensors as given (dtype of the first), else float32 Tensors (Paddle's ``_to_tensor``)."""
    if self._validate_args(*args):
        self.dtype = dtype_name(args[0])
        return args
    self.dtype = _dt.get_default_dtype()
    return self._to_tensor(*args)


class _LocScale(Distribution):
    """Normal and Uniform share their argument handling: ints become floats, numpy float64
    arguments keep float64 (after passing through float32, as in Paddle), two Python floats
    make ``sample(shape)`` return exactly ``shape``."""

    def _init_params(self, a, b):
        self.all_arg_is_float = False
        self.dtype = "float32"
        if self._validate_args(a, b):
            self.dtype = dtype_name(a)
            return a, b
        if isinstance(a, float) and isinstance(b, float):
            self.all_arg_is_float = True
        for arr in (a, b):
            if isinstance(arr, np.ndarray) and str(arr.dtype) in ("float32", "float64"):
                self.dtype = str(arr.dtype)
                break
        a, b = self._to_tensor(a, b)
        if self.dtype != "float32":
            a, b = P.cast(a, self.dtype), P.cast(b, self.dtype)
        return a, b

    def _finish_sample(self, out, shape):
        return P.reshape(out, shape) if self.all_arg_is_float else out


class Normal(_LocScale):
    """Normal (Gaussian) distribution with mean ``loc`` and standard deviation ``scale``
    (a complex ``loc`` gives the circular complex normal)."""

    def __init__(self, loc, scale, name=None):
        self.name = name if name is not None else "Normal"
        self._complex_gaussian = False
        if isinstance(loc, int) and not isinstance(loc, bool):
            loc = float(loc)
        if isinstance(scale, int) and not isinstance(scale, bool):
            scale = float(scale)
        if isinstance(loc, (tuple, list)):
            loc = np.array(loc)
            if loc.dtype == np.float64:
                loc = loc.astype(np.float32)
            elif loc.dtype == np.complex128:
                loc = loc.astype(np.complex64)
        if isinstance(scale, (tuple, list)):
            scale = np.array(scale, dtype=np.float32)
        is_complex = (isinstance(loc, complex)
                      or (isinstance(loc, np.ndarray) and np.iscomplexobj(loc))
                      or (isinstance(loc, Tensor) and P.is_complex(loc)))
        if is_complex:
            self._complex_gaussian = True
            self.all_arg_is_float = isinstance(loc, complex) and isinstance(scale, float)
            if isinstance(loc, np.ndarray):
                real = "float32" if loc.dtype == np.complex64 else "float64"
                loc = P.complex(P.to_tensor(loc.real, real), P.to_tensor(loc.imag, real))
            elif isinstance(loc, complex):
                loc = P.complex(P.to_tensor(loc.real, "float32"), P.to_tensor(loc.imag, "float32"))
            if isinstance(scale, np.ndarray):
                scale = P.to_tensor(scale, dtype=str(scale.dtype))
            elif isinstance(scale, float):
                scale = P.to_tensor(scale, dtype="float32")
            self.loc, self.scale = loc, scale
            self.dtype = dtype_name(loc)
        else:
            self.loc, self.scale = self._init_params(loc, scale)
        super().__init__(self.loc.shape)

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return self.scale.pow(2)

    def _standard(self, shape, seed=0):
        """Standard normal draws of ``shape`` in this distribution's dtype (complex: real and
        imaginary parts interleaved, each with standard deviation sqrt(1/2) rounded to float32,
        Paddle's float attribute, also for complex128). A non-zero ``seed`` draws on the CPU
        from a private engine seeded with it, as Paddle's ``gaussian`` does, leaving the global
        stream alone."""
        real = self.dtype
        if self._complex_gaussian:
            real = "float32" if self.dtype == "complex64" else "float64"
            shape = list(shape) + [2]
        if seed and current_device().type == "cpu":
            parts = P.to_tensor(_rd.randn(_private_engine(seed), list(shape), real))
        else:
            parts = P.randn(list(shape), dtype=real)
        if not self._complex_gaussian:
            return parts
        parts = parts * _HALF_STD
        return P.complex(parts[..., 0], parts[..., 1])

    def sample(self, shape=(), seed=0):
        """Draws of shape ``shape + batch_shape`` (``loc + scale * randn``)."""
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        shape = list(shape)
        out_shape = shape + list((self.loc + self.scale).shape)
        eps = self._standard(out_shape, seed)
        out = P.add(eps * (P.zeros(out_shape, dtype=self.scale.dtype) + self.scale), self.loc)
        return self._finish_sample(out, shape)

    def rsample(self, shape=()):
        """Reparametrised draws: ``loc + scale * eps`` with ``eps`` drawn in the default dtype
        (differentiable in ``loc`` and ``scale``)."""
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        ext = self._extend_shape(tuple(shape))
        if self._complex_gaussian:
            eps = self._standard(ext)
        else:
            eps = P.normal(mean=0.0, shape=list(ext))
        return self.loc + eps * self.scale

    def entropy(self):
        zero = P.zeros(list((self.loc + self.scale).shape), dtype=self.scale.dtype)
        if self._complex_gaussian:
            return P.add(1.0 + zero, math.log(math.pi) + 2.0 * P.log(self.scale + zero))
        return P.add(0.5 + zero, 0.5 * math.log(2 * math.pi) + P.log(self.scale + zero))

    def log_prob(self, value):
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        d = value - self.loc
        if self._complex_gaussian:
            return P.subtract(-1.0 * (d.conj() * d) / var,
                              2.0 * P.log(self.scale) + math.log(math.pi))
        return P.subtract(-1.0 * (d * d) / (2.0 * var),
                          P.log(self.scale) + math.log(math.sqrt(2.0 * math.pi)))

    def probs(self, value):
        """Density at ``value`` (computed directly, not as ``exp(log_prob)``)."""
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        d = value - self.loc
        if self._complex_gaussian:
            return P.divide(P.exp(-1.0 * (d.conj() * d) / var), math.pi * var)
        return P.divide(P.exp(-1.0 * (d * d) / (2.0 * var)), math.sqrt(2 * math.pi) * self.scale)

    def kl_divergence(self, other):
        if self._complex_gaussian != other._complex_gaussian:
            raise ValueError("The kl divergence must be computed between two distributions in "
                             "the same number field.")
        ratio = self.scale / other.scale
        ratio = ratio * ratio
        t = (self.loc - other.loc) / other.scale
        if self._complex_gaussian:
            return ratio + t.conj() * t - 1.0 - P.log(ratio)
        return P.add(0.5 * ratio, 0.5 * (t * t - 1.0 - P.log(ratio)))


class Uniform(_LocScale):
    """Uniform distribution on ``[low, high)``."""

    def __init__(self, low, high, name=None):
        self.name = name if name is not None else "Uniform"
        self.batch_size_unknown = False
        if isinstance(low, int) and not isinstance(low, bool):
            low = float(low)
        if isinstance(high, int) and not isinstance(high, bool):
            high = float(high)
        self.low, self.high = self._init_params(low, high)
        super().__init__(self.low.shape)

    def sample(self, shape=(), seed=0):
        """Draws of shape ``shape + batch_shape`` (``low + (high - low) * uniform``)."""
        shape = list(shape)
        out_shape = shape + list((self.low + self.high).shape)
        u = P.uniform(out_shape, dtype=self.dtype, min=0.0, max=1.0, seed=seed)
        out = P.add(u * (P.zeros(out_shape, dtype=self.dtype) + (self.high - self.low)), self.low)
        return self._finish_sample(out, shape)

    def _inside(self, value):
        value = self._check_values_dtype_in_probs(self.low, value)
        lb = P.cast(self.low < value, value.dtype)
        ub = P.cast(value < self.high, value.dtype)
        return lb * ub

    def log_prob(self, value):
        return P.subtract(P.log(self._inside(value)), P.log(self.high - self.low))

    def probs(self, value):
        return P.divide(self._inside(value), self.high - self.low)

    def entropy(self):
        return P.log(self.high - self.low)


class Exponential(ExponentialFamily):
    """Exponential distribution with ``rate``."""

    def __init__(self, rate):
        (self.rate,) = _float_family(self, rate)
        super().__init__(self.rate.shape)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def sample(self, shape=()):
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        ext = self._extend_shape(shape)
        u = P.uniform(list(ext), min=_TINY32, max=1.0, dtype=self.rate.dtype)
        return -P.log(u) / self.rate

    def prob(self, value):
        return self.rate * P.exp(-self.rate * value)

    def log_prob(self, value):
        return P.log(self.rate) - self.rate * value

    def entropy(self):
        return 1.0 - P.log(self.rate)

    def cdf(self, value):
        return 1.0 - P.exp(-self.rate * value)

    def icdf(self, value):
        return -P.log1p(-value) / self.rate

    def kl_divergence(self, other):
        if not isinstance(other, Exponential):
            raise TypeError(f"Expected type of other is Exponential, but got {type(other)}")
        ratio = other.rate / self.rate
        return -P.log(ratio) + ratio - 1

    @property
    def _natural_parameters(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -P.log(-x)


class Gamma(ExponentialFamily):
    """Gamma distribution with ``concentration`` (shape) and ``rate``."""

    def __init__(self, concentration, rate):
        self.concentration, self.rate = _float_family(self, concentration, rate)
        super().__init__(self.concentration.shape)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def prob(self, value):
        return P.exp(self.log_prob(value))

    def log_prob(self, value):
        c, r = self.concentration, self.rate
        return c * P.log(r) + (c - 1) * P.log(value) - r * value - P.lgamma(c)

    def entropy(self):
        c = self.concentration
        return c - P.log(self.rate) + P.lgamma(c) + (1.0 - c) * P.digamma(c)

    def sample(self, shape=()):
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        ext = list(self._extend_shape(shape))
        return P.standard_gamma(self.concentration.expand(ext)) / self.rate.expand(ext)

    def kl_divergence(self, other):
        if not isinstance(other, Gamma):
            raise TypeError(f"Expected type of other is Gamma, but got {type(other)}")
        c1, r1, c2, r2 = self.concentration, self.rate, other.concentration, other.rate
        return (c2 * P.log(r1 / r2) + (P.lgamma(c2) - P.lgamma(c1))
                + (c1 - c2) * P.digamma(c1) + (r2 - r1) * (c1 / r1))

    def _natural_parameters(self):      # a method, not a property, in Paddle too
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return P.lgamma(x + 1) + (x + 1) * P.log(-y.reciprocal())


class Chi2(Gamma):
    """Chi-squared distribution with ``df`` degrees of freedom (Gamma(df/2, 1/2))."""

    def __init__(self, df):
        (self.df,) = _float_family(self, df)
        self.rate = P.full_like(self.df, 0.5)
        if not bool(P.all(self.df > 0)):
            raise ValueError("The arg of `df` must be positive.")
        super().__init__(self.df * 0.5, self.rate)


class Dirichlet(ExponentialFamily):
    """Dirichlet distribution over the simplex of the last axis of ``concentration``."""

    def __init__(self, concentration):
        if concentration.dim() < 1 or math.prod(concentration.shape) == 0:
            raise ValueError("`concentration` parameter must be at least one dimensional")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:])

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, keepdim=True)

    @property
    def variance(self):
        c = self.concentration
        c0 = c.sum(-1, keepdim=True)
        return c * (c0 - c) / (c0.pow(2) * (c0 + 1))

    def sample(self, shape=()):
        """Gamma draws normalised along the last axis (Paddle's CPU ``dirichlet`` kernel)."""
        c = self.concentration.expand(list(self._extend_shape(tuple(shape))))
        with no_grad():
            g = P.standard_gamma(c)
            return g / g.sum(-1, keepdim=True)

    def prob(self, value):
        return P.exp(self.log_prob(value))

    def log_prob(self, value):
        c = self.concentration
        return ((P.log(value) * (c - 1.0)).sum(-1) + P.lgamma(c.sum(-1))
                - P.lgamma(c).sum(-1))

    def entropy(self):
        c = self.concentration
        c0 = c.sum(-1)
        k = c.shape[-1]
        return (P.lgamma(c).sum(-1) - P.lgamma(c0) - (k - c0) * P.digamma(c0)
                - ((c - 1.0) * P.digamma(c)).sum(-1))

    @property
    def _natural_parameters(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - P.lgamma(x.sum(-1))


class Beta(ExponentialFamily):
    """Beta distribution with ``alpha`` and ``beta`` (a two-category Dirichlet)."""

    def __init__(self, alpha, beta):
        if isinstance(alpha, numbers.Real):
            alpha = P.full([], alpha)
        if isinstance(beta, numbers.Real):
            beta = P.full([], beta)
        self.alpha, self.beta = P.broadcast_tensors([alpha, beta])
        self._dirichlet = Dirichlet(P.stack([self.alpha, self.beta], -1))
        super().__init__(self._dirichlet._batch_shape)

    @property
    def mean(self):
        return self.alpha / (self.alpha + self.beta)

    @property
    def variance(self):
        s = self.alpha + self.beta
        return self.alpha * self.beta / (s.pow(2) * (s + 1))

    def prob(self, value):
        return P.exp(self.log_prob(value))

    def log_prob(self, value):
        return self._dirichlet.log_prob(P.stack([value, 1.0 - value], -1))

    def sample(self, shape=()):
        # Paddle squeezes a trailing axis of size 1 too
        return P.squeeze(self._dirichlet.sample(tuple(shape))[..., 0], axis=-1)

    def entropy(self):
        return self._dirichlet.entropy()

    @property
    def _natural_parameters(self):
        return (self.alpha, self.beta)

    def _log_normalizer(self, x, y):
        return P.lgamma(x) + P.lgamma(y) - P.lgamma(x + y)


def _shape_arg(shape):
    if not isinstance(shape, (np.ndarray, Tensor, list, tuple)):
        raise TypeError(f"Expected type of shape is Sequence[int], but got {type(shape)}")
    return tuple(shape)


def _value_arg(value):
    if not isinstance(value, Tensor):
        raise TypeError(f"Expected type of value is Variable or Value, but got {type(value)}")
    return value


class Cauchy(Distribution):
    """Cauchy distribution with ``loc`` and ``scale`` (no mean, variance or stddev)."""

    def __init__(self, loc, scale, name=None):
        self.name = name if name is not None else "Cauchy"
        loc = _real_scalar(loc, "loc")
        scale = _real_scalar(scale, "scale")
        self.loc, self.scale = _pair(loc, scale)
        self.dtype = self.loc.dtype
        super().__init__(batch_shape=self.loc.shape, event_shape=())

    @property
    def mean(self):
        raise ValueError("Cauchy distribution has no mean.")

    @property
    def variance(self):
        raise ValueError("Cauchy distribution has no variance.")

    @property
    def stddev(self):
        raise ValueError("Cauchy distribution has no stddev.")

    def sample(self, shape=(), name=None):
        with no_grad():
            return self.rsample(shape, name)

    def rsample(self, shape=(), name=None):
        ext = list(self._extend_shape(_shape_arg(shape)))
        u = P.rand(ext, dtype=self.dtype)
        return P.add(self.loc.expand(ext), P.multiply(self.scale.expand(ext),
                                                      P.tan(np.pi * (u - 0.5))))

    def prob(self, value):
        return self.log_prob(_value_arg(value)).exp()

    def _bcast(self, value):
        value = self._check_values_dtype_in_probs(self.loc, _value_arg(value))
        return P.broadcast_tensors([self.loc, self.scale, value])

    def log_prob(self, value):
        loc, scale, value = self._bcast(value)
        z = P.divide(P.subtract(value, loc), scale)
        return P.subtract(-P.square(z).log1p(),
                          P.add(P.full(loc.shape, np.log(np.pi), dtype=self.dtype), scale.log()))

    def cdf(self, value):
        loc, scale, value = self._bcast(value)
        return P.atan(P.divide(P.subtract(value, loc), scale)) / np.pi + 0.5

    def entropy(self):
        return P.add(P.full(self.loc.shape, np.log(4 * np.pi), dtype=self.dtype), self.scale.log())

    def kl_divergence(self, other):
        if not isinstance(other, Cauchy):
            raise TypeError(f"Expected type of other is Cauchy, but got {type(other)}")
        t1 = P.add(P.pow(P.add(self.scale, other.scale), 2),
                   P.pow(P.subtract(self.loc, other.loc), 2)).log()
        t2 = (4 * P.multiply(self.scale, other.scale)).log()
        return P.subtract(t1, t2)


class Laplace(Distribution):
    """Laplace distribution with ``loc`` and ``scale``."""

    def __init__(self, loc, scale):
        loc = _real_scalar(loc, "loc")
        scale = _real_scalar(scale, "scale")
        if (len(scale.shape) > 0 or len(loc.shape) > 0) and loc.dtype == scale.dtype:
            loc, scale = P.broadcast_tensors([loc, scale])
        self.loc, self.scale = loc, scale
        super().__init__(self.loc.shape)

    @property
    def mean(self):
        return self.loc

    @property
    def stddev(self):
        return 2 ** 0.5 * self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def _validate_value(self, value):
        if isinstance(value, numbers.Real):
            value = P.full([], value)
        if value.dtype != self.scale.dtype:
            value = P.cast(value, self.scale.dtype)
        if len(self.scale.shape) > 0 or len(self.loc.shape) > 0 or len(value.shape) > 0:
            return tuple(P.broadcast_tensors([self.loc, self.scale, value]))
        return self.loc, self.scale, value

    def log_prob(self, value):
        loc, scale, value = self._validate_value(value)
        return -P.log(2 * scale) - P.abs(value - loc) / scale

    def entropy(self):
        return 1 + P.log(2 * self.scale)

    def cdf(self, value):
        loc, scale, value = self._validate_value(value)
        d = value - loc
        return 0.5 - 0.5 * d.sign() * P.expm1(-d.abs() / scale)

    def icdf(self, value):
        loc, scale, value = self._validate_value(value)
        t = value - 0.5
        return loc - scale * t.sign() * P.log1p(-2 * t.abs())

    def sample(self, shape=()):
        with no_grad():
            return self.rsample(tuple(shape))

    def rsample(self, shape=()):
        eps = 2.22045e-16 if dtype_name(self.loc) in ("float64", "complex128") else 1.19209e-07
        ext = list(self._extend_shape(shape))
        u = P.uniform(ext, min=float(np.nextafter(-1, 1)) + eps / 2, max=1.0 - eps / 2,
                      dtype=self.loc.dtype)
        return self.loc - self.scale * u.sign() * P.log1p(-u.abs())

    def kl_divergence(self, other):
        ratio = other.scale / self.scale
        t = P.abs(self.loc - other.loc)
        return (self.scale * P.exp(-t / self.scale) + t) / other.scale + P.log(ratio) - 1


class StudentT(Distribution):
    """Student's t distribution with ``df`` degrees of freedom, ``loc`` and ``scale``."""

    def __init__(self, df, loc, scale, name=None):
        self.name = name if name is not None else "StudentT"
        self.df, self.loc, self.scale = self._broadcast_all(df, loc, scale)
        if not bool((self.df >= 0.0).all()):
            raise ValueError("Every element of input parameter `df` should be nonnegative.")
        if not bool((self.scale >= 0.0).all()):
            raise ValueError("Every element of input parameter `scale` should be nonnegative.")
        self.dtype = self.df.dtype
        super().__init__(self.df.shape)
        self._chi2 = Gamma(0.5 * self.df, P.full_like(self.df, 0.5))

    @property
    def mean(self):
        return P.where(self.df > 1.0, self.loc, P.full_like(self.loc, float("nan")))

    @property
    def variance(self):
        df = self.df.clone().detach()
        var = P.where(self.df > 2.0, self.scale.pow(2) * df / (df - 2),
                      P.full_like(df, float("nan")))
        infinite = (self.df <= 2.0).logical_and(self.df > 1.0)
        return P.where(infinite, P.full_like(var, float("inf")), var)

    def sample(self, shape=()):
        """``loc + scale * z / sqrt(chi2 / df)``: ``z`` from ``normal`` (default dtype), then
        the chi-squared draws, in that order."""
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        z = P.normal(shape=list(self._extend_shape(shape)))
        chi2 = self._chi2.sample(shape)
        return self.loc + self.scale * (z * P.rsqrt(chi2 / self.df))

    def entropy(self):
        df = self.df
        lbeta = P.lgamma(0.5 * df) + math.lgamma(0.5) - P.lgamma(0.5 * (df + 1))
        return (self.scale.log()
                + 0.5 * (df + 1) * (P.digamma(0.5 * (df + 1)) - P.digamma(0.5 * df))
                + 0.5 * df.log() + lbeta)

    def log_prob(self, value):
        value = self._check_values_dtype_in_probs(self.df, value)
        y = (value - self.loc) / self.scale
        z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi)
             + P.lgamma(0.5 * self.df) - P.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * P.log1p(y ** 2.0 / self.df) - z

    def prob(self, value):
        return P.exp(self.log_prob(value))


class ContinuousBernoulli(Distribution):
    """Continuous Bernoulli distribution on [0, 1] with parameter ``probs``; near 0.5 (inside
    ``lims``) the normalising constant and moments use their Taylor expansions."""

    def __init__(self, probs, lims=(0.499, 0.501)):
        self.dtype = _dt.get_default_dtype()
        if isinstance(probs, (float, int)):
            probs = P.to_tensor([probs], dtype=self.dtype)
        else:
            self.dtype = dtype_name(probs)
        self.lims = P.to_tensor(lims, dtype=self.dtype)
        eps = _dt.finfo(probs.dtype).eps
        self.probs = P.clip(probs, min=eps, max=1 - eps)
        super().__init__(self.probs.shape)

    def _outside(self):
        return P.logical_or(P.less_equal(self.probs, self.lims[0]),
                            P.greater_than(self.probs, self.lims[1]))

    def _cut_probs(self):
        return P.where(self._outside(), self.probs, self.lims[0] * P.ones_like(self.probs))

    @staticmethod
    def _atanh(v):
        return 0.5 * (P.log1p(v) - P.log1p(-v))

    def _log_constant(self):
        p = self._cut_probs()
        half = P.to_tensor(0.5, dtype=self.dtype)
        below = P.where(P.less_equal(p, half), p, P.zeros_like(p))
        above = P.where(P.greater_equal(p, half), p, P.ones_like(p))
        exact = (P.log(2.0 * P.abs(self._atanh(1.0 - 2.0 * p)))
                 - P.where(P.less_equal(p, half), P.log1p(-2.0 * below), P.log(2.0 * above - 1.0)))
        x = P.square(self.probs - 0.5)
        taylor = P.log(P.to_tensor(2.0, dtype=self.dtype)) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return P.where(self._outside(), exact, taylor)

    @property
    def mean(self):
        p = self._cut_probs()
        exact = (P.divide(p, 2.0 * p - 1.0)
                 + P.divide(P.to_tensor(1.0, dtype=self.dtype), 2.0 * self._atanh(1.0 - 2.0 * p)))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * P.square(x)) * x
        return P.where(self._outside(), exact, taylor)

    @property
    def variance(self):
        p = self._cut_probs()
        exact = (P.divide(p * (p - 1.0), P.square(1.0 - 2.0 * p))
                 + P.divide(P.to_tensor(1.0, dtype=self.dtype),
                            P.square(P.log1p(-p) - P.log(p))))
        x = P.square(self.probs - 0.5)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return P.where(self._outside(), exact, taylor)

    def sample(self, shape=()):
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        out_shape = list(tuple(shape) + tuple(self.batch_shape))
        return self.icdf(P.uniform(out_shape, dtype=self.dtype, min=0, max=1))

    def log_prob(self, value):
        value = P.cast(value, self.dtype)
        eps = _dt.finfo(self.probs.dtype).eps
        ce = P.nan_to_num(value * P.log(self.probs) + (1.0 - value) * P.log(1 - self.probs),
                          neginf=-eps)
        return self._log_constant() + ce

    def prob(self, value):
        return P.exp(self.log_prob(value))

    def entropy(self):
        log_p = P.log(self.probs)
        log_q = P.log1p(-self.probs)
        return P.where(P.equal(self.probs, P.to_tensor(0.5, dtype=self.dtype)),
                       P.full_like(self.probs, 0.0),
                       -self._log_constant() + self.mean * (log_q - log_p) - log_q)

    def cdf(self, value):
        value = P.cast(value, self.dtype)
        p = self._cut_probs()
        cdfs = (P.pow(p, value) * P.pow(1.0 - p, 1.0 - value) + p - 1.0) / (2.0 * p - 1.0)
        inner = P.where(self._outside(), cdfs, value)
        return P.where(P.less_equal(value, P.to_tensor(0.0, dtype=self.dtype)),
                       P.zeros_like(value),
                       P.where(P.greater_equal(value, P.to_tensor(1.0, dtype=self.dtype)),
                               P.ones_like(value), inner))

    def icdf(self, value):
        value = P.cast(value, self.dtype)
        p = self._cut_probs()
        return P.where(self._outside(),
                       (P.log1p(-p + value * (2.0 * p - 1.0)) - P.log1p(-p))
                       / (P.log(p) - P.log1p(-p)),
                       value)

    def kl_divergence(self, other):
        if self.batch_shape != other.batch_shape:
            raise ValueError("KL divergence of two Continuous Bernoulli distributions should "
                             "share the same `batch_shape`.")
        log_q = P.log(other.probs)
        log_1q = P.log1p(-other.probs)
        return -self.entropy() - (other._log_constant() + self.mean * (log_q - log_1q) + log_1q)
