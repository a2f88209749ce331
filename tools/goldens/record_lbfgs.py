"""Record Paddle 3.3.1's LBFGS optimizer as goldens for tests/test_lbfgs.py.

Each case minimises a float64 Rosenbrock function of ``x`` [2] plus a weighted quadratic in
``y`` [3] (two parameters, so the flattening order matters), calling ``opt.step(closure)``
several times, and records after every step: the returned loss, the parameters, how often
the closure ran, and the optimizer's state (``func_evals``, ``n_iter``, ``alpha``, ``H_diag``,
the history length, the state_dict keys). ``errors`` records the exception types and messages.

    /work/paddle_venv/bin/python tools/goldens/record_lbfgs.py

Writes tests/goldens/lbfgs.json.
"""
import json
import os

import numpy as np
import paddle

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens", "lbfgs.json")

# name, LBFGS keyword arguments (Python source), number of step() calls
CASES = [
    ("plain", "learning_rate=0.1, max_iter=4", 4),
    ("plain_lr1_hist2", "learning_rate=0.5, max_iter=6, history_size=2", 3),
    ("wolfe", "line_search_fn='strong_wolfe'", 3),
    ("wolfe_short", "learning_rate=1.0, max_iter=5, history_size=3, "
                    "line_search_fn='strong_wolfe'", 4),
    ("wolfe_maxeval", "max_iter=20, max_eval=7, line_search_fn='strong_wolfe'", 3),
    ("wolfe_tolchange", "tolerance_change=1e-3, line_search_fn='strong_wolfe'", 2),
    ("plain_tolgrad", "learning_rate=0.1, max_iter=10, tolerance_grad=5.0", 3),
    ("wolfe_decay_ignored", "line_search_fn='strong_wolfe', weight_decay=0.5, "
                            "grad_clip=paddle.nn.ClipGradByValue(0.01)", 2),
]

X0 = [-1.2, 1.0]
Y0 = [0.5, -1.5, 2.0]
C = [1.0, 2.0, -1.0]
W = [0.5, 3.0, 1.5]


def as_float(v):
    return None if v is None else float(np.asarray(v.numpy() if hasattr(v, "numpy") else v))


def run_case(kwargs, steps):
    x = paddle.create_parameter([2], "float64")
    y = paddle.create_parameter([3], "float64")
    x.set_value(np.array(X0, "float64"))
    y.set_value(np.array(Y0, "float64"))
    c = paddle.to_tensor(C, dtype="float64")
    w = paddle.to_tensor(W, dtype="float64")
    opt = eval(f"paddle.optimizer.LBFGS(parameters=[x, y], {kwargs})")
    calls = [0]

    def closure():
        calls[0] += 1
        opt.clear_grad()
        loss = 100 * (x[1] - x[0] ** 2) ** 2 + (1 - x[0]) ** 2 + (w * (y - c) ** 2).sum()
        loss.backward()
        return loss

    out = []
    for _ in range(steps):
        loss = opt.step(closure)
        st = opt.state_dict()["state"]
        out.append({
            "loss": float(loss), "x": x.numpy().tolist(), "y": y.numpy().tolist(),
            "calls": calls[0], "func_evals": st["func_evals"], "n_iter": st["n_iter"],
            "alpha": as_float(st.get("alpha")), "H_diag": as_float(st.get("H_diag")),
            "history": len(st.get("old_yk") or []), "keys": sorted(st),
            "prev_loss": st.get("prev_loss"),
        })
    return out


ERRORS = [
    ("bad_line_search", "x = paddle.create_parameter([2], 'float64')\n"
                        "opt = paddle.optimizer.LBFGS(parameters=[x], line_search_fn='armijo')\n"
                        "def closure():\n    l = (x * x).sum()\n    l.backward()\n    return l\n"
                        "opt.step(closure)"),
    ("minimize", "x = paddle.create_parameter([2], 'float64')\n"
                 "opt = paddle.optimizer.LBFGS(parameters=[x])\nopt.minimize((x * x).sum())"),
    ("tensor_params", "x = paddle.create_parameter([2], 'float64')\n"
                      "paddle.optimizer.LBFGS(parameters=x)"),
]


def run_error(code):
    try:
        exec(code, {"paddle": paddle})
    except Exception as e:  # noqa: BLE001  (recording what Paddle raises)
        return {"type": type(e).__name__, "message": str(e).split("\n")[0]}
    return None


def main():
    paddle.set_device("cpu")
    result = {"problem": {"x0": X0, "y0": Y0, "c": C, "w": W}, "cases": [], "errors": {}}
    for name, kwargs, steps in CASES:
        result["cases"].append({"name": name, "kwargs": kwargs, "steps": steps,
                                "trajectory": run_case(kwargs, steps)})
    for name, code in ERRORS:
        result["errors"][name] = run_error(code)
    with open(OUT, "w") as f:
        json.dump(result, f, indent=1)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
