"""Record Paddle 3.3.1's dropout outputs and input gradients, bit for bit, as goldens for
tests/test_dropout_grad.py: the zeros of dropped elements (+0 forward; Paddle's backward
multiplies the upstream gradient by the mask, so -0 for a negative one), and non-finite
inputs and upstream gradients where dropped.

    /work/paddle_venv/bin/python tools/goldens/record_dropout_grad.py

Writes tests/goldens/dropout_grad.json: {case: {"code", "out": [array, ...]}}, each array
{"dtype", "shape", "bits"} (the values' bit patterns as unsigned integers). Each case is code
run with ``paddle`` bound to real Paddle and ``np`` to numpy; it leaves a list of tensors in
``out``. The test runs the same code on paddle_compat.
"""
import json
import os
import warnings

import numpy as np
import paddle

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "tests", "goldens", "dropout_grad.json")

_SETUP = ("x = paddle.to_tensor(np.array({x}, '{dt}'), stop_gradient=False)\n"
          "g = paddle.to_tensor(np.array({g}, '{dt}'))\n"
          "paddle.seed({seed})\n")
_VALS = "[-1.0, 2.0, -3.0, 0.5, float('nan'), float('inf'), float('-inf'), -0.0] * 4"
_GRADS = "[-1.0, -2.0, float('nan'), 3.0, float('inf'), -1.0, float('-inf'), -0.5] * 4"


def case(call, x=_VALS, g=_GRADS, dt="float32", seed=1):
    return (_SETUP.format(x=x, g=g, dt=dt, seed=seed) + f"y = {call}\n"
            "y.backward(g)\nout = [y, x.grad]")


CASES = {
    "upscale": case("paddle.nn.functional.dropout(x, 0.5)"),
    "upscale_p01": case("paddle.nn.functional.dropout(x, 0.1)", seed=7),
    "upscale_float64": case("paddle.nn.functional.dropout(x, 0.3)", dt="float64"),
    "downscale": case("paddle.nn.functional.dropout(x, 0.5, mode='downscale_in_infer')"),
    "p_one": case("paddle.nn.functional.dropout(x, 1.0)"),
    "layer": case("paddle.nn.Dropout(0.25)(x)", seed=3),
    "negative_ones": case("paddle.nn.functional.dropout(x, 0.5)", x="[-1.0] * 16",
                          g="[-1.0] * 16"),
}


def encode(t):
    a = np.ascontiguousarray(t.numpy())
    bits = a.view({4: np.uint32, 8: np.uint64}[a.dtype.itemsize])
    return {"dtype": str(a.dtype), "shape": list(a.shape), "bits": bits.ravel().tolist()}


def main():
    paddle.set_device("cpu")
    golden = {}
    for name, code in CASES.items():
        env = {"paddle": paddle, "np": np}
        exec(code, env)
        golden[name] = {"code": code, "out": [encode(t) for t in env["out"]]}
    with open(OUT, "w") as f:
        json.dump(golden, f, indent=0, sort_keys=True)
    print("wrote", OUT, len(golden), "cases")


if __name__ == "__main__":
    main()
