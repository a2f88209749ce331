"""Elementwise math, reductions, comparisons and statistics (ops.math, ops.logic, ops.stat)
against goldens recorded from Paddle 3.3.1 (tools/goldens/record_ops_math.py)."""

import numpy as np
import pytest

import op_goldens as og
import paddle_compat as paddle

CASES = og.load_cases("ops_math.json")

# (rtol, atol) per result dtype
TOLERANCE = {"float16": (2e-3, 2e-3), "bfloat16": (1.6e-2, 1e-2), "float32": (1e-5, 1e-6),
             "float64": (1e-7, 1e-9), "complex64": (1e-5, 1e-6), "complex128": (1e-7, 1e-9)}
# Gradients go through a few more roundings than values.
GRAD_TOLERANCE = {"float32": (1e-4, 1e-5), "float64": (1e-7, 1e-9)}

# Case ids where we knowingly differ from Paddle 3.3.1, with the reason (checked in
# test_known_differences below instead).
KNOWN = {
    # gradients at NaN/inf, or on ties, where Paddle's kernels pick differently than torch's
    "paddle.abs[f32-special]": "grad of abs at NaN/inf: Paddle x/|x| (NaN), torch sign(x)",
    "paddle.sign[f32-special]": "grad of sign at NaN: Paddle 0, torch passes NaN through where",
    "paddle.digamma[f32-special]": "grad of digamma at NaN/-inf",
    "paddle.logit[f32-special]": "grad of logit at +-inf",
    "paddle.maximum[f32-special]": "grad of maximum where an operand is NaN",
    "paddle.minimum[f32-special]": "grad of minimum where an operand is NaN",
    "paddle.cumprod[nan]": "grad of cumprod after a NaN",
    "paddle.median[nan]": "grad of median over a slice holding NaN",
    "paddle.median[nan-all]": "grad of median over a slice holding NaN",
    "paddle.quantile[nan]": "grad of quantile over a slice holding NaN",
    "paddle.nanmedian[ties]": "grad of nanmedian on tied values goes to another of the ties",
    # values out of the function's domain
    "paddle.erfinv[f32-special]": "erfinv(+-inf): Paddle +-inf, torch NaN (outside [-1, 1])",
    "paddle.erfinv[i32]": "erfinv outside [-1, 1]: Paddle +-inf, torch NaN",
    "paddle.erfinv[i64]": "erfinv outside [-1, 1]: Paddle +-inf, torch NaN",
    "paddle.sgn[f32-special]": "sgn(NaN): Paddle NaN, torch 0",
    "paddle.logaddexp[f32-special]": "logaddexp(-inf, -inf): Paddle NaN, torch -inf (right)",
    "paddle.logcumsumexp[nan]": "Paddle 3.3.1 skips NaN in logcumsumexp; we propagate it",
    # Paddle 3.3.1 failures that are no API contract
    "paddle.divide[bool]": "Paddle fails on bool / bool (integer division by zero)",
    "paddle.sum[tensor-axis]": "Paddle 3.3.1 crashes (SystemError) on a Tensor axis; we take it",
    "paddle.amax[f32-empty]": "Paddle returns uninitialised memory; we raise ValueError as max",
    "paddle.amax[f32-empty-axis0]": "Paddle returns uninitialised memory; we raise",
    "paddle.amin[f32-empty]": "Paddle returns uninitialised memory; we raise",
    "paddle.amin[f32-empty-axis0]": "Paddle returns uninitialised memory; we raise",
    "paddle.cast_[inplace]": "Paddle 3.3.1 cast_ refuses every tensor (leaf error); we cast",
    "paddle.Tensor.cast_[inplace]": "Paddle 3.3.1 cast_ refuses every tensor; we cast",
    "paddle.cast[alias]": "'float' means float64 in Paddle (numpy's meaning); framework.dtype "
                          "maps it to float32 (reported to the lead)",
    "paddle.logaddexp[lists]": "Paddle fails inside its Python code with a TypeError",
    # mixed dtypes that Paddle's CPU build sends to a missing kernel; we raise the mix error
    "paddle.heaviside[f32-bool]": "Paddle: missing bool kernel; we: dtype-mix ValueError",
    "paddle.hypot[f32-bool]": "Paddle: missing kernel; we: promotion TypeError",
    "paddle.hypot[bool-i32]": "Paddle: missing kernel; we: promotion TypeError",
    "paddle.gcd[bool-i32]": "Paddle: missing kernel; we: promotion TypeError",
    "paddle.lcm[bool-i32]": "Paddle: missing kernel; we: promotion TypeError",
    # gcd/lcm of floats: Paddle computes them, torch has no kernel
    "paddle.Tensor.gcd[x.gcd(y)]": "gcd of float tensors is not supported (torch has no kernel)",
    "paddle.gcd_[paddle.gcd_(x, y)]": "gcd of float tensors is not supported",
    "paddle.Tensor.lcm[x.lcm(y)]": "lcm of float tensors is not supported",
    "paddle.lcm_[paddle.lcm_(x, y)]": "lcm of float tensors is not supported",
}


def run_case(case):
    og.run_case(case, og.make_env(case), TOLERANCE, GRAD_TOLERANCE, allow_missing_kernel=True)


@pytest.mark.parametrize("case", [c for c in CASES if c["id"] not in KNOWN],
                         ids=[c["id"] for c in CASES if c["id"] not in KNOWN])
def test_golden(case):
    run_case(case)


def test_known_differences_are_ours():
    """What we do instead of Paddle 3.3.1 in the KNOWN cases that are Paddle faults."""
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert paddle.sum(x, axis=paddle.to_tensor([0])).tolist() == [5.0, 7.0, 9.0]
    c = paddle.to_tensor([1.5, 2.5])
    assert paddle.cast_(c, "float64") is c and c.dtype == paddle.float64
    with pytest.raises(ValueError):
        paddle.amax(paddle.zeros([0, 3]))
    r = paddle.logcumsumexp(paddle.to_tensor([1.0, float("nan"), 2.0]))
    assert np.isnan(r.numpy()[1:]).all()


def test_inplace_keeps_identity_and_autograd():
    a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    b = a * 1
    assert b.add_(paddle.ones([3])) is b and b.tanh_() is b
    b.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), 1 - np.tanh([2.0, 3.0, 4.0]) ** 2, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="Leaf"):
        a.exp_()


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(shape=st.lists(st.integers(0, 3), min_size=0, max_size=4), data=st.data())
def test_reduction_shapes_match_numpy(shape, data):
    """sum/mean/prod/amax/any over random axes (negative too) and keepdim: numpy's shapes and
    values (int32 sums to int64 as in Paddle)."""
    nd = len(shape)
    axes = data.draw(st.lists(st.integers(-nd, nd - 1), unique_by=lambda a: a % nd, max_size=nd)
                     if nd else st.just([]))
    keepdim = data.draw(st.booleans())
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape) % 5 - 2
    x = paddle.to_tensor(a)
    ax = tuple(axes) if axes else None
    for name, ref in (("sum", np.sum), ("prod", np.prod), ("any", np.any)):
        got = getattr(paddle, name)(x, axis=list(axes) or None, keepdim=keepdim)
        want = ref(a, axis=ax, keepdims=keepdim)
        assert list(got.shape) == list(np.shape(want))
        np.testing.assert_array_equal(got.numpy(), want)
    assert paddle.sum(x).dtype == paddle.int64
    f = paddle.to_tensor(a.astype(np.float32))
    got = paddle.mean(f, axis=list(axes) or None, keepdim=keepdim)
    with np.errstate(all="ignore"):
        want = np.mean(a.astype(np.float32), axis=ax, keepdims=keepdim)
    assert list(got.shape) == list(np.shape(want))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, equal_nan=True)


def test_conj_of_a_real_tensor_is_a_new_tensor():
    # as in Paddle 3.3.1: making the result need gradient leaves x alone (torch.conj of a
    # real tensor is that very tensor)
    x = paddle.to_tensor([[0.5, 1.5]])
    out = paddle.conj(x)
    out.stop_gradient = False
    paddle.sum(out).backward()
    assert x.grad is None and x.stop_gradient is True
    np.testing.assert_array_equal(out.numpy(), [[0.5, 1.5]])
    c = paddle.to_tensor([1 + 2j])
    assert paddle.conj(c).numpy().tolist() == [1 - 2j]
