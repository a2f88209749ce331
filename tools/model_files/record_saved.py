"""Model files written by OUR ``paddle.jit.save`` / ``paddle.static.save_inference_model``,
loaded by real Paddle 3.3.1: the goldens of tests/test_model_save.py.

Run with the project's Python (paddle_compat importable, real Paddle in ../paddle_venv):

    python tools/model_files/record_saved.py

1. Builds each network of networks.py on paddle_compat (seeded; the CNN's batch norm first
   gathers running statistics in two training steps), puts it in eval mode and saves it with
   paddle_compat's ``jit.save`` into tests/data/model_files/ours/NAME.json + NAME.pdiparams
   (committed: the JSON is the reference the tests compare a fresh save with), plus two
   static-graph programs saved with ``static.save_inference_model`` (``sinf_fc``,
   ``sinf_conv``).
2. Runs this file again under real Paddle (``--paddle-side``), which loads every saved model
   with ``paddle.jit.load`` and with ``paddle.inference`` (Config, create_predictor, handles,
   run) and records the outputs, the loaded parameters and the predictor's names.
   For the static sinf_fc program also ``static.save`` / ``save_vars`` both ways: Paddle
   loads ours (ours/static/ours_*) and saves its own (ours/static/paddle_*, its outputs in
   expected/static_fc.json) for our ``static.load`` / ``load_vars``.
3. Writes ours/expected/NAME.json: the inputs, our Layer's outputs, and Paddle's. It fails
   (and writes nothing) when Paddle cannot load a file or its outputs differ from ours.
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "tests", "data", "model_files", "ours")
PADDLE_PY = os.environ.get("PADDLE_PYTHON",
                           os.path.join(HERE, "..", "..", "..", "paddle_venv", "bin", "python"))

# name, network, input spec (shape, dtype, name), example input shape
JIT_MODELS = [
    ("mlp", "mlp", ([None, 6], "float32", "x"), (3, 6)),
    ("cnn", "cnn", ([None, 3, 8, 8], "float32", "x"), (2, 3, 8, 8)),
    ("block", "block", ([None, 5, 8], "float32", "x"), (2, 5, 8)),
    ("embed", "embed", ([None, 4], "int64", "ids"), (3, 4)),
    ("mobile", "mobile", ([None, 4, 6, 6], "float32", "x"), (2, 4, 6, 6)),
    ("misc", "misc", ([None, 5], "float32", "x"), (4, 5)),
    ("mlp64", "mlp", ([None, 6], "float64", "x"), (3, 6)),
]
STATIC_MODELS = ["sinf_fc", "sinf_conv"]


def _arr(a):
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "data": a.reshape(-1).tolist()}


def _array(d):
    return np.asarray(d["data"], dtype=d["dtype"]).reshape(d["shape"])


def _outs(out):
    return [np.asarray(o.numpy()) for o in out] if isinstance(out, (list, tuple)) else \
        [np.asarray(out.numpy())]


def build_static(paddle, name, rng):
    """A static Program, its feed Variable, fetch list and an input (on either paddle)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        if name == "sinf_fc":
            x = paddle.static.data("feat", [None, 6], "float32")
            h = paddle.static.nn.fc(x, 4, activation="relu")
            fetch = [paddle.nn.functional.softmax(h), h]
            inp = rng.standard_normal((3, 6)).astype("float32")
        else:
            x = paddle.static.data("image", [None, 2, 6, 6], "float32")
            h = paddle.nn.Conv2D(2, 3, 3, padding=1)(x)
            bn = paddle.nn.BatchNorm2D(3)
            bn.eval()
            h = paddle.nn.functional.max_pool2d(paddle.nn.functional.relu(bn(h)), 2)
            fetch = [paddle.static.nn.fc(paddle.flatten(h, 1), 5)]
            inp = rng.standard_normal((2, 2, 6, 6)).astype("float32")
    return main, startup, x, fetch, inp


def ours_side():
    """Build and save with paddle_compat; returns {name: gold dict} (without Paddle's part)."""
    sys.path.insert(0, os.path.join(HERE, "..", ".."))
    sys.path.insert(0, HERE)
    import paddle_compat as paddle
    from networks import networks
    nets = networks(paddle)
    os.makedirs(os.path.join(OUT, "expected"), exist_ok=True)
    rng = np.random.default_rng(17)
    golds = {}
    for i, (name, net, (shape, dtype, iname), ex) in enumerate(JIT_MODELS):
        paddle.seed(200 + i)
        paddle.set_default_dtype("float64" if dtype == "float64" else "float32")
        layer = nets[net]()
        paddle.set_default_dtype("float32")
        if name == "cnn":
            layer.train()
            for _ in range(2):
                layer(paddle.to_tensor(rng.standard_normal((4, 3, 8, 8)).astype("float32")))
        layer.eval()
        x = rng.integers(0, 20, ex).astype("int64") if dtype == "int64" else \
            rng.standard_normal(ex).astype(dtype)
        ref = _outs(layer(paddle.to_tensor(x)))
        path = os.path.join(OUT, name)
        paddle.jit.save(layer, path, input_spec=[paddle.static.InputSpec(shape, dtype, iname)])
        golds[name] = {"kind": "jit", "inputs": [_arr(x)], "layer_output": [_arr(a) for a in ref],
                       "input_spec": [shape, dtype, iname]}
    paddle.enable_static()
    try:
        for i, name in enumerate(STATIC_MODELS):
            paddle.seed(300 + i)
            main, startup, x, fetch, inp = build_static(paddle, name, rng)
            exe = paddle.static.Executor(paddle.CPUPlace())
            exe.run(startup)
            ref = exe.run(main, feed={x.name: inp}, fetch_list=fetch)
            path = os.path.join(OUT, name)
            paddle.static.save_inference_model(path, [x], fetch, exe, program=main)
            golds[name] = {"kind": "static", "inputs": [_arr(inp)], "feed_name": x.name,
                           "layer_output": [_arr(a) for a in ref]}
            if name == "sinf_fc":      # static.save / save_vars files for Paddle to load
                paddle.static.save(main, os.path.join(OUT, "static", "ours_fc"))
                paddle.static.save_vars(exe, os.path.join(OUT, "static", "ours_vars"), main)
    finally:
        paddle.disable_static()
    return golds


def paddle_side(folder, names):
    """Under real Paddle: load every saved model both ways; print the results as JSON."""
    import paddle
    import paddle.inference as pi
    with open(os.path.join(folder, "expected", "_inputs.json")) as f:
        inputs = json.load(f)
    res = {"static_fc": paddle_static(paddle, folder, _array(inputs["sinf_fc"][0]))}
    for name in names:
        path = os.path.join(folder, name)
        xs = [_array(d) for d in inputs[name]]
        r = {}
        layer = paddle.jit.load(path)
        layer.eval()
        r["jit_output"] = [_arr(a) for a in _outs(layer(*[paddle.to_tensor(a) for a in xs]))]
        r["parameters"] = [[p.name, list(p.shape), str(p.dtype), bool(p.stop_gradient)]
                           for p in layer.parameters()]
        config = pi.Config(path + ".json", path + ".pdiparams")
        config.disable_glog_info()
        pred = pi.create_predictor(config)
        in_names, out_names = pred.get_input_names(), pred.get_output_names()
        for n, a in zip(in_names, xs):
            h = pred.get_input_handle(n)
            h.reshape(list(a.shape))
            h.copy_from_cpu(a)
        pred.run()
        r["predictor_output"] = [_arr(pred.get_output_handle(n).copy_to_cpu())
                                 for n in out_names]
        r["input_names"], r["output_names"] = in_names, out_names
        paddle.enable_static()
        exe = paddle.static.Executor(paddle.CPUPlace())
        prog, feed_names, fetch_targets = paddle.static.load_inference_model(path, exe)
        r["static_feed_names"] = list(feed_names)
        r["static_output"] = [_arr(a) for a in exe.run(prog, feed=dict(zip(feed_names, xs)),
                                                       fetch_list=fetch_targets)]
        paddle.disable_static()
        res[name] = r
    print("@@RESULT@@" + json.dumps(res))


def paddle_static(paddle, folder, inp):
    """Paddle's static.save / save_vars of the sinf_fc program (its own parameters) and its
    static.load / load_vars of ours: the outputs on ``inp`` each way."""
    st = os.path.join(folder, "static")
    paddle.enable_static()
    paddle.seed(300)
    main, startup, x, fetch, _ = build_static(paddle, "sinf_fc", np.random.default_rng(0))
    exe = paddle.static.Executor(paddle.CPUPlace())

    def run():
        return [_arr(a) for a in exe.run(main, feed={x.name: inp}, fetch_list=fetch)]
    exe.run(startup)
    r = {"paddle_output": run()}
    paddle.static.save(main, os.path.join(st, "paddle_fc"))
    paddle.static.save_vars(exe, os.path.join(st, "paddle_vars"), main)
    r["paddle_files"] = sorted(f for f in os.listdir(st) if f.startswith("paddle_fc"))
    r["paddle_vars"] = sorted(os.listdir(os.path.join(st, "paddle_vars")))
    r["state_keys"] = sorted(paddle.static.load_program_state(os.path.join(st, "paddle_fc")))
    paddle.static.load(main, os.path.join(st, "ours_fc"), exe)
    r["loads_ours_save"] = run()
    exe.run(startup)
    paddle.static.load_vars(exe, os.path.join(st, "ours_vars"), main)
    r["loads_ours_vars"] = run()
    paddle.disable_static()
    return r


def main():
    golds = ours_side()
    with open(os.path.join(OUT, "expected", "_inputs.json"), "w") as f:
        json.dump({k: g["inputs"] for k, g in golds.items()}, f)
    try:
        p = subprocess.run([PADDLE_PY, os.path.abspath(__file__), "--paddle-side",
                            os.path.abspath(OUT), *golds], capture_output=True, text=True,
                           cwd="/tmp")
    finally:
        os.remove(os.path.join(OUT, "expected", "_inputs.json"))
    if p.returncode != 0:
        sys.exit("real Paddle failed on our files:\n" + p.stderr[-4000:])
    res = json.loads(p.stdout.split("@@RESULT@@", 1)[1])
    sfc = res.pop("static_fc")
    ours = [_array(d) for d in golds["sinf_fc"]["layer_output"]]
    for key in ("loads_ours_save", "loads_ours_vars"):
        worst = max(float(np.abs(a - _array(b)).max()) for a, b in zip(ours, sfc[key]))
        if worst > 1e-6:
            sys.exit(f"Paddle's static {key}: outputs differ from ours by {worst}")
        print(f"Paddle static {key}: max |diff| {worst:.3g}")
    with open(os.path.join(OUT, "expected", "static_fc.json"), "w") as f:
        json.dump(sfc, f, indent=1)
    for name, gold in golds.items():
        r = res[name]
        ours = [_array(d) for d in gold["layer_output"]]
        for key in ("jit_output", "predictor_output", "static_output"):
            got = [_array(d) for d in r[key]]
            worst = max(float(np.abs(a.astype("float64") - b).max()) for a, b in zip(ours, got))
            if len(got) != len(ours) or worst > 1e-4:
                sys.exit(f"{name}: Paddle's {key} differs from ours by {worst}")
            print(f"{name}: Paddle {key} vs our layer: max |diff| {worst:.3g}")
        gold.update({"paddle": r})
        with open(os.path.join(OUT, "expected", name + ".json"), "w") as f:
            json.dump(gold, f, indent=1)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--paddle-side":
        paddle_side(sys.argv[2], sys.argv[3:])
    else:
        main()
