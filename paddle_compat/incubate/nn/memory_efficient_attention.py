"""``paddle.incubate.nn.memory_efficient_attention``: xformers-style attention over
[batch, seq, heads, head_dim]: softmax(q k^T * scale + bias) v with ``scale`` 1/sqrt(head_dim)
by default, ``attn_bias`` a Tensor broadcast to [batch, heads, seq_q, seq_k], a
``LowerTriangularMask`` (causal) or ``LowerTriangularMaskWithTensorBias``; dropout ``p`` in
training. (GPU-only in Paddle; here the same math on any device.)"""
import torch

from ...framework.tensor import Tensor, wrap
from ...nn.functional.attention import attention_math
from .attn_bias import LowerTriangularMask, LowerTriangularMaskWithTensorBias

__all__ = []


def memory_efficient_attention(query, key, value, attn_bias=None, p=0.0, scale=None,
                               training=True):
    """Attention of query [B, Mq, H, K] over key/value [B, Mk, H, K|Kv]; returns
    [B, Mq, H, Kv]."""
    if not (attn_bias is None or isinstance(attn_bias, (Tensor, LowerTriangularMask))):
        raise AssertionError(f"memory_efficient_attention: attn_bias must be None, a Tensor or "
                             f"a LowerTriangularMask, got {type(attn_bias).__name__}")
    q, k, v = query._t.transpose(1, 2), key._t.transpose(1, 2), value._t.transpose(1, 2)
    causal = isinstance(attn_bias, LowerTriangularMask)
    bias = None
    if isinstance(attn_bias, Tensor):
        bias = attn_bias._t
    elif isinstance(attn_bias, LowerTriangularMaskWithTensorBias):
        bias = attn_bias._bias._t
    if causal:
        upper = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=q.device).triu(1)
        causal_bias = torch.zeros((), dtype=q.dtype, device=q.device).masked_fill(upper,
                                                                                  -torch.inf)
        bias = causal_bias if bias is None else bias + causal_bias
    if scale is None or scale <= 0:
        scale = q.shape[-1] ** -0.5
    out, _, _ = attention_math(q, k, v, bias, p, False, training, scale)
    return wrap(out.transpose(1, 2))
