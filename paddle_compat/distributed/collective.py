"""Paddle's collectives on ``torch.distributed``: in place on paddle_compat Tensors.

Each function takes Paddle's arguments (``group`` a ``Group`` from ``new_group`` or None for
the whole job, ``src``/``dst`` global ranks, ``sync_op``) and hands the Tensor's torch payload to
the matching ``torch.distributed`` call, so results land in the caller's Tensors without a copy.
Where gloo lacks an operation (``ReduceOp.AVG``, ``reduce_scatter``) it is composed from the
ones it has. ``sync_op=False`` returns a task whose ``wait()`` finishes the work.
"""
import torch
import torch.distributed as dist

from ..framework.tensor import wrap

__all__ = ["ReduceOp", "Group", "new_group", "get_group", "all_reduce", "all_gather",
           "all_gather_object", "broadcast", "broadcast_object_list", "reduce",
           "reduce_scatter", "scatter", "scatter_object_list", "gather", "alltoall",
           "alltoall_single", "barrier", "send", "recv", "isend", "irecv", "wait"]


class ReduceOp:
    """Element-wise reductions: ``SUM``, ``MAX``, ``MIN``, ``PROD``, ``AVG``."""
    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4


_TORCH_OPS = {ReduceOp.SUM: dist.ReduceOp.SUM, ReduceOp.MAX: dist.ReduceOp.MAX,
              ReduceOp.MIN: dist.ReduceOp.MIN, ReduceOp.PROD: dist.ReduceOp.PRODUCT}


class Group:
    """A set of ranks that communicate together (Paddle's ``Group``).

    ``rank`` is this process's rank inside the group (-1 when it is not a member), ``ranks`` the
    global ranks, ``process_group`` the torch ProcessGroup.
    """

    def __init__(self, rank_in_group, id, ranks, pg=None, name=None, backend=None):
        self._rank_in_group = rank_in_group
        self._world_size = len(ranks) if rank_in_group >= 0 else -1
        self._id = id
        self._ranks = ranks
        self._pg = pg
        self._name = name
        self._backend = backend

    @property
    def rank(self):
        return self._rank_in_group

    @property
    def ranks(self):
        return self._ranks

    @property
    def nranks(self):
        return len(self._ranks)

    @property
    def name(self):
        return self._name

    @property
    def process_group(self):
        return self._pg

    @property
    def world_size(self):
        return self._world_size

    @property
    def backend(self):
        return (self._backend or "gloo").upper()

    @property
    def id(self):
        return self._id

    def is_member(self):
        return self.rank >= 0 and self.nranks >= 2

    def get_group_rank(self, rank):
        return self.ranks.index(rank) if self.is_member() else -1

    def get_global_rank(self, rank):
        return self.ranks[rank] if self.is_member() else -1

    def __repr__(self):
        return (f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: "
                f"{', '.join(map(str, self.ranks))}; name: {self.name}")


_default_group = None
_groups = {}


def _make_default_group(backend):
    global _default_group
    ranks = list(range(dist.get_world_size()))
    _default_group = Group(dist.get_rank(), 0, ranks, pg=dist.group.WORLD, name="_default_pg",
                           backend=backend)
    _groups[0] = _default_group
    return _default_group


def _reset():
    global _default_group
    _default_group = None
    _groups.clear()


def _get_group(group):
    if group is not None:
        return group
    if _default_group is None:
        if dist.is_available() and dist.is_initialized():
            return _make_default_group(dist.get_backend())
        raise RuntimeError("paddle.distributed: the parallel environment is not initialized: "
                           "call paddle.distributed.init_parallel_env() first")
    return _default_group


def new_group(ranks=None, backend=None, timeout=None, nccl_comm_init_option=0):
    """A Group of ``ranks`` (global ranks; all of them when None). Every process of the job must
    call it, members or not, in the same order."""
    g0 = _get_group(None)
    ranks = sorted(ranks) if ranks is not None else list(g0.ranks)
    kwargs = {} if timeout is None else {"timeout": timeout}
    pg = dist.new_group(ranks, backend=backend, **kwargs)
    me = dist.get_rank()
    gid = max(_groups) + 1 if _groups else 1
    g = Group(ranks.index(me) if me in ranks else -1, gid, ranks, pg=pg,
              name=f"_default_pg{gid}", backend=backend or g0._backend)
    _groups[gid] = g
    return g


def get_group(id=0):
    """The Group with this id (0: the whole job), or None."""
    if id == 0 and _default_group is None and dist.is_available() and dist.is_initialized():
        return _get_group(None)
    return _groups.get(id)


class _Task:
    """What Paddle's collectives return: ``wait()`` finishes the work (and any step gloo
    needed after it), ``is_completed()`` says whether it is done."""

    __slots__ = ("_work", "_then", "_done")

    def __init__(self, work=None, then=None):
        self._work = work
        self._then = then
        self._done = work is None
        if self._done and then is not None:
            then()

    def wait(self, timeout=None):
        if not self._done:
            if self._work is not None:
                self._work.wait()
            if self._then is not None:
                self._then()
            self._done = True
        return True

    def is_completed(self):
        return self._done or (self._work is not None and self._work.is_completed())

    synchronize = wait


def _t(x, api, arg="tensor"):
    """The torch payload of a Tensor argument, as a tensor that does not track autograd (the
    collective writes into its storage; the caller's Tensor sees the result)."""
    try:
        t = x._t
    except AttributeError:
        raise TypeError(f"paddle.distributed.{api}(): argument '{arg}' must be a Tensor, but "
                        f"got {type(x).__name__}") from None
    if not isinstance(t, torch.Tensor):
        raise NotImplementedError(f"paddle.distributed.{api} in static graph mode is not "
                                  "supported by paddle_compat yet")
    return t.detach()


def _run(fn, sync_op, then=None):
    """Run a torch.distributed call synchronously or as a task."""
    if sync_op:
        fn(False)
        return _Task(None, then)
    return _Task(fn(True), then)


def _avg(t, n):
    def then():
        if t.is_floating_point() or t.is_complex():
            t.div_(n)
        else:
            t.copy_(torch.div(t, n, rounding_mode="trunc"))
    return then


def _op(op, api):
    try:
        return _TORCH_OPS[op]
    except (KeyError, TypeError):
        if op == ReduceOp.AVG:
            return None
        raise ValueError(f"paddle.distributed.{api}(): unknown reduce op {op!r}; use "
                         "paddle.distributed.ReduceOp.SUM/MAX/MIN/PROD/AVG") from None


def all_reduce(tensor, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce ``tensor`` over the group; every rank gets the result in ``tensor``."""
    g = _get_group(group)
    t = _t(tensor, "all_reduce")
    top, then = _op(op, "all_reduce"), None
    if top is None:                          # AVG: gloo has none; SUM then divide
        top, then = dist.ReduceOp.SUM, _avg(t, g.nranks)
    return _run(lambda a: dist.all_reduce(t, top, g.process_group, a), sync_op, then)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce ``tensor`` over the group into rank ``dst``'s ``tensor`` (a global rank)."""
    g = _get_group(group)
    t = _t(tensor, "reduce")
    top = _op(op, "reduce")
    then = None
    if top is None:
        top = dist.ReduceOp.SUM
        then = _avg(t, g.nranks) if dist.get_rank() == dst else None
    return _run(lambda a: dist.reduce(t, dst, top, g.process_group, a), sync_op, then)


def broadcast(tensor, src, group=None, sync_op=True):
    """Copy rank ``src``'s ``tensor`` into every rank's ``tensor``."""
    g = _get_group(group)
    t = _t(tensor, "broadcast")
    return _run(lambda a: dist.broadcast(t, src, g.process_group, a), sync_op)


def all_gather(tensor_list, tensor, group=None, sync_op=True):
    """Gather every rank's ``tensor`` into ``tensor_list`` (filled when empty, else written)."""
    g = _get_group(group)
    t = _t(tensor, "all_gather")
    if len(tensor_list) == 0:
        outs = [torch.empty_like(t) for _ in range(g.nranks)]
        tensor_list.extend(wrap(o) for o in outs)
    else:
        outs = [_t(x, "all_gather", "tensor_list") for x in tensor_list]
    return _run(lambda a: dist.all_gather(outs, t, g.process_group, a), sync_op)


def all_gather_object(object_list, obj, group=None):
    """Append every rank's picklable ``obj`` to ``object_list`` (in rank order)."""
    g = _get_group(group)
    out = [None] * g.nranks
    dist.all_gather_object(out, obj, group=g.process_group)
    object_list.extend(out)


def broadcast_object_list(object_list, src, group=None):
    """Replace ``object_list``'s items by rank ``src``'s (the lists have the same length)."""
    g = _get_group(group)
    dist.broadcast_object_list(object_list, src, group=g.process_group)


def scatter(tensor, tensor_list=None, src=0, group=None, sync_op=True):
    """Rank ``src`` sends ``tensor_list[i]`` to the group's i-th rank, into its ``tensor``."""
    g = _get_group(group)
    t = _t(tensor, "scatter")
    ins = None
    if dist.get_rank() == src:
        ins = [_t(x, "scatter", "tensor_list") for x in tensor_list]
    return _run(lambda a: dist.scatter(t, ins, src, g.process_group, a), sync_op)


def scatter_object_list(out_object_list, in_object_list=None, src=0, group=None):
    """``out_object_list`` becomes ``[in_object_list[rank]]`` of rank ``src``."""
    g = _get_group(group)
    out = [None]
    dist.scatter_object_list(out, in_object_list if dist.get_rank() == src else None, src,
                             group=g.process_group)
    out_object_list.clear()
    out_object_list.append(out[0])


def gather(tensor, gather_list=None, dst=0, group=None, sync_op=True):
    """Rank ``dst`` receives every rank's ``tensor`` in ``gather_list`` (filled when empty)."""
    g = _get_group(group)
    t = _t(tensor, "gather")
    outs = None
    if dist.get_rank() == dst:
        if gather_list is None:
            raise ValueError("paddle.distributed.gather(): gather_list is required on dst")
        if len(gather_list) == 0:
            outs = [torch.empty_like(t) for _ in range(g.nranks)]
            gather_list.extend(wrap(o) for o in outs)
        else:
            outs = [_t(x, "gather", "gather_list") for x in gather_list]
    return _run(lambda a: dist.gather(t, outs, dst, g.process_group, a), sync_op)


def reduce_scatter(tensor, tensor_list, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce ``tensor_list`` element-wise over the group; rank i gets item i in ``tensor``."""
    g = _get_group(group)
    t = _t(tensor, "reduce_scatter")
    ins = [_t(x, "reduce_scatter", "tensor_list") for x in tensor_list]
    top = _op(op, "reduce_scatter")
    if g.backend == "NCCL":
        then = None
        if top is None:
            top, then = dist.ReduceOp.SUM, _avg(t, g.nranks)
        return _run(lambda a: dist.reduce_scatter(t, ins, top, g.process_group, a), sync_op,
                    then)
    # gloo has no reduce_scatter: all-reduce the stacked inputs, keep this rank's part
    stacked = torch.stack(ins)
    me = g.rank

    def then():
        if top is None:
            _avg(stacked, g.nranks)()
        t.copy_(stacked[me])
    return _run(lambda a: dist.all_reduce(stacked, top or dist.ReduceOp.SUM, g.process_group,
                                          a), sync_op, then)


def alltoall(out_tensor_list, in_tensor_list, group=None, sync_op=True):
    """Rank i sends ``in_tensor_list[j]`` to rank j, which gets it as ``out_tensor_list[i]``."""
    g = _get_group(group)
    ins = [_t(x, "alltoall", "in_tensor_list") for x in in_tensor_list]
    if len(out_tensor_list) == 0:
        outs = [torch.empty_like(x) for x in ins]
        out_tensor_list.extend(wrap(o) for o in outs)
    else:
        outs = [_t(x, "alltoall", "out_tensor_list") for x in out_tensor_list]
    src = torch.stack(ins)
    dst = torch.empty_like(src)

    def then():
        for o, d in zip(outs, dst):
            o.copy_(d)
    return _run(lambda a: dist.all_to_all_single(dst, src, group=g.process_group, async_op=a),
                sync_op, then)


def alltoall_single(out_tensor, in_tensor, in_split_sizes=None, out_split_sizes=None,
                    group=None, sync_op=True):
    """``alltoall`` on the first dimension of one tensor each way."""
    g = _get_group(group)
    o, i = _t(out_tensor, "alltoall_single"), _t(in_tensor, "alltoall_single")
    return _run(lambda a: dist.all_to_all_single(o, i, out_split_sizes, in_split_sizes,
                                                 group=g.process_group, async_op=a), sync_op)


def barrier(group=None):
    """Wait until every rank of the group reaches this point."""
    g = _get_group(group)
    dist.barrier(group=g.process_group)


def send(tensor, dst=0, group=None, sync_op=True):
    """Send ``tensor`` to rank ``dst``."""
    g = _get_group(group)
    t = _t(tensor, "send")
    if sync_op:
        dist.send(t, dst, group=g.process_group)
        return _Task()
    return _Task(dist.isend(t, dst, group=g.process_group))


def recv(tensor, src=0, group=None, sync_op=True):
    """Receive into ``tensor`` what rank ``src`` sends."""
    g = _get_group(group)
    t = _t(tensor, "recv")
    if sync_op:
        dist.recv(t, src, group=g.process_group)
        return _Task()
    return _Task(dist.irecv(t, src, group=g.process_group))


def isend(tensor, dst, group=None):
    return send(tensor, dst, group, sync_op=False)


def irecv(tensor, src=None, group=None):
    return recv(tensor, src, group, sync_op=False)


def wait(tensor, group=None, use_calc_stream=True):
    """Make sure the collectives on ``tensor`` have finished (CUDA: synchronise its stream)."""
    t = getattr(tensor, "_t", None)
    if isinstance(t, torch.Tensor) and t.is_cuda:
        torch.cuda.current_stream(t.device).synchronize()
