"""``paddle.incubate.nn.attn_bias``: the attention biases ``memory_efficient_attention``
takes besides a plain Tensor: ``LowerTriangularMask`` (causal: -inf above the diagonal) and
``LowerTriangularMaskWithTensorBias`` (that plus a Tensor bias)."""
import abc

import torch

from ...framework.dtype import to_torch_dtype
from ...framework.tensor import wrap

__all__ = []


class AttentionBias(abc.ABC):
    """A bias added to the attention scores, built for a given scores shape."""

    @abc.abstractmethod
    def materialize(self, shape, dtype="float32"):
        """The dense bias of ``shape`` (…, seq_q, seq_k) in ``dtype``."""


class LowerTriangularMask(AttentionBias):
    """Causal attention: query i sees keys 0..i (the bias is -inf above the diagonal)."""

    def materialize(self, shape, dtype="float32"):
        dt = to_torch_dtype(dtype)
        full = torch.full(list(shape), -torch.inf, dtype=torch.float32)
        return wrap(torch.triu(full, diagonal=1).to(dt))

    def add_bias(self, bias):
        return LowerTriangularMaskWithTensorBias(bias)


class LowerTriangularMaskWithTensorBias(LowerTriangularMask):
    """``LowerTriangularMask`` plus the Tensor ``bias``."""

    def __init__(self, bias):
        self._bias = bias

    def materialize(self, shape, dtype="float32"):
        return wrap(super().materialize(shape, dtype)._t + self._bias._t)
