"""Fixes of issue 31's helper d6 (the errors Paddle's own test files assert, and small API
gaps), against Paddle 3.3.1 (tests/goldens/upstream_fixes_i31d6.json from
tools/goldens/record_upstream_fixes_i31d6.py). Each case's code runs here on paddle_compat, from
a file as the recorder ran it, and must give Paddle's value (floats to 1e-4) or error type."""
import pytest

from code_cases import assert_recorded, check_case, load_cases, nested_close

CASES = load_cases("upstream_fixes_i31d6.json")
pytestmark = pytest.mark.usefixtures("paddle_hook")

assert_close = nested_close(1e-4)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "upstream_i31d6_")


def test_cases_are_the_recorders():
    assert_recorded(CASES, "record_upstream_fixes_i31d6.py")
