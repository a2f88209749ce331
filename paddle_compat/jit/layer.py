"""``paddle.jit.layer``: the C++ inference layer's Python face. ``Layer().load(path, place)``
loads what ``paddle.jit.save`` wrote at ``path``: ``forward`` from ``path`` itself and every
other saved method ``fn`` from ``path.fn``; each becomes an attribute ``Function`` that returns
the list of its outputs."""
import os

import torch

from ..framework.tensor import Tensor
from .translated import load

__all__ = []

_MODEL_SUFFIXES = (".json", ".pdmodel")


class FunctionInfo:
    """A loaded function's description (its ``name()``)."""

    def __init__(self, name):
        self._name = name

    def name(self):
        return self._name


class Function:
    """One loaded function: called with Tensors, returns the list of its output Tensors."""

    def __init__(self, function, info):
        self.function = function
        self.info = info

    def __call__(self, *args):
        with torch.no_grad():               # an inference function: no autograd graph
            out = self.function(*args)
        return [out] if isinstance(out, Tensor) else list(out)


def _method_names(path):
    """The names ``fn`` of the ``path.fn`` models saved next to ``path``."""
    folder, base = os.path.split(path)
    names = set()
    for f in os.listdir(folder or "."):
        for suffix in _MODEL_SUFFIXES:
            if f.startswith(base + ".") and f.endswith(suffix):
                middle = f[len(base) + 1:-len(suffix)]
                if middle and "." not in middle:
                    names.add(middle)
    return sorted(names)


class Layer:
    """A model saved by ``paddle.jit.save``, loaded function by function."""

    def __init__(self):
        self.cpp_layer = None
        self.functions = {}

    def load(self, load_path, place=None):
        """Load ``forward`` (from ``load_path``) and each other saved method (from
        ``load_path.<name>``)."""
        loaded = {}
        if any(os.path.exists(load_path + s) for s in _MODEL_SUFFIXES):
            loaded["forward"] = load(load_path)
        for name in _method_names(load_path):
            loaded[name] = load(f"{load_path}.{name}")
        if not loaded:
            raise FileNotFoundError(f"paddle.jit.layer.Layer.load: no model saved at "
                                    f"{load_path} (no {load_path}.json / .pdmodel)")
        self.cpp_layer = loaded
        for name, fn in loaded.items():
            self.functions[name] = Function(fn, FunctionInfo(name))
            setattr(self, name, self.functions[name])
        return self
