"""The graph ops' old homes in ``paddle.incubate`` (deprecated since Paddle 2.4 in favour of
``paddle.geometric``): ``graph_send_recv``, ``graph_reindex``, ``graph_sample_neighbors`` and
``graph_khop_sampler`` (multi-hop sampling with the sampled subgraph renumbered from 0).

Paddle 3.3.1's CPU kernels abort or hang on some documented inputs (``sample_size=-1`` in
``graph_sample_neighbors``, any ``graph_khop_sampler`` with two hops or a -1): here they do
what the documentation says.
"""
import torch

from ..framework.tensor import wrap
from ..geometric import reindex_graph, sample_neighbors, send_u_recv
from ..geometric import _first_seen  # noqa: PLC2701  (one renumbering for both)
from ..utils.deprecated import deprecated

__all__ = ["graph_send_recv", "graph_reindex", "graph_sample_neighbors", "graph_khop_sampler"]


@deprecated(since="2.4.0", update_to="paddle.geometric.send_u_recv", level=1,
            reason="graph_send_recv in paddle.incubate will be removed in future")
def graph_send_recv(x, src_index, dst_index, pool_type="sum", out_size=None, name=None):
    """``paddle.geometric.send_u_recv`` under its old name (``pool_type`` is its
    ``reduce_op``)."""
    if pool_type not in ("sum", "mean", "max", "min"):
        raise ValueError(f"pool_type should be `sum`, `mean`, `max` or `min`, but received "
                         f"{pool_type}")
    return send_u_recv(x, src_index, dst_index, pool_type, out_size)


@deprecated(since="2.4.0", update_to="paddle.geometric.reindex_graph", level=1,
            reason="paddle.incubate.graph_reindex will be removed in future")
def graph_reindex(x, neighbors, count, value_buffer=None, index_buffer=None,
                  flag_buffer_hashtable=False, name=None):
    """``paddle.geometric.reindex_graph`` under its old name (the buffers are the GPU kernel's
    hash table; they must be given when ``flag_buffer_hashtable`` is set, and are not used)."""
    if flag_buffer_hashtable and (value_buffer is None or index_buffer is None):
        raise ValueError("`value_buffer` and `index_buffer` should notbe None if "
                         "`flag_buffer_hashtable` is True.")
    return reindex_graph(x, neighbors, count)


@deprecated(since="2.4.0", update_to="paddle.geometric.sample_neighbors", level=1,
            reason="paddle.incubate.graph_sample_neighbors will be removed in future")
def graph_sample_neighbors(row, colptr, input_nodes, eids=None, perm_buffer=None,
                           sample_size=-1, return_eids=False, flag_perm_buffer=False, name=None):
    """``paddle.geometric.sample_neighbors`` under its old name and argument order."""
    if return_eids and eids is None:
        raise ValueError("`eids` should not be None if `return_eids` is True.")
    if flag_perm_buffer and perm_buffer is None:
        raise ValueError("`perm_buffer` should not be None if `flag_perm_buffer` is True.")
    return sample_neighbors(row, colptr, input_nodes, sample_size=sample_size, eids=eids,
                            return_eids=return_eids)


def graph_khop_sampler(row, colptr, input_nodes, sample_sizes, sorted_eids=None,
                       return_eids=False, name=None):
    """Sample ``len(sample_sizes)`` hops of in-neighbours: hop 1 samples ``sample_sizes[0]``
    neighbours of each input node, each later hop samples from the distinct nodes the hop
    before reached (in order of first appearance). Returns (edge_src, edge_dst, sample_index,
    reindex_nodes[, edge_eids]): the sampled edges ``src -> dst`` as [E, 1] ids into
    ``sample_index`` (the input nodes first, then each new node in order of appearance), and
    the input nodes' positions in it."""
    if return_eids and sorted_eids is None:
        raise ValueError("`sorted_eid` should not be None if return_eids is True.")
    nodes = input_nodes._t.reshape(-1)
    dtype = nodes.dtype
    srcs, dsts, eids = [], [], []
    frontier = input_nodes
    for size in sample_sizes:
        res = sample_neighbors(row, colptr, frontier, sample_size=int(size), eids=sorted_eids,
                               return_eids=return_eids)
        nb, cnt = res[0]._t, res[1]._t.long()
        srcs.append(nb)
        dsts.append(torch.repeat_interleave(frontier._t.reshape(-1), cnt))
        if return_eids:
            eids.append(res[2]._t)
        frontier = wrap(_first_seen(nb)[0]) if nb.numel() else wrap(nb)
    src = torch.cat(srcs) if srcs else nodes[:0]
    dst = torch.cat(dsts) if dsts else nodes[:0]
    sample_index, rank = _first_seen(torch.cat([nodes, src, dst]))
    n, e = nodes.numel(), src.numel()
    out = [wrap(rank[n:n + e].to(dtype).reshape(-1, 1)),
           wrap(rank[n + e:].to(dtype).reshape(-1, 1)),
           wrap(sample_index), wrap(rank[:n].to(dtype))]
    if return_eids:
        out.append(wrap(torch.cat(eids)))
    return tuple(out)
