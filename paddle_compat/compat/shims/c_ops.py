"""``paddle._C_ops``: Paddle's generated operator entry points, for code that calls them directly.

Only entry points whose arguments we know are here, each written against the public API:
creation ops with Paddle's positional ``(shape, [value,] dtype, place)`` order, ``matmul`` with
its transpose flags, one-tensor elementwise ops whose only argument is ``x``, and the detection
kernels that PaddleDetection and ``paddle.vision.ops`` call (inputs, then every attribute by
position, in the order of Paddle's operator definitions). Any other name
raises ``AttributeError`` naming it, so that ``from paddle import _C_ops`` itself always works.
"""
from ... import ops as _ops
from ...ops import creation as _creation
from ...static import fluid_ops as _fluid_ops
from ...vision.ops import detection as _det

__all__ = ["zeros", "ones", "full", "matmul", "cumsum", "anchor_generator", "box_coder",
           "distribute_fpn_proposals", "generate_proposals", "matrix_nms", "multiclass_nms3",
           "prior_box"]


def full(shape, value, dtype="float32", place=None):
    """``_C_ops.full(shape, value, dtype, place)``."""
    return _creation.full(shape, value, dtype=dtype)


def zeros(shape, dtype="float32", place=None):
    """``_C_ops.zeros(shape, dtype, place)``."""
    return _creation.full(shape, 0, dtype=dtype)


def ones(shape, dtype="float32", place=None):
    """``_C_ops.ones(shape, dtype, place)``."""
    return _creation.full(shape, 1, dtype=dtype)


def cumsum(x, axis, flatten, exclusive, reverse):
    """The ``cumsum`` kernel with all its attributes (``reverse``, ``exclusive``), through the
    op-type registry's ``cumsum``."""
    return _fluid_ops.run("cumsum", {"X": x}, {"axis": axis, "flatten": flatten,
                                               "exclusive": exclusive, "reverse": reverse})["Out"]


def matmul(x, y, transpose_x=False, transpose_y=False):
    """``_C_ops.matmul(x, y, transpose_x, transpose_y)``."""
    return _ops.matmul(x, y, transpose_x, transpose_y)


def anchor_generator(input, anchor_sizes, aspect_ratios, variances, stride, offset):
    """``_C_ops.anchor_generator(input, anchor_sizes, aspect_ratios, variances, stride,
    offset)`` -> (anchors, variances), each [H, W, A, 4]."""
    return _det.anchor_generator(input, anchor_sizes, aspect_ratios, variances, stride, offset)


def box_coder(prior_box, prior_box_var, target_box, code_type, box_normalized, axis,
              variance):
    """``_C_ops.box_coder(prior_box, prior_box_var, target_box, code_type, box_normalized,
    axis, variance)``: the variance is the tensor ``prior_box_var``, else the list."""
    var = prior_box_var if prior_box_var is not None else list(variance)
    return _det.box_coder(prior_box, var, target_box, code_type, box_normalized, axis)


def distribute_fpn_proposals(fpn_rois, rois_num, min_level, max_level, refer_level,
                             refer_scale, pixel_offset):
    """``_C_ops.distribute_fpn_proposals(fpn_rois, rois_num, min_level, max_level,
    refer_level, refer_scale, pixel_offset)`` -> (multi_rois, rois_num_per_level,
    restore_ind): the counts before the restore index, unlike the public function."""
    multi, restore, nums = _det.distribute_fpn_proposals(
        fpn_rois, min_level, max_level, refer_level, refer_scale, pixel_offset, rois_num)
    return multi, nums, restore


def generate_proposals(scores, bbox_deltas, im_shape, anchors, variances, pre_nms_top_n,
                       post_nms_top_n, nms_thresh, min_size, eta, pixel_offset):
    """``_C_ops.generate_proposals(scores, bbox_deltas, im_shape, anchors, variances,
    pre_nms_top_n, post_nms_top_n, nms_thresh, min_size, eta, pixel_offset)`` ->
    (rpn_rois, rpn_roi_probs, rpn_rois_num)."""
    return _det.generate_proposals(scores, bbox_deltas, im_shape, anchors, variances,
                                   pre_nms_top_n, post_nms_top_n, nms_thresh, min_size, eta,
                                   pixel_offset, return_rois_num=True)


def matrix_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k, post_threshold,
               use_gaussian, gaussian_sigma, background_label, normalized):
    """``_C_ops.matrix_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k,
    post_threshold, use_gaussian, gaussian_sigma, background_label, normalized)`` ->
    (out, index, rois_num)."""
    out, rois_num, index = _det.matrix_nms(
        bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k, use_gaussian,
        gaussian_sigma, background_label, normalized, return_index=True, return_rois_num=True)
    return out, index, rois_num


def multiclass_nms3(bboxes, scores, rois_num, score_threshold, nms_top_k, keep_top_k,
                    nms_threshold=0.3, normalized=True, nms_eta=1.0, background_label=0):
    """``_C_ops.multiclass_nms3(bboxes, scores, rois_num, score_threshold, nms_top_k,
    keep_top_k, nms_threshold, normalized, nms_eta, background_label)`` -> (out, index,
    nms_rois_num)."""
    return _det.multiclass_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k,
                               nms_threshold, normalized, nms_eta, background_label, rois_num)


def prior_box(input, image, min_sizes, max_sizes, aspect_ratios, variances, flip, clip,
              step_w, step_h, offset, min_max_aspect_ratios_order):
    """``_C_ops.prior_box(input, image, min_sizes, max_sizes, aspect_ratios, variances, flip,
    clip, step_w, step_h, offset, min_max_aspect_ratios_order)`` -> (boxes, variances)."""
    return _det.prior_box(input, image, min_sizes, list(max_sizes) or None, aspect_ratios,
                          variances, flip, clip, [step_w, step_h], offset,
                          min_max_aspect_ratios_order)


#: ops whose entry point takes the input tensor alone, as the public function does
_UNARY = ("abs", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "tanh", "sigmoid", "sin",
          "cos", "floor", "ceil", "sign", "square", "reciprocal", "erf")


def __getattr__(name):
    if name in _UNARY:
        fn = getattr(_ops, name, None)
        if fn is not None:
            def op(x, _fn=fn):
                return _fn(x)
            op.__name__ = name
            op.__doc__ = f"``_C_ops.{name}(x)``."
            globals()[name] = op
            return op
    raise AttributeError(f"paddle._C_ops.{name} is not provided by paddle_compat: call the public "
                         "paddle API instead")
