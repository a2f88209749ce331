"""Run every bench script several times and collect their medians into one JSON file.

    python bench/run_all.py [--runs 3] [--quick] [--out bench/perf_results.json]

Each bench script (bench_import, bench_core, bench_ops, bench_pylayer, bench_static, bench_rng,
bench_train when present) runs as its own subprocess ``--runs`` times; a small parser per script reads the
times and ratios it prints, and the median over the runs is kept. Real Paddle is measured where
its virtualenv exists (../paddle_venv or /work/paddle_venv): the scripts that already time it do
so, and ``PADDLE_SNIPPETS`` below time per-op calls and seeded randn there, with the same code
run here on paddle_compat. ``tools/perf_table.py`` turns the JSON into the README's table.
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENVS = [os.path.join(os.path.dirname(ROOT), "paddle_venv", "bin", "python"),
         "/work/paddle_venv/bin/python"]

# ------------------------------------------------------------------ per-script parsers
_F = r"([0-9.]+)"


def parse_core(out):
    """bench_core: one line per op: name, ours us, torch us, ratio."""
    ops_part, _, attr_part = out.partition("attribute reads")
    rows, attrs = {}, {}
    for part, into in ((ops_part, rows), (attr_part, attrs)):
        for m in re.finditer(rf"^(.+?)\s+{_F} us\s+{_F} us\s+{_F}x$", part, re.M):
            into[m.group(1).strip()] = (float(m.group(2)), float(m.group(3)))
    if not rows:
        return {}
    ratios = [o / t for o, t in rows.values()]
    shape = attrs.get("x.shape")
    return {"core_median_ratio": statistics.median(ratios), "core_worst_ratio": max(ratios),
            "core_ops": len(rows), "core_shape_ratio": shape and shape[0] / shape[1],
            "core_tanh_us": rows.get("tanh", (None,))[0],
            "core_tanh_torch_us": rows.get("tanh", (None, None))[1]}


def parse_ops(out):
    m = re.search(rf"median ratio over (\d+) APIs: {_F}, worst {_F}", out)
    return {"ops_median_ratio": float(m.group(2)), "ops_count": int(m.group(1)),
            "ops_worst_ratio": float(m.group(3))} if m else {}


def parse_pylayer(out):
    res = {}
    for m in re.finditer(rf"^\[(\d+), (\d+)\](?: total\s*)?:\s*paddle_compat\s+{_F} us\s+"
                         rf"raw autograd.Function\s+{_F} us", out, re.M):
        key = "pylayer_small" if m.group(1) == "2" else "pylayer_large"
        res[key + "_us"] = float(m.group(3))
        res[key + "_torch_us"] = float(m.group(4))
    for m in re.finditer(rf"^real Paddle [0-9.]+ \[(\d+), (\d+)\]:\s+{_F} us", out, re.M):
        key = "pylayer_small" if m.group(1) == "2" else "pylayer_large"
        res[key + "_paddle_us"] = float(m.group(3))
    return res


def parse_static(out):
    res = {}
    m = re.search(rf"Executor.run \(paddle_compat\):\s+{_F} us", out)
    if m:
        res["static_us"] = float(m.group(1))
    m = re.search(rf"eager torch, same math:\s+{_F} us", out)
    if m:
        res["static_torch_us"] = float(m.group(1))
    m = re.search(rf"real Paddle [0-9.]+ Executor:\s+{_F} us", out)
    if m:
        res["static_paddle_us"] = float(m.group(1))
    return res


def _to_us(v, unit):
    return float(v) * (1000.0 if unit == "ms" else 1.0)


def parse_rng(out):
    res = {}
    for m in re.finditer(rf"^randn\s+(float32|float64)\s+(\d+)\s+{_F} (us|ms)\s+{_F} (us|ms)",
                         out, re.M):
        if m.group(2) == "1000000":
            res[f"rng_randn_{m.group(1)}_us"] = _to_us(m.group(3), m.group(4))
            res[f"rng_randn_{m.group(1)}_torch_us"] = _to_us(m.group(5), m.group(6))
    return res


def parse_train(out):
    """bench_train: torch and paddle_compat us/step, and their ratio."""
    res = {}
    for key, label in (("train_torch_us", "torch"), ("train_us", "paddle_compat")):
        m = re.search(rf"^{label}\s+{_F} us/step", out, re.M)
        if m:
            res[key] = float(m.group(1))
    m = re.search(rf"^ratio\s+{_F}x", out, re.M)
    if m:
        res["train_ratio"] = float(m.group(1))
    return res


def parse_import(out):
    """bench_import: ms that importing paddle_compat adds to import torch, and nn's first use."""
    res = {}
    for key, label in (("import_ms", "import paddle_compat, over torch"),
                       ("import_nn_ms", "first use of paddle_compat.nn")):
        m = re.search(rf"^{re.escape(label)}:\s+{_F} ms", out, re.M)
        if m:
            res[key] = float(m.group(1))
    return res


SCRIPTS = [
    ("bench_import.py", [], parse_import),
    ("bench_core.py", [], parse_core),
    ("bench_ops.py", [], parse_ops),
    ("bench_pylayer.py", [], parse_pylayer),
    ("bench_static.py", [], parse_static),
    ("bench_rng.py", ["--repeat", "7"], parse_rng),
    ("bench_train.py", [], parse_train),
]

# ------------------------------------------------------------------ real Paddle snippets
#: Run with ``import paddle`` (real Paddle) and with ``import paddle_compat as paddle``: the
#: same code both sides. Prints ``name us`` lines.
PADDLE_SNIPPETS = r"""
import statistics, time
{import_line}
x = paddle.to_tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], dtype="float32")
y = paddle.to_tensor([[0.6, 0.5, 0.4], [0.3, 0.2, 0.1]], dtype="float32")
w = paddle.to_tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], dtype="float32")
cases = {{"tanh": lambda: paddle.tanh(x), "x + y": lambda: x + y, "x * 2.0": lambda: x * 2.0,
         "matmul": lambda: paddle.matmul(x, w), "sum": lambda: paddle.sum(x),
         "reshape": lambda: paddle.reshape(x, [3, 2])}}
def per_call(fn, n=3000, reps=9):
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        ts.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(ts)
for k, fn in cases.items():
    print("op", k, per_call(fn))
paddle.seed(2023)
def rnd():
    paddle.randn([1000000], dtype="float32")
print("randn1e6", per_call(rnd, 3, 7))
"""


def venv_python():
    return next((p for p in VENVS if os.path.exists(p)), None)


def run_snippet(python, import_line, env=None):
    code = PADDLE_SNIPPETS.format(import_line=import_line)
    p = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=900,
                       env=env)
    ops, rnd = {}, None
    for line in p.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["op"]:
            ops[" ".join(parts[1:-1])] = float(parts[-1])
        elif parts[:1] == ["randn1e6"]:
            rnd = float(parts[1])
    if not ops:
        print(f"  snippet failed with {python}: {p.stderr[-400:]}", file=sys.stderr)
    return ops, rnd


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        import torch
        tv = torch.__version__
        gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    except ImportError:
        tv, gpu = "?", None
    desc = f"{cpu}, {os.cpu_count()} CPUs, torch {tv}, Python {platform.python_version()}"
    return desc + (f", GPU {gpu}" if gpu else "")


def median_of(dicts):
    keys = sorted({k for d in dicts for k in d})
    out = {}
    for k in keys:
        vals = [d[k] for d in dicts if d.get(k) is not None]
        if vals:
            out[k] = statistics.median(vals)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="runs of each script (median kept)")
    ap.add_argument("--quick", action="store_true", help="pass --quick where scripts take it")
    ap.add_argument("--out", default=os.path.join(HERE, "perf_results.json"))
    ap.add_argument("--only", nargs="*", help="bench scripts to run (default: all present)")
    ap.add_argument("--merge", action="store_true",
                    help="update the results already in --out instead of starting afresh")
    ap.add_argument("--no-snippet", action="store_true",
                    help="skip the per-op / randn snippet (paddle_compat and real Paddle)")
    args = ap.parse_args(argv)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    results, raw = {}, {}
    if args.merge and os.path.exists(args.out):
        with open(args.out) as f:
            results = json.load(f)["results"]
    for script, extra, parse in SCRIPTS:
        path = os.path.join(HERE, script)
        if not os.path.exists(path) or (args.only and script not in args.only
                                        and script[:-3] not in args.only):
            continue
        if args.quick and script == "bench_pylayer.py":
            extra = extra + ["--quick"]
        runs = []
        for i in range(args.runs):
            print(f"{script} run {i + 1}/{args.runs} ...", flush=True)
            p = subprocess.run([sys.executable, path, *extra], capture_output=True, text=True,
                               cwd=ROOT, env=env, timeout=1800)
            if p.returncode != 0:
                print(f"  {script} failed: {p.stderr[-500:]}", file=sys.stderr)
                continue
            raw.setdefault(script, []).append(p.stdout)
            runs.append(parse(p.stdout))
        results.update(median_of(runs))
    # the same per-op / randn snippet on paddle_compat and, when installed, on real Paddle
    ours, theirs = [], []
    vpy = venv_python()
    for i in range(0 if args.no_snippet else args.runs):
        print(f"per-op snippet run {i + 1}/{args.runs} ...", flush=True)
        ops, rnd = run_snippet(sys.executable, "import paddle_compat as paddle", env)
        ours.append(dict({f"snip_{k}": v for k, v in ops.items()}, snip_randn=rnd))
        if vpy:
            ops, rnd = run_snippet(vpy, "import paddle", {k: v for k, v in os.environ.items()
                                                          if k != "PYTHONPATH"})
            theirs.append(dict({f"snip_{k}": v for k, v in ops.items()}, snip_randn=rnd))
    if ours:
        results["snippet_ours"] = median_of(ours)
    if theirs:
        results["snippet_paddle"] = median_of(theirs)
    doc = {"date": datetime.date.today().isoformat(), "machine": machine(), "runs": args.runs,
           "quick": args.quick, "paddle_venv": vpy, "results": results}
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(doc, indent=1, sort_keys=True))
    print(f"wrote {args.out}; now: python tools/perf_table.py --results {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
