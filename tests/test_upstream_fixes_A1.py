"""Fixes for issue 31's slice A1 of Paddle's test/legacy_test files (tools/upstream/table_A1.txt),
against Paddle 3.3.1 (tests/goldens/upstream_fixes_A1.json from
tools/goldens/record_upstream_fixes_A1.py): op types of Paddle's operator tests in the op-type
registry (their OpProto slots, attributes and kernel signatures; operators appended to an
old-IR Program), bfloat16 held in numpy as uint16 bits (dtype arguments, DenseTensor.set,
feeds and fetches of static programs), allclose's Tensor tolerances and static checks,
bincount in a static program. Each case's code runs here on paddle_compat, from a file as the
recorder ran it, and must give Paddle's value (floats to 1e-6) or error type."""
import pytest

from code_cases import assert_recorded, check_case, load_cases, nested_close

CASES = load_cases("upstream_fixes_A1.json")
pytestmark = pytest.mark.usefixtures("paddle_hook")   # the cases' ``from paddle.base import``


assert_close = nested_close(1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "upstream_A1_")


def test_cases_are_the_recorders():
    assert_recorded(CASES, "record_upstream_fixes_A1.py")
