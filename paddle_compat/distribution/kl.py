"""``kl_divergence(p, q)`` dispatched on the classes of p and q; ``register_kl`` adds a rule.

The most specific registered pair wins (Paddle's rule); when the best match on the left and on
the right differ, a RuntimeWarning says which pair to register."""
import functools
import warnings

from ..autograd import grad as _grad
from .continuous import Beta, Cauchy, ContinuousBernoulli, Dirichlet, Exponential, Gamma, \
    Laplace, Normal, Uniform
from .discrete import Bernoulli, Binomial, Categorical, Geometric, Poisson
from .distribution import Distribution, ExponentialFamily, sum_rightmost
from .multivariate import MultivariateNormal
from .transformed import LogNormal

__all__ = ["register_kl", "kl_divergence"]

_REGISTER_TABLE = {}


def kl_divergence(p, q):
    """KL(p || q); NotImplementedError when no rule covers the pair."""
    return _dispatch(type(p), type(q))(p, q)


def register_kl(cls_p, cls_q):
    """Decorator registering ``f(p, q)`` as the KL divergence of ``cls_p`` from ``cls_q``."""
    if not (isinstance(cls_p, type) and isinstance(cls_q, type)
            and issubclass(cls_p, Distribution) and issubclass(cls_q, Distribution)):
        raise TypeError("cls_p and cls_q must be subclass of Distribution")

    def decorator(f):
        _REGISTER_TABLE[cls_p, cls_q] = f
        return f
    return decorator


@functools.total_ordering
class _Order:
    """Orders registered pairs lexicographically by subclass relation."""

    def __init__(self, *classes):
        self.classes = classes

    def __eq__(self, other):
        return self.classes == other.classes

    def __le__(self, other):
        for a, b in zip(self.classes, other.classes):
            if not issubclass(a, b):
                return False
            if a is not b:
                break
        return True


def _dispatch(cls_p, cls_q):
    matches = [(a, b) for a, b in _REGISTER_TABLE if issubclass(cls_p, a) and issubclass(cls_q, b)]
    if not matches:
        raise NotImplementedError
    left = min(_Order(*m) for m in matches).classes
    right = tuple(reversed(min(_Order(*reversed(m)) for m in matches).classes))
    if _REGISTER_TABLE[left] is not _REGISTER_TABLE[right]:
        warnings.warn(f"Ambiguous kl_divergence({cls_p.__name__}, {cls_q.__name__}). Please "
                      f"register_kl({left[0].__name__}, {right[1].__name__})", RuntimeWarning)
    return _REGISTER_TABLE[left]


def _own_method(p, q):
    return p.kl_divergence(q)


for _cls in (Bernoulli, Binomial, Categorical, Cauchy, ContinuousBernoulli, Normal,
             MultivariateNormal, Uniform, Laplace, Geometric, Exponential, Gamma, Poisson):
    register_kl(_cls, _cls)(_own_method)


@register_kl(Beta, Beta)
def _kl_beta(p, q):
    pa, pb, qa, qb = p.alpha, p.beta, q.alpha, q.beta
    ps, qs = pa + pb, qa + qb
    return (qa.lgamma() + qb.lgamma() + ps.lgamma() - (pa.lgamma() + pb.lgamma() + qs.lgamma())
            + (pa - qa) * pa.digamma() + (pb - qb) * pb.digamma() + (qs - ps) * ps.digamma())


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet(p, q):
    a, b = p.concentration, q.concentration
    a0 = a.sum(-1)
    return (a0.lgamma() - b.sum(-1).lgamma() - (a.lgamma() - b.lgamma()).sum(-1)
            + ((a - b) * (a.digamma() - a0.digamma().unsqueeze(-1))).sum(-1))


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_exponential_family(p, q):
    """The Bregman divergence of the log-normalizer (same family only)."""
    if type(p) is not type(q):
        raise NotImplementedError
    thetas = []
    for t in p._natural_parameters:
        t = t.detach()
        t.stop_gradient = False
        thetas.append(t)
    log_norm = p._log_normalizer(*thetas)
    try:
        grads = _grad(log_norm, thetas, create_graph=True)
    except RuntimeError as e:
        raise TypeError(f"Can't compute kl_divergence({type(p).__name__}, {type(q).__name__}) "
                        f"use bregman divergence. Please register_kl({type(p).__name__}, "
                        f"{type(q).__name__}).") from e
    kl = q._log_normalizer(*q._natural_parameters) - log_norm
    for tp, tq, g in zip(thetas, q._natural_parameters, grads):
        kl = kl - sum_rightmost((tq - tp) * g, len(q.event_shape))
    return kl


@register_kl(LogNormal, LogNormal)
def _kl_lognormal(p, q):
    return p._base.kl_divergence(q._base)
