"""Tensor-parallel layers: each model-parallel rank holds its slice of the weight, split as
Paddle splits it (``ColumnParallelLinear``: ``[in, out / mp]``, ``RowParallelLinear``:
``[in / mp, out]``, ``VocabParallelEmbedding``: ``[vocab / mp, dim]`` rows ``rank * vocab / mp``
on), and ``ParallelCrossEntropy`` takes logits split on the class axis."""
import torch

from .._state import get_hcg
from ....framework.tensor import wrap
from ....nn.layer.layers import Layer
from . import mp_ops

__all__ = ["ColumnParallelLinear", "RowParallelLinear", "VocabParallelEmbedding",
           "ParallelCrossEntropy"]


def _mp_group(mp_group):
    if mp_group is not None:
        return mp_group
    hcg = get_hcg()
    return hcg.get_model_parallel_group() if hcg is not None else None


def _size_rank(group):
    if group is None:
        return 1, 0
    return group.nranks, max(group.rank, 0)


def _mark(p, split_axis):
    p.is_distributed = True
    p.split_axis = split_axis


class ColumnParallelLinear(Layer):
    """``y = x W + b`` with W split by columns; ``gather_output`` concatenates the slices."""

    def __init__(self, in_features, out_features, weight_attr=None, has_bias=None,
                 gather_output=True, fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__()
        self.model_parallel_group = _mp_group(mp_group)
        self.world_size, self.rank = _size_rank(self.model_parallel_group)
        if out_features % self.world_size:
            raise ValueError(f"out_features ({out_features}) must be divisible by the model "
                             f"parallel degree ({self.world_size})")
        self.in_features, self.out_features = in_features, out_features
        self.output_size_per_partition = out_features // self.world_size
        self.gather_output = gather_output
        self.is_mp = self.world_size > 1
        self._name = name
        self.weight = self.create_parameter([in_features, self.output_size_per_partition],
                                            attr=weight_attr, dtype=self._dtype, is_bias=False)
        _mark(self.weight, 1) if self.is_mp else None
        if has_bias:                       # None (the default) means no bias, as in Paddle
            self.bias = self.create_parameter([self.output_size_per_partition],
                                              dtype=self._dtype, is_bias=True)
            _mark(self.bias, 0) if self.is_mp else None
        else:
            self.bias = None

    def forward(self, x):
        g = self.model_parallel_group if self.is_mp else None
        xt = mp_ops.identity_fwd_allreduce_bwd(x._t, g)
        y = torch.matmul(xt, self.weight._t)
        if self.bias is not None:
            y = y + self.bias._t
        if self.gather_output:
            y = mp_ops.gather_last(y, g)
        return wrap(y)


class RowParallelLinear(Layer):
    """``y = x W + b`` with W split by rows; partial products are all-reduced, then the (whole)
    bias added. ``input_is_parallel=False`` splits ``x`` on its last axis first."""

    def __init__(self, in_features, out_features, weight_attr=None, has_bias=True,
                 input_is_parallel=False, fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__()
        self.model_parallel_group = _mp_group(mp_group)
        self.world_size, self.rank = _size_rank(self.model_parallel_group)
        if in_features % self.world_size:
            raise ValueError(f"in_features ({in_features}) must be divisible by the model "
                             f"parallel degree ({self.world_size})")
        self.in_features, self.out_features = in_features, out_features
        self.input_size_per_partition = in_features // self.world_size
        self.input_is_parallel = input_is_parallel
        self.is_mp = self.world_size > 1
        self._name = name
        self.weight = self.create_parameter([self.input_size_per_partition, out_features],
                                            attr=weight_attr, dtype=self._dtype, is_bias=False)
        _mark(self.weight, 0) if self.is_mp else None
        self.bias = (self.create_parameter([out_features], dtype=self._dtype, is_bias=True)
                     if has_bias else None)

    def forward(self, x):
        g = self.model_parallel_group if self.is_mp else None
        xt = x._t if self.input_is_parallel else mp_ops.split_last(x._t, g)
        y = mp_ops.allreduce_fwd_identity_bwd(torch.matmul(xt, self.weight._t), g)
        if self.bias is not None:
            y = y + self.bias._t
        return wrap(y)


class VocabParallelEmbedding(Layer):
    """An embedding whose rows are split over the model-parallel ranks; ids outside this
    rank's rows look up zeros and the all-reduce sums the one rank that has each id."""

    def __init__(self, num_embeddings, embedding_dim, weight_attr=None, mp_group=None,
                 name=None):
        super().__init__()
        self.model_parallel_group = _mp_group(mp_group)
        self.world_size, self.rank = _size_rank(self.model_parallel_group)
        if num_embeddings % self.world_size:
            raise ValueError(f"num_embeddings ({num_embeddings}) must be divisible by the "
                             f"model parallel degree ({self.world_size})")
        self.origin_num_embeddings = num_embeddings
        self.is_mp = self.world_size > 1
        per = num_embeddings // self.world_size
        self.vocab_start_index = self.rank * per
        self.vocab_end_index = self.vocab_start_index + per
        self._name = name
        self.weight = self.create_parameter([per, embedding_dim], attr=weight_attr,
                                            dtype=self._dtype, is_bias=False)
        _mark(self.weight, 0) if self.is_mp else None

    def forward(self, x):
        ids = x._t.long()
        if not self.is_mp:
            return wrap(torch.nn.functional.embedding(ids, self.weight._t))
        outside = (ids < self.vocab_start_index) | (ids >= self.vocab_end_index)
        local = torch.where(outside, torch.zeros_like(ids), ids - self.vocab_start_index)
        out = torch.nn.functional.embedding(local, self.weight._t)
        out = out.masked_fill(outside.unsqueeze(-1), 0.0)
        return wrap(mp_ops.allreduce_fwd_identity_bwd(out, self.model_parallel_group))


class ParallelCrossEntropy(Layer):
    """Softmax cross entropy of logits split on the class axis (each rank its
    ``classes / mp`` columns) against whole labels; the loss has the label's shape, 0 where
    the label is ``ignore_index``."""

    def __init__(self, mp_group=None, name=None, ignore_index=-100):
        super().__init__()
        self.model_parallel_group = _mp_group(mp_group)
        self.world_size, self.rank = _size_rank(self.model_parallel_group)
        self.ignore_index = ignore_index
        self._name = name

    def forward(self, input, label):
        logits = input._t
        lab = label._t.long()
        squeeze = lab.dim() == logits.dim() and lab.shape[-1] == 1
        lab_flat = lab.squeeze(-1) if squeeze else lab
        g = self.model_parallel_group if self.world_size > 1 else None
        per = logits.shape[-1]
        start = self.rank * per if g is not None else 0
        lf = logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits
        with torch.no_grad():
            gmax = lf.max(dim=-1, keepdim=True).values.clone()
            mp_ops.allreduce_nograd(gmax, g, torch.distributed.ReduceOp.MAX)
        shifted = lf - gmax
        sum_exp = mp_ops.allreduce_fwd_identity_bwd(shifted.exp().sum(dim=-1), g)
        inside = (lab_flat >= start) & (lab_flat < start + per)
        idx = torch.where(inside, lab_flat - start, torch.zeros_like(lab_flat))
        picked = shifted.gather(-1, idx.unsqueeze(-1)).squeeze(-1)
        picked = torch.where(inside, picked, torch.zeros_like(picked))
        target = mp_ops.allreduce_fwd_identity_bwd(picked, g)
        loss = torch.log(sum_exp) - target
        loss = torch.where(lab_flat == self.ignore_index, torch.zeros_like(loss), loss)
        loss = loss.to(logits.dtype)
        return wrap(loss.unsqueeze(-1) if squeeze else loss)
