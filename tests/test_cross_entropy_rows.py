"""cross_entropy with the classes on the last axis of a >2-D input (a language model's
[batch, seq, vocab] logits) runs as rows of a 2-D [N, C] view (bench/bench_ecosystem.py: the
moved class axis cost a copy each way and a strided log-softmax). Values and gradients must
equal the same loss computed with the class axis at 1 and with numpy's formula."""
import numpy as np
import pytest

import paddle_compat as paddle
import paddle_compat.nn.functional as F

B, S, C = 3, 5, 7


def _data(seed=0):
    rng = np.random.RandomState(seed)
    x = rng.randn(B, S, C).astype("float32") * 3
    y = rng.randint(0, C, (B, S)).astype("int64")
    y[0, 0] = y[2, 4] = -100 if seed == 0 else 1
    return x, y


def _numpy_losses(x, y, ignore_index=-100, weight=None):
    z = x.astype(np.float64)
    logp = z - z.max(-1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(-1, keepdims=True))
    safe = np.where(y == ignore_index, 0, y)
    loss = -np.take_along_axis(logp, safe[..., None], -1)[..., 0]
    w = np.ones_like(loss) if weight is None else weight[safe]
    return np.where(y == ignore_index, 0.0, loss * w), np.where(y == ignore_index, 0.0, w)


def _run(x, y, axis, **kw):
    t = paddle.to_tensor(x, stop_gradient=False)
    loss = F.cross_entropy(t, paddle.to_tensor(y), axis=axis, **kw)
    (loss * loss).sum().backward()           # a non-uniform upstream gradient
    return loss.numpy(), t.grad.numpy()


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("trailing", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 1])
@pytest.mark.parametrize("weighted", [False, True])
def test_last_axis_matches_axis_1_and_formula(reduction, trailing, ignore_index, weighted):
    x, y = _data(0 if ignore_index == -100 else 1)
    weight = np.linspace(0.5, 2.0, C).astype("float32") if weighted else None
    kw = dict(reduction=reduction, ignore_index=ignore_index,
              weight=None if weight is None else paddle.to_tensor(weight))
    lab = y[..., None] if trailing else y
    loss, grad = _run(x, lab, -1, **kw)
    # the same loss with the classes at axis 1 (the moved-axis path)
    loss1, grad1 = _run(np.ascontiguousarray(x.transpose(0, 2, 1)),
                        np.ascontiguousarray(lab.transpose(0, 2, 1)) if trailing else y, 1, **kw)
    if reduction == "none":
        loss1 = loss1.transpose(0, 2, 1) if trailing else loss1
    np.testing.assert_allclose(loss, loss1, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grad, grad1.transpose(0, 2, 1), rtol=1e-5, atol=1e-6)
    per, w = _numpy_losses(x, y, ignore_index, weight)
    if reduction == "none":
        want = per[..., None] if trailing else per
        assert loss.shape == want.shape
    elif reduction == "sum":
        want = per.sum()
    elif weighted or ignore_index >= 0:
        want = per.sum() / w.sum()             # Paddle: the gathered weights / valid labels
    else:
        want = per.mean()                      # Paddle: every sample counts (ignored as 0)
    np.testing.assert_allclose(loss, want, rtol=1e-5, atol=1e-6)


def test_label_shape_mismatch_still_raises():
    x, y = _data()
    with pytest.raises(Exception):
        F.cross_entropy(paddle.to_tensor(x), paddle.to_tensor(y[:, :4]))
