"""``paddle.sparse``: sparse COO and CSR tensors on torch's own sparse layouts.

A sparse tensor is a ``paddle_compat.Tensor`` wrapping a torch sparse COO or CSR tensor
(``tensor.py`` says how, and how gradients reach the values); ``to_torch`` hands it over
without a copy. The ops keep Paddle's results: the layout, the order of the entries, whether
the result reports itself coalesced, and the dtype. ``sparse.nn`` holds the layers.
"""
import importlib as _importlib
import sys as _sys

from ..ops import registry as _registry
from .tensor import *  # noqa: F401,F403
from .ops import *  # noqa: F401,F403
from . import tensor as _tensor, ops as _ops

__all__ = list(_tensor.__all__) + list(_ops.__all__)
_registry.publish(_sys.modules[__name__])


def __getattr__(name):
    if name == "nn":                    # paddle.sparse.nn, imported on first use
        return _importlib.import_module(".nn", __name__)
    raise AttributeError(f"module 'paddle.sparse' has no attribute '{name}'")
