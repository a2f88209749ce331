"""Golden cases written as code (``{name: {"code": ..., "value": ...} or {"code": ...,
"error": type name}}``), recorded on real Paddle by a ``tools/goldens/record_*.py`` script that
runs each case's code as a file leaving its result in ``out``: the same runner on paddle_compat,
the check of one case, and the check that the golden holds the recorder's cases."""
import json
import os
import sys

import numpy as np
import pytest

import paddle_compat as paddle

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools",
                                "goldens"))
import case_recorder as _recorder  # noqa: E402  (the recording side of these cases)

HERE = os.path.dirname(__file__)


def load_cases(golden):
    """The cases of ``tests/goldens/<golden>``."""
    with open(os.path.join(HERE, "goldens", golden)) as f:
        return json.load(f)


def run_case(code, prefix="case_"):
    """Run ``code`` as the recorder does (tools/goldens/case_recorder.py) on paddle_compat;
    its ``out``."""
    return _recorder.run_case(code, paddle, prefix)


def nested_close(tol):
    """A ``compare(got, want)`` for ``check_case``: nested lists, tuples and dicts equal, floats
    within ``tol`` (relative and absolute), NaN equal to NaN."""
    def compare(got, want, where="out"):
        if isinstance(want, dict):
            assert isinstance(got, dict) and sorted(got) == sorted(want), (where, got, want)
            for k in want:
                compare(got[k], want[k], f"{where}[{k!r}]")
        elif isinstance(want, (list, tuple)):
            assert isinstance(got, (list, tuple)) and len(got) == len(want), (where, got, want)
            for i, (g, w) in enumerate(zip(got, want)):
                compare(g, w, f"{where}[{i}]")
        elif isinstance(want, float) and not isinstance(got, bool):
            if np.isnan(want):
                assert np.isnan(got), (where, got, want)
            else:
                assert got == pytest.approx(want, rel=tol, abs=tol), (where, got, want)
        else:
            assert got == want, (where, got, want)
    return compare


def check_case(case, compare, prefix="case_"):
    """Paddle's error type, or Paddle's value by ``compare(got, want)``."""
    if "error" in case:
        with pytest.raises(Exception) as info:
            run_case(case["code"], prefix)
        assert type(info.value).__name__ == case["error"]
    else:
        compare(run_case(case["code"], prefix), case["value"])


def assert_recorded(cases, recorder):
    """The golden holds exactly the recorder's cases (a case added there is recorded)."""
    with open(os.path.join(HERE, "..", "tools", "goldens", recorder)) as f:
        src = f.read()
    for name, case in cases.items():
        assert f'"{name}"' in src and case["code"] in src
