"""A 2-rank job for tests/test_distributed_launch.py: ``dist_faults.py MODE OUT``.

MODE ``ok``: an all_reduce (also across launchers: the multi-node test), then writes the
job's Paddle environment and the result to OUT/rank<N>.json; ``exit``: rank 1 calls
os._exit(7) while rank 0 waits in an all_reduce; ``kill``: rank 1 SIGKILLs itself; ``raise``: rank 1 raises.
"""
import json
import os
import signal
import sys

import paddle
import paddle.distributed as dist

mode, out = sys.argv[1], sys.argv[2]
dist.init_parallel_env()
rank = dist.get_rank()
print(f"trainer {rank} of {dist.get_world_size()} says hello", flush=True)
if mode == "ok":
    x = paddle.to_tensor([1.0 + rank, 10.0])
    dist.all_reduce(x)
    keys = ("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ENDPOINTS",
            "PADDLE_CURRENT_ENDPOINT", "PADDLE_LOCAL_RANK", "PADDLE_RANK_IN_NODE",
            "PADDLE_MASTER", "PADDLE_NNODES", "PADDLE_LOCAL_SIZE", "PADDLE_GLOBAL_SIZE",
            "PADDLE_LOG_DIR", "PADDLE_JOB_ID", "PADDLE_DISTRI_BACKEND")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"rank{rank}.json"), "w") as f:
        json.dump({"sum": x.numpy().tolist(), "env": {k: os.environ.get(k) for k in keys}}, f)
else:
    if rank == 1:
        print("trainer 1 is about to fail", flush=True)
        if mode == "exit":
            os._exit(7)
        if mode == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        raise RuntimeError("trainer 1 broke on purpose")
    x = paddle.ones([4])
    dist.all_reduce(x)                  # the peer never comes: must fail, never hang
    print("rank 0 should not get here", flush=True)
