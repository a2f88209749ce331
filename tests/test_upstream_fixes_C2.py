"""Issue 31, slice C (Paddle's autograd / PyLayer / hook / optimizer test files,
tools/upstream/table_C.txt): what those files needed from paddle_compat, against Paddle 3.3.1
(tests/goldens/upstream_fixes_C2.json from tools/goldens/record_upstream_fixes_C2.py). Each
case's code runs here on paddle_compat, from a file as the recorder ran it, and must give
Paddle's value (floats to 1e-5) or error type."""
import pytest

from code_cases import assert_recorded, check_case, load_cases, nested_close

CASES = load_cases("upstream_fixes_C2.json")

pytestmark = pytest.mark.usefixtures("paddle_hook")   # conftest: import paddle -> paddle_compat


assert_close = nested_close(1e-5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "upstream_C2_")


def test_cases_are_the_recorders():
    assert_recorded(CASES, "record_upstream_fixes_C2.py")
