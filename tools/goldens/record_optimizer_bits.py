"""Record Paddle 3.3.1's float32 SGD and Momentum updates bit for bit, for
tests/test_optimizer_bits.py (our eager update, and the compiled one of to_static's parameters,
must round as Paddle's kernels do: the product, then the difference).

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_optimizer_bits.py

Writes tests/goldens/optimizer_bits.json: cases {id, make, steps}, a shared ``init`` and
``grads`` (float32, base64 of the little-endian bytes) of one parameter [37, 29], and per case
``params``: the parameter after each step (base64). At step k the loss is ``sum(p * grads[k])``
so the gradient is exactly ``grads[k]``. ``make`` is Python evaluated with ``paddle`` and ``p``.
"""
import base64
import json
import os
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

paddle.set_device("cpu")
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "optimizer_bits.json")
SHAPE, STEPS = (37, 29), 3
CASES = [
    ("sgd", "opt = paddle.optimizer.SGD(0.0137, parameters=[p])"),
    ("momentum", "opt = paddle.optimizer.Momentum(0.0137, momentum=0.9, parameters=[p])"),
    ("nesterov", "opt = paddle.optimizer.Momentum(0.0137, momentum=0.85, parameters=[p], "
                 "use_nesterov=True)"),
]


def b64(a):
    return base64.b64encode(np.ascontiguousarray(a, "<f4").tobytes()).decode()


def main():
    rs = np.random.RandomState(7)
    init = rs.randn(*SHAPE).astype("float32")
    grads = [rs.randn(*SHAPE).astype("float32") for _ in range(STEPS)]
    out = {"shape": list(SHAPE), "init": b64(init), "grads": [b64(g) for g in grads],
           "cases": []}
    for cid, make in CASES:
        p = paddle.create_parameter(list(SHAPE), "float32",
                                    default_initializer=paddle.nn.initializer.Assign(init))
        env = {"paddle": paddle, "p": p}
        exec(make, env)
        opt = env["opt"]
        params = []
        for g in grads:
            (p * paddle.to_tensor(g)).sum().backward()
            opt.step()
            opt.clear_grad()
            params.append(b64(p.numpy()))
        out["cases"].append({"id": cid, "make": make, "params": params})
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
