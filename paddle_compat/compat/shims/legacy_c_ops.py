"""``paddle._legacy_C_ops``: the entry points of Paddle's legacy operator definitions, which
detection and segmentation code still calls in dynamic mode (PaddleDetection's
``ppdet/modeling/ops.py``, PaddleSeg's Lovasz loss).

A legacy op takes its input tensors by position, then its attributes as flat
``'name', value, ...`` pairs (``argsort(x, 'axis', 0, 'descending', True)``); an attribute it
does not name keeps the op's default and one it does not know is ignored, as in Paddle. Its
outputs are the op's full output list (``argsort`` gives the sorted values and the indices).
Each op here is written over the public paddle_compat function that computes it; any other
name raises ``AttributeError`` naming it.
"""
import torch

from ...framework import dtype as _dt
from ...framework.tensor import Tensor, wrap
from ...nn.quant import _abs_max, _fake_qdq
from ...ops import creation as _creation
from ...ops import arithmetic as _arith
from ...ops import linalg as _linalg
from ...ops.common import tensor_arg
from ...vision.ops import detection as _det

__all__ = ["argsort", "multiclass_nms3", "matrix_nms", "box_coder", "prior_box",
           "anchor_generator", "generate_proposals_v2", "distribute_fpn_proposals", "scale",
           "coalesce_tensor",
           "scale_", "sigmoid", "matmul_v2", "fake_channel_wise_quantize_dequantize_abs_max"]


def _split(op, args, n_inputs, defaults):
    """(inputs, attrs): the first ``n_inputs`` of ``args`` and the ``defaults`` updated from the
    ``'name', value`` pairs after them (Paddle's ValueErrors for an odd count or a name that
    is not a string)."""
    flat = args[n_inputs:]
    if len(flat) % 2:
        raise ValueError(f"(InvalidArgument) The number of arguments for attributes should be "
                         f"even but attr_start = {n_inputs}, attr_end = {len(args)}.")
    attrs = dict(defaults)
    for i in range(0, len(flat), 2):
        name = flat[i]
        if not isinstance(name, str):
            raise ValueError(f"(InvalidArgument) {op}(): argument (position {n_inputs + i}) "
                             f"must be str, but got {type(name).__name__}")
        attrs[name] = flat[i + 1]
    if len(args) < n_inputs:
        raise TypeError(f"{op}() takes {n_inputs} input tensors, but received {len(args)}")
    return args[:n_inputs], attrs


def argsort(*args):
    """``argsort(x, 'axis', -1, 'descending', False)`` -> (sorted x, int64 indices); the
    sorted values carry x's gradient."""
    (x,), a = _split("argsort", args, 1, {"axis": -1, "descending": False})
    t = tensor_arg(x, "argsort", "x", 0)
    try:
        values, idx = torch.sort(t, dim=a["axis"], descending=a["descending"], stable=True)
    except IndexError as e:
        raise ValueError(f"(InvalidArgument) argsort(): {e}") from None
    return wrap(values), wrap(idx)


_SCALE = {"scale": 1.0, "bias": 0.0, "bias_after_scale": True}


def scale(*args):
    """``scale(x, 'scale', s, 'bias', b, 'bias_after_scale', True)`` -> x * s + b (or
    (x + b) * s), with x's gradient."""
    (x,), a = _split("scale", args, 1, _SCALE)
    return _arith.scale(x, a["scale"], a["bias"], a["bias_after_scale"])


def scale_(*args):
    """``scale`` in place on x (returns x)."""
    (x,), a = _split("scale_", args, 1, _SCALE)
    return _arith.scale_(x, a["scale"], a["bias"], a["bias_after_scale"])


def sigmoid(*args):
    """``sigmoid(x)`` -> 1 / (1 + exp(-x))."""
    (x,), _ = _split("sigmoid", args, 1, {})
    return wrap(torch.sigmoid(tensor_arg(x, "sigmoid", "x", 0)))


def matmul_v2(*args):
    """``matmul_v2(x, y, 'trans_x', False, 'trans_y', False)`` -> paddle.matmul."""
    (x, y), a = _split("matmul_v2", args, 2, {"trans_x": False, "trans_y": False})
    return _linalg.matmul(x, y, a["trans_x"], a["trans_y"])


def fake_channel_wise_quantize_dequantize_abs_max(*args):
    """``fake_channel_wise_quantize_dequantize_abs_max(x, out, out_scale, 'bit_length', 8,
    'quant_axis', 0)`` -> (out, out_scale): x quantised to ``bit_length`` bits with one abs-max
    scale per channel along ``quant_axis`` (0 or 1) and dequantised, written into ``out``; the
    scales written into ``out_scale`` (PaddleSlim's channel-wise quanter). The gradient passes
    straight through to x."""
    (x, out, out_scale), a = _split("fake_channel_wise_quantize_dequantize_abs_max", args, 3,
                                    {"bit_length": 8, "quant_axis": 0, "round_type": 1})
    t = tensor_arg(x, "fake_channel_wise_quantize_dequantize_abs_max", "x", 0)
    axis = a["quant_axis"]
    if axis not in (0, 1):
        raise ValueError("(InvalidArgument) 'quant_axis' should be 0 or 1, but the received "
                         f"is {axis}")
    for name, v in (("out", out), ("out_scale", out_scale)):
        if not isinstance(v, Tensor):
            raise TypeError(f"fake_channel_wise_quantize_dequantize_abs_max(): {name} must be "
                            f"a Tensor to write into, but got {type(v).__name__}")
    scale = _abs_max(t, axis)
    _creation.assign(wrap(scale), output=out_scale)
    _creation.assign(wrap(_fake_qdq(t, scale, a["bit_length"], axis)), output=out)
    return out, out_scale


def multiclass_nms3(*args):
    """``multiclass_nms3(bboxes, scores, rois_num, 'score_threshold', ..., 'nms_top_k', ...,
    'keep_top_k', ..., 'nms_threshold', 0.3, 'normalized', True, 'nms_eta', 1.0,
    'background_label', 0)`` -> (out, index, nms_rois_num); with ``rois_num`` the boxes are
    per-RoI rows (bboxes [M, C, 4], scores [M, C])."""
    (bboxes, scores, rois_num), a = _split(
        "multiclass_nms3", args, 3,
        {"score_threshold": None, "nms_top_k": None, "keep_top_k": None, "nms_threshold": 0.3,
         "normalized": True, "nms_eta": 1.0, "background_label": 0})
    for k in ("score_threshold", "nms_top_k", "keep_top_k"):
        if a[k] is None:
            raise ValueError(f"(InvalidArgument) multiclass_nms3(): the attribute '{k}' is "
                             "required")
    return _det.multiclass_nms(bboxes, scores, a["score_threshold"], a["nms_top_k"],
                               a["keep_top_k"], a["nms_threshold"], a["normalized"],
                               a["nms_eta"], a["background_label"], rois_num)


def matrix_nms(*args):
    """``matrix_nms(bboxes, scores, 'score_threshold', ..., 'post_threshold', ...,
    'nms_top_k', ..., 'keep_top_k', ..., ...)`` -> (out, index, rois_num)."""
    (bboxes, scores), a = _split(
        "matrix_nms", args, 2,
        {"score_threshold": 0.0, "post_threshold": 0.0, "nms_top_k": -1, "keep_top_k": -1,
         "use_gaussian": False, "gaussian_sigma": 2.0, "background_label": 0,
         "normalized": True})
    out, rois_num, index = _det.matrix_nms(
        bboxes, scores, a["score_threshold"], a["post_threshold"], a["nms_top_k"],
        a["keep_top_k"], a["use_gaussian"], a["gaussian_sigma"], a["background_label"],
        a["normalized"], return_index=True, return_rois_num=True)
    return out, index, rois_num


def box_coder(*args):
    """``box_coder(prior_box, prior_box_var, target_box, 'code_type', ..., 'box_normalized',
    ..., 'axis', ..., 'variance', [...])``: the variance is the tensor, else the list."""
    (prior, prior_var, target), a = _split(
        "box_coder", args, 3,
        {"code_type": "encode_center_size", "box_normalized": True, "axis": 0,
         "variance": None})
    var = prior_var if prior_var is not None else a["variance"]
    return _det.box_coder(prior, var, target, a["code_type"], a["box_normalized"], a["axis"])


def prior_box(*args):
    """``prior_box(input, image, 'min_sizes', [...], ...)`` -> (boxes, variances)."""
    (inp, image), a = _split(
        "prior_box", args, 2,
        {"min_sizes": None, "max_sizes": None, "aspect_ratios": [1.0],
         "variances": [0.1, 0.1, 0.2, 0.2], "flip": False, "clip": False, "step_w": 0.0,
         "step_h": 0.0, "offset": 0.5, "min_max_aspect_ratios_order": False})
    return _det.prior_box(inp, image, a["min_sizes"], a["max_sizes"] or None,
                          a["aspect_ratios"], a["variances"], a["flip"], a["clip"],
                          [a["step_w"], a["step_h"]], a["offset"],
                          a["min_max_aspect_ratios_order"])


def anchor_generator(*args):
    """``anchor_generator(input, 'anchor_sizes', [...], 'aspect_ratios', [...], 'variances',
    [...], 'stride', [sw, sh], 'offset', 0.5)`` -> (anchors, variances), each [H, W, A, 4]."""
    (inp,), a = _split("anchor_generator", args, 1,
                       {"anchor_sizes": None, "aspect_ratios": None,
                        "variances": [0.1, 0.1, 0.2, 0.2], "stride": [16.0, 16.0],
                        "offset": 0.5})
    return _det.anchor_generator(inp, a["anchor_sizes"] or [], a["aspect_ratios"] or [],
                                 a["variances"], a["stride"], a["offset"])


def generate_proposals_v2(*args):
    """``generate_proposals_v2(scores, bbox_deltas, im_shape, anchors, variances,
    'pre_nms_topN', 6000, 'post_nms_topN', 1000, 'nms_thresh', 0.5, 'min_size', 0.1, 'eta',
    1.0, 'pixel_offset', True)`` -> (rpn_rois, rpn_roi_probs, rpn_rois_num)."""
    inputs, a = _split("generate_proposals_v2", args, 5,
                       {"pre_nms_topN": 6000, "post_nms_topN": 1000, "nms_thresh": 0.5,
                        "min_size": 0.1, "eta": 1.0, "pixel_offset": True})
    return _det.generate_proposals(*inputs, pre_nms_top_n=a["pre_nms_topN"],
                                   post_nms_top_n=a["post_nms_topN"],
                                   nms_thresh=a["nms_thresh"], min_size=a["min_size"],
                                   eta=a["eta"], pixel_offset=a["pixel_offset"],
                                   return_rois_num=True)


def distribute_fpn_proposals(*args):
    """``distribute_fpn_proposals(fpn_rois, rois_num, n_levels, n_levels, 'min_level', 2,
    'max_level', 5, 'refer_level', 4, 'refer_scale', 224, 'pixel_offset', False)`` ->
    (multi_rois, restore_ind, rois_num_per_level); the two counts after the inputs are the
    lengths of the two per-level output lists (a legacy op's duplicable outputs)."""
    (rois, rois_num, n_rois, n_nums), a = _split(
        "distribute_fpn_proposals", args, 4,
        {"min_level": None, "max_level": None, "refer_level": None, "refer_scale": None,
         "pixel_offset": False})
    for k in ("min_level", "max_level", "refer_level", "refer_scale"):
        if a[k] is None:
            raise ValueError(f"(InvalidArgument) distribute_fpn_proposals(): the attribute "
                             f"'{k}' is required")
    levels = a["max_level"] - a["min_level"] + 1
    if n_rois != levels or n_nums != levels:
        raise ValueError(f"(InvalidArgument) distribute_fpn_proposals(): {levels} levels "
                         f"(min_level {a['min_level']} to max_level {a['max_level']}) give "
                         f"{levels} outputs each, but {n_rois} and {n_nums} were asked for")
    return _det.distribute_fpn_proposals(rois, a["min_level"], a["max_level"],
                                         a["refer_level"], a["refer_scale"],
                                         a["pixel_offset"], rois_num)


_COALESCE = {"copy_data": False, "set_constant": False, "persist_output": False,
             "constant": 0.0, "dtype": None, "use_align": True, "align_size": -1,
             "user_defined_size_of_dtype": -1, "concated_shapes": [], "concated_ranks": []}


def coalesce_tensor(*args):
    """``coalesce_tensor(inputs, outputs, fused_output, 'copy_data', True, 'use_align', False,
    'dtype', dt)``: one flat buffer of dtype ``dt`` holding every tensor of ``inputs`` back to
    back, put in ``fused_output``; each tensor of ``outputs`` becomes a view of its part of
    it (same shape; ``copy_data`` copies the inputs' values in, ``set_constant`` fills with
    ``constant``, else the values are unspecified). With ``use_align`` each part starts on an
    ``align_size``-byte boundary (256 bytes when not given). Returns ``(outputs,
    fused_output)``. (Paddle 3.3.1 has no CPU kernel for it.)"""
    (inputs, outputs, fused), a = _split("coalesce_tensor", args, 3, _COALESCE)
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError("(InvalidArgument) coalesce_tensor(): the input should not be empty")
    outputs = inputs if outputs is None else outputs
    if len(outputs) != len(inputs):
        raise ValueError(f"(InvalidArgument) coalesce_tensor(): {len(inputs)} inputs but "
                         f"{len(outputs)} outputs")
    src = [tensor_arg(x, "coalesce_tensor", "input", i) for i, x in enumerate(inputs)]
    dtype = src[0].dtype if a["dtype"] is None else _dt.to_torch_dtype(a["dtype"])
    item = dtype.itemsize if a["user_defined_size_of_dtype"] <= 0 else \
        a["user_defined_size_of_dtype"]
    step = 1
    if a["use_align"]:
        step = max(1, (a["align_size"] if a["align_size"] > 0 else 256) // item)
    offsets, total = [], 0
    for t in src:
        offsets.append(total)
        total += -(-t.numel() // step) * step if t.numel() else step
    buf = torch.empty(total, dtype=dtype, device=src[0].device)
    if a["set_constant"]:
        buf.fill_(a["constant"])
    if a["copy_data"]:
        for t, off in zip(src, offsets):
            buf[off:off + t.numel()].copy_(t.detach().reshape(-1))
    for out, t, off in zip(outputs, src, offsets):
        keep = out.stop_gradient
        out._t = buf[off:off + t.numel()].view(t.shape)
        out.stop_gradient = keep
    keep = fused.stop_gradient
    fused._t = buf
    fused.stop_gradient = keep
    return list(outputs), fused


def __getattr__(name):
    raise AttributeError(f"paddle._legacy_C_ops.{name} is not provided by paddle_compat: call "
                         "the public paddle API instead")
