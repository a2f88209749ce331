"""``paddle.sparse.nn``: layers over sparse tensors (point-cloud convolutions, pooling,
batch norm, activations) and ``functional``. The sparse convolutions are built on torch here
(torch has none): see ``functional/_rulebook.py``."""
from . import functional  # noqa: F401  (paddle.sparse.nn.functional)
from .layer import (BatchNorm, Conv2D, Conv3D, LeakyReLU, MaxPool3D, ReLU, ReLU6, Softmax,
                    SubmConv2D, SubmConv3D, SyncBatchNorm)

__all__ = ["Conv2D", "Conv3D", "SubmConv2D", "SubmConv3D", "BatchNorm", "SyncBatchNorm",
           "MaxPool3D", "ReLU", "ReLU6", "LeakyReLU", "Softmax"]
