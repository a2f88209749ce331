"""Record the core runtime's goldens from real Paddle: run with Paddle's virtualenv python.

    ../paddle_venv/bin/python tools/goldens/record_core.py

Writes tests/goldens/core.json: for each case in tests/cases_core.py, what real Paddle produced.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import paddle  # noqa: E402  (real Paddle: this script runs only in its virtualenv)
from cases_core import CASES  # noqa: E402
from golden_utils import run_case  # noqa: E402


def main():
    paddle.disable_static()
    out = {"paddle_version": paddle.__version__, "cases": {}}
    for cid, code in CASES:
        out["cases"][cid] = run_case(code, paddle)
    path = os.path.join(ROOT, "tests", "goldens", "core.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print(f"wrote {len(CASES)} cases to {path}")


if __name__ == "__main__":
    main()
