"""Layers that hold other layers or parameters: ``Sequential``, ``LayerList``, ``LayerDict``,
``ParameterList``, ``ParameterDict``. Their members are keyed ``"0"``, ``"1"`` ... (or by the
given names), which is what ``state_dict`` keys start with (``0.weight``).
"""
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from itertools import chain

import torch

from ...framework.parameter import Parameter
from ...framework.tensor import Tensor
from .layers import Layer

__all__ = ["Sequential", "LayerList", "LayerDict", "ParameterList", "ParameterDict"]


def _pairs(items, what):
    """(key, value) pairs from a mapping or a sequence of 2-item pairs."""
    assert isinstance(items, Iterable), (f"The type of {what} is not iterable of key/value "
                                         f"pairs, the type of sublayers is {type(items).__name__}")
    if isinstance(items, (Mapping, LayerDict, ParameterDict)):
        return list(items.items())
    out = []
    for i, kv in enumerate(items):
        if len(kv) != 2:
            raise ValueError(f"The length of the {i}'s element in {what} is {len(kv)}, which "
                             "must be 2.")
        out.append((kv[0], kv[1]))
    return out


def _reindex(store, index, value):
    """Insert ``value`` at position ``index`` of a store keyed "0".."n-1", shifting the rest."""
    for i in range(len(store), index, -1):
        store[str(i)] = store[str(i - 1)]
    store[str(index)] = value


class Sequential(Layer):
    """Runs its layers in order. ``Sequential(l1, l2)``, ``Sequential(('a', l1), ('b', l2))``
    or ``Sequential(OrderedDict(...))``."""

    def __init__(self, *layers):
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], OrderedDict):
            items = layers[0].items()
        elif layers and isinstance(layers[0], (list, tuple)):
            items = layers
        else:
            items = ((str(i), layer) for i, layer in enumerate(layers))
        for name, layer in items:
            self.add_sublayer(name, layer)

    def __getitem__(self, name):
        if isinstance(name, slice):
            return type(self)(*list(self._sub_layers.values())[name])
        if isinstance(name, str):
            return self._sub_layers[name]
        n = len(self._sub_layers)
        if name >= n or name < -n:
            raise IndexError(f"index {name} is out of range")
        return list(self._sub_layers.values())[name]

    def __setitem__(self, name, layer):
        assert isinstance(layer, Layer)
        setattr(self, str(name), layer)

    def __delitem__(self, name):
        name = str(name)
        assert name in self._sub_layers
        del self._sub_layers[name]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def forward(self, input):
        for layer in self._sub_layers.values():
            input = layer(input)
        return input

    def append(self, module):
        self.add_sublayer(str(len(self)), module)
        return self

    def insert(self, index, module):
        if not isinstance(module, Layer):
            raise AssertionError(f"module should be of type: {Layer}")
        n = len(self._sub_layers)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        _reindex(self._sub_layers, index + n if index < 0 else index, module)
        return self

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)
        return self


class LayerList(Layer):
    """A list of layers, indexed like a Python list; registered so their parameters count."""

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            for i, layer in enumerate(sublayers):
                self.add_sublayer(str(i), layer)

    def _abs(self, idx):
        if isinstance(idx, int):
            if not -len(self) <= idx < len(self):
                raise IndexError(f"index {idx} is out of range, should be an integer in range "
                                 f"[{-len(self)}, {len(self)})")
            if idx < 0:
                idx += len(self)
        return idx

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._sub_layers.values())[idx])
        return self._sub_layers[str(self._abs(idx))]

    def __setitem__(self, idx, sublayer):
        setattr(self, str(self._abs(idx)), sublayer)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for k in range(len(self._sub_layers))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(self._abs(idx)))
        self.__dict__["_sub_layers"] = OrderedDict(
            (str(i), v) for i, v in enumerate(self._sub_layers.values()))

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return LayerList(list(chain(self, other)))

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, sublayer):
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index, sublayer):
        n = len(self._sub_layers)
        assert isinstance(index, int) and -n <= index <= n, (
            f"index should be an integer in range [{-n}, {n}]")
        _reindex(self._sub_layers, index + n if index < 0 else index, sublayer)

    def extend(self, sublayers):
        offset = len(self)
        for i, layer in enumerate(sublayers):
            self.add_sublayer(str(offset + i), layer)
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v


class LayerDict(Layer):
    """An ordered dict of named layers."""

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key):
        return self._sub_layers[key]

    def __setitem__(self, key, sublayer):
        return self.add_sublayer(key, sublayer)

    def __delitem__(self, key):
        del self._sub_layers[key]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers)

    def __contains__(self, key):
        return key in self._sub_layers

    def clear(self):
        self._sub_layers.clear()

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def keys(self):
        return self._sub_layers.keys()

    def items(self):
        return self._sub_layers.items()

    def values(self):
        return self._sub_layers.values()

    def update(self, sublayers):
        for key, layer in _pairs(sublayers, "sublayers"):
            self.add_sublayer(key, layer)


class ParameterList(Layer):
    """A list of Parameters, registered under "0", "1" ..."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            for i, p in enumerate(parameters):
                assert isinstance(p, Parameter)
                self.add_parameter(str(i), p)

    def __getitem__(self, idx):
        return self._parameters[str(idx)]

    def __setitem__(self, idx, param):
        """Copies ``param``'s values into the parameter at ``idx`` (as Paddle's assign)."""
        if not isinstance(param, Tensor):
            raise TypeError(f"param should be 'Parameter' or 'Tensor', but received "
                            f"{type(param)}")
        target = getattr(self, str(idx))
        with torch.no_grad():
            target._t.copy_(param._t)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def append(self, parameter):
        self.add_parameter(str(len(self._parameters)), parameter)
        return self


class ParameterDict(Layer):
    """An ordered dict of named Parameters."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return self._parameters[key]

    def __setitem__(self, key, param):
        assert isinstance(param, Parameter)
        setattr(self, key, param)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters)

    def items(self):
        return self._parameters.items()

    def keys(self):
        return self._parameters.keys()

    def values(self):
        return self._parameters.values()

    def update(self, parameters):
        for key, p in _pairs(parameters, "parameters"):
            self.add_parameter(key, p)
