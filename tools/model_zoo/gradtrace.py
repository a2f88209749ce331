"""Dump each parameter's gradient and each step's loss of a setup's first training steps (the
runner's loop: same weights, data, optimizer) to an .npz, to find where a later step parts
ways:

    /work/paddle_venv/bin/python tools/model_zoo/gradtrace.py NAME /tmp/p.npz [--steps 3]
    python -m paddle_compat tools/model_zoo/gradtrace.py NAME /tmp/o.npz [--steps 3]
    python tools/model_zoo/gradtrace.py --compare /tmp/p.npz /tmp/o.npz

``--float64`` runs the same float32 weights and data in float64 (as trace.py does): the
gradients of the two sides then agree to ~1e-12 unless a backward differs in its semantics.
``--jitter REL --seed S`` (after NAME OUT) re-rounds every parameter layer's output as
trace.py does, on every step: over a few seeds, the spread of the later steps' losses that
float32 rounding alone gives one side.

Keys are ``s{step}:{parameter}`` (gradients) and ``s{step}:loss``; ``--compare`` prints, per
step, the loss difference and the parameters whose gradient differs most (relative to the
largest entry of that gradient).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from trace import add_jitter, to_float64  # noqa: E402  (this folder's trace.py, not the stdlib's)


def dump(name, out, steps=3, jitter=0.0, seed=0, float64=False):
    import paddle
    import setups
    s = setups.SETUPS[name]
    setups.add_repo_to_path(s["repo"])
    paddle.seed(2024)
    np.random.seed(2024)
    model, data, loss_fn = s["build"](paddle)
    if s.get("pdparams"):
        model.set_state_dict(paddle.load(s["pdparams"]))
    else:
        model.set_state_dict(setups.fill_state(model.state_dict(), paddle))
    if float64:
        data = to_float64(model, data, paddle)
    if jitter:
        add_jitter(model, paddle, jitter, seed)
    inputs = {k: paddle.to_tensor(v) for k, v in data.items()}
    opt = s.get("optimizer", setups.momentum)(paddle, model)
    model.train()
    rec = {}
    for step in range(steps):
        loss = loss_fn(model, inputs, paddle)
        loss.backward()
        rec[f"s{step}:loss"] = loss.numpy()
        for pname, p in model.named_parameters():
            if p.grad is not None:
                rec[f"s{step}:{pname}"] = p.grad.numpy()
        opt.step()
        opt.clear_grad()
    np.savez(out, **rec)


def compare(a, b, n=8, zero=1e-9):
    """Per step: the loss difference and the ``n`` gradients that differ most, relative to
    their largest entry. Gradients below ``zero`` x the step's largest entry on Paddle's side
    (a conv bias before a train-mode BatchNorm, a BatchNorm bias before another: zero in exact
    arithmetic, rounding noise on both sides) are counted apart."""
    pa, pb = np.load(a), np.load(b)
    steps = sorted({k.split(":")[0] for k in pa.files})
    for st in steps:
        la, lb = float(np.ravel(pa[st + ":loss"])[0]), float(np.ravel(pb[st + ":loss"])[0])
        print(f"{st}: loss {la!r} vs {lb!r} (rel {abs(la - lb) / abs(la):.2e})")
        keys = [k for k in pa.files if k.startswith(st + ":") and not k.endswith(":loss")
                and k in pb.files]
        big = max((float(np.abs(pa[k]).max()) for k in keys), default=0.0)
        rows, noise = [], 0
        for k in keys:
            x, y = pa[k].astype(np.float64), pb[k].astype(np.float64)
            if np.abs(x).max() <= zero * big:
                noise += 1
                continue
            rows.append((np.abs(x - y).max() / np.abs(x).max(), k))
        for d, k in sorted(rows, reverse=True)[:n]:
            print(f"   {k}: rel max diff {d:.3g}")
        if noise:
            print(f"   ({noise} gradients below {zero:g} x the largest: not compared)")


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        args, opts = sys.argv[1:], {}
        for flag in ("--jitter", "--seed", "--steps"):
            if flag in args:
                i = args.index(flag)
                opts[flag[2:]] = float(args[i + 1]) if flag == "--jitter" else int(args[i + 1])
                del args[i:i + 2]
        if "--float64" in args:
            args.remove("--float64")
            opts["float64"] = True
        dump(args[0], args[1], **opts)
