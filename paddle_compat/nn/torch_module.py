"""``to_torch_module(layer)``: a paddle Layer as a ``torch.nn.Module`` for torch users.

The module owns no copies: each parameter of the Layer becomes a ``torch.nn.Parameter`` over
the same storage and is registered on the module under the Layer's structured name (dots
turned into ``__``, as torch does not allow them), so ``module.parameters()`` feeds a torch
optimizer, ``module.state_dict()`` holds the values, and training either side changes the
other. ``forward`` takes and returns torch tensors (nested lists/tuples/dicts too); it runs the
Layer's own forward, so whatever the Layer does (a loaded ``jit.load`` model, PyLayers, control
flow) it does here, and ``torch.compile(module)`` compiles it. ``train()``/``eval()`` switch the
Layer's mode too.

Assigning a registered parameter on the module (``setattr(module, name, tensor)``, what torch's
parametrizations and FSDP2 do when they swap a parameter) rebinds the paddle Parameter's payload
too, so the Layer computes with whatever torch put there.

``module_tree(layer)`` (internal: the sharding engine in ``distributed.auto_parallel.sharding``)
mirrors the Layer's tree instead: one ``LayerModule`` per Layer, holding the Layer's own
parameters under their own names and its sublayers' modules as torch submodules, so that a torch
wrapper applied per block (FSDP2's ``fully_shard``) sees the same structure as Paddle does.
"""
import torch

from ..framework.tensor import Tensor, wrap
from .layer.layers import Layer

__all__ = ["to_torch_module", "TorchModule"]


def _as_torch_parameter(p):
    """``p``'s payload as a ``torch.nn.Parameter`` (rebinding ``p._t`` to it, no copy)."""
    if not isinstance(p._t, torch.nn.Parameter):
        p._t = torch.nn.Parameter(p._t.detach(), requires_grad=p._t.requires_grad)
    return p._t


class _FollowsLayer(torch.nn.Module):
    """A module whose registered parameters are paddle Parameters' payloads: assigning one of
    them rebinds the paddle Parameter (``_paddle_params``: registered name -> Parameter)."""

    def __setattr__(self, name, value):
        super().__setattr__(name, value)            # torch's checks first
        p = self.__dict__.get("_paddle_params", {}).get(name)
        if p is not None and isinstance(value, torch.Tensor):
            p._t = value


def to_paddle_tree(x):
    """torch tensors in ``x`` (nested lists/tuples/dicts too) as paddle Tensors (no copy)."""
    if isinstance(x, torch.Tensor):
        return wrap(x)
    if isinstance(x, (list, tuple)):
        return type(x)(to_paddle_tree(v) for v in x)
    if isinstance(x, dict):
        return {k: to_paddle_tree(v) for k, v in x.items()}
    return x


def to_torch_tree(x):
    """paddle Tensors in ``x`` (nested lists/tuples/dicts too) as their torch tensors."""
    if isinstance(x, Tensor):
        return x._t
    if isinstance(x, (list, tuple)):
        return type(x)(to_torch_tree(v) for v in x)
    if isinstance(x, dict):
        return {k: to_torch_tree(v) for k, v in x.items()}
    return x


class TorchModule(_FollowsLayer):
    """The torch face of a paddle Layer (see the module docstring)."""

    def __init__(self, layer):
        super().__init__()
        object.__setattr__(self, "layer", layer)       # not a torch submodule
        object.__setattr__(self, "_paddle_params", {})
        for name, p in layer.named_parameters():
            name = name.replace(".", "__")
            self.register_parameter(name, _as_torch_parameter(p))
            self._paddle_params[name] = p
        for name, b in layer.named_buffers():
            if b is not None:
                self.register_buffer(name.replace(".", "__"), b._t, persistent=True)
        self.training = layer.training

    def forward(self, *args, **kwargs):
        return to_torch_tree(self.layer(*to_paddle_tree(args), **to_paddle_tree(kwargs)))

    def train(self, mode=True):
        super().train(mode)
        self.layer.train() if mode else self.layer.eval()
        return self


def to_torch_module(layer):
    """A ``torch.nn.Module`` sharing ``layer``'s parameters, calling its forward on torch
    tensors."""
    if not isinstance(layer, Layer):
        raise TypeError(f"to_torch_module expects a paddle Layer, got {type(layer).__name__}")
    return TorchModule(layer)


class LayerModule(_FollowsLayer):
    """One Layer of ``module_tree``: its own parameters and buffers, its sublayers' modules as
    submodules; ``forward`` runs the Layer's forward (``run``, by default the Layer's call)
    on torch tensors."""

    def __init__(self, layer, memo):
        super().__init__()
        object.__setattr__(self, "layer", layer)
        object.__setattr__(self, "_paddle_params", {})
        object.__setattr__(self, "run", layer)
        memo[id(layer)] = self
        for name, p in layer._parameters.items():
            if p is not None:
                self.register_parameter(name, _as_torch_parameter(p))
                self._paddle_params[name] = p
        for name, b in layer._buffers.items():
            if b is not None:
                self.register_buffer(name, b._t,
                                     persistent=name not in layer._non_persistable_buffer_names_set)
        for name, sub in layer._sub_layers.items():
            if sub is not None:
                self.add_module(name, memo.get(id(sub)) or LayerModule(sub, memo))
        self.training = layer.training

    def forward(self, *args, **kwargs):
        return to_torch_tree(self.run(*to_paddle_tree(args), **to_paddle_tree(kwargs)))


def module_tree(layer):
    """``{id(sublayer): LayerModule}`` for ``layer`` and every sublayer (a Layer reached
    twice gets one module), the root's module under ``id(layer)``."""
    memo = {}
    LayerModule(layer, memo)
    return memo
