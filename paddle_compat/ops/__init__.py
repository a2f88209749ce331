"""The op library: one set of functions for eager Tensors and (later) static Variables.

Each module holds one concern; functions that Paddle also has as Tensor methods are attached to
``Tensor`` by ``common.as_methods``.
"""
import importlib as _importlib

__all__ = []
for _name in ("math", "logic", "stat", "manipulation", "search", "linalg", "complex_math",
              "creation"):
    _m = _importlib.import_module(f".{_name}", __name__)
    globals().update({_k: getattr(_m, _k) for _k in _m.__all__})
    __all__ += _m.__all__
