"""Crossing between paddle_compat and torch code: zero-copy, one autograd graph.

``to_torch(x)`` hands torch the very tensor a Tensor wraps (a loss computed in torch
backpropagates into paddle_compat leaves); ``from_torch(t)`` wraps a torch tensor without a copy
(a loss computed here backpropagates into torch leaves). DLPack goes through torch's.
"""
import torch
import torch.utils.dlpack as _tdl

from .tensor import Tensor, wrap

__all__ = ["to_torch", "from_torch", "to_dlpack", "from_dlpack"]


def to_torch(x):
    """The torch.Tensor inside ``x`` (no copy, same autograd graph)."""
    if isinstance(x, Tensor):
        return x._t
    if isinstance(x, torch.Tensor):
        return x
    raise TypeError(f"to_torch(): x must be a paddle_compat Tensor, but received "
                    f"{type(x).__name__}")


def from_torch(t):
    """A Tensor wrapping the torch tensor ``t`` (no copy, same autograd graph)."""
    if isinstance(t, Tensor):
        return t
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"from_torch(): t must be a torch.Tensor, but received {type(t).__name__}")
    return wrap(t)


def to_dlpack(x):
    """A DLPack capsule sharing ``x``'s memory."""
    return _tdl.to_dlpack(to_torch(x).detach())


def from_dlpack(dlpack, *, copy=None):
    """A Tensor sharing the memory of a DLPack capsule or of any object with ``__dlpack__``
    (a copy of it with ``copy=True``)."""
    t = torch.from_dlpack(dlpack)
    return wrap(t.clone() if copy else t)
