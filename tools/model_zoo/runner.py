"""Train one model-zoo setup for a few steps and print its per-step losses as JSON.

Run with real Paddle (the oracle) or, unchanged, on paddle_compat:

    /work/paddle_venv/bin/python tools/model_zoo/runner.py NAME [options]
    python -m paddle_compat tools/model_zoo/runner.py NAME [options]

``import paddle`` below (and in the model repository's files) resolves to whichever of the
two runs it. Options:

  --steps N          training steps (3)
  --perturb REL      multiply the float inputs by (1 + REL) before the float32 cast
  --save-params P    save the initial state_dict to P (paddle.save, .pdparams)
  --load-params P    load the initial weights from P instead of the deterministic fill
  --out FILE         write the JSON there (else stdout)

The weights are set deterministically (``setups.fill_state``: numpy, seeded from each
parameter's name and shape), so both sides start from the same numbers whether or not a
.pdparams golden is loaded.
"""
import argparse
import json
import os
import sys
import time
import warnings

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import paddle  # noqa: E402

import setups  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--perturb", type=float, default=0.0)
    ap.add_argument("--save-params")
    ap.add_argument("--load-params")
    ap.add_argument("--out")
    a = ap.parse_args()
    s = setups.SETUPS[a.name]
    setups.add_repo_to_path(s["repo"])
    paddle.seed(2024)
    np.random.seed(2024)
    res = {"name": a.name, "ok": False}
    t0 = time.perf_counter()
    try:
        model, data, loss_fn = s["build"](paddle)
        res["build_s"] = time.perf_counter() - t0
        sd = model.state_dict()
        params = a.load_params or s.get("pdparams")
        if params:
            model.set_state_dict(paddle.load(params))
        else:
            model.set_state_dict(setups.fill_state(sd, paddle))
        res["n_params"] = int(sum(int(np.prod(v.shape)) for v in sd.values()))
        res["param_checksum"] = setups.checksum(model.state_dict())
        if a.save_params:
            paddle.save(model.state_dict(), a.save_params)
        data = setups.perturb(data, a.perturb)
        inputs = {k: paddle.to_tensor(v) for k, v in data.items()}
        opt = s.get("optimizer", setups.momentum)(paddle, model)
        model.train()
        losses, times = [], []
        for _ in range(a.steps):
            t = time.perf_counter()
            loss = loss_fn(model, inputs, paddle)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(np.asarray(loss.numpy()).reshape(-1)[0]))
            times.append(time.perf_counter() - t)
        res.update(ok=True, losses=losses, step_ms=[1e3 * t for t in times])
    except Exception as e:  # noqa: BLE001  reported as the setup's failure
        import traceback
        res["error"] = f"{type(e).__name__}: {e}"
        res["traceback"] = traceback.format_exc()[-3000:]
    text = json.dumps(res)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
