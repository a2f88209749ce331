"""Sequence and sampling ops of ``paddle.nn.functional``: the CTC and RNN-T losses, beam-search
``gather_tree``, ``temporal_shift`` and ``class_center_sample``.

``ctc_loss`` takes Paddle's conventions (unnormalised logits [T, B, C], the softmax is applied
inside as warp-ctc does; ``norm_by_times`` scales only the gradient) and runs torch's CTC.
``rnnt_loss`` is the transducer forward (alpha) recursion written with torch ops along the
anti-diagonals, its gradient from autograd.

Paddle's ``class_center_sample`` (and ``paddle.geometric.sample_neighbors``) seed a private
engine from ``std::random_device``, so Paddle itself does not repeat them. Here they draw from
:func:`side_generator`: repeatable under ``paddle.seed`` and leaving the shared stream where
Paddle leaves it.
"""
import numpy as np
import torch

from ...framework.tensor import wrap
from ...random import default_generator as _shared
from ...random.engine import Generator
from ...random.distributions import randint

__all__ = ["temporal_shift", "gather_tree", "ctc_loss", "rnnt_loss", "class_center_sample"]

_SIDE = {"mt": None, "pos": None, "gen": None}


def side_generator():
    """A private CPU engine for the ops that Paddle seeds from ``std::random_device``: seeded
    from the next word of the shared engine without consuming it, and seeded again whenever
    the shared engine moved or was seeded since the last use (so ``paddle.seed(s)`` repeats)."""
    if _SIDE["mt"] is not _shared._mt or _SIDE["pos"] != _shared._pos:
        _SIDE.update(mt=_shared._mt, pos=_shared._pos, gen=Generator(int(_shared.peek_raw(1)[0])))
    return _SIDE["gen"]


def _single_process(group, api):
    """Paddle's check of the ``group`` of a model-parallel op; only one process is supported."""
    if not (group is False or group is None or hasattr(group, "is_member")):
        raise ValueError(f"Expected group is False, None or instance of "
                         f"paddle.distributed.collective.Group              (got group: {group})")
    if getattr(group, "nranks", 1) > 1:
        raise NotImplementedError(f"{api}: a group of several ranks is not supported")


def temporal_shift(x, seg_num, shift_ratio=0.25, name=None, data_format="NCHW"):
    """Shift the first ``C * shift_ratio`` channels one segment forward in time and the next
    ``C * shift_ratio`` one segment back (zeros enter at the ends); x is [N * seg_num, C, H, W]
    (or NHWC)."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"Attr(data_format) should be 'NCHW' or 'NHWC'. Received "
                         f"Attr(data_format): {data_format}.")
    t = x._t
    if t.dim() != 4:
        raise ValueError(f"(InvalidArgument) Input(X) rank should be 4 in shape of [N*T, C, H, "
                         f"W], but received X rank({t.dim()})")
    if seg_num <= 0 or t.shape[0] % seg_num:
        raise ValueError(f"(InvalidArgument) Input(X) dimension[0] should be divided exactly by "
                         f"Attr(seg_num), but received X dimension[0]({t.shape[0]}), "
                         f"seg_num({seg_num}).")
    ca = 2 if data_format == "NCHW" else 4          # the channel axis of [N, T, ...]
    v = t.reshape((t.shape[0] // seg_num, seg_num) + tuple(t.shape[1:]))
    c = v.shape[ca]
    ratio = np.float32(shift_ratio)
    c1, c2 = int(np.float32(c) * ratio), int(np.float32(c) * np.float32(2) * ratio)
    zero = torch.zeros_like(v.narrow(1, 0, 1))
    back = torch.cat([zero, v.narrow(1, 0, seg_num - 1)], 1).narrow(ca, 0, c1)
    fwd = torch.cat([v.narrow(1, 1, seg_num - 1), zero], 1).narrow(ca, c1, c2 - c1)
    out = torch.cat([back, fwd, v.narrow(ca, c2, c - c2)], ca)
    return wrap(out.reshape(t.shape))


def gather_tree(ids, parents):
    """Backtrack beam search: the full token sequence of each final beam, following
    ``parents`` ([max_time, batch, beam]) from the last step back to the first."""
    if ids.ndim != 3:
        raise ValueError("The input ids must be a 3D tensor with shape [length, batch_size, "
                         "beam_size]")
    if ids.ndim != parents.ndim:
        raise ValueError("The ids's shape must be the same as parents' shape. ")
    i, p = ids._t, parents._t
    if p.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"The data type of 'parents' in gather_tree must be ['int32', 'int64'], "
                        f"but received {str(p.dtype)[6:]}. ")
    steps = i.shape[0]
    if steps == 0:
        return wrap(i.clone())
    out = [i[steps - 1]]
    parent = p[steps - 1].long()
    for s in range(steps - 2, -1, -1):
        out.append(i[s].gather(-1, parent))
        parent = p[s].long().gather(-1, parent)
    return wrap(torch.stack(out[::-1]))


def _reduce_seq(loss, reduction, lengths):
    assert reduction in ("mean", "sum", "none")
    if reduction == "mean":
        return (loss / lengths.to(loss.dtype)).mean()
    return loss.sum() if reduction == "sum" else loss


def _grad_scaled(t, factor):
    """``t`` with its value unchanged and its gradient multiplied by ``factor``."""
    return t * factor + (t - t * factor).detach()


def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean",
             norm_by_times=False, zero_infinity=False):
    """CTC loss of unnormalised logits [max_time, batch, classes + 1] (softmax applied inside)
    against padded int labels [batch, max_label_length]: [batch] with ``reduction='none'``,
    'mean' averages loss / label_length. ``norm_by_times`` divides each sample's gradient by
    its input length (the loss value is unchanged)."""
    x = log_probs._t
    il, ll = input_lengths._t.long(), label_lengths._t.long()
    lp = torch.log_softmax(x, -1)
    if norm_by_times:
        lp = _grad_scaled(lp, 1.0 / il.to(lp.dtype).reshape(1, -1, 1))
    # zero_infinity: Paddle zeroes infinite losses and their gradients (torch's rule too)
    loss = torch.ctc_loss(lp, labels._t.long(), il, ll, blank, 0, bool(zero_infinity))
    return wrap(_reduce_seq(loss, reduction, label_lengths._t))


def rnnt_loss(input, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001,
              reduction="mean", name=None):
    """RNN-T loss of log-probabilities [batch, max_time, max_label + 1, vocab] (as Paddle's CPU
    kernel takes them: no softmax inside) against padded labels [batch, max_label]: [batch]
    with ``reduction='none'``, 'mean' is the sum over the batch size. FastEmit multiplies the
    gradient of the label emissions by 1 + fastemit_lambda."""
    assert reduction in ("mean", "sum", "none")
    lp = input._t
    b, tmax, u1 = lp.shape[0], lp.shape[1], lp.shape[2]
    lab = label._t.long()
    tl, ul = input_lengths._t.long(), label_lengths._t.long()
    blank_lp = lp[..., blank]                                         # [B, T, U + 1]
    emit = lp[:, :, :u1 - 1].gather(-1, lab[:, None, :u1 - 1, None].expand(
        b, tmax, u1 - 1, 1)).squeeze(-1)                              # [B, T, U]
    if fastemit_lambda:
        emit = _grad_scaled(emit, 1.0 + fastemit_lambda)
    neg = torch.tensor(-1e30, dtype=lp.dtype, device=lp.device)
    t_idx = torch.arange(tmax, device=lp.device)
    diag = torch.where(t_idx == 0, torch.zeros((), dtype=lp.dtype, device=lp.device),
                       neg).expand(b, tmax)                           # n = 0: alpha[0, 0] = 0
    diags = [diag]
    for n in range(1, tmax + u1 - 1):
        u = n - t_idx                                                 # the cell (t, n - t)
        ok = (u >= 0) & (u < u1)
        from_blank = torch.cat([neg.expand(b, 1), diag[:, :-1]], 1) + blank_lp[
            :, (t_idx - 1).clamp(min=0), u.clamp(0, u1 - 1)]
        from_blank = torch.where((t_idx >= 1) & ok, from_blank, neg)
        from_emit = diag + emit[:, t_idx, (u - 1).clamp(0, max(u1 - 2, 0))] if u1 > 1 else neg
        from_emit = torch.where((u >= 1) & ok, from_emit, neg)
        diag = torch.where(ok, torch.logaddexp(from_blank, from_emit), neg)
        diags.append(diag)
    alphas = torch.stack(diags)                                       # [T + U, B, T]
    bi = torch.arange(b, device=lp.device)
    last = alphas[tl - 1 + ul, bi, tl - 1] + blank_lp[bi, tl - 1, ul]
    loss = -last
    if reduction == "mean":
        return wrap(loss.sum() / b)
    return wrap(loss.sum() if reduction == "sum" else loss)


def class_center_sample(label, num_classes, num_samples, group=None):
    """Partial-FC class sampling on one process: the sorted distinct labels (the positive
    centres) followed by random other classes up to ``num_samples``; returns (label remapped
    to positions in that list, the sampled class ids)."""
    _single_process(group, "class_center_sample")
    if num_samples > num_classes:
        raise ValueError(f"Expected num_samples less than or equal to {num_classes}, got "
                         f"num_samples {num_samples}")
    lab = label._t
    if lab.numel() < 1:
        raise ValueError(f"Expected label_size > 0              (got label_size: {lab.numel()})")
    if lab.dim() != 1:
        raise ValueError(f"Expected label_dims == 1              (got label_dims: {lab.dim()})")
    if num_samples <= 0:
        raise ValueError(f"(InvalidArgument) The value 'num_samples' for Op(class_center_sample) "
                         f"must be greater than 0, but the value given is {num_samples}.")
    positives, remapped = torch.unique(lab, sorted=True, return_inverse=True)
    chosen = set(positives.tolist())
    extra = []
    if len(chosen) < num_samples:
        gen = side_generator()
        while len(chosen) < num_samples:
            for c in randint(gen, 0, num_classes, [2 * (num_samples - len(chosen))]).tolist():
                if c not in chosen and len(chosen) < num_samples:
                    chosen.add(c)
                    extra.append(c)
    sampled = torch.cat([positives, torch.tensor(extra, dtype=lab.dtype, device=lab.device)])
    return wrap(remapped.to(lab.dtype)), wrap(sampled)
