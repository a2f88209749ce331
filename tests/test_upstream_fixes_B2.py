"""Issue 31, legacy_test files slice B2: what Paddle's own test files needed from
paddle_compat, against Paddle 3.3.1 (tests/goldens/upstream_fixes_B2.json, recorded by
tools/goldens/record_upstream_fixes_B2.py):

- the op types OpTest appends by name (``selu``, ``top_k_v2``, ``multi_dot``,
  ``segment_pool``, ``unique_consecutive``, ``randperm``, ``one_hot_v2``, ``reverse``,
  ``multiplex``, ``mv``, ``pixel_shuffle``, ``maxout``, ``triangular_solve``,
  ``matrix_rank``, ``qr``, ``repeat_interleave``, ``sign``, ``real``/``imag``), run by the
  Executor;
- static Variables as arguments: random ops with a Variable shape, ``one_hot`` depth,
  ``topk`` k, segment ids, ``rrelu`` in a program, tensor arrays, a persistable
  ``create_var`` read from the Scope;
- the errors the files assert.

Each case's code runs here on paddle_compat, from a file as the recorder ran it, and must give
Paddle's value (floats to 1e-5) or error type.
"""
import os

import numpy as np
import pytest

import paddle_compat as paddle
from code_cases import check_case, load_cases, nested_close

HERE = os.path.dirname(__file__)
pytestmark = pytest.mark.usefixtures("paddle_hook")   # conftest: import paddle -> paddle_compat
CASES = load_cases("upstream_fixes_B2.json")


assert_close = nested_close(1e-5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "upstream_b2_")


def test_cases_are_the_recorders():
    """Every golden case is one the recorder writes (its body is in the recorder)."""
    with open(os.path.join(HERE, "..", "tools", "goldens",
                           "record_upstream_fixes_B2.py")) as f:
        src = f.read()
    for name, case in CASES.items():
        body = case["code"].split('x = np.array([[1.0, -2.0, 3.0], [-0.5, 0.25, 4.0]], '
                                  '"float32")\n')[-1]
        assert f'"{name}"' in src and body in src, name


def test_static_state_restored_after_a_failing_case():
    """A case that fails while a program is built leaves dynamic mode on."""
    assert paddle.in_dynamic_mode()


def test_array_read_of_variable_index_needs_a_value():
    """array_write's index must be known while the program is built: a fed Variable is
    refused with the static-mode error naming what was asked."""
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program()):
            arr = paddle.tensor.create_array("float32")
            i = paddle.static.data("i", [1], "int64")
            with pytest.raises(RuntimeError, match="concrete value"):
                paddle.tensor.array_write(paddle.ones([2]), i, arr)
    finally:
        paddle.disable_static()


def test_random_shape_variable_negative_dim_at_run_time():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            s = paddle.static.data("s", [2], "int64")
            r = paddle.uniform(s)
        exe = paddle.static.Executor(paddle.CPUPlace())
        with pytest.raises(RuntimeError, match="negative"):
            exe.run(main, feed={"s": np.array([2, -1])}, fetch_list=[r])
    finally:
        paddle.disable_static()
