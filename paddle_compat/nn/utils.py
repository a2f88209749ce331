"""``paddle.nn.utils``: gradient clipping over a set of parameters (``clip_grad_norm_``,
``clip_grad_value_``), flattening parameters to one vector and back, and the weight
reparameterisations ``weight_norm`` / ``remove_weight_norm`` / ``spectral_norm``
(``norm_hooks.py``).

The clipping works on all gradients at once with torch's foreach kernels (no Python loop per
element); like Paddle it changes ``param.grad`` in place.
"""
import torch

from ..framework import mode as _mode
from ..framework.dtype import from_torch_dtype
from ..framework.tensor import Tensor, wrap
from .norm_hooks import remove_weight_norm, spectral_norm, weight_norm

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector",
           "vector_to_parameters", "weight_norm", "remove_weight_norm", "spectral_norm"]


def _grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p._t.grad for p in parameters if p._t.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale all gradients by ``max_norm / (total_norm + 1e-6)`` when that is below 1, where
    ``total_norm`` is the ``norm_type``-norm (inf, 0, 1 or 2) of the per-gradient norms.
    Returns ``total_norm``."""
    if not _mode.in_dynamic_mode():
        raise RuntimeError("this API can only run in dynamic mode.")
    if norm_type not in (float("inf"), 0, 1, 2):
        raise ValueError(f"norm_type only support {[float('inf'), 0, 1, 2]}")
    grads = _grads(parameters)
    if not grads:
        return wrap(torch.tensor(0.0))
    norm_type = float(norm_type)
    with torch.no_grad():
        if norm_type == float("inf"):
            norms = [g.abs().max() for g in grads]
            total = norms[0] if len(norms) == 1 else torch.stack(norms).max()
        else:
            norms = torch._foreach_norm(grads, norm_type)
            total = torch.linalg.vector_norm(torch.stack(norms), norm_type)
        if error_if_nonfinite and not torch.isfinite(total).item():
            raise RuntimeError(f"The total norm of {norm_type} order of the gradients from "
                               "`parameters` is non-finite, so it cannot be clipped. In any "
                               "case, disable this error and scale the gradient by non-finite "
                               "norm, set `error_if_nonfinite=False`")
        coef = (float(max_norm) / (total + 1e-6)).clamp_(max=1.0)
        torch._foreach_mul_(grads, coef)
    return wrap(total)


def clip_grad_value_(parameters, clip_value):
    """Clamp every gradient to ``[-clip_value, clip_value]`` in place."""
    grads = _grads(parameters)
    clip_value = float(clip_value)
    if grads and clip_value < 0:        # Paddle clips each gradient to [-v, v]: min > max
        raise ValueError(f"(InvalidArgument) max should be greater than or equal to min. But "
                         f"received min = {-clip_value:f}, max = {clip_value:f}")
    with torch.no_grad():
        if grads:
            torch._foreach_clamp_min_(grads, -clip_value)
            torch._foreach_clamp_max_(grads, clip_value)


def parameters_to_vector(parameters, name=None):
    """The parameters' values flattened and concatenated (a new leaf that does not stop
    gradient, not connected to the parameters)."""
    parts = [p._t.reshape(-1) for p in parameters]
    for i, t in enumerate(parts):
        if t.dtype is not parts[0].dtype:
            raise ValueError("(InvalidArgument) The data_type of input tensor in list isn't "
                             "consistent, the first tensor is "
                             f"{from_torch_dtype(parts[0].dtype).name}, but {i}th tensor is "
                             f"{from_torch_dtype(t.dtype).name}.")
    with torch.no_grad():
        out = torch.cat(parts)
    return wrap(out.requires_grad_(out.is_floating_point()))


def vector_to_parameters(vec, parameters, name=None):
    """Copy consecutive slices of the 1-D ``vec`` into ``parameters`` (in place)."""
    assert len(vec.shape) == 1
    parameters = list(parameters)
    total = sum(p._t.numel() for p in parameters)
    if total > vec.shape[0]:
        raise ValueError("The total_elements of vec should be equal to or larger than the number "
                         "of elements in parameters.")
    with torch.no_grad():
        start = 0
        for p in parameters:
            n = p._t.numel()
            p._t.copy_(vec._t[start:start + n].view_as(p._t))
            start += n
