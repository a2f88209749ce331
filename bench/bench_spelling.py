"""What Paddle 3.3's torch-style spelling costs (ops/spelling.py).

    python bench/bench_spelling.py

Two tables, 2x3 float32 tensors, medians of this thread's CPU time per call (timing.py):

* an op called in torch's spelling against the same call in Paddle's own (the bar: 1.2x);
* ops that got a spelling wrapper, called in Paddle's own spelling, against raw torch (what
  the wrapper adds to the common path; bench_core.py's bar: 1.1x-1.2x).
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paddle_compat as paddle  # noqa: E402
from timing import CPU_CLOCK, machine, paired  # noqa: E402


def alias_cases():
    a = torch.randn(2, 3)
    x, y = paddle.from_torch(a), paddle.from_torch(torch.randn(2, 3))
    idx = paddle.to_tensor([1, 0])
    yield "sum dim= / axis=", lambda: paddle.sum(x, dim=1), lambda: paddle.sum(x, axis=1)
    yield "concat dim= / axis=", *(lambda: paddle.concat([x, y], dim=0),
                                  lambda: paddle.concat([x, y], axis=0))
    yield "add input=,other= / x=,y=", *(lambda: paddle.add(input=x, other=y),
                                        lambda: paddle.add(x=x, y=y))
    yield "mean dim= / axis=", lambda: paddle.mean(x, dim=1), lambda: paddle.mean(x, axis=1)
    yield "zeros(2, 3) / zeros([2, 3])", lambda: paddle.zeros(2, 3), lambda: paddle.zeros([2, 3])
    yield "x.reshape(3, 2) / ([3, 2])", lambda: x.reshape(3, 2), lambda: x.reshape([3, 2])
    yield "index_select dim / axis", *(lambda: paddle.index_select(x, 0, idx),
                                      lambda: paddle.index_select(x, idx, axis=0))


def wrapped_cases():
    a = torch.randn(2, 3)
    x = paddle.from_torch(a)
    idx = paddle.to_tensor([1, 0])
    ti = idx._t
    yield "sum(x, axis=1)", lambda: paddle.sum(x, axis=1), lambda: torch.sum(a, 1)
    yield "concat([x, x])", lambda: paddle.concat([x, x]), lambda: torch.cat([a, a])
    yield "index_select", lambda: paddle.index_select(x, idx), lambda: torch.index_select(a, 0, ti)
    yield "gather", lambda: paddle.gather(x, idx), lambda: torch.index_select(a, 0, ti)
    yield "zeros([2, 3])", lambda: paddle.zeros([2, 3]), lambda: torch.zeros(2, 3)


def main():
    print(f"torch-style spelling ({machine()})")
    print(f"{'call (torch / Paddle spelling)':34s} {'torch-style':>12s} {'Paddle':>10s} {'ratio':>7s}")
    worst = 0
    for name, theirs_style, own in alias_cases():
        o, t, r = paired(theirs_style, own, clock=CPU_CLOCK)
        worst = max(worst, r)
        print(f"{name:34s} {o:9.2f} us {t:7.2f} us {r:6.2f}x")
    print(f"worst ratio {worst:.2f}x (bar 1.2x)")
    print(f"\n{'wrapped op, Paddle spelling':34s} {'paddle_compat':>12s} {'torch':>10s} {'ratio':>7s}")
    for name, ours, raw in wrapped_cases():
        o, t, r = paired(ours, raw, clock=CPU_CLOCK)
        print(f"{name:34s} {o:9.2f} us {t:7.2f} us {r:6.2f}x")


if __name__ == "__main__":
    main()
