"""Fixes made while merging issue 31's third pass, against Paddle 3.3.1
(tests/goldens/upstream_fixes_merged.json from tools/goldens/record_upstream_fixes_merged.py):
``unique`` in a static program and the legacy ``unique`` op type (first-appearance order).
Each case's code runs here on paddle_compat, from a file as the recorder ran it, and must give
Paddle's value or error type."""
import pytest

from code_cases import assert_recorded, check_case, load_cases, nested_close

CASES = load_cases("upstream_fixes_merged.json")
pytestmark = pytest.mark.usefixtures("paddle_hook")

assert_close = nested_close(1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "upstream_merged_")


def test_cases_are_the_recorders():
    assert_recorded(CASES, "record_upstream_fixes_merged.py")
