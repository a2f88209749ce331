"""Transforms: invertible (or not) maps with their log-det-Jacobians and the shapes and event
ranks they act on, for ``TransformedDistribution``."""
import enum
import math
import operator
from collections.abc import Sequence
from functools import reduce

from .. import ops as P
from ..framework.tensor import Tensor
from ..nn import functional as F
from .distribution import Distribution

__all__ = ["Transform", "AbsTransform", "AffineTransform", "ChainTransform", "ExpTransform",
           "IndependentTransform", "PowerTransform", "ReshapeTransform", "SigmoidTransform",
           "SoftmaxTransform", "StackTransform", "StickBreakingTransform", "TanhTransform"]


class Type(enum.Enum):
    """What kind of map a transform is."""
    BIJECTION = "bijection"
    INJECTION = "injection"
    SURJECTION = "surjection"
    OTHER = "other"

    @classmethod
    def is_injective(cls, t):
        return t in (cls.BIJECTION, cls.INJECTION)


# ------------------------------------------------------------ domains: event rank + constraint
class _Constraint:
    def __call__(self, value):
        raise NotImplementedError

    def check(self, value):
        return self(value)


class _RealC(_Constraint):
    def __call__(self, value):
        return value == value


class _PositiveC(_Constraint):
    def __call__(self, value):
        return value >= 0.0


class _RangeC(_Constraint):
    def __init__(self, lower, upper):
        self._lower, self._upper = lower, upper

    def __call__(self, value):
        return (self._lower <= value) & (value <= self._upper)


class _SimplexC(_Constraint):
    def __call__(self, value):
        return P.all(value >= 0, axis=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class Variable:
    """A random variable's domain: discrete or not, its event rank, its constraint."""

    def __init__(self, is_discrete=False, event_rank=0, constraint=None):
        self._is_discrete = is_discrete
        self._event_rank = event_rank
        self._constraint = constraint

    @property
    def is_discrete(self):
        return self._is_discrete

    @property
    def event_rank(self):
        return self._event_rank

    def constraint(self, value):
        return self._constraint.check(value)


class _IndependentVar(Variable):
    def __init__(self, base, reinterpreted_batch_rank):
        self._base = base
        self._rank = reinterpreted_batch_rank
        super().__init__(base.is_discrete, base.event_rank + reinterpreted_batch_rank)

    def constraint(self, value):
        ret = self._base.constraint(value)
        if ret.dim() < self._rank:
            raise ValueError(f"Input dimensions must be equal or grater than  {self._rank}")
        return ret.reshape(tuple(ret.shape[:ret.dim() - self._rank]) + (-1,)).all(-1)


class _StackVar(Variable):
    def __init__(self, variables, axis=0):
        self._vars = variables
        self._axis = axis

    @property
    def is_discrete(self):
        return any(v.is_discrete for v in self._vars)

    @property
    def event_rank(self):
        rank = max(v.event_rank for v in self._vars)
        return rank + 1 if self._axis + rank < 0 else rank


real = Variable(False, 0, _RealC())
positive = Variable(False, 0, _PositiveC())


def _sum_rightmost(value, n):
    return value.sum(list(range(-n, 0))) if n > 0 else value


def _need_tensor(v, what, rank=None):
    """Paddle's checks of a transform's argument: a Tensor, of at least ``rank`` dims."""
    if not isinstance(v, Tensor):
        raise TypeError(f"Expected '{what}' is a Tensor or Real, but got {type(v)}.")
    if rank is not None and v.dim() < rank:
        raise ValueError(f"The dimensions of {what}({v.dim()}) should be grater than or equal "
                         f"to {rank}")


class Transform:
    """Base class: ``forward``/``inverse`` with their log-det-Jacobians, ``forward_shape``/
    ``inverse_shape``; calling a transform on a Distribution gives a TransformedDistribution,
    on a Transform a ChainTransform, on a Tensor its forward value."""
    _type = Type.INJECTION

    def __init__(self):
        super().__init__()

    @classmethod
    def _is_injective(cls):
        return Type.is_injective(cls._type)

    # set by transformed.py (which imports this module): the class ``self(distribution)`` makes
    _transformed_class = None

    def __call__(self, input):
        if isinstance(input, Distribution):
            return Transform._transformed_class(input, [self])
        if isinstance(input, Transform):
            return ChainTransform([self, input])
        return self.forward(input)

    def forward(self, x):
        _need_tensor(x, "x", self._domain.event_rank)
        return self._forward(x)

    def inverse(self, y):
        _need_tensor(y, "y", self._codomain.event_rank)
        return self._inverse(y)

    def forward_log_det_jacobian(self, x):
        _need_tensor(x, "x", self._domain.event_rank)
        if not self._is_injective():
            raise NotImplementedError("forward_log_det_jacobian can't be implemented for "
                                      "non-injective transforms.")
        return self._call_forward_log_det_jacobian(x)

    def inverse_log_det_jacobian(self, y):
        _need_tensor(y, "y", self._codomain.event_rank)
        return self._call_inverse_log_det_jacobian(y)

    def forward_shape(self, shape):
        if not isinstance(shape, Sequence):
            raise TypeError(f"Expected shape is Sequence[int] type, but got {type(shape)}.")
        return self._forward_shape(shape)

    def inverse_shape(self, shape):
        if not isinstance(shape, Sequence):
            raise TypeError(f"Expected shape is Sequence[int] type, but got {type(shape)}.")
        return self._inverse_shape(shape)

    @property
    def _domain(self):
        return real

    @property
    def _codomain(self):
        return real

    def _forward(self, x):
        raise NotImplementedError("Forward not implemented")

    def _inverse(self, y):
        raise NotImplementedError("Inverse not implemented")

    def _call_forward_log_det_jacobian(self, x):
        if hasattr(self, "_forward_log_det_jacobian"):
            return self._forward_log_det_jacobian(x)
        if hasattr(self, "_inverse_log_det_jacobian"):
            return -self._inverse_log_det_jacobian(self.forward(x))
        raise NotImplementedError("Neither _forward_log_det_jacobian nor "
                                  "_inverse_log_det_jacobian is implemented. One of them is "
                                  "required.")

    def _call_inverse_log_det_jacobian(self, y):
        if hasattr(self, "_inverse_log_det_jacobian"):
            return self._inverse_log_det_jacobian(y)
        if hasattr(self, "_forward_log_det_jacobian"):
            return -self._forward_log_det_jacobian(self._inverse(y))
        raise NotImplementedError("Neither _forward_log_det_jacobian nor "
                                  "_inverse_log_det_jacobian is implemented. One of them is "
                                  "required")

    def _forward_shape(self, shape):
        return shape

    def _inverse_shape(self, shape):
        return shape


class AbsTransform(Transform):
    """``y = |x|`` (not injective: ``inverse`` gives both preimages ``(-y, y)``)."""
    _type = Type.SURJECTION

    def _forward(self, x):
        return x.abs()

    def _inverse(self, y):
        return -y, y

    def _inverse_log_det_jacobian(self, y):
        zero = P.zeros([], dtype=y.dtype)
        return zero, zero

    @property
    def _codomain(self):
        return positive


class AffineTransform(Transform):
    """``y = loc + scale * x``."""
    _type = Type.BIJECTION

    def __init__(self, loc, scale):
        if not isinstance(loc, Tensor):
            raise TypeError(f"Expected 'loc' is a Tensor, but got {type(loc)}")
        if not isinstance(scale, Tensor):
            raise TypeError(f"Expected scale is a Tensor, but got {type(scale)}")
        self._loc, self._scale = loc, scale
        super().__init__()

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _forward(self, x):
        return self._loc + self._scale * x

    def _inverse(self, y):
        return (y - self._loc) / self._scale

    def _forward_log_det_jacobian(self, x):
        return P.abs(self._scale).log()

    def _forward_shape(self, shape):
        return tuple(P.broadcast_shape(P.broadcast_shape(list(shape), list(self._loc.shape)),
                                       list(self._scale.shape)))

    _inverse_shape = _forward_shape


class ChainTransform(Transform):
    """The composition of ``transforms``, applied first to last."""

    def __init__(self, transforms):
        if not isinstance(transforms, Sequence):
            raise TypeError(f"Expected type of 'transforms' is Sequence, but got "
                            f"{type(transforms)}")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("All elements of transforms should be Transform type.")
        self.transforms = transforms
        super().__init__()

    def _is_injective(self):
        return all(t._is_injective() for t in self.transforms)

    def _forward(self, x):
        for t in self.transforms:
            x = t.forward(x)
        return x

    def _inverse(self, y):
        for t in reversed(self.transforms):
            y = t.inverse(y)
        return y

    def _forward_log_det_jacobian(self, x):
        value = 0.0
        rank = self._domain.event_rank
        for t in self.transforms:
            value += _sum_rightmost(t.forward_log_det_jacobian(x), rank - t._domain.event_rank)
            x = t.forward(x)
            rank += t._codomain.event_rank - t._domain.event_rank
        return value

    def _forward_shape(self, shape):
        for t in self.transforms:
            shape = t.forward_shape(shape)
        return shape

    def _inverse_shape(self, shape):
        for t in self.transforms:
            shape = t.inverse_shape(shape)
        return shape

    def _sum_rightmost(self, value, n):
        return _sum_rightmost(value, n)

    @property
    def _domain(self):
        domain = self.transforms[0]._domain
        rank = self.transforms[-1]._codomain.event_rank
        for t in reversed(self.transforms):
            rank = max(rank - (t._codomain.event_rank - t._domain.event_rank),
                       t._domain.event_rank)
        return _IndependentVar(domain, rank - domain.event_rank)

    @property
    def _codomain(self):
        codomain = self.transforms[-1]._codomain
        rank = self.transforms[0]._domain.event_rank
        for t in self.transforms:
            rank = max(rank + (t._codomain.event_rank - t._domain.event_rank),
                       t._codomain.event_rank)
        return _IndependentVar(codomain, rank - codomain.event_rank)


class ExpTransform(Transform):
    """``y = exp(x)``."""
    _type = Type.BIJECTION

    @property
    def _codomain(self):
        return positive

    def _forward(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def _forward_log_det_jacobian(self, x):
        return x


class IndependentTransform(Transform):
    """``base`` with its ``reinterpreted_batch_rank`` rightmost batch axes made event axes
    (their log-det-Jacobians summed)."""

    def __init__(self, base, reinterpreted_batch_rank):
        if not isinstance(base, Transform):
            raise TypeError(f"Expected 'base' is Transform type, but get {type(base)}")
        if reinterpreted_batch_rank <= 0:
            raise ValueError("Expected 'reinterpreted_batch_rank' is grater than zero, but got "
                             f"{reinterpreted_batch_rank}")
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        super().__init__()

    def _is_injective(self):
        return self._base._is_injective()

    def _forward(self, x):
        if x.dim() < self._domain.event_rank:
            raise ValueError("Input dimensions is less than event dimensions.")
        return self._base.forward(x)

    def _inverse(self, y):
        if y.dim() < self._codomain.event_rank:
            raise ValueError("Input dimensions is less than event dimensions.")
        return self._base.inverse(y)

    def _forward_log_det_jacobian(self, x):
        return self._base.forward_log_det_jacobian(x).sum(
            list(range(-self._reinterpreted_batch_rank, 0)))

    def _forward_shape(self, shape):
        return self._base.forward_shape(shape)

    def _inverse_shape(self, shape):
        return self._base.inverse_shape(shape)

    @property
    def _domain(self):
        return _IndependentVar(self._base._domain, self._reinterpreted_batch_rank)

    @property
    def _codomain(self):
        return _IndependentVar(self._base._codomain, self._reinterpreted_batch_rank)


class PowerTransform(Transform):
    """``y = x ** power``."""
    _type = Type.BIJECTION

    def __init__(self, power):
        if not isinstance(power, Tensor):
            raise TypeError(f"Expected 'power' is a tensor, but got {type(power)}")
        self._power = power
        super().__init__()

    @property
    def power(self):
        return self._power

    @property
    def _codomain(self):
        return positive

    def _forward(self, x):
        return x.pow(self._power)

    def _inverse(self, y):
        return y.pow(1 / self._power)

    def _forward_log_det_jacobian(self, x):
        return (self._power * x.pow(self._power - 1)).abs().log()

    def _forward_shape(self, shape):
        return tuple(P.broadcast_shape(list(shape), list(self._power.shape)))

    _inverse_shape = _forward_shape


class ReshapeTransform(Transform):
    """Reshapes the event part of the shape from ``in_event_shape`` to ``out_event_shape``."""
    _type = Type.BIJECTION

    def __init__(self, in_event_shape, out_event_shape):
        if not isinstance(in_event_shape, Sequence) or not isinstance(out_event_shape, Sequence):
            raise TypeError("Expected type of 'in_event_shape' and 'out_event_shape' is "
                            f"Sequence[int], but got 'in_event_shape': {in_event_shape}, "
                            f"'out_event_shape': {out_event_shape}")
        n_in = reduce(operator.mul, in_event_shape, 1)
        n_out = reduce(operator.mul, out_event_shape, 1)
        if n_in != n_out:
            raise ValueError("The numel of 'in_event_shape' should be 'out_event_shape', but got "
                             f"{n_in}!={n_out}")
        self._in_event_shape = tuple(in_event_shape)
        self._out_event_shape = tuple(out_event_shape)
        super().__init__()

    @property
    def in_event_shape(self):
        return self._in_event_shape

    @property
    def out_event_shape(self):
        return self._out_event_shape

    @property
    def _domain(self):
        return _IndependentVar(real, len(self._in_event_shape))

    @property
    def _codomain(self):
        return _IndependentVar(real, len(self._out_event_shape))

    def _forward(self, x):
        return x.reshape(tuple(x.shape)[:x.dim() - len(self._in_event_shape)]
                         + self._out_event_shape)

    def _inverse(self, y):
        return y.reshape(tuple(y.shape)[:y.dim() - len(self._out_event_shape)]
                         + self._in_event_shape)

    @staticmethod
    def _swap(shape, src, dst):
        if len(shape) < len(src):
            raise ValueError(f"Expected length of 'shape' is not less than {len(src)}, but got "
                             f"{len(shape)}")
        if tuple(shape[-len(src):]) != tuple(src):
            raise ValueError(f"Event shape mismatch, expected: {src}, but got "
                             f"{shape[-len(src):]}")
        return tuple(shape[:-len(src)]) + dst

    def _forward_shape(self, shape):
        return self._swap(shape, self._in_event_shape, self._out_event_shape)

    def _inverse_shape(self, shape):
        return self._swap(shape, self._out_event_shape, self._in_event_shape)

    def _forward_log_det_jacobian(self, x):
        return P.zeros(list(x.shape[:x.dim() - len(self._in_event_shape)]), dtype=x.dtype)


class SigmoidTransform(Transform):
    """``y = sigmoid(x)``."""

    @property
    def _codomain(self):
        return Variable(False, 0, _RangeC(0.0, 1.0))

    def _forward(self, x):
        return F.sigmoid(x)

    def _inverse(self, y):
        return y.log() - (-y).log1p()

    def _forward_log_det_jacobian(self, x):
        return -F.softplus(-x) - F.softplus(x)


class SoftmaxTransform(Transform):
    """``y = softmax(x)`` over the last axis (not injective; ``inverse`` is ``log``)."""
    _type = Type.OTHER

    @property
    def _domain(self):
        return _IndependentVar(real, 1)

    @property
    def _codomain(self):
        return Variable(False, 1, _SimplexC())

    def _forward(self, x):
        x = (x - x.max(-1, keepdim=True)[0]).exp()
        return x / x.sum(-1, keepdim=True)

    def _inverse(self, y):
        return y.log()

    def _forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError(f"Expected length of shape is grater than 1, but got {len(shape)}")
        return shape

    _inverse_shape = _forward_shape


class StackTransform(Transform):
    """Applies ``transforms[i]`` to slice ``i`` along ``axis``."""

    def __init__(self, transforms, axis=0):
        if not transforms or not isinstance(transforms, Sequence):
            raise TypeError(f"Expected 'transforms' is Sequence[Transform], but got "
                            f"{type(transforms)}.")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("Expected all element in transforms is Transform Type.")
        if not isinstance(axis, int):
            raise TypeError(f"Expected 'axis' is int, but got{type(axis)}.")
        self._transforms = transforms
        self._axis = axis

    def _is_injective(self):
        return all(t._is_injective() for t in self._transforms)

    @property
    def transforms(self):
        return self._transforms

    @property
    def axis(self):
        return self._axis

    def _map(self, v, fn):
        self._check_size(v)
        return P.stack([fn(t, s) for s, t in zip(P.unstack(v, self._axis), self._transforms)],
                       self._axis)

    def _forward(self, x):
        return self._map(x, lambda t, s: t.forward(s))

    def _inverse(self, y):
        return self._map(y, lambda t, s: t.inverse(s))

    def _forward_log_det_jacobian(self, x):
        return self._map(x, lambda t, s: t.forward_log_det_jacobian(s))

    def _check_size(self, v):
        if not -v.dim() <= self._axis < v.dim():
            raise ValueError(f"Input dimensions {v.dim()} should be grater than stack transform "
                             f"axis {self._axis}.")
        if v.shape[self._axis] != len(self._transforms):
            raise ValueError(f"Input size along {self._axis} should be equal to the length of "
                             "transforms.")

    @property
    def _domain(self):
        return _StackVar([t._domain for t in self._transforms], self._axis)

    @property
    def _codomain(self):
        return _StackVar([t._codomain for t in self._transforms], self._axis)


class StickBreakingTransform(Transform):
    """Maps R^K to the (K+1)-simplex by stick breaking."""
    _type = Type.BIJECTION

    @staticmethod
    def _offset_log(n):
        return (n + 1 - P.ones([n]).cumsum(-1)).log()

    def _forward(self, x):
        z = F.sigmoid(x - self._offset_log(x.shape[-1]))
        rest = (1 - z).cumprod(-1)
        lead = [0] * 2 * (len(x.shape) - 1)
        return F.pad(z, lead + [0, 1], value=1) * F.pad(rest, lead + [1, 0], value=1)

    def _inverse(self, y):
        head = y[..., :-1]
        offset = y.shape[-1] - P.ones([head.shape[-1]]).cumsum(-1)
        return head.log() - (1 - head.cumsum(-1)).log() + offset.log()

    def _forward_log_det_jacobian(self, x):
        y = self.forward(x)
        x = x - self._offset_log(x.shape[-1])
        return (-x + F.log_sigmoid(x) + y[..., :-1].log()).sum(-1)

    def _forward_shape(self, shape):
        if not shape:
            raise ValueError(f"Expected 'shape' is not empty, but got {shape}")
        return (*shape[:-1], shape[-1] + 1)

    def _inverse_shape(self, shape):
        if not shape:
            raise ValueError(f"Expected 'shape' is not empty, but got {shape}")
        return (*shape[:-1], shape[-1] - 1)

    @property
    def _domain(self):
        return _IndependentVar(real, 1)

    @property
    def _codomain(self):
        return Variable(False, 1, _SimplexC())


class TanhTransform(Transform):
    """``y = tanh(x)``."""
    _type = Type.BIJECTION

    @property
    def _codomain(self):
        return Variable(False, 0, _RangeC(-1.0, 1.0))

    def _forward(self, x):
        return x.tanh()

    def _inverse(self, y):
        return y.atanh()

    def _forward_log_det_jacobian(self, x):
        return 2.0 * (math.log(2.0) - x - F.softplus(-2.0 * x))
