"""PaddleDetection's detection kernels on paddle_compat (issue 30, the paddledet driver of
tools/ecosystem) against Paddle 3.3.1: ``paddle._legacy_C_ops`` with attribute pairs as
``ppdet/modeling/ops.py`` calls them, ``paddle._C_ops`` with positional attributes
(tests/goldens/ecosystem_det.json from tools/goldens/record_ecosystem_det.py). Each golden
case's code runs here and must give Paddle's values (float32 kernels: rtol 1e-5, atol 1e-5 on
box coordinates of tens of pixels), dtypes, shapes and integer outputs exactly."""
import json
import os

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.compat.shims import c_ops as C
from paddle_compat.compat.shims import legacy_c_ops as L

GOLDEN = os.path.join(os.path.dirname(__file__), "goldens", "ecosystem_det.json")
with open(GOLDEN) as _f:
    CASES = json.load(_f)
PRELUDE = CASES.pop("__prelude__")


def run(code):
    scope = {"paddle": paddle, "np": np, "L": L, "C": C}
    exec(PRELUDE, scope)
    exec(code, scope)
    return scope["out"]


def check(gold, ours, where="out"):
    """``ours`` (tensors, nested lists) equals the recorded ``gold`` tree."""
    if isinstance(gold, list):
        assert isinstance(ours, (list, tuple)) and len(ours) == len(gold), where
        for i, (g, o) in enumerate(zip(gold, ours)):
            check(g, o, f"{where}[{i}]")
        return
    if gold is None:
        assert ours is None, where
        return
    assert isinstance(ours, paddle.Tensor), where
    assert str(ours.dtype).replace("paddle.", "") == gold["dtype"], where
    assert list(ours.shape) == gold["shape"], where
    got = ours.numpy().reshape(-1)
    want = np.asarray(gold["data"], dtype=got.dtype)
    if got.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want, err_msg=where)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=where)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    case = CASES[name]
    if "error" in case:
        with pytest.raises(Exception) as info:
            run(case["code"])
        assert type(info.value).__name__ == case["error"]
    else:
        check(case["value"], run(case["code"]))


def test_c_anchor_generator_is_the_legacy_op():
    # Paddle 3.3.1's _C_ops.anchor_generator raises SystemError for every input (a binding
    # bug); ours computes what its legacy op computes, which the golden holds
    case = CASES["legacy_anchor_generator"]
    x = run("out = uniform([1, 8, 4, 5], 0)")
    anchors, var = C.anchor_generator(x, [16.0, 32.0], [0.5, 1.0, 2.0], [0.1, 0.1, 0.2, 0.2],
                                      [16.0, 16.0], 0.5)
    check(case["value"], [anchors, var])


def test_legacy_ops_are_reached_through_paddle_names():
    import importlib
    legacy = importlib.import_module("paddle_compat.compat.shims.legacy_c_ops")
    for name in ("anchor_generator", "generate_proposals_v2", "distribute_fpn_proposals",
                 "multiclass_nms3", "matrix_nms", "box_coder", "prior_box"):
        assert callable(getattr(legacy, name)) and name in legacy.__all__
    for name in ("anchor_generator", "generate_proposals", "distribute_fpn_proposals",
                 "multiclass_nms3", "matrix_nms", "box_coder", "prior_box"):
        assert callable(getattr(C, name)) and name in C.__all__


def test_multiclass_nms_rois_num_must_cover_the_rows():
    boxes = paddle.rand([5, 2, 4])
    scores = paddle.rand([5, 2])
    with pytest.raises(ValueError, match="summing to the 5 rows"):
        L.multiclass_nms3(boxes, scores, paddle.to_tensor([2, 2], dtype="int32"),
                          'score_threshold', 0.1, 'nms_top_k', -1, 'keep_top_k', -1)
    with pytest.raises(ValueError, match=r"must be \[M, C\]"):
        L.multiclass_nms3(boxes, paddle.rand([5, 3]), paddle.to_tensor([5], dtype="int32"),
                          'score_threshold', 0.1, 'nms_top_k', -1, 'keep_top_k', -1)


def test_distribute_fpn_proposals_counts_must_match_levels():
    rois = run("out = paddle.to_tensor(corner_boxes(4, 1))")
    with pytest.raises(ValueError, match="4 levels"):
        L.distribute_fpn_proposals(rois, paddle.to_tensor([4], dtype="int32"), 3, 4,
                                   'min_level', 2, 'max_level', 5, 'refer_level', 4,
                                   'refer_scale', 224)
    with pytest.raises(ValueError, match="'refer_scale' is required"):
        L.distribute_fpn_proposals(rois, paddle.to_tensor([4], dtype="int32"), 4, 4,
                                   'min_level', 2, 'max_level', 5, 'refer_level', 4)


def test_anchor_generator_checks_its_input():
    with pytest.raises(ValueError, match="rank 3"):
        L.anchor_generator(paddle.ones([8, 4, 5]), 'anchor_sizes', [16.0],
                           'aspect_ratios', [1.0], 'stride', [16.0, 16.0])
    with pytest.raises(ValueError, match="anchor_sizes"):
        L.anchor_generator(paddle.ones([1, 8, 4, 5]), 'aspect_ratios', [1.0])


def test_package_is_its_own_paddle_attribute():
    # ppdet's DETR loss calls paddle.paddle.zeros; in Paddle 3.3.1 `paddle.paddle is paddle`
    assert paddle.paddle is paddle
    assert paddle.paddle.zeros([1]).shape == [1]
    assert "paddle" not in paddle.__all__
