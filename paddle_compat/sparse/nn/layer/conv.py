"""Sparse convolution layers: ``Conv3D``, ``SubmConv3D``, ``Conv2D``, ``SubmConv2D``.

Parameters as Paddle names and shapes them: ``weight`` ``[*kernel_size, in_channels,
out_channels]`` drawn from Normal(0, sqrt(2 / (in_channels * prod(kernel_size)))), ``bias``
``[out_channels]`` of zeros (none with ``bias_attr=False``)."""
import math

from ....nn.initializer import Normal
from ....nn.layer.layers import Layer
from .. import functional as F
from ..functional._common import ntuple

__all__ = ["Conv3D", "SubmConv3D", "Conv2D", "SubmConv2D"]


class _SparseConv(Layer):
    _nd = 3
    _subm = False
    _format = "NDHWC"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, padding_mode="zeros", key=None, weight_attr=None,
                 bias_attr=None, data_format=None, backend=None):
        super().__init__()
        nd = self._nd
        data_format = self._format if data_format is None else data_format
        assert groups == 1, "Currently, only support groups=1"
        if data_format != self._format:
            raise ValueError(f"Currently, only support '{self._format}'")
        if padding_mode != "zeros":
            raise ValueError(f"The padding_mode of sparse convolution must be 'zeros', got "
                             f"'{padding_mode}'")
        if backend not in (None, "igemm"):
            raise ValueError(f"backend must be None or 'igemm', got {backend!r}")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = ntuple(kernel_size, nd, "kernel_size")
        self._stride = ntuple(stride, nd, "stride")
        self._dilation = ntuple(dilation, nd, "dilation")
        self._padding = padding
        self._groups = groups
        self._padding_mode = padding_mode
        self._key = key
        self._backend = backend
        self._data_format = data_format
        std = (2.0 / (in_channels * math.prod(self._kernel_size))) ** 0.5
        self.weight = self.create_parameter(
            [*self._kernel_size, in_channels, out_channels], attr=weight_attr,
            default_initializer=Normal(0.0, std))
        self.bias = None if bias_attr is False else self.create_parameter(
            [out_channels], attr=bias_attr, is_bias=True)

    def forward(self, x):
        args = (x, self.weight, self.bias, self._stride, self._padding, self._dilation,
                self._groups, self._data_format)
        nd = self._nd
        if not self._subm:
            return (F.conv3d if nd == 3 else F.conv2d)(*args)
        if self._backend == "igemm":
            f = F.subm_conv3d_igemm if nd == 3 else F.subm_conv2d_igemm
        else:
            f = F.subm_conv3d if nd == 3 else F.subm_conv2d
        return f(*args, key=self._key)

    def extra_repr(self):
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * self._nd:
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            s += f", padding_mode={self._padding_mode}"
        if self._dilation != [1] * self._nd:
            s += f", dilation={self._dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        return s + f", data_format={self._data_format}"


class Conv3D(_SparseConv):
    """Sparse 3-d convolution of a COO ``[N, D, H, W, C]`` tensor (``F.conv3d``)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NDHWC"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, None, weight_attr, bias_attr, data_format)


class SubmConv3D(_SparseConv):
    """Submanifold sparse 3-d convolution (``F.subm_conv3d``; ``backend='igemm'`` runs
    ``F.subm_conv3d_igemm``); ``key`` shares the rulebook with other layers of that key."""

    _subm = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, padding_mode="zeros", key=None, weight_attr=None,
                 bias_attr=None, data_format="NDHWC", backend=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, key, weight_attr, bias_attr, data_format,
                         backend)


class Conv2D(_SparseConv):
    """Sparse 2-d convolution of a COO ``[N, H, W, C]`` tensor (``F.conv2d``)."""

    _nd = 2
    _format = "NHWC"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NHWC"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, None, weight_attr, bias_attr, data_format)


class SubmConv2D(_SparseConv):
    """Submanifold sparse 2-d convolution (``F.subm_conv2d``)."""

    _nd = 2
    _format = "NHWC"
    _subm = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, padding_mode="zeros", key=None, weight_attr=None,
                 bias_attr=None, data_format="NHWC", backend=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, key, weight_attr, bias_attr, data_format,
                         backend)
