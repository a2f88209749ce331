"""paddle.LazyGuard: parameters without values until param.initialize(), as in Paddle 3.3.1."""
import numpy as np
import pytest

import paddle_compat as paddle


def test_lazy_parameters_draw_at_initialize_what_eager_ones_draw():
    paddle.seed(1)
    eager = paddle.nn.Linear(3, 2)
    paddle.seed(1)
    with paddle.LazyGuard():
        lazy = paddle.nn.Linear(3, 2)
    assert not lazy.weight._is_initialized() and not lazy.bias._is_initialized()
    assert lazy.weight.shape == [3, 2] and lazy.weight.dtype == paddle.float32
    assert lazy.weight.stop_gradient is False
    assert str(lazy.weight) == "Parameter containing:\nTensor(Not initialized)"
    for p in lazy.parameters():
        p.initialize()
    assert lazy.weight._is_initialized()
    np.testing.assert_array_equal(lazy.weight.numpy(), eager.weight.numpy())
    np.testing.assert_array_equal(lazy.bias.numpy(), eager.bias.numpy())
    out = lazy(paddle.ones([1, 3]))
    out.sum().backward()
    assert lazy.weight.grad.shape == [3, 2]


def test_guard_ends_on_exit_also_after_an_error():
    with pytest.raises(ValueError):
        with paddle.LazyGuard():
            raise ValueError("boom")
    assert paddle.nn.Linear(2, 2).weight._is_initialized()


def test_errors_as_paddle():
    with paddle.LazyGuard():
        lin = paddle.nn.Linear(3, 2)
    with pytest.raises(RuntimeError):               # Paddle: no memory behind the tensor
        lin(paddle.ones([1, 3]))
    lin.weight.initialize()
    with pytest.raises(AssertionError, match="_init_func"):
        lin.weight.initialize()
    with pytest.raises(AssertionError):
        paddle.nn.Linear(2, 2).weight.initialize()
