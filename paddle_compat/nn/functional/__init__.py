"""``paddle.nn.functional``: the functional forms of the layers.

Each module below holds one concern and lists its public names in ``__all__``; adding a module
is adding its name to ``_MODULES``.
"""
import importlib as _importlib

_MODULES = ("activation", "common", "norm", "loss", "conv", "pooling", "attention")

__all__ = []
for _name in _MODULES:
    try:
        _m = _importlib.import_module(f".{_name}", __name__)
    except ModuleNotFoundError as _e:       # TEMPORARY while the modules are being written
        if _e.name != f"{__name__}.{_name}":
            raise
        continue
    globals().update({_k: getattr(_m, _k) for _k in _m.__all__})
    __all__ += _m.__all__
del _name, _m
