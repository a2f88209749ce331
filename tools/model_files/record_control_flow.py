"""Save models with control flow inside ``to_static`` (``paddle.static.nn.cond`` and
``while_loop``: ``pd_op.if`` / ``pd_op.while`` with sub-blocks in the PIR program) with real
Paddle 3.3.1's ``paddle.jit.save`` into tests/data/model_files/control/, with the outputs of
``paddle.jit.load`` for inputs that take each branch and loop counts that differ, for
tests/test_model_files.py.

Run with the oracle venv: /work/paddle_venv/bin/python tools/model_files/record_control_flow.py
"""
import json
import os

import numpy as np
import paddle
from paddle.static import InputSpec

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "model_files",
                   "control")


class Cond(paddle.nn.Layer):
    """Branch on a value the input decides; the branches read a value computed before."""

    def __init__(self):
        super().__init__()
        self.l = paddle.nn.Linear(4, 4)

    def forward(self, x):
        h = self.l(x)
        y = paddle.static.nn.cond(paddle.mean(h) > 0, lambda: paddle.tanh(h) * 2.0,
                                  lambda: paddle.nn.functional.relu(h) - 1.0)
        return y + 1.0


class While(paddle.nn.Layer):
    """A loop whose trip count depends on the input; a parameter read inside the body; a
    nested cond inside the body."""

    def __init__(self):
        super().__init__()
        self.l = paddle.nn.Linear(4, 4)

    def forward(self, x):
        i = paddle.full([], 0, "int64")

        def cond(i, h):
            return paddle.mean(paddle.abs(h)) < 3.0

        def body(i, h):
            h = h * 1.5 + paddle.tanh(self.l(h))
            h = paddle.static.nn.cond(i < 2, lambda: h + 0.5, lambda: h)
            return i + 1, h
        i, h = paddle.static.nn.while_loop(cond, body, [i, x])
        return h, i


def _arr(a):
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "data": a.reshape(-1).tolist()}


def main():
    os.makedirs(os.path.join(OUT, "expected"), exist_ok=True)
    rng = np.random.default_rng(3)
    cases = {
        "cond": (Cond, [rng.standard_normal((2, 4)).astype("float32") + s for s in (3.0, -3.0)]),
        "while": (While, [rng.standard_normal((3, 4)).astype("float32") * s
                          for s in (0.1, 1.0, 5.0)]),
    }
    for i, (name, (cls, inputs)) in enumerate(cases.items()):
        paddle.seed(300 + i)
        layer = cls()
        layer.eval()
        path = os.path.join(OUT, name)
        for ext in (".json", ".pdiparams", ".pdiparams.info"):
            if os.path.exists(path + ext):
                os.remove(path + ext)
        paddle.jit.save(layer, path, input_spec=[InputSpec([None, 4], "float32", "x")])
        loaded = paddle.jit.load(path)
        outs = []
        for a in inputs:
            o = loaded(paddle.to_tensor(a))
            outs.append([_arr(t.numpy()) for t in (o if isinstance(o, (list, tuple)) else [o])])
        with open(path + ".json") as f:
            ops = sorted({o["#"] for o in json.load(f)["program"]["regions"][0]["blocks"][0]
                          ["ops"]})
        with open(os.path.join(OUT, "expected", name + ".json"), "w") as f:
            json.dump({"inputs": [_arr(a) for a in inputs], "outputs": outs, "ops": ops}, f,
                      indent=1)
        print(name, ops, [o[-1]["data"] if name == "while" else o[0]["data"][:2]
                          for o in outs])


if __name__ == "__main__":
    main()
