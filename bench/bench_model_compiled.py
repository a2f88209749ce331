"""The models of tests/data/model_files/ (saved by real Paddle 3.3.1) run four ways, one thread
each, on the same input: our loaded model under ``torch.compile`` (``jit.load`` ->
``jit.to_static`` -> the fx GraphModule -> ``torch.compile``), our compiled predictor
(``Config.enable_memory_optim()``: the AOTInductor package of inference/aot.py, timed through
``Predictor.run`` with its handles, as Paddle's is), real Paddle's inference
predictor (``paddle.inference``, in the oracle venv, run in a subprocess), and onnxruntime on
the same GraphModule exported to ONNX.

    python bench/bench_model_compiled.py [--repeat 15] [--paddle /work/paddle_venv/bin/python]

Prints our loaded model run eagerly too (the generated function of jit/translated.py), then
the medians of process CPU time per call (``time.process_time``: every thread of the
process counts, so a runtime that works in helper threads is not flattered) and the ratios
compiled / Paddle, AOT predictor / Paddle, AOT / onnxruntime and onnxruntime / Paddle (below 1:
faster than Paddle's predictor). onnxruntime comes with the ``bench`` extra
(``pip install -e .[bench]``).
"""
import argparse
import io
import json
import os
import subprocess
import sys
import time

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import paddle_compat as paddle  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "model_files")
MODELS = ["mlp", "cnn", "block", "embed", "mobile", "misc"]

_PADDLE_SCRIPT = r"""
import json, sys, time
import numpy as np
import paddle.inference as pi
data, name, number, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
gold = json.load(open(f"{data}/expected/{name}.json"))
cfg = pi.Config(f"{data}/{name}.json", f"{data}/{name}.pdiparams")
cfg.disable_gpu()
cfg.set_cpu_math_library_num_threads(1)
cfg.disable_glog_info()
pred = pi.create_predictor(cfg)
for n, d in zip(pred.get_input_names(), gold["inputs"]):
    pred.get_input_handle(n).copy_from_cpu(np.asarray(d["data"], d["dtype"]).reshape(d["shape"]))
def call():
    pred.run()
    pred.get_output_handle(pred.get_output_names()[0]).copy_to_cpu()
for _ in range(number):
    call()
ts = []
for _ in range(repeat):
    t = time.process_time()
    for _ in range(number):
        call()
    ts.append((time.process_time() - t) / number * 1e6)
print(json.dumps(sorted(ts)[len(ts) // 2]))
"""


def median_us(fn, number, repeat):
    for _ in range(number):
        fn()
    ts = []
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(number):
            fn()
        ts.append((time.process_time() - t) / number * 1e6)
    return sorted(ts)[len(ts) // 2]


def aot_predictor_us(name, arrays, gold, args):
    """Our predictor with ``enable_memory_optim()`` (AOTInductor), timed as Paddle's is:
    ``run()`` and ``copy_to_cpu`` of the first output."""
    import paddle_compat.inference as pi
    cfg = pi.Config(os.path.join(DATA, name + ".json"), os.path.join(DATA, name + ".pdiparams"))
    cfg.set_cpu_math_library_num_threads(1)
    cfg.enable_memory_optim()
    pred = pi.create_predictor(cfg)
    for n, a in zip(pred.get_input_names(), arrays):
        pred.get_input_handle(n).copy_from_cpu(a)
    out = pred.get_output_handle(pred.get_output_names()[0])
    pred.run()
    if pred._aot.failed:
        return float("nan")
    want = np.asarray(gold["eval_output"][0]["data"])
    np.testing.assert_allclose(out.copy_to_cpu().reshape(-1), want.reshape(-1), rtol=1e-4,
                               atol=1e-5)

    def call():
        pred.run()
        out.copy_to_cpu()
    return median_us(call, args.number, args.repeat)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--number", type=int, default=200)
    ap.add_argument("--paddle", default=os.path.join(os.path.dirname(ROOT), "paddle_venv",
                                                     "bin", "python"))
    args = ap.parse_args()
    torch.set_num_threads(1)
    try:
        import onnxruntime as ort
    except ImportError:
        ort = None
    print(f"{'model':8s} {'eager us':>9s} {'compiled us':>12s} {'paddle us':>10s} {'ratio':>6s} "
          f"{'aot us':>8s} {'/pd':>5s} {'/ort':>5s} {'onnxrt us':>10s} {'ratio':>6s}")
    for name in MODELS:
        with open(os.path.join(DATA, "expected", name + ".json")) as f:
            gold = json.load(f)
        arrays = [np.asarray(d["data"], d["dtype"]).reshape(d["shape"]) for d in gold["inputs"]]
        xs = [paddle.to_tensor(a) for a in arrays]
        loaded = paddle.jit.load(os.path.join(DATA, name))
        with paddle.no_grad():
            eager = median_us(lambda: loaded(*xs), args.number, args.repeat)
        static = paddle.jit.to_static(paddle.jit.load(os.path.join(DATA, name)))
        with paddle.no_grad():
            static(*xs)
        gm = static.forward.graph_module
        compiled = torch.compile(gm)
        ts = [x._t for x in xs]
        with torch.no_grad():
            got = compiled(*ts)
        got = got[0] if isinstance(got, (list, tuple)) else got
        got = got._t if hasattr(got, "_t") else got
        want = np.asarray(gold["eval_output"][0]["data"]).reshape(got.shape)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-5)

        def comp():
            with torch.no_grad():
                compiled(*ts)
        ours = median_us(comp, args.number, args.repeat)
        aot_us = aot_predictor_us(name, arrays, gold, args)
        theirs = float("nan")
        if os.path.exists(args.paddle):
            env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
            r = subprocess.run([args.paddle, "-c", _PADDLE_SCRIPT, DATA, name, str(args.number),
                                str(args.repeat)], capture_output=True, text=True, env=env)
            if r.returncode == 0:
                theirs = json.loads(r.stdout.strip().splitlines()[-1])
            else:
                print(f"  paddle failed on {name}: {r.stderr.strip().splitlines()[-1:]}")
        onnx_us = float("nan")
        if ort is not None:
            try:
                buf = io.BytesIO()
                with torch.no_grad():
                    torch.onnx.export(gm, tuple(ts), buf, dynamo=False)
                so = ort.SessionOptions()
                so.intra_op_num_threads = so.inter_op_num_threads = 1
                sess = ort.InferenceSession(buf.getvalue(), so,
                                            providers=["CPUExecutionProvider"])
                feed = {i.name: a for i, a in zip(sess.get_inputs(), arrays)}
                onnx_us = median_us(lambda: sess.run(None, feed), args.number, args.repeat)
            except Exception as e:      # noqa: BLE001  (a model the exporter cannot take)
                print(f"  onnx export/run failed on {name}: {type(e).__name__}: "
                      f"{str(e).splitlines()[0][:100]}")
        print(f"{name:8s} {eager:9.1f} {ours:12.1f} {theirs:10.1f} {ours / theirs:6.2f} "
              f"{aot_us:8.1f} {aot_us / theirs:5.2f} {aot_us / onnx_us:5.2f} "
              f"{onnx_us:10.1f} {onnx_us / theirs:6.2f}", flush=True)


if __name__ == "__main__":
    main()
