"""Framework names of Paddle 3.3.1: LazyGuard, ir_guard, async_save, dense Tensor.rows, paddle.int."""
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


def test_ir_guard_builds_a_static_program_and_restores_the_mode():
    assert paddle.in_dynamic_mode()
    with paddle.ir_guard:
        assert not paddle.in_dynamic_mode()
    assert paddle.in_dynamic_mode()
    with pytest.raises(KeyError):
        with paddle.IrGuard():
            raise KeyError("x")
    assert paddle.in_dynamic_mode()
    paddle.enable_static()
    try:
        with paddle.IrGuard():
            assert not paddle.in_dynamic_mode()
        assert not paddle.in_dynamic_mode()         # entered in static mode: stays static
    finally:
        paddle.disable_static()


def test_async_save_writes_the_values_of_the_moment_it_was_called(tmp_path):
    emb = paddle.nn.Embedding(4, 3)
    want = emb.weight.numpy().copy()
    path = str(tmp_path / "emb.pdparams")
    paddle.async_save(emb.state_dict(), path)
    with paddle.no_grad():
        emb.weight.set_value(paddle.zeros([4, 3]))
    paddle.clear_async_save_task_queue()
    back = paddle.load(path)
    np.testing.assert_array_equal(back["weight"].numpy(), want)
    paddle.async_save(paddle.ones([2]), str(tmp_path / "t.pdtensor"), sync_other_task=True)
    paddle.clear_async_save_task_queue()
    np.testing.assert_array_equal(paddle.load(str(tmp_path / "t.pdtensor")).numpy(), [1.0, 1.0])
    with pytest.raises(TypeError, match="does not support this type"):
        paddle.async_save([1, 2], path)


def test_dense_tensor_rows_and_builtin_shadowing_dtype_names():
    with pytest.raises(SystemError, match="SelectedRows"):
        paddle.ones([2]).rows()
    assert (paddle.int, paddle.long, paddle.short) == (paddle.int32, paddle.int64, paddle.int16)
    assert (paddle.is_compiled_with_cinn(), paddle.is_compiled_with_distribute(),
            paddle.is_compiled_with_rocm()) == (False, True, False)
