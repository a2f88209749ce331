"""``BatchNorm`` and ``SyncBatchNorm`` of a sparse COO tensor: batch normalisation of its
values ``[nnz, C]`` over the stored entries, one statistic per channel (the last axis); the
structure is kept. Parameters and running statistics as the dense layers have them
(``weight``, ``bias``, ``_mean``, ``_variance``; Paddle's momentum convention)."""
from ....framework.tensor import wrap
from ....nn import functional as NF
from ....nn.layer.norm import BatchNorm1D, SyncBatchNorm as _DenseSyncBatchNorm
from ...tensor import like, values_of
from ..functional._common import sparse_arg

__all__ = ["BatchNorm", "SyncBatchNorm"]


def _normalise(layer, x, api, use_global_stats):
    t = sparse_arg(x, api, "batch_norm", "input", csr=False)
    v = values_of(t)
    if v.dim() != 2 or v.shape[1] != layer._num_features:
        raise ValueError(f"{api}: the values of the input must be [nnz, {layer._num_features}]"
                         f", got {list(v.shape)}")
    out = NF.batch_norm(wrap(v), layer._mean, layer._variance, layer.weight, layer.bias,
                        layer.training, layer._momentum, layer._epsilon, "NCHW",
                        use_global_stats)
    return wrap(like(t, out._t))


class BatchNorm(BatchNorm1D):
    """Batch norm of a sparse COO ``[N, D, H, W, C]`` (or ``[N, H, W, C]``) tensor over its
    values. In training the batch statistics are used and the running ones updated; in eval
    mode (or with ``use_global_stats=True``) the running ones are used."""

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NDHWC", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr,
                         data_format, use_global_stats, name)

    def forward(self, input):
        if self._data_format not in ("NDHWC", "NHWC"):
            raise ValueError('sparse BatchNorm only support layout of "NDHWC" and "NHWC"')
        return _normalise(self, input, "BatchNorm", self._use_global_stats)


class SyncBatchNorm(_DenseSyncBatchNorm):
    """Batch norm of a sparse COO tensor's values whose statistics would be reduced over the
    data-parallel group; on one process (what runs here) it is ``BatchNorm``."""

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr,
                         data_format, name)

    def forward(self, x):
        return _normalise(self, x, "SyncBatchNorm", None)
