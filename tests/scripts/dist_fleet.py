"""A fleet job for tests/test_fleet.py (``import paddle`` as a user writes it), run on 2 ranks by
``python -m paddle_compat.distributed.launch --nproc_per_node 2 dist_fleet.py OUT_DIR``.

One process runs several hybrid layouts one after the other (``fleet.init`` again with a new
strategy); an optional second argument picks the sections (``mp,pp,dp,sh``: real Paddle runs
only some of them on CPU, see tools/goldens/record_fleet.py); each check computes the
parallel result and the one-process result of the same model and data in this rank, and rank r
writes everything to OUT_DIR/rank<r>.json.
"""
import json
import os
import sys

import numpy as np

import paddle
import paddle.distributed as dist
import paddle.nn.functional as F
from paddle.distributed import fleet
from paddle.distributed.fleet import meta_parallel as mpu
from paddle.distributed.fleet.utils import recompute


def strategy(dp=1, mp=1, pp=1, **pipe):
    s = fleet.DistributedStrategy()
    s.hybrid_configs = {"dp_degree": dp, "mp_degree": mp, "pp_degree": pp}
    if pipe:
        s.pipeline_configs = pipe
    return s


def lst(t):
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t, dtype="float64").tolist()


def check_mp(res):
    fleet.init(is_collective=True, strategy=strategy(mp=2))
    hcg = fleet.get_hybrid_communicate_group()
    r = hcg.get_model_parallel_rank()
    res["mp_groups"] = [hcg.get_model_parallel_world_size(), r,
                        hcg.get_data_parallel_world_size(), hcg.get_pipe_parallel_world_size()]
    rng = np.random.RandomState(0)
    w1, b1 = rng.randn(4, 8).astype("float32"), rng.randn(8).astype("float32")
    w2, b2 = rng.randn(8, 3).astype("float32"), rng.randn(3).astype("float32")
    x = rng.randn(5, 4).astype("float32")

    class MP(paddle.nn.Layer):
        def __init__(self, gather):
            super().__init__()
            self.col = mpu.ColumnParallelLinear(4, 8, has_bias=True, gather_output=gather)
            self.row = mpu.RowParallelLinear(8, 3, input_is_parallel=not gather)

        def forward(self, x):
            return self.row(F.relu(self.col(x)))

    class Dense(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.col = paddle.nn.Linear(4, 8)
            self.row = paddle.nn.Linear(8, 3)

        def forward(self, x):
            return self.row(F.relu(self.col(x)))

    dense = Dense()
    for p, v in zip(dense.parameters(), (w1, b1, w2, b2)):
        p.set_value(v)
    res["mp_shapes"] = {}
    for gather in (False, True):
        m = MP(gather)
        m.col.weight.set_value(w1[:, 4 * r:4 * r + 4])
        m.col.bias.set_value(b1[4 * r:4 * r + 4])
        m.row.weight.set_value(w2[4 * r:4 * r + 4])
        m.row.bias.set_value(b2)
        res["mp_shapes"] = {n: list(p.shape) for n, p in m.named_parameters()}
        res["mp_distributed"] = {n: bool(getattr(p, "is_distributed", False))
                                 for n, p in m.named_parameters()}
        xt = paddle.to_tensor(x, stop_gradient=False)
        y = m(xt)
        (y * y).sum().backward()
        res[f"mp_out_{gather}"] = lst(y)
        res[f"mp_grads_{gather}"] = [lst(m.col.weight.grad), lst(m.col.bias.grad),
                                     lst(m.row.weight.grad), lst(m.row.bias.grad), lst(xt.grad)]
    xt = paddle.to_tensor(x, stop_gradient=False)
    y = dense(xt)
    (y * y).sum().backward()
    res["dense_out"] = lst(y)
    res["dense_grads"] = [lst(dense.col.weight.grad[:, 4 * r:4 * r + 4]),
                          lst(dense.col.bias.grad[4 * r:4 * r + 4]),
                          lst(dense.row.weight.grad[4 * r:4 * r + 4]),
                          lst(dense.row.bias.grad), lst(xt.grad)]

    # training with a global-norm clip through distributed_model / distributed_optimizer
    def train(model, steps=3):
        opt = paddle.optimizer.SGD(0.05, parameters=model.parameters(),
                                   grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))
        if model is not dense:
            model = fleet.distributed_model(model)
            opt = fleet.distributed_optimizer(opt)
        losses = []
        for _ in range(steps):
            loss = (model(paddle.to_tensor(x)) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return losses
    m = MP(False)
    m.col.weight.set_value(w1[:, 4 * r:4 * r + 4])
    m.col.bias.set_value(b1[4 * r:4 * r + 4])
    m.row.weight.set_value(w2[4 * r:4 * r + 4])
    m.row.bias.set_value(b2)
    res["mp_train"] = train(m)
    res["mp_train_w"] = lst(m.col.weight)
    res["dense_train"] = train(dense)
    res["dense_train_w"] = lst(dense.col.weight[:, 4 * r:4 * r + 4])

    # vocab-parallel embedding + parallel cross entropy
    vocab, dim, classes = 10, 4, 6
    we = rng.randn(vocab, dim).astype("float32")
    wo = rng.randn(dim, classes).astype("float32")
    ids = np.array([[0, 3, 9], [5, 7, 2]], dtype="int64")
    labels = np.array([[[1], [5], [3]], [[0], [4], [2]]], dtype="int64")
    emb = mpu.VocabParallelEmbedding(vocab, dim)
    emb.weight.set_value(we[5 * r:5 * r + 5])
    head = mpu.ColumnParallelLinear(dim, classes, has_bias=False, gather_output=False)
    head.weight.set_value(wo[:, 3 * r:3 * r + 3])
    loss = mpu.ParallelCrossEntropy()(head(emb(paddle.to_tensor(ids))),
                                      paddle.to_tensor(labels))
    loss.mean().backward()
    res["vocab_shapes"] = [list(emb.weight.shape), list(head.weight.shape)]
    res["pce_loss"] = lst(loss)
    res["pce_grads"] = [lst(emb.weight.grad), lst(head.weight.grad)]
    dw = paddle.to_tensor(we, stop_gradient=False)
    do = paddle.to_tensor(wo, stop_gradient=False)
    logits = paddle.matmul(F.embedding(paddle.to_tensor(ids), dw), do)
    dl = F.cross_entropy(logits, paddle.to_tensor(labels), reduction="none")
    dl.mean().backward()
    res["dense_ce_loss"] = lst(dl)
    res["dense_ce_grads"] = [lst(dw.grad[5 * r:5 * r + 5]), lst(do.grad[:, 3 * r:3 * r + 3])]

    # model-parallel dropout: the tracker's state differs per rank, the global one does not
    tracker = mpu.get_rng_state_tracker()
    mpu.model_parallel_random_seed(1234)
    ones = paddle.ones([64])
    with tracker.rng_state():
        local = F.dropout(ones, 0.5)
    glob = F.dropout(ones, 0.5)
    res["dropout_local"] = lst(local)
    res["dropout_global"] = lst(glob)


def pipe_model_desc(n):
    descs = []
    for i in range(n):
        descs.append(mpu.LayerDesc(paddle.nn.Linear, 4, 4))
        if i < n - 1:
            descs.append(paddle.nn.Tanh())
    return descs


def pipe_weights(n):
    rng = np.random.RandomState(3)
    return [(rng.uniform(-0.6, 0.6, (4, 4)).astype("float32"),
             rng.uniform(-0.1, 0.1, 4).astype("float32")) for _ in range(n)]


def dense_pipe(ws):
    """pipe_model_desc's layers in one process, with the weights ``ws``."""
    layers = []
    for i, (w, b) in enumerate(ws):
        lin = paddle.nn.Linear(4, 4)
        lin.weight.set_value(w)
        lin.bias.set_value(b)
        layers.append(lin)
        if i < len(ws) - 1:
            layers.append(paddle.nn.Tanh())
    return paddle.nn.Sequential(*layers)


def mse(out, label):
    return F.mse_loss(out, label)


def check_pp(res, acc):
    fleet.init(is_collective=True, strategy=strategy(pp=2, accumulate_steps=acc,
                                                     micro_batch_size=8 // acc))
    hcg = fleet.get_hybrid_communicate_group()
    res["pp_stage"] = [hcg.get_stage_id(), hcg.get_pipe_parallel_world_size(),
                       hcg.is_first_stage, hcg.is_last_stage]
    n = 4
    model = mpu.PipelineLayer(layers=pipe_model_desc(n), num_stages=2, loss_fn=mse)
    ws = pipe_weights(n)
    names = {}
    for name, p in model.named_parameters():
        idx = int(name.split(".")[0]) // 2        # Linear layers are every other entry
        p.set_value(ws[idx][0] if name.endswith("weight") else ws[idx][1])
        names[name] = list(p.shape)
    res[f"pp_names_{acc}"] = names
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
    model = fleet.distributed_model(model)
    opt = fleet.distributed_optimizer(opt)
    rng = np.random.RandomState(4)
    x = rng.randn(8, 4).astype("float32")
    y = rng.randn(8, 4).astype("float32")
    losses = []
    for _ in range(3):
        loss = model.train_batch([paddle.to_tensor(x), paddle.to_tensor(y)], opt)
        losses.append(loss.item())     # Paddle: shape [] on the last stage, [1] on the others
    res[f"pp_loss_shape_{acc}"] = list(loss.shape)
    res[f"pp_engine_{acc}"] = [c.__module__ + "." + c.__name__
                               for c in type(model._schedules["train"]).__mro__
                               if c.__module__.startswith("torch.")][0]
    res[f"pp_losses_{acc}"] = losses
    ev = model.eval_batch([paddle.to_tensor(x), paddle.to_tensor(y)], compute_loss=True)
    res[f"pp_eval_{acc}"] = ev.item()
    outs = model.eval_batch([paddle.to_tensor(x), paddle.to_tensor(y)])
    res[f"pp_eval_outs_{acc}"] = [lst(o) for o in outs]
    # one process: the same layers in a row, whole batch
    seq = dense_pipe(ws)
    sopt = paddle.optimizer.SGD(0.1, parameters=seq.parameters())
    single = []
    for _ in range(3):
        loss = mse(seq(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        sopt.step()
        sopt.clear_grad()
        single.append(float(loss))
    res[f"single_pp_losses_{acc}"] = single
    res[f"single_pp_eval_{acc}"] = float(mse(seq(paddle.to_tensor(x)), paddle.to_tensor(y)))
    res[f"single_pp_out_{acc}"] = lst(seq(paddle.to_tensor(x)))
    res[f"single_pp_stage0_out_{acc}"] = lst(seq[:3](paddle.to_tensor(x)))


def check_pp_quiet(res):
    """Batch norm on stage 0, dropout on stage 1, each stage recomputed in backward, a loss
    scaler: pipelining's first-step shape run must leave paddle's random stream and the
    running statistics alone; the reference is one process accumulating the same micro
    batches (batch norm sees micro batches), each stage's layers recomputed, without scaler."""
    fleet.init(is_collective=True, strategy=strategy(pp=2, accumulate_steps=2,
                                                     micro_batch_size=4))
    ws = pipe_weights(2)

    def descs():
        return [mpu.LayerDesc(paddle.nn.Linear, 4, 4), mpu.LayerDesc(paddle.nn.BatchNorm1D, 4),
                mpu.LayerDesc(paddle.nn.Dropout, 0.5), paddle.nn.Tanh(),
                mpu.LayerDesc(paddle.nn.Linear, 4, 4)]

    def load(named):
        for name, p in named:
            i = 1 if name.startswith("4.") else 0
            if name[2:] in ("weight", "bias") and name[0] in "04":
                p.set_value(ws[i][0] if name.endswith("weight") else ws[i][1])

    rng = np.random.RandomState(8)
    x = rng.randn(8, 4).astype("float32")
    y = rng.randn(8, 4).astype("float32")
    paddle.seed(99)
    model = mpu.PipelineLayer(layers=descs(), num_stages=2, loss_fn=mse,
                              recompute_interval=3)   # one segment a stage, replayed
    load(model.named_parameters())
    opt = fleet.distributed_optimizer(paddle.optimizer.SGD(0.1, parameters=model.parameters()))
    model = fleet.distributed_model(model)

    class Scaler:        # GradScaler's protocol (Paddle's own is off on CPU); 1024 is exact
        calls = []

        def scale(self, loss):
            self.calls.append("scale")
            return loss * 1024.0

        def step(self, optimizer):
            self.calls.append("step")
            for p in optimizer._parameter_list:
                if p.grad is not None:
                    p.grad.set_value(p.grad / 1024.0)
            optimizer.step()

        def update(self):
            self.calls.append("update")

    scaler = Scaler()
    paddle.seed(5)                       # the dropout masks from here on
    res["pq_losses"] = [model.train_batch([paddle.to_tensor(x), paddle.to_tensor(y)], opt,
                                          scaler=scaler).item() for _ in range(3)]
    res["pq_scaler_calls"] = scaler.calls
    res["pq_eval"] = model.eval_batch([paddle.to_tensor(x), paddle.to_tensor(y)],
                                      compute_loss=True).item()
    res["pq_micro"] = lst(model.train_batch([paddle.to_tensor(x), paddle.to_tensor(y)], opt,
                                            return_micro_batch_loss=True))
    paddle.seed(99)
    seq = paddle.nn.Sequential(paddle.nn.Linear(4, 4), paddle.nn.BatchNorm1D(4),
                               paddle.nn.Dropout(0.5), paddle.nn.Tanh(), paddle.nn.Linear(4, 4))
    load(seq.named_parameters())
    sopt = paddle.optimizer.SGD(0.1, parameters=seq.parameters())
    paddle.seed(5)
    single, micro = [], []
    for step in range(4):
        seq.train()
        losses = []
        for i in range(2):
            # each stage recomputed, as the pipeline does: batch norm's statistics move
            # again in the recomputation (Paddle's recompute re-runs the forward as it is)
            out = recompute(seq[2:], recompute(seq[:2], paddle.to_tensor(x[4 * i:4 * i + 4])))
            losses.append(mse(out, paddle.to_tensor(y[4 * i:4 * i + 4])) / 2)
        # in stage 0's 1F1B order: both forwards, then both backwards (each recomputing), so
        # the statistics see x0, x1, x0, x1
        for loss in losses:
            loss.backward()
        micro = [float(loss) for loss in losses]
        total = sum(micro)
        sopt.step()
        sopt.clear_grad()
        single.append(total)
        if step == 2:
            seq.eval()
            res["single_pq_eval"] = sum(float(mse(seq(paddle.to_tensor(x[4 * i:4 * i + 4])),
                                                  paddle.to_tensor(y[4 * i:4 * i + 4])) / 2)
                                        for i in range(2))
    res["single_pq_losses"] = single[:3]
    res["single_pq_micro"] = micro


class Fork(paddle.nn.Layer):
    """Two tensors to the next stage: the activation and an integer tensor without grad."""

    def forward(self, h):
        return h, (h > 0).astype("int64") + 1


class Join(paddle.nn.Layer):
    def forward(self, h, k):
        return F.tanh(h) * k.astype("float32")


def check_pp_tuple(res):
    """A stage sending a tuple (float activation + int64 tensor): the next stage's first layer
    gets it unpacked, as in Paddle; equal to one process."""
    fleet.init(is_collective=True, strategy=strategy(pp=2, accumulate_steps=2,
                                                     micro_batch_size=4))
    ws = pipe_weights(2)
    model = mpu.PipelineLayer(layers=[mpu.LayerDesc(paddle.nn.Linear, 4, 4), Fork(), Join(),
                                      mpu.LayerDesc(paddle.nn.Linear, 4, 4)],
                              num_stages=2, loss_fn=mse)
    for name, p in model.named_parameters():
        i = 1 if name.startswith("3.") else 0
        p.set_value(ws[i][0] if name.endswith("weight") else ws[i][1])
    opt = fleet.distributed_optimizer(paddle.optimizer.SGD(0.1, parameters=model.parameters()))
    model = fleet.distributed_model(model)
    rng = np.random.RandomState(9)
    x = rng.randn(8, 4).astype("float32")
    y = rng.randn(8, 4).astype("float32")
    res["pt_losses"] = [model.train_batch([paddle.to_tensor(x), paddle.to_tensor(y)],
                                          opt).item() for _ in range(3)]
    a, b = paddle.nn.Linear(4, 4), paddle.nn.Linear(4, 4)
    for lin, (w, bias) in zip((a, b), ws):
        lin.weight.set_value(w)
        lin.bias.set_value(bias)
    sopt = paddle.optimizer.SGD(0.1, parameters=a.parameters() + b.parameters())
    single = []
    for _ in range(3):
        loss = mse(b(Join()(*Fork()(a(paddle.to_tensor(x))))), paddle.to_tensor(y))
        loss.backward()
        sopt.step()
        sopt.clear_grad()
        single.append(float(loss))
    res["single_pt_losses"] = single


def shared_forward(layer, x):
    return layer(x)


def check_pp_shared(res):
    """A weight shared by the first and the last stage (SharedLayerDesc): kept equal on both,
    its gradient the sum of both uses, as one Linear used twice in one process (without bias:
    only the ``shared_weight_attr`` is shared, each stage's other parameters are its own)."""
    fleet.init(is_collective=True, strategy=strategy(pp=2, accumulate_steps=2,
                                                     micro_batch_size=4))
    descs = [mpu.SharedLayerDesc("tied", paddle.nn.Linear, shared_forward, "weight", 4, 4,
                                 bias_attr=False),
             paddle.nn.Tanh(), mpu.LayerDesc(paddle.nn.Linear, 4, 4), paddle.nn.Tanh(),
             mpu.SharedLayerDesc("tied", paddle.nn.Linear, shared_forward, "weight", 4, 4,
                                 bias_attr=False)]
    model = mpu.PipelineLayer(layers=descs, num_stages=2, loss_fn=mse)
    ws = pipe_weights(2)
    for name, p in model.named_parameters():
        i = 1 if name.startswith("2.") else 0
        p.set_value(ws[i][0] if name.endswith("weight") else ws[i][1])
    res["pp_shared_names"] = sorted(n for n, _ in model.named_parameters())
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
    model = fleet.distributed_model(model)
    opt = fleet.distributed_optimizer(opt)
    rng = np.random.RandomState(4)
    x = rng.randn(8, 4).astype("float32")
    y = rng.randn(8, 4).astype("float32")
    res["pp_shared_losses"] = [model.train_batch([paddle.to_tensor(x), paddle.to_tensor(y)],
                                                 opt).item() for _ in range(3)]
    res["pp_shared_weight"] = lst(model._layers.shared_layers["tied"].weight)
    tied, mid = paddle.nn.Linear(4, 4, bias_attr=False), paddle.nn.Linear(4, 4)
    tied.weight.set_value(ws[0][0])
    mid.weight.set_value(ws[1][0])
    mid.bias.set_value(ws[1][1])
    sopt = paddle.optimizer.SGD(0.1, parameters=tied.parameters() + mid.parameters())
    single = []
    for _ in range(3):
        loss = mse(tied(F.tanh(mid(F.tanh(tied(paddle.to_tensor(x)))))), paddle.to_tensor(y))
        loss.backward()
        sopt.step()
        sopt.clear_grad()
        single.append(float(loss))
    res["single_shared_losses"] = single
    res["single_shared_weight"] = lst(tied.weight)


def small_net():
    rng = np.random.RandomState(5)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 6), paddle.nn.Tanh(), paddle.nn.Linear(6, 1))
    for p in net.parameters():
        p.set_value(rng.uniform(-0.5, 0.5, p.shape).astype("float32"))
    return net


def dp_data():
    rng = np.random.RandomState(6)
    return rng.randn(8, 4).astype("float32"), rng.randn(8, 1).astype("float32")


def run_train(model, opt, x, y, steps=4):
    losses = []
    for _ in range(steps):
        loss = ((model(paddle.to_tensor(x)) - paddle.to_tensor(y)) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses


def check_dp(res, rank):
    fleet.init(is_collective=True, strategy=strategy(dp=2))
    hcg = fleet.get_hybrid_communicate_group()
    res["dp_groups"] = [hcg.get_data_parallel_rank(), hcg.get_data_parallel_world_size(),
                        hcg.get_parallel_mode(), fleet.worker_index(), fleet.worker_num(),
                        fleet.is_first_worker(), fleet.local_rank()]
    x, y = dp_data()
    half = slice(4 * rank, 4 * rank + 4)
    net = small_net()
    opt = paddle.optimizer.Adam(0.05, parameters=net.parameters(),
                                grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
    model = fleet.distributed_model(net)
    res["dp_wrapper"] = type(model).__name__
    dopt = fleet.distributed_optimizer(opt)
    res["dp_losses"] = run_train(model, dopt, x[half], y[half])
    res["dp_weights"] = [lst(p) for p in net.parameters()]
    single = small_net()
    sopt = paddle.optimizer.Adam(0.05, parameters=single.parameters(),
                                 grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
    res["single_losses"] = run_train(single, sopt, x, y)
    res["single_weights"] = [lst(p) for p in single.parameters()]


def check_fleet_sharding(res, rank):
    """sharding_degree 2: each rank feeds its half of the batch; the optimizer averages the
    gradients over the sharding group (its ranks are data-parallel replicas), so both ranks
    train check_dp's one-process model on the whole batch."""
    s = fleet.DistributedStrategy()
    s.hybrid_configs = {"dp_degree": 1, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 2}
    fleet.init(is_collective=True, strategy=s)
    hcg = fleet.get_hybrid_communicate_group()
    res["fs_groups"] = [hcg.get_sharding_parallel_world_size(), hcg.get_data_parallel_world_size()]
    x, y = dp_data()
    half = slice(4 * rank, 4 * rank + 4)
    net = small_net()
    opt = paddle.optimizer.Adam(0.05, parameters=net.parameters(),
                                grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
    model = fleet.distributed_model(net)
    dopt = fleet.distributed_optimizer(opt)
    res["fs_losses"] = run_train(model, dopt, x[half], y[half])
    res["fs_weights"] = [lst(p) for p in net.parameters()]


def check_sharded(res, rank):
    fleet.init(is_collective=True, strategy=strategy(dp=2))
    x, y = dp_data()
    half = slice(4 * rank, 4 * rank + 4)
    # group-sharded data parallelism: each level equals DataParallel (p_g_os: below)
    for level in ("os", "os_g"):
        net = small_net()
        opt = paddle.optimizer.Adam(0.05, parameters=net.parameters(),
                                    grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
        model, sopt2, _ = dist.group_sharded_parallel(net, opt, level)
        res[f"sharded_losses_{level}"] = run_train(model, sopt2, x[half], y[half])
        res[f"sharded_weights_{level}"] = [lst(p) for p in net.parameters()]
        res[f"sharded_states_{level}"] = len(opt.state_dict())
    dist.save_group_sharded_model(model, os.path.join(sys.argv[1], "sharded"), sopt2)


def check_sharded_p_g_os(res, rank):
    """Level p_g_os (the parameters partitioned, on FSDP2 in paddle_compat) equals
    DataParallel; each rank holds its part of every parameter and Adam moment between
    steps; the saved model is whole and loads into a plain one."""
    fleet.init(is_collective=True, strategy=strategy(dp=2))
    x, y = dp_data()
    half = slice(4 * rank, 4 * rank + 4)
    net = small_net()
    opt = paddle.optimizer.Adam(0.05, parameters=net.parameters(),
                                grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
    model, sopt, _ = dist.group_sharded_parallel(net, opt, "p_g_os")
    res["sharded_losses_p_g_os"] = run_train(model, sopt, x[half], y[half])
    res["p_g_os_local_numel"] = [int(np.prod(p._local_value().shape)) for p in net.parameters()]
    res["p_g_os_moment_numel"] = sorted(int(np.prod(v._local_value().shape))
                                        for k, v in opt.state_dict().items() if "moment" in k)
    res["sharded_weights_p_g_os"] = [lst(p) for p in net.parameters()]
    path = os.path.join(sys.argv[1], "sharded_p_g_os")
    dist.save_group_sharded_model(model, path, sopt)
    dist.barrier()
    dense = small_net()
    dense.set_state_dict(paddle.load(os.path.join(path, "model.pdmodel")))
    res["p_g_os_loaded"] = [lst(p) for p in dense.parameters()]
    # and back into a sharded model (each rank keeps its part of the whole values)
    again = small_net()
    again, _, _ = dist.group_sharded_parallel(
        again, paddle.optimizer.SGD(0.1, parameters=again.parameters()), "p_g_os")
    again.set_state_dict(paddle.load(os.path.join(path, "model.pdmodel")))
    res["p_g_os_reloaded"] = [lst(p) for p in again.parameters()]


def main(out_dir, sections="mp,pp,dp,sh"):
    rank = int(os.environ["PADDLE_TRAINER_ID"])
    res = {}
    sections = sections.split(",")
    if "mp" in sections:
        check_mp(res)
    if "pp" in sections:
        for acc in (1, 2, 4):     # 1 < 2 stages: Paddle's 1F1B is then all F, all B
            check_pp(res, acc)
        check_pp_shared(res)
        check_pp_quiet(res)
        check_pp_tuple(res)
    if "dp" in sections:
        check_dp(res, rank)
        if hasattr(paddle, "to_torch"):      # paddle_compat only (Paddle's CPU sharding: not run)
            check_fleet_sharding(res, rank)
    if "sh" in sections:
        check_sharded(res, rank)
        check_sharded_p_g_os(res, rank)
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as f:
        json.dump(res, f)
    print(f"fleet rank {rank} done")


if __name__ == "__main__":
    main(*sys.argv[1:3])
