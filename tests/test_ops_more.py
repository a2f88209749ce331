"""The ops of api_targets.tsv rows 301+ (diagonal/trace, complex views, histograms, scatter_nd,
index_add/fill, special functions, unfold/view/as_strided, kthvalue/mode, the in-place random
fills, autograd.jacobian/hessian, incubate.segment_*) against goldens recorded from Paddle
3.3.1 (tools/goldens/record_ops_more.py); the case format and the checks are test_ops_math's.
"""

import numpy as np
import pytest

import paddle_compat as paddle
from test_ops_math import run_case
import op_goldens as og

CASES = og.load_cases("ops_more.json")

# Case ids where we knowingly differ from Paddle 3.3.1 (checked in the tests below instead).
KNOWN = {
    "paddle.select_scatter[bad-index]": "Paddle writes out of bounds without a check; we raise",
    "paddle.scatter_nd_add[empty-index]": "Paddle 3.3.1 fails to broadcast x with the empty "
                                          "updates; an empty index adds nothing (we return x)",
    "paddle.masked_scatter[too-few]": "Paddle reads past the end of value (garbage); we raise",
    "paddle.histogramdd[edges]": "Paddle 3.3.1 refuses the documented list-of-Tensors bins",
    "paddle.log_normal[tensors]": "Paddle 3.3.1 crashes (SystemError) on float32 Tensor "
                                  "mean/std, which its docs allow",
    "paddle.Tensor.set_[stride-offset]": "Paddle's offset is in bytes; an offset that is no "
                                         "multiple of the element size reads misaligned data",
    "paddle.as_strided[offset]": "the same misaligned byte offset",
    "paddle.Tensor.set_[dtype-mismatch]": "reinterpreting another dtype's bytes: same values, "
                                          "but Paddle reads past the source for a wider dtype",
    "paddle.gammainc[f64-bcast]": "Paddle 3.3.1 reads garbage when x and y broadcast",
    "paddle.gammaincc[f64-bcast]": "Paddle 3.3.1 reads garbage when x and y broadcast",
}


# Cases whose values match Paddle 3.3.1 but whose gradients we compute differently on purpose.
GRAD_KNOWN = {
    "paddle.unfold[paddle.unfold(x, 0, 2, 1)]": "Paddle does not accumulate the gradient of "
                                                "overlapping windows (wrong); we do",
    "paddle.Tensor.unfold[x.unfold(0, 2, 1)]": "overlapping windows, as above",
    "paddle.unfold[3d-neg]": "overlapping windows, as above",
    "paddle.as_strided[view-offset]": "Paddle's backward counts the offset from the view, its "
                                      "forward from the memory start; we are consistent",
    "paddle.view[dtype-larger]": "a view as another dtype is not differentiable in torch",
    "paddle.kthvalue[0d]": "Paddle's gradient for a 0-d input is 1 whatever the upstream "
                           "gradient; ours passes it through",
    "paddle.mode[0d]": "as kthvalue[0d]",
    "paddle.i0e[f32]": "d i0e / dx at x = 0 (one-sided limits -1, +1): Paddle 1, torch 0",
    "paddle.i0e[special]": "d i0e / dx at x = 0, as above",
    "paddle.i1[special]": "gradient at a NaN input: Paddle NaN, torch finite",
    "paddle.i1e[special]": "gradient at a NaN input: Paddle NaN, torch finite",
    "paddle.frexp[special]": "gradient at +-inf: Paddle NaN, ours finite",
    "paddle.gammainc[zeros]": "d/dy at y = 0 with x = 1 (-1): torch NaN",
    "paddle.gammaincc[zeros]": "d/dy at y = 0 with x = 1 (1): torch NaN",
    "paddle.diagonal_scatter[paddle.diagonal_scatter(x, y)]": "Paddle 3.3.1 gives y no "
                                                              "gradient (wrong); we do",
    "paddle.diagonal_scatter[offset]": "no gradient for y in Paddle, as above",
    "paddle.diagonal_scatter[3d]": "no gradient for y in Paddle, as above",
    "paddle.Tensor.diagonal_scatter[x.diagonal_scatter(y, 0, 0, 1)]": "as above",
}


def _ids(cases):
    return [c["id"] for c in cases]


GOLDEN = [c for c in CASES if c["id"] not in KNOWN]


@pytest.mark.parametrize("case", GOLDEN, ids=_ids(GOLDEN))
def test_golden(case):
    run_case(dict(case, grads=None) if case["id"] in GRAD_KNOWN else case)


def test_known_differences_are_ours():
    """What we do instead of Paddle 3.3.1 in the KNOWN cases."""
    x = paddle.zeros([3, 4])
    with pytest.raises((IndexError, RuntimeError)):
        paddle.select_scatter(x, paddle.ones([4]), 0, 3)
    x = paddle.ones([2, 3])
    r = paddle.scatter_nd_add(x, paddle.zeros([0, 1], "int64"), paddle.zeros([0, 3]))
    np.testing.assert_array_equal(r.numpy(), x.numpy())
    with pytest.raises(ValueError):
        paddle.masked_scatter(x, paddle.ones([2, 3], "bool"), paddle.ones([2]))
    pts = paddle.to_tensor([[0.5, 0.5], [1.5, -0.5], [2.5, 0.5]])
    hist, edges = paddle.histogramdd(pts, bins=[paddle.to_tensor([0.0, 1.0, 3.0]),
                                                paddle.to_tensor([-1.0, 0.0, 1.0])])
    np.testing.assert_array_equal(hist.numpy(), [[0, 1], [1, 1]])
    assert [e.shape for e in edges] == [[3], [3]]
    paddle.seed(3)
    r = paddle.log_normal(paddle.zeros([3]), paddle.ones([3]))
    assert r.dtype == paddle.float32 and r.shape == [3] and bool((r > 0).all())
    with pytest.raises(NotImplementedError):
        paddle.as_strided(paddle.zeros([4], "float64"), [2], [1], 1)
    a = paddle.zeros([2])
    a.set_(paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64"))
    assert a.dtype == paddle.float32 and a.shape == [3]
    q = paddle.gammaincc(paddle.to_tensor([[1.0], [2.0]], dtype="float64"),
                         paddle.to_tensor([0.5, 1.0, 3.0], dtype="float64"))
    np.testing.assert_allclose(q.numpy()[0], np.exp(-np.array([0.5, 1.0, 3.0])), rtol=1e-12)


def test_gradients_paddle_gets_wrong():
    """Where GRAD_KNOWN says Paddle's gradient is wrong, ours is the true one."""
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    paddle.unfold(x, 0, 2, 1).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1, 2, 1])
    a = paddle.zeros([2, 2])
    a.stop_gradient = False
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (paddle.diagonal_scatter(a, y) * 3).sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [3, 3])
    np.testing.assert_array_equal(a.grad.numpy(), [[0, 3], [3, 0]])


def test_byte_offsets():
    """as_strided's and set_'s offsets count bytes from the start of the memory the tensor
    views (a slice's own offset does not count)."""
    x = paddle.arange(8).astype("float64")
    np.testing.assert_array_equal(paddle.as_strided(x, [3], [2], 8).numpy(), [1, 3, 5])
    y = paddle.zeros([1], "float64")
    y.set_(x[2:], [2, 2], [1, 2], 16)
    np.testing.assert_array_equal(y.numpy(), [[2, 4], [3, 5]])
    np.testing.assert_array_equal(paddle.as_strided(x[4:], [2], [1], 8).numpy(), [1, 2])


def test_views_share_memory():
    x = paddle.arange(6).astype("float32")
    v = paddle.view(x, [2, 3])
    u = x.unfold(0, 2, 2)
    s = paddle.as_strided(x, [3], [2])
    x.fill_(7.0)
    for t in (v, u, s):
        assert bool((t == 7.0).all())


def test_inplace_random_keep_identity_and_device_dtype():
    x = paddle.zeros([4, 5], "float64")
    for call in ("normal_", "uniform_", "exponential_", "log_normal_", "cauchy_",
                 "bernoulli_"):
        assert getattr(x, call)() is x
    assert x.geometric_(0.5) is x and x.dtype == paddle.float64
    w = paddle.zeros([3])
    w.stop_gradient = False
    with pytest.raises(ValueError, match="Leaf"):
        w.normal_()


def test_standard_gamma_and_binomial_statistics():
    """Not Paddle's stream (torch's generator): first moments and support."""
    paddle.seed(11)
    a = paddle.full([20000], 3.0)
    g = paddle.standard_gamma(a)
    assert g.dtype == paddle.float32 and g.shape == [20000]
    m, v = float(g.mean()), float(((g - g.mean()) ** 2).mean())
    assert abs(m - 3.0) < 0.1 and abs(v - 3.0) < 0.25
    n = paddle.full([20000], 10, "int64")
    p = paddle.full([20000], 0.3)
    b = paddle.binomial(n, p)
    assert b.dtype == paddle.int64
    bv = b.numpy()
    assert bv.min() >= 0 and bv.max() <= 10 and abs(bv.mean() - 3.0) < 0.1


def test_random_fill_statistics_float16():
    """float16 fills (Paddle draws them in float16 arithmetic we do not mirror): plausible
    values only."""
    paddle.seed(5)
    x = paddle.zeros([4000], "float16").exponential_(2.0)
    assert x.dtype == paddle.float16 and abs(float(x.astype("float32").mean()) - 0.5) < 0.05
    u = paddle.zeros([4000], "float16").uniform_(-1.0, 1.0)
    assert float(u.astype("float32").min()) >= -1 and float(u.astype("float32").max()) <= 1


def test_jacobian_lazy_rows_are_cached():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    J = paddle.autograd.jacobian(x * x, x)
    assert J.shape == [3, 3]
    r1 = J[1]
    np.testing.assert_allclose(r1.numpy(), [0, 4, 0])
    assert set(J._cache) == {1}
    np.testing.assert_allclose(J.numpy(), np.diag([2.0, 4.0, 6.0]))
    np.testing.assert_allclose((J + 1).numpy(), np.diag([2.0, 4.0, 6.0]) + 1)


def test_complex_roundtrip():
    re = paddle.to_tensor([1.0, -2.0])
    im = paddle.to_tensor([0.5, 3.0])
    c = paddle.complex(re, im)
    assert c.dtype == paddle.complex64
    np.testing.assert_array_equal(paddle.real(c).numpy(), re.numpy())
    np.testing.assert_array_equal(c.imag().numpy(), im.numpy())
    np.testing.assert_array_equal(paddle.as_complex(paddle.as_real(c)).numpy(), c.numpy())


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 9), s=st.integers(-12, 12), e=st.integers(-12, 12),
       step=st.integers(-4, 4).filter(lambda v: v != 0))
def test_strided_slice_matches_python_slicing(n, s, e, step):
    a = np.arange(n * 2).reshape(n, 2)
    got = paddle.strided_slice(paddle.to_tensor(a), [0], [s], [e], [step])
    np.testing.assert_array_equal(got.numpy(), a[s:e:step])


@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), data=st.data())
def test_reduce_as_matches_numpy(shape, data):
    """reduce_as sums x to any target shape that broadcasts to it."""
    target = [data.draw(st.sampled_from([d, 1])) for d in shape]
    drop = data.draw(st.integers(0, len(target) - 1))
    target = target[drop:]
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    got = paddle.reduce_as(paddle.to_tensor(a), paddle.zeros(target, "float64"))
    want = a.sum(axis=tuple(range(drop)))
    for i, d in enumerate(target):
        if d == 1 and want.shape[i] != 1:
            want = want.sum(axis=i, keepdims=True)
    assert got.shape == list(target)
    np.testing.assert_allclose(got.numpy(), want)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 6), m=st.integers(1, 6), k=st.integers(-8, 8), data=st.data())
def test_rot90_take_unfold_match_numpy(n, m, k, data):
    a = np.arange(n * m, dtype=np.float32).reshape(n, m)
    x = paddle.to_tensor(a)
    np.testing.assert_array_equal(paddle.rot90(x, k).numpy(), np.rot90(a, k))
    idx = np.array(data.draw(st.lists(st.integers(-n * m, n * m - 1), min_size=1, max_size=5)))
    np.testing.assert_array_equal(paddle.take(x, paddle.to_tensor(idx)).numpy(),
                                  np.take(a, idx))
    size = data.draw(st.integers(1, m))
    step = data.draw(st.integers(1, 3))
    got = paddle.unfold(x, 1, size, step).numpy()
    want = np.stack([a[:, i:i + size] for i in range(0, m - size + 1, step)], 1)
    np.testing.assert_array_equal(got, want)
