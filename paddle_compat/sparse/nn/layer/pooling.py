"""``MaxPool3D``: sparse 3-d max pooling (``F.max_pool3d``)."""
from ....nn.layer.layers import Layer
from .. import functional as F

__all__ = ["MaxPool3D"]


class MaxPool3D(Layer):
    """Max pooling of a sparse COO ``[N, D, H, W, C]`` tensor. ``return_mask`` is kept and,
    as in Paddle (whose sparse kernel makes no mask), the forward returns the pooled tensor."""

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False,
                 ceil_mode=False, data_format="NDHWC", name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode = return_mask, ceil_mode
        self.data_format, self.name = data_format, name

    def forward(self, x):
        return F.max_pool3d(x, self.ksize, self.stride, self.padding, self.ceil_mode,
                            self.data_format, self.name)

    def extra_repr(self):
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"
