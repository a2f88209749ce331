"""C++ custom ops (paddle.utils.cpp_extension): the per-call cost of a small call, the large-call
cost against the same kernel reached through torch.library, and the JIT cache hit.

* small: a 2x3 forward call of bench/cpp_ops/relu_op.cc against paddle.nn.functional.relu (both
  on paddle_compat, same run); with real Paddle installed, the same .cc on real Paddle against its
  own relu (the issue's reference: 2.7x);
* large: 1024x1024 through the Paddle function against ``torch.ops.<ext>.bench_relu`` directly;
* cache: ``load`` of the unchanged op in a fresh process (no compiler runs).

    python bench/bench_custom_op.py [--quick]
"""
import os
import subprocess
import sys
import time

import numpy as np
import torch

import paddle_compat as paddle
from paddle_compat.utils.cpp_extension import get_build_directory, load

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import CPU_CLOCK, machine, paired  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "cpp_ops", "relu_op.cc")
PADDLE_PY = os.environ.get("PADDLE_PYTHON",
                           os.path.join(os.path.dirname(os.path.dirname(HERE)), "paddle_venv",
                                        "bin", "python"))

REAL_PADDLE = r'''
import os, statistics, sys, time, numpy as np, paddle
from paddle.utils.cpp_extension import load
m = load(name="bench_relu_real", sources=[sys.argv[1]], extra_cxx_cflags=["-O2"])
x = paddle.to_tensor(np.random.randn(2, 3).astype("float32"))
f1 = lambda: m.bench_relu(x)
f2 = lambda: paddle.nn.functional.relu(x)
def per(fn, n=2000):
    fn(); t0 = time.thread_time()
    for _ in range(n): fn()
    return (time.thread_time() - t0) / n * 1e6
a, b = [], []
for _ in range(15):
    a.append(per(f1)); b.append(per(f2))
print(statistics.median(a), statistics.median(b))
'''


def main():
    quick = "--quick" in sys.argv
    number, repeat = (500, 5) if quick else (2000, 15)
    print(f"# {machine()}")
    t0 = time.perf_counter()
    ops = load(name="bench_relu_ext", sources=[SRC])
    print(f"load (first in this process): {time.perf_counter() - t0:.2f} s")
    relu = ops.bench_relu
    lib_op = getattr(torch.ops, ops.namespace).bench_relu

    x = paddle.to_tensor(np.random.randn(2, 3).astype("float32"))
    ours, ref, r = paired(lambda: relu(x), lambda: paddle.nn.functional.relu(x),
                          number, repeat, CPU_CLOCK)
    print(f"2x3 forward: custom op {ours:.2f} us, paddle.nn.functional.relu {ref:.2f} us: "
          f"{r:.2f}x (target <= 2x)")
    xg = paddle.to_tensor(np.random.randn(2, 3).astype("float32"), stop_gradient=False)
    ours, ref, r = paired(lambda: relu(xg), lambda: paddle.nn.functional.relu(xg),
                          number // 2, repeat, CPU_CLOCK)
    print(f"2x3 forward, input requires grad: {ours:.2f} us vs {ref:.2f} us: {r:.2f}x")

    big = paddle.to_tensor(np.random.randn(1024, 1024).astype("float32"))
    tb = big._t
    ours, ref, r = paired(lambda: relu(big), lambda: lib_op(tb), max(number // 40, 10), repeat)
    print(f"1024x1024 forward: Paddle function {ours:.1f} us, torch.ops direct {ref:.1f} us: "
          f"{r:.3f}x (target <= 1.05x)")

    code = ("import time; from paddle_compat.utils.cpp_extension import load; "
            "t0 = time.perf_counter(); "
            f"load(name='bench_relu_ext', sources=[{SRC!r}]); "
            "print(time.perf_counter() - t0)")
    runs = []
    for _ in range(1 if quick else 3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        runs.append(float(out.stdout.strip().splitlines()[-1]))
    print(f"load of the unchanged op in a fresh process (cache hit, after imports): "
          f"{min(runs):.2f} s (target < 1 s); build directory {get_build_directory()}")
    if os.path.exists(PADDLE_PY):
        out = subprocess.run([PADDLE_PY, "-c", REAL_PADDLE, SRC], capture_output=True, text=True)
        try:
            a, b = map(float, out.stdout.strip().splitlines()[-1].split())
            print(f"real Paddle, same .cc: custom op {a:.2f} us, its relu {b:.2f} us: {a / b:.2f}x")
        except Exception:
            print("real Paddle: could not run the op:", (out.stderr or out.stdout)[-400:])


if __name__ == "__main__":
    main()
