"""``max_pool3d`` over a sparse COO ``[N, D, H, W, C]`` tensor: the channel-wise maximum over
the active inputs in each window; the output is active wherever a window holds an active
input (sorted, coalesced). The gradient reaches every input equal to its window's maximum."""
from ....framework.tensor import Tensor, wrap
from ...tensor import coo, is_coo, values_of
from ._common import conv_padding, ntuple
from ._rulebook import build_rulebook, sparse_max_pool

__all__ = ["max_pool3d"]


def max_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NDHWC",
               name=None):
    """Sparse 3-d max pooling (``ceil_mode`` is accepted and, as in Paddle's sparse kernel,
    has no effect)."""
    assert isinstance(x, Tensor) and is_coo(x._t), \
        "Currently, sparse.max_pool3d only support the input of SparseCooTensor"
    assert data_format == "NDHWC", \
        "Currently, sparse.max_pool3d only support data format of 'NDHWC'"
    if len(x.shape) != 5:
        raise ValueError(f"Input x should be 5D tensor, but received x with the shape of "
                         f"{x.shape}")
    ksize = ntuple(kernel_size, 3, "pool_size")
    stride = ksize if stride is None else ntuple(stride, 3, "pool_stride")
    pad = conv_padding(padding, 3)
    t = x._t
    rb = build_rulebook(t._indices(), list(t.shape[1:4]), ksize, stride, pad, [1, 1, 1], False)
    out = sparse_max_pool(values_of(t), rb)
    return wrap(coo(rb.out_indices, out, [t.shape[0], *rb.out_spatial, t.shape[-1]],
                    coalesced=True))
