"""``paddle.nn``: ``Layer`` and the layers (``layer/``), their functional forms
(``functional``), initializers (``initializer``), gradient clipping (``clip``) and ``utils``."""
from . import clip, functional, initializer, quant, utils
from . import layer
from .layer import *  # noqa: F401,F403
from .layer import Layer
from ..framework.parameter import Parameter
from ..framework.param_attr import ParamAttr
from .clip import *  # noqa: F401,F403
