"""The models of tests/data/model_files/ (saved by real Paddle 3.3.1) run four ways on the same
input, for each thread count:

- ``eager``: our ``paddle.jit.load`` model called in Python (the generated function of
  jit/translated.py);
- ``aot``: our compiled predictor, ``inference.create_predictor`` with the switches Paddle users
  set (``enable_memory_optim()``, ``switch_ir_optim(True)``, ``enable_mkldnn()``,
  ``set_cpu_math_library_num_threads(n)``): the AOTInductor package of inference/aot.py, timed
  as Paddle's is, ``run()`` and ``copy_to_cpu`` of the first output;
- ``jit``: ``paddle.jit.to_static(paddle.jit.load(path), backend="CINN")`` called under
  ``paddle.no_grad()``: the same package (from the cache) behind the Layer call;
- ``paddle``: real Paddle's inference predictor with the same switches but
  ``enable_memory_optim()``, which fails in Paddle 3.3.1 on these models
  (``pass_result_info.h:48``) (the oracle venv, run in a subprocess);
- ``onnxrt``: onnxruntime on the model's traced graph exported to ONNX (``intra_op_num_threads``
  n), ``sess.run`` with the numpy feed (the ``bench`` extra: ``pip install -e .[bench]``);
- ``compiled`` (``--torch-compile`` only): the traced graph under ``torch.compile``.

    python bench/bench_model_compiled.py [--threads 1,2] [--repeat 9] [--number 200]
        [--models mlp,cnn] [--paddle /work/paddle_venv/bin/python] [--torch-compile]
        [--no-eager]

Times are medians of process CPU time per call (``time.process_time``: every thread of the
process counts, so a runtime that works in helper threads is not flattered), in microseconds.
Ratios: aot / paddle and aot / onnxrt (below 1: ours is faster). ``build s`` is the compiled
predictor's first ``run`` (export + AOTInductor compile, or the load of a cached package:
``cached`` says which; ``way`` which of the ways timed at load runs: ``1p2t-dnn`` is the
1-thread package with torch at 2 threads and oneDNN off); ``2nd proc s`` is a fresh
process's ``create_predictor`` + first ``run`` on the cached package. The load average is printed with each row.
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
import paddle_compat.inference as pi  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "model_files")
MODELS = ["mlp", "cnn", "block", "embed", "mobile", "misc"]

_PADDLE_SCRIPT = r"""
import json, sys, time
import numpy as np
import paddle.inference as pi
data, name, number, repeat, nt = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
gold = json.load(open(f"{data}/expected/{name}.json"))
cfg = pi.Config(f"{data}/{name}.json", f"{data}/{name}.pdiparams")
cfg.disable_gpu()
cfg.switch_ir_optim(True)
cfg.enable_mkldnn()
cfg.set_cpu_math_library_num_threads(nt)
cfg.disable_glog_info()
pred = pi.create_predictor(cfg)
for n, d in zip(pred.get_input_names(), gold["inputs"]):
    pred.get_input_handle(n).copy_from_cpu(np.asarray(d["data"], d["dtype"]).reshape(d["shape"]))
out = pred.get_output_handle(pred.get_output_names()[0])
def call():
    pred.run()
    out.copy_to_cpu()
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


def default_paddle():
    """The oracle venv's python: ``paddle_venv`` next to the checkout or a folder above it."""
    d = ROOT
    while os.path.dirname(d) != d:
        d = os.path.dirname(d)
        exe = os.path.join(d, "paddle_venv", "bin", "python")
        if os.path.exists(exe):
            return exe
    return ""


def median_us(fn, number, repeat):
    """Median over ``repeat`` rounds of the process CPU time of one call, in microseconds."""
    for _ in range(number):
        fn()
    ts = []
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(number):
            fn()
        ts.append((time.process_time() - t) / number * 1e6)
    return sorted(ts)[len(ts) // 2]


def case(name):
    """(input arrays, expected first output) of a model, from its golden file."""
    with open(os.path.join(DATA, "expected", name + ".json")) as f:
        gold = json.load(f)
    arrays = [np.asarray(d["data"], d["dtype"]).reshape(d["shape"]) for d in gold["inputs"]]
    return arrays, np.asarray(gold["eval_output"][0]["data"])


def predictor(name, threads):
    """Our predictor with the switches Paddle users set for a fast CPU predictor."""
    cfg = pi.Config(os.path.join(DATA, name + ".json"), os.path.join(DATA, name + ".pdiparams"))
    cfg.switch_ir_optim(True)
    cfg.enable_memory_optim()
    cfg.enable_mkldnn()
    cfg.set_cpu_math_library_num_threads(threads)
    return pi.create_predictor(cfg)


def first_run(name, threads):
    """A predictor made and run once (what a fresh process pays): (seconds, predictor)."""
    arrays, want = case(name)
    t = time.perf_counter()
    pred = predictor(name, threads)
    for n, a in zip(pred.get_input_names(), arrays):
        pred.get_input_handle(n).copy_from_cpu(a)
    pred.run()
    took = time.perf_counter() - t
    got = pred.get_output_handle(pred.get_output_names()[0]).copy_to_cpu()
    np.testing.assert_allclose(got.reshape(-1), want.reshape(-1), rtol=1e-4, atol=1e-5)
    return took, pred


def aot_us(pred, args):
    out = pred.get_output_handle(pred.get_output_names()[0])

    def call():
        pred.run()
        out.copy_to_cpu()
    return median_us(call, args.number, args.repeat)


def second_process_s(name, threads):
    """Seconds a fresh process spends in create_predictor + first run (package cached)."""
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--first-run", name,
                        "--threads", str(threads)], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"  second process failed on {name}: {r.stderr.strip().splitlines()[-1:]}")
        return float("nan")
    return json.loads(r.stdout.strip().splitlines()[-1])


def paddle_us(name, threads, args):
    if not args.paddle or not os.path.exists(args.paddle):
        return float("nan")
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    r = subprocess.run([args.paddle, "-c", _PADDLE_SCRIPT, DATA, name, str(args.number),
                        str(args.repeat), str(threads)], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        print(f"  paddle failed on {name}: {r.stderr.strip().splitlines()[-1:]}")
        return float("nan")
    return json.loads(r.stdout.strip().splitlines()[-1])


def traced_graph(name, xs):
    static = paddle.jit.to_static(paddle.jit.load(os.path.join(DATA, name)))
    with paddle.no_grad():
        static(*xs)
    return static.forward.graph_module


def _squeeze_each(x, dims):
    """``x.squeeze(dims)`` one dim at a time (the last first)."""
    for d in sorted((d % x.dim() for d in dims), reverse=True):
        x = x.squeeze(d)
    return x


def onnx_ready(gm):
    """``gm`` with what torch's TorchScript ONNX exporter refuses rewritten: ``squeeze`` of
    several dims at once (its opset-11+ symbolic reads the dims as one int) becomes one
    ``squeeze`` per dim."""
    changed = False
    for node in gm.graph.nodes:
        if node.target in ("squeeze", torch.squeeze) and len(node.args) > 1 and \
                isinstance(node.args[1], (tuple, list)) and len(node.args[1]) > 1:
            node.op, node.target = "call_function", _squeeze_each
            changed = True
    if changed:
        gm.recompile()
    return gm


def onnx_us(gm, ts, arrays, want, threads, args):
    try:
        import onnxruntime as ort
    except ImportError:
        return float("nan")
    try:
        buf = io.BytesIO()
        with torch.no_grad():
            torch.onnx.export(onnx_ready(gm), tuple(ts), buf, dynamo=False)
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        sess = ort.InferenceSession(buf.getvalue(), so, providers=["CPUExecutionProvider"])
        feed = {i.name: a for i, a in zip(sess.get_inputs(), arrays)}
        np.testing.assert_allclose(sess.run(None, feed)[0].reshape(-1), want.reshape(-1),
                                   rtol=1e-4, atol=1e-5)
        return median_us(lambda: sess.run(None, feed), args.number, args.repeat)
    except Exception as e:      # noqa: BLE001  (a model the exporter cannot take)
        print(f"  onnx export/run failed: {type(e).__name__}: {str(e).splitlines()[0][:100]}")
        return float("nan")


def torch_compile_us(gm, ts, args):
    compiled = torch.compile(gm)

    def call():
        with torch.no_grad():
            compiled(*ts)
    return median_us(call, args.number, args.repeat)


def way(w):
    """How the package runs, as ``<package's threads>p<torch's threads>t`` and ``+dnn`` /
    ``-dnn`` (oneDNN on / off), e.g. ``1p1t-dnn``."""
    if not w:
        return "-"
    return f"{w['package_threads']}p{w['threads']}t{'+' if w['onednn'] else '-'}dnn"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--number", type=int, default=200)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--paddle", default=default_paddle())
    ap.add_argument("--torch-compile", action="store_true")
    ap.add_argument("--no-eager", action="store_true", help="leave the eager column out")
    ap.add_argument("--first-run", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.first_run:                      # the second-process measurement
        took, _ = first_run(args.first_run, int(args.threads))
        print(json.dumps(took))
        return
    for threads in [int(n) for n in args.threads.split(",")]:
        torch.set_num_threads(threads)
        print(f"threads {threads}")
        print(f"{'model':7s} {'eager us':>9s} {'aot us':>8s} {'jit us':>8s} {'paddle us':>10s} "
              f"{'onnxrt us':>10s} {'aot/pd':>7s} {'aot/ort':>8s} {'build s':>8s} {'cached':>6s} "
              f"{'2nd proc s':>10s} {'compiled us':>11s} {'load':>5s} {'way':>9s}")
        for name in args.models.split(","):
            arrays, want = case(name)
            xs = [paddle.to_tensor(a) for a in arrays]
            loaded = paddle.jit.load(os.path.join(DATA, name))
            eager = float("nan")
            if not args.no_eager:
                with paddle.no_grad():
                    eager = median_us(lambda: loaded(*xs), args.number, args.repeat)
            _, pred = first_run(name, threads)
            aot = float("nan") if pred._aot.failed else aot_us(pred, args)
            # jit.load + to_static(backend="CINN") in inference: the same package (cached)
            fast = paddle.jit.to_static(paddle.jit.load(os.path.join(DATA, name)),
                                        backend="CINN")
            with paddle.no_grad():
                fast(*xs)
                jit = float("nan") if fast.forward._aot.run_flat is None else \
                    median_us(lambda: fast(*xs), args.number, args.repeat)
            theirs = paddle_us(name, threads, args)
            gm = traced_graph(name, xs)
            ts = [x._t for x in xs]
            onnx = onnx_us(gm, ts, arrays, want, threads, args)
            comp = torch_compile_us(gm, ts, args) if args.torch_compile else float("nan")
            second = second_process_s(name, threads)
            torch.set_num_threads(threads)
            print(f"{name:7s} {eager:9.1f} {aot:8.1f} {jit:8.1f} {theirs:10.1f} {onnx:10.1f} "
                  f"{aot / theirs:7.2f} {aot / onnx:8.2f} {pred._aot.build_s or 0:8.1f} "
                  f"{str(pred._aot.cached):>6s} {second:10.2f} {comp:11.1f} "
                  f"{os.getloadavg()[0]:5.1f} {way(pred._aot.way):>9s}", flush=True)


if __name__ == "__main__":
    main()
