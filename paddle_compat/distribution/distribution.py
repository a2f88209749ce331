"""The base classes: ``Distribution`` (shapes, the argument conversions every family shares) and
``ExponentialFamily`` (entropy from the log-normalizer by automatic differentiation)."""
import warnings

import numpy as np

from .. import ops as P
from ..autograd import grad as _grad
from ..framework import dtype as _dt
from ..framework.tensor import Tensor
from ..nn import functional as F

__all__ = ["Distribution", "ExponentialFamily"]

_ARG_TYPES = (float, list, tuple, np.ndarray, Tensor)


def _check_arg_types(args):
    for a in args:
        if not isinstance(a, _ARG_TYPES):
            raise TypeError("Type of input args must be float, list, tuple, numpy.ndarray or "
                            f"Tensor, but received type {type(a)}")


def dtype_name(x):
    """``'float32'`` for a Tensor, a numpy array, a paddle or numpy dtype."""
    if isinstance(x, Tensor):
        x = x.dtype
    if isinstance(x, np.ndarray):
        return str(x.dtype)
    if isinstance(x, np.dtype):
        return str(x)
    return _dt.convert_dtype(x).name


def sum_rightmost(value, n):
    """``value`` summed over its ``n`` last axes."""
    return value.sum(list(range(-n, 0))) if n > 0 else value


class Distribution:
    """What every distribution has: a batch shape (independent, differently parametrised
    draws) and an event shape (the shape of one draw), and the methods a family fills in."""

    def __init__(self, batch_shape=(), event_shape=()):
        self._batch_shape = tuple(batch_shape)
        self._event_shape = tuple(event_shape)
        super().__init__()

    @property
    def batch_shape(self):
        """The shape of the batch of distributions (a tuple)."""
        return self._batch_shape

    @property
    def event_shape(self):
        """The shape of one draw (a tuple)."""
        return self._event_shape

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def variance(self):
        raise NotImplementedError

    def sample(self, shape=()):
        raise NotImplementedError

    def rsample(self, shape=()):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def kl_divergence(self, other):
        raise NotImplementedError

    def prob(self, value):
        """Density (or mass) at ``value``: ``exp(log_prob(value))``."""
        return self.log_prob(value).exp()

    def log_prob(self, value):
        raise NotImplementedError

    def probs(self, value):
        raise NotImplementedError

    # --------------------------------------------------------------- shared helpers
    def _extend_shape(self, sample_shape):
        return tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape)

    def _validate_args(self, *args):
        """True when the arguments are Tensors; a mix of Tensors and numbers is a ValueError."""
        tensors = [isinstance(a, Tensor) for a in args]
        if any(tensors) and not all(tensors):
            raise ValueError("if one argument is Tensor, all arguments should be Tensor")
        return bool(tensors) and all(tensors)

    def _to_tensor(self, *args):
        """Numbers, lists and arrays as float32 Tensors broadcast to one shape (Paddle goes
        through float32 whatever the input's precision; other dtypes warn first)."""
        _check_arg_types(args)
        arrays = []
        for a in args:
            arr = np.array(a)
            if arr.dtype not in (np.float32, np.float64):
                warnings.warn("data type of argument only support float32 and float64, your "
                              "argument will be convert to float32.")
            arrays.append(arr.astype(np.float32))
        arrays = np.broadcast_arrays(*arrays)
        return tuple(P.to_tensor(np.array(a), dtype="float32") for a in arrays)

    def _check_values_dtype_in_probs(self, param, value):
        if P.is_complex(param):
            return value.astype(param.dtype)
        if value.dtype != param.dtype and dtype_name(value) in ("float32", "float64"):
            warnings.warn("dtype of input 'value' needs to be the same as parameters of "
                          "distribution class. dtype of 'value' will be converted.")
            return P.cast(value, param.dtype)
        return value

    def _probs_to_logits(self, probs, is_binary=False):
        return P.log(probs) - P.log1p(-probs) if is_binary else P.log(probs)

    def _logits_to_probs(self, logits, is_binary=False):
        return F.sigmoid(logits) if is_binary else F.softmax(logits, axis=-1)

    def _broadcast_all(self, *args):
        """Numbers and sequences as Tensors of the first Tensor argument's dtype (else the
        default dtype), all broadcast together."""
        _check_arg_types(args)
        if all(isinstance(a, Tensor) for a in args):
            return tuple(P.broadcast_tensors(list(args)))
        dtype = next((a.dtype for a in args if isinstance(a, Tensor)), _dt.get_default_dtype())
        ts = [a if isinstance(a, Tensor) else P.to_tensor(a, dtype=dtype) for a in args]
        return tuple(P.broadcast_tensors(ts))


class ExponentialFamily(Distribution):
    """A distribution whose density is ``exp(<t(x), theta> - F(theta) + k(x))``; subclasses give
    ``_natural_parameters`` (theta), ``_log_normalizer`` (F) and ``_mean_carrier_measure``
    (E[k(x)]); the entropy is ``F(theta) - <theta, grad F(theta)> - E[k(x)]``."""

    @property
    def _natural_parameters(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_parameters):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        result = -self._mean_carrier_measure
        thetas = []
        for p in self._natural_parameters:
            p = p.detach()
            p.stop_gradient = False
            thetas.append(p)
        log_norm = self._log_normalizer(*thetas)
        grads = _grad(log_norm.sum(), thetas, create_graph=True)
        result = result + log_norm
        for p, g in zip(thetas, grads):
            result = result - p * g
        return result
