"""all_reduce latency and bandwidth: paddle_compat's ``paddle.distributed.all_reduce`` against
raw ``torch.distributed.all_reduce`` on the same tensors, in the same 2-rank gloo job.

    python bench/bench_distributed.py [--quick]

starts itself under ``python -m paddle_compat.distributed.launch --nproc_per_node 2``; rank 0
prints one row per message size: median microseconds per call for ours (with the
dtype/shape mismatch check, the default), ours without it (``PADDLE_COMPAT_CHECK_COLLECTIVES=0``
behaviour, toggled in place), raw torch, the ratios, and the bandwidth (bytes / time). The
three are interleaved repeat by repeat, so drift on a shared machine hits them alike.
"""
import os
import statistics
import subprocess
import sys
import time

SIZES = [4, 256, 16384, 262144, 4194304]          # float32 elements: 16 B .. 16 MiB


def in_job(quick):
    import torch
    import torch.distributed as tdist

    import paddle
    import paddle.distributed as dist
    from paddle_compat.distributed import collective

    dist.init_parallel_env()
    rank = dist.get_rank()
    rows = []
    for n in SIZES:
        x = paddle.ones([n], dtype="float32")
        t = x._t.detach()
        calls = max(3, min(200, 2_000_000 // (n * 4) + 3)) // (4 if quick else 1) or 3
        repeats = 5 if quick else 9

        def ours():
            dist.all_reduce(x)

        def ours_nocheck():
            collective._CHECK = False
            try:
                dist.all_reduce(x)
            finally:
                collective._CHECK = True

        def raw():
            tdist.all_reduce(t)

        times = {"ours": [], "nocheck": [], "torch": []}
        for fn in (ours, ours_nocheck, raw):
            fn()
        for _ in range(repeats):
            for name, fn in (("ours", ours), ("nocheck", ours_nocheck), ("torch", raw)):
                tdist.barrier()
                t0 = time.perf_counter()
                for _ in range(calls):
                    fn()
                times[name].append((time.perf_counter() - t0) / calls * 1e6)
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append((n * 4, med))
    if rank == 0:
        print(f"torch {torch.__version__}, 2 ranks, gloo on CPU ({os.cpu_count()} cores)")
        print(f"{'bytes':>10} {'ours us':>10} {'no-check us':>12} {'torch us':>10} "
              f"{'ours/torch':>11} {'nocheck/torch':>14} {'ours GB/s':>10} {'torch GB/s':>11}")
        for nbytes, m in rows:
            print(f"{nbytes:>10} {m['ours']:>10.1f} {m['nocheck']:>12.1f} {m['torch']:>10.1f} "
                  f"{m['ours'] / m['torch']:>11.2f} {m['nocheck'] / m['torch']:>14.2f} "
                  f"{nbytes / m['ours'] / 1e3:>10.3f} {nbytes / m['torch'] / 1e3:>11.3f}")


def main():
    quick = "--quick" in sys.argv
    if "PADDLE_TRAINER_ID" in os.environ:
        in_job(quick)
        return
    env = {k: v for k, v in os.environ.items() if not k.startswith("PADDLE_")}
    cmd = [sys.executable, "-m", "paddle_compat.distributed.launch", "--nproc_per_node", "2",
           "--log_dir", os.path.join("/tmp", "bench_distributed_log"), os.path.abspath(__file__)]
    sys.exit(subprocess.call(cmd + (["--quick"] if quick else []), env=env))


if __name__ == "__main__":
    main()
