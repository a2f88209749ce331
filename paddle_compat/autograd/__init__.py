"""``paddle.autograd``: PyLayer custom operators, ``backward`` and the grad-mode switches."""
from . import py_layer
from .backward import backward, grad
from .functional import hessian, jacobian
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .py_layer import PyLayer, PyLayerContext, once_differentiable
from .saved_hooks import saved_tensors_hooks

# Paddle 3's torch-style name for PyLayer (the same class)
Function = PyLayer
