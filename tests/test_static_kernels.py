"""Our kernels inside a static program run as Paddle's do: a kernel that fills a ``*_like``
buffer in place (hard ``gumbel_softmax``) runs where the input needs a gradient."""
import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat import static


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
