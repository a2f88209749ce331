"""Per-call overhead of common ops through paddle_compat vs the same raw torch call.

    python bench/bench_core.py

Small (2x3 float32) tensors, where the wrapper's cost is most visible; prints medians of this
thread's CPU time per call (see timing.py) and the ratio for each op; then the median ratio
(issue 33's bar: 1.1x at most) and the worst (bar 1.2x).
`x.shape` is listed apart: it is an attribute read, not an op (Paddle builds a new
`paddle.Size` list per read; the raw side here is `list(t.shape)`).
"""
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paddle_compat as paddle  # noqa: E402
from timing import CPU_CLOCK, machine, paired  # noqa: E402


def cases():
    a, b = torch.randn(2, 3), torch.randn(2, 3)
    m = torch.randn(3, 2)
    x, y, w = paddle.from_torch(a), paddle.from_torch(b), paddle.from_torch(m)
    yield "x + y", lambda: x + y, lambda: a + b
    yield "x * y", lambda: x * y, lambda: a * b
    yield "x - y", lambda: x - y, lambda: a - b
    yield "x / y", lambda: x / y, lambda: a / b
    yield "x * 2.0", lambda: x * 2.0, lambda: a * 2.0
    yield "x @ w", lambda: x @ w, lambda: a @ m
    yield "x < y", lambda: x < y, lambda: a < b
    yield "x[0]", lambda: x[0], lambda: a[0]
    yield "x[:, 1:]", lambda: x[:, 1:], lambda: a[:, 1:]
    yield "tanh", lambda: paddle.tanh(x), lambda: torch.tanh(a)
    yield "exp", lambda: paddle.exp(x), lambda: torch.exp(a)
    yield "sum()", lambda: paddle.sum(x), lambda: torch.sum(a)
    yield "mean(axis=1)", lambda: paddle.mean(x, axis=1), lambda: torch.mean(a, 1)
    yield "astype", lambda: x.astype("float64"), lambda: a.to(dtype=torch.float64)
    if hasattr(paddle, "reshape"):
        yield "reshape", lambda: paddle.reshape(x, [3, 2]), lambda: torch.reshape(a, (3, 2))
    if hasattr(paddle, "matmul"):
        yield "matmul", lambda: paddle.matmul(x, w), lambda: torch.matmul(a, m)
    if hasattr(paddle, "concat"):
        yield "concat", lambda: paddle.concat([x, y]), lambda: torch.cat([a, b])


def attributes():
    a = torch.randn(2, 3)
    x = paddle.from_torch(a)
    yield "x.shape", lambda: x.shape, lambda: list(a.shape)


def main():
    print(f"per-call overhead, 2x3 float32 ({machine()})")
    print(f"{'op':16s} {'paddle_compat':>14s} {'torch':>10s} {'ratio':>7s}")
    ratios = []
    for name, ours, theirs in cases():
        o, t, r = paired(ours, theirs, clock=CPU_CLOCK)
        ratios.append(r)
        print(f"{name:16s} {o:11.2f} us {t:7.2f} us {r:6.2f}x")
    print(f"median ratio {statistics.median(ratios):.2f}x (bar 1.1x), "
          f"worst {max(ratios):.2f}x (bar 1.2x)")
    print("attribute reads (not ops):")
    for name, ours, theirs in attributes():
        o, t, r = paired(ours, theirs, clock=CPU_CLOCK)
        print(f"{name:16s} {o:11.2f} us {t:7.2f} us {r:6.2f}x")


if __name__ == "__main__":
    main()
