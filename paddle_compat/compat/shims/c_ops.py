"""``paddle._C_ops``: Paddle's generated operator entry points, for code that calls them directly.

Only entry points whose arguments we know are here, each written against the public API:
creation ops with Paddle's positional ``(shape, [value,] dtype, place)`` order, ``matmul`` with
its transpose flags, one-tensor elementwise ops whose only argument is ``x``, and the detection
kernels that PaddleDetection and ``paddle.vision.ops`` call (inputs, then every attribute by
position, in the order of Paddle's operator definitions). Any other name
raises ``AttributeError`` naming it, so that ``from paddle import _C_ops`` itself always works.
"""
import torch

from ... import ops as _ops
from ...framework.tensor import Tensor, wrap
from ...incubate.nn import functional as _incubate_f
from ...nn.functional import attention as _attn
from ...ops.common import tensor_arg as _tensor_arg
from ...nn import functional as _F
from ...ops import creation as _creation
from ...static import fluid_ops as _fluid_ops
from ...static import optimizer_ops as _optimizer_ops
from ...vision.ops import detection as _det

__all__ = ["zeros", "ones", "full", "matmul", "argsort", "bce_loss", "conv2d_transpose",
           "flash_attn", "fused_bias_act", "cumsum", "logcumsumexp", "group_norm", "huber_loss", "anchor_generator", "box_coder",
           "distribute_fpn_proposals", "generate_proposals", "matrix_nms", "multiclass_nms3",
           "prior_box", "batch_norm", "layer_norm", "slice"]


def full(shape, value, dtype="float32", place=None):
    """``_C_ops.full(shape, value, dtype, place)``."""
    return _creation.full(shape, value, dtype=dtype)


def zeros(shape, dtype="float32", place=None):
    """``_C_ops.zeros(shape, dtype, place)``."""
    return _creation.full(shape, 0, dtype=dtype)


def ones(shape, dtype="float32", place=None):
    """``_C_ops.ones(shape, dtype, place)``."""
    return _creation.full(shape, 1, dtype=dtype)


def bce_loss(input, label):
    """``_C_ops.bce_loss(input, label)``: the elementwise binary cross entropy, unreduced."""
    return _F.binary_cross_entropy(input, label, reduction="none")


def conv2d_transpose(x, weight, strides, paddings, output_padding, output_size,
                     padding_algorithm, groups, dilations, data_format):
    """``_C_ops.conv2d_transpose`` with every attribute by position (the op-type registry's
    ``conv2d_transpose``)."""
    return _fluid_ops.run("conv2d_transpose", {"Input": x, "Filter": weight}, {
        "strides": strides, "paddings": paddings, "output_padding": output_padding,
        "output_size": output_size, "padding_algorithm": padding_algorithm, "groups": groups,
        "dilations": dilations, "data_format": data_format})["Output"]


def cumsum(x, axis, flatten, exclusive, reverse):
    """The ``cumsum`` kernel with all its attributes (``reverse``, ``exclusive``), through the
    op-type registry's ``cumsum``."""
    return _fluid_ops.run("cumsum", {"X": x}, {"axis": axis, "flatten": flatten,
                                               "exclusive": exclusive, "reverse": reverse})["Out"]


def logcumsumexp(x, axis, flatten, exclusive, reverse):
    """The ``logcumsumexp`` kernel with all its attributes, through the op-type registry's
    ``logcumsumexp``."""
    return _fluid_ops.run("logcumsumexp", {"X": x}, {"axis": axis, "flatten": flatten,
                                                     "exclusive": exclusive,
                                                     "reverse": reverse})["Out"]


def group_norm(x, scale, bias, epsilon, groups, data_format):
    """``_C_ops.group_norm(x, scale, bias, epsilon, groups, data_format)`` -> (y, mean,
    variance), through the op-type registry."""
    outs = _fluid_ops.run("group_norm", {"X": x, "Scale": scale, "Bias": bias},
                          {"epsilon": epsilon, "groups": groups, "data_layout": data_format})
    return outs["Y"], outs["Mean"], outs["Variance"]


def huber_loss(x, y, delta):
    """``_C_ops.huber_loss(x, y, delta)`` -> the elementwise loss (Paddle returns it alone),
    through the op-type registry."""
    return _fluid_ops.run("huber_loss", {"X": x, "Y": y}, {"delta": delta})["Out"]


def matmul(x, y, transpose_x=False, transpose_y=False):
    """``_C_ops.matmul(x, y, transpose_x, transpose_y)``."""
    return _ops.matmul(x, y, transpose_x, transpose_y)


def batch_norm(x, mean, variance, scale, bias, is_test, momentum, epsilon, data_format,
               use_global_stats, trainable_statistics):
    """``_C_ops.batch_norm(x, mean, variance, scale, bias, is_test, momentum, epsilon,
    data_format, use_global_stats, trainable_statistics)`` -> (out, mean_out, variance_out,
    saved_mean, saved_inv_std, reserve_space). With batch statistics (not ``is_test``, or
    ``trainable_statistics``; never with ``use_global_stats``) the running ``mean``/``variance``
    are updated in place (``mean_out``/``variance_out`` are copies of the new values),
    ``saved_mean`` is the batch mean and ``saved_inv_std`` ``1/sqrt(batch var + epsilon)``;
    otherwise (Paddle leaves these two unwritten) the running statistics' mean and inverse
    std. ``reserve_space`` is empty."""
    # Paddle's kernel: batch statistics unless in test mode (``is_test`` without
    # ``trainable_statistics``) or told to use the global ones; the running ones then move
    training = not ((is_test and not trainable_statistics) or use_global_stats)
    out = _F.batch_norm(x, mean, variance, scale, bias, training=training, momentum=momentum,
                        epsilon=epsilon, data_format=data_format,
                        use_global_stats=not training)
    with torch.no_grad():
        t = x._t.detach()
        if training:
            c_axis = 1 if data_format in ("NC", "NCL", "NCHW", "NCDHW") else t.dim() - 1
            dims = [d for d in range(t.dim()) if d != c_axis]
            var, m = torch.var_mean(t, dim=dims, unbiased=False)
        else:
            m, var = mean._t.detach(), variance._t.detach()
        saved_mean = m.clone()
        saved_inv_std = torch.rsqrt(var + epsilon)
    return (out, wrap(mean._t.detach().clone()), wrap(variance._t.detach().clone()),
            wrap(saved_mean), wrap(saved_inv_std), wrap(t.new_empty((0,))))


def layer_norm(x, scale, bias, epsilon, begin_norm_axis, *unused):
    """``_C_ops.layer_norm(x, scale, bias, epsilon, begin_norm_axis)`` -> the output alone (as
    Paddle 3.3.1's entry point returns): ``x`` normalised over its axes from
    ``begin_norm_axis`` on, ``scale``/``bias`` 1-D over those axes (or None). Paddle accepts and
    ignores one more positional argument (PaddleSlim passes ``False``); so does this."""
    if len(unused) > 1:
        raise TypeError(f"layer_norm() takes 5 or 6 positional arguments but "
                        f"{5 + len(unused)} were given")
    return _F.layer_norm(x, x.shape[begin_norm_axis:], scale, bias, epsilon)


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


def argsort(x, axis=-1, descending=False, stable=False, *extra):
    """``_C_ops.argsort(x, axis, descending, stable)`` -> (sorted x, int64 indices), by position
    (the ``'axis', 0`` attribute pairs are ``_legacy_C_ops.argsort``'s form: TypeError here, as
    in Paddle)."""
    for pos, (v, kind) in enumerate(((axis, int), (descending, bool), (stable, bool)), 1):
        if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
            raise TypeError(f"(InvalidType) argsort(): argument (position {pos + 1}) must be "
                            f"{kind.__name__}, but got {type(v).__name__}")
    if extra:
        raise TypeError(f"(InvalidArgument) argsort(): takes 4 positional arguments but "
                        f"{4 + len(extra)} were given")
    t = _tensor_arg(x, "argsort", "x", 0)
    values, idx = torch.sort(t, dim=axis, descending=descending, stable=True)
    return wrap(values), wrap(idx)


def flash_attn(q, k, v, fixed_seed_offset, attn_mask, dropout, causal, return_softmax, is_test,
               rng_name):
    """``_C_ops.flash_attn``: attention over [batch, seq, heads, head_dim] (scale
    1/sqrt(head_dim); ``attn_mask`` [batch, heads, seq_q, seq_k] added to the scores, or a bool
    keep-mask). Returns ``(out, softmax, softmax_lse, seed_offset)``: the attention weights
    when ``return_softmax`` (an empty tensor otherwise), their log-sum-exp [batch, heads,
    seq_q] in float32, and the dropout seed/offset pair (int64 [2], zeros: no CUDA generator
    state here)."""
    if fixed_seed_offset is not None:
        raise NotImplementedError("_C_ops.flash_attn: fixed_seed_offset is not supported")
    qt, kt, vt = (_tensor_arg(a, "flash_attn", n, i).transpose(1, 2)
                  for i, (a, n) in enumerate(((q, "q"), (k, "k"), (v, "v"))))
    out, weights, lse = _attn.attention_math(qt, kt, vt, None if attn_mask is None else
                                             attn_mask._t, dropout, causal, not is_test,
                                             qt.shape[-1] ** -0.5)
    soft = weights if return_softmax else torch.empty(0, dtype=qt.dtype)
    return (wrap(out.transpose(1, 2)), wrap(soft), wrap(lse),
            wrap(torch.zeros(2, dtype=torch.int64)))


def fused_bias_act(x, bias, dequant_scales, shift, smooth, act_method, compute_dtype,
                   quant_scale, quant_round_type, quant_max_bound, quant_min_bound):
    """``_C_ops.fused_bias_act``: ``paddle.incubate.nn.functional.fused_bias_act`` with every
    argument by position."""
    if not isinstance(act_method, str):
        raise TypeError(f"(InvalidType) fused_bias_act(): argument (position 6) must be str, "
                        f"but got {type(act_method).__name__}")
    return _incubate_f.fused_bias_act(x, bias, dequant_scales, shift, smooth, act_method,
                                      compute_dtype, quant_scale, quant_round_type,
                                      quant_max_bound, quant_min_bound)


#: ops whose entry point takes the input tensor alone, as the public function does
_UNARY = ("abs", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "tanh", "sigmoid", "sin",
          "cos", "floor", "ceil", "sign", "square", "reciprocal", "erf")


def slice(input, axes, starts, ends, infer_flags, decrease_axis):
    """``_C_ops.slice(input, axes, starts, ends, infer_flags, decrease_axis)``: ``starts`` and
    ``ends`` as lists of ints or 1-element Tensors, or 1-D Tensors (a static Variable's values
    are read when the program runs); the ``decrease_axis`` axes are dropped. The op-type
    registry's ``slice``."""
    ins = {"Input": input}
    attrs = {"axes": list(axes), "infer_flags": list(infer_flags),
             "decrease_axis": list(decrease_axis)}
    for key, slot, v in (("starts", "Starts", starts), ("ends", "Ends", ends)):
        if isinstance(v, Tensor):
            ins[slot + "Tensor"] = v
        elif any(isinstance(e, Tensor) for e in v):
            ins[slot + "TensorList"] = list(v)
        else:
            attrs[key] = list(v)
    return _fluid_ops.run("slice", ins, attrs)["Out"]


def _optimizer_step(op_type):
    """``_C_ops.<op_type>_(inputs..., attributes...)``: one step of an optimizer kernel
    (``static.optimizer_ops``), its inputs and attributes by position in Paddle's order,
    writing each updated state into its input tensor; returns the outputs (those inputs)."""
    _, in_slots, out_slots = _fluid_ops.lookup(op_type)
    in_names = [n for n, _ in _fluid_ops.slots(in_slots)]
    attr_names = list(_fluid_ops.OP_ATTRS.get(op_type, {}))
    inplace = _optimizer_ops.INPLACE[op_type]

    def step(*args):
        if len(args) > len(in_names) + len(attr_names):
            raise TypeError(f"{op_type}_() takes {len(in_names) + len(attr_names)} arguments "
                            f"({len(args)} given)")
        ins = {n: (v if v is None or isinstance(v, Tensor) else wrap(torch.as_tensor(v)))
               for n, v in zip(in_names, args)}
        attrs = dict(zip(attr_names, args[len(in_names):]))
        outs = _fluid_ops.run(op_type, {k: v for k, v in ins.items() if v is not None}, attrs)
        result = []
        for slot, _ in _fluid_ops.slots(out_slots):
            new, target = outs.get(slot), ins.get(inplace.get(slot))
            if new is not None and target is not None:
                with torch.no_grad():
                    target._t.copy_(new._t)
                new = target
            result.append(new)
        return tuple(result)
    step.__name__ = op_type + "_"
    return step


def __getattr__(name):
    if name.endswith("_") and name[:-1] in _optimizer_ops.INPLACE:
        fn = globals()[name] = _optimizer_step(name[:-1])
        return fn
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
