"""Moving a distributed tensor to a mesh of other ranks (the pipeline stages of one job).

Paddle's dygraph rule, which torch's DTensor already follows: a rank outside a tensor's mesh
holds an empty local value, and the ops on that tensor skip their computation there. A move
between meshes is point to point (``torch.distributed`` send/recv) from the source mesh's
ranks to the destination's, and the gradient goes back the same way:

* meshes of one shape, the same placements (a pipeline stage handing its activation to the
  next one): the rank at each position of the source mesh sends its local shard to the rank at
  that position of the destination mesh;
* otherwise the value is made whole on the source mesh (a redistribute to Replicate), sent
  whole to the destination's ranks, and laid out there by an ordinary redistribute (done by
  the caller, ``reshard``).

Only the source mesh's ranks know the tensor's layout for sure: elsewhere DTensor skips the
computation, and its sharding propagation may pick other placements there (a redistribution
costs nothing on a rank that does not take part). So the source ranks decide the route and the
placements, and tell each destination rank in a small header before the data.

Every rank of the job runs the move (as every rank runs the forward pass), each doing only its
own sends and receives; the ranks of neither mesh do nothing.
"""
import torch
import torch.distributed as tdist
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard
from torch.distributed.tensor._utils import compute_local_shape_and_global_offset

__all__ = ["move_to_mesh"]

_REDUCE = ("sum", "avg", "max", "min")


def _encode(direct, placements):
    codes = [int(direct)]
    for p in placements:
        if p.is_shard():
            codes.append(1 + p.dim)
        elif p.is_partial():
            codes.append(-1 - _REDUCE.index(p.reduce_op))
        else:
            codes.append(0)
    return torch.tensor(codes, dtype=torch.int64)


def _decode(codes):
    codes = codes.cpu().tolist()
    return bool(codes[0]), tuple(Shard(c - 1) if c > 0 else Partial(_REDUCE[-1 - c]) if c < 0
                                 else Replicate() for c in codes[1:])


def _exchange(value, sends, recv_from, shape, dtype, device):
    """Post this rank's sends of ``value`` and its receive (``recv_from``: a rank, or None);
    return what was received (``value`` itself when the pair is this rank with itself, an
    empty tensor when nothing is received)."""
    me = tdist.get_rank()
    works, out = [], None
    if recv_from is not None and recv_from != me:
        out = torch.empty(shape, dtype=dtype, device=device)
        works.append(tdist.irecv(out, recv_from))
    if any(d != me for d in sends):
        value = value.contiguous()
        works += [tdist.isend(value, d) for d in sends if d != me]
    for w in works:
        w.wait()
    if recv_from == me:
        out = value
    return out if out is not None else torch.empty(0, dtype=dtype, device=device)


def _roles(pairs):
    me = tdist.get_rank()
    recv = [s for s, d in pairs if d == me]
    return [d for s, d in pairs if s == me], recv[0] if recv else None


class _Move(torch.autograd.Function):
    """The DTensor ``t`` as a DTensor on ``dm`` laid out as ``placements``, its local values
    sent along the ``fwd`` pairs (src, dst); the gradient goes back along the ``bwd`` pairs
    (dst, src), one per source rank (a source whose value went to several ranks gets its
    gradient from one of them: they are copies of one logical tensor, with one gradient)."""

    @staticmethod
    def forward(ctx, t, dm, placements, fwd, bwd):
        x = t.to_local()
        ctx.src = (t.device_mesh, t.placements, t.shape, t.stride(), x.shape)
        ctx.dst = (dm, placements)
        ctx.bwd = bwd
        sends, recv = _roles(fwd)
        y = _exchange(x, sends, recv, _local_shape(dm, t.shape, placements), x.dtype,
                      torch.device(dm.device_type))
        return DTensor.from_local(y, dm, placements, run_check=False, shape=t.shape,
                                  stride=t.stride())

    @staticmethod
    def backward(ctx, g):
        dm, placements = ctx.dst
        mesh, src_placements, shape, stride, local_shape = ctx.src
        if isinstance(g, DTensor):
            if tuple(g.placements) != tuple(placements):       # e.g. a Partial gradient
                g = g.redistribute(dm, placements)
            g = g.to_local()
        sends, recv = _roles(ctx.bwd)
        got = _exchange(g, sends, recv, local_shape, g.dtype, torch.device(mesh.device_type))
        if got.shape != local_shape:          # not a source rank: nothing comes back here
            got = g.new_zeros(local_shape)
        return (DTensor.from_local(got, mesh, src_placements, run_check=False, shape=shape,
                                   stride=stride), None, None, None, None)


def _local_shape(dm, shape, placements):
    if not dm._is_current_rank_part_of_mesh():
        return (0,)
    return tuple(compute_local_shape_and_global_offset(shape, dm, placements)[0])


def move_to_mesh(t, dm, target):
    """The DTensor ``t`` moved to the DeviceMesh ``dm`` (of other ranks), differentiably, and
    the placements it is to have there: ``target(placements of t)``, evaluated where they are
    known (on the source mesh). The DTensor has them when the direct route applied, else it is
    replicated and the caller redistributes; ranks of neither mesh get (replicated empty, None).
    """
    me = tdist.get_rank()
    src = t.device_mesh
    src_ids, dst_ids = src.mesh.reshape(-1).tolist(), dm.mesh.reshape(-1).tolist()
    if tuple(src.mesh.shape) == tuple(dm.mesh.shape):
        pairs = list(zip(src_ids, dst_ids))
        back = [(d, s) for s, d in pairs]
    else:
        pairs = [(d if d in src_ids else src_ids[i % len(src_ids)], d)
                 for i, d in enumerate(dst_ids)]
        back = [(s if s in dst_ids else dst_ids[j % len(dst_ids)], s)
                for j, s in enumerate(src_ids)]
    header = None
    if me in src_ids:                         # the layout is known here: decide
        tp = tuple(target(tuple(t.placements)))
        direct = (tuple(src.mesh.shape) == tuple(dm.mesh.shape) and tuple(t.placements) == tp
                  and not any(p.is_partial() for p in tp))
        header = _encode(direct, tp).to(dm.device_type)
    sends, recv = _roles(pairs)
    works = [tdist.isend(header, d) for d in sends if d != me]
    if recv is not None and recv != me:
        header = torch.empty(1 + dm.ndim, dtype=torch.int64, device=dm.device_type)
        tdist.irecv(header, recv).wait()
    for w in works:
        w.wait()
    if header is None:                        # a rank of neither mesh
        rep = (Replicate(),) * dm.ndim
        return _Move.apply(t, dm, rep, pairs, back), None
    direct, tp = _decode(header)
    if direct:
        return _Move.apply(t, dm, tp, pairs, back), tp
    if me in src_ids:
        t = t.redistribute(src, [Replicate()] * src.ndim)
    return _Move.apply(t, dm, (Replicate(),) * dm.ndim, pairs, back), tp
