"""Fixes of issue 31's helper d2 (branch i31d2), against Paddle 3.3.1
(tests/goldens/upstream_fixes_i31d2.json from tools/goldens/record_upstream_fixes_i31d2.py):
static-mode shape ops whose shapes, axes, starts or sections are Variables (read when the
program runs, -1 in the static shape where unknown), split of an unknown dim, the op-type
registry's tensor slots of slice/reshape2/unsqueeze2/split and their kernel signatures,
``_C_ops.slice``, static ``gather_nd`` with a 1-d index, and a few argument checks. Each case's
code runs here on paddle_compat and must give Paddle's value (floats to 1e-4) or error type."""
import pytest

from code_cases import assert_recorded, check_case, load_cases, nested_close

CASES = load_cases("upstream_fixes_i31d2.json")
# the cases import Paddle's modules (paddle.base, paddle._C_ops) as the recorder did
pytestmark = pytest.mark.usefixtures("paddle_hook")

assert_close = nested_close(1e-4)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "upstream_i31d2_")


def test_cases_are_the_recorders():
    assert_recorded(CASES, "record_upstream_fixes_i31d2.py")
