"""The layers of ``paddle.sparse.nn``."""
from .activation import LeakyReLU, ReLU, ReLU6, Softmax
from .conv import Conv2D, Conv3D, SubmConv2D, SubmConv3D
from .norm import BatchNorm, SyncBatchNorm
from .pooling import MaxPool3D

__all__ = ["Conv2D", "Conv3D", "SubmConv2D", "SubmConv3D", "BatchNorm", "SyncBatchNorm",
           "MaxPool3D", "ReLU", "ReLU6", "LeakyReLU", "Softmax"]
