"""The ops' hot paths (ops/creation.py, ops/manipulation.py, ops/math.py) give what their general
paths give: dtype, device, values and Paddle's errors, also where Paddle's or torch's global
defaults were changed (set_default_dtype, set_device, torch.set_default_dtype/_device)."""
import numpy as np
import pytest
import torch

import paddle_compat as paddle

CREATORS = [(paddle.zeros, 0.0), (paddle.ones, 1.0), (paddle.empty, None)]


@pytest.fixture
def torch_float64():
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(old)


@pytest.fixture
def paddle_float64():
    paddle.set_default_dtype("float64")
    yield
    paddle.set_default_dtype("float32")


def check(out, shape, dtype, value=None):
    assert isinstance(out, paddle.Tensor)
    assert out.shape == shape and out.dtype == dtype
    assert out._t.device.type == "cpu" and not out._t.requires_grad
    if value is not None:
        np.testing.assert_array_equal(out.numpy(), np.full(shape, value))


@pytest.mark.parametrize("fn,value", CREATORS)
def test_creators_default_dtype_and_shapes(fn, value):
    check(fn([2, 3]), [2, 3], paddle.float32, value)
    check(fn((2, 3)), [2, 3], paddle.float32, value)
    check(fn([4]), [4], paddle.float32, value)
    check(fn(4), [4], paddle.float32, value)
    check(fn([]), [], paddle.float32, value)
    check(fn([2, 0]), [2, 0], paddle.float32)
    check(fn([paddle.to_tensor(2), 3]), [2, 3], paddle.float32, value)
    check(fn(paddle.to_tensor([2, 3])), [2, 3], paddle.float32, value)
    check(fn([2, 3], "int32"), [2, 3], paddle.int32, value)
    check(fn([2, 3], dtype=paddle.float64), [2, 3], paddle.float64, value)


@pytest.mark.parametrize("fn,value", CREATORS)
def test_creators_follow_paddles_default_dtype(fn, value, paddle_float64):
    check(fn([2, 3]), [2, 3], paddle.float64, value)


@pytest.mark.parametrize("fn,value", CREATORS)
def test_creators_ignore_torchs_default_dtype(fn, value, torch_float64):
    check(fn([2, 3]), [2, 3], paddle.float32, value)


@pytest.mark.parametrize("fn,value", CREATORS)
def test_creators_with_both_defaults_float64(fn, value, torch_float64, paddle_float64):
    check(fn([2, 3]), [2, 3], paddle.float64, value)


@pytest.mark.parametrize("fn,value", CREATORS)
def test_creators_ignore_torchs_default_device(fn, value):
    torch.set_default_device("meta")
    try:
        check(fn([2, 3]), [2, 3], paddle.float32, value)
    finally:
        torch.set_default_device(None)
    with torch.device("meta"):
        check(fn([2, 3]), [2, 3], paddle.float32, value)
    check(fn([2, 3]), [2, 3], paddle.float32, value)


@pytest.mark.parametrize("fn,value", CREATORS)
def test_creators_after_set_device_cpu(fn, value):
    paddle.set_device("cpu")            # a new torch.device object for the current device
    check(fn([2, 3]), [2, 3], paddle.float32, value)


@pytest.mark.parametrize("api", ["zeros", "ones", "empty"])
@pytest.mark.parametrize("bad,name", [([2.0, 3], "float"), ([True, 3], "bool"),
                                      ([np.int64(2), 3], "int64"), ([[2, 3]], "list"),
                                      ([torch.tensor(2), 3], "Tensor")])
def test_creators_refuse_what_torch_would_take(api, bad, name):
    with pytest.raises(TypeError, match=rf"\(InvalidType\) {api}\(\): argument \(position 1\) "
                                        rf"must be list of int, but got {name} at pos 0"):
        getattr(paddle, api)(bad)


def test_creators_negative_dim_is_paddles_value_error():
    # real Paddle 3.3.1: ValueError "(InvalidArgument) Each value of attribute 'shape' ..."
    for fn in (paddle.zeros, paddle.ones, paddle.empty):
        with pytest.raises(ValueError, match="shape"):
            fn([-1, 3])
    with pytest.raises(ValueError, match="shape"):
        paddle.full([-1, 3], 1.0)


def test_full_dtypes(paddle_float64):
    check(paddle.full([2, 3], 1.5), [2, 3], paddle.float64, 1.5)
    check(paddle.full([2, 3], 2), [2, 3], paddle.float64, 2.0)
    check(paddle.full([2, 3], True), [2, 3], paddle.bool, True)
    check(paddle.full([2, 3], 7, "int32"), [2, 3], paddle.int32, 7)


def test_full_hot_path_defaults(torch_float64):
    check(paddle.full([2, 3], 1.5), [2, 3], paddle.float32, 1.5)
    check(paddle.full((2, 3), 1.5), [2, 3], paddle.float32, 1.5)
    check(paddle.full([2, 3], float("inf")), [2, 3], paddle.float32, np.inf)
    with torch.device("meta"):
        check(paddle.full([2, 3], 1.5), [2, 3], paddle.float32, 1.5)
    with pytest.raises(TypeError, match="must be list of int, but got float at pos 0"):
        paddle.full([2.0, 3], 1.5)
    with pytest.raises(TypeError, match="must be list of int, but got int64 at pos 1"):
        paddle.full([2, np.int64(3)], 1.5)


@pytest.mark.parametrize("api,value", [("zeros_like", 0), ("ones_like", 1), ("empty_like", None)])
def test_like_keeps_dtype(api, value):
    fn = getattr(paddle, api)
    for dt in ("float32", "float64", "int32", "bool"):
        x = paddle.ones([2, 3], dt)
        check(fn(x), [2, 3], x.dtype, None if value is None else np.array(value).astype(dt))
        check(fn(x, "int64"), [2, 3], paddle.int64, value)
    with pytest.raises(AttributeError, match=rf"{api}\(\): argument 'x' \(position 0\) must be "
                                             "Tensor, but got list"):
        fn([1, 2])


def test_full_like():
    f = paddle.ones([2, 3])
    check(paddle.full_like(f, 2.5), [2, 3], paddle.float32, 2.5)
    check(paddle.full_like(f, 2), [2, 3], paddle.float32, 2.0)
    i = paddle.ones([2, 3], "int64")
    check(paddle.full_like(i, 2.7), [2, 3], paddle.int64, 2)
    check(paddle.full_like(i, -2.7), [2, 3], paddle.int64, -2)
    check(paddle.full_like(i, 3), [2, 3], paddle.int64, 3)
    b = paddle.ones([2, 3], "bool")
    check(paddle.full_like(b, 0.5), [2, 3], paddle.bool, False)     # int(0.5) as in Paddle
    check(paddle.full_like(b, 2), [2, 3], paddle.bool, True)
    check(paddle.full_like(f, 3, "int32"), [2, 3], paddle.int32, 3)
    check(paddle.full_like(f, paddle.to_tensor(4.0)), [2, 3], paddle.float32, 4.0)


# ---------------------------------------------------------------------- manipulation
def test_concat_and_stack():
    x, y = paddle.ones([2, 3]), paddle.zeros([2, 3])
    assert paddle.concat([x, y]).shape == [4, 3]
    assert paddle.concat((x, y), axis=1).shape == [2, 6]
    assert paddle.concat([x, y], axis=-1).shape == [2, 6]
    assert paddle.concat([x, y], axis=paddle.to_tensor(1)).shape == [2, 6]
    assert paddle.concat([x, y], axis=paddle.to_tensor(0)).shape == [4, 3]
    assert paddle.stack([x, y]).shape == [2, 2, 3]
    assert paddle.stack([x, y], axis=1).shape == [2, 2, 3]
    assert paddle.stack([x, y], axis=-1).shape == [2, 3, 2]
    np.testing.assert_array_equal(paddle.stack([x, y], 1).numpy(),
                                  np.stack([x.numpy(), y.numpy()], 1))
    with pytest.raises(ValueError, match="InvalidArgument"):
        paddle.concat([x, y], axis=paddle.to_tensor([0, 1]))


@pytest.mark.parametrize("api", ["concat", "stack"])
def test_join_refuses_mixed_dtypes(api):
    x = paddle.ones([2, 3])
    with pytest.raises(ValueError, match=rf"\(InvalidArgument\) {api}\(\): the data_type of "
                                         "input tensor in list isn't consistent, the first tensor "
                                         "is float32, but 2th tensor is float64."):
        getattr(paddle, api)([x, x, paddle.ones([2, 3], "float64")])
    with pytest.raises(ValueError, match=rf"{api}\(\): argument 'x' \(position 0\) must be Tensor"):
        getattr(paddle, api)([x, paddle.ones([2, 3], "float64"), 1.0])


def test_split_forms():
    x = paddle.arange(12).reshape([2, 6])
    parts = paddle.split(x, 3, axis=1)
    assert [p.shape for p in parts] == [[2, 2]] * 3
    np.testing.assert_array_equal(parts[1].numpy(), x.numpy()[:, 2:4])
    assert [p.shape for p in paddle.split(x, [1, -1, 2], axis=-1)] == [[2, 1], [2, 3], [2, 2]]
    assert [p.shape for p in paddle.split(x, 2)] == [[1, 6], [1, 6]]
    assert [p.shape for p in paddle.split(paddle.zeros([0, 3]), 3)] == [[0, 3]]
    with pytest.raises(ValueError, match="evenly divisible"):
        paddle.split(x, 4, axis=1)
    with pytest.raises(ValueError, match="Sum of Attr"):
        paddle.split(x, [1, 2], axis=1)


def test_split_grad():
    x = paddle.ones([2, 6])
    x.stop_gradient = False
    a, b = paddle.split(x, 2, axis=1)
    (a * 2 + b).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.array([[2, 2, 2, 1, 1, 1]] * 2))


def test_flatten_squeeze_unsqueeze_expand():
    x = paddle.ones([2, 1, 3])
    assert x.flatten().shape == [6]
    assert paddle.flatten(paddle.to_tensor(1.0)).shape == [1]
    assert x.flatten(1).shape == [2, 3]
    assert x.squeeze().shape == [2, 3]
    assert x.squeeze(1).shape == [2, 3]
    assert x.squeeze(0).shape == [2, 1, 3]
    assert x.unsqueeze(0).shape == [1, 2, 1, 3]
    assert x.unsqueeze(-1).shape == [2, 1, 3, 1]
    assert x.unsqueeze([0, -1]).shape == [1, 2, 1, 3, 1]
    with pytest.raises(ValueError, match="InvalidArgument"):
        x.unsqueeze(5)
    assert paddle.broadcast_to(x, [4, 2, 5, 3]).shape == [4, 2, 5, 3]
    assert x.expand([-1, 4, -1]).shape == [2, 4, 3]
    assert x.expand([paddle.to_tensor(2), 4, 3]).shape == [2, 4, 3]
    with pytest.raises(ValueError, match="InvalidArgument"):
        x.expand([2, 4, 4])
    with pytest.raises(TypeError, match="must be list of int, but got float"):
        x.expand([2.0, 4, 3])


def test_reshape_zero_copies_the_input_dim():
    x = paddle.ones([2, 3, 4])
    assert paddle.reshape(x, [0, -1]).shape == [2, 12]
    assert x.reshape([0, 3, 0]).shape == [2, 3, 4]
    assert x.reshape(0, 12).shape == [2, 12]
    assert paddle.reshape(paddle.ones([3, 0]), [0, 0, 7]).shape == [3, 0, 7]


# ---------------------------------------------------------------------- math
def test_cast_copies_and_converts():
    x = paddle.to_tensor([1.5, -2.5])
    y = paddle.cast(x, "float64")
    assert y.dtype == paddle.float64 and y.numpy().tolist() == [1.5, -2.5]
    z = paddle.cast(x, "float32")
    assert z._t is not x._t and z._t.data_ptr() != x._t.data_ptr()
    assert paddle.cast(x, paddle.int32).numpy().tolist() == [1, -2]


def test_cumsum_forms():
    x = paddle.to_tensor([[1, 2], [3, 4]], "int32")
    assert x.cumsum(1).dtype == paddle.int64          # as the general path (torch's rule)
    assert paddle.cumsum(x, -1).numpy().tolist() == [[1, 3], [3, 7]]
    assert paddle.cumsum(x).numpy().tolist() == [1, 3, 6, 10]
    assert paddle.cumsum(x, 0, dtype="float64").dtype == paddle.float64
    assert paddle.cumsum(paddle.to_tensor(2.0), 0).shape == []
    with pytest.raises(IndexError, match=r"\(OutOfRange\) axis is out of range \(expected to be "
                                         r"in range of \[-2, 1\], but got 2\)"):
        paddle.cumsum(x, 2)


def test_arange_forms(torch_float64):
    check(paddle.arange(6), [6], paddle.int64)
    assert paddle.arange(2, 5).numpy().tolist() == [2, 3, 4]
    assert paddle.arange(3, 3).shape == [0]
    # real Paddle 3.3.1 gives an empty int64 tensor where torch raises (api_corpus)
    check(paddle.arange(-3), [0], paddle.int64)
    check(paddle.arange(5, 2), [0], paddle.int64)
    check(paddle.arange(6.0), [6], paddle.float32)          # torch's default is float64 here
    check(paddle.arange(0, 6, 1.0), [6], paddle.float32)
    check(paddle.arange(6, dtype="int32"), [6], paddle.int32)
    check(paddle.arange(paddle.to_tensor(3)), [3], paddle.int64)
    with torch.device("meta"):
        check(paddle.arange(6), [6], paddle.int64)
    with pytest.raises(ValueError, match="step must not be 0"):
        paddle.arange(0, 6, 0)


@pytest.mark.parametrize("defaults", ["", "torch_float64", "paddle_float64"])
def test_int_creation_forms(defaults, request):
    """f(int): arange, eye, zeros/ones/empty (a C form under the creation defaults)."""
    if defaults:
        request.getfixturevalue(defaults)
    fdt = paddle.float64 if defaults == "paddle_float64" else paddle.float32
    check(paddle.arange(5), [5], paddle.int64)
    assert paddle.arange(5).numpy().tolist() == [0, 1, 2, 3, 4]
    check(paddle.eye(3), [3, 3], fdt)
    np.testing.assert_array_equal(paddle.eye(3).numpy(), np.eye(3))
    check(paddle.eye(0), [0, 0], fdt)
    check(paddle.zeros(4), [4], fdt, 0.0)
    check(paddle.ones(0), [0], fdt)
    with torch.device("meta"):
        check(paddle.arange(5), [5], paddle.int64)
        check(paddle.eye(2), [2, 2], fdt)
        check(paddle.ones(3), [3], fdt, 1.0)
    with pytest.raises(TypeError, match="non-negative"):      # as real Paddle 3.3.1
        paddle.eye(-1)


def test_number_forms():
    """pow/scale/full_like with a Python number (a C form on float tensors)."""
    x = paddle.to_tensor([[1.5, -2.0, 0.5]])
    assert paddle.pow(x, 2.0).numpy().tolist() == [[2.25, 4.0, 0.25]]
    assert x.pow(2).numpy().tolist() == [[2.25, 4.0, 0.25]]
    assert paddle.pow(x, y=3).numpy().tolist() == [[3.375, -8.0, 0.125]]
    assert paddle.scale(x, 2.0).numpy().tolist() == [[3.0, -4.0, 1.0]]
    assert x.scale(scale=-1).numpy().tolist() == [[-1.5, 2.0, -0.5]]
    assert x.scale(2.0, 1.0).numpy().tolist() == [[4.0, -3.0, 2.0]]
    check(paddle.full_like(x, 2.5), [1, 3], paddle.float32, 2.5)
    check(paddle.full_like(x.astype("float16"), 3), [1, 3], paddle.float16, 3.0)
    i = x.astype("int32")
    assert paddle.pow(i, 2.0).dtype == paddle.int32 and i.scale(2.0).dtype == paddle.int32
    g = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    assert not paddle.pow(g, 2.0).stop_gradient and paddle.full_like(g, 1.0).stop_gradient
    with pytest.raises(ValueError, match=r"pow\(\): argument 'x' \(position 0\) must be Tensor"):
        paddle.pow([1.0], 2.0)


def test_where_forms():
    c = paddle.to_tensor([True, False, True])
    x, y = paddle.to_tensor([1.0, 2.0, 3.0]), paddle.to_tensor([4.0, 5.0, 6.0])
    assert paddle.where(c, x, y).numpy().tolist() == [1.0, 5.0, 3.0]
    ci = paddle.to_tensor([1, 0, 2])
    with pytest.raises(ValueError, match="boolean"):        # as real Paddle 3.3.1
        paddle.where(ci, x, y)
    assert paddle.where(c, x, 0.5).numpy().tolist() == [1.0, 0.5, 3.0]
    assert paddle.where(c, x, paddle.to_tensor([4.0, 5.0, 6.0], "float64")).dtype == paddle.float64
    with pytest.raises(TypeError, match="Type promotion only support"):
        paddle.where(c, x, paddle.to_tensor([4, 5, 6]))
    assert [i.numpy().tolist() for i in paddle.where(c)] == [[0, 2]]


@pytest.mark.parametrize("pure", [False, True])
def test_ops_take_a_parameter_as_a_tensor(pure):
    """Paddle's ops take a Parameter wherever they take a Tensor (``*_like`` included), on the
    C path and in the Python functions alike; the results are plain Tensors."""
    import paddle_compat.ops.creation as creation
    w = paddle.nn.Linear(2, 3).weight
    fns = ([creation.zeros_like, creation.ones_like, creation.empty_like] if pure else
           [paddle.zeros_like, paddle.ones_like, paddle.empty_like])
    for fn in fns:
        r = fn(w)
        assert type(r) is paddle.Tensor and r.stop_gradient and list(r.shape) == [2, 3]
    full = creation.full_like if pure else paddle.full_like
    assert full(w, 2.0)._t.eq(2.0).all() and type(full(w, 2.0)) is paddle.Tensor
