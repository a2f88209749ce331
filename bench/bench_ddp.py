"""A 2-rank data-parallel training step: ``paddle.DataParallel`` (paddle_compat) against torch's
``DistributedDataParallel`` on the same MLP, same data, in the same gloo job.

    python bench/bench_ddp.py [--hidden 512] [--batch 64] [--steps 30] [--threads 1]

starts itself under ``python -m paddle_compat.distributed.launch --nproc_per_node 2``. A step
is forward, MSE loss, backward (with the gradient all-reduce) and an SGD update; ours and
torch's alternate in rounds so drift on a shared machine hits both alike. Rank 0 prints the
median ms per step of each and the ratio (issue 19's target: at most 1.1).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time


def in_job(args):
    import numpy as np
    import torch
    import torch.distributed as tdist

    import paddle
    import paddle.distributed as dist

    torch.set_num_threads(args.threads)
    dist.init_parallel_env()
    rank = dist.get_rank()
    rng = np.random.RandomState(rank)
    x = rng.rand(args.batch, args.hidden).astype("float32")
    y = rng.rand(args.batch, 1).astype("float32")

    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(args.hidden, args.hidden), paddle.nn.ReLU(),
                               paddle.nn.Linear(args.hidden, args.hidden), paddle.nn.ReLU(),
                               paddle.nn.Linear(args.hidden, 1))
    ours = paddle.DataParallel(net)
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=ours.parameters())
    px, py = paddle.to_tensor(x), paddle.to_tensor(y)

    def step_ours():
        loss = paddle.nn.functional.mse_loss(ours(px), py)
        loss.backward()
        opt.step()
        opt.clear_grad()

    torch.manual_seed(0)
    tnet = torch.nn.Sequential(torch.nn.Linear(args.hidden, args.hidden), torch.nn.ReLU(),
                               torch.nn.Linear(args.hidden, args.hidden), torch.nn.ReLU(),
                               torch.nn.Linear(args.hidden, 1))
    theirs = torch.nn.parallel.DistributedDataParallel(tnet)
    topt = torch.optim.SGD(theirs.parameters(), lr=0.01)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)

    def step_torch():
        loss = torch.nn.functional.mse_loss(theirs(tx), ty)
        loss.backward()
        topt.step()
        topt.zero_grad(set_to_none=True)

    def timed(fn, n):
        fn()
        tdist.barrier()
        out = []
        for _ in range(n):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
        return statistics.median(out) * 1e3

    a, b = [], []
    for _ in range(5):
        a.append(timed(step_ours, args.steps))
        b.append(timed(step_torch, args.steps))
    if rank == 0:
        ma, mb = statistics.median(a), statistics.median(b)
        print(f"2-rank DP step, MLP {args.hidden}x{args.hidden}x2, batch {args.batch} per rank, "
              f"{args.threads} thread(s): paddle.DataParallel {ma:.3f} ms, torch DDP {mb:.3f} ms, "
              f"ratio {ma / mb:.2f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hidden", type=int, default=512)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--in-job", action="store_true")
    args = ap.parse_args()
    if args.in_job:
        return in_job(args)
    cmd = [sys.executable, "-m", "paddle_compat.distributed.launch", "--nproc_per_node", "2",
           "--log_dir", os.path.join("/tmp", "bench_ddp_log"), os.path.abspath(__file__),
           "--in-job", "--hidden", str(args.hidden), "--batch", str(args.batch),
           "--steps", str(args.steps), "--threads", str(args.threads)]
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
