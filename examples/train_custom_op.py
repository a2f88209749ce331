"""Train a small MLP whose activation is a custom PyLayer (a hand-written tanh-GELU with its
own backward) with AdamW + weight decay, LinearWarmup around CosineAnnealingDecay and
ClipGradByGlobalNorm, for 20 steps on fixed data; at step 10 save the model and optimizer with
paddle.save, take a throwaway step on other data, then load the saved state back and go on.

The same file runs on real Paddle (``import paddle`` instead of the line below): that is how
tools/goldens/record_train.py records the losses this must reproduce.

    python examples/train_custom_op.py [--device gpu]
"""
import argparse
import os
import tempfile

import numpy as np

import paddle_compat as paddle

C = 0.7978845608028654      # sqrt(2 / pi)


class TanhGELU(paddle.autograd.PyLayer):
    """0.5 * x * (1 + tanh(C * (x + 0.044715 x^3))), backward written by hand."""

    @staticmethod
    def forward(ctx, x):
        t = paddle.tanh(C * (x + 0.044715 * x * x * x))
        ctx.save_for_backward(x, t)
        return 0.5 * x * (1 + t)

    @staticmethod
    def backward(ctx, dy):
        x, t = ctx.saved_tensor()
        dinner = C * (1 + 3 * 0.044715 * x * x)
        return dy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * dinner)


class MLP(paddle.nn.Layer):
    def __init__(self, d_in=8, d_hidden=16):
        super().__init__()
        self.fc1 = paddle.nn.Linear(d_in, d_hidden)
        self.fc2 = paddle.nn.Linear(d_hidden, 1)

    def forward(self, x):
        return self.fc2(TanhGELU.apply(self.fc1(x)))


def initial_state(seed=0):
    """Fixed initial weights (numpy, so that real Paddle starts from the same numbers)."""
    rng = np.random.default_rng(seed)
    return {"fc1.weight": (rng.standard_normal((8, 16)) * 0.5).astype("float32"),
            "fc1.bias": (rng.standard_normal(16) * 0.1).astype("float32"),
            "fc2.weight": (rng.standard_normal((16, 1)) * 0.5).astype("float32"),
            "fc2.bias": np.zeros(1, "float32")}


def data(seed=1, n=32):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 8)).astype("float32")
    y = (np.sin(x[:, :3].sum(1, keepdims=True)) + 0.1 * x[:, 3:4]).astype("float32")
    return x, y


def make_optimizer(model):
    sched = paddle.optimizer.lr.LinearWarmup(
        paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.05, T_max=20),
        warmup_steps=5, start_lr=0.0, end_lr=0.05)
    opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=model.parameters(),
                                 weight_decay=0.01,
                                 grad_clip=paddle.nn.ClipGradByGlobalNorm(clip_norm=1.0))
    return sched, opt


def build(init):
    model = MLP()
    model.set_state_dict({k: paddle.to_tensor(v) for k, v in init.items()})
    return (model,) + make_optimizer(model)


def train_step(model, sched, opt, x, y):
    loss = paddle.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    opt.clear_grad()
    sched.step()
    return float(loss)


def main(device="cpu", steps=20, save_at=10, verbose=True):
    paddle.set_device(device)
    model, sched, opt = build(initial_state())
    xs, ys = data()
    x, y = paddle.to_tensor(xs), paddle.to_tensor(ys)
    losses = []
    with tempfile.TemporaryDirectory() as tmp:
        for step in range(1, steps + 1):
            losses.append(train_step(model, sched, opt, x, y))
            if verbose:
                print(f"step {step:2d}  lr {opt.get_lr():.6f}  loss {losses[-1]:.6f}")
            if step == save_at:
                paddle.save(model.state_dict(), os.path.join(tmp, "model.pdparams"))
                paddle.save(opt.state_dict(), os.path.join(tmp, "adamw.pdopt"))
                train_step(model, sched, opt, x * 2.0, y)        # throwaway: undone below
                model.set_state_dict(paddle.load(os.path.join(tmp, "model.pdparams")))
                opt.set_state_dict(paddle.load(os.path.join(tmp, "adamw.pdopt")))
    return losses


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu", help="cpu or gpu")
    main(parser.parse_args().device)
