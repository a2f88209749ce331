"""Sparse activation layers: ``ReLU``, ``ReLU6``, ``LeakyReLU``, ``Softmax``."""
from ....nn.layer.layers import Layer
from .. import functional as F

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "Softmax"]


class ReLU(Layer):
    """``F.relu`` of a sparse COO/CSR tensor."""

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.relu(x, self._name)


class ReLU6(Layer):
    """``F.relu6`` of a sparse COO/CSR tensor."""

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.relu6(x, self._name)


class LeakyReLU(Layer):
    """``F.leaky_relu`` of a sparse COO/CSR tensor."""

    def __init__(self, negative_slope=0.01, name=None):
        super().__init__()
        self._negative_slope = negative_slope
        self._name = name

    def forward(self, x):
        return F.leaky_relu(x, self._negative_slope, self._name)


class Softmax(Layer):
    """``F.softmax``: softmax over the stored values of each row."""

    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = axis
        self._name = name

    def forward(self, x):
        return F.softmax(x, self._axis, self._name)
