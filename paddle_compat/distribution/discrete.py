"""Discrete families: Bernoulli, Binomial, Categorical, Geometric, Multinomial, Poisson.

Bernoulli, Categorical, Multinomial, Geometric and Poisson draw from Paddle's CPU stream through
our bit-exact ``bernoulli``/``multinomial``/``uniform``/``poisson``; Binomial draws with torch's
generator (``paddle_compat.binomial``): its values are valid binomial draws, not Paddle's."""
import numbers
from collections.abc import Iterable, Sequence

import numpy as np

from .. import ops as P
from ..autograd import no_grad
from ..framework import dtype as _dt
from ..framework.tensor import Tensor
from ..nn import functional as F
from .distribution import Distribution, ExponentialFamily, dtype_name

__all__ = ["Bernoulli", "Binomial", "Categorical", "Geometric", "Multinomial", "Poisson"]

_TINY32 = float(np.finfo(np.float32).tiny)


class Bernoulli(ExponentialFamily):
    """Bernoulli distribution: 1 with probability ``probs`` (clipped to [eps, 1 - eps])."""

    def __init__(self, probs, name=None):
        self.name = name or "Bernoulli"
        if self._validate_args(probs):
            self.dtype = dtype_name(probs)
        else:
            (probs,) = self._to_tensor(probs)
            self.dtype = _dt.get_default_dtype()
        eps = _dt.finfo(self.dtype).eps
        self.probs = P.clip(probs, min=eps, max=1 - eps).astype(self.dtype)
        self.logits = self._probs_to_logits(self.probs, is_binary=True)
        super().__init__(batch_shape=self.probs.shape, event_shape=())

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return P.multiply(self.probs, 1 - self.probs)

    def sample(self, shape=()):
        ext = list(self._extend_shape(tuple(shape)))
        with no_grad():
            return P.bernoulli(self.probs.expand(ext))

    def rsample(self, shape=(), temperature=1.0):
        """The relaxed (Gumbel-softmax, binary) draw in logit space: ``(logit(u) +
        logits) / temperature``."""
        ext = list(self._extend_shape(tuple(shape)))
        t = P.full([], temperature, dtype=self.dtype)
        p = self.probs.expand(ext)
        u = P.rand(ext, dtype=self.dtype)
        return P.divide(P.add(P.subtract(u.log(), (-u).log1p()),
                              P.subtract(p.log(), (-p).log1p())), t)

    def cdf(self, value):
        value = self._check_values_dtype_in_probs(self.probs, value)
        probs, value = P.broadcast_tensors([self.probs, value])
        zeros, ones = P.zeros_like(probs), P.ones_like(probs)
        return P.where(value < 0, zeros, P.where(value < 1, P.subtract(ones, probs), ones))

    def log_prob(self, value):
        value = self._check_values_dtype_in_probs(self.probs, value)
        logits, value = P.broadcast_tensors([self.logits, value])
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def prob(self, value):
        return self.log_prob(value).exp()

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def kl_divergence(self, other):
        a, b = self.logits, other.logits
        pa, qa = F.sigmoid(a), F.sigmoid(-a)
        return ((-F.softplus(-a)) * pa - (-F.softplus(-b)) * pa
                + ((-F.softplus(a)) * qa - (-F.softplus(b)) * qa))


class Binomial(Distribution):
    """Binomial distribution: successes in ``total_count`` trials of probability ``probs``."""

    def __init__(self, total_count, probs):
        self.dtype = _dt.get_default_dtype()
        if isinstance(probs, float):
            probs = P.to_tensor(probs, dtype=self.dtype)
        else:
            self.dtype = dtype_name(probs)
        if isinstance(total_count, int):
            total_count = P.to_tensor(total_count, dtype=self.dtype)
        else:
            total_count = P.cast(total_count, self.dtype)
        self.total_count, self.probs = P.broadcast_tensors([total_count, probs])
        super().__init__(self.total_count.shape)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, shape=()):
        """Draws (torch's generator, not Paddle's stream) of shape ``shape + batch_shape``."""
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        out_shape = list(tuple(shape) + tuple(self.batch_shape))
        with no_grad():
            n = P.broadcast_to(self.total_count, out_shape)
            p = P.broadcast_to(self.probs, out_shape)
            return P.cast(P.binomial(P.cast(n, "int32"), p), self.dtype)

    def _enumerate_support(self):
        values = P.arange(1 + P.max(self.total_count), dtype=self.dtype)
        return values.reshape((-1,) + (1,) * len(self.batch_shape))

    def entropy(self):
        lp = self.log_prob(self._enumerate_support())
        return -(P.exp(lp) * lp).sum(0)

    def log_prob(self, value):
        value = P.cast(value, self.dtype)
        n = self.total_count
        log_comb = P.lgamma(n + 1.0) - P.lgamma(n - value + 1.0) - P.lgamma(value + 1.0)
        eps = _dt.finfo(self.probs.dtype).eps
        p = P.clip(self.probs, min=eps, max=1 - eps)
        return P.nan_to_num(log_comb + value * P.log(p) + (n - value) * P.log(1 - p), neginf=-eps)

    def prob(self, value):
        return P.exp(self.log_prob(value))

    def kl_divergence(self, other):
        support = self._enumerate_support()
        a, b = self.log_prob(support), other.log_prob(support)
        return P.multiply(P.exp(a), P.subtract(a, b)).sum(0)


class Categorical(Distribution):
    """Categorical distribution over the last axis of ``logits``.

    As in Paddle, ``sample``, ``entropy`` and ``kl_divergence`` read ``logits`` as logits
    (softmax), while ``probs``/``log_prob`` read them as unnormalised probabilities
    (``logits / logits.sum(-1)``)."""

    def __init__(self, logits, name=None):
        self.name = name if name is not None else "Categorical"
        self.dtype = "float32"
        if self._validate_args(logits):
            self.logits = logits
            self.dtype = dtype_name(logits)
        else:
            if isinstance(logits, np.ndarray) and str(logits.dtype) in ("float32", "float64"):
                self.dtype = str(logits.dtype)
            self.logits = self._to_tensor(logits)[0]
            if self.dtype != "float32":
                self.logits = P.cast(self.logits, self.dtype)
        self._prob = self.logits / P.sum(self.logits, axis=-1, keepdim=True)

    def sample(self, shape=()):
        """Category indices (int64) of shape ``shape + logits.shape[:-1]``."""
        shape = list(shape)
        n = int(np.prod(np.array(shape)))
        lshape = list(self.logits.shape)
        logits = self.logits
        if len(lshape) > 1:
            out_shape = shape + lshape[:-1]
            logits = P.reshape(logits, [int(np.prod(lshape[:-1])), lshape[-1]])
        else:
            out_shape = shape
        idx = P.multinomial(self._logits_to_probs(logits), n, True)
        perm = list(range(idx.dim()))
        perm.insert(0, perm.pop(-1))
        return P.reshape(idx.transpose(perm), out_shape)

    def _normalised(self, logits):
        logits = logits - P.max(logits, axis=-1, keepdim=True)
        e = P.exp(logits)
        z = P.sum(e, axis=-1, keepdim=True)
        return logits, e / z, z

    def kl_divergence(self, other):
        """KL divergence (keeps the last axis, size 1, as Paddle does)."""
        a, prob, za = self._normalised(self.logits)
        b, _, zb = other._normalised(other.logits)
        return P.sum(prob * (a - P.log(za) - b + P.log(zb)), axis=-1, keepdim=True)

    def entropy(self):
        a, prob, z = self._normalised(self.logits)
        return P.scale(P.sum(prob * (a - P.log(z)), axis=-1), scale=-1.0)

    def probs(self, value):
        """Probabilities of the category indices ``value``."""
        if len(self._prob.shape) == 1:
            return P.gather(self._prob, value.reshape([-1])).reshape(value.shape)
        if len(value.shape) == 1:
            return P.take_along_axis(
                self._prob, P.reshape(value, (len(self._prob.shape) - 1) * [1] + [-1]), axis=-1)
        return P.take_along_axis(self._prob, value, axis=-1)

    def log_prob(self, value):
        return P.log(self.probs(value))


class Geometric(Distribution):
    """Geometric distribution: failures before the first success of probability ``probs``
    (support 0, 1, 2, ...)."""

    def __init__(self, probs):
        if isinstance(probs, numbers.Real):
            probs = P.full([], probs, dtype="float32")
        elif not isinstance(probs, Tensor):
            raise TypeError("Expected type of probs is Number.Real|Tensor|framework.Variable|"
                            f"Value, but got {type(probs)}")
        self.probs = probs
        super().__init__(tuple(probs.shape))

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def variance(self):
        """A copy outside the graph (Paddle builds it with ``to_tensor``)."""
        return P.to_tensor((1.0 / self.probs - 1.0) / self.probs, dtype=self.probs.dtype)

    @property
    def stddev(self):
        return P.sqrt(self.variance)

    @staticmethod
    def _k(k):
        if not isinstance(k, (numbers.Integral, Tensor)):
            raise TypeError(f"Expected type of k is number.Real|framework.Variable|Value, but got "
                            f"{type(k)}")

    def pmf(self, k):
        self._k(k)
        return P.pow(1.0 - self.probs, k) * self.probs

    def log_pmf(self, k):
        self._k(k)
        return P.log(self.pmf(k))

    def sample(self, shape=()):
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        ext = list(self._extend_shape(shape))
        u = P.uniform(ext, min=_TINY32, max=1.0, dtype=self.probs.dtype)
        return P.floor(P.log(u) / P.log1p(-self.probs))

    def entropy(self):
        p = self.probs
        return -((1.0 - p) * P.log(1.0 - p) + p * P.log(p)) / p

    def cdf(self, k):
        self._k(k)
        return 1.0 - P.pow(1.0 - self.probs, k + 1)

    def kl_divergence(self, other):
        if not isinstance(other, Geometric):
            raise TypeError(f"Exacted type of other is geometric.Geometric, but got {type(other)}")
        p, q = self.probs, other.probs
        return p * P.log(p / q) + (1.0 - p) * P.log((1.0 - p) / (1.0 - q))


class Multinomial(Distribution):
    """Multinomial distribution: counts of ``total_count`` categorical draws with ``probs``
    (normalised along the last axis)."""

    def __init__(self, total_count, probs):
        if not isinstance(total_count, int) or total_count < 1:
            raise ValueError("input parameter total_count must be int type and grater than zero.")
        if probs.dim() < 1:
            raise ValueError("probs parameter should not be none and over one dimension")
        self.probs = probs / probs.sum(-1, keepdim=True)
        self.total_count = total_count
        self._categorical = Categorical(logits=self._probs_to_logits(probs))
        super().__init__(probs.shape[:-1], probs.shape[-1:])

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def prob(self, value):
        return P.exp(self.log_prob(value))

    def log_prob(self, value):
        if P.is_integer(value):
            value = P.cast(value, self.probs.dtype)
        logits, value = P.broadcast_tensors([P.log(self.probs), value])
        logits = P.where((value == 0) & P.isinf(logits), P.zeros_like(logits), logits)
        return (P.lgamma(value.sum(-1) + 1) - P.lgamma(value + 1).sum(-1)
                + (value * logits).sum(-1))

    def sample(self, shape=()):
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        idx = self._categorical.sample([self.total_count, *list(shape)])
        return F.one_hot(idx, self.probs.shape[-1]).cast(self.probs.dtype).sum(0)

    def entropy(self):
        n = P.full([], self.total_count, dtype=self.probs.dtype)
        support = P.arange(self.total_count + 1, dtype=self.probs.dtype).reshape(
            (-1,) + (1,) * len(self.probs.shape))[1:]
        pmf = P.exp(self._binomial_logpmf(n, support))
        return (n * self._categorical.entropy() - P.lgamma(n + 1)
                + (pmf * P.lgamma(support + 1)).sum([0, -1]))

    def _binomial_logpmf(self, count, value):
        logits = self._probs_to_logits(self.probs, is_binary=True)
        half_abs = (logits.clip(min=0) + logits - logits.clip(max=0)) / 2
        norm = (count * half_abs + count * P.log1p(P.exp(-P.abs(logits)))
                - P.lgamma(count + 1))
        return value * logits - P.lgamma(value + 1) - P.lgamma(count - value + 1) - norm


class Poisson(Distribution):
    """Poisson distribution with ``rate``."""

    def __init__(self, rate):
        self.dtype = _dt.get_default_dtype()
        if isinstance(rate, (float, int)):
            rate = P.to_tensor([rate], dtype=self.dtype)
        else:
            self.dtype = dtype_name(rate)
        self.rate = rate
        super().__init__(self.rate.shape)

    @property
    def mean(self):
        return self.rate

    @property
    def variance(self):
        return self.rate

    def sample(self, shape=()):
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        out_shape = list(tuple(shape) + tuple(self.batch_shape))
        with no_grad():
            return P.poisson(P.broadcast_to(self.rate, out_shape))

    def _support(self, rate):
        """0 .. max(rate + 30 sqrt(max rate)) (30 instead of the sqrt below rate 1)."""
        top = P.max(rate)
        if bool(P.greater_equal(top, P.to_tensor(1.0, dtype=self.dtype))):
            s = P.sqrt(top)
        else:
            s = P.ones_like(rate, dtype=self.dtype)
        upper = P.max(P.cast(rate + 30 * s, "int32"))
        return P.arange(0, upper, dtype=self.dtype)

    def entropy(self):
        values = self._support(self.rate).reshape((-1,) + (1,) * len(self.batch_shape))
        lp = self.log_prob(values)
        mask = P.cast(P.not_equal(self.rate, P.to_tensor(0.0, dtype=self.dtype)), self.dtype)
        return P.multiply(-(P.exp(lp) * lp).sum(0), mask)

    def log_prob(self, value):
        value = P.cast(value, self.dtype)
        eps = _dt.finfo(self.rate.dtype).eps
        return P.nan_to_num(-self.rate + value * P.log(self.rate) - P.lgamma(value + 1),
                            neginf=-eps)

    def prob(self, value):
        return P.exp(self.log_prob(value))

    def kl_divergence(self, other):
        if self.batch_shape != other.batch_shape:
            raise ValueError("KL divergence of two poisson distributions should share the same "
                             "`batch_shape`.")
        top = P.max(self._support(P.max(P.maximum(self.rate, other.rate))))
        support = P.arange(0, top, dtype=self.dtype).reshape(
            (-1,) + (1,) * len(self.batch_shape))
        a, b = self.log_prob(support), other.log_prob(support)
        return (P.exp(a) * (a - b)).sum(0)
