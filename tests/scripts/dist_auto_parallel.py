"""Auto-parallel checks, run by every rank of a 2- or 4-rank CPU job (gloo), unchanged under
real Paddle's launcher (tools/goldens/record_auto_parallel.py records its results) and ours
(tests/test_auto_parallel.py compares).

    python -m paddle.distributed.launch --nproc_per_node 2 dist_auto_parallel.py OUT_DIR

Each rank writes OUT_DIR/rank{N}.json: ``{case: value}``, where a value is what the case gave
or ``{"error": exception type}``. The "golden" cases are compared with Paddle's; the
"equivalence" cases compare a distributed run with the same run on dense tensors in this
process (where Paddle itself fails, the golden says so and only ours is checked).
"""
import json
import os
import sys

import numpy as np
import paddle
import paddle.distributed as dist

OUT = sys.argv[1]
dist.init_parallel_env()
RANK, WORLD = dist.get_rank(), dist.get_world_size()
REAL_PADDLE = "paddle_compat" not in paddle.__file__
results = {}

if REAL_PADDLE:       # Paddle 3.3.1's get_rank_by_dim_and_process_id fails under numpy >= 2
    from paddle.distributed.auto_parallel import process_mesh as _pm

    def _rank_by_dim(self, dim, pid):
        axis = self._dim_names.index(dim) if isinstance(dim, str) else dim
        where = np.where(self._mesh == pid)
        return int(where[axis][0]) if len(where[axis]) else -1
    _pm.ProcessMesh.get_rank_by_dim_and_process_id = _rank_by_dim


ONLY = os.environ.get("AP_ONLY")       # run this case alone (the recorder's crash probes)


def case(name, worlds=(2,), crashes_paddle=False):
    """Run ``fn`` as the case ``name`` in jobs of these sizes (the 1-d cases on 2 ranks, the
    2-d mesh ones on 4). A case that kills real Paddle's process (``crashes_paddle``) runs
    under it only alone (``AP_ONLY=name``), so the others are still recorded."""
    def run(fn):
        if WORLD not in worlds or (ONLY and name != ONLY) or (
                REAL_PADDLE and crashes_paddle and not ONLY):
            return fn
        try:
            results[name] = fn()
        except Exception as e:                       # the type is part of what is compared
            results[name] = {"error": type(e).__name__}
        return fn
    return run


def local(t):
    return np.round(t._local_value().numpy(), 5).tolist()


def info(t):
    return {"shape": list(t.shape), "placements": repr(t.placements), "local": local(t)}


# ------------------------------------------------------------------ golden cases (both)
MESH1 = dist.ProcessMesh(list(range(WORLD)), dim_names=["x"])
A = np.arange(24, dtype="float32").reshape([4, 6])


@case("mesh")
def _():
    m = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    return [str(m), m.shape, m.process_ids, m.dim_names, m.ndim, m.get_dim_size("mp"),
            str(m.get_mesh_with_dim("mp")), str(m.get_mesh_with_dim("mp", 1)), str(m[0]),
            str(m[:, 1]), m == dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"]),
            str(dist.ProcessMesh([0, 1, 2]))]


@case("placements")
def _():
    return [repr(p) for p in (dist.Shard(1), dist.Replicate(), dist.Partial(),
                              dist.Partial(dist.ReduceType.kRedMax))] + [
        dist.Shard(1) == dist.Shard(1), dist.Shard(0) == dist.Shard(1),
        dist.Shard(1).get_dim(), dist.Partial().is_partial(), dist.Replicate().is_replicated(),
        dist.Shard(0).is_shard(), dist.Shard(0).is_shard(1)]


@case("shard_rows")
def _():
    return info(dist.shard_tensor(paddle.to_tensor(A), MESH1, [dist.Shard(0)]))


@case("shard_cols")
def _():
    return info(dist.shard_tensor(A, MESH1, [dist.Shard(1)]))


@case("shard_uneven")
def _():
    return info(dist.shard_tensor(np.arange(5, dtype="float32"), MESH1, [dist.Shard(0)]))


@case("replicate_to_partial")
def _():
    d = dist.shard_tensor(A, MESH1, [dist.Replicate()])
    p = dist.reshard(d, MESH1, [dist.Partial()])
    return [info(p), np.round(p.numpy(), 5).tolist(), float(p.sum())]


@case("reshard_round_trip")
def _():
    d = dist.shard_tensor(A, MESH1, [dist.Shard(0)])
    r = dist.reshard(d, MESH1, [dist.Shard(1)])
    back = dist.reshard(dist.reshard(r, MESH1, [dist.Replicate()]), MESH1, [dist.Shard(0)])
    return [info(r), info(back), bool((back.numpy() == A).all())]


@case("partial_to_replicate")
def _():
    d = dist.shard_tensor(A, MESH1, [dist.Shard(0)])
    s = d.sum(axis=0)                              # a sum over the split dim: partial
    r = dist.reshard(s, MESH1, [dist.Replicate()])
    return [repr(s.placements), info(r)]


@case("unshard_and_from_fn")
def _():
    d = dist.shard_tensor(A, MESH1, [dist.Shard(1)])
    u = dist.unshard_dtensor(d)
    f = dist.dtensor_from_fn(paddle.ones, MESH1, [dist.Shard(0)], shape=[4, 2])
    return [u.is_dist(), np.round(u.numpy(), 5).tolist(), info(f), d.is_dist(),
            paddle.to_tensor(A).is_dist(), paddle.to_tensor(A)._local_value() is None,
            paddle.to_tensor(A).placements is None]


@case("elementwise_and_matmul_grad")
def _():
    x = paddle.to_tensor([[1., 2.], [3., 4.]])
    w = dist.shard_tensor(paddle.to_tensor([[1., 0., 2., 1.], [0., 1., 1., 3.]],
                                           stop_gradient=False), MESH1, [dist.Shard(1)])
    y = paddle.matmul(x, w)
    z = (y * 2 + 1).tanh()
    z.sum().backward()
    return [repr(y.placements), np.round(y.numpy(), 5).tolist(), repr(w.grad.placements),
            np.round(w.grad.numpy(), 5).tolist(), w.stop_gradient]


@case("print")
def _():
    return str(dist.shard_tensor(A[:2, :3], MESH1, [dist.Shard(1)]))


@case("shard_dataloader")
def _():
    class Data(paddle.io.Dataset):
        def __getitem__(self, i):
            return np.full([3], i, "float32"), np.array([i % 2], "int64")

        def __len__(self):
            return 8
    loader = paddle.io.DataLoader(Data(), batch_size=4, shuffle=False)
    dl = dist.shard_dataloader(loader, meshes=MESH1, shard_dims="x")
    return [len(dl)] + [[info(x), info(y)] for x, y in dl]


if WORLD == 4:
    MESH2 = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])

    @case("mesh2_shard", worlds=(4,))
    def _():
        a = paddle.arange(16, dtype="float32").reshape([4, 4])
        a.stop_gradient = False
        d = dist.shard_tensor(a, MESH2, [dist.Shard(0), dist.Shard(1)])
        p = dist.reshard(d, MESH2, [dist.Replicate(), dist.Partial()])
        loss = (d * d).sum()
        loss.backward()
        return [info(d), info(p), repr(loss.placements), float(loss), a.grad is None,
                info(d.grad), str(MESH2["dp"]), repr(d.sum(0).placements)]


# ------------------------------------------------------------------ equivalence cases
X = np.random.RandomState(0).rand(8, 6).astype("float32")
Y = np.random.RandomState(1).rand(8, 3).astype("float32")


class MLP(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(6, 8)
        self.fc2 = paddle.nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.tanh(self.fc1(x)))


def train(setup):
    """Three AdamW steps of the MLP; ``setup(model, opt, x, y)`` distributes them (None:
    dense). Returns the losses, the final parameters and their placements."""
    paddle.seed(5)
    m = MLP()
    opt = paddle.optimizer.AdamW(learning_rate=0.05, parameters=m.parameters())
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    if setup is not None:
        m, opt, x, y = setup(m, opt, x, y)
    losses = []
    for _ in range(3):
        loss = ((m(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses, [p.numpy() for p in m.parameters()], [repr(p.placements)
                                                         for p in m.parameters()]


DENSE = train(None)        # every rank computes the undistributed run itself


def equivalent(name, setup, worlds=(2,)):
    @case(name, worlds)
    def _():
        losses, params, placements = train(setup)
        return {"loss_diff": float(np.max(np.abs(np.array(losses) - DENSE[0]))),
                "param_diff": max(float(np.abs(a - b).max()) for a, b in zip(params, DENSE[1])),
                "placements": placements}


def data_parallel(stage):
    def setup(m, opt, x, y):
        m = dist.shard_layer(m, MESH1)
        opt = dist.shard_optimizer(opt, stage("x", MESH1) if stage else None)
        return (m, opt, dist.shard_tensor(x, MESH1, [dist.Shard(0)]),
                dist.shard_tensor(y, MESH1, [dist.Shard(0)]))
    return setup


equivalent("dp", data_parallel(None))
equivalent("sharding_stage1", data_parallel(dist.ShardingStage1))
equivalent("sharding_stage2", data_parallel(dist.ShardingStage2))
equivalent("sharding_stage3", data_parallel(dist.ShardingStage3))


def tensor_parallel(m, opt, x, y):
    mesh = dist.ProcessMesh(list(range(WORLD)), dim_names=["mp"])
    m, opt = dist.parallelize(m, opt, mesh=mesh, config={"mp_config": {"parallelize_plan": {
        "fc1": dist.ColWiseParallel(), "fc2": dist.RowWiseParallel()}}})
    return m, opt, x, y


equivalent("col_row_parallel_mlp", tensor_parallel)

if WORLD == 4:
    def hybrid(level):
        def setup(m, opt, x, y):
            m, opt = dist.parallelize(m, opt, mesh=MESH2, config={
                "dp_config": {"sharding_level": level},
                "mp_config": {"parallelize_plan": {"fc1": dist.ColWiseParallel(),
                                                   "fc2": dist.RowWiseParallel()}}})
            data = [dist.Shard(0), dist.Replicate()]
            return m, opt, dist.shard_tensor(x, MESH2, data), dist.shard_tensor(y, MESH2, data)
        return setup
    for level in (0, 1, 3):
        equivalent(f"dp_mp_sharding{level}", hybrid(level), worlds=(4,))


@case("stage1_states_are_sharded")
def _():
    paddle.seed(5)
    m = dist.shard_layer(MLP(), MESH1)
    opt = dist.shard_optimizer(paddle.optimizer.Adam(parameters=m.parameters()),
                               dist.ShardingStage1("x", MESH1))
    x = dist.shard_tensor(paddle.to_tensor(X), MESH1, [dist.Shard(0)])
    m(x).mean().backward()
    opt.step()
    sd = opt.state_dict()
    key = [k for k in sd if k.startswith(m.fc1.weight.name) and "moment1" in k][0]
    return [list(sd[key].shape), list(sd[key]._local_value().shape), repr(sd[key].placements)]


@case("checkpoint_save")
def _():
    w = dist.shard_tensor(A, MESH1, [dist.Shard(0)])
    b = paddle.to_tensor([1., 2., 3.])
    path = os.path.join(OUT, "ckpt")
    dist.save_state_dict({"w": w, "b": b}, path)
    w2 = dist.shard_tensor(np.zeros_like(A), MESH1, [dist.Shard(1)])
    sd = {"w": w2, "b": paddle.zeros([3])}
    dist.load_state_dict(sd, path)
    return [info(sd["w"]), sd["b"].numpy().tolist()]


# ------------------------------------------------------------------ pipeline stages
# Paddle 3.3.1 on CPU dies (SIGSEGV) on the first op of a tensor whose mesh leaves the rank out
# and in every reshard between meshes of other ranks: these cases are ours only (the recorder
# probes them one by one, see KNOWN in tests/test_auto_parallel.py).
class TiedMLP(paddle.nn.Layer):
    """fc2 uses fc1's weight (tied, as an LM head its embedding's): split before fc2, the
    weight lives on stage 0 and is moved to stage 1 for fc2's forward."""

    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(6, 6)
        self.fc2 = paddle.nn.Linear(6, 6)
        self.fc2.weight = self.fc1.weight
        self.out = paddle.nn.Linear(6, 3)

    def forward(self, x):
        return self.out(paddle.tanh(self.fc2(paddle.tanh(self.fc1(x)))))


def pipeline_equivalent(name, mesh, config, data_meshes, worlds=(2,), make=MLP):
    """Three AdamW steps of ``make()`` parallelized with ``config`` on ``mesh`` (x, y split
    over dp on ``data_meshes`` where given), compared with the dense run: the losses where
    this rank holds the loss, the parameters it holds (which those are, and their meshes)."""
    def run(parallel):
        paddle.seed(5)
        m = make()
        opt = paddle.optimizer.AdamW(learning_rate=0.05, parameters=m.parameters())
        x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
        if parallel:
            m, opt = dist.parallelize(m, opt, mesh=mesh, config=config)
            if data_meshes:
                x, y = [dist.shard_tensor(t, dm, [dist.Shard(0)])
                        for t, dm in zip((x, y), data_meshes)]
        losses = []
        for _ in range(3):
            loss = ((m(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            if not loss.is_dist() or loss.process_mesh.contains(RANK):
                losses.append(float(loss))
        held = [not p.is_dist() or p.process_mesh.contains(RANK) for p in m.parameters()]
        return losses, [p.numpy() if h else None for p, h in zip(m.parameters(), held)], m

    @case(name, worlds, crashes_paddle=True)
    def _():
        dense_losses, dense_params, _ = DENSE if make is MLP else run(False)
        losses, params, m = run(True)
        held = [p is not None for p in params]
        diffs = [float(np.abs(p - d).max()) for p, d in zip(params, dense_params) if p is not None]
        return {"loss_diff": float(np.max(np.abs(np.array(losses) - dense_losses)))
                if losses else None, "param_diff": max(diffs) if diffs else None, "held": held,
                "meshes": [str(p.process_mesh) for p in m.parameters()],
                "placements": [repr(p.placements) for p, h in zip(m.parameters(), held) if h],
                "empty_elsewhere": all(p._local_value().size == 0
                                       for p, h in zip(m.parameters(), held) if not h)}


@case("cross_mesh_reshard", crashes_paddle=True)
def _():
    m0, m1 = dist.ProcessMesh([0], dim_names=["x"]), dist.ProcessMesh([1], dim_names=["x"])
    a = dist.shard_tensor(A, m0, [dist.Replicate()], stop_gradient=False)
    b = dist.reshard(a, m1, [dist.Shard(0)])             # rank 0 -> rank 1
    c = dist.reshard(b * b, m0, [dist.Replicate()])       # and back
    c.sum().backward()
    d = dist.shard_tensor(A, MESH1, [dist.Shard(0)], stop_gradient=False)
    e = dist.reshard(d, m1, [dist.Replicate()])           # both ranks -> rank 1
    (e * e).sum().backward()
    return [info(b), str(b.process_mesh), info(c), local(a.grad), info(e), local(d.grad)]


pipeline_equivalent("pp_mlp", dist.ProcessMesh([0, 1], dim_names=["pp"]),
                    {"pp_config": {"split_spec": {"fc1": dist.SplitPoint.END}}}, None)
pipeline_equivalent("pp_mlp_prefix", dist.ProcessMesh([0, 1], dim_names=["pp"]),
                    {"pp_config": {"split_spec": ["fc1", "fc2"], "global_spec": "fc1"}}, None)
pipeline_equivalent("pp_tied_weights", dist.ProcessMesh([0, 1], dim_names=["pp"]),
                    {"pp_config": {"split_spec": {"fc2": dist.SplitPoint.BEGINNING}}}, None,
                    make=TiedMLP)

if WORLD == 4:
    PP_DP = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["pp", "dp"])

    @case("cross_mesh_reshard_2d", worlds=(4,), crashes_paddle=True)
    def _():
        s0, s1 = PP_DP.get_mesh_with_dim("pp", 0), PP_DP.get_mesh_with_dim("pp", 1)
        a = dist.shard_tensor(A, s0, [dist.Shard(0)], stop_gradient=False)
        b = dist.reshard(a, s1, [dist.Shard(0)])     # shard by shard: 0 -> 2, 1 -> 3
        c = dist.reshard(a, s1, [dist.Shard(1)])     # whole, then split the other way
        (b * c).sum().backward()
        return [info(b), info(c), str(c.process_mesh), local(a.grad)]

    for level in (0, 1, 3):
        pipeline_equivalent(f"pp_dp_mlp_sharding{level}", PP_DP, {
            "pp_config": {"split_spec": {"fc1": dist.SplitPoint.END}},
            "dp_config": {"sharding_level": level}},
            [PP_DP.get_mesh_with_dim("pp", 0), PP_DP.get_mesh_with_dim("pp", 1)], worlds=(4,))
    pipeline_equivalent("pp_mp_mlp", dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["pp", "mp"]),
                        {"pp_config": {"split_spec": {"fc1": dist.SplitPoint.END}},
                         "mp_config": {"parallelize_plan": {"fc1": dist.ColWiseParallel(),
                                                            "fc2": dist.RowWiseParallel()}}},
                        None, worlds=(4,))


# ------------------------------------------------------------------ sharding on FSDP2
def fsdp_parallelize(level):
    """``parallelize`` with only ``dp_config``'s sharding level on a 1-d "dp" mesh (ours runs
    levels 2 and 3 on FSDP2's fully_shard), the batch split over the ranks."""
    def setup(m, opt, x, y):
        mesh = dist.ProcessMesh(list(range(WORLD)), dim_names=["dp"])
        m, opt = dist.parallelize(m, opt, mesh=mesh,
                                  config={"dp_config": {"sharding_level": level}})
        return (m, opt, dist.shard_tensor(x, mesh, [dist.Shard(0)]),
                dist.shard_tensor(y, mesh, [dist.Shard(0)]))
    return setup


equivalent("parallelize_sharding2", fsdp_parallelize(2))
equivalent("parallelize_sharding3", fsdp_parallelize(3))


@case("parallelize_sharding3_partitioned")
def _():
    """The MLP as a Sequential (whose items FSDP gathers one by one), 3 steps of stage 3: each
    parameter's (and Adam moment's) local shape, what the last Linear computes with inside
    the forward (its whole weight, while the first is sharded again), the checkpoint of the
    sharded model (read back by the test in one process)."""
    seen = []

    class Probe(paddle.nn.Linear):
        def forward(self, x):
            w = self.weight
            seen.append([w.is_dist(), list(w._local_value().shape if w.is_dist() else w.shape),
                         m[0].weight.is_dist()])
            return super().forward(x)
    paddle.seed(5)
    m = paddle.nn.Sequential(paddle.nn.Linear(6, 8), paddle.nn.Tanh(), Probe(8, 3))
    opt = paddle.optimizer.AdamW(learning_rate=0.05, parameters=m.parameters())
    m, opt, x, y = fsdp_parallelize(3)(m, opt, paddle.to_tensor(X), paddle.to_tensor(Y))
    for _ in range(3):
        loss = ((m(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    moments = {k: list(v._local_value().shape) for k, v in opt.state_dict().items()
               if "moment1" in k}
    dist.save_state_dict(m.state_dict(), os.path.join(OUT, "ckpt_sharding3"))
    weights = [p.numpy() for p in m.parameters()]
    local_shapes = [list(p._local_value().shape) for p in m.parameters()]
    m[0].bias.set_value(np.arange(8, dtype="float32"))      # whole value in, own part kept
    return {"local_shapes": local_shapes, "set_value": local(m[0].bias),
            "shapes": [list(p.shape) for p in m.parameters()],
            "placements": [repr(p.placements) for p in m.parameters()],
            "moment_shapes": sorted(moments.values()), "in_forward": seen[-1],
            "param_diff": max(float(np.abs(a - b).max()) for a, b in zip(weights, DENSE[1])),
            "weights": [w.tolist() for w in weights]}


with open(os.path.join(OUT, f"rank{RANK}.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
