"""What PaddleSlim 2.6.0 and VisualDL 2.5.3 rely on (issue 30, tools/ecosystem), against Paddle
3.3.1 (tests/goldens/ecosystem_slim.json from tools/goldens/record_ecosystem_slim.py): each
golden case's code runs here with ``import paddle`` resolving to paddle_compat and must give
Paddle's values (float32 tolerance of its depth) or the built-in type of its error. Then what
differs on purpose: the 2.x ProgramDesc tools exist but refuse to be built."""
import json
import math
import os
import sys

import numpy as np
import pytest

import paddle_compat

sys.path.insert(0, os.path.dirname(__file__))
from golden_utils import DEPTH_TOL  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(__file__), "goldens", "ecosystem_slim.json")
with open(GOLDEN) as _f:
    CASES = json.load(_f)


pytestmark = pytest.mark.usefixtures("paddle_hook")   # conftest: import paddle -> paddle_compat


def _tol(depth):
    tol = DEPTH_TOL[depth]
    return tol if isinstance(tol, tuple) else (tol["rtol"], tol["atol"])


def close(got, want, rtol, atol, where="out"):
    """JSON-equal; floats within (rtol, atol); an int golden may come back as a float."""
    if isinstance(want, float) or (isinstance(want, int) and isinstance(got, float)
                                   and not isinstance(want, bool)):
        assert isinstance(got, (int, float)) and not isinstance(got, bool), (where, got, want)
        assert math.isclose(got, want, rel_tol=rtol, abs_tol=atol) or \
            (math.isnan(got) and math.isnan(want)), (where, got, want)
    elif isinstance(want, list):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), (where, got, want)
        for k, (g, w) in enumerate(zip(got, want)):
            close(g, w, rtol, atol, f"{where}[{k}]")
    elif isinstance(want, dict):
        got = {str(k): v for k, v in got.items()}
        assert sorted(got) == sorted(want), (where, sorted(got), sorted(want))
        for k in want:
            close(got[k], want[k], rtol, atol, f"{where}[{k!r}]")
    else:
        assert got == want, (where, got, want)


def builtin_type(e):
    return next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name])


def check_case(case):
    """Run a golden case's code on paddle_compat: Paddle's values or its error type."""
    import paddle  # noqa: PLC0415 - the hook's paddle (paddle_compat), for the case's code
    assert paddle is paddle_compat
    scope = {"paddle": paddle, "np": np}
    if "error" in case:
        with pytest.raises(Exception) as info:
            exec(case["code"], scope)
        assert builtin_type(info.value) == case["error"], info.value
    else:
        with np.errstate(over="ignore"):
            exec(case["code"], scope)
        close(scope["out"], case["value"], *_tol(case["depth"]))


def test_program_graph_tools_refuse_to_build():
    """The passes over Paddle 2.x ProgramDesc graphs (and IrGraph) exist for PaddleSlim's
    module-top imports; constructing one says why it cannot work here."""
    import paddle.static.quantization as q  # noqa: PLC0415
    from paddle.framework import IrGraph  # noqa: PLC0415
    for cls in (IrGraph, q.QuantizationTransformPass, q.PostTrainingQuantization,
                q.WeightQuantization, q.QuantWeightPass):
        with pytest.raises(NotImplementedError, match="ProgramDesc"):
            cls(None, for_test=True)
        assert cls.__name__ in repr(cls)


def test_quant_tensor_per_channel_writes_into_its_argument():
    """As Paddle's: per-channel scales quantize ``x`` in place (and return it)."""
    from paddle.static.quantization import utils  # noqa: PLC0415
    x = np.array([[1.0, -4.0], [0.5, 2.0]])
    out = utils.quant_tensor(x, [2.0, 4.0], quant_axis=0)
    assert out is x and x.tolist() == [[63.5, -127.0], [15.875, 63.5]]
