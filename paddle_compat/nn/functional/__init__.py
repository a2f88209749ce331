"""``paddle.nn.functional``: the functional forms of the layers.

Each module below holds one concern and lists its public names in ``__all__``; adding a module
is adding its name to ``_MODULES``.
"""
import importlib as _importlib
import sys as _sys

from ...ops import registry as _registry

_MODULES = ("activation", "common", "norm", "loss", "conv", "pooling", "attention",
            "vision", "extra", "moe")

__all__ = []
for _name in _MODULES:
    _m = _importlib.import_module(f".{_name}", __name__)
    globals().update({_k: getattr(_m, _k) for _k in _m.__all__})
    __all__ += _m.__all__
del _name, _m

from . import flash_attention  # noqa: E402  a module in Paddle, not a function

_registry.publish(_sys.modules[__name__])
