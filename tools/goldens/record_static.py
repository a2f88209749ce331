"""Record static-mode goldens from real Paddle: run with the Paddle virtualenv's python.

    ../paddle_venv/bin/python tools/goldens/record_static.py

Runs every case of tests/static_cases.py on real Paddle 3.3.1 (static mode, PIR), each in a
subprocess, and the doc example of static_pylayer; writes tests/goldens/static.json.
"""
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES_FILE = os.path.join(ROOT, "tests", "static_cases.py")


def load_cases(path=CASES_FILE):
    sys.path.insert(0, os.path.dirname(path))       # a cases file may build on static_cases
    spec = importlib.util.spec_from_file_location(
        os.path.splitext(os.path.basename(path))[0], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def encode(v):
    if isinstance(v, np.ndarray):
        return {"array": v.tolist(), "dtype": str(v.dtype), "shape": list(v.shape)}
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    if isinstance(v, dict):
        return {k: encode(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, np.generic):
        return v.item()
    return repr(v)


def run_one(name, path=CASES_FILE):
    import paddle
    mod = load_cases(path)
    record = {"values": []}
    paddle.enable_static()
    try:
        mod.CASES[name](paddle, lambda k, v: record["values"].append([k, encode(v)]))
    except Exception as e:      # noqa: BLE001 - the exception is the result
        record["error"] = list(mod.normalize_error(e))
    finally:
        paddle.disable_static()
    print("@@RECORD@@" + json.dumps(record))


def record_all(script, cases_path, out_path):
    """Run every case of ``cases_path`` through ``script NAME`` (one subprocess each, which
    calls ``run_one``) and write the records to ``out_path``."""
    mod = load_cases(cases_path)
    out = {}
    for name in mod.CASES:
        p = subprocess.run([sys.executable, script, name], capture_output=True, text=True)
        line = [x for x in p.stdout.splitlines() if x.startswith("@@RECORD@@")]
        out[name] = json.loads(line[0][10:]) if line else {"crash": p.stderr[-500:]}
        print(name, "error" in out[name] and out[name]["error"] or "ok")
    with open(out_path, "w") as f:
        json.dump({"paddle": "3.3.1 (CPU, static mode = PIR)", "cases": out}, f, indent=1)


def main():
    record_all(__file__, CASES_FILE, os.path.join(ROOT, "tests", "goldens", "static.json"))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        run_one(sys.argv[1])
    else:
        main()
