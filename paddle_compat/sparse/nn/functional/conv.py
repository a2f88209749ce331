"""Sparse convolutions: ``conv3d``, ``subm_conv3d``, ``conv2d``, ``subm_conv2d`` and the
``_igemm`` variants (Paddle's implicit-GEMM kernels, CUDA only in Paddle 3.3.1; here the same
computation as the plain ones).

Input: a sparse COO tensor ``[N, D, H, W, C]`` (``[N, H, W, C]`` in 2-d) with the channels as
its one dense dimension; kernel ``[kd, kh, kw, C_in, C_out]`` (``[kh, kw, C_in, C_out]``);
bias ``[C_out]``. The result is a sparse COO tensor of the same layout: a regular convolution
is active at every site an active input reaches (sorted, coalesced), a submanifold one exactly
at the input's sites (in the input's order; its spatial shape is the input's: as in Paddle,
the kernel is centred on each site and ``padding`` and ``stride`` are not used). Only
``groups=1``, as in Paddle. ``key`` names the rulebook of a submanifold convolution so that
later layers with the same key over the same sites reuse it. See ``_rulebook.py`` for how the
convolution is computed.
"""
from ....framework.tensor import Tensor, wrap
from ...tensor import coo, values_of
from ._common import conv_padding, ntuple, sparse_arg
from ._rulebook import cached_rulebook, sparse_conv

__all__ = ["conv2d", "conv3d", "subm_conv2d", "subm_conv3d", "subm_conv2d_igemm",
           "subm_conv3d_igemm"]

_FORMATS = {3: "NDHWC", 2: "NHWC"}


def _conv(x, weight, bias, stride, padding, dilation, groups, data_format, subm, key, nd,
          api):
    assert groups == 1, "Currently, only support groups=1"
    fmt = _FORMATS[nd]
    if data_format not in [fmt]:
        raise ValueError(f"Attr(data_format) should be '{fmt}'. Received "
                         f"Attr(data_format): {data_format}.")
    if not isinstance(x, Tensor):
        raise ValueError(f"(InvalidArgument) {api}(): argument 'x' (position 0) must be "
                         f"Tensor, but got {type(x).__name__}")
    if len(x.shape) != nd + 2:
        raise ValueError(f"Input x should be {nd + 2}D tensor, but received x with the shape "
                         f"of {x.shape}")
    pad = conv_padding(padding, nd)
    stride = ntuple(stride, nd, "stride")
    dil = ntuple(dilation, nd, "dilation")
    t = sparse_arg(x, api, "conv3d", csr=False)
    if t.dense_dim() != 1:
        raise ValueError(f"{api}: x must hold its channels as its one dense dimension "
                         f"(values [nnz, C]), got sparse_dim {t.sparse_dim()} and dense_dim "
                         f"{t.dense_dim()}")
    if not isinstance(weight, Tensor):
        raise ValueError(f"(InvalidArgument) {api}(): argument 'weight' (position 1) must be "
                         f"Tensor, but got {type(weight).__name__}")
    w = weight._t
    cin = t.shape[-1]
    if w.dim() != nd + 2 or w.shape[-2] != cin:
        raise ValueError(f"{api}: the weight must be [{', '.join(['k'] * nd)}, C_in={cin}, "
                         f"C_out], got {list(w.shape)}")
    if w.dtype != t.dtype:
        raise ValueError(f"(InvalidArgument) {api}: the weight's dtype ({weight.dtype}) does "
                         f"not match the dtype of x ({x.dtype})")
    ksize = list(w.shape[:nd])
    if subm:
        # as Paddle's kernels do: a submanifold kernel is centred (padding k // 2) and moves
        # by 1 whatever padding and stride say; with a dilation the centring scales with it
        # (Paddle 3.3.1 keeps padding k // 2 there and returns a smaller grid: see the test)
        pad = [(k // 2) * d for k, d in zip(ksize, dil)]
        stride = [1] * nd
    spatial = list(t.shape[1:nd + 1])
    idx = t._indices()
    rb = cached_rulebook(key if subm else None, idx, spatial, ksize, stride, pad, dil, subm)
    out = sparse_conv(values_of(t), w, rb)
    if bias is not None:
        b = bias._t if isinstance(bias, Tensor) else bias
        out = out + b
    shape = [t.shape[0], *rb.out_spatial, w.shape[-1]]
    return wrap(coo(rb.out_indices, out, shape, coalesced=(not subm) or t.is_coalesced()))


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NDHWC", name=None):
    """Sparse 3-d convolution of a COO ``[N, D, H, W, C]`` tensor (output active wherever an
    active input reaches)."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, False, None,
                 3, "conv3d")


def subm_conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
                data_format="NDHWC", key=None, name=None):
    """Submanifold sparse 3-d convolution: the output is active exactly at the input's
    sites."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, True, key,
                 3, "subm_conv3d")


def subm_conv3d_igemm(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
                      data_format="NDHWC", key=None, name=None):
    """``subm_conv3d`` (Paddle's implicit-GEMM kernel, which it has only on CUDA)."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, True, key,
                 3, "subm_conv3d_igemm")


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NHWC", name=None):
    """Sparse 2-d convolution of a COO ``[N, H, W, C]`` tensor."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, False, None,
                 2, "conv2d")


def subm_conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
                data_format="NHWC", key=None, name=None):
    """Submanifold sparse 2-d convolution."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, True, key,
                 2, "subm_conv2d")


def subm_conv2d_igemm(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
                      data_format="NHWC", key=None, name=None):
    """``subm_conv2d`` (Paddle's implicit-GEMM kernel, which it has only on CUDA)."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, True, key,
                 2, "subm_conv2d_igemm")
