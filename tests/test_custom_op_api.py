"""The breadth of the C++ extension API (paddle/extension.h over ATen): paddle::Tensor operators
and methods, paddle::experimental functions, PD_DISPATCH_* macros and the error macros.

The ops are in tests/custom_ops/tensor_api_ops.cc (one extension, compiled once per run and
cached under build/); every result is checked against the same computation in numpy.
"""
import os

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.utils import cpp_extension

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BUILD = os.environ.get("PADDLE_COMPAT_TEST_EXT_DIR", os.path.join(REPO, "build", "test_ext"))
SRC = os.path.join(HERE, "custom_ops", "tensor_api_ops.cc")


@pytest.fixture(scope="module")
def ops():
    return cpp_extension.load(name="pc_tensor_api_ops", sources=[SRC], build_directory=BUILD)


def t(a):
    return paddle.to_tensor(np.asarray(a))


def np_of(outs):
    if not isinstance(outs, (list, tuple)):
        outs = [outs]
    return [o.numpy() for o in outs]


def check(got, want, rtol=1e-6, atol=0.0, dtype=None):
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == (np.dtype(dtype) if dtype else want.dtype), (got.dtype, want.dtype)
    if got.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.fixture
def xy():
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, (3, 4)).astype("float32")
    y = rng.uniform(0.5, 2, (3, 4)).astype("float32")
    return x, y


def test_tensor_operators_and_math_methods(ops, xy):
    x, y = xy
    got = np_of(ops.api_arith(t(x), t(y)))
    f = np.float32
    want = [x + y, x - y, x * y, x / y, x + f(2.5), x - f(1), x * f(3), x / f(4), f(2) + x, f(1) - x,
            f(3) * x, f(2) / y, -x, y ** 2, y ** x, x + y, x - f(2), x * y, x / y, np.maximum(x, y),
            np.minimum(x, y), np.abs(x), np.exp(x), np.log(y), np.floor(x), x * f(2) + f(1),
            (x + f(1)) * f(2), y ** x]
    assert len(got) == len(want) == 28
    for k, (g, w) in enumerate(zip(got, want)):
        check(g, w.astype("float32"), rtol=1e-5, atol=1e-6)


def test_tensor_comparison_operators_give_bool(ops, xy):
    x, y = xy
    y = y.copy()
    y[0, :2] = x[0, :2]  # some equal elements
    got = np_of(ops.api_compare(t(x), t(y)))
    want = [x < y, x <= y, x == y, x != y, x > y, x >= y, x < y, x >= y]
    for g, w in zip(got, want):
        check(g, w)


def test_integer_operators_keep_int_dtype_and_truncate_division(ops):
    a = np.array([[7, -7, 12, 0], [5, -9, 3, 100]], dtype="int32")
    b = np.array([[2, 2, -5, 3], [-2, 4, 3, 7]], dtype="int32")
    got = np_of(ops.api_int_ops(t(a), t(b)))
    trunc = (np.trunc(a / b)).astype("int32")
    want = [a & b, a | b, a ^ b, ~a, trunc, a + 2, a * 3, ~a, np.mod(a, b), np.floor_divide(a, b),
            np.array(a.sum(), dtype="int64"), a.astype("float64")]
    for g, w in zip(got, want):
        check(g, w)


def test_experimental_functions(ops):
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, (4, 6)).astype("float32")
    got = np_of(ops.api_functions(t(x)))
    assert len(got) == 36
    z = np.zeros_like(x)
    exc_rev = np.flip(np.cumsum(np.flip(x, 1), 1), 1) - x  # exclusive, reverse
    sx = np.exp(x - x.max(-1, keepdims=True))
    want = {
        0: np.maximum(x, 0), 1: np.tanh(x), 2: 1 / (1 + np.exp(-x)), 3: np.sqrt(np.abs(x)),
        4: np.clip(x, -0.5, 0.5), 5: x.astype("float64"), 6: np.array(x.sum(), "float32"),
        7: x.sum(1, keepdims=True), 8: x.mean(0), 9: x.max(1), 10: np.array(x.min(), "float32"),
        11: x @ x.T, 12: x.T, 13: x.reshape(4, 2, 3), 14: np.concatenate([x, z], 1), 15: x[:, 2:5],
        16: x[1:3, 2:6], 17: np.where(x > 0, x, 0), 18: np.full((4, 6), 7, "int64"),
        19: np.full((2, 3), 1.5, "float64"), 20: np.ones(3, "int32"), 21: x * 0.5 - 1, 22: x ** 3,
        23: np.ones_like(x), 24: x[..., None], 25: np.stack([x, x], 2), 26: sx / sx.sum(-1, keepdims=True),
        27: exc_rev, 28: x.argmax(1).astype("int32"), 29: np.tril(x.T @ x, -1), 30: x[2:],
        31: x.reshape(2, 12), 32: np.zeros((2, 5), "int64"),
        33: np.log(np.exp(x).sum(1)), 34: np.prod(x, 0), 35: np.zeros((4, 6), bool),
    }
    for k, w in want.items():
        w = np.asarray(w)
        if w.dtype == np.float64 and k not in (5, 19):
            w = w.astype("float32")
        check(got[k], w, rtol=2e-5, atol=2e-6)


def test_indexing_functions(ops):
    x = np.arange(15, dtype="float32").reshape(5, 3) * np.float32(1.5) - 4
    x[2, 1] = 30.0
    i = np.array([3, 1], dtype="int64")
    j = np.array([[0, 2], [4, 1]], dtype="int64")
    got = np_of(ops.api_indexing(t(x), t(i), t(j)))
    assert len(got) == 18
    scat = x.copy()
    scat[i] = 100
    scat_nd = x.copy()
    scat_nd[0, 2] += 10
    scat_nd[4, 1] += 10
    order = np.argsort(-x, axis=1, kind="stable")[:, :2]
    one_hot = np.zeros((2, 6), "float32")
    one_hot[[0, 1], i] = 1
    want = [x[i], x[j[:, 0], j[:, 1]], scat, scat, scat_nd, np.roll(x, 1, 0),
            np.broadcast_to(x[:1], (4, 3)), np.tile(x, (1, 2)), x[i],
            np.take_along_axis(x, order, 1), order, np.argsort(-x, axis=0, kind="stable"),
            x[::-1, ::-1], one_hot, x[:, :1], x.max(0, keepdims=True), x.sum(0, dtype="float64"),
            x.T @ x]
    for k, (g, w) in enumerate(zip(got, want)):
        check(g, np.asarray(w), rtol=1e-5)


def test_tensor_handle_semantics(ops):
    x = np.arange(12, dtype="float32").reshape(3, 4)
    (got,) = np_of(ops.api_tensor_meta(t(x)))
    want = [12, 2, 4, 4, 1, 1, 1, 12, 0, 1, 1, 42, 0, -1, 0, 0, 0, 1, 42, 1, 2, 10, 34, 1, 212, 3, 1,
            2, 1, 1, 1, 10, 1, 1, 5, 25, 2, 4, 1]
    assert got.dtype == np.int64
    assert got.tolist() == want


DISPATCH = {
    "dispatch_float": (["float32", "float64"], ["int32", "float16", "complex64"]),
    "dispatch_float_half": (["float32", "float64", "float16", "bfloat16"], ["int64", "complex64"]),
    "dispatch_integral": (["int32", "int64", "int8", "uint8", "int16"], ["float32", "bool"]),
    "dispatch_complex": (["complex64", "complex128"], ["float32"]),
    "dispatch_float_int": (["float32", "float64", "int32", "int64", "int8", "uint8", "int16"],
                           ["float16", "complex64", "bool"]),
    "dispatch_float_complex": (["float32", "float64", "complex64", "complex128"], ["int32", "float16"]),
    "dispatch_float_complex2": (["float32", "float64", "complex64", "complex128", "float16", "int64"],
                                ["int32", "bfloat16"]),
    "dispatch_float_int_complex": (["float32", "float64", "int32", "int64", "int8", "uint8", "int16",
                                    "complex64", "complex128"], ["float16", "bool"]),
}


def _data(dtype):
    base = np.array([[1, -2, 3], [4, 5, -6]], dtype="float64")
    if dtype == "uint8":
        base = np.abs(base)
    if dtype.startswith("complex"):
        return (base + 1j * base[::-1]).astype(dtype)
    if dtype == "bool":
        return base > 0
    return base.astype(dtype)


@pytest.mark.parametrize("op", sorted(DISPATCH))
def test_dispatch_macros_cover_their_family(ops, op):
    ok, bad = DISPATCH[op]
    fn = getattr(ops, op)
    for dt in ok:
        x = paddle.to_tensor(_data("float32")).astype(dt) if dt == "bfloat16" else paddle.to_tensor(_data(dt))
        y = fn(x)
        assert str(y.dtype) == str(x.dtype)
        want = (x.astype("float64") if dt in ("float16", "bfloat16") else x).numpy() * 2
        got = (y.astype("float64") if dt in ("float16", "bfloat16") else y).numpy()
        np.testing.assert_array_equal(got, want.astype(got.dtype))
    for dt in bad:
        x = paddle.to_tensor(_data("float32")).astype(dt) if dt == "bfloat16" else paddle.to_tensor(_data(dt))
        with pytest.raises(OSError) as e:
            fn(x)
        msg = str(e.value)
        assert "times_two_kernel" in msg and "is not implemented for data type" in msg
        assert f"`{dt}`" in msg and "tensor_api_ops.cc" in msg


def test_complex_helpers(ops):
    z = (np.array([[1, -2], [3, 0.5]]) + 1j * np.array([[0.5, 2], [-1, 4]])).astype("complex64")
    got = np_of(ops.api_complex(t(z)))
    want = [np.conj(z), z.real, z.imag, z * 2, np.conj(z)]
    assert len(got) == 5
    for g, w in zip(got, want):
        check(g, w)


ERRORS = [
    (0, ValueError, ["(InvalidArgument) numel is 6, dtype float32", "Expected n == 1000",
                     "received 6 != 1000"]),
    (1, IndexError, ["(OutOfRange) index 6 out of range [0, 0)", "Expected n < 0", "received 6 >= 0"]),
    (2, NotImplementedError, ["(Unimplemented) mode two is not implemented"]),
    (3, OSError, ["Expected n < 0, but it's not satisfied", "PD_CHECK failed with n=6"]),
    (4, RuntimeError, ["(NotFound) no such key 'k'"]),
    (5, RuntimeError, ["(PreconditionNotMet) pointer is missing",
                       "static_cast<const float*>(nullptr) should not be null"]),
    (6, MemoryError, ["(ResourceExhausted) out of memory:  12.3 MB"]),
    (7, SystemError, ["(Fatal) fatal 7"]),
    (8, OSError, ["legacy message 6", "Expected n >= 1000", "received 6 < 1000"]),
    (9, OSError, ["(External) external lib"]),
    (10, RuntimeError, ["(AlreadyExists) exists", "Expected n != n", "received 6 == 6"]),
    (11, RuntimeError, ["(PermissionDenied) denied", "Expected n > 1000", "received 6 <= 1000"]),
    (12, RuntimeError, ["(Unavailable) unavailable", "Expected n <= 0", "received 6 > 0"]),
    (13, RuntimeError, ["(ExecutionTimeout) timeout"]),
    (14, ValueError, ["holds float32 data but T is int64"]),
    (15, OSError, ["plain PD_THROW 15"]),
]


@pytest.mark.parametrize("mode,exc,parts", ERRORS, ids=[str(e[0]) for e in ERRORS])
def test_error_macros_raise_the_mapped_python_exception(ops, mode, exc, parts):
    x = t(np.ones((2, 3), "float32"))
    with pytest.raises(exc) as e:
        ops.raise_error(x, mode)
    msg = str(e.value)
    for p in parts:
        assert p in msg, (p, msg)
    if mode != 14:  # raised inside the header, not at a line of the op's source
        assert "tensor_api_ops.cc" in msg


def test_no_error_mode_returns_input(ops):
    x = t(np.ones((2, 3), "float32"))
    np.testing.assert_array_equal(ops.raise_error(x, 99).numpy(), x.numpy())
