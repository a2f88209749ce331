"""Record paddle.distribution on real Paddle into tests/goldens/distribution.json.

    /work/paddle_venv/bin/python tools/goldens/record_distribution.py

The cases live in tests/distribution_cases.py (shared with tests/test_distribution.py): values
of every family's methods, seeded draws and their shapes, rsample gradients, KL divergences,
transforms, and the exception types for bad arguments.
"""
import json
import os
import sys

import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import distribution_cases  # noqa: E402
import golden_utils  # noqa: E402

OUT = os.path.join(ROOT, "tests", "goldens", "distribution.json")

def main():
    paddle.set_device("cpu")
    out = {"paddle": paddle.__version__, "cases": {}}
    for case_id, code, kind in distribution_cases.cases():
        out["cases"][case_id] = {"kind": kind, "want": golden_utils.run_case(code, paddle)}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
    print(f"{len(out['cases'])} cases -> {OUT}")

if __name__ == "__main__":
    main()
