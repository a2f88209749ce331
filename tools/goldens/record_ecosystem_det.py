"""Record Paddle 3.3.1's detection kernels as PaddleDetection 2.6.0 calls them (issue 30,
tools/ecosystem/drivers/paddledet_driver.py): ``paddle._legacy_C_ops`` with flat attribute
pairs (``ppdet/modeling/ops.py`` in dynamic mode) and ``paddle._C_ops`` with positional
attributes (Paddle's own ``paddle.vision.ops``): anchor_generator, generate_proposals(_v2),
distribute_fpn_proposals, multiclass_nms3 (batched and per RoI with ``rois_num``),
matrix_nms, prior_box, box_coder.

    /work/paddle_venv/bin/python tools/goldens/record_ecosystem_det.py

Writes tests/goldens/ecosystem_det.json: {case: {"code": ..., "value": ...} or {"code": ...,
"error": type name}}; tests/test_ecosystem_det.py runs the same code on paddle_compat. Each
case leaves its result in ``out``: a tensor, a list of tensors, or nested lists of them, each
recorded as {"dtype", "shape", "data"}.
"""
import json
import os

import numpy as np
import paddle
import paddle._C_ops as C
import paddle._legacy_C_ops as L

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens", "ecosystem_det.json")

# shared by every case: seeded boxes, scores and feature maps
PRELUDE = """
def corner_boxes(n, seed, size=64.0):
    rng = np.random.RandomState(seed)
    xy = rng.uniform(0, size * 0.6, (n, 2))
    wh = rng.uniform(size * 0.1, size * 0.4, (n, 2))
    return np.concatenate([xy, xy + wh], 1).astype("float32")

def uniform(shape, seed, scale=1.0, shift=0.0, dtype="float32"):
    return paddle.to_tensor((np.random.RandomState(seed).uniform(size=shape) * scale
                             + shift).astype(dtype))

def roi_rows(m, c, seed):
    boxes = np.stack([corner_boxes(m, seed + k) for k in range(c)], 1)
    scores = np.random.RandomState(seed + 1).uniform(size=(m, c)).astype("float32")
    return paddle.to_tensor(boxes), paddle.to_tensor(scores)

def batched(n, c, m, seed):
    boxes = np.stack([corner_boxes(m, seed + i) for i in range(n)])
    scores = np.random.RandomState(seed + 5).uniform(size=(n, c, m)).astype("float32")
    return paddle.to_tensor(boxes), paddle.to_tensor(scores)

NMS_ATTRS = ('background_label', 0, 'score_threshold', 0.3, 'nms_top_k', -1,
             'nms_threshold', 0.5, 'keep_top_k', 6, 'nms_eta', 1.0, 'normalized', False)
"""

CASES = {
    # ------------------------------------------------------------ anchor_generator
    "legacy_anchor_generator": """
out = L.anchor_generator(uniform([1, 8, 4, 5], 0), 'anchor_sizes', [16.0, 32.0],
                         'aspect_ratios', [0.5, 1.0, 2.0], 'variances', [0.1, 0.1, 0.2, 0.2],
                         'stride', [16.0, 16.0], 'offset', 0.5)
""",
    "legacy_anchor_generator_rect_stride": """
out = L.anchor_generator(uniform([2, 3, 3, 2], 1), 'anchor_sizes', [24.0, 40.0, 100.0],
                         'aspect_ratios', [0.7, 1.3], 'variances', [1.0, 1.0, 1.0, 1.0],
                         'stride', [8.0, 12.0], 'offset', 0.0)
""",
    "legacy_anchor_generator_float64": """
out = L.anchor_generator(uniform([1, 2, 2, 3], 2, dtype="float64"), 'anchor_sizes', [20.0],
                         'aspect_ratios', [0.5, 3.0], 'variances', [0.1, 0.1, 0.2, 0.2],
                         'stride', [10.0, 6.0], 'offset', 0.5)
""",
    # (Paddle 3.3.1's _C_ops.anchor_generator raises SystemError "returned NULL without setting
    # an exception" for every input; ours gives the legacy op's anchors: see the test file)
    # ------------------------------------------------------------ multiclass_nms3
    "legacy_multiclass_nms3_rois_num": """
boxes, scores = roi_rows(9, 3, 30)
out = L.multiclass_nms3(boxes, scores, paddle.to_tensor([5, 4], dtype="int32"), *NMS_ATTRS)
""",
    "legacy_multiclass_nms3_rois_num_keep_top_k": """
boxes, scores = roi_rows(12, 4, 40)
out = L.multiclass_nms3(boxes, scores, paddle.to_tensor([7, 5], dtype="int32"),
                        'background_label', -1, 'score_threshold', 0.1, 'nms_top_k', 5,
                        'nms_threshold', 0.4, 'keep_top_k', 4, 'normalized', False)
""",
    "legacy_multiclass_nms3_rois_num_normalized": """
boxes, scores = roi_rows(10, 2, 50)
out = L.multiclass_nms3(boxes / 64.0, scores, paddle.to_tensor([3, 3, 4], dtype="int32"),
                        'background_label', 1, 'score_threshold', 0.2, 'nms_top_k', -1,
                        'nms_threshold', 0.3, 'keep_top_k', -1, 'normalized', True)
""",
    "legacy_multiclass_nms3_rois_num_empty_image": """
boxes, scores = roi_rows(6, 3, 90)
out = L.multiclass_nms3(boxes, scores, paddle.to_tensor([0, 6], dtype="int32"),
                        'score_threshold', 0.2, 'nms_top_k', -1, 'keep_top_k', -1,
                        'normalized', False)
""",
    "legacy_multiclass_nms3_batched": """
boxes, scores = batched(2, 3, 12, 20)
out = L.multiclass_nms3(boxes, scores, None, 'background_label', -1, 'score_threshold', 0.2,
                        'nms_top_k', 8, 'nms_threshold', 0.4, 'keep_top_k', 10,
                        'normalized', False)
""",
    "c_multiclass_nms3_batched": """
boxes, scores = batched(2, 3, 12, 60)
out = C.multiclass_nms3(boxes, scores, None, 0.25, 6, 8, 0.45, False, 1.0, 0)
""",
    "c_multiclass_nms3_rois_num": """
boxes, scores = roi_rows(8, 3, 70)
out = C.multiclass_nms3(boxes, scores, paddle.to_tensor([2, 6], dtype="int32"), 0.2, -1, 5,
                        0.5, False, 1.0, 0)
""",
    # ------------------------------------------------------------ proposals
    "legacy_generate_proposals_v2": """
anchors = paddle.to_tensor(corner_boxes(48, 7).reshape(4, 4, 3, 4))
out = L.generate_proposals_v2(uniform([1, 3, 4, 4], 8), uniform([1, 12, 4, 4], 9, 0.4, -0.2),
                              paddle.to_tensor([[64.0, 64.0]]), anchors,
                              paddle.ones_like(anchors), 'pre_nms_topN', 30,
                              'post_nms_topN', 10, 'nms_thresh', 0.7, 'min_size', 0.0,
                              'eta', 1.0, 'pixel_offset', False)
""",
    "c_generate_proposals": """
anchors = paddle.to_tensor(corner_boxes(48, 11).reshape(4, 4, 3, 4))
out = C.generate_proposals(uniform([2, 3, 4, 4], 12), uniform([2, 12, 4, 4], 13, 0.4, -0.2),
                           paddle.to_tensor([[64.0, 60.0], [50.0, 64.0]]), anchors,
                           paddle.ones_like(anchors) * 0.5, 40, 12, 0.6, 1.0, 1.0, True)
""",
    "legacy_distribute_fpn_proposals": """
rois = paddle.to_tensor(np.concatenate([corner_boxes(5, 10, 32.0), corner_boxes(4, 11, 400.0)]))
out = L.distribute_fpn_proposals(rois, paddle.to_tensor([6, 3], dtype="int32"), 4, 4,
                                 'min_level', 2, 'max_level', 5, 'refer_level', 4,
                                 'refer_scale', 224, 'pixel_offset', True)
""",
    "c_distribute_fpn_proposals": """
rois = paddle.to_tensor(np.concatenate([corner_boxes(6, 14, 48.0), corner_boxes(5, 15, 600.0)]))
out = C.distribute_fpn_proposals(rois, paddle.to_tensor([4, 7], dtype="int32"), 2, 5, 4, 224,
                                 False)
""",
    # ------------------------------------------------------------ the other _C_ops forms
    "c_matrix_nms": """
boxes, scores = batched(2, 3, 10, 80)
out = C.matrix_nms(boxes, scores, 0.2, 8, 10, 0.1, True, 2.0, -1, False)
""",
    "c_prior_box": """
out = C.prior_box(uniform([1, 8, 4, 4], 1), uniform([1, 3, 32, 32], 2), [8.0], [16.0], [2.0],
                  [0.1, 0.1, 0.2, 0.2], True, True, 8.0, 8.0, 0.5, False)
""",
    "c_prior_box_no_max": """
out = C.prior_box(uniform([1, 8, 3, 5], 3), uniform([1, 3, 30, 50], 4), [6.0, 12.0], [],
                  [1.5], [0.1, 0.1, 0.2, 0.2], False, False, 0.0, 0.0, 0.5, True)
""",
    "c_box_coder_list_variance": """
prior = paddle.to_tensor(corner_boxes(6, 3))
target = paddle.to_tensor(corner_boxes(4, 4))
out = C.box_coder(prior, None, target, "encode_center_size", False, 0, [0.1, 0.1, 0.2, 0.2])
""",
    "c_box_coder_tensor_variance": """
prior = paddle.to_tensor(corner_boxes(6, 3))
out = C.box_coder(prior, uniform([6, 4], 5, 0.2, 0.1), uniform([6, 4, 4], 6, 0.5),
                  "decode_center_size", False, 1, [])
""",
}


def encode(value):
    """A tensor as {"dtype", "shape", "data"}; lists and tuples element-wise; None as None."""
    if isinstance(value, paddle.Tensor):
        return {"dtype": str(value.dtype).replace("paddle.", ""), "shape": list(value.shape),
                "data": value.numpy().reshape(-1).tolist()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value


def run(code):
    scope = {"paddle": paddle, "np": np, "L": L, "C": C}
    exec(PRELUDE, scope)
    try:
        exec(code, scope)
        return {"code": code, "value": encode(scope["out"])}
    except Exception as e:  # noqa: BLE001 - the golden records the error type
        return {"code": code, "error": type(e).__name__}


def main():
    doc = {"__prelude__": PRELUDE}
    doc.update({name: run(code) for name, code in CASES.items()})
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(CASES)} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
