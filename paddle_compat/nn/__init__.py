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

import sys as _sys

from ..ops import registry as _registry

_registry.publish(_sys.modules[__name__])      # torch-style constructor keywords (eps=)
