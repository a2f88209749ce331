"""Loss functions of ``paddle.nn.functional``.

``cross_entropy`` follows Paddle's rules rather than torch's: labels may carry a trailing
(axis) dimension of 1, ``reduction='mean'`` divides by the number of non-ignored labels only
when ``ignore_index >= 0`` (with the default -100 it averages over every sample, ignored ones
counting as 0), and class weights divide by the sum of the gathered weights.

The margin, embedding and metric-learning losses (``soft_margin_loss`` ... ``npair_loss``) are
Paddle's Python compositions written as torch compositions with the same order of operations;
``hsigmoid_loss`` is the hierarchical-sigmoid kernel (default complete binary tree, or a custom
tree from ``path_table``/``path_code``); ``margin_cross_entropy`` (no CPU kernel in Paddle) is
the single-process form of its definition.
"""
import math

import torch

from ...framework.data_feeder import check_variable_and_dtype
from ...framework.dtype import default_float
from ...framework.tensor import wrap
from ...ops.common import F64, float_attr
from .activation import clip_logits
from .common import label_smooth, one_hot, pairwise_distance
from .extra import _single_process

__all__ = ["cross_entropy", "softmax_with_cross_entropy", "nll_loss", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "sigmoid_focal_loss", "poisson_nll_loss",
           "smooth_l1_loss", "l1_loss", "mse_loss", "margin_ranking_loss", "kl_div",
           "square_error_cost", "log_loss", "soft_margin_loss", "gaussian_nll_loss",
           "hinge_embedding_loss", "multi_label_soft_margin_loss", "cosine_embedding_loss",
           "triplet_margin_with_distance_loss", "triplet_margin_loss", "multi_margin_loss",
           "dice_loss", "npair_loss", "hsigmoid_loss", "margin_cross_entropy",
           "adaptive_log_softmax_with_loss", "multi_label_margin_loss"]

_nn = torch._C._nn


def _check_reduction(reduction, api):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"The value of 'reduction' in {api} should be 'sum', 'mean' or 'none', "
                         f"but received {reduction}, which is not allowed.")


def _reduce(out, reduction):
    if reduction == "mean":
        return out.mean()
    if reduction == "sum":
        return out.sum()
    return out


def _softmax_ce(x, lab, soft_label, use_softmax, ignore_index, axis):
    """Per-sample cross entropy with the class axis kept (size 1); for hard labels also the
    mask of non-ignored labels and the labels with ignored ones replaced by 0."""
    logp = torch.log_softmax(clip_logits(x, axis), axis) if use_softmax else torch.log(x)
    if soft_label:
        return -(lab * logp).sum(axis, keepdim=True), None, None
    valid = lab != ignore_index
    safe = torch.where(valid, lab, 0).long()
    return torch.where(valid, -logp.gather(axis, safe), 0.0), valid, safe


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean",
                  soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
    """Softmax cross entropy with Paddle's label forms (int ids with or without a trailing
    size-1 axis, or soft labels) and reduction rules."""
    if reduction not in ("sum", "mean", "none"):
        raise ValueError("The value of 'reduction' in softmax_cross_entropyshould be 'sum', "
                         f"'mean' or 'none', but received {reduction}, which is not allowed.")
    if ignore_index > 0 and soft_label:
        raise ValueError("When soft_label == True, the value of 'ignore_index' in "
                         f"softmax_cross_entropyshould be '-100', but received {ignore_index}, "
                         "which is not allowed.")
    x, lab = input._t, label._t
    nd = x.dim()
    if nd == 0:
        raise ValueError("The dimension of input should be larger than zero!")
    squeeze_out = nd - 1 == lab.dim()          # the label comes without the class axis
    if not squeeze_out and nd != lab.dim():
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims "
                         f"(got input_dims{nd}, label_dims{lab.dim()})")
    if label_smoothing > 0.0:
        soft_label = True
        if squeeze_out:
            lab = one_hot(wrap(lab), x.shape[-1])._t
            squeeze_out = False
        lab = label_smooth(wrap(lab), epsilon=label_smoothing)._t.to(x.dtype)
    if not soft_label:
        return wrap(_hard_cross_entropy(x, lab if squeeze_out else lab.squeeze(axis), weight,
                                        ignore_index, reduction, axis, use_softmax, squeeze_out))
    if squeeze_out:
        lab = lab.unsqueeze(axis)
    loss = _softmax_ce(x, lab, True, use_softmax, ignore_index, axis)[0]
    wg = None
    if weight is not None:
        w = weight._t
        wg = torch.matmul(lab.to(w.dtype), w).reshape(loss.shape)
        loss = loss.to(wg.dtype) * wg
    if reduction == "sum":
        return wrap(loss.sum())
    if reduction == "none":
        return wrap(loss)
    if x.numel() == 0:
        return wrap(loss.mean())
    if ignore_index >= 0:
        mask = lab != ignore_index
        return wrap(_weighted_mean(loss, mask if wg is None else mask * wg))
    if wg is not None:
        return wrap(_weighted_mean(loss, wg))
    return wrap(loss.mean())


def _weighted_mean(loss, weights):
    """sum(loss) / sum(weights), 0 when the weights sum to 0 (a float16 loss is summed in
    float32)."""
    half = loss.dtype is torch.float16
    total = loss.sum(dtype=torch.float32) if half else loss.sum()
    count = weights.sum(dtype=total.dtype)
    ret = total / (count + (count == 0).to(count.dtype))
    return ret.to(torch.float16) if half else ret


def _fused_ce(x, target, w, reduction, ignore_index, use_softmax):
    if use_softmax:
        x = clip_logits(x, 1 if x.dim() > 1 else 0)      # Paddle's -64 floor of x - max
        return _nn.cross_entropy_loss(x, target, w, reduction, ignore_index, 0.0)
    return _nn.nll_loss_nd(torch.log(x), target, w, reduction, ignore_index)


def _hard_cross_entropy(x, lab, weight, ignore_index, reduction, axis, use_softmax, squeeze_out):
    """Cross entropy of int labels (without the class axis) through torch's fused kernel:
    the per-sample losses, ignored labels giving 0, then Paddle's reduction."""
    nd = x.dim()
    rows = None
    if nd > 2 and axis % nd == nd - 1 and isinstance(x, torch.Tensor) \
            and isinstance(lab, torch.Tensor) and lab.shape == x.shape[:-1]:
        # classes last (a language model's [batch, seq, vocab]): rows of a 2-D [N, C] view,
        # not a class axis moved to 1 (a strided log-softmax, a copy each way; eager only:
        # a static Variable keeps its recorded shapes)
        rows = lab.shape
        x, lab, nd = x.reshape(-1, x.shape[-1]), lab.reshape(-1), 2
    elif nd > 1 and axis % nd != 1:
        x = x.movedim(axis, 1)
    w = None
    if weight is not None:
        w = weight._t
        if x.shape[0 if nd == 1 else 1] != w.shape[-1]:
            raise ValueError(f"input's class_dimension({x.shape[0 if nd == 1 else 1]}) must equal "
                             f"to weight's class_dimension({w.shape[-1]}) when weight is "
                             "provided")
    target = lab.long()
    if reduction == "sum":
        return _fused_ce(x, target, w, 2, ignore_index, use_softmax)
    loss = _fused_ce(x, target, w, 0, ignore_index, use_softmax)
    if reduction == "mean" and w is None and ignore_index < 0:
        # Paddle's plain mean counts ignored samples (as 0): a mean over all samples (taken
        # by an op, not by numel(), so that static programs with unknown batch sizes work)
        return loss.mean()
    if reduction == "none":
        if rows is not None:
            loss = loss.reshape(rows)
        return loss if squeeze_out else loss.unsqueeze(axis)
    if x.numel() == 0:
        return loss.mean()
    valid = target != ignore_index
    if w is not None:
        valid = w[torch.where(valid, target, 0)] * valid
    return _weighted_mean(loss, valid)


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    """Per-sample softmax cross entropy keeping the class axis as size 1 (the label has the
    same rank as logits); ``return_softmax`` also returns the softmax."""
    x, lab = logits._t, label._t
    nd = x.dim()
    if nd == 0:
        raise ValueError("The dimension of input should be larger than zero!")
    if nd - 1 != lab.dim() and nd != lab.dim():
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims "
                         f"(got input_dims{nd}, label_dims{lab.dim()})")
    if nd - 1 == lab.dim():
        # Paddle reshapes such a label to [batch, logits.shape[1]]
        new_shape = [lab.shape[0], x.shape[1]]
        if math.prod(new_shape) != lab.numel():
            raise ValueError(f"(InvalidArgument) The 'shape' attribute in ReshapeOp is invalid. "
                             f"The input tensor X'size must be equal to the capacity of 'shape'. "
                             f"But received X's shape = {list(lab.shape)}, X's size = "
                             f"{lab.numel()}, 'shape' is {new_shape}, the capacity of 'shape' is "
                             f"{math.prod(new_shape)}.")
        lab = lab.reshape(new_shape)
    loss = _softmax_ce(x, lab, soft_label, True, ignore_index, axis)[0]
    if return_softmax:
        # Paddle's softmax output passes no gradient back to the logits
        sm = torch.softmax(clip_logits(x.detach(), axis), axis)
        return wrap(loss), wrap(sm.requires_grad_() if x.requires_grad else sm)
    return wrap(loss)


_REDUCTION = {"none": 0, "mean": 1, "sum": 2}


def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean", name=None):
    """Negative log-likelihood of log-probabilities [N, C, ...] at the int labels [N, ...]."""
    if reduction not in _REDUCTION:
        raise ValueError("The value of 'reduction' in nll_loss should be 'sum', 'mean' or "
                         f"'none', but received {reduction}, which is not allowed.")
    x, lab = input._t, label._t
    nd = x.dim()
    if nd - 1 != lab.dim() and nd != lab.dim():
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims "
                         f"(got input_dims{nd}, label_dims{lab.dim()})")
    if nd < 2:
        raise ValueError(f"Expected 2 or more dimensions (got {nd})")
    if x.shape[1] < 1:
        raise ValueError(f"Expected 1 or more classes (got num classes{x.shape[1]})")
    w = None if weight is None else weight._t
    if nd == 2 and lab.dim() == 2 and lab.numel() >= x.shape[0]:
        # Paddle's 2-D kernel reads the first N labels of the label buffer ([N, 1] or not)
        lab = lab.reshape(-1)[:x.shape[0]]
    lab = lab.long()
    if reduction != "mean":
        return wrap(_nn.nll_loss_nd(x, lab, w, _REDUCTION[reduction], ignore_index))
    # mean over the weights of the non-ignored labels; 0 (not NaN) when all are ignored
    total = _nn.nll_loss_nd(x, lab, w, 2, ignore_index)
    valid = lab != ignore_index
    count = valid.sum() if w is None else (w[torch.where(valid, lab, 0)] * valid).sum()
    return wrap(total / torch.where(count == 0, 1, count))


def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):
    """-(label * log(input) + (1 - label) * log(1 - input)), logs clipped at -100."""
    _check_reduction(reduction, "binary_cross_entropy")
    out = _nn.binary_cross_entropy(input._t, label._t, None, 0)
    if weight is not None:
        out = out * weight._t
    return wrap(_reduce(out, reduction))


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean",
                                     pos_weight=None, name=None):
    """Sigmoid cross entropy on logits; ``pos_weight`` weighs the positive term."""
    _check_reduction(reduction, "binary_cross_entropy_with_logits")
    out = torch.binary_cross_entropy_with_logits(
        logit._t, label._t, None, None if pos_weight is None else pos_weight._t, 0)
    if weight is not None:
        out = out * weight._t
    return wrap(_reduce(out, reduction))


def sigmoid_focal_loss(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum",
                       name=None):
    """Focal loss: alpha_t * (1 - p_t)^gamma * BCE(logit, label), divided by ``normalizer``."""
    _check_reduction(reduction, "sigmoid_focal_loss")
    if normalizer is not None and normalizer._t.dim() > 1:
        raise ValueError("Expected zero or one dimension of normalizer in sigmoid_focal_loss "
                         f"but got {normalizer._t.dim()}.")
    x, y = logit._t, label._t
    loss = torch.binary_cross_entropy_with_logits(x, y, None, None, 0)
    pred = torch.sigmoid(x)
    p_t = pred * y + (1 - pred) * (1 - y)
    alpha_t = alpha * y + (1 - alpha) * (1 - y)
    if x.dtype is F64:            # Paddle's pow holds the exponent as a float (alpha as double)
        gamma = float_attr(gamma)
    loss = alpha_t * loss * torch.pow(1 - p_t, gamma)
    if normalizer is not None:
        loss = loss / normalizer._t
    return wrap(_reduce(loss, reduction))


def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-08, reduction="mean",
                     name=None):
    """Poisson negative log-likelihood (with Stirling's term for labels > 1 when ``full``)."""
    if epsilon <= 0:
        raise ValueError("The value of `epsilon` in poisson_nll_loss should be positive, but "
                         f"received {epsilon:f}, which is not allowed")
    _check_reduction(reduction, "poisson_nll_loss")
    x, y = input._t, label._t
    if x.shape != y.shape:
        raise ValueError("input's shape must equal to label's shape")
    if log_input:
        out = torch.exp(x) - y * x
    else:
        out = x - y * torch.log(x + epsilon)
    if full:
        stirling = y * torch.log(y) - y + 0.5 * torch.log(2 * math.pi * y)
        out = out + torch.where(y > 1, stirling, torch.zeros_like(stirling))
    return wrap(_reduce(out, reduction))


def smooth_l1_loss(input, label, reduction="mean", delta=1.0, is_huber=True, name=None):
    """Huber loss with threshold ``delta`` (divided by delta when not ``is_huber``)."""
    t, lt = input._t, label._t
    if t.dtype != lt.dtype and t.is_floating_point() and lt.is_floating_point():
        common = torch.promote_types(t.dtype, lt.dtype)   # Paddle promotes (float16, float32)
        t, lt = t.to(common), lt.to(common)
    if t.dtype is F64:                                # Paddle's float attribute
        delta = float_attr(delta)
    if t.shape != lt.shape:
        raise ValueError("(InvalidArgument) The Input(input) and Input(label) should have the "
                         f"same shape, but received input shape {list(t.shape)} != label shape "
                         f"{list(lt.shape)}")
    out = _nn.huber_loss(t, lt, 0, delta)
    if not is_huber:
        out = out / delta
    _check_reduction(reduction, "smooth_l1_loss")
    return wrap(_reduce(out, reduction))


def l1_loss(input, label, reduction="mean", name=None):
    _check_reduction(reduction, "L1Loss")
    return wrap(_reduce((input._t - label._t).abs(), reduction))


def mse_loss(input, label, reduction="mean", name=None):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError("'reduction' in 'mse_loss' should be 'sum', 'mean' or 'none', "
                         f"but received {reduction}.")
    a, b = input._t, label._t
    if a.shape != b.shape:
        try:
            torch.broadcast_shapes(a.shape, b.shape)
        except RuntimeError:
            raise ValueError("(InvalidArgument) Broadcast dimension mismatch. Operands could not "
                             f"be broadcast together with the shape of input = {list(a.shape)} "
                             f"and the shape of label = {list(b.shape)}.") from None
    return wrap(_reduce(torch.square(a - b), reduction))


def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean", name=None):
    """relu(label * (other - input) + margin)."""
    _check_reduction(reduction, "MarginRankingLoss")
    out = (other._t - input._t) * label._t
    if margin != 0.0:
        out = out + torch.full((1,), margin, dtype=out.dtype, device=out.device)
    return wrap(_reduce(torch.relu(out), reduction))


def kl_div(input, label, reduction="mean", log_target=False, name=None):
    """label * (log(label) - input) pointwise (0 where label <= 0), or with ``log_target``
    exp(label) * (label - input); reductions 'mean', 'sum', 'batchmean', 'none'."""
    x, y = input._t, label._t
    if x.dtype is torch.float32 and y.dtype is torch.float64:
        x = x.double()
    elif x.dtype is torch.float64 and y.dtype is torch.float32:
        y = y.double()
    if log_target:
        out = torch.exp(y) * (y - x)
    else:
        out = torch.where(y > 0, y * (torch.log(y) - x), 0.0)
    if reduction == "mean":
        out = out.mean()
    elif reduction == "sum":
        out = out.sum()
    elif reduction == "batchmean" and x.dim() > 0:
        out = out.sum() / x.shape[0]
    return wrap(out)


def square_error_cost(input, label):
    """(input - label)^2 elementwise."""
    check_variable_and_dtype(input, "input", ["float32", "float64"], "square_error_cost")
    check_variable_and_dtype(label, "label", ["float32", "float64"], "square_error_cost")
    return wrap(torch.square(input._t - label._t))


def log_loss(input, label, epsilon=1e-4, name=None):
    """-label * log(input + eps) - (1 - label) * log(1 - input + eps)."""
    x, y = input._t, label._t
    if x.dim() != 2 or x.shape[1] != 1:
        raise ValueError("(InvalidArgument) Each row of Input(Predicted) contains a real value, "
                         "so the 2nd dimension of Input(X) must be 1,But got "
                         f"[{x.shape[-1] if x.dim() else 0}]")
    return wrap(-y * torch.log(x + epsilon) - (1 - y) * torch.log(1 - x + epsilon))



# ---------------------------------------------------------------------- margin / embedding losses
def _check_reduction2(reduction, api):
    """The wording of Paddle's newer losses."""
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"'reduction' in '{api}' should be 'sum', 'mean' or 'none', but "
                         f"received {reduction}.")


def _float_only(t, what="input"):
    if t.dtype not in (torch.float32, torch.float64):
        raise ValueError(f"The data type of {what} Variable must be 'float32' or 'float64'")



def soft_margin_loss(input, label, reduction="mean", name=None):
    """log(1 + exp(-label * input))."""
    _check_reduction(reduction, "soft_margin_loss")
    x, y = input._t, label._t
    if x.shape != y.shape:
        raise ValueError("input's shape must equal to label's shape")
    return wrap(_reduce(torch.log(1 + torch.exp(-y.to(x.dtype) * x)), reduction))


def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-06, reduction="mean",
                      name=None):
    """0.5 * (log(max(var, eps)) + (input - label)^2 / max(var, eps)) (+ 0.5 * log(2 pi) when
    ``full``); the clamp passes gradients through unchanged, as Paddle's docs say (Paddle 3.3.1
    itself passes none to ``variance``). A variance with one axis less than input, or a last
    axis of 1, broadcasts."""
    x, y, var = input._t, label._t, variance._t
    if var.shape != x.shape:
        if x.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)
        elif not (x.shape[:-1] == var.shape[:-1] and var.shape[-1] == 1):
            raise ValueError("variance is of incorrect shape")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    for t, what in ((x, "input"), (y, "label"), (var, "variance")):
        _float_only(t, what)
    if isinstance(var, torch.Tensor) and bool((var < 0).any()):
        raise ValueError("variance has negative entry/entries")
    with torch.no_grad():
        clamped = var.clamp(min=epsilon)
    var = var + (clamped - var).detach()       # the clamped value, the identity's gradient
    loss = 0.5 * (torch.log(var) + torch.square(x - y) / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return wrap(_reduce(loss, reduction))


def hinge_embedding_loss(input, label, margin=1.0, reduction="mean", name=None):
    """input where label == 1, relu(margin - input) where label == -1 (0 elsewhere)."""
    _check_reduction2(reduction, "hinge_embedding_loss")
    x, y = input._t, label._t
    zero = torch.zeros((1,), dtype=x.dtype, device=x.device)
    loss = torch.where(y == 1.0, x, zero) + torch.where(y == -1.0, torch.relu(margin - x), zero)
    return wrap(_reduce(loss, reduction))


def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean", name=None):
    """-(label * log_sigmoid(x) + (1 - label) * log_sigmoid(-x)), times ``weight``, averaged
    over the last axis."""
    _check_reduction2(reduction, "multi_label_soft_margin_loss")
    x, y = input._t, label._t
    if x.shape != y.shape:
        raise ValueError(f"The input and label should have same dimension,but received "
                         f"{list(x.shape)}!={list(y.shape)}")
    loss = -(y * _nn.log_sigmoid(x) + (1 - y) * _nn.log_sigmoid(-x))
    if weight is not None:
        loss = loss * weight._t
    return wrap(_reduce(loss.mean(-1), reduction))


def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None):
    """1 - cos(x1, x2) where label == 1, max(0, cos - margin) where label == -1; the cosine
    adds 1e-11 to each squared norm, as Paddle does."""
    a, b, y = input1._t, input2._t, label._t
    if y.dim() != 1:
        raise ValueError("1D target tensor expected, multi-target not supported")
    if a.shape != b.shape:
        raise ValueError("the shape of input tensor 1 should be equal to input tensor 2, but "
                         "found inputs with different sizes")
    if a.dim() > 2:
        raise ValueError("1D target tensor expects 1D or 2D input tensors, but found inputs "
                         "with different sizes")
    _float_only(a)
    if y.dtype not in (torch.int32, torch.int64, torch.float32, torch.float64):
        raise ValueError("The data type of label Variable must be 'int32', 'int64', "
                         "'float32', 'float64'")
    denom = torch.sqrt((torch.square(a).sum(-1) + 10e-12) * (torch.square(b).sum(-1) + 10e-12))
    cos = (a * b).sum(-1) / denom
    out = torch.where(y == 1, 1 - cos, 0.0) + torch.where(y == -1, (cos - margin).clamp(min=0),
                                                          0.0)
    if reduction == "none":
        return wrap(out)
    return wrap(out.mean() if reduction == "mean" else out.sum())


def _triplet(api, anchor, pos, neg, dist, margin, swap, reduction, check_nonneg):
    _check_reduction2(reduction, api)
    if margin < 0:
        raise ValueError("The margin between positive samples and negative samples should be "
                         "greater than 0.")
    if not anchor._t.shape == pos._t.shape == neg._t.shape:
        raise ValueError("input's shape must equal to positive's shape and negative's shape")
    d_pos, d_neg = dist(anchor, pos)._t, dist(anchor, neg)._t
    if swap:
        d_neg = torch.minimum(d_neg, dist(pos, neg)._t)
    if check_nonneg and isinstance(d_pos, torch.Tensor) and not (
            bool((d_pos >= 0).all()) and bool((d_neg >= 0).all())):
        raise ValueError("The positive distance or negative distance should be greater than 0, "
                         "The distance functions should be checked.")
    return wrap(_reduce((d_pos - d_neg + margin).clamp(min=0.0), reduction))


def triplet_margin_with_distance_loss(input, positive, negative, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean", name=None):
    """relu(d(input, positive) - d(input, negative) + margin) with ``distance_function``
    (default: the 2-norm pairwise distance); ``swap`` also uses d(positive, negative)."""
    if distance_function is None:
        distance_function = pairwise_distance
    return _triplet("triplet_margin_with_distance_loss", input, positive, negative,
                    distance_function, margin, swap, reduction, True)


def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-06, swap=False,
                        reduction="mean", name=None):
    """relu(||input - positive + eps||_p - ||input - negative + eps||_p + margin)."""
    return _triplet("triplet_margin_loss", input, positive, negative,
                    lambda a, b: pairwise_distance(a, b, p, epsilon), margin, swap, reduction,
                    False)


def multi_margin_loss(input, label, p=1, margin=1.0, weight=None, reduction="mean", name=None):
    """mean over classes of w[y] * max(0, margin - x[y] + x)^p, less the term of the label
    class itself (margin^p / C)."""
    _check_reduction2(reduction, "multi_margin_loss")
    x, lab = input._t, label._t
    if x.shape[0] != lab.shape[0]:
        raise ValueError(f"The label's shape[0] should be equal to input's shape[0], but "
                         f"received input's shape[0] {x.shape[0]} and label's shape[0]:"
                         f"{lab.shape[0]}. ")
    lab = lab.reshape(-1, 1).long()
    hinge = torch.pow((margin - x.gather(1, lab) + x).clamp(min=0.0), p)
    c = x.shape[1]
    # Paddle divides margin ** p by the class count as an int32 Tensor: the quotient has the
    # default float dtype
    const = margin ** p / c
    if x.dtype is F64 and default_float().torch is not F64:
        const = float_attr(const)
    if weight is None:
        loss = hinge.mean(1) - const
    else:
        w = weight._t
        if c != w.shape[0]:
            raise ValueError(f"The weight's shape[0] should be equal to input's shape[1]but "
                             f"received weight's shape[0]: {w.shape[0]} and input's shape[1]: "
                             f"{c}")
        w = w[lab.reshape(-1)].reshape(-1, 1)
        loss = (w * hinge).mean(1) - (w * const).squeeze()
    return wrap(_reduce(loss, reduction))


def dice_loss(input, label, epsilon=1e-05, name=None):
    """1 - 2 |X n Y| / (|X| + |Y| + eps) per sample (label one-hot over the last axis),
    averaged over the batch."""
    x, lab = input._t, label._t
    assert x.dtype in (torch.float32, torch.float64)
    assert lab.dtype in (torch.int32, torch.int64)
    assert x.dim() >= 2, "The rank of input should be greater than or equal to 2."
    assert x.dim() == lab.dim(), ("The rank of input and label should be equal, but received "
                                  f"input: {x.dim()}, label: {lab.dim()}.")
    assert lab.shape[-1] == 1, f"The last dimension of label should be 1, but received " \
                               f"{lab.shape[-1]}."
    assert x.shape[:-1] == lab.shape[:-1], "All dimensions should be equal except the last one."
    onehot = torch.nn.functional.one_hot(lab.squeeze(-1).long(), x.shape[-1]).to(x.dtype)
    dims = list(range(1, x.dim()))
    inse = (x * onehot).sum(dims)
    denom = x.sum(dims) + onehot.sum(dims)
    return wrap((1 - inse * 2 / (denom + epsilon)).mean())


def npair_loss(anchor, positive, labels, l2_reg=0.002):
    """Softmax cross entropy of the anchor-positive similarities against the label-equality
    targets (rows normalised), plus l2_reg / 4 times the mean squared norms."""
    a, p, lab = anchor._t, positive._t, labels._t
    if a.numel() == 0:
        raise ValueError("The dims of anchor should be greater than 0.")
    if p.numel() == 0:
        raise ValueError("The dims of positive should be greater than 0.")
    n = lab.shape[0]
    lab = lab.reshape(n, 1).expand(n, n)
    target = (lab == lab.t()).to(torch.float32)
    target = target / target.sum(1, keepdim=True)
    l2 = torch.square(a).sum(1).mean() + torch.square(p).sum(1).mean()
    l2 = l2 * 0.25 * l2_reg
    sim = torch.matmul(a, p.t())
    ce = -(target * torch.log_softmax(sim, -1)).sum(-1, keepdim=True)
    return wrap(l2 + (target * ce).sum(0).mean())


# ---------------------------------------------------------------------- hierarchical sigmoid
def _default_tree(lab, num_classes, device):
    """The complete binary tree of Paddle's default code: for class c the code is
    c + num_classes; bit j of the path is ((code >> j) & 1) at node (code >> (j + 1)) - 1, the
    path having bit_length(code) - 1 steps (padded with node -1)."""
    length = max(1, (num_classes - 1).bit_length())
    code = lab.reshape(-1, 1).long() + num_classes
    j = torch.arange(length, device=device)
    node = (code >> (j + 1)) - 1
    bit = (code >> j) & 1
    valid = (code >> (j + 1)) > 0
    return torch.where(valid, node, -1), torch.where(valid, bit, 0)


def hsigmoid_loss(input, label, num_classes, weight, bias=None, path_table=None,
                  path_code=None, is_sparse=False, name=None):
    """Hierarchical sigmoid loss [N, 1]: the sum over the nodes of the label's path of
    softplus(z) - bit * z, z = x . weight[node] + bias[node] clipped to [-40, 40]. As in Paddle's
    kernel the off-path slots of the fixed-length path also add softplus(0) = log 2."""
    return wrap(hsigmoid_parts(input, label, num_classes, weight, bias, path_table,
                               path_code)[0])


def hsigmoid_parts(input, label, num_classes, weight, bias=None, path_table=None,
                   path_code=None):
    """``(loss, pre_out)`` torch tensors of ``hsigmoid_loss``: ``pre_out`` [N, path length] is
    softplus(z) per step of the path (log 2 on the off-path slots), what Paddle's
    ``hierarchical_sigmoid`` op gives as ``PreOut``."""
    if num_classes < 2:
        raise ValueError(f"Expected num_classes >= 2 (got {num_classes})")
    x, w = input._t, weight._t
    if path_table is None:
        node, bit = _default_tree(label._t, num_classes, x.device)
    else:
        # Paddle's kernel reads a code as a bit: every non-zero code is 1
        node, bit = path_table._t.long(), (path_code._t != 0).long()
        # a custom path ends at its first negative node
        valid = torch.cumprod((node >= 0).long(), 1).bool()
        node, bit = torch.where(valid, node, -1), torch.where(valid, bit, 0)
    on_path = node >= 0
    safe = torch.where(on_path, node, 0)
    z = torch.einsum("nd,nkd->nk", x, w[safe])
    if bias is not None:
        z = z + bias._t.reshape(-1)[safe]
    # the clip is in the value only: Paddle's gradient is taken at the clipped value
    z = torch.where(on_path, z + (z.clamp(-40.0, 40.0) - z).detach(), 0.0)
    pre = torch.nn.functional.softplus(z)
    loss = pre - bit.to(z.dtype) * z
    return loss.sum(1, keepdim=True), pre


# ---------------------------------------------------------------------- margin softmax
def margin_cross_entropy(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0,
                         group=None, return_softmax=False, reduction="mean"):
    """ArcFace-style softmax cross entropy on cosine logits: the label class's logit becomes
    cos(margin1 * acos(x) + margin2) - margin3, all logits are multiplied by ``scale``. One
    process only (a ``group`` spanning several ranks is not supported). Loss [N, 1] without a
    reduction; float16 is computed in float32."""
    assert reduction in ("mean", "sum", "none", None)
    _single_process(group, "margin_cross_entropy")
    x, lab = logits._t, label._t
    if x.shape[-1] == 0:
        raise ValueError(f"Expected logit_dims[-1] > 0 (got logit_dims {list(x.shape)})")
    if x.dim() - 1 != lab.dim() and x.dim() != lab.dim():
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims"
                         f"             (got input_dims{x.dim()}, label_dims{lab.dim()})")
    if x.dim() - 1 == lab.dim():
        lab = lab.unsqueeze(-1)
    half = x.dtype is torch.float16
    if half:
        x = x.float()
    lab = lab.long()
    target = x.gather(-1, lab)
    theta = torch.acos(target)
    if margin1 != 1.0:
        theta = margin1 * theta
    if margin2 != 0.0:
        theta = theta + margin2
    target = torch.cos(theta)
    if margin3 != 0.0:
        target = target - margin3
    z = x.scatter(-1, lab, target) * scale
    logp = torch.log_softmax(z, -1)
    loss = _reduce(-logp.gather(-1, lab), reduction)
    softmax = torch.exp(logp)
    if half:
        loss, softmax = loss.half(), softmax.half()
    return (wrap(loss), wrap(softmax)) if return_softmax else wrap(loss)


# ---------------------------------------------------------------------- adaptive softmax
def adaptive_log_softmax_with_loss(input, label, head_weight, tail_weights, cutoffs,
                                   head_bias=None, name=None):
    """Adaptive softmax (Grave et al.): classes below ``cutoffs[0]`` are scored by the head,
    class c in [cutoffs[i], cutoffs[i+1]) by head cluster logit i plus the log-softmax of the
    two-layer projection ``tail_weights[i]``. Returns (log-prob of each label, mean loss)."""
    x, lab = input._t, label._t
    if lab.dim() == 1:
        if x.shape[0] != lab.shape[0] and lab.shape[0] != 0:
            raise ValueError("Input and label should have the same size in the batch "
                             "dimension.")
        if x.dim() != 2:
            raise ValueError(f"1D label tensor expects 2D input tensors, but found inputs with "
                             f"size {list(x.shape)}")
    elif lab.dim() == 0:
        if x.dim() != 1:
            raise ValueError(f"0D label tensor expects 1D input tensors, but found inputs with "
                             f"size {list(x.shape)}")
    else:
        raise ValueError("0D or 1D label tensor expected, multi-label not supported")
    batched = lab.dim() > 0
    if not batched:
        x, lab = x.unsqueeze(0), lab.unsqueeze(0)
    bounds = [0] + [int(c._t.item()) if hasattr(c, "_t") else int(c) for c in cutoffs]
    if isinstance(lab, torch.Tensor) and lab.numel() and bool(
            ((lab < 0) | (lab >= bounds[-1])).any()):
        raise ValueError(f"label values should be in [0, n_classes - 1], but values in range "
                         f"[{lab.min().item()}, {lab.max().item()}] were found. ")
    head = torch.log_softmax(torch.nn.functional.linear(
        x, head_weight._t.t(), None if head_bias is None else head_bias._t), 1)
    # the head column of each label: the class itself, or its cluster's column
    col = lab.long()
    output = torch.zeros(lab.shape, dtype=x.dtype, device=x.device)
    for i in range(1, len(bounds) - 1):
        lo, hi = bounds[i], bounds[i + 1]
        inside = (lab >= lo) & (lab < hi)
        w1, w2 = tail_weights[i - 1]
        cluster = torch.log_softmax(torch.matmul(torch.matmul(x, w1._t), w2._t), 1)
        rel = torch.where(inside, lab - lo, 0).long().unsqueeze(1)
        output = torch.where(inside, cluster.gather(1, rel).squeeze(1), output)
        col = torch.where(inside, bounds[1] + i - 1, col)
    output = output + head.gather(1, col.unsqueeze(1)).squeeze(1)
    loss = (-output).mean()
    return wrap(output if batched else output.squeeze(0)), wrap(loss)


def multi_label_margin_loss(input, label, reduction="mean", name=None):
    """Multi-class multi-label hinge loss (torch's ``multilabel_margin_loss``): for each row,
    the target classes are ``label``'s entries before its first -1, and the loss is the sum of
    ``max(0, 1 - (x[target] - x[other]))`` over targets and non-target classes, divided by the
    number of classes. ``input`` [N, C] float, ``label`` [N, C] int."""
    if reduction not in ("sum", "mean", "none"):
        raise ValueError("'reduction' in 'multi_label_margin_loss' should be 'sum', 'mean' or "
                         f"'none', but received {reduction}.")
    x, y = input._t, label._t
    if x.dim() != 2:
        raise ValueError(f"Expected 2D input tensor, but got {x.dim()}D")
    if y.dim() != 2:
        raise ValueError(f"Expected 2D label tensor, but got {y.dim()}D")
    if y.numel() > 0:
        if int(y.min()) < -1:
            raise ValueError("label values should be >= -1")
        if int(y.max()) >= x.shape[1]:
            raise ValueError(f"label values should be < {x.shape[1]}")
    return wrap(_nn.multilabel_margin_loss(x, y.long(), {"none": 0, "mean": 1, "sum": 2}[
        reduction]))
