"""A 4-rank fleet job for tests/test_fleet.py (``import paddle`` as a user writes it), run by
``python -m paddle_compat.distributed.launch --nproc_per_node 4 dist_fleet4.py OUT_DIR``.

Two hybrid layouts, one after the other; an optional second argument picks the sections
(``mp,pp``; real Paddle runs neither on CPU, see tools/goldens/record_fleet.py):

- ``mp``: dp2 x mp2, a column/row-parallel MLP, each data-parallel replica on half the batch;
- ``pp``: dp2 x pp2, a 2-stage pipeline (1F1B, 2 micro batches), each replica on half the batch.

Both train with SGD and a global-norm clip; the reference is the dense model trained on the
whole batch in this process (its loss taken on this replica's half before each step). Rank r
writes OUT_DIR/rank<r>.json.
"""
import json
import os
import sys

import numpy as np

import paddle
import paddle.nn.functional as F
from paddle.distributed import fleet
from paddle.distributed.fleet import meta_parallel as mpu

from dist_fleet import dense_pipe, lst, mse, pipe_model_desc, pipe_weights, strategy


def data(n_out):
    rng = np.random.RandomState(11)
    return rng.randn(8, 4).astype("float32"), rng.randn(8, n_out).astype("float32")


def dense_train(model, x, y, half, steps=3):
    """The whole batch in one process; the loss on ``half`` before each step."""
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters(),
                               grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
    losses = []
    for _ in range(steps):
        with paddle.no_grad():
            losses.append(float(mse(model(paddle.to_tensor(x[half])),
                                    paddle.to_tensor(y[half]))))
        loss = mse(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
    return losses


def groups(hcg):
    return {"dp": hcg.get_data_parallel_group().ranks,
            "mp": hcg.get_model_parallel_group().ranks,
            "pp": hcg.get_pipe_parallel_group().ranks,
            "ranks": [hcg.get_data_parallel_rank(), hcg.get_model_parallel_rank(),
                      hcg.get_stage_id()]}


def check_dp_mp(res):
    fleet.init(is_collective=True, strategy=strategy(dp=2, mp=2))
    hcg = fleet.get_hybrid_communicate_group()
    res["mp_groups"] = groups(hcg)
    d, r = hcg.get_data_parallel_rank(), hcg.get_model_parallel_rank()
    half = slice(4 * d, 4 * d + 4)
    rng = np.random.RandomState(12)
    w1, b1 = rng.uniform(-0.5, 0.5, (4, 8)).astype("float32"), np.zeros(8, "float32")
    w2, b2 = rng.uniform(-0.5, 0.5, (8, 3)).astype("float32"), np.full(3, 0.1, "float32")
    x, y = data(3)

    class MP(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.col = mpu.ColumnParallelLinear(4, 8, has_bias=True, gather_output=False)
            self.row = mpu.RowParallelLinear(8, 3, input_is_parallel=True)

        def forward(self, x):
            return self.row(F.relu(self.col(x)))

    m = MP()
    m.col.weight.set_value(w1[:, 4 * r:4 * r + 4])
    m.col.bias.set_value(b1[4 * r:4 * r + 4])
    m.row.weight.set_value(w2[4 * r:4 * r + 4])
    m.row.bias.set_value(b2)
    opt = paddle.optimizer.SGD(0.1, parameters=m.parameters(),
                               grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
    model = fleet.distributed_model(m)
    opt = fleet.distributed_optimizer(opt)
    losses = []
    for _ in range(3):
        loss = mse(model(paddle.to_tensor(x[half])), paddle.to_tensor(y[half]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    res["mp_losses"] = losses
    res["mp_weights"] = [lst(m.col.weight), lst(m.col.bias), lst(m.row.weight),
                         lst(m.row.bias)]
    dense = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(),
                                 paddle.nn.Linear(8, 3))
    for p, v in zip(dense.parameters(), (w1, b1, w2, b2)):
        p.set_value(v)
    res["dense_mp_losses"] = dense_train(dense, x, y, half)
    res["dense_mp_weights"] = [lst(dense[0].weight[:, 4 * r:4 * r + 4]),
                               lst(dense[0].bias[4 * r:4 * r + 4]),
                               lst(dense[2].weight[4 * r:4 * r + 4]), lst(dense[2].bias)]


def check_dp_pp(res):
    fleet.init(is_collective=True, strategy=strategy(dp=2, pp=2, accumulate_steps=2,
                                                     micro_batch_size=2))
    hcg = fleet.get_hybrid_communicate_group()
    res["pp_groups"] = groups(hcg)
    d = hcg.get_data_parallel_rank()
    half = slice(4 * d, 4 * d + 4)
    n = 4
    ws = pipe_weights(n)
    model = mpu.PipelineLayer(layers=pipe_model_desc(n), num_stages=2, loss_fn=mse)
    for name, p in model.named_parameters():
        idx = int(name.split(".")[0]) // 2
        p.set_value(ws[idx][0] if name.endswith("weight") else ws[idx][1])
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters(),
                               grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
    model = fleet.distributed_model(model)
    opt = fleet.distributed_optimizer(opt)
    x, y = data(4)
    batch = [paddle.to_tensor(x[half]), paddle.to_tensor(y[half])]
    res["pp_losses"] = [model.train_batch(batch, opt).item() for _ in range(3)]
    res["pp_weights"] = {name: lst(p) for name, p in model._layers.named_parameters()}
    res["pp_eval"] = model.eval_batch(batch, compute_loss=True).item()
    seq = dense_pipe(ws)
    res["dense_pp_losses"] = dense_train(seq, x, y, half)
    res["dense_pp_weights"] = {name: lst(p) for name, p in seq.named_parameters()}
    res["dense_pp_eval"] = float(mse(seq(batch[0]), batch[1]))


def main(out_dir, sections="mp,pp"):
    rank = int(os.environ["PADDLE_TRAINER_ID"])
    res = {}
    sections = sections.split(",")
    if "mp" in sections:
        check_dp_mp(res)
    if "pp" in sections:
        check_dp_pp(res)
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as f:
        json.dump(res, f)
    print(f"fleet4 rank {rank} done")


if __name__ == "__main__":
    main(*sys.argv[1:3])
