"""``to_torch_module(layer)``: a paddle Layer as a ``torch.nn.Module`` for torch users.

The module owns no copies: each parameter of the Layer becomes a ``torch.nn.Parameter`` over
the same storage and is registered on the module under the Layer's structured name (dots
turned into ``__``, as torch does not allow them), so ``module.parameters()`` feeds a torch
optimizer, ``module.state_dict()`` holds the values, and training either side changes the
other. ``forward`` takes and returns torch tensors (nested lists/tuples/dicts too); it runs the
Layer's own forward, so whatever the Layer does (a loaded ``jit.load`` model, PyLayers, control
flow) it does here, and ``torch.compile(module)`` compiles it. ``train()``/``eval()`` switch the
Layer's mode too.
"""
import torch

from ..framework.tensor import Tensor, wrap
from .layer.layers import Layer

__all__ = ["to_torch_module", "TorchModule"]


def _to_paddle(x):
    if isinstance(x, torch.Tensor):
        return wrap(x)
    if isinstance(x, (list, tuple)):
        return type(x)(_to_paddle(v) for v in x)
    if isinstance(x, dict):
        return {k: _to_paddle(v) for k, v in x.items()}
    return x


def _to_torch(x):
    if isinstance(x, Tensor):
        return x._t
    if isinstance(x, (list, tuple)):
        return type(x)(_to_torch(v) for v in x)
    if isinstance(x, dict):
        return {k: _to_torch(v) for k, v in x.items()}
    return x


class TorchModule(torch.nn.Module):
    """The torch face of a paddle Layer (see the module docstring)."""

    def __init__(self, layer):
        super().__init__()
        object.__setattr__(self, "layer", layer)       # not a torch submodule
        for name, p in layer.named_parameters():
            if not isinstance(p._t, torch.nn.Parameter):
                p._t = torch.nn.Parameter(p._t.detach(), requires_grad=p._t.requires_grad)
            self.register_parameter(name.replace(".", "__"), p._t)
        for name, b in layer.named_buffers():
            if b is not None:
                self.register_buffer(name.replace(".", "__"), b._t, persistent=True)
        self.training = layer.training

    def forward(self, *args, **kwargs):
        return _to_torch(self.layer(*_to_paddle(args), **_to_paddle(kwargs)))

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
