"""``paddle.incubate``: the fused softmax-with-mask ops here, fused layers in ``incubate.nn``;
``segment_sum``/``mean``/``max``/``min`` are ``paddle.geometric``'s (Paddle's older home for them)."""
import torch

from ..framework.tensor import wrap
from . import nn
from ..geometric import segment_max, segment_mean, segment_min, segment_sum

__all__ = ["softmax_mask_fuse_upper_triangle", "softmax_mask_fuse", "segment_sum",
           "segment_mean", "segment_max", "segment_min"]


def softmax_mask_fuse_upper_triangle(x):
    """Softmax over the last dim of [batch, heads, seq, seq] scores with every key after the
    query (j > i) masked out: causal attention weights."""
    t = x._t
    upper = torch.ones(t.shape[-2:], dtype=torch.bool, device=t.device).triu(1)
    return wrap(torch.softmax(t.masked_fill(upper, -torch.inf), -1))


def softmax_mask_fuse(x, mask, name=None):
    """softmax(x + mask) over the last dim."""
    return wrap(torch.softmax(x._t + mask._t, -1))
