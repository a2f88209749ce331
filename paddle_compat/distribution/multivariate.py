"""Multivariate families: ``MultivariateNormal`` and ``LKJCholesky``."""
import math
from collections.abc import Sequence

import torch

from .. import ops as P
from ..autograd import no_grad
from ..framework import dtype as _dt
from ..framework.tensor import wrap
from ..nn import functional as F
from ..ops.decomposition import solve, triangular_solve
from ._stdsort import tiled_arange_order
from .continuous import Beta
from .distribution import Distribution, dtype_name

__all__ = ["MultivariateNormal", "LKJCholesky"]


def _half_log_det(tril):
    return tril.diagonal(axis1=-2, axis2=-1).log().sum(-1)


def _mahalanobis(tril, x):
    """``|L^-1 x|^2`` over the last axis, L lower triangular (batch axes broadcast)."""
    L, v = tril._t, x._t
    shape = torch.broadcast_shapes(L.shape[:-2], v.shape[:-1])
    L = L.expand(*shape, *L.shape[-2:])
    v = v.expand(*shape, v.shape[-1]).unsqueeze(-1)
    return wrap(torch.linalg.solve_triangular(L, v, upper=False).squeeze(-1).pow(2).sum(-1))


def _transpose_last(x):
    perm = list(range(x.dim()))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return x.transpose(perm)


def _precision_to_scale_tril(prec):
    """The lower Cholesky factor of ``inverse(prec)`` without forming the inverse."""
    lf = P.cholesky(P.flip(prec, (-2, -1)))
    l_inv = _transpose_last(P.flip(lf, (-2, -1)))
    eye = P.eye(prec.shape[-1], dtype=prec.dtype)
    return triangular_solve(l_inv, eye, upper=False)


class MultivariateNormal(Distribution):
    """Multivariate normal with mean ``loc`` and exactly one of ``covariance_matrix``,
    ``precision_matrix`` or ``scale_tril`` (lower Cholesky factor of the covariance)."""

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None):
        self.dtype = _dt.get_default_dtype()
        if isinstance(loc, (float, int)):
            loc = P.to_tensor([loc], dtype=self.dtype)
        else:
            self.dtype = dtype_name(loc)
        if loc.dim() < 1:
            loc = loc.reshape((1,))
        self.covariance_matrix = self.precision_matrix = self.scale_tril = None
        given = [(n, m) for n, m in (("scale_tril", scale_tril),
                                     ("covariance_matrix", covariance_matrix),
                                     ("precision_matrix", precision_matrix)) if m is not None]
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril "
                             "may be specified.")
        kind, mat = given[0]
        if mat.dim() < 2:
            what = {"scale_tril": "scale_tril matrix",
                    "covariance_matrix": "covariance_matrix",
                    "precision_matrix": "precision_matrix"}[kind]
            raise ValueError(f"{what} must be at least two-dimensional, with optional leading "
                             "batch dimensions")
        mat = P.cast(mat, self.dtype)
        batch_shape = tuple(P.broadcast_shape(list(mat.shape[:-2]), list(loc.shape[:-1])))
        setattr(self, kind, mat.expand([*batch_shape, mat.shape[-2], mat.shape[-1]]))
        self.loc = loc.expand([*batch_shape, -1])
        if kind == "scale_tril":
            self._unbroadcasted_scale_tril = mat
        elif kind == "covariance_matrix":
            self._unbroadcasted_scale_tril = P.cholesky(mat)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(mat)
        super().__init__(batch_shape, self.loc.shape[-1:])

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return P.square(self._unbroadcasted_scale_tril).sum(-1).expand(
            list(self._batch_shape + self._event_shape))

    def sample(self, shape=()):
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        """``loc + L @ eps``, ``eps`` drawn in the default dtype then cast (as Paddle does)."""
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        eps = P.cast(P.normal(shape=list(self._extend_shape(shape))), self.dtype)
        return self.loc + P.matmul(self._unbroadcasted_scale_tril, eps.unsqueeze(-1)).squeeze(-1)

    def log_prob(self, value):
        value = P.cast(value, self.dtype)
        m = _mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        k = self._event_shape[0]
        half_log_det = _half_log_det(self._unbroadcasted_scale_tril)
        return -0.5 * (k * math.log(2 * math.pi) + m) - half_log_det

    def prob(self, value):
        return P.exp(self.log_prob(value))

    def entropy(self):
        k = self._event_shape[0]
        h = 0.5 * k * (1.0 + math.log(2 * math.pi)) + _half_log_det(self._unbroadcasted_scale_tril)
        return h if len(self._batch_shape) == 0 else h.expand(list(self._batch_shape))

    def kl_divergence(self, other):
        if self._batch_shape != other._batch_shape and self._event_shape != other._event_shape:
            raise ValueError("KL divergence of two Multivariate Normal distributions should share "
                             "the same `batch_shape` and `event_shape`.")
        l1, l2 = self._unbroadcasted_scale_tril, other._unbroadcasted_scale_tril
        cov1 = P.matmul(l1, _transpose_last(l1))
        cov2 = P.matmul(l2, _transpose_last(l2))
        trace = solve(cov2, cov1).diagonal(axis1=-2, axis2=-1).sum(-1)
        trace = trace + _mahalanobis(l2, self.loc - other.loc)
        return _half_log_det(l2) - _half_log_det(l1) + 0.5 * (trace - self._event_shape[0])


def _mvlgamma(a, p):
    j = P.arange(1, p + 1, dtype=a.dtype)
    return (p * (p - 1) / 4 * P.log(P.to_tensor(math.pi, dtype=a.dtype))
            + P.sum(P.lgamma(a.unsqueeze(-1) + (1 - j) / 2), axis=-1))


class LKJCholesky(Distribution):
    """LKJ distribution over Cholesky factors of ``dim x dim`` correlation matrices with
    ``concentration``; draws by the onion method (default) or the C-vine method."""

    def __init__(self, dim=2, concentration=1.0, sample_method="onion"):
        if self._validate_args(concentration):
            self.concentration = concentration
            self.dtype = dtype_name(concentration)
        else:
            (self.concentration,) = self._to_tensor(concentration)
            self.dtype = _dt.get_default_dtype()
        self.dim = dim
        if not dim >= 2:
            raise ValueError(f"Expected dim greater than or equal to 2. Found dim={dim}.")
        if not isinstance(dim, int):
            raise TypeError(f"Expected dim to be an integer. Found dim={dim}.")
        if not bool(P.all(self.concentration > 0)):
            raise ValueError("The arg of `concentration` must be positive.")
        self.sample_method = sample_method
        marginal = self.concentration + 0.5 * (dim - 2)
        offset = P.arange(dim - 1, dtype=self.concentration.dtype)
        if sample_method == "onion":
            offset = P.concat([P.zeros((1,), dtype=offset.dtype), offset])
            self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        elif sample_method == "cvine":
            half = P.broadcast_to(0.5 * offset, [dim - 1, dim - 1])
            tril = P.masked_select(half, P.tril(P.ones_like(half)).astype("bool"))
            conc = marginal.unsqueeze(-1) - tril
            self._beta = Beta(conc, conc)
        else:
            raise ValueError("`method` should be one of 'cvine' or 'onion'.")
        super().__init__(self.concentration.shape, (dim, dim))

    def _onion(self, sample_shape):
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u = P.randn(list(self._extend_shape(sample_shape)), dtype=y.dtype).tril(-1)
        u = u / u.norm(axis=-1, keepdim=True)
        zero_row = P.zeros([*tuple(u.shape[:-2]), 1, self.dim], dtype=u.dtype)
        u = P.concat([zero_row, u[..., 1:, :]], axis=-2)
        w = P.sqrt(y) * u
        tiny = _dt.finfo(w.dtype).tiny
        diag = P.clip(1 - P.sum(w ** 2, axis=-1), min=tiny).sqrt()
        return w + P.diag_embed(diag)

    def _cvine(self, sample_shape):
        beta = self._beta.sample(sample_shape).unsqueeze(-1)
        pc = 2 * beta - 1
        n = self.dim
        per = n * (n - 1) // 2
        total = per * math.prod(sample_shape)
        if len(self.concentration.shape) != 0:
            total *= self.concentration.shape[-1]
        flat = pc.reshape([total])._t
        # Paddle scatters draw k to (batch, row, col) of row ``perm[k]`` of the table
        # [(b, strict-lower index t) for t, for b] sorted by b with std::sort (not stable)
        groups = total // per
        perm = torch.from_numpy(tiled_arange_order(groups, per)).to(flat.device)
        rows, cols = torch.tril_indices(n, n, offset=-1, device=flat.device)
        t = perm // groups
        mat = torch.zeros(groups, n, n, dtype=flat.dtype, device=flat.device)
        mat[perm % groups, rows[t], cols[t]] = flat
        r = wrap(mat).reshape([*sample_shape, groups // max(1, math.prod(sample_shape)), n, n])
        tiny = _dt.finfo(beta.dtype).tiny
        r = P.clip(r, min=-1 + tiny, max=1 - tiny)
        keep = P.cumprod(P.sqrt(1 - r ** 2), dim=-1)
        pad = [0, 0] * (keep.ndim - 1) + [1, 0]
        shifted = F.pad(keep[..., :-1], pad=pad, mode="constant", value=1.0)
        r = r + P.eye(n, n)
        return r * shifted

    def sample(self, sample_shape=()):
        if not isinstance(sample_shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        sample_shape = tuple(sample_shape)
        res = self._onion(sample_shape) if self.sample_method == "onion" else \
            self._cvine(sample_shape)
        return res.reshape([*sample_shape, *self.concentration.shape, self.dim, self.dim])

    def log_prob(self, value):
        diag = P.diagonal(value, offset=0, axis1=-1, axis2=-2)[..., 1:]
        order = P.arange(2, self.dim + 1, dtype=self.concentration.dtype)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalised = P.sum(order * P.log(diag), axis=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        norm = 0.5 * dm1 * math.log(math.pi) + _mvlgamma(alpha - 0.5, dm1) - P.lgamma(alpha) * dm1
        return unnormalised - norm
