"""``paddle.autograd``: PyLayer custom operators, ``backward`` and the grad-mode switches."""
from .backward import backward, grad
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled

try:
    from .py_layer import PyLayer, PyLayerContext
    from . import py_layer
except ImportError:          # until the PyLayer module lands
    pass
