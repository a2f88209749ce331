"""``paddle.incubate``: the fused softmax-with-mask ops here, fused layers in ``incubate.nn``;
``segment_sum``/``mean``/``max``/``min`` are ``paddle.geometric``'s (Paddle's older home for them),
as are the deprecated ``graph_*`` ops (``graph``); the indexed random states (``rng``);
``identity_loss`` and the ``inference`` decorator (``misc``); the ``cc`` compiler front end."""
import torch

from ..framework.tensor import wrap
from . import asp, autograd, cc, nn
from ..geometric import segment_max, segment_mean, segment_min, segment_sum
from .graph import graph_khop_sampler, graph_reindex, graph_sample_neighbors, graph_send_recv
from .misc import identity_loss, inference
from .optimizer import DistributedFusedLamb, LookAhead, ModelAverage
from .rng import get_rng_state, register_rng_state_as_index, set_rng_state

__all__ = ["softmax_mask_fuse_upper_triangle", "softmax_mask_fuse", "segment_sum",
           "segment_mean", "segment_max", "segment_min", "graph_send_recv", "graph_reindex",
           "graph_sample_neighbors", "graph_khop_sampler", "identity_loss", "inference",
           "get_rng_state", "set_rng_state", "register_rng_state_as_index", "cc",
           "LookAhead", "ModelAverage", "DistributedFusedLamb", "autograd", "asp"]


def softmax_mask_fuse_upper_triangle(x):
    """Softmax over the last dim of [batch, heads, seq, seq] scores with every key after the
    query (j > i) masked out: causal attention weights."""
    t = x._t
    upper = torch.ones(t.shape[-2:], dtype=torch.bool, device=t.device).triu(1)
    return wrap(torch.softmax(t.masked_fill(upper, -torch.inf), -1))


def softmax_mask_fuse(x, mask, name=None):
    """softmax(x + mask) over the last dim."""
    return wrap(torch.softmax(x._t + mask._t, -1))
