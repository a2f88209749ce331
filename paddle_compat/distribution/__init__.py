"""``paddle.distribution``: probability distributions, transforms and KL divergences, with
Paddle 3.3.1's classes, argument names, dtype rules, sample shapes and exception types.

Formulas are Paddle's, computed with our ops; draws compose our bit-exact CPU random ops in the
order Paddle's code calls them, so after ``paddle.seed(s)`` samples equal Paddle's on the CPU
(Normal, Uniform, Exponential, Gamma, Chi2, Beta, Dirichlet, Cauchy, Laplace, Gumbel, LogNormal,
StudentT, ContinuousBernoulli, Bernoulli, Categorical, Multinomial, Geometric, Poisson,
MultivariateNormal, LKJCholesky). ``Binomial.sample`` uses torch's generator (Paddle's binomial
kernel is not reproduced); so does every draw on CUDA.
"""
from . import continuous, discrete, distribution, kl, multivariate, transform, transformed
from .continuous import *  # noqa: F401,F403
from .discrete import *  # noqa: F401,F403
from .distribution import *  # noqa: F401,F403
from .kl import *  # noqa: F401,F403
from .multivariate import *  # noqa: F401,F403
from .transform import *  # noqa: F401,F403
from .transformed import *  # noqa: F401,F403

__all__ = (continuous.__all__ + discrete.__all__ + distribution.__all__ + kl.__all__
           + multivariate.__all__ + transform.__all__ + transformed.__all__)
