"""``paddle.nn``: ``Layer`` and the layers (``layer/``), their functional forms
(``functional``), initializers (``initializer``), gradient clipping (``clip``) and ``utils``."""
from . import clip, functional, init, initializer, quant, utils
from . import layer
from .layer import *  # noqa: F401,F403
from .layer import Layer
from ..framework.parameter import Parameter
from ..framework.param_attr import ParamAttr
from .clip import *  # noqa: F401,F403

# Paddle 3.3's torch-style names of its layers: the same classes
Module, ModuleList, ModuleDict = Layer, LayerList, LayerDict                # noqa: F405
AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d = (                 # noqa: F405
    AdaptiveMaxPool1D, AdaptiveMaxPool2D, AdaptiveMaxPool3D)                # noqa: F405
Conv1d, Conv2d, Conv3d = Conv1D, Conv2D, Conv3D                             # noqa: F405
LPPool1d, LPPool2d = LPPool1D, LPPool2D                                     # noqa: F405
SiLU = Silu                                                                 # noqa: F405
AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d = (                 # noqa: F405
    AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D)                # noqa: F405
MaxUnpool1d, MaxUnpool2d, MaxUnpool3d = MaxUnPool1D, MaxUnPool2D, MaxUnPool3D  # noqa: F405
HuberLoss = SmoothL1Loss                                                    # noqa: F405
UpsamplingBilinear2d, UpsamplingNearest2d = (                               # noqa: F405
    UpsamplingBilinear2D, UpsamplingNearest2D)                              # noqa: F405
ZeroPad1d, ZeroPad2d, ZeroPad3d = ZeroPad1D, ZeroPad2D, ZeroPad3D           # noqa: F405
ConstantPad1d, ConstantPad2d, ConstantPad3d = (                             # noqa: F405
    ConstantPad1D, ConstantPad2D, ConstantPad3D)                            # noqa: F405
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (                       # noqa: F405
    ReflectionPad1D, ReflectionPad2D, ReflectionPad3D)                      # noqa: F405
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (                    # noqa: F405
    ReplicationPad1D, ReplicationPad2D, ReplicationPad3D)                   # noqa: F405
CircularPad1d, CircularPad2d, CircularPad3d = (                             # noqa: F405
    CircularPad1D, CircularPad2D, CircularPad3D)                            # noqa: F405
spectral_norm = utils.spectral_norm

import sys as _sys

from ..ops import registry as _registry

_registry.publish(_sys.modules[__name__])      # torch-style constructor keywords (eps=)
