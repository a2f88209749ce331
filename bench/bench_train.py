"""One training step of examples/train_custom_op.py (forward, PyLayer activation, backward,
global-norm clip, AdamW with a warmup+cosine schedule, clear_grad) against the same model in
plain torch (autograd.Function activation, clip_grad_norm_, torch.optim.AdamW, LambdaLR).
torch's AdamW is not Paddle's formula; this times the same amount of work.

    python bench/bench_train.py [--device gpu] [--batch 32] [--hidden 16]

Prints the median time per step of each and the ratio (target: at most 1.1x).
"""
import argparse
import math
import os
import runpy
import statistics
import time

import torch

import paddle_compat as paddle
import paddle_compat.optimizer  # noqa: F401  (until paddle_compat/__init__ imports it)
import paddle_compat.nn.clip as _clip

if not hasattr(paddle.nn, "ClipGradByGlobalNorm"):
    paddle.nn.ClipGradByGlobalNorm = _clip.ClipGradByGlobalNorm

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "examples", "train_custom_op.py")
C = 0.7978845608028654


class TanhGELU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        t = torch.tanh(C * (x + 0.044715 * x * x * x))
        ctx.save_for_backward(x, t)
        return 0.5 * x * (1 + t)

    @staticmethod
    def backward(ctx, dy):
        x, t = ctx.saved_tensors
        dinner = C * (1 + 3 * 0.044715 * x * x)
        return dy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * dinner)


class TorchMLP(torch.nn.Module):
    def __init__(self, d_in, d_hidden):
        super().__init__()
        self.fc1 = torch.nn.Linear(d_in, d_hidden)
        self.fc2 = torch.nn.Linear(d_hidden, 1)

    def forward(self, x):
        return self.fc2(TanhGELU.apply(self.fc1(x)))


def torch_setup(device, batch, hidden):
    model = TorchMLP(8, hidden).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.01)

    def lr_at(e):
        return e / 5 if e < 5 else 0.5 * (1 + math.cos(math.pi * (e - 5) / 20))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_at)
    x = torch.randn(batch, 8, device=device)
    y = torch.randn(batch, 1, device=device)

    def step():
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=False)
        sched.step()
        return loss
    return step


def paddle_setup(device, batch, hidden):
    ex = runpy.run_path(EXAMPLE, run_name="paddle_example")
    paddle.set_device(device)
    model = ex["MLP"](8, hidden)
    sched, opt = ex["make_optimizer"](model)
    x = paddle.randn([batch, 8])
    y = paddle.randn([batch, 1])

    def step():
        loss = paddle.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        sched.step()
        return loss
    return step


def median_time(step, device, reps, inner=20):
    for _ in range(20):
        step()
    times = []
    for _ in range(reps):
        if device != "cpu":
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(inner):
            step()
        if device != "cpu":
            torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) / inner)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--hidden", type=int, default=16)
    ap.add_argument("--reps", type=int, default=30)
    a = ap.parse_args()
    tdev = "cuda" if a.device.startswith("gpu") else a.device
    torch.manual_seed(0)
    t_torch = median_time(torch_setup(tdev, a.batch, a.hidden), tdev, a.reps)
    t_ours = median_time(paddle_setup(a.device, a.batch, a.hidden), tdev, a.reps)
    t_torch2 = median_time(torch_setup(tdev, a.batch, a.hidden), tdev, a.reps)
    t_torch = min(t_torch, t_torch2)
    print(f"device {a.device}  batch {a.batch}  hidden {a.hidden}")
    print(f"torch          {t_torch * 1e6:9.1f} us/step")
    print(f"paddle_compat  {t_ours * 1e6:9.1f} us/step")
    print(f"ratio          {t_ours / t_torch:9.2f}x  (target <= 1.1x)")


if __name__ == "__main__":
    main()
