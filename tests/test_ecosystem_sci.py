"""Behaviour PaddleScience (ppsci) and PGL rely on (issue 30, tools/ecosystem drivers
paddlesci and pgl), against Paddle 3.3.1 (tests/goldens/ecosystem_sci.json from
tools/goldens/record_ecosystem_sci.py): ``set_value`` after a tensor was used in a graph,
``paddle.jit.save`` of a forward on a dict/list of tensors. Each case's code runs here on
paddle_compat, from a file as the recorder ran it, and must give Paddle's value or error."""
import json
import os

import numpy as np
import pytest

import paddle_compat as paddle

HERE = os.path.dirname(__file__)
GOLDEN = os.path.join(HERE, "goldens", "ecosystem_sci.json")
with open(GOLDEN) as _f:
    CASES = json.load(_f)

RECORDER = os.path.join(HERE, "..", "tools", "goldens", "record_ecosystem_sci.py")


def run_case(code):
    """The recorder's runner (a file per case, a fresh ``tmp``) with paddle_compat."""
    import runpy
    import tempfile
    tmp = tempfile.mkdtemp(prefix="eco_sci_")
    path = os.path.join(tmp, "case.py")
    with open(path, "w") as f:
        f.write(code)
    scope = runpy.run_path(path, init_globals={"paddle": paddle, "np": np, "os": os, "tmp": tmp})
    return scope["out"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    case = CASES[name]
    if "error" in case:
        with pytest.raises(Exception) as info:
            run_case(case["code"])
        assert type(info.value).__name__ == case["error"]
    else:
        assert run_case(case["code"]) == case["value"]


def test_cases_are_the_recorders():
    """The golden holds exactly the recorder's cases (a case added there is recorded)."""
    with open(RECORDER) as f:
        src = f.read()
    for name, case in CASES.items():
        assert f'"{name}"' in src and case["code"] in src


def test_set_value_keeps_autograd_identity_and_shape_check():
    w = paddle.create_parameter([2], "float32")
    before = w._t
    w.set_value(np.array([1.0, 2.0], "float32"))
    assert w._t is before and not w.stop_gradient
    with pytest.raises(ValueError, match="shape"):
        w.set_value(np.ones([3], "float32"))


def test_jit_save_spec_of_wrong_kind_names_it():
    class Net(paddle.nn.Layer):
        def forward(self, inp):
            return inp["x"]

    with pytest.raises(NotImplementedError, match="input_spec entry 0 holds str"):
        paddle.jit.save(Net(), os.path.join(os.path.dirname(GOLDEN), "_never", "n"),
                        input_spec=[{"x": "not a spec"}])
