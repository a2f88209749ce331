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

__all__ = ["saved_tensors_hooks", "register_saved_tensors_hooks", "reset_saved_tensors_hooks"]


def _torch_pair(pack_hook, unpack_hook):
    """torch-facing (pack, unpack) over Paddle-facing hooks: pack sees a Tensor, unpack may
    return a Tensor (a torch tensor is taken as it is)."""
    def pack(t):
        return pack_hook(wrap(t))

    def unpack(packed):
        t = unpack_hook(packed)
        return t._t if isinstance(t, Tensor) else t
    return pack, unpack


#: whether ``register_saved_tensors_hooks`` has a pair pushed on torch's default-hooks stack
_registered = [False]


def register_saved_tensors_hooks(pack_hook, unpack_hook):
    """``paddle.base.core.eager.register_saved_tensors_hooks``: install one global pack/unpack
    pair for the tensors autograd saves from now on (until ``reset_saved_tensors_hooks``);
    registering again replaces the pair, as Paddle's single slot does."""
    if not (callable(pack_hook) and callable(unpack_hook)):
        raise TypeError("register_saved_tensors_hooks(): pack_hook and unpack_hook must be "
                        f"callable, got {type(pack_hook).__name__} and "
                        f"{type(unpack_hook).__name__}")
    reset_saved_tensors_hooks()
    torch._C._autograd._push_saved_tensors_default_hooks(*_torch_pair(pack_hook, unpack_hook))
    _registered[0] = True


def reset_saved_tensors_hooks():
    """Remove the pair ``register_saved_tensors_hooks`` installed (nothing when none is)."""
    if _registered[0]:
        torch._C._autograd._pop_saved_tensors_default_hooks()
        _registered[0] = False


class saved_tensors_hooks:
    """Context manager installing ``pack_hook(Tensor) -> Any`` and ``unpack_hook(Any) ->
    Tensor`` for the tensors saved for backward while it is active."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook
        self._torch = torch.autograd.graph.saved_tensors_hooks(
            *_torch_pair(pack_hook, unpack_hook))

    def __enter__(self):
        self._torch.__enter__()
        return self

    def __exit__(self, *exc):
        self._torch.__exit__(*exc)
        return False
