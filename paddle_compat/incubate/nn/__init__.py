"""``paddle.incubate.nn``: the fused operators in ``functional`` and the fused layers
(``FusedLinear``, ``FusedMultiHeadAttention``, ``FusedFeedForward``,
``FusedTransformerEncoderLayer``, ``FusedBiasDropoutResidualLayerNorm``, ``FusedDropoutAdd``,
``FusedDropout``, ``FusedMultiTransformer``)."""
from . import attn_bias, functional, memory_efficient_attention  # noqa: F401
from .fused_dropout import FusedDropout
from .multi_transformer import FusedMultiTransformer
from .layers import (FusedBiasDropoutResidualLayerNorm, FusedDropoutAdd, FusedFeedForward,
                     FusedLinear, FusedMultiHeadAttention, FusedTransformerEncoderLayer)

__all__ = ["FusedLinear", "FusedMultiHeadAttention", "FusedFeedForward",
           "FusedTransformerEncoderLayer", "FusedBiasDropoutResidualLayerNorm", "FusedDropoutAdd", "FusedDropout",
           "FusedMultiTransformer"]
