"""paddle.nn.functional (activations, common layers, norms, losses) against goldens recorded
from Paddle 3.3.1 (tools/goldens/record_ops_nn.py), plus dropout's statistics."""

import numpy as np
import pytest
import torch

import op_goldens as og
import paddle_compat as paddle
import paddle_compat.nn.functional as F

CASES = og.load_cases("ops_nn.json")

TOLERANCE = {"float16": (2e-3, 2e-3), "bfloat16": (1.6e-2, 1e-2), "float32": (1e-5, 1e-6),
             "float64": (1e-7, 1e-9)}
GRAD_TOLERANCE = {"float32": (1e-4, 1e-5), "float64": (1e-7, 1e-9)}

# Case ids where we knowingly differ from Paddle 3.3.1: id -> (what we still check, reason).
# "forward": results are compared, gradients are not; "skip": nothing is compared here.
_FN = "paddle.nn.functional."
KNOWN = {
    _FN + "leaky_relu[edges:F.leaky_relu(x)]": (
        "forward", "at exactly x == 0 Paddle's gradient is 1, torch's fused leaky_relu gives "
                   "negative_slope; kept fused for speed"),
    _FN + "pad[tensor pad]": (
        "skip", "Paddle 3.3.1 fails on an int64 Tensor `pad` (concatenates it with int32 "
                "zeros) although its docs allow a Tensor; we follow the docs (the int32 cases "
                "pin the values)"),
    _FN + "batch_norm[(F.batch_norm(x, rm, rv, w, b, training=False, use_global_stats=False)"
          ", rm, rv)]": (
        "forward", "Paddle's backward in this mode normalises with the just-updated running "
                   "statistics instead of the batch statistics the forward used; ours is the "
                   "gradient of the forward"),
    _FN + "group_norm[F.group_norm(x, 2)]": (
        "forward", "Paddle 3.3.1's CPU group_norm backward without a weight is off by a "
                   "constant per group; ours is the analytic gradient"),
    _FN + "group_norm[F.group_norm(x, 1, epsilon=1e-5)]": (
        "forward", "same group_norm backward bug"),
}
for _red in ("mean", "sum", "none"):
    for _call in (f"F.cross_entropy(x, y, soft_label=True, reduction='{_red}')",
                  f"F.cross_entropy(x, y, soft_label=True, weight=w, reduction='{_red}')"):
        KNOWN[f"{_FN}cross_entropy[{_call}]"] = (
            "forward", "Paddle's soft-label gradient is softmax - label, right only when each "
                       "label sums to 1 (the 'normalized soft' cases); ours is the gradient of "
                       "the loss")
KNOWN[_FN + "softmax_with_cross_entropy[F.softmax_with_cross_entropy(x, y, soft_label=True)]"] = \
    KNOWN[f"{_FN}cross_entropy[F.cross_entropy(x, y, soft_label=True, reduction='mean')]"]


def run_case(case, grads=True):
    # a case's own (rtol, atol) "tol" holds for its values and gradients
    og.run_case(case, og.make_env(case, F=F), case.get("tol", TOLERANCE),
                case.get("tol", GRAD_TOLERANCE), grads)


@og.each_case([c for c in CASES if c["id"] not in KNOWN])
def test_golden(case):
    run_case(case)


test_known_difference = og.known_difference_test(KNOWN, CASES, run_case)


def test_rms_norm():
    torch.manual_seed(0)
    x = torch.randn(3, 4, 5, dtype=torch.float64)
    w = torch.randn(4, 5, dtype=torch.float64)
    out, invvar = F.rms_norm(paddle.to_tensor(x), [4, 5], paddle.to_tensor(w), 1e-6)
    inv = torch.rsqrt(x.float().pow(2).mean((1, 2)) + 1e-6)
    assert invvar.dtype == paddle.float32 and list(invvar.shape) == [3]
    torch.testing.assert_close(invvar._t, inv)
    torch.testing.assert_close(out._t, (x * inv.double()[:, None, None] * w))


def test_group_norm_gradient_is_analytic():
    x = torch.randn(2, 4, 3, dtype=torch.float64, requires_grad=True)
    px = paddle.to_tensor(x)
    px.stop_gradient = False
    assert torch.autograd.gradcheck(lambda t: F.group_norm(paddle.Tensor(t), 2)._t, (x,))


# ---------------------------------------------------------------------- dropout statistics
@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
def test_dropout_statistics(p):
    paddle.seed(2024)
    x = paddle.ones([200, 500])
    y = F.dropout(x, p)
    kept = (y._t != 0).double().mean().item()
    assert abs(kept - (1 - p)) < 4 * np.sqrt(p * (1 - p) / x._t.numel())
    # kept values are scaled by 1 / (1 - p) exactly as float32 computes it
    vals = torch.unique(y._t)
    assert vals.numel() == 2 and vals[0] == 0
    assert vals[1].item() == pytest.approx(1 / (1 - p), rel=1e-6)
    # the mean is preserved in expectation
    assert abs(y._t.mean().item() - 1) < 0.05


def test_dropout_is_seeded_and_advances():
    paddle.seed(3)
    a = F.dropout(paddle.ones([64]), 0.5)._t
    b = F.dropout(paddle.ones([64]), 0.5)._t
    paddle.seed(3)
    assert torch.equal(F.dropout(paddle.ones([64]), 0.5)._t, a)
    assert not torch.equal(a, b)


def test_dropout_exact_cases():
    x = paddle.to_tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert F.dropout(x, 0.0) is x
    assert torch.equal(F.dropout(x, 0.3, training=False)._t, x._t)
    assert torch.equal(F.dropout(x, 1.0)._t, torch.zeros(3, 4))
    assert torch.allclose(F.dropout(x, 0.25, training=False, mode="downscale_in_infer")._t,
                          x._t * 0.75)
    # channel dropout keeps or zeroes whole channels
    paddle.seed(1)
    y = F.dropout2d(paddle.ones([8, 16, 3, 3]), 0.5)._t
    per_channel = y.reshape(8, 16, 9)
    assert bool(((per_channel == 0).all(-1) | (per_channel == 2).all(-1)).all())


def test_dropout_gradient_is_mask_over_keep():
    paddle.seed(4)
    x = paddle.ones([50])
    x.stop_gradient = False
    y = F.dropout(x, 0.2)
    y.sum().backward()
    assert torch.equal(x.grad._t, (y._t != 0).float() / 0.8)


def test_inplace_leaf_error_and_methods():
    x = paddle.to_tensor([1.0, -2.0])
    x.stop_gradient = False
    with pytest.raises(ValueError, match="inplace strategy"):
        F.relu_(x)
    assert torch.equal(paddle.to_tensor([[1.0, 2.0]]).softmax()._t,
                       torch.softmax(torch.tensor([[1.0, 2.0]]), -1))
