"""Record PyLayer goldens from real Paddle: run with the Paddle virtualenv's python.

    ../paddle_venv/bin/python tools/goldens/record_pylayer.py

Runs every case of tests/test_pylayer_cases.py on real Paddle (each in a subprocess, since some
Paddle 3.3.1 paths crash the process), and every example script of examples/pylayer_*.py with
``import paddle_compat as paddle`` replaced by ``import paddle``; writes
tests/goldens/pylayer.json and tests/goldens/examples/pylayer_*.txt.
"""
import importlib.util
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES_FILE = os.path.join(ROOT, "tests", "test_pylayer_cases.py")


def load_cases():
    spec = importlib.util.spec_from_file_location("pylayer_cases", CASES_FILE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def encode(v):
    import paddle
    if isinstance(v, paddle.Tensor):
        return {"tensor": v.numpy().tolist(), "dtype": str(v.dtype).replace("paddle.", ""),
                "shape": list(v.shape), "stop_gradient": bool(v.stop_gradient)}
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return repr(v)


def run_one(name):
    """Run one case in this process and print its record as JSON."""
    import paddle
    mod = load_cases()
    record = {"values": []}

    def rec(label, value):
        record["values"].append([label, encode(value)])
    try:
        mod.CASES[name](paddle, rec)
    except Exception as e:      # noqa: BLE001 - the exception is the result
        record["error"] = list(mod.normalize_error(e))
    print("@@JSON@@" + json.dumps(record))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        run_one(sys.argv[2])
        return
    import paddle
    mod = load_cases()
    out = {"paddle_version": paddle.__version__, "cases": {}}
    for name in mod.CASES:
        p = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True,
                           text=True, cwd=ROOT)
        line = [ln for ln in p.stdout.splitlines() if ln.startswith("@@JSON@@")]
        if p.returncode != 0 or not line:
            out["cases"][name] = {"crash": p.returncode, "values": []}
            print(f"{name}: CRASH rc={p.returncode}")
            continue
        out["cases"][name] = json.loads(line[0][len("@@JSON@@"):])
        print(f"{name}: {out['cases'][name].get('error', 'ok')}")
    with open(os.path.join(ROOT, "tests", "goldens", "pylayer.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    record_examples()


def record_examples():
    ex_dir = os.path.join(ROOT, "examples")
    gold = os.path.join(ROOT, "tests", "goldens", "examples")
    os.makedirs(gold, exist_ok=True)
    for fn in sorted(os.listdir(ex_dir)):
        if not (fn.startswith("pylayer_") and fn.endswith(".py")):
            continue
        src = open(os.path.join(ex_dir, fn)).read()
        src = src.replace("import paddle_compat as paddle", "import paddle")
        src = src.replace("from paddle_compat.", "from paddle.")
        p = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True,
                           cwd=ROOT)
        with open(os.path.join(gold, fn[:-3] + ".txt"), "w") as f:
            f.write(p.stdout)
        print(f"example {fn}: rc={p.returncode}")


if __name__ == "__main__":
    main()
