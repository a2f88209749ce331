"""Activation layers: each holds its functional's settings and calls it.

Most are one ``_Activation`` subclass naming the functional and its settings with defaults, in
the functional's argument order; the repr is Paddle's ``k=v, ..., name=...`` (or ``name=...``
alone, or nothing).
"""
from ...framework import dtype as _dt
from .. import functional as F
from ..initializer import Constant
from .layers import Layer

__all__ = ["ReLU", "ReLU6", "GELU", "Silu", "Swish", "Mish", "Sigmoid", "Hardsigmoid",
           "Hardswish", "Tanh", "Tanhshrink", "Softsign", "LogSigmoid", "LeakyReLU", "ELU",
           "CELU", "SELU", "Hardtanh", "Hardshrink", "Softshrink", "Softplus",
           "ThresholdedReLU", "GLU", "Softmax", "LogSoftmax", "Softmax2D", "PReLU", "Maxout",
           "RReLU"]


class _Activation(Layer):
    _fn = None
    _params = ()      # ((attribute, default), ...) in the functional's order

    def __init__(self, *args, name=None, **kwargs):
        super().__init__()
        names = [k for k, _ in self._params]
        if len(args) > len(names):        # the last positional may be ``name``
            args, name = args[:len(names)], args[len(names)]
        values = dict(self._params)
        values.update(zip(names, args))
        for k, v in kwargs.items():
            if k not in values:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument "
                                f"'{k}'")
            values[k] = v
        for k in names:
            self.__dict__["_" + k] = values[k]
        self._name = name

    def forward(self, x):
        args = [self.__dict__["_" + k] for k, _ in self._params]
        if self._name:          # names the output in a static program, as in Paddle
            return type(self)._fn(x, *args, name=self._name)
        return type(self)._fn(x, *args)

    def extra_repr(self):
        parts = [f"{k}={self.__dict__['_' + k]}" for k, _ in self._params]
        if self._name:
            parts.append(f"name={self._name}")
        return ", ".join(parts)


class ReLU(_Activation):
    """max(x, 0)"""
    _fn = staticmethod(F.relu)


class ReLU6(_Activation):
    """min(max(x, 0), 6)"""
    _fn = staticmethod(F.relu6)


class Sigmoid(_Activation):
    _fn = staticmethod(F.sigmoid)


class Hardsigmoid(_Activation):
    _fn = staticmethod(F.hardsigmoid)


class Hardswish(_Activation):
    _fn = staticmethod(F.hardswish)


class Tanh(_Activation):
    _fn = staticmethod(F.tanh)


class Tanhshrink(_Activation):
    _fn = staticmethod(F.tanhshrink)


class Softsign(_Activation):
    _fn = staticmethod(F.softsign)


class Swish(_Activation):
    _fn = staticmethod(F.swish)


class Mish(_Activation):
    _fn = staticmethod(F.mish)


class LogSigmoid(_Activation):
    _fn = staticmethod(F.log_sigmoid)


class LeakyReLU(_Activation):
    _fn = staticmethod(F.leaky_relu)
    _params = (("negative_slope", 0.01),)


class ELU(_Activation):
    _fn = staticmethod(F.elu)
    _params = (("alpha", 1.0),)


class CELU(_Activation):
    _fn = staticmethod(F.celu)
    _params = (("alpha", 1.0),)


class GELU(_Activation):
    _fn = staticmethod(F.gelu)
    _params = (("approximate", False),)


class Hardtanh(_Activation):
    _fn = staticmethod(F.hardtanh)
    _params = (("min", -1.0), ("max", 1.0))


class Hardshrink(_Activation):
    _fn = staticmethod(F.hardshrink)
    _params = (("threshold", 0.5),)


class Softshrink(_Activation):
    _fn = staticmethod(F.softshrink)
    _params = (("threshold", 0.5),)


class Softplus(_Activation):
    _fn = staticmethod(F.softplus)
    _params = (("beta", 1), ("threshold", 20))


class ThresholdedReLU(_Activation):
    _fn = staticmethod(F.thresholded_relu)
    _params = (("threshold", 1.0), ("value", 0.0))


class GLU(_Activation):
    _fn = staticmethod(F.glu)
    _params = (("axis", -1),)


class Softmax(_Activation):
    _fn = staticmethod(F.softmax)
    _params = (("axis", -1),)


class LogSoftmax(_Activation):
    _fn = staticmethod(F.log_softmax)
    _params = (("axis", -1),)


class SELU(_Activation):
    _fn = staticmethod(F.selu)
    _params = (("scale", 1.0507009873554804934193349852946),
               ("alpha", 1.6732632423543772848170429916717))

    def extra_repr(self):
        return (f"scale={self._scale:.16f}, alpha={self._alpha:.16f}"
                + (f", name={self._name}" if self._name else ""))


class Silu(Layer):
    """x * sigmoid(x)."""

    def __init__(self, inplace=False, name=None):
        super().__init__()
        self._inplace, self._name = inplace, name

    def forward(self, x):
        return F.silu(x)

    def extra_repr(self):
        return f"inplace={self._inplace}" + (f", name={self._name}" if self._name else "")


class Softmax2D(Layer):
    """Softmax over the channel axis of a 3-D or 4-D input."""

    def __init__(self, name=None):
        super().__init__()
        self._dtype, self._name = None, name

    def forward(self, x):
        assert x.ndim in (3, 4), \
            f"Softmax2D requires a 3D or 4D tensor as input. Received: {x.ndim}D."
        return F.softmax(x, axis=-3)

    def extra_repr(self):
        return f"name={self._name}" if self._name else ""


class PReLU(Layer):
    """max(0, x) + weight * min(0, x), with ``num_parameters`` learnt slopes (init 0.25)."""

    def __init__(self, num_parameters=1, init=0.25, weight_attr=None, data_format="NCHW",
                 name=None):
        super().__init__()
        self._num_parameters, self._init, self._weight_attr = num_parameters, init, weight_attr
        self._name, self._data_format = name, data_format
        self._weight = self.create_parameter([num_parameters], weight_attr,
                                             _dt.default_float().name,
                                             default_initializer=Constant(init))

    def forward(self, x):
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self):
        return (f"num_parameters={self._num_parameters}, data_format={self._data_format}, "
                f"init={self._init}, dtype={self._dtype}"
                + (f", name={self._name}" if self._name else ""))


class Maxout(_Activation):
    """Max over runs of ``groups`` channels along ``axis``."""
    _fn = staticmethod(F.maxout)
    _params = (("groups", None), ("axis", 1))


class RReLU(_Activation):
    """Randomised leaky ReLU: random slopes in [lower, upper) in training, their mean in eval."""
    _params = (("lower", 1.0 / 8.0), ("upper", 1.0 / 3.0))

    def forward(self, x):
        return F.rrelu(x, self._lower, self._upper, training=self.training)
