"""``paddle.distributed.spawn`` as Paddle's docs use it, for tests/test_distributed.py.

``python -m paddle_compat dist_spawn.py OUT_DIR``: two workers all-reduce their ranks and
write what they saw to OUT_DIR/rank{i}.json; then a worker that raises shows that the parent
gets the child's traceback in an Exception.
"""
import json
import os
import sys

import paddle
import paddle.distributed as dist


def worker(out_dir, fail=False):
    dist.init_parallel_env()
    if fail and dist.get_rank() == 1:
        raise ValueError("worker 1 failed on purpose")
    t = paddle.to_tensor([float(dist.get_rank() + 1)])
    dist.all_reduce(t)
    env = dist.ParallelEnv()
    with open(os.path.join(out_dir, f"rank{dist.get_rank()}.json"), "w") as f:
        json.dump({"sum": t.numpy().tolist(), "world": dist.get_world_size(),
                   "paddle": paddle.__name__, "endpoint": env.current_endpoint,
                   "endpoints": env.trainer_endpoints}, f)


if __name__ == "__main__":
    out = sys.argv[1]
    ctx = dist.spawn(worker, args=(out,), nprocs=2)
    print("joined", len(ctx.processes), [p.exitcode for p in ctx.processes])
    try:
        dist.spawn(worker, args=(out, True), nprocs=2, start_method="fork")
    except Exception as e:  # noqa: BLE001
        print("caught:", "ValueError: worker 1 failed on purpose" in str(e))
