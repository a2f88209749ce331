"""Our kernels inside a static program compute what Paddle's do: ``F.linear`` rounds as a matmul
then an add (Paddle's custom-op suite compares its ``custom_linear`` with it bit for bit), and a
kernel that fills a ``*_like`` buffer in place (hard ``gumbel_softmax``) runs where the input
needs a gradient."""
import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat import static


def test_static_linear_rounds_as_matmul_then_add():
    # custom_linear (a matmul then an add, as Paddle's linear kernel) is compared bit for bit
    # with F.linear in a static program: ours must not fuse the two (torch's addmm rounds the
    # sum once), in a program as in eager mode
    # (the suite's shapes: x [3, 2], a weight of 0.5s, a bias of 1s; torch's addmm differs
    # from matmul + add in the last bit for most such x)
    x = np.random.default_rng(0).random((3, 2)).astype("float32")
    w = np.full([2, 4], 0.5, "float32")
    b = np.ones([4], "float32")
    want = (paddle.matmul(paddle.to_tensor(x), paddle.to_tensor(w)) + paddle.to_tensor(b)).numpy()
    eager = paddle.nn.functional.linear(paddle.to_tensor(x), paddle.to_tensor(w),
                                        paddle.to_tensor(b)).numpy()
    paddle.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main, static.Program()):
            xs = static.data("x", [3, 2], "float32")
            ws = static.data("w", [2, 4], "float32")
            bs = static.data("b", [4], "float32")
            out = paddle.nn.functional.linear(xs, ws, bs)
        got, = static.Executor().run(main, feed={"x": x, "w": w, "b": b}, fetch_list=[out])
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(eager, want)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("hard", [False, True])
def test_static_gumbel_softmax_gradient_runs(hard):
    # an op whose kernel fills a *_like buffer in place (hard gumbel_softmax's one-hot) in a
    # program whose input needs a gradient: the buffer is no gradient leaf (Paddle's OpTest
    # takes this gradient numerically and analytically)
    x = np.random.default_rng(1).random((4, 6))
    paddle.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main, static.Program()):
            xs = static.data("x", [4, 6], "float64")
            xs.stop_gradient = False
            y = paddle.nn.functional.gumbel_softmax(xs, hard=hard)
            g, = static.gradients([paddle.sum(y * y)], [xs])
        out, gx = static.Executor().run(main, feed={"x": x}, fetch_list=[y, g])
    finally:
        paddle.disable_static()
    assert gx.shape == (4, 6)
    np.testing.assert_allclose(out.sum(-1), np.ones(4), rtol=1e-12)
    if hard:
        assert set(np.unique(out)) <= {0.0, 1.0}
