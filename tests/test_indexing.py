"""``Tensor.__getitem__`` / ``__setitem__``: goldens recorded from Paddle 3.3.1 (the indexing
cases of tests/goldens/ops_manip.json) and property tests against numpy's semantics."""
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import paddle_compat as paddle
from test_ops_manip import case_params, run_case


@pytest.mark.parametrize("case", case_params(True))
def test_golden(case):
    run_case(case)


# ---------------------------------------------------------------------- numpy semantics
SHAPE = (3, 4, 5)


def _slice(n):
    bound = st.one_of(st.none(), st.integers(-n - 2, n + 2))
    step = st.one_of(st.none(), st.integers(-3, 3).filter(lambda s: s != 0))
    return st.builds(slice, bound, bound, step)


def _basic_part(n):
    return st.one_of(st.integers(-n, n - 1), _slice(n))


@st.composite
def basic_index(draw):
    """Ints, slices (any step), None and at most one Ellipsis: numpy and Paddle agree."""
    parts = [draw(_basic_part(n)) for n in SHAPE[:draw(st.integers(0, 3))]]
    for _ in range(draw(st.integers(0, 2))):
        parts.insert(draw(st.integers(0, len(parts))), None)
    if draw(st.booleans()) and len(parts) < 3:
        parts.insert(draw(st.integers(0, len(parts))), Ellipsis)
    return tuple(parts)


@st.composite
def advanced_index(draw):
    """Slices around one int array or bool mask (no ints, whose placement numpy treats
    differently from Paddle and torch)."""
    axis = draw(st.integers(0, 2))
    n = SHAPE[axis]
    if draw(st.booleans()):
        arr = np.array(draw(st.lists(st.integers(-n, n - 1), min_size=0, max_size=5)),
                       dtype=np.int64)
    else:
        arr = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    parts = [draw(_slice(SHAPE[d])) if d != axis else None for d in range(3)]
    kind = draw(st.sampled_from(["list", "numpy", "tensor"]))
    parts[axis] = {"list": arr.tolist(), "numpy": arr, "tensor": paddle.to_tensor(arr)}[kind]
    if kind == "list" and arr.dtype == np.int64 and len(arr) == 0:
        parts[axis] = arr
    np_parts = list(parts)
    np_parts[axis] = arr
    return tuple(parts), tuple(np_parts), (arr % n if arr.dtype != bool else arr)


A = np.arange(np.prod(SHAPE), dtype=np.float32).reshape(SHAPE)


@settings(max_examples=150, deadline=None)
@given(basic_index())
def test_getitem_basic_matches_numpy(idx):
    got = paddle.to_tensor(A)[idx]
    want = A[idx]
    assert list(got.shape) == list(want.shape)
    np.testing.assert_array_equal(got.numpy(), want)


@settings(max_examples=150, deadline=None)
@given(advanced_index())
def test_getitem_advanced_matches_numpy(case):
    idx, np_idx, _ = case
    got = paddle.to_tensor(A)[idx]
    want = A[np_idx]
    assert list(got.shape) == list(want.shape)
    np.testing.assert_array_equal(got.numpy(), want)


@settings(max_examples=150, deadline=None)
@given(basic_index(), st.floats(-10, 10, width=32))
def test_setitem_basic_matches_numpy(idx, value):
    x = paddle.to_tensor(A)
    x[idx] = value
    want = A.copy()
    want[idx] = value
    np.testing.assert_array_equal(x.numpy(), want)


@settings(max_examples=150, deadline=None)
@given(advanced_index())
def test_setitem_advanced_with_tensor_value_matches_numpy(case):
    idx, np_idx, arr = case
    if arr.dtype != bool and len(set(arr.tolist())) != arr.size:
        return          # repeated targets: which write wins is unspecified
    want = A.copy()
    shape = want[np_idx].shape
    value = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) * -1
    want[np_idx] = value
    x = paddle.to_tensor(A)
    x[idx] = paddle.to_tensor(value)
    np.testing.assert_array_equal(x.numpy(), want)


@settings(max_examples=60, deadline=None)
@given(basic_index())
def test_getitem_gradient_scatters_back(idx):
    a = paddle.to_tensor(A, stop_gradient=False)
    out = a[idx]
    (out * 2).sum().backward()
    want = np.zeros_like(A)
    np.add.at(want, idx, 2.0) if out.numel().item() else None
    np.testing.assert_array_equal(a.grad.numpy(), want)


# ---------------------------------------------------------------------- beyond the goldens
def test_negative_step_with_advanced_index_follows_numpy():
    """Paddle 3.3.1 segfaults on x[::-1, [1, 0]] and x[[1, 0], ::-2]; numpy's result is the
    documented one."""
    x = paddle.to_tensor(A)
    np.testing.assert_array_equal(x[::-1, [1, 0]].numpy(), A[::-1, [1, 0]])
    np.testing.assert_array_equal(x[[1, 0], ::-2].numpy(), A[[1, 0], ::-2])
    np.testing.assert_array_equal(x[1, ::-1, [0, 2]].numpy(), A[1, ::-1][:, [0, 2]])
    y = paddle.to_tensor(A)
    y[::-1, [1, 0]] = 0.0
    want = A.copy()
    want[::-1, [1, 0]] = 0.0
    np.testing.assert_array_equal(y.numpy(), want)


def test_setitem_gradients_on_an_intermediate():
    a = paddle.to_tensor(A, stop_gradient=False)
    v = paddle.to_tensor(np.ones(5, np.float32), stop_gradient=False)
    x = a * 1
    x[0, 1] = v * 2
    (x * 3).sum().backward()
    want = np.full(SHAPE, 3.0, np.float32)
    want[0, 1] = 0
    np.testing.assert_array_equal(a.grad.numpy(), want)
    np.testing.assert_array_equal(v.grad.numpy(), np.full(5, 6.0, np.float32))


def test_setitem_negative_step_on_noncontiguous_view():
    x = paddle.to_tensor(A)
    y = x.transpose([2, 1, 0])
    y[::-2, 1] = -1.0
    want = A.copy()
    want.transpose(2, 1, 0)[::-2, 1] = -1.0
    np.testing.assert_array_equal(x.numpy(), want)


def test_basic_indexing_returns_views_like_paddle():
    x = paddle.to_tensor(A)
    y = x[1]
    y[0, 0] = 100.0
    assert x[1, 0, 0].item() == 100.0


def test_indexing_keeps_raw_torch_speed_path():
    x = paddle.to_tensor(A)
    assert isinstance(x[0]._t, torch.Tensor) and x[0]._t._base is x._t
