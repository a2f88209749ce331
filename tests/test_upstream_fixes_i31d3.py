"""Fixes for Paddle's own test files of issue 31's helper d3 (test/legacy_test test_unbind_op,
test_unstack_op, test_lerp_op, test_index_select_op, test_flip, test_logcumsumexp_op,
test_label_smooth_op), against Paddle 3.3.1 (tests/goldens/upstream_fixes_i31d3.json from
tools/goldens/record_upstream_fixes_i31d3.py): the registered kernels OpTest's teardown reads
(no ``<op>_grad`` for ops whose gradient op is a forward op), complex ``scale`` and the complex
gradients through it, ``lerp_``'s broadcast error, ``_C_ops.logcumsumexp``, ``label_smooth``'s
kernel signature, the forward prim decomposition of unbind, lerp and index_select. Each case's
code runs here on paddle_compat, from a file as the recorder ran it, and must give Paddle's
value (floats to 1e-4) or error type."""
import numpy as np
import pytest

import paddle_compat as paddle
from code_cases import assert_recorded, check_case, load_cases, nested_close
from paddle_compat.compat.shims.base import core

CASES = load_cases("upstream_fixes_i31d3.json")
# the cases import Paddle's modules (paddle.base.core, paddle.decomposition) as the recorder did
pytestmark = pytest.mark.usefixtures("paddle_hook")


assert_close = nested_close(1e-4)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "upstream_i31d3_")


def test_cases_are_the_recorders():
    # the decompose cases are the recorder's DECOMPOSE prelude (shared) then their own code
    own = {n: dict(c, code=c["code"].split(_PRELUDE_END)[-1]) for n, c in CASES.items()}
    assert_recorded(own, "record_upstream_fixes_i31d3.py")


_PRELUDE_END = 'return [op in before, op in after, [np.round(v, 5).tolist() for v in vals]]\n'


def test_to_static_lowers_unbind_lerp_index_select_under_forward_prim():
    # Paddle's prim checker reads the op types of to_static's forward program (legacy IR)
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(3, 4) / 7)
    y = paddle.to_tensor(np.ones((3, 4), "float32"))
    w = paddle.to_tensor(np.array([0.2, 0.7, -0.6, 1.5], "float32"))
    i = paddle.to_tensor(np.array([3, 1], "int64"))
    cases = [("unbind", lambda a: paddle.unbind(a, 1), (x,)),
             ("lerp", paddle.lerp, (x, y, w)),
             ("index_select", lambda a, b: paddle.index_select(a, b, axis=1), (x, i))]
    for op, fn, args in cases:
        want = fn(*args)
        f = paddle.jit.to_static(fn, full_graph=True)
        core._set_prim_forward_enabled(True)
        try:
            prog = f.get_concrete_program(*args)[1].forward_program
            got = f(*args)
        finally:
            core._set_prim_forward_enabled(False)
        assert op not in [o.type for o in prog.block(0).ops]
        for g, v in zip(paddle.utils.flatten(got), paddle.utils.flatten(want)):
            np.testing.assert_allclose(g.numpy(), v.numpy(), rtol=1e-6, atol=1e-6)
