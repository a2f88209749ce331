"""Tensor behaviour that goldens do not show: identity, zero-copy, thread-locality, devices."""
import threading

import numpy as np
import pytest
import torch

import paddle_compat as paddle


def test_stop_gradient_on_intermediate_rebinds_without_copy():
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * 2
    ptr = y._t.data_ptr()
    y.stop_gradient = True
    assert y._t.data_ptr() == ptr and y.stop_gradient and x.stop_gradient is False
    y.stop_gradient = False                  # now a fresh leaf
    assert y.is_leaf and not y.stop_gradient


def test_integer_tensor_can_not_stop_gradient():
    a = paddle.to_tensor([1, 2])
    a.stop_gradient = False
    assert a.stop_gradient is False
    a.stop_gradient = True
    assert a.stop_gradient is True


def test_second_backward_raises_and_never_crashes():
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    z = (paddle.tanh(x) * x).sum()
    z.backward()
    with pytest.raises(SystemError, match="retain_graph=True"):
        z.backward()
    assert torch.is_grad_enabled()


def test_grad_mode_is_thread_local():
    seen = []
    with paddle.no_grad():
        t = threading.Thread(target=lambda: seen.append(paddle.is_grad_enabled()))
        t.start()
        t.join()
        assert not paddle.is_grad_enabled()
    assert seen == [True] and paddle.is_grad_enabled()


def test_no_grad_restores_on_error():
    with pytest.raises(ZeroDivisionError):
        with paddle.no_grad():
            1 / 0
    assert paddle.is_grad_enabled()


def test_set_device_gpu_without_cuda_is_paddle_error():
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    before = paddle.get_device()
    with pytest.raises(ValueError, match="gpu"):
        paddle.set_device("gpu")
    with pytest.raises(ValueError):
        paddle.CUDAPlace(0)
    assert paddle.get_device() == before
    assert not paddle.is_compiled_with_cuda() and paddle.device.cuda.device_count() == 0


def test_bad_dtype_names_the_argument():
    with pytest.raises(TypeError, match="dtype"):
        paddle.zeros([2], "floatxx")
    with pytest.raises(ValueError, match="argument 'x'"):
        paddle.tanh([1.0])


def test_numpy_shares_nothing_surprising():
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    a = x.numpy()
    assert isinstance(a, np.ndarray) and a.dtype == np.float32


def test_name_and_persistable():
    x = paddle.to_tensor([1.])
    assert x.name.startswith("generated_tensor_") and x.name == x.name
    x.name = "w"
    x.persistable = True
    assert x.name == "w" and x.persistable


@pytest.mark.cuda
def test_cuda_tensor_prints_gpu_place_and_numpy_works():
    paddle.set_device("gpu")
    try:
        x = paddle.to_tensor([1., 2.])
        assert str(x.place) == "Place(gpu:0)"
        assert repr(x).startswith("Tensor(shape=[2], dtype=float32, place=Place(gpu:0)")
        assert x.numpy().tolist() == [1., 2.]
        y = paddle.to_tensor([1., 2.], stop_gradient=False)
        (y * y).sum().backward()
        assert y.grad.numpy().tolist() == [2., 4.]
        assert x.cpu().place == paddle.CPUPlace()
        paddle.device.synchronize()
    finally:
        paddle.set_device("cpu")
