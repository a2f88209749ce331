"""Speed of the Paddle-exact seeded CPU random ops against torch's own CPU generator.

Not a test.  For each op and size it prints the median time per call of ours (the numpy
result wrapped with torch.from_numpy, as paddle.randn does), of the torch equivalent with a
torch.Generator, their ratio, and for 1e6 values also ours with the C kernels switched off
(the numpy fallback, same numbers).  The two sides run interleaved, so drift hits both alike.
The last lines give the target ratios: seeded randn of 1e6 values, float32 and float64, over
torch.randn, and, with --paddle PYTHON (an interpreter with real Paddle), over paddle.randn.

    python bench/bench_rng.py [--repeat N] [--wall] [--threads N] [--paddle PYTHON]

Times are this thread's CPU time (other processes on a shared machine disturb it far less
than wall time; torch runs single-threaded here, in this thread); --wall uses wall time, as
does any --threads above 1.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from paddle_compat.random import distributions as D  # noqa: E402
from paddle_compat.random import engine  # noqa: E402
from paddle_compat.random.engine import Generator  # noqa: E402


def paired_medians(fns, repeat, clock, min_time=0.3):
    """Median time per call of each of ``fns``, run in turn ``repeat`` times (more while
    under ``min_time`` seconds in all)."""
    for f in fns:
        f()  # warm up
    times = [[] for _ in fns]
    start = time.perf_counter()
    while len(times[0]) < repeat or (time.perf_counter() - start < min_time
                                     and len(times[0]) < 10 * repeat):
        for f, ts in zip(fns, times):
            t0 = clock()
            f()
            ts.append(clock() - t0)
    return [statistics.median(ts) for ts in times]


def fmt(t):
    if t < 1e-3:
        return f"{t * 1e6:8.1f} us"
    return f"{t * 1e3:8.2f} ms"


def numpy_path(fn):
    """fn run with the C kernels switched off."""
    def run():
        was = engine.use_c_kernels(False)
        try:
            return fn()
        finally:
            engine.use_c_kernels(was)
    return run


PADDLE_SNIPPET = r"""
import statistics, sys, time
import paddle
paddle.set_device("cpu")
clock = time.perf_counter if sys.argv[1] == "wall" else time.thread_time
paddle.seed(2023)
for dt in ("float32", "float64"):
    paddle.randn([1000000], dtype=dt)
    ts = []
    for _ in range(int(sys.argv[2])):
        t0 = clock()
        paddle.randn([1000000], dtype=dt)
        ts.append(clock() - t0)
    print("paddle_randn", dt, statistics.median(ts))
"""


def paddle_times(python, clock_name, repeat):
    p = subprocess.run([python, "-c", PADDLE_SNIPPET, clock_name, str(repeat)],
                       capture_output=True, text=True, timeout=600)
    out = {}
    for line in p.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["paddle_randn"]:
            out[parts[1]] = float(parts[2])
    if not out:
        print(f"real Paddle run failed: {p.stderr[-400:]}", file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--threads", type=int, default=1, help="torch intra-op threads")
    ap.add_argument("--wall", action="store_true", help="wall time instead of thread CPU time")
    ap.add_argument("--paddle", metavar="PYTHON", help="an interpreter with real Paddle")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    wall = args.wall or args.threads > 1
    clock = time.perf_counter if wall else time.thread_time

    gen = Generator(2023)
    tg = torch.Generator().manual_seed(2023)
    sizes = [6, 10_000, 1_000_000]
    tdt = {"float32": torch.float32, "float64": torch.float64}
    probs = {n: np.full(n, 0.3, dtype=np.float32) for n in sizes}
    tprobs = {n: torch.from_numpy(p) for n, p in probs.items()}

    rows = []
    for dt in ("float32", "float64"):
        for n in sizes:
            rows.append((f"randn   {dt}", n,
                         lambda n=n, dt=dt: torch.from_numpy(D.randn(gen, [n], dt)),
                         lambda n=n, dt=dt: torch.randn(n, dtype=tdt[dt], generator=tg)))
            rows.append((f"rand    {dt}", n,
                         lambda n=n, dt=dt: torch.from_numpy(D.rand(gen, [n], dt)),
                         lambda n=n, dt=dt: torch.rand(n, dtype=tdt[dt], generator=tg)))
        n = 1_000_000
        rows.append((f"normal  {dt}", n,
                     lambda n=n, dt=dt: torch.from_numpy(D.normal(gen, [n], dt, 1.5, 0.5)),
                     lambda n=n, dt=dt: torch.empty(n, dtype=tdt[dt]).normal_(1.5, 0.5,
                                                                               generator=tg)))
        rows.append((f"uniform {dt}", n,
                     lambda n=n, dt=dt: torch.from_numpy(D.uniform(gen, [n], dt, -2.0, 3.0)),
                     lambda n=n, dt=dt: torch.empty(n, dtype=tdt[dt]).uniform_(-2.0, 3.0,
                                                                                generator=tg)))
    for n in sizes:
        rows.append(("randint int64  ", n,
                     lambda n=n: torch.from_numpy(D.randint(gen, 0, 1000, [n], "int64")),
                     lambda n=n: torch.randint(0, 1000, (n,), dtype=torch.int64, generator=tg)))
    for n in sizes:
        rows.append(("bernoulli f32  ", n,
                     lambda n=n: torch.from_numpy(D.bernoulli(gen, probs[n])),
                     lambda n=n: torch.bernoulli(tprobs[n], generator=tg)))
    for n in (10_000, 1_000_000):
        rows.append(("randperm int64 ", n,
                     lambda n=n: torch.from_numpy(D.randperm(gen, n)),
                     lambda n=n: torch.randperm(n, generator=tg)))
    for n in sizes:
        rows.append(("raw words      ", n,
                     lambda n=n: gen.random_raw(n),
                     lambda n=n: torch.randint(-(2**63), 2**63 - 1, (n,), dtype=torch.int64,
                                               generator=tg)))

    kernels = "C kernels" if engine.c_kernels() is not None else "numpy (C kernels not built)"
    print(f"torch {torch.__version__}, numpy {np.__version__}, torch threads "
          f"{torch.get_num_threads()}, ours: {kernels}, clock: {'wall' if wall else 'thread CPU'}")
    print(f"{'op':16s} {'n':>9s} {'ours':>11s} {'torch':>11s} {'ours/torch':>10s} "
          f"{'numpy path':>11s} {'numpy/torch':>11s}")
    target = {}
    for name, n, ours, ref in rows:
        with_numpy = n == 1_000_000 and engine.c_kernels() is not None
        fns = [ours, ref] + ([numpy_path(ours)] if with_numpy else [])
        ts = paired_medians(fns, args.repeat, clock)
        line = f"{name:16s} {n:9d} {fmt(ts[0])} {fmt(ts[1])} {ts[0] / ts[1]:10.2f}"
        if with_numpy:
            line += f" {fmt(ts[2])} {ts[2] / ts[1]:11.2f}"
        print(line, flush=True)
        if name.startswith("randn") and n == 1_000_000:
            target[name.split()[1]] = (ts[0], ts[1])

    print()
    for dt, (a, b) in target.items():
        verdict = "ok" if a / b <= 2 else "ABOVE 2x"
        print(f"target: seeded randn 1e6 {dt}: ours {fmt(a)}, torch.randn {fmt(b)}, "
              f"ratio {a / b:.2f} (<= 2: {verdict})")
    if args.paddle:
        pt = paddle_times(args.paddle, "wall" if wall else "cpu", args.repeat)
        for dt, t in pt.items():
            a = target[dt][0]
            print(f"real Paddle randn 1e6 {dt}: {fmt(t)}; ours/Paddle {a / t:.2f}")


if __name__ == "__main__":
    main()
