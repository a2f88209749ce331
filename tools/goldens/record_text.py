"""Record real Paddle's paddle.text (viterbi_decode, ViterbiDecoder and the text datasets) for
tests/test_text.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_text.py

Builds the tiny dataset files of tests/text_dataset_files.py in a temporary folder, runs its
CASES with real Paddle and writes tests/goldens/text.json ({"cases": [{id, code, out}]}).
HOME points at a temporary folder while Paddle runs: Paddle's DATA_HOME (where WMT16 writes
its dictionaries) is then a throw-away ``$HOME/.cache/paddle/dataset``; its ``wmt16`` folder is
made first, which Paddle 3.3.1 needs and does not make itself.
"""
import json
import os
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tests"))
OUT = os.path.join(ROOT, "tests", "goldens", "text.json")


def main():
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as tmp:
        os.environ["HOME"] = home
        os.makedirs(os.path.join(home, ".cache", "paddle", "dataset", "wmt16"))
        import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

        import golden_utils
        import text_dataset_files as tdf
        results = tdf.run_cases(paddle, tmp, golden_utils.describe)
        cases = [{"id": cid, "code": code, "out": results[cid]} for cid, code in tdf.CASES]
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
