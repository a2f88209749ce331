"""Every collective of paddle.distributed on CPU (gloo), written once and run unchanged by
real Paddle's launcher (tools/goldens/record_distributed.py records the goldens) and by
paddle_compat's (tests/test_collectives.py compares). Usage: dist_collectives.py OUT_DIR.

Run by paddle_compat it adds a mismatched all_reduce (rank r passes r + 3 numbers), the gloo
context (``gloo_init_parallel_env`` / ``gloo_barrier`` / ``gloo_release``), a sub-group shut down
and restarted, and the job's Paddle environment (``_env``). Each rank writes OUT_DIR/rank<N>.json: {case: {"value": ..., "dtype": ..., "shape": ...}} or
{case: {"error": exception type name}} where the call raised."""
import json
import os
import sys
import traceback

import numpy as np

import paddle
import paddle.distributed as dist

out_dir = sys.argv[1]
dist.init_parallel_env()
rank, n = dist.get_rank(), dist.get_world_size()
results = {}


def rec(name, value):
    if isinstance(value, (list, tuple)) and value and hasattr(value[0], "numpy"):
        value = [v.numpy() for v in value]
        results[name] = {"value": [v.tolist() for v in value], "dtype": str(value[0].dtype),
                         "shape": [list(v.shape) for v in value]}
        return
    if hasattr(value, "numpy"):
        a = value.numpy()
        results[name] = {"value": a.tolist(), "dtype": str(a.dtype), "shape": list(a.shape)}
        return
    if isinstance(value, np.ndarray):
        value = {"ndarray": value.tolist(), "dtype": str(value.dtype)}
    results[name] = {"value": value}


def case(name):
    def deco(fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001  recorded; the other rank may then differ
            results[name] = {"error": type(e).__name__, "message": str(e).splitlines()[0][:200]
                             if str(e) else ""}
            sys.stderr.write(f"case {name}: {traceback.format_exc()}\n")
        dist.barrier()
        return fn
    return deco


def base(dtype="float32", shape=(2, 3)):
    a = np.arange(int(np.prod(shape))).reshape(shape) + 10 * rank + 1
    return paddle.to_tensor(a.astype(dtype))


for opname in ("SUM", "MAX", "MIN", "PROD", "AVG"):
    for dtype in ("float32", "float64", "int32", "int64"):
        @case(f"all_reduce_{opname}_{dtype}")
        def _():
            x = base(dtype)
            dist.all_reduce(x, op=getattr(dist.ReduceOp, opname))
            rec(f"all_reduce_{opname}_{dtype}", x)


@case("all_reduce_async")
def _():
    x = base()
    task = dist.all_reduce(x, sync_op=False)
    task.wait()
    rec("all_reduce_async", x)


@case("all_gather")
def _():
    lst = []
    dist.all_gather(lst, base("int64", (3,)))
    rec("all_gather", lst)


@case("all_gather_object")
def _():
    lst = []
    dist.all_gather_object(lst, {"rank": rank, "items": [rank, "x" * (rank + 1)],
                                 "t": (1.5, None, True)})
    rec("all_gather_object", lst)


@case("reduce")
def _():
    x = base()
    dist.reduce(x, dst=n - 1)
    rec("reduce", x)


@case("reduce_max")
def _():
    x = base("int64")
    dist.reduce(x, dst=0, op=dist.ReduceOp.MAX)
    rec("reduce_max", x)


@case("reduce_scatter")
def _():
    ins = [base("float32", (2,)) * (i + 1) for i in range(n)]
    out = paddle.empty([2], dtype="float32")
    dist.reduce_scatter(out, ins)
    rec("reduce_scatter", out)


@case("broadcast")
def _():
    x = base("float64")
    dist.broadcast(x, src=n - 1)
    rec("broadcast", x)


@case("broadcast_object_list")
def _():
    objs = [rank, {"from": rank}, "s"] if rank == 0 else [None, None, None]
    dist.broadcast_object_list(objs, src=0)
    rec("broadcast_object_list", objs)


@case("scatter")
def _():
    out = paddle.zeros([3], dtype="float32")
    ins = [paddle.to_tensor(np.full([3], 100 + i, "float32")) for i in range(n)]
    dist.scatter(out, ins if rank == 0 else None, src=0)
    rec("scatter", out)


@case("scatter_object_list")
def _():
    out = []
    dist.scatter_object_list(out, [{"to": i} for i in range(n)] if rank == 1 else None, src=1)
    rec("scatter_object_list", out)


@case("gather")
def _():
    lst = []
    dist.gather(base("int32", (2,)), lst if rank == 0 else None, dst=0)
    rec("gather", lst if rank == 0 else [])


@case("alltoall")
def _():
    ins = [paddle.to_tensor(np.full([2], 10 * rank + i, "float32")) for i in range(n)]
    outs = []
    dist.alltoall(outs, ins)
    rec("alltoall", outs)


@case("alltoall_single")
def _():
    x = paddle.to_tensor(np.arange(2 * n, dtype="float32") + 100 * rank)
    out = paddle.empty([2 * n], dtype="float32")
    dist.alltoall_single(out, x)
    rec("alltoall_single", out)


@case("alltoall_single_splits")
def _():
    ins = [1 + i for i in range(n)]                      # rank r sends i+1 rows to rank i
    outs = [1 + rank] * n                                # and gets rank+1 rows from each
    x = paddle.to_tensor(np.arange(sum(ins), dtype="int64") + 100 * rank)
    out = paddle.empty([sum(outs)], dtype="int64")
    dist.alltoall_single(out, x, ins, outs)
    rec("alltoall_single_splits", out)


@case("send_recv")
def _():
    x = base("float32", (2,))
    if rank == 0:
        dist.send(x, dst=1)
    elif rank == 1:
        dist.recv(x, src=0)
    rec("send_recv", x)


@case("isend_irecv")
def _():
    x = base("float64", (2,))
    if rank == 1:
        t = dist.isend(x, dst=0)
    elif rank == 0:
        t = dist.irecv(x, src=1)
    if rank < 2:
        t.wait()
    rec("isend_irecv", x)


@case("send_recv_object_list")
def _():
    if rank == 0:
        dist.send_object_list([{"a": 1}, [2, 3], "four"], dst=1)
        rec("send_recv_object_list", "sent")
    elif rank == 1:
        objs = [None, None, None]
        dist.recv_object_list(objs, src=0)
        rec("send_recv_object_list", objs)


@case("new_group")
def _():
    if n > 2:            # real Paddle's gloo hangs in the next collective after this with 4
        return           # ranks (a sub-group its non-members never use); 2 ranks only
    g = dist.new_group([0, 1])
    x = base()
    if rank in (0, 1):
        dist.all_reduce(x, group=g)
    rec("new_group", x)
    rec("new_group_info", [g.rank, g.nranks, list(g.ranks), dist.get_rank(g),
                           dist.get_world_size(g)])


@case("stream_all_reduce")
def _():
    x = base()
    dist.stream.all_reduce(x, sync_op=True, use_calc_stream=False)
    rec("stream_all_reduce", x)


@case("stream_all_gather")
def _():
    out = []
    dist.stream.all_gather(out, base("int64", (2,)))
    rec("stream_all_gather", out)


@case("stream_broadcast")
def _():
    x = base()
    dist.stream.broadcast(x, src=1)
    rec("stream_broadcast", x)


@case("stream_reduce_scatter")
def _():
    x = paddle.to_tensor(np.arange(2 * n, dtype="float32") + rank)
    out = paddle.empty([2], dtype="float32")
    dist.stream.reduce_scatter(out, x)
    rec("stream_reduce_scatter", out)


@case("stream_alltoall")
def _():
    ins = [paddle.to_tensor(np.full([2], 10 * rank + i, "int64")) for i in range(n)]
    outs = [paddle.empty([2], "int64") for i in range(n)]
    dist.stream.alltoall(outs, ins)
    rec("stream_alltoall", outs)


@case("stream_scatter_gather")
def _():
    out = paddle.zeros([2], dtype="float32")
    ins = [paddle.to_tensor(np.full([2], 7 + i, "float32")) for i in range(n)]
    dist.stream.scatter(out, ins if rank == 0 else None, src=0)
    rec("stream_scatter", out)


@case("stream_send_recv")
def _():
    x = base("float32", (2,))
    if rank == 1:
        dist.stream.send(x, dst=0)
    elif rank == 0:
        dist.stream.recv(x, src=1)
    rec("stream_send_recv", x)


@case("stream_reduce")
def _():
    x = base()
    dist.stream.reduce(x, dst=0, op=dist.ReduceOp.MAX)
    rec("stream_reduce", x)


@case("get_group")
def _():
    g = dist.get_group(0)
    rec("get_group", [g.nranks, g.rank, list(g.ranks)] if g is not None else None)


@case("wait")
def _():
    x = base()
    dist.all_reduce(x)
    dist.wait(x)
    rec("wait", x)


results["_meta"] = {"rank": rank, "world_size": n, "backend": dist.get_backend()}

def dump():
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)


dump()           # real Paddle's gloo can hang in batch_isend_irecv: keep what came before


@case("batch_isend_irecv")
def _():
    send_t = base("float32", (2,))
    recv_t = paddle.zeros([2], dtype="float32")
    ops = [dist.P2POp(dist.isend, send_t, (rank + 1) % n),
           dist.P2POp(dist.irecv, recv_t, (rank - 1 + n) % n)]
    for task in dist.batch_isend_irecv(ops):
        task.wait()
    rec("batch_isend_irecv", recv_t)


dump()
if hasattr(paddle, "to_torch"):       # paddle_compat only (real Paddle's gloo would hang)
    @case("mismatch")
    def _():
        try:
            dist.all_reduce(paddle.ones([3 + rank]))
            rec("mismatch", "no error")
        except ValueError as e:
            rec("mismatch", str(e))

    @case("alltoall_uneven")
    def _():
        # Paddle's documented example: each peer's tensor its own shape (Paddle's gloo group
        # cannot run any alltoall; its docs say what must come out)
        ins = [paddle.to_tensor(np.full([rank + 1, q + 2], 10 * rank + q, "int64"))
               for q in range(n)]
        outs = [paddle.empty([q + 1, rank + 2], dtype="int64") for q in range(n)]
        dist.alltoall(outs, ins)
        rec("alltoall_uneven", outs)

    @case("alltoall_single_bad_splits")
    def _():
        try:
            dist.alltoall_single(paddle.empty([n], "float32"), paddle.ones([n], "float32"),
                                 [n] * n, None)
            rec("alltoall_single_bad_splits", "no error")
        except ValueError as e:
            rec("alltoall_single_bad_splits", str(e))

    @case("gloo_context")
    def _():
        import socket
        port = [None]
        if rank == 0:
            with socket.socket() as sock:
                sock.bind(("127.0.0.1", 0))
                port = [sock.getsockname()[1]]
        dist.broadcast_object_list(port, src=0)
        dist.gloo_init_parallel_env(rank, n, f"127.0.0.1:{port[0]}")
        dist.gloo_barrier()
        dist.gloo_release()
        rec("gloo_context", "ok")

    @case("restart_process_group")
    def _():
        g = dist.new_group(list(range(n)))
        dist.shutdown_process_group(g)
        dist.restart_process_group(g)
        x = base()
        dist.all_reduce(x, group=g)
        rec("restart_process_group", x)

    results["_env"] = {k: os.environ.get(k) for k in (
        "PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ENDPOINTS",
        "PADDLE_CURRENT_ENDPOINT", "PADDLE_LOCAL_RANK", "PADDLE_RANK_IN_NODE", "PADDLE_MASTER",
        "PADDLE_NNODES", "PADDLE_LOCAL_SIZE", "PADDLE_GLOBAL_SIZE", "PADDLE_LOG_DIR",
        "PADDLE_JOB_ID", "PADDLE_DISTRI_BACKEND")}
    dump()
print("done", rank, flush=True)
