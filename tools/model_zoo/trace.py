"""Dump every sublayer's first forward output of a setup (train mode, the driver's weights and
data) to an .npz, to find where paddle_compat and Paddle part ways:

    /work/paddle_venv/bin/python tools/model_zoo/trace.py NAME /tmp/p.npz
    python -m paddle_compat tools/model_zoo/trace.py NAME /tmp/o.npz
    python tools/model_zoo/trace.py --compare /tmp/p.npz /tmp/o.npz
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


def dump(name, out):
    import paddle
    import setups
    s = setups.SETUPS[name]
    setups.add_repo_to_path(s["repo"])
    paddle.seed(2024)
    model, data, loss_fn = s["build"](paddle)
    model.set_state_dict(setups.fill_state(model.state_dict(), paddle))
    model.train()
    rec = {}
    counter = [0]

    def hook(layer, inp, outp, lname=None):
        o = outp[0] if isinstance(outp, (list, tuple)) and outp else outp
        if hasattr(o, "numpy"):
            counter[0] += 1
            key = f"{counter[0]:04d}:{lname}"
            rec[key] = o.numpy()
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
        dump(sys.argv[1], sys.argv[2])
