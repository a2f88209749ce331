"""Behaviour PaddleScience (ppsci) and PGL rely on (issue 30, tools/ecosystem drivers
paddlesci and pgl), against Paddle 3.3.1 (tests/goldens/ecosystem_sci.json from
tools/goldens/record_ecosystem_sci.py): ``set_value`` after a tensor was used in a graph,
``paddle.jit.save`` of a forward on a dict/list of tensors. Each case's code runs here on
paddle_compat, from a file as the recorder ran it, and must give Paddle's value or error."""
import os

import numpy as np
import pytest

import paddle_compat as paddle
from code_cases import assert_recorded, check_case, load_cases

GOLDEN = os.path.join(os.path.dirname(__file__), "goldens", "ecosystem_sci.json")
CASES = load_cases("ecosystem_sci.json")


def _equal(got, want):
    assert got == want


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], _equal, "eco_sci_")


def test_cases_are_the_recorders():
    assert_recorded(CASES, "record_ecosystem_sci.py")


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
