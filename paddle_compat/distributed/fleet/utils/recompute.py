"""``fleet.utils.recompute``: activation checkpointing on ``torch.utils.checkpoint`` (the
non-reentrant form). With ``preserve_rng_state`` (the default) the recomputation runs on the
random state the forward saw -- paddle_compat's own generator, which torch's checkpoint does not
know -- so dropout draws the same mask twice; the state after the backward is left as it was."""
import torch
import torch.utils.checkpoint as _ckpt

from ....nn.torch_module import to_paddle_tree, to_torch_tree
from ....ops import random as _grandom

__all__ = ["recompute"]


def recompute(function, *args, **kwargs):
    """Run ``function(*args, **kwargs)`` keeping none of its activations; the backward runs
    it again. Options (popped from ``kwargs``): ``preserve_rng_state=True``,
    ``use_reentrant=True`` (accepted; the non-reentrant checkpoint is used either way),
    ``offload_indices`` (accepted, ignored)."""
    preserve = kwargs.pop("preserve_rng_state", True)
    kwargs.pop("use_reentrant", None)
    kwargs.pop("offload_indices", None)
    state = _grandom.get_rng_state() if preserve else None
    calls = [0]

    def run(*targs):
        pargs = [to_paddle_tree(a) for a in targs]
        if calls[0] and state is not None:
            cur = _grandom.get_rng_state()
            _grandom.set_rng_state(state)
            try:
                out = function(*pargs, **kwargs)
            finally:
                _grandom.set_rng_state(cur)
        else:
            out = function(*pargs, **kwargs)
        calls[0] += 1
        return to_torch_tree(out)

    targs = [to_torch_tree(a) for a in args]
    if not torch.is_grad_enabled():
        return function(*args, **kwargs)
    # early stop off: the recomputation runs the whole function (a paddle op may save its
    # tensors in another order than the first run did, which early stopping cannot follow)
    with _ckpt.set_checkpoint_early_stop(False):
        out = _ckpt.checkpoint(run, *targs, use_reentrant=False, preserve_rng_state=preserve)
    return to_paddle_tree(out)
