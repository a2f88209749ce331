"""Fixes of issue 31's helper d5, against Paddle 3.3.1 (tests/goldens/upstream_fixes_i31d5.json
from tools/goldens/record_upstream_fixes_i31d5.py): ``core.Scope`` variables holding
SelectedRows (``get_selected_rows``, ``core.SelectedRows``) and the operators run by type over
them (scale, clip_by_norm, fill_constant, lookup_table_v2, sgd, adagrad, adam lazy and not,
rmsprop), and the op types adam, rmsprop, hierarchical_sigmoid and matrix_nms. Each case's code
runs here on paddle_compat, from a file as the recorder ran it, and must give Paddle's value
(floats to 1e-4) or error type."""
import numpy as np
import pytest

from code_cases import assert_recorded, check_case, load_cases, nested_close

CASES = load_cases("upstream_fixes_i31d5.json")
# the cases import Paddle's modules (paddle.base.core) as the recorder did
pytestmark = pytest.mark.usefixtures("paddle_hook")


assert_close = nested_close(1e-4)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "upstream_i31d5_")


def test_cases_are_the_recorders():
    # the operator cases are the recorder's RUN_OP prelude (shared) followed by their own code
    own = {n: dict(c, code=c["code"].split(_PRELUDE_END)[-1]) for n, c in CASES.items()}
    assert_recorded(own, "record_upstream_fixes_i31d5.py")


_PRELUDE_END = 'p = np.arange(15, dtype="float32").reshape(5, 3) / 10\n'


def test_static_embedding_int8_ids_and_numpy_padding_idx():
    # Paddle 3.3.1 builds both (shapes [-1, 7, 3, 4] and [2, 2, 3], seen running it alone:
    # in the recorder's process it crashes, so this case has no recorded golden)
    import paddle_compat as paddle
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data(name="x", shape=[-1, 7, 3], dtype="int8")
            y = paddle.nn.Embedding(10, 4)(x)
            ids = paddle.static.data(name="ids", shape=[2, 2], dtype="int64")
            w = paddle.static.data(name="w", shape=[4, 3], dtype="float32")
            z = paddle.nn.functional.embedding(ids, w, padding_idx=np.int32(1))
        assert [list(y.shape), list(z.shape)] == [[-1, 7, 3, 4], [2, 2, 3]]
    finally:
        paddle.disable_static()
