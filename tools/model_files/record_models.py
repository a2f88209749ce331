"""Save small models with real Paddle 3.3.1's ``paddle.jit.save`` into tests/data/model_files/,
with input/output goldens, for tests/test_model_files.py.

Run with the oracle venv: /work/paddle_venv/bin/python tools/model_files/record_models.py

Per model NAME it writes NAME.json (the PIR program), NAME.pdiparams (the parameters), and
expected/NAME.json: the inputs, the outputs of the Layer that was saved, and the outputs of
``paddle.jit.load(NAME)`` in eval mode and in train mode, with the names, shapes and dtypes of
the loaded layer's parameters and state_dict.
"""
import json
import os

import numpy as np
import paddle
from paddle.static import InputSpec

from networks import networks

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "model_files")


NETS = networks(paddle)


def _arr(a):
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "data": a.reshape(-1).tolist()}


def _outs(out):
    """The outputs as a list of arrays (a Tensor or a list/tuple of them)."""
    return [o.numpy() for o in out] if isinstance(out, (list, tuple)) else [out.numpy()]


def main():
    # the goldens go into a subfolder: a second .json beside NAME.json makes Paddle's own
    # jit.load fail with "Invalid model file"
    os.makedirs(os.path.join(OUT, "expected"), exist_ok=True)
    rng = np.random.default_rng(7)
    models = [
        ("mlp", NETS["mlp"], [InputSpec([None, 6], "float32", "x")],
         [rng.standard_normal((3, 6)).astype("float32")]),
        ("cnn", NETS["cnn"], [InputSpec([None, 3, 8, 8], "float32", "x")],
         [rng.standard_normal((2, 3, 8, 8)).astype("float32")]),
        ("block", NETS["block"], [InputSpec([None, 5, 8], "float32", "x")],
         [rng.standard_normal((2, 5, 8)).astype("float32")]),
        ("embed", NETS["embed"], [InputSpec([None, 4], "int64", "ids")],
         [rng.integers(0, 20, (3, 4)).astype("int64")]),
        ("mobile", NETS["mobile"], [InputSpec([None, 4, 6, 6], "float32", "x")],
         [rng.standard_normal((2, 4, 6, 6)).astype("float32")]),
        ("misc", NETS["misc"], [InputSpec([None, 5], "float32", "x")],
         [rng.standard_normal((4, 5)).astype("float32")]),
        ("mlp64", NETS["mlp"], [InputSpec([None, 6], "float64", "x")],     # float64 parameters
         [rng.standard_normal((3, 6))]),
    ]
    for i, (name, cls, spec, inputs) in enumerate(models):
        paddle.seed(100 + i)
        paddle.set_default_dtype("float64" if name.endswith("64") else "float32")
        layer = cls()
        if name == "cnn":     # give the batch norm non-trivial running statistics
            layer.train()
            for _ in range(2):
                layer(paddle.to_tensor(rng.standard_normal((4, 3, 8, 8)).astype("float32")))
        layer.eval()
        xs = [paddle.to_tensor(a) for a in inputs]
        ref = _outs(layer(*xs))
        path = os.path.join(OUT, name)
        for ext in (".json", ".pdiparams", ".pdiparams.info"):   # jit.save fails over old files
            if os.path.exists(path + ext):
                os.remove(path + ext)
        paddle.jit.save(layer, path, input_spec=spec)
        loaded = paddle.jit.load(path)
        loaded.eval()
        out_eval = _outs(loaded(*xs))
        loaded.train()
        out_train = _outs(loaded(*xs))
        gold = {
            "inputs": [_arr(a) for a in inputs],
            "layer_output": [_arr(a) for a in ref],
            "eval_output": [_arr(a) for a in out_eval],
            "train_output": [_arr(a) for a in out_train],
            "parameters": [[p.name, list(p.shape), str(p.dtype), bool(p.stop_gradient)]
                           for p in loaded.parameters()],
            "state_dict": [[k, list(v.shape)] for k, v in loaded.state_dict().items()],
        }
        with open(os.path.join(OUT, "expected", name + ".json"), "w") as f:
            json.dump(gold, f, indent=1)
        print(name, "recorded:", len(gold["parameters"]), "parameters")


if __name__ == "__main__":
    main()
