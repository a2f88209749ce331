"""``paddle.autograd.saved_tensors_hooks``: pack/unpack hooks for the tensors autograd saves.

Inside the context, every tensor an op (or a PyLayer's ``ctx.save_for_backward``) keeps for
its backward goes through ``pack_hook`` when saved, and what that returned through
``unpack_hook`` when the backward needs it back. It is torch's
``torch.autograd.graph.saved_tensors_hooks``, with the hooks seeing paddle Tensors: the pack
hook gets a Tensor, the unpack hook returns one (a torch tensor is taken as it is).

    >>> with paddle.autograd.saved_tensors_hooks(lambda x: x.numpy(), paddle.to_tensor):
    ...     y = (a * b).sum()          # a and b are saved as numpy arrays
    >>> y.backward()                   # ... and come back as Tensors here
"""
import torch

from ..framework.tensor import Tensor, wrap

__all__ = ["saved_tensors_hooks"]


class saved_tensors_hooks:
    """Context manager installing ``pack_hook(Tensor) -> Any`` and ``unpack_hook(Any) ->
    Tensor`` for the tensors saved for backward while it is active."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

        def pack(t):
            return pack_hook(wrap(t))

        def unpack(packed):
            t = unpack_hook(packed)
            return t._t if isinstance(t, Tensor) else t

        self._torch = torch.autograd.graph.saved_tensors_hooks(pack, unpack)

    def __enter__(self):
        self._torch.__enter__()
        return self

    def __exit__(self, *exc):
        self._torch.__exit__(*exc)
        return False
