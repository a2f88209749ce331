"""Executor.run of static_pylayer's doc program (64x5 feed, fetch x, x@GRAD, y) against the
same math in eager torch (an autograd.Function exp / 2*exp(dy) + torch.autograd.grad, numpy in
and out) and against real Paddle 3.3.1's Executor when ../paddle_venv exists.

    python bench/bench_static.py [--device gpu]

Targets: at most 2x eager torch; at least 10x faster than real Paddle.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import machine, paired, per_call_us  # noqa: E402

import paddle_compat as paddle  # noqa: E402
import paddle_compat.static  # noqa: E402,F401

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(os.path.dirname(ROOT), "paddle_venv", "bin", "python")
if not os.path.exists(VENV):
    VENV = "/work/paddle_venv/bin/python"

PADDLE_SNIPPET = r"""
import time, statistics, numpy as np, paddle
paddle.enable_static()
main, start = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, start):
    data = paddle.static.data(name="X", shape=[None, 5], dtype="float32")
    data.stop_gradient = False
    ret = paddle.static.nn.static_pylayer(lambda x: paddle.exp(x), [data],
                                          lambda dy: 2 * paddle.exp(dy))
    g = paddle.static.gradients([ret], data)[0]
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(start)
x = np.random.rand(64, 5).astype(np.float32)
for _ in range(50): exe.run(main, feed={"X": x}, fetch_list=[data, g, ret])
runs = []
for _ in range(7):
    t0 = time.perf_counter()
    for _ in range(200): exe.run(main, feed={"X": x}, fetch_list=[data, g, ret])
    runs.append((time.perf_counter() - t0) / 200 * 1e6)
print(statistics.median(runs))
"""


class _ExpLayer(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.exp(x)

    @staticmethod
    def backward(ctx, dy):
        return 2 * torch.exp(dy)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    args = ap.parse_args()
    dev = torch.device("cuda" if args.device == "gpu" else "cpu")
    paddle.static.enable_static()
    prog, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(prog, start):
        data = paddle.static.data(name="X", shape=[None, 5], dtype="float32")
        data.stop_gradient = False
        ret = paddle.static.nn.static_pylayer(lambda x: paddle.exp(x), [data],
                                              lambda dy: 2 * paddle.exp(dy))
        g = paddle.static.gradients([ret], data)[0]
    place = paddle.CUDAPlace(0) if args.device == "gpu" else paddle.CPUPlace()
    exe = paddle.static.Executor(place)
    exe.run(start)
    x = np.random.rand(64, 5).astype(np.float32)
    feed = {"X": x}
    fetch = [data, g, ret]

    def ours():
        return exe.run(prog, feed=feed, fetch_list=fetch)

    def eager():
        t = torch.from_numpy(x)
        if dev.type != "cpu":
            t = t.to(dev)
        t.requires_grad_(True)
        y = _ExpLayer.apply(t)
        gx, = torch.autograd.grad((y,), (t,), (torch.ones_like(y),), retain_graph=True)
        return [v.detach().cpu().numpy() for v in (t, gx, y)]

    a, b = ours(), eager()
    for u, v in zip(a, b):
        np.testing.assert_allclose(u, v, rtol=1e-6)
    n = 500 if dev.type == "cpu" else 200
    us, torch_us, ratio = paired(ours, eager, number=n, repeat=9)
    print(f"machine: {machine()}, device {dev}")
    print(f"Executor.run (paddle_compat): {us:8.1f} us")
    print(f"eager torch, same math:       {torch_us:8.1f} us   ratio {ratio:.2f}x  (target <= 2x)")
    by_name = per_call_us(lambda: exe.run(prog, feed=feed, fetch_list=["X", "X@GRAD",
                                                                        ret.name]), n, 5)
    print(f"Executor.run, fetch by name:  {by_name:8.1f} us")
    if os.path.exists(VENV) and dev.type == "cpu":
        p = subprocess.run([VENV, "-c", PADDLE_SNIPPET], capture_output=True, text=True)
        try:
            pd_us = float(p.stdout.strip().splitlines()[-1])
            print(f"real Paddle 3.3.1 Executor:   {pd_us:8.1f} us   paddle/ours "
                  f"{pd_us / us:.1f}x  (target >= 10x)")
        except (ValueError, IndexError):
            print("real Paddle: failed:", p.stderr[-300:])
    else:
        print("real Paddle: not measured (no ../paddle_venv or not on CPU)")


if __name__ == "__main__":
    main()
