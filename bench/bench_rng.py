"""Speed of the Paddle-exact numpy RNG against torch's own CPU generator.

Not a test.  Prints the median time per call of our randn / rand / randint
(numpy result wrapped with torch.from_numpy) and of torch.randn / rand /
randint with a torch.Generator, for 6, 1e4 and 1e6 elements, and the ratio
ours / torch.

    python bench/bench_rng.py [--repeat N]
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from paddle_compat.random import distributions as D  # noqa: E402
from paddle_compat.random.engine import Generator  # noqa: E402


def median_time(fn, repeat, min_time=0.2):
    fn()  # warm up
    times = []
    start = time.perf_counter()
    while len(times) < repeat or (time.perf_counter() - start < min_time and len(times) < 10 * repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def fmt(t):
    if t < 1e-3:
        return f"{t * 1e6:8.1f} us"
    return f"{t * 1e3:8.2f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--threads", type=int, default=1, help="torch intra-op threads")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    gen = Generator(2023)
    tg = torch.Generator().manual_seed(2023)
    sizes = [6, 10_000, 1_000_000]
    tdt = {"float32": torch.float32, "float64": torch.float64}

    rows = []
    for dt in ("float32", "float64"):
        for n in sizes:
            rows.append((f"randn   {dt}", n,
                         lambda n=n, dt=dt: torch.from_numpy(D.randn(gen, [n], dt)),
                         lambda n=n, dt=dt: torch.randn(n, dtype=tdt[dt], generator=tg)))
            rows.append((f"rand    {dt}", n,
                         lambda n=n, dt=dt: torch.from_numpy(D.rand(gen, [n], dt)),
                         lambda n=n, dt=dt: torch.rand(n, dtype=tdt[dt], generator=tg)))
    for n in sizes:
        rows.append(("randint int64  ", n,
                     lambda n=n: torch.from_numpy(D.randint(gen, 0, 1000, [n], "int64")),
                     lambda n=n: torch.randint(0, 1000, (n,), dtype=torch.int64, generator=tg)))
    for n in sizes:
        rows.append(("raw words      ", n,
                     lambda n=n: gen.random_raw(n),
                     lambda n=n: torch.randint(-(2**63), 2**63 - 1, (n,), dtype=torch.int64, generator=tg)))

    print(f"torch {torch.__version__}, numpy {np.__version__}, torch threads {torch.get_num_threads()}")
    print(f"{'op':16s} {'n':>9s} {'ours':>11s} {'torch':>11s} {'ours/torch':>10s}")
    for name, n, ours, ref in rows:
        a = median_time(ours, args.repeat)
        b = median_time(ref, args.repeat)
        print(f"{name:16s} {n:9d} {fmt(a)} {fmt(b)} {a / b:10.1f}")


if __name__ == "__main__":
    main()
