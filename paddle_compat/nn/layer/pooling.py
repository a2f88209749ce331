"""Pooling layers: ``MaxPool1D/2D/3D``, ``AvgPool1D/2D/3D``, ``LPPool1D/2D``,
``AdaptiveAvgPool1D/2D/3D``, ``AdaptiveMaxPool1D/2D/3D``, ``MaxUnPool1D/2D/3D``. Each keeps
its settings and calls the functional form.
"""
import warnings

from .. import functional as F
from .layers import Layer

__all__ = ["MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
           "LPPool1D", "LPPool2D", "AdaptiveAvgPool1D", "AdaptiveAvgPool2D",
           "AdaptiveAvgPool3D", "AdaptiveMaxPool1D", "AdaptiveMaxPool2D", "AdaptiveMaxPool3D",
           "MaxUnPool1D", "MaxUnPool2D", "MaxUnPool3D", "FractionalMaxPool2D",
           "FractionalMaxPool3D"]


class _Pool(Layer):
    def extra_repr(self):
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class _MaxPool(_Pool):
    _fn = None
    _default_format = None

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format=None, name=None):
        super().__init__()
        self.ksize = self.kernel_size = kernel_size
        self.stride, self.padding, self.return_mask = stride, padding, return_mask
        self.ceil_mode, self.name = ceil_mode, name
        self.data_format = data_format or self._default_format

    def forward(self, x):
        return type(self)._fn(x, self.ksize, self.stride, self.padding, self.return_mask,
                              self.ceil_mode, self.data_format)


class MaxPool1D(_MaxPool):
    _default_format = "NCL"

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 name=None):
        super().__init__(kernel_size, stride, padding, return_mask, ceil_mode, None, name)

    def forward(self, x):                 # max_pool1d takes no data_format
        return F.max_pool1d(x, self.ksize, self.stride, self.padding, self.return_mask,
                            self.ceil_mode)


class MaxPool2D(_MaxPool):
    _default_format = "NCHW"
    _fn = staticmethod(F.max_pool2d)


class MaxPool3D(_MaxPool):
    _default_format = "NCDHW"
    _fn = staticmethod(F.max_pool3d)


class _AvgPool(_Pool):
    _fn = None
    _default_format = None

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format=None, name=None):
        super().__init__()
        self.ksize = self.kernel_size = kernel_size
        self.stride, self.padding, self.ceil_mode = stride, padding, ceil_mode
        self.exclusive, self.divisor = exclusive, divisor_override
        self.data_format, self.name = data_format or self._default_format, name

    def forward(self, x):
        return type(self)._fn(x, self.ksize, self.stride, self.padding, self.ceil_mode,
                              self.exclusive, self.divisor, self.data_format)


class AvgPool1D(_AvgPool):
    _default_format = "NCL"

    def __init__(self, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
                 name=None):
        super().__init__(kernel_size, stride, padding, ceil_mode, exclusive, None, None, name)

    def forward(self, x):
        return F.avg_pool1d(x, self.ksize, self.stride, self.padding, self.exclusive,
                            self.ceil_mode)


class AvgPool2D(_AvgPool):
    _default_format = "NCHW"
    _fn = staticmethod(F.avg_pool2d)


class AvgPool3D(_AvgPool):
    _default_format = "NCDHW"
    _fn = staticmethod(F.avg_pool3d)


class _LPPool(_Pool):
    _fn = None

    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
                 data_format=None, name=None):
        super().__init__()
        self.norm_type, self.ksize = norm_type, kernel_size
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.name = ceil_mode, name
        self.data_format = data_format or self._default_format

    def forward(self, x):
        return type(self)._fn(x, self.norm_type, self.ksize, self.stride, self.padding,
                              self.ceil_mode, self.data_format)

    def extra_repr(self):
        return f"norm_type={self.norm_type}, " + super().extra_repr()


class LPPool1D(_LPPool):
    _default_format = "NCL"
    _fn = staticmethod(F.lp_pool1d)


class LPPool2D(_LPPool):
    _default_format = "NCHW"
    _fn = staticmethod(F.lp_pool2d)


class _AdaptiveAvgPool(Layer):
    _fn = None
    _default_format = None

    def __init__(self, output_size, data_format=None, name=None):
        super().__init__()
        self._output_size = output_size
        self._data_format, self._name = data_format or self._default_format, name

    @property
    def output_size(self):
        return self._output_size

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._data_format)

    def extra_repr(self):
        return f"output_size={self._output_size}"


class AdaptiveAvgPool1D(_AdaptiveAvgPool):
    def __init__(self, output_size, name=None):
        super().__init__(output_size, "NCL", name)

    def forward(self, x):
        return F.adaptive_avg_pool1d(x, self._output_size)


class AdaptiveAvgPool2D(_AdaptiveAvgPool):
    _default_format = "NCHW"
    _fn = staticmethod(F.adaptive_avg_pool2d)


class AdaptiveAvgPool3D(_AdaptiveAvgPool):
    _default_format = "NCDHW"
    _fn = staticmethod(F.adaptive_avg_pool3d)


class _AdaptiveMaxPool(Layer):
    _fn = None

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__()
        self._output_size, self._return_mask, self._name = output_size, return_mask, name

    @property
    def output_size(self):
        return self._output_size

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._return_mask)

    def extra_repr(self):
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class AdaptiveMaxPool1D(_AdaptiveMaxPool):
    _fn = staticmethod(F.adaptive_max_pool1d)


class AdaptiveMaxPool2D(_AdaptiveMaxPool):
    _fn = staticmethod(F.adaptive_max_pool2d)


class AdaptiveMaxPool3D(_AdaptiveMaxPool):
    _fn = staticmethod(F.adaptive_max_pool3d)


class _MaxUnPool(Layer):
    _fn = None
    _default_format = None

    def __init__(self, kernel_size, stride=None, padding=0, data_format=None, output_size=None,
                 name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.data_format = data_format or self._default_format
        self.output_size, self.name = output_size, name

    def forward(self, x, indices, output_size=None):
        """Unpools x; an ``output_size`` given here wins over the constructor's (a warning
        says so, as in Paddle)."""
        if output_size:
            warnings.warn("output_size in forward overrides output_size in __init__. The "
                          "output_size parameter in forward has higher priority.", stacklevel=2)
        else:
            output_size = self.output_size
        return type(self)._fn(x, indices, self.ksize, self.stride, self.padding,
                              self.data_format, output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class MaxUnPool1D(_MaxUnPool):
    _default_format = "NCL"
    _fn = staticmethod(F.max_unpool1d)


class MaxUnPool2D(_MaxUnPool):
    _default_format = "NCHW"
    _fn = staticmethod(F.max_unpool2d)


class MaxUnPool3D(_MaxUnPool):
    _default_format = "NCDHW"
    _fn = staticmethod(F.max_unpool3d)


class _FractionalMaxPool(Layer):
    """Fractional max pooling to ``output_size`` (F.fractional_max_pool2d/3d). The windows
    follow Paddle's pseudo-random sequence for ``random_u`` in (0, 1); with None each call
    draws u from the global CPU generator as Paddle does (one 64-bit draw, so after the same
    ``paddle.seed`` the windows, and the rest of the stream, match Paddle's)."""

    _fn = None

    def __init__(self, output_size, kernel_size=None, random_u=None, return_mask=False,
                 name=None):
        super().__init__()
        self._output_size, self._kernel_size = output_size, kernel_size
        self._random_u, self._return_mask, self._name = random_u, return_mask, name

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._kernel_size, self._random_u,
                              self._return_mask)

    def extra_repr(self):
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class FractionalMaxPool2D(_FractionalMaxPool):
    _fn = staticmethod(F.fractional_max_pool2d)


class FractionalMaxPool3D(_FractionalMaxPool):
    _fn = staticmethod(F.fractional_max_pool3d)
