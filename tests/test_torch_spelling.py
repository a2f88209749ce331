"""Paddle 3.3.1's torch-style spelling as the registry applies it (ops/spelling.py), and the
callable modules ``paddle.tensor`` / ``paddle.device``. Expected values were read from real
Paddle 3.3.1 (the wide workload is tests/test_torch_style.py; the alias table's goldens are
tests/test_aliases.py)."""
import pickle

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.ops import alias_table


def t(v, **kw):
    return paddle.to_tensor(v, **kw)


def test_aliases_sizes_and_extra_keywords():
    x = paddle.rand(3, 4)
    assert x.shape == [3, 4]
    assert paddle.sum(x, dim=1, keepdim=True).shape == [3, 1]
    assert paddle.cat([x, x], dim=0).shape == [6, 4]
    np.testing.assert_array_equal(paddle.add(input=x, other=x).numpy(), (x + x).numpy())
    assert x.reshape(4, 3).shape == [4, 3] and x.permute(1, 0).shape == [4, 3]
    z = paddle.zeros(2, 3, device="cpu", requires_grad=True)
    assert z.shape == [2, 3] and z.stop_gradient is False
    buf = paddle.empty([3])
    r = paddle.add(paddle.ones([3]), paddle.ones([3]), out=buf)
    assert r is buf and buf.numpy().tolist() == [2.0, 2.0, 2.0]


def test_both_spellings_given_raise_paddles_type():
    x = paddle.rand([2, 3])
    assert alias_table.BOTH_GIVEN["paddle.sum"] == "ValueError"
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and its alias 'dim'"):
        paddle.sum(x, axis=1, dim=1)
    assert alias_table.LAYER_BOTH_GIVEN["paddle.nn.LayerNorm"] == "TypeError"
    with pytest.raises(TypeError, match="multiple values for argument 'epsilon'"):
        paddle.nn.LayerNorm(4, eps=1e-3, epsilon=1e-5)
    with pytest.raises(ValueError, match="Cannot specify both 'x' and its alias 'input'"):
        paddle.sum(paddle.ones([2]), input=paddle.ones([2]))    # C++-parsed: positional too


def test_torch_argument_orders():
    y = t([[1.0, 2.0], [3.0, 4.0]])
    i = t([[0, 0], [1, 0]])
    assert paddle.gather(y, 1, i).numpy().tolist() == [[1.0, 1.0], [4.0, 3.0]]
    assert paddle.gather(input=y, dim=1, index=i).numpy().tolist() == [[1.0, 1.0], [4.0, 3.0]]
    src = t([[9.0, 8.0], [7.0, 6.0]])
    assert y.scatter(1, i, src).numpy().tolist() == [[8.0, 2.0], [6.0, 7.0]]
    assert paddle.scatter(y, 0, i, reduce="add", src=paddle.ones([2, 2])).numpy().tolist() == \
        [[2.0, 4.0], [4.0, 4.0]]
    assert paddle.index_select(y, 0, t([1])).numpy().tolist() == [[3.0, 4.0]]
    assert paddle.transpose(y, 0, 1).numpy().tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert y.transpose(dim0=0, dim1=1).numpy().tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert paddle.gather(y, t([1])).numpy().tolist() == [[3.0, 4.0]]       # Paddle's own order
    v, k = paddle.median(t([[1.0, 3.0, 2.0], [4.0, 6.0, 5.0]]), dim=1)
    assert v.numpy().tolist() == [2.0, 5.0] and k.numpy().tolist() == [2, 2]


def test_paddle3_keywords_of_arithmetic_and_statistics():
    x = t([1.0, 2.0, -3.5])
    y = t([2.0, 2.0, 2.0])
    assert paddle.add(x, y, alpha=2).numpy().tolist() == [5.0, 6.0, 0.5]
    assert paddle.add(t([1, 2]), t([3, 4]), alpha=2).numpy().tolist() == [7, 10]
    assert paddle.subtract(x, y, alpha=2).numpy().tolist() == [-3.0, -2.0, -7.5]
    assert paddle.divide(x, y, rounding_mode="trunc").numpy().tolist() == [0.0, 1.0, -1.0]
    assert paddle.divide(x, y, rounding_mode="floor").numpy().tolist() == [0.0, 1.0, -2.0]
    q = paddle.divide(t([7, -7]), t([2, 2]), rounding_mode="trunc")
    assert q.dtype == paddle.int64 and q.numpy().tolist() == [3, -3]
    with pytest.raises(ValueError, match="rounding_mode"):
        paddle.divide(x, y, rounding_mode="xx")
    a = t([1.0, 2.0])
    a.subtract_(t([1.0, 1.0]), alpha=3)
    assert a.numpy().tolist() == [-2.0, -1.0]
    b = t([7.0, -7.0])
    b.divide_(t([2.0, 2.0]), rounding_mode="floor")
    assert b.numpy().tolist() == [3.0, -4.0]
    s, v = t([1.0, 2.0, 2.0, 5.0]), t([2.0, 4.0])
    assert paddle.searchsorted(s, v, side="right").numpy().tolist() == [3, 3]
    assert paddle.searchsorted(s, v, side="left", right=True).numpy().tolist() == [3, 3]
    assert paddle.searchsorted(t([5.0, 1.0, 2.0]), v, sorter=t([1, 2, 0])).numpy().tolist() == \
        [1, 2]
    z = t([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]])
    np.testing.assert_allclose(paddle.var(z, correction=0).numpy(), 6.6666665, rtol=1e-6)
    np.testing.assert_allclose(paddle.var(z, axis=1, correction=2).numpy(),
                               [4.666667, 18.666668], rtol=1e-6)
    np.testing.assert_allclose(paddle.var(z, correction=1.5).numpy(), 8.888889, rtol=1e-6)
    np.testing.assert_allclose(paddle.var(z, unbiased=False, correction=1).numpy(), 6.6666665,
                               rtol=1e-6)


def test_tensor_size_is_an_int_and_callable():
    x = paddle.rand([2, 3])
    assert x.size == 6 and x.size + 1 == 7
    assert x.size() == [2, 3] and x.size(1) == 3 and x.size(dim=-1) == 3


def test_layer_constructor_keywords():
    assert paddle.nn.LayerNorm(4, eps=1e-3)._epsilon == 1e-3


def test_spelling_wrappers_keep_what_a_function_has():
    # one wrapper over the op module's function; pickling works (a FastOp pickles as that
    # function, a wrapper by its public name), with or without the C module
    fn = getattr(paddle.sum, "_impl", paddle.sum)
    assert fn.__wrapped__.__module__ == "paddle_compat.ops.reduction"
    assert fn.__name__ == "sum" and fn.__doc__ == fn.__wrapped__.__doc__
    back = pickle.loads(pickle.dumps(paddle.sum))
    assert back is paddle.sum or back is fn.__wrapped__
    g = getattr(paddle.gather, "_impl", paddle.gather)       # a FastOp with the C module
    assert pickle.loads(pickle.dumps(paddle.gather)) in (paddle.gather, g.__wrapped__)
    assert pickle.loads(pickle.dumps(paddle.nn.functional.softmax)) in (
        paddle.nn.functional.softmax, getattr(paddle.nn.functional.softmax, "_impl", None),
        getattr(getattr(paddle.nn.functional.softmax, "_impl", None), "__wrapped__", None))
    assert paddle.gather.__wrapped__(t([1.0, 2.0]), t([1])).numpy().tolist() == [2.0]


def test_paddle_tensor_is_callable_and_a_namespace():
    x = paddle.tensor([1.0, 2.0], requires_grad=True)
    assert x.stop_gradient is False and x.dtype == paddle.float32
    assert paddle.tensor(np.array([1, 2])).dtype == paddle.int64
    assert paddle.tensor(3).shape == [] and paddle.tensor(1.5).dtype == paddle.float32
    y = paddle.tensor(x)                    # a copy that stops gradient
    assert y is not x and y.stop_gradient is True
    y[0] = 5.0
    assert x.numpy().tolist() == [1.0, 2.0]
    assert paddle.tensor([1.5], dtype="float64").dtype == paddle.float64
    with pytest.raises(RuntimeError, match="Pinning memory"):
        paddle.tensor([1.0], pin_memory=True)
    assert paddle.tensor.sum is paddle.sum and paddle.tensor.math.sum is paddle.sum
    from paddle_compat.tensor.manipulation import reshape
    assert reshape is paddle.reshape


def test_paddle_device_is_callable():
    d = paddle.device("cpu")
    assert d == "cpu" and isinstance(d, str) and d.type == "cpu" and d.index is None
    assert paddle.device("cuda", 1) == "cuda:1" and paddle.device(0) == "cuda:0"
    assert paddle.device("gpu:1").type == "gpu"
    with pytest.raises(ValueError, match="Unsupported device type: npu"):
        paddle.device("npu")
    with pytest.raises(ValueError, match="Device type must be specified"):
        paddle.device(None, 1)
    with pytest.raises(TypeError, match="Unsupported type for Device"):
        paddle.device(1.5)
    before = paddle.get_device()
    with paddle.device("cpu"):
        assert paddle.get_device() == "cpu"
    assert paddle.get_device() == before
    assert paddle.zeros([2], device=paddle.device("cpu")).place.is_cpu_place()
