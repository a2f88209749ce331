"""Fixes of issue 31's helper d1 (branch i31d1) for Paddle's own test files of creation and
random ops (test_fill_constant_op, test_gaussian_random_op, test_randint_op, test_logspace,
test_linspace, test_affine_grid_op, test_empty_op, test_normal, test_exponential_op,
test_poisson_op), against Paddle 3.3.1 (tests/goldens/upstream_fixes_i31d1.json from
tools/goldens/record_upstream_fixes_i31d1.py): shapes and values given as static Variables
(ShapeTensor, ShapeTensorList, ValueTensor, a Variable num/start/out_shape/mean) read when the
program runs, the op types' optional tensor slots and kernel signatures, Paddle's static
argument errors, the exponential op type, seeded poisson draws (the C kernel's path). Each
case's code runs here on paddle_compat, from a file as the recorder ran it, and must give
Paddle's value (floats to 1e-4) or error type."""
import pytest

from code_cases import assert_recorded, check_case, load_cases, nested_close

CASES = load_cases("upstream_fixes_i31d1.json")
# the cases import Paddle's modules (paddle.base.core, paddle.base.framework) as the recorder did
pytestmark = pytest.mark.usefixtures("paddle_hook")

assert_close = nested_close(1e-4)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "upstream_i31d1_")


def test_cases_are_the_recorders():
    assert_recorded(CASES, "record_upstream_fixes_i31d1.py")
