"""Paddle's collectives on ``torch.distributed``: in place on paddle_compat Tensors.

Each function takes Paddle's arguments (``group`` a ``Group`` from ``new_group`` or None for
the whole job, ``src``/``dst`` global ranks, ``sync_op``) and hands the Tensor's torch payload to
the matching ``torch.distributed`` call, so results land in the caller's Tensors without a copy.
Where gloo lacks an operation (``ReduceOp.AVG``, ``reduce_scatter``) it is composed from the
ones it has. ``sync_op=False`` returns a task whose ``wait()`` finishes the work.

Objects (``all_gather_object``, ``broadcast_object_list``, ``scatter_object_list``,
``send_object_list`` / ``recv_object_list``) travel pickled as uint8 tensors over the job's
own process group, and are unpickled by a restricted unpickler: only None, bool, int, float,
complex, str, bytes, bytearray, list, tuple, dict, set, frozenset, slice, range,
``collections.OrderedDict`` and numpy arrays / scalars / dtypes are rebuilt; anything else
(a class, a function, a Tensor) raises ``pickle.UnpicklingError`` naming it, so a peer can
never make this process run code. Send numpy arrays (``tensor.numpy()``) instead of Tensors.

A mismatched collective (ranks passing tensors of different shapes or dtypes) is not caught
by gloo: the smaller rank gets a wrong result silently and the other waits for the timeout.
So ``all_reduce``, ``reduce``, ``broadcast``, ``all_gather`` and ``reduce_scatter`` first
all-gather every rank's (dtype, shape) (one 80-byte all-gather) and raise a ValueError
naming the ranks that differ, on every rank. ``PADDLE_COMPAT_CHECK_COLLECTIVES=0`` turns the
check off (bench/bench_distributed.py measures its cost).
"""
import datetime
import io
import os
import pickle

import numpy as np
import torch
import torch.distributed as dist

from ..framework.tensor import wrap

__all__ = ["ReduceOp", "Group", "new_group", "get_group", "all_reduce", "all_gather",
           "all_gather_object", "broadcast", "broadcast_object_list", "reduce",
           "reduce_scatter", "scatter", "scatter_object_list", "gather", "alltoall",
           "alltoall_single", "barrier", "send", "recv", "isend", "irecv", "wait",
           "P2POp", "batch_isend_irecv", "send_object_list", "recv_object_list",
           "shutdown_process_group", "restart_process_group", "ParallelMode",
           "gloo_init_parallel_env", "gloo_barrier", "gloo_release"]


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


def new_group(ranks=None, backend=None, timeout=None, nccl_comm_init_option=0,
              nccl_config=None):
    """A Group of ``ranks`` (global ranks; all of them when None). Every process of the job must
    call it, members or not, in the same order. ``nccl_comm_init_option`` and ``nccl_config``
    (NCCL's buffer and algorithm tuning, from ``create_nccl_config``) are accepted and left to
    torch's NCCL defaults."""
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


_CHECK = os.getenv("PADDLE_COMPAT_CHECK_COLLECTIVES", "1") != "0"
_DTYPES = (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8,
           torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool, torch.complex64,
           torch.complex128, torch.float8_e4m3fn, torch.float8_e5m2, torch.uint16,
           torch.uint32, torch.uint64)
_DTYPE_CODES = {d: i + 1 for i, d in enumerate(_DTYPES)}


def _check_match(g, t, api):
    """Raise on every rank when the ranks' tensors differ in dtype or shape."""
    if not _CHECK or g.nranks < 2:
        return
    code = _DTYPE_CODES.get(t.dtype, 0)
    if t.dim() > 8:
        return
    desc = torch.zeros(10, dtype=torch.int64)
    desc[0], desc[1] = code, t.dim()
    desc[2:2 + t.dim()] = torch.tensor(t.shape, dtype=torch.int64)
    dev = _comm_device(g)
    desc = desc.to(dev)
    rows = [torch.empty_like(desc) for _ in range(g.nranks)]
    dist.all_gather(rows, desc, group=g.process_group)
    rows = torch.stack(rows).cpu()
    if bool((rows == rows[0]).all()):
        return
    names = {v: k for k, v in _DTYPE_CODES.items()}

    def what(row):
        dt = names.get(int(row[0]), "another dtype")
        return f"{str(dt).replace('torch.', '')}{list(int(d) for d in row[2:2 + int(row[1])])}"
    seen = ", ".join(f"rank {g.ranks[i]}: {what(r)}" for i, r in enumerate(rows))
    raise ValueError(f"paddle.distributed.{api}(): the ranks passed tensors of different "
                     f"dtypes or shapes ({seen}); every rank must pass the same")


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
    _check_match(g, t, "all_reduce")
    top, then = _op(op, "all_reduce"), None
    if top is None:                          # AVG: gloo has none; SUM then divide
        top, then = dist.ReduceOp.SUM, _avg(t, g.nranks)
    return _run(lambda a: dist.all_reduce(t, top, g.process_group, a), sync_op, then)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce ``tensor`` over the group into rank ``dst``'s ``tensor`` (a global rank)."""
    g = _get_group(group)
    t = _t(tensor, "reduce")
    _check_match(g, t, "reduce")
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
    _check_match(g, t, "broadcast")
    return _run(lambda a: dist.broadcast(t, src, g.process_group, a), sync_op)


def all_gather(tensor_list, tensor, group=None, sync_op=True):
    """Gather every rank's ``tensor`` into ``tensor_list`` (filled when empty, else written)."""
    g = _get_group(group)
    t = _t(tensor, "all_gather")
    _check_match(g, t, "all_gather")
    if len(tensor_list) == 0:
        outs = [torch.empty_like(t) for _ in range(g.nranks)]
        tensor_list.extend(wrap(o) for o in outs)
    else:
        outs = [_t(x, "all_gather", "tensor_list") for x in tensor_list]
    return _run(lambda a: dist.all_gather(outs, t, g.process_group, a), sync_op)


# ------------------------------------------------------------------ objects, restricted pickle
_SAFE_GLOBALS = frozenset(
    [("builtins", n) for n in ("complex", "set", "frozenset", "slice", "range", "bytearray",
                               "list", "dict", "tuple", "int", "float", "bool", "str",
                               "bytes", "object")]
    + [("collections", "OrderedDict"), ("_codecs", "encode")]
    + [(m, n) for m in ("numpy.core.multiarray", "numpy._core.multiarray")
       for n in ("_reconstruct", "scalar")]
    + [(m, "_frombuffer") for m in ("numpy.core.numeric", "numpy._core.numeric")]
    + [("numpy", "ndarray"), ("numpy", "dtype")]
    + [("numpy", n) for n in np.sctypeDict if isinstance(n, str)]
    # numpy >= 1.25 pickles a dtype's class from numpy.dtypes
    + [("numpy.dtypes", n) for n in dir(getattr(np, "dtypes", None)) if n.endswith("DType")])


class _RestrictedUnpickler(pickle.Unpickler):
    """Rebuilds only plain values, containers and numpy arrays (see the module docstring)."""

    def find_class(self, module, name):
        if (module, name) in _SAFE_GLOBALS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            f"paddle.distributed: refusing to unpickle {module}.{name} received from another "
            "rank: only None, numbers, strings, bytes, lists, tuples, dicts, sets and numpy "
            "arrays travel between ranks (send tensor.numpy() for a Tensor)")


def _loads(data):
    return _RestrictedUnpickler(io.BytesIO(data)).load()


def _comm_device(g):
    if g.backend == "NCCL":
        return torch.device("cuda", torch.cuda.current_device())
    return torch.device("cpu")


def _encode(obj, device):
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return torch.frombuffer(bytearray(data), dtype=torch.uint8).to(device)


def _decode(t, size):
    return _loads(t[:size].cpu().numpy().tobytes())


def all_gather_object(object_list, obj, group=None):
    """Append every rank's ``obj`` to ``object_list`` (in rank order); see the module
    docstring for which objects can travel."""
    g = _get_group(group)
    dev = _comm_device(g)
    data = _encode(obj, dev)
    size = torch.tensor([data.numel()], dtype=torch.int64, device=dev)
    sizes = [torch.empty_like(size) for _ in range(g.nranks)]
    dist.all_gather(sizes, size, group=g.process_group)
    longest = max(int(s) for s in sizes)
    buf = torch.zeros(longest, dtype=torch.uint8, device=dev)
    buf[:data.numel()] = data
    outs = [torch.empty_like(buf) for _ in range(g.nranks)]
    dist.all_gather(outs, buf, group=g.process_group)
    object_list.extend(_decode(o, int(s)) for o, s in zip(outs, sizes))


def _broadcast_payload(obj, src, g, me_is_src):
    dev = _comm_device(g)
    data = _encode(obj, dev) if me_is_src else None
    size = torch.tensor([data.numel() if me_is_src else 0], dtype=torch.int64, device=dev)
    dist.broadcast(size, src, group=g.process_group)
    if not me_is_src:
        data = torch.empty(int(size), dtype=torch.uint8, device=dev)
    dist.broadcast(data, src, group=g.process_group)
    return data, int(size)


def broadcast_object_list(object_list, src, group=None):
    """Replace ``object_list``'s items by rank ``src``'s (the lists have the same length)."""
    g = _get_group(group)
    is_src = dist.get_rank() == src
    data, size = _broadcast_payload(list(object_list), src, g, is_src)
    if not is_src:
        object_list[:] = _decode(data, size)


def send_object_list(object_list, dst=None, group=None, dst_in_group=None):
    """Send the objects of ``object_list`` to rank ``dst`` (``recv_object_list`` there)."""
    g = _get_group(group)
    if dst_in_group is not None:
        dst = g.get_global_rank(dst_in_group)
    if dst is None:
        raise ValueError("paddle.distributed.send_object_list(): give dst or dst_in_group")
    dev = _comm_device(g)
    data = _encode(list(object_list), dev)
    dist.send(torch.tensor([data.numel()], dtype=torch.int64, device=dev), dst,
              group=g.process_group)
    dist.send(data, dst, group=g.process_group)


def recv_object_list(object_list, src=None, group=None, src_in_group=None):
    """Fill ``object_list`` with the objects rank ``src`` sent with ``send_object_list``."""
    g = _get_group(group)
    if src_in_group is not None:
        src = g.get_global_rank(src_in_group)
    if src is None:
        raise ValueError("paddle.distributed.recv_object_list(): give src or src_in_group")
    dev = _comm_device(g)
    size = torch.empty(1, dtype=torch.int64, device=dev)
    dist.recv(size, src, group=g.process_group)
    data = torch.empty(int(size), dtype=torch.uint8, device=dev)
    dist.recv(data, src, group=g.process_group)
    objs = _decode(data, int(size))
    object_list[:len(objs)] = objs


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
    is_src = dist.get_rank() == src
    data, size = _broadcast_payload(list(in_object_list) if is_src else None, src, g, is_src)
    mine = _decode(data, size)[g.rank]
    out_object_list.clear()
    out_object_list.append(mine)


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
    _check_match(g, t, "reduce_scatter")
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
    """Rank i sends ``in_tensor_list[j]`` to rank j, which gets it as ``out_tensor_list[i]``.

    The tensors may differ in shape from peer to peer (each ``out_tensor_list[i]`` is shaped
    as what rank i sends); they travel flattened through one ``all_to_all_single`` with
    per-peer split sizes. An empty ``out_tensor_list`` is filled with tensors shaped as the
    inputs."""
    g = _get_group(group)
    if len(in_tensor_list) == 0:
        raise RuntimeError("paddle.distributed.alltoall(): in_tensor_list should not be empty")
    ins = [_t(x, "alltoall", "in_tensor_list") for x in in_tensor_list]
    if len(out_tensor_list) == 0:
        outs = [torch.empty_like(x) for x in ins]
        out_tensor_list.extend(wrap(o) for o in outs)
    else:
        outs = [_t(x, "alltoall", "out_tensor_list") for x in out_tensor_list]
    n = g.nranks
    for what, ts in (("in_tensor_list", ins), ("out_tensor_list", outs)):
        if len(ts) != n:
            raise ValueError(f"paddle.distributed.alltoall(): {what} holds {len(ts)} tensors; "
                             f"the group has {n} ranks")
    if any(t.dtype != ins[0].dtype for t in ins + outs):
        raise TypeError("paddle.distributed.alltoall(): every tensor must have one dtype, got "
                        f"{sorted({str(t.dtype) for t in ins + outs})}")
    src = torch.cat([x.reshape(-1) for x in ins])
    dst = torch.empty(sum(o.numel() for o in outs), dtype=src.dtype, device=src.device)
    out_splits, in_splits = [o.numel() for o in outs], [x.numel() for x in ins]

    def then():
        for o, d in zip(outs, torch.split(dst, out_splits)):
            o.copy_(d.view(o.shape))
    return _run(lambda a: dist.all_to_all_single(dst, src, out_splits, in_splits,
                                                 group=g.process_group, async_op=a),
                sync_op, then)


def _check_splits(t, splits, n, what, api):
    """``splits`` (or an even split) must cover ``t``'s first dimension, one size per rank."""
    rows = t.shape[0] if t.dim() else 1
    if splits is None:
        if rows % n:
            raise ValueError(f"paddle.distributed.{api}(): dim 0 of {what} ({rows}) is not "
                             f"divisible by the group's {n} ranks; give the split sizes")
        return None
    splits = [int(s) for s in splits]
    if len(splits) != n or sum(splits) != rows:
        raise ValueError(f"paddle.distributed.{api}(): the split sizes of {what} {splits} must "
                         f"be {n} sizes (one per rank) summing to its dim 0 ({rows})")
    return splits


def alltoall_single(out_tensor, in_tensor, in_split_sizes=None, out_split_sizes=None,
                    group=None, sync_op=True):
    """``alltoall`` on the first dimension of one tensor each way."""
    g = _get_group(group)
    o, i = _t(out_tensor, "alltoall_single"), _t(in_tensor, "alltoall_single")
    ins = _check_splits(i, in_split_sizes, g.nranks, "in_tensor", "alltoall_single")
    outs = _check_splits(o, out_split_sizes, g.nranks, "out_tensor", "alltoall_single")
    return _run(lambda a: dist.all_to_all_single(o, i, outs, ins, group=g.process_group,
                                                 async_op=a), sync_op)


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


# ------------------------------------------------------------------ batched point-to-point
class P2POp:
    """One point-to-point operation for ``batch_isend_irecv``: ``op`` is
    ``paddle.distributed.isend`` or ``irecv``, ``peer`` a global rank."""

    def __init__(self, op, tensor, peer, group=None):
        if op not in (isend, irecv):
            raise RuntimeError("Invalid ``op`` function. Expected ``op`` to be of type "
                               "``paddle.distributed.isend`` or ``paddle.distributed.irecv``.")
        self.op = op
        self.tensor = tensor
        self.peer = peer
        self.group = group


def batch_isend_irecv(p2p_op_list):
    """Start every operation of ``p2p_op_list``; returns their tasks (``wait()`` each)."""
    if not p2p_op_list or not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise RuntimeError("Invalid ``p2p_op_list``. Each op is expected to to be of type "
                           "``paddle.distributed.P2POp``.")
    ops = []
    for p in p2p_op_list:
        g = _get_group(p.group)
        t = _t(p.tensor, "batch_isend_irecv")
        ops.append(dist.P2POp(dist.isend if p.op is isend else dist.irecv, t, p.peer,
                              g.process_group))
    return [_Task(w) for w in dist.batch_isend_irecv(ops)]


# ------------------------------------------------------------------ process-group life cycle
_shut_down = {}


def shutdown_process_group(group=None):
    """Release the communicators of ``group`` (every group but the default one when None);
    ``restart_process_group`` makes them again. On torch this destroys the sub-group's
    ProcessGroup and remembers its ranks."""
    groups = [group] if group is not None else [g for g in _groups.values()
                                                if g is not _default_group]
    for g in groups:
        if g.id in _shut_down or g.process_group is None:
            continue
        if g.process_group is not dist.GroupMember.NON_GROUP_MEMBER:
            dist.destroy_process_group(g.process_group)
        _shut_down[g.id] = g
        g._pg = None


def restart_process_group(group=None):
    """Make the communicators of ``group`` (every shut-down group when None) again. Every
    process of the job calls it, in the same order, as for ``new_group``."""
    ids = [group.id] if group is not None else sorted(_shut_down)
    for gid in ids:
        g = _shut_down.pop(gid, None)
        if g is not None:
            g._pg = dist.new_group(list(g.ranks), backend=g._backend)


class ParallelMode:
    """The kinds of parallelism of a hybrid job (``fleet``'s topology)."""
    DATA_PARALLEL = 0
    TENSOR_PARALLEL = 1
    PIPELINE_PARALLEL = 2
    SHARDING_PARALLEL = 3
    SEGMENT_PARALLEL = 4


# ------------------------------------------------------------------ gloo context for CPU barriers
_gloo = None


def gloo_init_parallel_env(rank_id, rank_num, server_endpoint):
    """Start a CPU-only gloo context of ``rank_num`` ranks, rendezvousing at
    ``server_endpoint`` ("ip:port", hosted by rank 0), for ``gloo_barrier``; independent of
    ``init_parallel_env``'s process group."""
    global _gloo
    if not (isinstance(rank_num, int) and rank_num >= 2 and 0 <= rank_id < rank_num):
        raise ValueError(f"gloo_init_parallel_env: need 0 <= rank_id < rank_num and "
                         f"rank_num >= 2, got rank_id={rank_id}, rank_num={rank_num}")
    host, _, port = server_endpoint.rpartition(":")
    timeout = _pg_timeout()
    store = dist.TCPStore(host, int(port), rank_num, rank_id == 0, timeout=timeout)
    _gloo = (store, dist.ProcessGroupGloo(dist.PrefixStore("paddle_compat_gloo", store),
                                          rank_id, rank_num, timeout))


def gloo_barrier():
    """Wait until every rank of the gloo context reaches this point."""
    if _gloo is None:
        raise RuntimeError("gloo is not initialized: call "
                           "paddle.distributed.gloo_init_parallel_env first")
    _gloo[1].barrier().wait()


def gloo_release():
    """Release the gloo context of ``gloo_init_parallel_env``."""
    global _gloo
    _gloo = None


def _pg_timeout():
    return datetime.timedelta(milliseconds=int(os.getenv("PADDLE_PG_TIMEOUT", "1800000")))
