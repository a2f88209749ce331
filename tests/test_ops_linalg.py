"""Linear algebra, ``paddle.fft`` and ``paddle.signal`` against goldens recorded from Paddle
3.3.1 (tools/goldens/record_ops_linalg.py; its docstring describes the case format).

Each case runs its ``code`` with paddle_compat bound to ``paddle`` and compares dtypes and
shapes exactly and values with a tolerance for the dtype, or the exception type; gradients are
those of sum(out * weight) with the recorded weights, taken through torch's autograd.
Factors unique only up to sign or phase (QR, SVD, eigenvectors) compare absolute values, and
randomised ones (svd_lowrank) only their singular values and reconstructions.
"""
import math
import os

import numpy as np
import pytest
import torch

import op_goldens as og
import paddle_compat as paddle
import paddle_compat.fft  # noqa: F401  (the lead adds these imports to the package itself)
import paddle_compat.linalg  # noqa: F401
import paddle_compat.signal  # noqa: F401

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = og.load_cases("ops_linalg.json")

# (rtol, atol) per dtype; decompositions and solvers go through different LAPACK code in
# Paddle and torch, so their float32 results agree to a few ulps of the condition number.
TOL = {"float16": (1e-2, 1e-2), "bfloat16": (2e-2, 2e-2), "float32": (1e-5, 1e-6),
       "float64": (1e-10, 1e-12), "complex64": (1e-5, 1e-6), "complex128": (1e-10, 1e-12)}
LAPACK_TOL = {"float32": (2e-4, 2e-5), "complex64": (2e-4, 2e-5),
              "float64": (1e-9, 1e-11), "complex128": (1e-9, 1e-11)}
LAPACK_APIS = ("paddle.linalg.", "paddle.inverse", "paddle.cholesky", "paddle.eigvalsh",
               "paddle.Tensor.", "paddle.signal.", "paddle.fft.")


def _array(spec):
    vals, dt = spec["values"], spec["dtype"]
    if dt.startswith("complex"):
        a = np.array([complex(*v) for v in vals], dtype=dt)
    elif dt == "bfloat16":
        a = np.array(vals, dtype="float32")
    else:
        a = np.array(vals, dtype=dt)
    return a.reshape(spec["shape"])


def _tensor(spec, grad):
    t = paddle.to_tensor(_array(spec), dtype=spec["dtype"])
    if grad:
        t.stop_gradient = False
    return t


def _numpy(t):
    tt = t._t.detach().resolve_conj()
    if tt.dtype is torch.bfloat16:
        tt = tt.float()
    return tt.numpy()


def _tol(case, dtype):
    if case["api"].startswith(LAPACK_APIS) and dtype in LAPACK_TOL:
        return LAPACK_TOL[dtype]
    return TOL.get(dtype, (0, 0))


def _close(case, got, want, dtype, what):
    if want.dtype.kind in "fc":
        rtol, atol = _tol(case, dtype)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


def _run(case):
    grad = case.get("grads") is not None
    env = {"paddle": paddle, "np": np, "math": math}
    env.update({k: _tensor(v, grad and k in case["grad"]) for k, v in case["inputs"].items()})
    exec(case["code"], env)
    return env, env["out"]


# Cases that exercise code outside this group (framework/tensor.py operators, dtype promotion).
@og.each_case(CASES)
def test_golden(case):
    exp = case["expected"]
    if "error" in exp:
        og.expect_error(exp["error"], lambda: _run(case))
        return
    env, out = _run(case)
    outs = list(out) if exp["tuple"] else [out]
    assert isinstance(out, (tuple, list)) == exp["tuple"]
    assert len(outs) == len(exp["outputs"])
    for i, (o, e) in enumerate(zip(outs, exp["outputs"])):
        assert isinstance(o, paddle.Tensor), type(o)
        assert str(o.dtype).replace("paddle.", "") == e["dtype"], f"output {i} dtype"
        assert list(o.shape) == e["shape"], f"output {i} shape"
        if e["cmp"] == "none":
            continue
        got, want = _numpy(o), _array(e)
        if e["cmp"] == "abs":
            got, want = np.abs(got), np.abs(want)
        elif e["cmp"] == "sorted":        # eigenvalues: LAPACK builds order them differently
            got, want = np.sort(got, axis=-1), np.sort(want, axis=-1)
        _close(case, got, want, e["dtype"], f"output {i}")
    if case.get("grads") is not None:
        _check_grads(case, env, outs)


def _check_grads(case, env, outs):
    loss = 0
    for o, w, wi in zip(outs, case["weights"], case["weights_imag"]):
        if w is None:
            continue
        t = o._t
        wt = torch.tensor(w, dtype=torch.float32).reshape(t.shape)
        if t.is_complex():
            wit = torch.tensor(wi, dtype=torch.float32).reshape(t.shape)
            loss = loss + (t.real.float() * wt).sum() + (t.imag.float() * wit).sum()
        else:
            loss = loss + (t * wt.to(t.dtype)).sum()

    def check(k, g, want):
        spec = dict(case["inputs"][k], values=want)
        _close(case, g.detach().resolve_conj().numpy(), _array(spec), spec["dtype"],
               f"grad of {k}")

    og.check_grads(loss, [(k, env[k]._t) for k in case["grad"]], case["grads"], check,
                   zero_fill=False)


# ---------------------------------------------------------------------- beyond the goldens
def test_linalg_namespace_and_methods():
    L = paddle.linalg
    for n in ("norm", "svd", "qr", "lu", "solve", "inv", "det", "cond", "pinv", "cov",
              "matrix_rank", "multi_dot", "eigh", "matmul", "vector_norm", "matrix_norm"):
        assert callable(getattr(L, n)), n
    for n in ("matmul", "bmm", "mm", "dot", "norm", "addmm_", "t_", "solve", "qr", "stft"):
        assert callable(getattr(paddle.Tensor, n)), n
    with pytest.raises(AttributeError):
        L.no_such_function


def test_not_tensor_raises_paddle_value_error():
    with pytest.raises(ValueError, match="argument 'x' \\(position 0\\) must be Tensor"):
        paddle.matmul([[1.0]], paddle.to_tensor([[1.0]]))
    with pytest.raises(ValueError, match="argument 'y' \\(position 1\\) must be Tensor"):
        paddle.dot(paddle.to_tensor([1.0]), [1.0])


def test_matmul_results_share_the_torch_graph():
    x = paddle.to_tensor(np.ones([2, 3], "float32"), stop_gradient=False)
    y = paddle.matmul(x, x, transpose_y=True)
    y.sum().backward() if hasattr(y, "sum") else y._t.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full([2, 3], 4.0))


def test_fftshift_follows_the_docs():
    # Paddle 3.3.1 fails (SystemError from roll) on 1-d input and explicit axes; its docs
    # promise numpy's fftshift, which we give.
    x = paddle.fft.fftfreq(5, d=0.3)
    np.testing.assert_allclose(paddle.fft.fftshift(x).numpy(),
                               np.fft.fftshift(np.fft.fftfreq(5, 0.3)), rtol=1e-6)
    y = paddle.to_tensor(np.arange(12.0).reshape(3, 4))
    np.testing.assert_array_equal(paddle.fft.ifftshift(y, axes=1).numpy(),
                                  np.fft.ifftshift(np.arange(12.0).reshape(3, 4), axes=1))


def test_stft_istft_roundtrip_random_lengths():
    rng = np.random.default_rng(0)
    for n in (40, 57, 100):
        x = paddle.to_tensor(rng.normal(size=n).astype("float32"))
        w = paddle.to_tensor(np.hanning(16).astype("float32") + 0.05)
        sp = paddle.signal.stft(x, 16, 4, window=w)
        back = paddle.signal.istft(sp, 16, 4, window=w, length=n)
        np.testing.assert_allclose(back.numpy(), x.numpy(), atol=1e-5)


# ---------------------------------------------------------------------- properties
from hypothesis import given, settings, strategies as st  # noqa: E402

_dims = st.integers(1, 4)


@st.composite
def _matmul_operands(draw):
    """Shapes for matmul: 1-d or n-d operands with broadcastable batch axes, and flags."""
    m, k, n = draw(_dims), draw(_dims), draw(_dims)
    batch = draw(st.lists(_dims, max_size=2))
    bx = [draw(st.sampled_from([d, 1])) for d in batch]
    by = [draw(st.sampled_from([d, 1])) for d in batch][draw(st.integers(0, len(batch))):]
    tx, ty = draw(st.booleans()), draw(st.booleans())
    sx = [k] if draw(st.booleans()) else bx + ([k, m] if tx else [m, k])
    sy = [k] if draw(st.booleans()) else by + ([n, k] if ty else [k, n])
    return sx, sy, tx, ty


@settings(max_examples=60, deadline=None)
@given(_matmul_operands(), st.integers(0, 2**31 - 1))
def test_matmul_matches_numpy(ops, seed):
    sx, sy, tx, ty = ops
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=sx), rng.normal(size=sy)
    want = np.matmul(np.swapaxes(a, -1, -2) if tx and a.ndim > 1 else a,
                     np.swapaxes(b, -1, -2) if ty and b.ndim > 1 else b)
    got = paddle.matmul(paddle.to_tensor(a), paddle.to_tensor(b), tx, ty)
    assert list(got.shape) == list(np.shape(want))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(_dims, min_size=1, max_size=4), st.integers(0, 3), st.integers(0, 2**31 - 1))
def test_tensordot_int_axes_matches_numpy(shape, n, seed):
    n = min(n, len(shape))
    rng = np.random.default_rng(seed)
    a = rng.normal(size=shape)
    b = rng.normal(size=shape[len(shape) - n:] + [2])
    got = paddle.tensordot(paddle.to_tensor(a), paddle.to_tensor(b), axes=n)
    np.testing.assert_allclose(got.numpy(), np.tensordot(a, b, n), rtol=1e-10, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(_dims, min_size=1, max_size=3), st.sampled_from([None, 0, -1, [0, -1]]),
       st.sampled_from([2.0, 1.0, 3.0, float("inf"), -float("inf"), 0.0]), st.booleans(),
       st.integers(0, 2**31 - 1))
def test_vector_norm_matches_numpy(shape, axis, p, keepdim, seed):
    a = np.random.default_rng(seed).normal(size=shape)
    ax = tuple(axis) if isinstance(axis, list) else axis
    if isinstance(ax, tuple) and len(shape) < 2:
        ax = 0
    red = np.abs(a)
    if p == float("inf"):
        want = red.max(axis=ax, keepdims=keepdim)
    elif p == -float("inf"):
        want = red.min(axis=ax, keepdims=keepdim)
    elif p == 0:
        want = (red != 0).sum(axis=ax, keepdims=keepdim).astype(float)
    else:
        # Paddle's p_norm kernel takes the root with float32(1 / p) (1/3 -> 0.33333334)
        want = (red ** p).sum(axis=ax, keepdims=keepdim) ** float(np.float32(1 / p))
    got = paddle.linalg.vector_norm(paddle.to_tensor(a), p=p, axis=ax, keepdim=keepdim)
    assert list(got.shape) == list(np.shape(want))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12)
