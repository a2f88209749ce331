"""PyLayer forward+backward ("total": apply, mean, backward) and forward alone ("forward":
apply) of the docs' custom tanh against the same raw torch.autograd.Function (same run,
interleaved), against real Paddle when its virtualenv exists, and memory over 100,000 applies
with backward.

    python bench/bench_pylayer.py [--quick] [--threads N]
"""
import gc
import os
import resource
import statistics
import subprocess
import sys
import time

import torch

import paddle_compat as paddle
from paddle_compat.autograd import PyLayer


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


class RawTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensors
        return dy * (1 - torch.square(y))


def per_call(fn, n):
    fn()                    # untimed: the first call after another kind pays for the allocator
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n


def compare(shape, n, repeats):
    """Per-call seconds {(kind, who): [one per repeat]} for kind "total" (apply + mean +
    backward) and "forward" (apply alone), who "ours" / "raw"; all four are interleaved in every
    repeat so that they share the machine's noise."""
    t = torch.randn(*shape, dtype=torch.float32)
    t.requires_grad_(True)
    x = paddle.from_torch(t)
    fns = {
        ("total", "ours"): lambda: cus_tanh.apply(x).mean().backward(),
        ("total", "raw"): lambda: RawTanh.apply(t).mean().backward(),
        ("forward", "ours"): lambda: cus_tanh.apply(x),
        ("forward", "raw"): lambda: RawTanh.apply(t),
    }
    for f in fns.values():
        f()
    times = {k: [] for k in fns}
    order = list(fns)
    for r in range(repeats):
        # the order alternates: what ran just before changes the allocator's state (large
        # tensors) and the caches, which must not favour either side
        for k in (order if r % 2 == 0 else order[::-1]):
            times[k].append(per_call(fns[k], n))
    return times


PADDLE_SNIPPET = r"""
import time, statistics, paddle
from paddle.autograd import PyLayer
class cus_tanh(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x); ctx.save_for_backward(y); return y
    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor(); return dy * (1 - paddle.square(y))
for shape, n in (([2, 3], 2000), ([1024, 1024], 20)):
    x = paddle.randn(shape); x.stop_gradient = False
    cus_tanh.apply(x).mean().backward()
    ts = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(n):
            cus_tanh.apply(x).mean().backward()
        ts.append((time.perf_counter() - t0) / n)
    print(shape, statistics.median(ts))
"""


def real_paddle():
    venv = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "..",
                        "paddle_venv", "bin", "python")
    if not os.path.exists(venv):
        return None
    p = subprocess.run([venv, "-c", PADDLE_SNIPPET], capture_output=True, text=True)
    return [ln for ln in p.stdout.splitlines() if ln.startswith("[")]


def memory(n):
    x = paddle.from_torch(torch.randn(2, 3))
    x.stop_gradient = False
    gc.collect()
    rss = []
    for i in range(n):
        cus_tanh.apply(x).mean().backward()
        if i % (n // 10) == 0:
            rss.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    garbage = gc.collect()
    return rss, garbage


def main():
    quick = "--quick" in sys.argv
    if "--threads" in sys.argv:
        # e.g. --threads 1: on a shared machine, ops on large tensors split over several
        # threads wait for a descheduled one, which swamps the per-call overhead measured here
        torch.set_num_threads(int(sys.argv[sys.argv.index("--threads") + 1]))
    print(f"torch {torch.__version__}, {torch.get_num_threads()} intra-op threads")
    for shape, n, reps in (((2, 3), 2000 if not quick else 300, 25 if not quick else 5),
                           ((1024, 1024), 20 if not quick else 5, 25 if not quick else 5)):
        times = compare(shape, n, reps)
        for kind in ("total", "forward"):
            ours, raw = times[(kind, "ours")], times[(kind, "raw")]
            mo, mr = statistics.median(ours), statistics.median(raw)
            print(f"{list(shape)} {kind:7s}: paddle_compat {mo * 1e6:9.1f} us  raw "
                  f"autograd.Function {mr * 1e6:9.1f} us  ratio of medians {mo / mr:.3f}x  "
                  f"(of minimums {min(ours) / min(raw):.3f}x; {reps} interleaved repeats of "
                  f"{n} calls)")
    rp = real_paddle()
    if rp:
        for ln in rp:
            shape, s = ln.rsplit(" ", 1)
            print(f"real Paddle 3.3.1 {shape}: {float(s) * 1e6:9.1f} us")
    n = 100_000 if not quick else 10_000
    t0 = time.perf_counter()
    rss, garbage = memory(n)
    print(f"{n} applies+backward in {time.perf_counter() - t0:.1f}s: max RSS (KiB) sampled "
          f"every {n // 10}: {rss}; gc.collect() afterwards found {garbage} objects")


if __name__ == "__main__":
    main()
