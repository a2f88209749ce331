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


def load_cases():
    spec = importlib.util.spec_from_file_location("static_cases", CASES_FILE)
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


def run_one(name):
    import paddle
    mod = load_cases()
    record = {"values": []}
    paddle.enable_static()
    try:
        mod.CASES[name](paddle, lambda k, v: record["values"].append([k, encode(v)]))
    except Exception as e:      # noqa: BLE001 - the exception is the result
        record["error"] = list(mod.normalize_error(e))
    finally:
        paddle.disable_static()
    print("@@RECORD@@" + json.dumps(record))


def main():
    mod = load_cases()
    out = {}
    for name in mod.CASES:
        p = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True)
        line = [x for x in p.stdout.splitlines() if x.startswith("@@RECORD@@")]
        out[name] = json.loads(line[0][10:]) if line else {"crash": p.stderr[-500:]}
        print(name, "error" in out[name] and out[name]["error"] or "ok")
    with open(os.path.join(ROOT, "tests", "goldens", "static.json"), "w") as f:
        json.dump({"paddle": "3.3.1 (CPU, static mode = PIR)", "cases": out}, f, indent=1)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        run_one(sys.argv[1])
    else:
        main()
