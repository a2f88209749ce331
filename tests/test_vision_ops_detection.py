"""The detection ops of ``paddle.vision.ops`` (nms, matrix_nms, box_coder, prior_box, yolo_box,
yolo_loss, generate_proposals, distribute_fpn_proposals) against goldens recorded from Paddle
3.3.1 (tools/goldens/record_vision_ops_detection.py): values, index and rois_num outputs
exactly, yolo_loss's gradient w.r.t. x, exception types; plus the greedy suppression against a
plain one-box-at-a-time reference."""
import numpy as np
import pytest
import torch

import op_goldens as og
import paddle_compat as paddle
import paddle_compat.vision.ops as O
from paddle_compat.vision.ops import detection

CASES = og.load_cases("vision_ops_detection.json")

# one op each: float64 tight (the kernels' float attributes are rounded as Paddle rounds them),
# float32 at the single-op tier
TOLERANCE = {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-12)}
GRAD_TOLERANCE = {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-12)}

# Case ids where we knowingly differ from Paddle 3.3.1: id -> (what, reason).
KNOWN = {
    c["id"]: ("skip", "Paddle 3.3.1's float64 box_coder decode reads the variance list (C++ "
                      "floats) as doubles: garbage; test_box_coder_float64_decode_list_variance "
                      "checks the documented result")
    for c in CASES if c["api"].endswith("box_coder") and c["id"].startswith(
        "paddle.vision.ops.box_coder[float64 decode list")}
KNOWN["paddle.vision.ops.yolo_loss[shared cell]"] = (
    "forward", "two boxes on one cell and anchor: Paddle's backward keeps the gradient of the "
               "last box only while its forward adds both losses; ours is autograd's gradient "
               "of the loss (the values agree)")


# generate_proposals' boxes are pixel coordinates (up to ~60 here) made as differences of
# numbers that size: one float32 ulp there (3.8e-6) is above the op tier's atol, and the
# float32 spread (tools/float32_spread.py) moved them by 0.35 of it; atol 1e-5 is ~3 ulps
PIXEL_TOLERANCE = dict(TOLERANCE, float32=(1e-5, 1e-5))


def run_case(case, grads=True):
    tol = PIXEL_TOLERANCE if case["api"].endswith("generate_proposals") else TOLERANCE
    og.run_case(case, og.make_env(case, O=O), tol, GRAD_TOLERANCE, grads)


@og.each_case([c for c in CASES if c["id"] not in KNOWN])
def test_golden(case):
    run_case(case)


test_known_difference = og.known_difference_test(KNOWN, CASES, run_case)


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@og.each_case([c for c in CASES if c["id"] not in KNOWN and "error" not in c["expected"]])
def test_golden_cuda(case):
    """The same cases with every input on the GPU (values; CUDA's exp/log round differently,
    so float32 at the deep tier)."""
    env = og.make_env(case, O=O)
    for name in case["inputs"]:
        x = paddle.from_torch(env[name]._t.detach().cuda())
        x.stop_gradient = env[name].stop_gradient
        env[name] = x
    got = eval(case["call"], env)
    for t in og.tensor_outputs(got):
        assert t._t.is_cuda
    og.check_result(got, case["expected"], {"float32": (1e-4, 1e-5), "float64": (1e-10, 1e-10)})


def test_every_op_has_goldens():
    assert {c["api"].rsplit(".", 1)[1] for c in CASES} == set(detection.__all__)
    assert set(detection.__all__) <= set(O.__all__)


# ---------------------------------------------------------------------------- greedy NMS
def greedy_reference(iou, thr, eta=1.0):
    """One box at a time, as Paddle's kernels do."""
    kept, t = [], thr
    for i in range(iou.shape[0]):
        if all(not (iou[j, i] > t) for j in kept):
            kept.append(i)
            if eta < 1.0 and t > 0.5:
                t *= eta
    return kept


@pytest.mark.parametrize("n,spread,thr,eta,groups,limit", [
    (0, 10, 0.3, 1.0, 0, None), (1, 10, 0.3, 1.0, 0, None), (300, 5, 0.3, 1.0, 0, None),
    (700, 30, 0.5, 1.0, 0, None), (600, 20, 0.0, 1.0, 0, None), (520, 25, 0.9, 0.95, 0, None),
    (300, 10, 0.7, 0.5, 0, None), (900, 15, 0.4, 1.0, 5, None), (900, 15, 0.4, 1.0, 3, 100),
    (600, 10, 0.8, 0.9, 0, 50)])
def test_greedy_keep_matches_one_at_a_time(n, spread, thr, eta, groups, limit):
    g = torch.Generator().manual_seed(n + int(thr * 100))
    xy = torch.rand(n, 2, generator=g, dtype=torch.float64) * spread
    b = torch.cat([xy, xy + 0.5 + torch.rand(n, 2, generator=g, dtype=torch.float64) * 6], 1)
    iou = detection._iou_plain(b, b)
    gr = None
    if groups:
        gr = torch.randint(0, groups, (n,), generator=g)
        iou = iou.masked_fill(gr[:, None] != gr[None, :], float("nan"))
    got = detection._greedy_keep(b, detection._iou_plain, thr, eta, gr, limit).tolist()
    assert got == greedy_reference(iou.numpy(), thr, eta)[:limit]


def test_nms_kept_boxes_do_not_overlap():
    g = torch.Generator().manual_seed(3)
    xy = torch.rand(400, 2, generator=g) * 20
    b = torch.cat([xy, xy + 1 + torch.rand(400, 2, generator=g) * 5], 1)
    s = torch.rand(400, generator=g)
    keep = O.nms(paddle.to_tensor(b), 0.4, scores=paddle.to_tensor(s))
    assert keep.dtype == paddle.int64
    k = keep._t
    assert torch.all(s[k][:-1] >= s[k][1:])                      # sorted by score
    iou = detection._iou_plain(b[k], b[k])
    assert not (iou.triu(1) > 0.4).any()
    # every dropped box overlaps a kept box of higher score
    dropped = torch.ones(400, dtype=torch.bool)
    dropped[k] = False
    iou_all = detection._iou_plain(b, b)[k][:, dropped]
    higher = s[k][:, None] > s[dropped][None, :]
    assert ((iou_all > 0.4) & higher).any(0).all()


def test_yolo_loss_gradient_flows_to_x_only():
    g = torch.Generator().manual_seed(0)
    x = paddle.to_tensor(torch.randn(1, 14, 4, 4, generator=g))
    gb = paddle.to_tensor(torch.tensor([[[0.3, 0.4, 0.2, 0.3], [0.7, 0.8, 0.4, 0.2]]]))
    gl = paddle.to_tensor(torch.tensor([[0, 1]], dtype=torch.int32))
    x.stop_gradient = False
    gb.stop_gradient = False
    loss = O.yolo_loss(x, gb, gl, [10, 13, 30, 40], [0, 1], 2, 0.5, 8)
    assert not loss.stop_gradient and list(loss.shape) == [1]
    gx, ggb = paddle.grad(loss.sum(), [x, gb], allow_unused=True)
    assert gx is not None and ggb is None


def test_box_coder_and_detections_carry_no_gradient():
    p = paddle.to_tensor(np.array([[0.1, 0.1, 0.5, 0.6]]))
    t = paddle.to_tensor(np.array([[0.2, 0.1, 0.4, 0.7]]))
    p.stop_gradient = False
    t.stop_gradient = False
    assert O.box_coder(p, [0.1, 0.1, 0.2, 0.2], t).stop_gradient


@pytest.mark.parametrize("axis,normalized", [(0, True), (1, False)])
def test_box_coder_float64_decode_list_variance(axis, normalized):
    """As documented (and as Paddle's float32 kernel and its Tensor-variance path do): the
    list is the variance of every prior, held as float32 numbers."""
    g = torch.Generator().manual_seed(axis)
    xy = torch.rand(3, 2, generator=g, dtype=torch.float64) * 10
    p = paddle.to_tensor(torch.cat([xy, xy + 1 + torch.rand(3, 2, generator=g,
                                                            dtype=torch.float64)], 1))
    d = paddle.to_tensor(torch.rand(3, 3, 4, generator=g, dtype=torch.float64) - 0.5)
    var = [0.1, 0.2, 0.3, 0.4]
    vt = paddle.to_tensor(torch.tensor(var, dtype=torch.float32).double().expand(3, 4))
    got = O.box_coder(p, var, d, "decode_center_size", normalized, axis)
    want = O.box_coder(p, vt, d, "decode_center_size", normalized, axis)
    np.testing.assert_allclose(got._t.numpy(), want._t.numpy(), rtol=1e-15, atol=0)
    got32 = O.box_coder(p.astype("float32"), var, d.astype("float32"), "decode_center_size",
                        normalized, axis)
    np.testing.assert_allclose(got32._t.double().numpy(), got._t.numpy(), rtol=1e-5,
                               atol=1e-5)


@pytest.mark.parametrize("normalized", [True, False])
def test_jaccard_fast_path_matches_exact(normalized):
    """matrix_nms's cheaper overlaps (no inverted boxes) equal Paddle's rule, except 0/0 for
    two zero-area boxes apart (NaN for 0: the same decay)."""
    g = torch.Generator().manual_seed(7)
    xy = torch.rand(3, 60, 2, generator=g, dtype=torch.float64) * (1 if normalized else 30)
    wh = torch.rand(3, 60, 2, generator=g, dtype=torch.float64) * (0.3 if normalized else 9)
    wh[:, ::7] = 0                                               # zero-area boxes
    wh[:, 3::11, 0] = 0                                          # zero-width boxes
    b = torch.cat([xy, xy + wh], -1)
    exact = detection._jaccard(b, b, normalized)
    fast = detection._jaccard(b, b, normalized, exact=False)
    nan_for_zero = torch.isnan(fast) & (exact == 0)
    assert nan_for_zero.any() == normalized
    same = torch.where(nan_for_zero, exact, fast)
    np.testing.assert_array_equal(same.numpy(), exact.numpy())
