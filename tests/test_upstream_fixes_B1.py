"""Fixes for Paddle's own test files of issue 31's slice B1 (test/legacy_test test_add_n_op ...
test_lookup_table_v2_op; tools/upstream/table_B1.txt), against Paddle 3.3.1
(tests/goldens/upstream_fixes_B1.json from tools/goldens/record_upstream_fixes_B1.py):
operator types run by type through ``core.Operator`` (the op-type registry OpTest builds its
checks with), zero gradients of retained split parts nothing used, ``paddle.tensor.exponential_``,
``_C_ops.huber_loss``, ``int(dtype)``, ``grad_var_name``, Paddle's errors of ``diag`` and static
``broadcast_tensors``. Each case's code runs here on paddle_compat, from a file as the recorder
ran it, and must give Paddle's value (floats to 1e-4) or error type."""
import pytest

from code_cases import assert_recorded, check_case, load_cases, nested_close

CASES = load_cases("upstream_fixes_B1.json")
# the cases import Paddle's modules (paddle.base.core, paddle._C_ops) as the recorder did
pytestmark = pytest.mark.usefixtures("paddle_hook")


assert_close = nested_close(1e-4)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "upstream_b1_")


def test_cases_are_the_recorders():
    # the operator cases are the recorder's RUN_OP prelude (shared) followed by their own code
    own = {n: dict(c, code=c["code"].split(_PRELUDE_END)[-1]) for n, c in CASES.items()}
    assert_recorded(own, "record_upstream_fixes_B1.py")


_PRELUDE_END = 'x = np.array([[3., 1., 2.], [0.5, -1., 4.]], dtype="float32")\n'
