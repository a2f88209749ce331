"""Record tests/goldens/conformance.json from real Paddle 3.3.1: the cases of
tests/conformance_cases.py (issue 31: places, functions to inspect, default dtype of layer
parameters, PIR/prim switches, loss keywords, hooks, module names). Run with the Paddle
virtualenv's python:

    /work/paddle_venv/bin/python tools/goldens/record_conformance.py
"""
import json
import os
import sys

import paddle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from conformance_cases import run_all  # noqa: E402

out = run_all(paddle)
with open(os.path.join(ROOT, "tests", "goldens", "conformance.json"), "w") as f:
    json.dump({"paddle": paddle.__version__, "cases": out}, f, indent=1)
print("recorded", len(out))
