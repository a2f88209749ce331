"""What ``import paddle_compat`` adds to ``import torch``: medians over fresh processes.

    python bench/bench_import.py [--runs 5]

Each run is a new Python that imports torch, then (timed separately) paddle_compat, and
prints both times. Bytecode is compiled first into a private cache (PYTHONPYCACHEPREFIX), as an
installed package has it; the "no bytecode" line repeats the measurement with
PYTHONDONTWRITEBYTECODE and no cache, where every module is compiled at import. Also listed:
what touching ``paddle.nn`` (a lazily imported namespace) costs on first use. Real Paddle's
import time is measured where its virtualenv exists (../paddle_venv).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV = os.path.join(os.path.dirname(ROOT), "paddle_venv", "bin", "python")

PROBE = r"""
import time
t0 = time.perf_counter()
import torch
t1 = time.perf_counter()
import {module}
t2 = time.perf_counter()
{after}
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def measure(runs, env, module="paddle_compat", after="", python=sys.executable):
    """Medians (seconds) of: import torch, then import ``module``, then ``after``."""
    code = PROBE.format(module=module, after=after or "pass")
    rows = []
    for _ in range(runs):
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, env=env,
                             cwd=ROOT, check=True).stdout.split()
        rows.append([float(v) for v in out])
    return [statistics.median(col) for col in zip(*rows)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as cache:
        warm = dict(base, PYTHONPYCACHEPREFIX=cache)
        subprocess.run([sys.executable, "-c", "import paddle_compat, paddle_compat.nn"],
                       env=warm, cwd=ROOT, check=True)
        torch_s, ours_s, _ = measure(args.runs, warm)
        _, _, nn_s = measure(args.runs, warm, after="paddle_compat.nn.Linear")
        cold = dict(base, PYTHONDONTWRITEBYTECODE="1")
        cold.pop("PYTHONPYCACHEPREFIX", None)
        cold_torch_s, cold_ours_s, _ = measure(args.runs, dict(cold, PYTHONPYCACHEPREFIX=cache
                                                               + "-none"))
    print(f"median of {args.runs} fresh processes")
    print(f"import torch:                          {torch_s * 1e3:8.1f} ms")
    print(f"import paddle_compat, over torch:      {ours_s * 1e3:8.1f} ms")
    print(f"first use of paddle_compat.nn:         {nn_s * 1e3:8.1f} ms")
    print(f"no bytecode: import paddle_compat, over torch: {cold_ours_s * 1e3:8.1f} ms "
          f"(torch {cold_torch_s * 1e3:.1f} ms)")
    if os.path.exists(VENV):
        t, p, _ = measure(args.runs, base, module="paddle", python=VENV)
        print(f"real Paddle: import paddle (after torch): {p * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
