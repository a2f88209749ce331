"""Activations of sparse tensors (COO or CSR): applied to the values, the structure kept; and
``softmax`` over the non-zeros of each row (the last axis)."""
import torch

from ....framework.tensor import wrap
from ...tensor import coo_indices, is_csr, like, values_of
from ._common import sparse_arg

__all__ = ["relu", "relu6", "leaky_relu", "softmax"]


def relu(x, name=None):
    """``max(x, 0)`` on the values of a sparse COO/CSR tensor."""
    t = sparse_arg(x, "relu")
    return wrap(like(t, torch.relu(values_of(t))))


def relu6(x, name=None):
    """``min(max(x, 0), 6)`` on the values of a sparse COO/CSR tensor."""
    t = sparse_arg(x, "relu6")
    return wrap(like(t, torch.nn.functional.relu6(values_of(t))))


def leaky_relu(x, negative_slope=0.01, name=None):
    """``x if x >= 0 else negative_slope * x`` on the values of a sparse COO/CSR tensor."""
    t = sparse_arg(x, "leaky_relu")
    v = values_of(t)
    # where(), not torch's leaky_relu: Paddle's gradient at 0 is 1, torch's negative_slope
    return wrap(like(t, torch.where(v >= 0, v, v * negative_slope)))


def _row_ids(t):
    """Which row (all sparse axes but the last, numbered row-major) each stored value is in,
    and the number of rows."""
    idx = coo_indices(t)
    key = torch.zeros(idx.shape[1], dtype=torch.int64, device=idx.device)
    n = 1
    for d in range(idx.shape[0] - 1):
        key = key * t.shape[d] + idx[d]
        n *= t.shape[d]
    return key, n


def softmax(x, axis=-1, name=None):
    """Softmax over the stored values of each row (the last axis); the entries not stored
    take no part (they are not zeros but absent, as if -inf). CSR, or COO without dense
    axes."""
    t = sparse_arg(x, "softmax")
    if axis != -1:
        kind = "SparseCsrTensor" if is_csr(t) else "SparseCooTensor"
        raise NotImplementedError(
            f"(Unimplemented) {kind} only support axis=-1 for softmax, which is faster when "
            f"reading data by row (axis=-1)  [Hint: Expected axis == -1, but received "
            f"axis:{axis} != -1:-1.]")
    if not is_csr(t) and t.dense_dim() != 0:
        raise NotImplementedError("sparse softmax of a COO tensor with dense axes (values "
                                  f"{list(t._values().shape)}) is not supported")
    v = values_of(t)
    flat = v.reshape(-1)
    rows, n = _row_ids(t)
    top = torch.full((n,), float("-inf"), dtype=flat.dtype, device=flat.device)
    top = top.scatter_reduce(0, rows, flat.detach(), "amax")
    e = torch.exp(flat - top[rows])
    s = torch.zeros(n, dtype=flat.dtype, device=flat.device).scatter_add(0, rows, e)
    return wrap(like(t, (e / s[rows]).reshape(v.shape)))
