"""Record the static-mode goldens of issue 31 from real Paddle: run with the Paddle
virtualenv's python.

    ../paddle_venv/bin/python tools/goldens/record_static_more.py

Runs every case of tests/static_more_cases.py (static_pylayer backward through creation-op
Variables, nn.Layer parameters in a static Program, grouped fetch lists, Variables as shapes
and axes) on real Paddle 3.3.1, each in a subprocess, and writes tests/goldens/static_more.json.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_static  # noqa: E402

CASES_FILE = os.path.join(record_static.ROOT, "tests", "static_more_cases.py")
OUT = os.path.join(record_static.ROOT, "tests", "goldens", "static_more.json")

if __name__ == "__main__":
    if len(sys.argv) > 1:
        record_static.run_one(sys.argv[1], CASES_FILE)
    else:
        record_static.record_all(__file__, CASES_FILE, OUT)
