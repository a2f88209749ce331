"""The op library: one set of functions for eager Tensors and static Variables.

Each module holds one concern and registers its ops through ``registry.OpSet`` (the function,
its Tensor methods, its C fast path); ``registry.install_methods`` puts the methods on Tensor
once every module is loaded.
"""
import importlib as _importlib

from . import registry as _registry

__all__ = []
_MODULES = (                 # one op module per concern, one line each
    "math",
    "arithmetic",
    "reduction",
    "special",
    "logic",
    "stat",
    "reshaping",
    "arrays",
    "joining",
    "slicing",
    "gather_scatter",
    "matrices",
    "reordering",
    "sets",
    "search",
    "linalg",
    "decomposition",
    "histograms",
    "complex_math",
    "creation",
    "random",
    "torch_style",
)
for _name in _MODULES:
    _m = _importlib.import_module(f".{_name}", __name__)
    globals().update({_k: getattr(_m, _k) for _k in _m.__all__})
    __all__ += _m.__all__

_registry.install_methods()
