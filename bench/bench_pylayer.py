"""PyLayer forward+backward of the docs' custom tanh against the same raw
torch.autograd.Function (same run), against real Paddle when its virtualenv exists, and memory
over 100,000 applies with backward.

    python bench/bench_pylayer.py [--quick]
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


def per_call(fn, n, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - t0) / n)
    return statistics.median(times)


def compare(shape, n, repeats):
    t = torch.randn(*shape, dtype=torch.float32)
    t.requires_grad_(True)
    x = paddle.from_torch(t)

    def ours():
        cus_tanh.apply(x).mean().backward()

    def raw():
        RawTanh.apply(t).mean().backward()
    for f in (ours, raw):
        f()
    # interleave to share machine noise
    a, b = [], []
    for _ in range(repeats):
        a.append(per_call(ours, n, 1))
        b.append(per_call(raw, n, 1))
    return statistics.median(a), statistics.median(b)


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
    torch.set_num_threads(max(1, torch.get_num_threads()))
    for shape, n, reps in (((2, 3), 2000 if not quick else 300, 15),
                           ((1024, 1024), 20 if not quick else 5, 15)):
        ours, raw = compare(shape, n, reps)
        print(f"{list(shape)}: paddle_compat {ours * 1e6:9.1f} us  raw autograd.Function "
              f"{raw * 1e6:9.1f} us  ratio {ours / raw:.3f}x")
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
