"""Convolution layers: ``Conv1D/2D/3D`` (weight ``[out_c, in_c / groups, *k]``, initialised
Normal(0, sqrt(2 / (prod(k) * in_c))) as Paddle does) and ``Conv1D/2D/3DTranspose`` (weight
``[in_c, out_c / groups, *k]``, XavierUniform). Biases start at zero.
"""
import numpy as np

from .. import functional as F
from ..initializer import Normal
from .layers import Layer

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
           "Conv3DTranspose"]

_FORMATS = {"NHWC", "NCHW", "NDHWC", "NCDHW", "NLC", "NCL"}
_PAD_MODES = {"zeros", "reflect", "replicate", "circular"}


def _to_list(v, n, what):
    if isinstance(v, int):
        return [v] * n
    v = list(v)
    if len(v) != n:
        raise ValueError(f"The {what}'s length must be {n}. Received: {v}")
    return v


class _ConvNd(Layer):
    _dims = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 padding_mode="zeros", output_padding=0, dilation=1, groups=1, weight_attr=None,
                 bias_attr=None, data_format="NCHW", device=None, dtype=None):
        super().__init__()
        assert weight_attr is not False, "weight_attr should not be False in Conv."
        dims = self._dims
        self._param_attr, self._bias_attr = weight_attr, bias_attr
        self._groups, self._in_channels, self._out_channels = groups, in_channels, out_channels
        self._data_format, self._device = data_format, device
        self._dtype = dtype         # None: Paddle's default dtype when the weights are made
        if padding_mode not in _PAD_MODES:
            raise ValueError(f"padding_mode must be one of {_PAD_MODES}, but got "
                             f"padding_mode='{padding_mode}'")
        if padding_mode != "zeros" and not isinstance(padding, int):
            raise TypeError("when padding_mode in ['reflect', 'replicate', 'circular'], type of "
                            "padding must be int")
        if data_format not in _FORMATS:
            raise ValueError(f"data_format must be one of {_FORMATS}, but got "
                             f"data_format='{data_format}'")
        self._channel_dim = len(data_format) - 1 if data_format[-1] == "C" else 1
        self._stride = _to_list(stride, dims, "stride")
        self._dilation = _to_list(dilation, dims, "dilation")
        self._kernel_size = _to_list(kernel_size, dims, "kernel_size")
        self._padding, self._padding_mode = padding, padding_mode
        self.output_padding = output_padding
        if self._transposed:
            shape = [in_channels, out_channels // groups, *self._kernel_size]
            default_init = None
        else:
            if in_channels % groups != 0:
                raise ValueError("in_channels must be divisible by groups.")
            if padding_mode != "zeros":
                # F.pad's order: the last spatial axis first, each as (before, after)
                self._reversed_padding_repeated_twice = [padding] * (2 * dims)
            shape = [out_channels, in_channels // groups, *self._kernel_size]
            default_init = Normal(0.0, (2.0 / (np.prod(self._kernel_size) * in_channels)) ** 0.5)
        self.weight = self.create_parameter(shape, weight_attr, self._dtype,
                                            default_initializer=default_init, device=device)
        self.bias = self.create_parameter([out_channels], bias_attr, self._dtype, is_bias=True,
                                          device=device)

    def extra_repr(self):
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * len(self._stride):
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            s += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            s += f", output_padding={self.output_padding}"
        if self._dilation != [1] * len(self._dilation):
            s += f", dilation={self._dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        return s + f", data_format={self._data_format}"


class _Conv(_ConvNd):
    _fn = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, *, bias=True, padding_mode="zeros", device=None, dtype=None,
                 weight_attr=None, bias_attr=None, data_format=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, padding_mode,
                         0, dilation, groups, weight_attr, False if bias is False else bias_attr,
                         data_format or self._default_format, device, dtype)

    def forward(self, x):
        padding = self._padding
        if self._padding_mode != "zeros":
            x = F.pad(x, self._reversed_padding_repeated_twice, mode=self._padding_mode,
                      data_format=self._data_format)
            padding = 0
        return type(self)._fn(x, self.weight, self.bias, self._stride, padding, self._dilation,
                              self._groups, self._data_format)


class Conv1D(_Conv):
    _dims = 1
    _default_format = "NCL"
    _fn = staticmethod(F.conv1d)


class Conv2D(_Conv):
    _dims = 2
    _default_format = "NCHW"
    _fn = staticmethod(F.conv2d)


class Conv3D(_Conv):
    _dims = 3
    _default_format = "NCDHW"
    _fn = staticmethod(F.conv3d)


class _ConvTranspose(_ConvNd):
    _transposed = True
    _fn = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, "zeros",
                         output_padding, dilation, groups, weight_attr, bias_attr,
                         data_format or self._default_format)

    def forward(self, x, output_size=None):
        output_padding = self.output_padding if output_size is None else 0
        return type(self)._fn(x, self.weight, self.bias, self._stride, self._padding,
                              output_padding, groups=self._groups, dilation=self._dilation,
                              output_size=output_size, data_format=self._data_format)


class Conv1DTranspose(_ConvTranspose):
    _dims = 1
    _default_format = "NCL"
    _fn = staticmethod(F.conv1d_transpose)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, dilation=1, weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding,
                         output_padding, dilation, groups, weight_attr, bias_attr, data_format)

    def forward(self, x, output_size=None):
        # Paddle's Conv1DTranspose keeps output_padding even with an output_size
        return F.conv1d_transpose(x, self.weight, self.bias, self._stride, self._padding,
                                  self.output_padding, self._groups, self._dilation,
                                  output_size, self._data_format)


class Conv2DTranspose(_ConvTranspose):
    _dims = 2
    _default_format = "NCHW"
    _fn = staticmethod(F.conv2d_transpose)


class Conv3DTranspose(_ConvTranspose):
    _dims = 3
    _default_format = "NCDHW"
    _fn = staticmethod(F.conv3d_transpose)
