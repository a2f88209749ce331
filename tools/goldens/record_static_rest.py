"""Record the goldens of the rest of paddle.static from real Paddle 3.3.1:

    ../paddle_venv/bin/python tools/goldens/record_static_rest.py

Runs every case of tests/static_rest_cases.py in its own subprocess (static mode; the cases
in ``LEGACY`` with ``FLAGS_enable_pir_api=0``, see that module) and writes
tests/goldens/static_rest.json: the recorded values, the parameters as initialised by
Paddle's startup program (``h.params``; the test copies them in), the text printed while a
``h.capture`` ran (the print op writes to the C++ stdout: captured at the file descriptor).
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES_FILE = os.path.join(ROOT, "tests", "static_rest_cases.py")


def load_cases():
    spec = importlib.util.spec_from_file_location("static_rest_cases", CASES_FILE)
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


class Harness:
    def __init__(self, paddle, record):
        self.paddle = paddle
        self.record = record

    def params(self, main):
        scope = self.paddle.static.global_scope()
        out = {}
        for p in main.all_parameters():
            out[p.name] = encode(np.array(scope.find_var(p.name).get_tensor()))
        self.record["params"] = out

    def capture(self, fn):
        sys.stdout.flush()
        with tempfile.TemporaryFile(mode="w+") as f:
            saved = os.dup(1)
            os.dup2(f.fileno(), 1)
            try:
                res = fn()
            finally:
                sys.stdout.flush()
                os.dup2(saved, 1)
                os.close(saved)
            f.seek(0)
            text = f.read()
        return res, text


def run_one(name):
    import warnings
    warnings.filterwarnings("ignore")
    import paddle
    mod = load_cases()
    record = {"values": []}
    h = Harness(paddle, record)
    paddle.enable_static()
    try:
        mod.CASES[name](paddle, lambda k, v: record["values"].append([k, encode(v)]), h)
    except Exception as e:      # noqa: BLE001 - the exception is the result
        record["error"] = list(mod.normalize_error(e))
    finally:
        paddle.disable_static()
    sys.stdout.flush()
    print("@@RECORD@@" + json.dumps(record), flush=True)


def main():
    mod = load_cases()
    out = {}
    names = sys.argv[2:] if len(sys.argv) > 2 and sys.argv[1] == "--only" else list(mod.CASES)
    path = os.path.join(ROOT, "tests", "goldens", "static_rest.json")
    if names != list(mod.CASES) and os.path.exists(path):
        with open(path) as f:
            out = json.load(f)["cases"]
    for name in names:
        env = dict(os.environ)
        env["GLOG_minloglevel"] = "3"
        if name in mod.LEGACY:
            env["FLAGS_enable_pir_api"] = "0"
        p = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True,
                           env=env)
        line = [x for x in p.stdout.splitlines() if x.startswith("@@RECORD@@")]
        out[name] = json.loads(line[0][10:]) if line else {"crash": p.stderr[-800:]}
        out[name]["legacy"] = name in mod.LEGACY
        print(name, out[name].get("error") or out[name].get("crash") or "ok")
    with open(path, "w") as f:
        json.dump({"paddle": "3.3.1 (CPU, static mode; LEGACY cases with "
                             "FLAGS_enable_pir_api=0)", "cases": out}, f, indent=None)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] != "--only":
        run_one(sys.argv[1])
    else:
        main()
