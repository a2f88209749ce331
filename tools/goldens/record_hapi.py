"""Record real Paddle's paddle.Model / callbacks / metric / summary / flops behaviour for
tests/test_hapi.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_hapi.py

The scenarios live in tests/hapi_scenarios.py, written against a ``paddle`` module passed in;
this runs each on real Paddle and writes tests/goldens/hapi.json ({scenario: its JSON result},
or {"error": [type, message]} where Paddle raised).
"""
import json
import os
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tests"))
import hapi_scenarios  # noqa: E402

OUT = os.path.join(ROOT, "tests", "goldens", "hapi.json")


def _int_of_one_element(self):
    """``int(t)`` of a one-element Tensor of any shape, as Paddle 3.3.1 gives it with the numpy
    it was released against: its ``__int__`` is ``int(np.array(t))``, which numpy >= 2.3 refuses
    for a shape-[1] array, and paddle.flops calls it on its [1]-shaped counters."""
    return int(np.array(self).reshape(-1)[0])


def main():
    paddle.set_device("cpu")
    paddle.Tensor.__int__ = _int_of_one_element
    out = {"paddle": paddle.__version__}
    for name, fn in hapi_scenarios.SCENARIOS.items():
        try:
            out[name] = fn(paddle)
        except Exception as e:  # noqa: BLE001  recorded, and reported here
            out[name] = {"error": [type(e).__name__, str(e)]}
            print(f"{name}: {type(e).__name__}: {e}", file=sys.stderr)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
