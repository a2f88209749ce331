"""``paddle.geometric``: message passing on graphs (``send_u_recv``, ``send_ue_recv``,
``send_uv``) and segment reductions, as gathers and ``scatter_reduce``.

Nodes that receive no message (or segments with no member) get 0, as in Paddle. Messages go
along edges ``src_index[e] -> dst_index[e]``.
"""
import torch

from .framework.tensor import Tensor, wrap

__all__ = ["send_u_recv", "send_ue_recv", "send_uv", "segment_sum", "segment_mean",
           "segment_min", "segment_max"]

_REDUCE = {"sum": "sum", "mean": "mean", "max": "amax", "min": "amin"}
_MESSAGE = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div}


def _reduce(msg, dst, n, reduce_op):
    """Reduce the per-edge messages ``msg`` into ``n`` rows by ``dst`` (0 for empty rows)."""
    if reduce_op not in _REDUCE:
        raise ValueError(f"reduce_op should be `sum`, `mean`, `max` or `min`, but received "
                         f"{reduce_op}")
    out = torch.zeros((n,) + tuple(msg.shape[1:]), dtype=msg.dtype, device=msg.device)
    idx = dst.to(torch.int64).reshape((-1,) + (1,) * (msg.dim() - 1)).expand_as(msg)
    if reduce_op in ("sum", "mean") or not msg.requires_grad:
        return out.scatter_reduce(0, idx, msg, _REDUCE[reduce_op], include_self=False)
    # max/min: Paddle passes the whole gradient to every message equal to the result (torch
    # would split it among ties); same values, Paddle's gradient
    best = out.scatter_reduce(0, idx, msg.detach(), _REDUCE[reduce_op], include_self=False)
    hit = msg.detach() == best.gather(0, idx)
    return best + out.scatter_add(0, idx, (msg - msg.detach()) * hit)


def _size(out_size, x):
    if out_size is None:
        return x.shape[0]
    if isinstance(out_size, Tensor):
        out_size = int(out_size._t.reshape(-1)[0].item())
    return x.shape[0] if out_size <= 0 else int(out_size)


def send_u_recv(x, src_index, dst_index, reduce_op="sum", out_size=None, name=None):
    """Gather x at ``src_index`` and reduce into the rows ``dst_index``."""
    t = x._t
    msg = t[src_index._t.to(torch.int64)]
    return wrap(_reduce(msg, dst_index._t, _size(out_size, t), reduce_op))


def _messages(x, y, src_index, message_op):
    if message_op not in _MESSAGE:
        raise ValueError(f"message_op should be `add`, `sub`, `mul` or `div`, but received "
                         f"{message_op}")
    return _MESSAGE[message_op](x._t[src_index._t.to(torch.int64)], y)


def send_ue_recv(x, y, src_index, dst_index, message_op="add", reduce_op="sum", out_size=None,
                 name=None):
    """Combine node features x[src] with edge features y (``message_op``) and reduce the
    messages into the rows ``dst_index``."""
    msg = _messages(x, y._t, src_index, message_op)
    return wrap(_reduce(msg, dst_index._t, _size(out_size, x._t), reduce_op))


def send_uv(x, y, src_index, dst_index, message_op="add", name=None):
    """Per-edge messages x[src] (op) y[dst]."""
    return wrap(_messages(x, y._t[dst_index._t.to(torch.int64)], src_index, message_op))


def _segment(data, segment_ids, reduce_op):
    t, ids = data._t, segment_ids._t
    n = int(ids.max().item()) + 1 if ids.numel() else 0
    return wrap(_reduce(t, ids, n, reduce_op))


def segment_sum(data, segment_ids, name=None):
    """Sum of the rows of ``data`` per (sorted) segment id."""
    return _segment(data, segment_ids, "sum")


def segment_mean(data, segment_ids, name=None):
    """Mean of the rows of ``data`` per segment id."""
    return _segment(data, segment_ids, "mean")


def segment_min(data, segment_ids, name=None):
    """Minimum of the rows of ``data`` per segment id (0 for empty segments)."""
    return _segment(data, segment_ids, "min")


def segment_max(data, segment_ids, name=None):
    """Maximum of the rows of ``data`` per segment id (0 for empty segments)."""
    return _segment(data, segment_ids, "max")
