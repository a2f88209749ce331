"""Dump every sublayer's first forward output of a setup (train mode, the driver's weights and
data) to an .npz, to find where paddle_compat and Paddle part ways:

    /work/paddle_venv/bin/python tools/model_zoo/trace.py NAME /tmp/p.npz
    python -m paddle_compat tools/model_zoo/trace.py NAME /tmp/o.npz
    python tools/model_zoo/trace.py --compare /tmp/p.npz /tmp/o.npz

``--float64`` (after NAME) runs the same float32 weights and data in float64 (model and
inputs cast up, default dtype float64): a semantic difference between the two sides shows
there at ~1e-12, float32 rounding does not; each side's float32 trace against its float64
one says how much of a float32 difference is that side's own rounding.
``--jitter REL --seed S`` multiplies the output of every layer that holds parameters (conv,
linear, norm) by (1 + REL u), u uniform in [-1, 1] from numpy seed S: with REL = 6e-8 (half a
float32 ulp) each run is the same network rounded another valid way, so the spread of the
loss over a few seeds is the rounding noise any other float32 implementation must expect.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def compare(a, b, n=15):
    pa, pb = np.load(a), np.load(b)
    shown = 0
    for k in pa.files:          # in forward-completion order
        if k not in pb.files:
            print("missing", k)
            continue
        x, y = pa[k].astype(np.float64), pb[k].astype(np.float64)
        if x.shape != y.shape:
            print(f"{k}: shape {x.shape} vs {y.shape}")
            shown += 1
        else:
            d = np.abs(x - y).max() / (np.abs(x).max() + 1e-12)
            if d > 1e-4:
                print(f"{k}: rel max diff {d:.3g}")
                shown += 1
        if shown >= n:
            break
    print("compared", len(pa.files))


def to_float64(model, data, paddle):
    """The same float32 weights and data, to be evaluated in float64: the model cast in
    place (layers that fix float32, like the legacy BatchNorm, too), the default dtype set to
    float64, the float inputs returned cast up."""
    paddle.set_default_dtype("float64")
    model.to(dtype="float64")
    return {k: v.astype("float64") if v.dtype.kind == "f" else v for k, v in data.items()}


def add_jitter(model, paddle, rel, seed):
    """Multiply the float32 output of every layer holding parameters by (1 + rel u), u
    uniform in [-1, 1] (numpy seed ``seed``, fresh draws on every call)."""
    rng = np.random.default_rng(seed)

    def jitter_hook(layer, inp, outp):
        if not hasattr(outp, "numpy") or not str(outp.dtype).endswith("float32"):
            return None
        u = rel * rng.uniform(-1.0, 1.0, [int(d) for d in outp.shape])
        return outp + outp * paddle.to_tensor(u.astype("float32"))   # x (1 + u), one rounding
    for layer in model.sublayers():
        if not layer.sublayers() and layer.parameters(include_sublayers=False):
            layer.register_forward_post_hook(jitter_hook)


def dump(name, out, float64=False, jitter=0.0, seed=0):
    import paddle
    import setups
    s = setups.SETUPS[name]
    setups.add_repo_to_path(s["repo"])
    paddle.seed(2024)
    np.random.seed(2024)
    model, data, loss_fn = s["build"](paddle)
    if s.get("pdparams"):       # as runner.py: the Paddle-saved weights, else the fill
        model.set_state_dict(paddle.load(s["pdparams"]))
    else:
        model.set_state_dict(setups.fill_state(model.state_dict(), paddle))
    if float64:
        data = to_float64(model, data, paddle)
    model.train()
    rec = {}
    counter = [0]

    def hook(layer, inp, outp, lname=None):
        o = outp[0] if isinstance(outp, (list, tuple)) and outp else outp
        if hasattr(o, "numpy"):
            counter[0] += 1
            key = f"{counter[0]:04d}:{lname}"
            rec[key] = o.numpy()
    if jitter:
        add_jitter(model, paddle, jitter, seed)
    for lname, layer in model.named_sublayers():
        layer.register_forward_post_hook(lambda l, i, o, n=lname: hook(l, i, o, n))
    inputs = {k: paddle.to_tensor(v) for k, v in data.items()}
    loss = loss_fn(model, inputs, paddle)
    rec["9999:loss"] = loss.numpy()
    np.savez(out, **rec)


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        opts = sys.argv[3:]

        def opt(flag, default):
            return type(default)(opts[opts.index(flag) + 1]) if flag in opts else default
        dump(sys.argv[1], sys.argv[2], "--float64" in opts, opt("--jitter", 0.0),
             opt("--seed", 0))
