"""A two-trainer Paddle job for tests/test_distributed.py (``import paddle`` as a user writes it).

Run by ``python -m paddle_compat.distributed.launch --nproc_per_node 2 dist_train.py OUT.json``
or by ``dist_spawn.py``. Every trainer checks the collectives and trains a small model with a
PyLayer inside under ``paddle.DataParallel`` on its half of the batch; trainer 0 also trains the
same model alone on the whole batch and writes everything to OUT.json.
"""
import json
import sys

import numpy as np

import paddle
import paddle.distributed as dist
from paddle.autograd import PyLayer


class cus_tanh(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


def make_model():
    """Linear(4, 3) -> PyLayer tanh -> Linear(3, 1), weights fixed by numpy."""
    rng = np.random.RandomState(0)

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = paddle.nn.Linear(4, 3)
            self.fc2 = paddle.nn.Linear(3, 1)

        def forward(self, x):
            return self.fc2(cus_tanh.apply(self.fc1(x)))

    net = Net()
    for p in net.parameters():
        p.set_value(rng.uniform(-0.5, 0.5, p.shape).astype("float32"))
    return net


def sgd_step(model, lr):
    """Plain SGD written out (paddle.optimizer is not used here on purpose)."""
    with paddle.no_grad():
        for p in model.parameters():
            p.set_value(p - lr * p.grad)
            p.clear_gradient()


def train(model, x, y, steps=5, lr=0.1):
    for _ in range(steps):
        loss = paddle.mean(paddle.square(model(x) - y))
        loss.backward()
        sgd_step(model, lr)
    return [p.numpy().tolist() for p in model.parameters()]


def data():
    rng = np.random.RandomState(1)
    return rng.randn(8, 4).astype("float32"), rng.randn(8, 1).astype("float32")


def collectives(rank, world):
    r = {}
    t = paddle.to_tensor([1.0, 2.0]) * (rank + 1)
    for name in ("SUM", "MAX", "MIN", "PROD", "AVG"):
        u = t.clone()
        dist.all_reduce(u, op=getattr(dist.ReduceOp, name))
        r["all_reduce_" + name] = u.numpy().tolist()
    task = dist.all_reduce(t.clone(), sync_op=False)
    task.wait()
    out = []
    dist.all_gather(out, paddle.to_tensor([rank, rank * 10]))
    r["all_gather"] = [o.numpy().tolist() for o in out]
    objs = []
    dist.all_gather_object(objs, {"rank": rank})
    r["all_gather_object"] = objs
    b = paddle.to_tensor([rank + 5.0])
    dist.broadcast(b, src=1)
    r["broadcast"] = b.numpy().tolist()
    s = paddle.to_tensor([rank + 1.0])
    dist.reduce(s, dst=0)
    r["reduce"] = s.numpy().tolist()
    rs = paddle.zeros([2])
    dist.reduce_scatter(rs, [paddle.to_tensor([1.0, 2.0]) * (rank + 1),
                             paddle.to_tensor([3.0, 4.0]) * (rank + 1)])
    r["reduce_scatter"] = rs.numpy().tolist()
    sc = paddle.zeros([2])
    dist.scatter(sc, [paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([2.0, 3.0])]
                 if rank == 0 else None, src=0)
    r["scatter"] = sc.numpy().tolist()
    dist.barrier()
    if rank == 0:
        dist.send(paddle.to_tensor([42.0, 43.0]), dst=1)
        r["recv"] = None
    else:
        got = paddle.zeros([2])
        dist.recv(got, src=0)
        r["recv"] = got.numpy().tolist()
    g = dist.new_group([0, 1])
    v = paddle.to_tensor([float(rank)])
    dist.all_reduce(v, group=g)
    r["new_group"] = [g.rank, g.nranks, v.numpy().tolist()]
    r["get_group"] = dist.get_group(0).nranks
    return r


def main(out_path):
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    env = dist.ParallelEnv()
    info = {"rank": rank, "world": world, "env": [env.rank, env.world_size, env.nranks,
                                                  env.local_rank, env.current_endpoint,
                                                  env.trainer_endpoints]}
    info["collectives"] = collectives(rank, world)
    x, y = data()
    n = len(x) // world
    dp = paddle.DataParallel(make_model())
    xs, ys = paddle.to_tensor(x[rank * n:(rank + 1) * n]), paddle.to_tensor(y[rank * n:(rank + 1) * n])
    info["dp_weights"] = train(dp, xs, ys)
    info["state_dict_keys"] = sorted(dp.state_dict().keys())
    every = []
    dist.all_gather_object(every, info)
    if rank == 0:
        single = train(make_model(), paddle.to_tensor(x), paddle.to_tensor(y))
        with open(out_path, "w") as f:
            json.dump({"ranks": every, "single_weights": single}, f)
    print(f"trainer {rank} of {world} done")


if __name__ == "__main__":
    main(sys.argv[1])
