"""Loss functions of ``paddle.nn.functional``.

``cross_entropy`` follows Paddle's rules rather than torch's: labels may carry a trailing
(axis) dimension of 1, ``reduction='mean'`` divides by the number of non-ignored labels only
when ``ignore_index >= 0`` (with the default -100 it averages over every sample, ignored ones
counting as 0), and class weights divide by the sum of the gathered weights.
"""
import math

import torch

from ...framework.tensor import wrap
from .common import label_smooth, one_hot

__all__ = ["cross_entropy", "softmax_with_cross_entropy", "nll_loss", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "sigmoid_focal_loss", "poisson_nll_loss",
           "smooth_l1_loss", "l1_loss", "mse_loss", "margin_ranking_loss", "kl_div",
           "square_error_cost", "log_loss"]

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
    logp = torch.log_softmax(x, axis) if use_softmax else torch.log(x)
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
        return _nn.cross_entropy_loss(x, target, w, reduction, ignore_index, 0.0)
    return _nn.nll_loss_nd(torch.log(x), target, w, reduction, ignore_index)


def _hard_cross_entropy(x, lab, weight, ignore_index, reduction, axis, use_softmax, squeeze_out):
    """Cross entropy of int labels (without the class axis) through torch's fused kernel:
    the per-sample losses, ignored labels giving 0, then Paddle's reduction."""
    nd = x.dim()
    if nd > 1 and axis % nd != 1:
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
        sm = torch.softmax(x.detach(), axis)
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
    out = _nn.huber_loss(input._t, label._t, 0, delta)
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
    return wrap(_reduce(torch.square(input._t - label._t), reduction))


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
    return wrap(torch.square(input._t - label._t))


def log_loss(input, label, epsilon=1e-4, name=None):
    """-label * log(input + eps) - (1 - label) * log(1 - input + eps)."""
    x, y = input._t, label._t
    if x.dim() != 2 or x.shape[1] != 1:
        raise ValueError("(InvalidArgument) Each row of Input(Predicted) contains a real value, "
                         "so the 2nd dimension of Input(X) must be 1,But got "
                         f"[{x.shape[-1] if x.dim() else 0}]")
    return wrap(-y * torch.log(x + epsilon) - (1 - y) * torch.log(1 - x + epsilon))
