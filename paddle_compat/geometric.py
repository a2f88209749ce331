"""``paddle.geometric``: message passing on graphs (``send_u_recv``, ``send_ue_recv``,
``send_uv``) and segment reductions, as gathers and ``scatter_reduce``.

Nodes that receive no message (or segments with no member) get 0, as in Paddle. Messages go
along edges ``src_index[e] -> dst_index[e]``.

``sample_neighbors`` samples without replacement from a CSC graph. Paddle's CPU kernel seeds
its engine from ``std::random_device`` (it never repeats); here the draws come from
``nn.functional.extra.side_generator``, so they repeat under ``paddle.seed`` and leave the
shared random stream untouched, as Paddle does. ``weighted_sample_neighbors`` draws the same
way, with probabilities proportional to the edge weights. ``reindex_graph`` /
``reindex_heter_graph`` renumber a sampled subgraph from 0.
"""
import torch

from .framework.tensor import Tensor, wrap
from .nn.functional.extra import side_generator as _side_generator
from .random.distributions import rand as _rand
from .static import fluid_ops as _fluid_ops

__all__ = ["send_u_recv", "send_ue_recv", "send_uv", "segment_sum", "segment_mean",
           "segment_min", "segment_max", "sample_neighbors", "reindex_graph",
           "reindex_heter_graph", "weighted_sample_neighbors"]

_REDUCE = {"sum": "sum", "mean": "mean", "max": "amax", "min": "amin"}
_MESSAGE = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div}


def _reduce(msg, dst, n, reduce_op):
    """Reduce the per-edge messages ``msg`` into ``n`` rows by ``dst`` (0 for empty rows)."""
    if reduce_op not in _REDUCE:
        raise ValueError(f"reduce_op should be `sum`, `mean`, `max` or `min`, but received "
                         f"{reduce_op}")
    out = torch.zeros((n,) + tuple(msg.shape[1:]), dtype=msg.dtype, device=msg.device)
    idx = dst.to(torch.int64).reshape((-1,) + (1,) * (msg.dim() - 1)).expand_as(msg)
    if reduce_op == "mean" and not (msg.is_floating_point() or msg.is_complex()):
        # integer means round toward zero in Paddle (torch's scatter mean floors)
        total = out.scatter_reduce(0, idx, msg, "sum", include_self=False)
        count = out.scatter_reduce(0, idx, torch.ones_like(msg), "sum", include_self=False)
        return torch.div(total, count.clamp(min=1), rounding_mode="trunc")
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
    xs = x._t[src_index._t.to(torch.int64)]
    # the feature dims broadcast after the edge dim: x [E, 3, 1] with y [E, 1]
    if y.dim() < xs.dim():
        y = y.reshape(y.shape[:1] + (1,) * (xs.dim() - y.dim()) + y.shape[1:])
    elif xs.dim() < y.dim():
        xs = xs.reshape(xs.shape[:1] + (1,) * (y.dim() - xs.dim()) + xs.shape[1:])
    return _MESSAGE[message_op](xs, y)


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
    if isinstance(t, torch.Tensor) and isinstance(ids, torch.Tensor):
        return wrap(_segments(t, ids, reduce_op))
    # a static Variable: reduced when the program runs, the number of segments reads -1
    anchor = t if not isinstance(t, torch.Tensor) else ids
    return wrap(anchor.record_dims(_segments, (t, ids, reduce_op), {},
                                   [-1] + list(data.shape[1:]), t.dtype))


def _segments(t, ids, reduce_op):
    """The rows of ``t`` reduced per segment id (max id + 1 segments)."""
    n = int(ids.max().item()) + 1 if ids.numel() else 0
    return _reduce(t, ids, n, reduce_op)


# Paddle's op type of the four (``OpTest``, Block.append_op): pooltype SUM/MEAN/MAX/MIN
_fluid_ops.register({"segment_pool": (
    lambda layer, ins, a: [_segment(ins[0], ins[1], a["pooltype"].lower()), None],
    ["X", "SegmentIds"], ["Out", "SummedIds"])})


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


def sample_neighbors(row, colptr, input_nodes, sample_size=-1, eids=None, return_eids=False,
                     perm_buffer=None, name=None):
    """For each input node, ``sample_size`` of its in-neighbours (``row[colptr[n]:colptr[n+1]]``)
    drawn without replacement in random order, or all of them in order when it has no more (or
    ``sample_size`` is -1). Returns (neighbours, int32 counts[, edge ids])."""
    if return_eids and eids is None:
        raise ValueError("`eids` should not be None if `return_eids` is True.")
    r, ptr = row._t.reshape(-1), colptr._t.reshape(-1).long()
    nodes = input_nodes._t.reshape(-1).long()
    start, cap = ptr[nodes], ptr[nodes + 1] - ptr[nodes]
    take = cap if sample_size < 0 else cap.clamp(max=sample_size)
    seg = torch.repeat_interleave(torch.arange(nodes.numel(), device=r.device), cap)
    first = torch.cumsum(cap, 0) - cap
    local = torch.arange(seg.numel(), device=r.device) - first[seg]
    edge = start[seg] + local
    sampled = (take < cap)[seg]
    if bool(sampled.any()):
        keys = torch.from_numpy(_rand(_side_generator(), [seg.numel()], "float64")).to(r.device)
        # within a sampled node a random order, elsewhere the stored order
        keys = torch.where(sampled, keys, local / cap[seg].clamp(min=1))
        order = torch.argsort(seg.double() + keys, stable=True)
        edge = edge[order]
    keep = local < take[seg]
    out = [wrap(r[edge[keep]]), wrap(take.to(torch.int32))]
    if return_eids:
        out.append(wrap(eids._t.reshape(-1)[edge[keep]]))
    return tuple(out)


# ---------------------------------------------------------------------- reindexing
def _first_seen(values):
    """The distinct values in order of first appearance, and each value's rank there."""
    uniq, inverse = torch.unique(values, return_inverse=True)
    pos = torch.arange(values.numel(), device=values.device)
    first = torch.full((uniq.numel(),), values.numel(), dtype=torch.int64, device=values.device)
    first = first.scatter_reduce(0, inverse, pos, "amin")
    order = torch.argsort(first)
    rank = torch.empty_like(order)
    rank[order] = torch.arange(order.numel(), device=values.device)
    return uniq[order], rank[inverse]


def _check_index(t, what, dtype=None):
    if t.dtype not in (torch.int32, torch.int64) or (dtype is not None and t.dtype != dtype):
        want = str(dtype).replace("torch.", "") if dtype is not None else "int32 or int64"
        raise ValueError(f"(InvalidArgument) The data type of `{what}` should be {want}, but "
                         f"received {str(t.dtype).replace('torch.', '')}.")


def _reindex(x, neighbors, counts):
    xs = x._t.reshape(-1)
    _check_index(xs, "x")
    nbs, dsts = [], []
    n = torch.arange(xs.numel(), device=xs.device)
    for nb, cnt in zip(neighbors, counts):
        nb, cnt = nb._t.reshape(-1), cnt._t.reshape(-1)
        _check_index(nb, "neighbors", xs.dtype)
        _check_index(cnt, "count", torch.int32)
        if cnt.numel() != xs.numel():
            raise ValueError(f"(InvalidArgument) `count` should have one entry per node of `x` "
                             f"({xs.numel()}), but has {cnt.numel()}.")
        if int(cnt.sum()) != nb.numel():
            raise ValueError(f"(InvalidArgument) The sum of `count` ({int(cnt.sum())}) should "
                             f"be the number of `neighbors` ({nb.numel()}).")
        nbs.append(nb)
        dsts.append(torch.repeat_interleave(n, cnt.long()))
    allnb = torch.cat(nbs) if nbs else xs[:0]
    nodes, rank = _first_seen(torch.cat([xs, allnb]))
    src = rank[xs.numel():].to(xs.dtype)
    dst = torch.cat(dsts).to(xs.dtype) if dsts else xs[:0]
    return wrap(src), wrap(dst), wrap(nodes)


def reindex_graph(x, neighbors, count, value_buffer=None, index_buffer=None, name=None):
    """Renumber a sampled subgraph from 0: ``x`` (the centre nodes) keep their positions, the
    other ``neighbors`` follow in order of first appearance. ``count[i]`` neighbours belong to
    ``x[i]`` (int32). Returns (reindex_src, reindex_dst, out_nodes): each edge
    ``neighbors[e] -> x[i]`` as new ids, and the original id of every new id. The buffers
    are the GPU kernel's hash-table memory and are not needed here."""
    return _reindex(x, [neighbors], [count])


def reindex_heter_graph(x, neighbors, count, value_buffer=None, index_buffer=None, name=None):
    """``reindex_graph`` for several edge types at once: ``neighbors`` and ``count`` are lists
    (one per type); the edges of all types are concatenated, sharing one numbering."""
    if len(neighbors) != len(count):
        raise ValueError("(InvalidArgument) `neighbors` and `count` should have the same "
                         "number of edge types.")
    return _reindex(x, list(neighbors), list(count))


# ---------------------------------------------------------------------- weighted sampling
def weighted_sample_neighbors(row, colptr, edge_weight, input_nodes, sample_size=-1, eids=None,
                              return_eids=False, name=None):
    """For each input node, ``sample_size`` of its in-neighbours drawn without replacement with
    probability proportional to ``edge_weight`` (Efraimidis-Spirakis: the largest keys
    ``u ** (1 / w)``, u uniform), in the order drawn; all of them in stored order when it has
    no more (or ``sample_size`` is -1). Returns (neighbours, int32 counts[, edge ids]).

    Paddle's CPU kernel seeds from ``std::random_device`` (no two runs agree); the uniforms here
    come from ``nn.functional.extra.side_generator``: they repeat under ``paddle.seed`` and
    leave the shared random stream untouched."""
    if return_eids and eids is None:
        raise ValueError("`eids` should not be None if `return_eids` is True.")
    r, ptr = row._t.reshape(-1), colptr._t.reshape(-1).long()
    w = edge_weight._t.reshape(-1)
    nodes = input_nodes._t.reshape(-1).long()
    start, cap = ptr[nodes], ptr[nodes + 1] - ptr[nodes]
    take = cap if sample_size < 0 else cap.clamp(max=sample_size)
    seg = torch.repeat_interleave(torch.arange(nodes.numel(), device=r.device), cap)
    first = torch.cumsum(cap, 0) - cap
    local = torch.arange(seg.numel(), device=r.device) - first[seg]
    edge = start[seg] + local
    sampled = (take < cap)[seg]
    if bool(sampled.any()):
        u = torch.from_numpy(_rand(_side_generator(), [seg.numel()], "float64")).to(r.device)
        # log(u) / w orders as u ** (1/w); bigger key first, a zero weight last
        key = torch.log(u.clamp(min=1e-300)) / w[edge].double()
        # within a sampled node by decreasing key, elsewhere the stored order
        key = torch.where(sampled, -key, local.double())
        key = torch.where(torch.isnan(key), torch.inf, key)
        order = torch.argsort(key, stable=True)
        order = order[torch.argsort(seg[order], stable=True)]
        edge = edge[order]
    keep = local < take[seg]
    out = [wrap(r[edge[keep]]), wrap(take.to(torch.int32))]
    if return_eids:
        out.append(wrap(eids._t.reshape(-1)[edge[keep]]))
    return tuple(out)
