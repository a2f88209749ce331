"""Distributions built from others: ``TransformedDistribution`` (a base pushed through
transforms), ``Independent`` (batch axes read as event axes) and the two families Paddle defines
that way, ``LogNormal`` and ``Gumbel``."""
import math
import numbers
from collections.abc import Sequence

import numpy as np

from .. import ops as P
from ..autograd import no_grad
from ..framework.tensor import Tensor
from .continuous import Normal, Uniform
from .distribution import Distribution, sum_rightmost
from .transform import ChainTransform, ExpTransform, Transform

__all__ = ["TransformedDistribution", "Independent", "LogNormal", "Gumbel"]


class Independent(Distribution):
    """``base`` with its ``reinterpreted_batch_rank`` rightmost batch axes made event axes:
    ``log_prob`` and ``entropy`` sum over them."""

    def __init__(self, base, reinterpreted_batch_rank):
        if not isinstance(base, Distribution):
            raise TypeError(f"Expected type of 'base' is Distribution, but got {type(base)}")
        if not 0 < reinterpreted_batch_rank <= len(base.batch_shape):
            raise ValueError(f"Expected 0 < reinterpreted_batch_rank <= {len(base.batch_shape)},"
                             f" but got {reinterpreted_batch_rank}")
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        shape = tuple(base.batch_shape) + tuple(base.event_shape)
        cut = len(base.batch_shape) - reinterpreted_batch_rank
        super().__init__(batch_shape=shape[:cut], event_shape=shape[cut:])

    @property
    def mean(self):
        return self._base.mean

    @property
    def variance(self):
        return self._base.variance

    def sample(self, shape=()):
        return self._base.sample(shape)

    def log_prob(self, value):
        return sum_rightmost(self._base.log_prob(value), self._reinterpreted_batch_rank)

    def prob(self, value):
        return self.log_prob(value).exp()

    def entropy(self):
        return sum_rightmost(self._base.entropy(), self._reinterpreted_batch_rank)

    def _sum_rightmost(self, value, n):
        return sum_rightmost(value, n)


class TransformedDistribution(Distribution):
    """The distribution of ``transforms`` (applied in order) of draws from ``base``."""

    def __init__(self, base, transforms):
        if not isinstance(base, Distribution):
            raise TypeError(f"Expected type of 'base' is Distribution, but got {type(base)}.")
        if not isinstance(transforms, Sequence):
            raise TypeError("Expected type of 'transforms' is Sequence[Transform] or Chain, but "
                            f"got {type(transforms)}.")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("All element of transforms must be Transform type.")
        chain = ChainTransform(transforms)
        base_shape = tuple(base.batch_shape) + tuple(base.event_shape)
        self._base = base
        self._transforms = transforms
        if not transforms:
            super().__init__(base.batch_shape, base.event_shape)
            return
        if len(base_shape) < chain._domain.event_rank:
            raise ValueError(f"'base' needs to have shape with size at least "
                             f"{chain._domain.event_rank}, bug got {len(base_shape)}.")
        event_rank = len(base.event_shape)
        if chain._domain.event_rank > event_rank:
            event_rank = chain._domain.event_rank      # read as Independent(base, ...)
        shape = chain.forward_shape(base_shape)
        rank = chain._codomain.event_rank + max(event_rank - chain._domain.event_rank, 0)
        super().__init__(shape[:len(shape) - rank], shape[len(shape) - rank:])

    def sample(self, shape=()):
        x = self._base.sample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def rsample(self, shape=()):
        x = self._base.rsample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def log_prob(self, value):
        """Change of variables through the inverses of the transforms."""
        result = 0.0
        y = value
        rank = len(self.event_shape)
        for t in reversed(self._transforms):
            x = t.inverse(y)
            rank += t._domain.event_rank - t._codomain.event_rank
            result = result - sum_rightmost(t.forward_log_det_jacobian(x),
                                            rank - t._domain.event_rank)
            y = x
        result += sum_rightmost(self._base.log_prob(y), rank - len(self._base.event_shape))
        return result


Transform._transformed_class = TransformedDistribution


class LogNormal(TransformedDistribution):
    """``exp`` of a Normal(``loc``, ``scale``) variable."""

    def __init__(self, loc, scale):
        self._base = Normal(loc=loc, scale=scale)
        self.loc = self._base.loc
        self.scale = self._base.scale
        super().__init__(self._base, [ExpTransform()])

    @property
    def mean(self):
        return P.exp(self._base.mean + self._base.variance / 2)

    @property
    def variance(self):
        return P.expm1(self._base.variance) * P.exp(2 * self._base.mean + self._base.variance)

    def entropy(self):
        return self._base.entropy() + self._base.mean

    def probs(self, value):
        return P.exp(self.log_prob(value))

    def kl_divergence(self, other):
        return self._base.kl_divergence(other._base)


def _real_scalar(v, name):
    if isinstance(v, Tensor):
        return v
    if isinstance(v, numbers.Real):
        return P.full([], v)
    raise TypeError(f"Expected type of {name} is Real|Variable|Value, but got {type(v)}")


class Gumbel(TransformedDistribution):
    """Gumbel distribution with ``loc`` and ``scale``: ``loc - scale * log(-log(U))``."""

    def __init__(self, loc, scale):
        loc = _real_scalar(loc, "loc")
        scale = _real_scalar(scale, "scale")
        if tuple(loc.shape) != tuple(scale.shape):
            loc, scale = P.broadcast_tensors([loc, scale])
        self.loc, self.scale = loc, scale
        f32 = np.finfo(np.float32)
        self.base_dist = Uniform(P.full_like(self.loc, float(f32.tiny)),
                                 P.full_like(self.loc, float(1 - f32.eps)))
        self.transforms = ()
        super().__init__(self.base_dist, self.transforms)

    @property
    def mean(self):
        return self.loc + self.scale * np.euler_gamma

    @property
    def variance(self):
        pi2 = P.full(self.loc.shape, math.pi * math.pi, dtype=self.scale.dtype)
        return P.pow(self.scale, 2) * pi2 / 6

    @property
    def stddev(self):
        return P.sqrt(self.variance)

    def prob(self, value):
        y = (self.loc - value.astype(self.loc.dtype)) / self.scale.astype(self.loc.dtype)
        return P.exp(y - P.exp(y)) / self.scale.astype(y.dtype)

    def log_prob(self, value):
        return P.log(self.prob(value))

    def cdf(self, value):
        return P.exp(-P.exp(-(value - self.loc.astype(value.dtype))
                            / self.scale.astype(value.dtype)))

    def entropy(self):
        return P.log(self.scale) + 1 + np.euler_gamma

    def sample(self, shape=()):
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        u = self._base.sample(shape)
        return self.loc + (-self.scale) * (-u.log()).log()
