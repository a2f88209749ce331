"""Goldens of real Paddle 3.3.1's inference APIs on the model files in tests/data/model_files/,
for tests/test_inference.py.

Run with the oracle venv: /work/paddle_venv/bin/python tools/model_files/record_inference.py

1. Two small static-graph programs saved with ``paddle.static.save_inference_model`` (which in
   3.3.1 writes NAME.json, the PIR program, and NAME.pdiparams, as ``jit.save`` does):
   ``inf_fc`` (fc + relu, softmax; two fetches) and ``inf_conv`` (conv2d, batch_norm, pool,
   flatten, fc).
2. For every model (those of record_models.py and the two above) the outputs of
   ``paddle.inference`` (Config(model_file, params_file), create_predictor, input handles,
   run, output handles) on the inputs of expected/NAME.json, with the predictor's input and
   output names and the output shapes and dtypes; for the two static ones also the outputs of
   ``exe.run`` on ``load_inference_model``'s program. Written to expected/NAME.json (the static
   ones) or expected/predictor_NAME.json (the others).
"""
import json
import os

import numpy as np
import paddle
import paddle.inference as pi

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "model_files")
JIT_MODELS = ["mlp", "cnn", "block", "embed", "mobile", "misc", "mlp64"]


def _arr(a):
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "data": a.reshape(-1).tolist()}


def _array(d):
    return np.asarray(d["data"], dtype=d["dtype"]).reshape(d["shape"])


def _static_models(rng):
    """Build, save and load back the two static programs; returns {name: gold dict}."""
    paddle.enable_static()
    golds = {}
    for i, name in enumerate(["inf_fc", "inf_conv"]):
        paddle.seed(300 + i)
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            if name == "inf_fc":
                x = paddle.static.data("feat", [None, 6], "float32")
                h = paddle.static.nn.fc(x, 4, activation="relu")
                fetch = [paddle.nn.functional.softmax(h), h]
                inputs = [rng.standard_normal((3, 6)).astype("float32")]
            else:
                x = paddle.static.data("image", [None, 2, 6, 6], "float32")
                h = paddle.nn.Conv2D(2, 3, 3, padding=1)(x)
                bn = paddle.nn.BatchNorm2D(3)
                bn.eval()
                h = paddle.nn.functional.max_pool2d(paddle.nn.functional.relu(bn(h)), 2)
                fetch = [paddle.static.nn.fc(paddle.flatten(h, 1), 5)]
                inputs = [rng.standard_normal((2, 2, 6, 6)).astype("float32")]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {x.name: inputs[0]}
        ref = exe.run(main, feed=feed, fetch_list=fetch)
        path = os.path.join(OUT, name)
        for ext in (".json", ".pdiparams", ".pdiparams.info", ".pdmodel"):
            if os.path.exists(path + ext):
                os.remove(path + ext)
        paddle.static.save_inference_model(path, [x], fetch, exe, program=main)
        prog, feed_names, fetch_targets = paddle.static.load_inference_model(path, exe)
        loaded = exe.run(prog, feed=dict(zip(feed_names, inputs)), fetch_list=fetch_targets)
        golds[name] = {
            "files": sorted(f for f in os.listdir(OUT) if f.startswith(name + ".")),
            "inputs": [_arr(a) for a in inputs],
            "program_output": [_arr(a) for a in ref],
            "feed_names": list(feed_names),
            "executor_output": [_arr(a) for a in loaded],
        }
    paddle.disable_static()
    return golds


def _predictor(name, inputs):
    path = os.path.join(OUT, name)
    config = pi.Config(path + ".json", path + ".pdiparams")
    config.disable_glog_info()
    predictor = pi.create_predictor(config)
    in_names, out_names = predictor.get_input_names(), predictor.get_output_names()
    for n, a in zip(in_names, inputs):
        h = predictor.get_input_handle(n)
        h.reshape(list(a.shape))
        h.copy_from_cpu(a)
    predictor.run()
    outs, shapes, types = [], [], []
    for n in out_names:
        h = predictor.get_output_handle(n)
        outs.append(h.copy_to_cpu())
        shapes.append(list(h.shape()))
        types.append(str(h.type()))
    # run(inputs) with Tensors returns the outputs as Tensors
    again = [t.numpy() for t in predictor.run([paddle.to_tensor(a) for a in inputs])]
    return {"input_names": in_names, "output_names": out_names, "output_shapes": shapes,
            "output_types": types, "predictor_output": [_arr(a) for a in outs],
            "run_inputs_output": [_arr(a) for a in again]}


def main():
    rng = np.random.default_rng(11)
    golds = _static_models(rng)
    for name in JIT_MODELS:
        with open(os.path.join(OUT, "expected", name + ".json")) as f:
            inputs = [_array(d) for d in json.load(f)["inputs"]]
        try:
            golds[name] = {"inputs": [_arr(a) for a in inputs], **_predictor(name, inputs)}
        except Exception as e:      # record what Paddle's predictor does with it
            golds[name] = {"inputs": [_arr(a) for a in inputs],
                           "error": [type(e).__name__, str(e)[:300]]}
    for name in ("inf_fc", "inf_conv"):
        golds[name].update(_predictor(name, [_array(d) for d in golds[name]["inputs"]]))
    for name, gold in golds.items():
        out = name if name.startswith("inf_") else "predictor_" + name
        with open(os.path.join(OUT, "expected", out + ".json"), "w") as f:
            json.dump(gold, f, indent=1)
        print(name, "recorded", gold.get("error", ""), gold.get("output_names"))


if __name__ == "__main__":
    main()
