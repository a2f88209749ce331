"""Behaviour the ecosystem libraries (issue 30, tools/ecosystem) rely on, against Paddle 3.3.1
(tests/goldens/ecosystem_fixes.json from tools/goldens/record_ecosystem_fixes.py). Each golden
case's code runs here on paddle_compat and must give Paddle's value or error type."""
import json
import os

import numpy as np
import pytest

import paddle_compat as paddle

GOLDEN = os.path.join(os.path.dirname(__file__), "goldens", "ecosystem_fixes.json")
with open(GOLDEN) as _f:
    CASES = json.load(_f)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    case = CASES[name]
    scope = {"paddle": paddle, "np": np}
    if "error" in case:
        with pytest.raises(Exception) as info:
            exec(case["code"], scope)
        assert type(info.value).__name__ == case["error"]
    else:
        exec(case["code"], scope)
        assert scope["out"] == case["value"]


def test_tensor_too_many_positionals_names_the_limit():
    with pytest.raises(TypeError, match="at most 6 positional"):
        paddle.Tensor(np.ones(2), paddle.CPUPlace(), True, False, "n", False, 1)
    with pytest.raises(TypeError, match="at most 5 positional"):
        paddle.Tensor(np.ones(2), "float32", None, True, "n", 1)


def test_tensor_own_positional_dtype_form_kept():
    t = paddle.Tensor(np.ones(2), "float32")
    assert t.dtype == paddle.float32 and t.stop_gradient
