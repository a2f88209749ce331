"""Record real Paddle's image datasets and image backend for tests/test_vision_datasets.py.

Run with the oracle interpreter (real Paddle installed there, never in the project; Flowers
needs scipy there, as Paddle reads .mat files with scipy.io):

    /work/paddle_venv/bin/python tools/goldens/record_vision_datasets.py

Builds the tiny dataset files of tests/vision_dataset_files.py in a temporary folder, runs its
CASES on them with real Paddle and writes tests/goldens/vision_datasets.json ({"cases": [{id,
code, out}]}: the test runs exactly the recorded code on files it builds the same way).
"""
import json
import os
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tests"))

import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

import golden_utils  # noqa: E402
import vision_dataset_files as vdf  # noqa: E402

OUT = os.path.join(ROOT, "tests", "goldens", "vision_datasets.json")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        results = vdf.run_cases(paddle, tmp, golden_utils.describe)
    cases = [{"id": cid, "code": code, "out": results[cid]} for cid, code in vdf.CASES]
    with open(OUT, "w") as f:
        json.dump({"paddle": paddle.__version__, "cases": cases}, f, indent=1)
        f.write("\n")
    print(f"wrote {len(cases)} cases to {OUT}")
    for c in cases:
        o = c["out"]
        if isinstance(o, dict) and "error" in o:
            print("  error:", c["id"], o["error"])


if __name__ == "__main__":
    main()
