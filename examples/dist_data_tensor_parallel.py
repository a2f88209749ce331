"""Data + tensor parallel training with ``paddle.distributed.fleet`` on 2 CPU processes.

A token classifier -- ``VocabParallelEmbedding`` -> ``ColumnParallelLinear`` -> GELU ->
``RowParallelLinear`` -> ``ColumnParallelLinear`` head -> ``ParallelCrossEntropy`` -- is trained
with ``mp_degree = 2`` (each rank holds half of every weight); the data-parallel degree is what
the ranks leave over (``--nproc 4`` gives dp 2 x mp 2). ``fleet.distributed_model`` /
``distributed_optimizer`` broadcast the replicated weights and clip the gradients by the norm
of the whole model. Rank 0 prints the losses, which fall.

Run as a plain script, it starts its own job through the launcher::

    python examples/dist_data_tensor_parallel.py [--device cpu] [--nproc 2]
    # = python -m paddle_compat.distributed.launch --nproc_per_node 2 THIS_FILE

(the job always runs on CPU with gloo: several processes cannot share one GPU with NCCL).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

import paddle_compat as paddle
import paddle_compat.nn.functional as F
from paddle_compat.distributed import fleet
from paddle_compat.distributed.fleet import meta_parallel as mpu

VOCAB, DIM, HIDDEN, CLASSES = 32, 16, 32, 8


class TokenClassifier(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.embed = mpu.VocabParallelEmbedding(VOCAB, DIM)
        self.up = mpu.ColumnParallelLinear(DIM, HIDDEN, has_bias=True, gather_output=False)
        self.down = mpu.RowParallelLinear(HIDDEN, DIM, input_is_parallel=True)
        self.head = mpu.ColumnParallelLinear(DIM, CLASSES, has_bias=False, gather_output=False)
        self.loss = mpu.ParallelCrossEntropy()

    def forward(self, ids, labels):
        h = self.embed(ids)
        h = h + self.down(F.gelu(self.up(h)))
        return self.loss(self.head(h), labels).mean()


def data(dp_rank, dp_world, steps=30, batch=16, seq=6):
    """A fixed task: the class of a token is its id modulo CLASSES; each data-parallel rank
    takes its own slice of every batch."""
    rng = np.random.RandomState(0)
    for _ in range(steps):
        ids = rng.randint(0, VOCAB, (batch, seq)).astype("int64")
        labels = (ids % CLASSES)[..., None]
        part = slice(dp_rank * batch // dp_world, (dp_rank + 1) * batch // dp_world)
        yield paddle.to_tensor(ids[part]), paddle.to_tensor(labels[part])


def train():
    world = int(os.environ["PADDLE_TRAINERS_NUM"])
    strategy = fleet.DistributedStrategy()
    strategy.hybrid_configs = {"dp_degree": world // 2, "mp_degree": 2, "pp_degree": 1}
    fleet.init(is_collective=True, strategy=strategy)
    hcg = fleet.get_hybrid_communicate_group()
    paddle.seed(2024)
    mpu.model_parallel_random_seed(2024)
    model = TokenClassifier()
    opt = paddle.optimizer.AdamW(0.02, parameters=model.parameters(),
                                 grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))
    model = fleet.distributed_model(model)
    opt = fleet.distributed_optimizer(opt)
    losses = []
    for ids, labels in data(hcg.get_data_parallel_rank(), hcg.get_data_parallel_world_size()):
        loss = model(ids, labels)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    if fleet.worker_index() == 0:
        print(f"dp {hcg.get_data_parallel_world_size()} x mp "
              f"{hcg.get_model_parallel_world_size()}; embedding slice per rank: "
              f"{list(model.embed.weight.shape)}")
        for i in range(0, len(losses), 5):
            print(f"step {i:2d}: loss {losses[i]:.4f}")
        print(f"step {len(losses) - 1:2d}: loss {losses[-1]:.4f}")
        assert losses[-1] < 0.5 * losses[0], losses


def main():
    if "PADDLE_TRAINER_ID" in os.environ:
        return train()
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    p.add_argument("--nproc", type=int, default=2, choices=[2, 4])
    args = p.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PADDLE_COMPAT_DEVICES"}
    env.setdefault("PADDLE_PG_TIMEOUT", "120000")
    env["CUDA_VISIBLE_DEVICES"] = ""            # the job runs on CPU (gloo), see above
    with tempfile.TemporaryDirectory() as logs:      # the workers' logs
        return subprocess.call([sys.executable, "-m", "paddle_compat.distributed.launch",
                                "--nproc_per_node", str(args.nproc), "--log_dir", logs,
                                os.path.abspath(__file__)], env=env)


if __name__ == "__main__":
    sys.exit(main() or 0)
