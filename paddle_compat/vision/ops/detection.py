"""Detection ops of ``paddle.vision.ops``: non-maximum suppression (``nms``, ``matrix_nms``), box
encoding (``box_coder``), anchors (``prior_box``), YOLOv3 heads (``yolo_box``, ``yolo_loss``) and
the two-stage detectors' proposal ops (``generate_proposals``, ``distribute_fpn_proposals``);
and the kernels Paddle offers only as operators (``multiclass_nms`` for ``multiclass_nms3``,
batched or per RoI, and ``anchor_generator``), which ``paddle._C_ops`` / ``paddle._legacy_C_ops``
expose for PaddleDetection.

Written with torch ops, vectorised over boxes, anchors and pixels; a Python loop runs only per
image where Paddle's semantics are per image (the proposal ops, matrix NMS) and per block of
sorted boxes in greedy NMS (see ``_greedy_keep``).

The rounding follows Paddle's CPU kernels where it shows in float64: attributes Paddle holds as
C++ ``float`` (variances, sizes, aspect ratios, thresholds) are rounded to float32 first.

What differs from Paddle 3.3.1, deliberately:

- ``yolo_loss``'s gradient is autograd's: where two ground-truth boxes of one image fall on the
  same cell and anchor, Paddle's backward kernel keeps the gradient of the last one only (its
  forward adds both losses); ours is the gradient of the loss as computed.
- ``generate_proposals`` with ``nms_thresh <= 0`` returns the pre-NMS candidates sorted by
  score; Paddle returns them in the order ``std::nth_element`` left them (unspecified).
- ``box_coder`` decoding float64 boxes with the variance given as a list: Paddle 3.3.1's
  kernel reads the list (held as C++ floats) as doubles, so its result is garbage there (with
  [0.1, 0.1, 0.2, 0.2] it decodes as with no variance at all); we apply the variance as its
  docs say and as its float32 kernel and its Tensor-variance path do.
- Ties between equal scores are broken by position (stable sorts); Paddle's sorts are not
  stable, so its order among equal scores is unspecified.
"""
import math
import operator

import numpy as np
import torch

from ...framework.dtype import float_attr
from ...framework.tensor import Tensor, wrap
from ...ops.common import tensor_arg
from ...static.proxy import SENTINELS, StaticProxy

__all__ = ["nms", "matrix_nms", "box_coder", "prior_box", "yolo_box", "yolo_loss",
           "generate_proposals", "distribute_fpn_proposals"]

_FLOATS = (torch.float32, torch.float64)
# The block size of the greedy suppression: a block is resolved by fixed-point iteration on its
# BLOCK x BLOCK overlap matrix (bench/bench_vision_ops.py measured 128..512 alike).
_BLOCK = 256
# Paddle's clip of the log-size deltas in generate_proposals: log(1000 / 16).
_BBOX_CLIP = math.log(1000.0 / 16.0)


def _float_tensor(x, api, arg, pos, kernel):
    """The torch tensor of ``x``, a float32/float64 Tensor (Paddle has CPU kernels only for
    those: another dtype is its missing-kernel RuntimeError)."""
    t = tensor_arg(x, api, arg, pos)
    if t.dtype not in _FLOATS:
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{str(t.dtype).replace('torch.', '')}) of kernel `{kernel}` is not "
                           f"registered.")
    return t


def _attr(v, dtype):
    """A C++ ``float`` attribute as the kernel sees it for a ``dtype`` computation."""
    return float_attr(v) if dtype == torch.float64 else v


# ---------------------------------------------------------------------------- greedy NMS
def _greedy_keep(boxes, iou_of, threshold, eta=1.0, groups=None, limit=None):
    """Greedy suppression over ``boxes`` already sorted by score: box i is kept unless a kept
    box j < i (of the same ``groups`` value, when given) overlaps it by more than the
    threshold in force (``iou_of(boxes[j], boxes[i]) > t``; with ``eta < 1`` the threshold is
    multiplied by eta after each kept box while it is above 0.5, as Paddle's adaptive NMS
    does). Returns the kept positions (int64, ascending), the first ``limit`` of them if given.

    Vectorised by blocks of ``_BLOCK`` boxes, the overlaps computed only where they can matter
    (kept boxes x block, block x block): a block first drops the boxes that the boxes kept
    before it suppress (one reduction), then resolves itself by fixed-point iteration
    ``keep[i] = cand[i] and no kept j < i in the block suppresses i``. Position i depends only
    on positions before it, so the recurrence has one fixed point, the greedy answer, and the
    iteration reaches it in at most (length of the longest suppression chain + 1) steps."""
    n = boxes.shape[0]
    dev = boxes.device
    kept = torch.zeros(0, dtype=torch.long, device=dev)
    adaptive = eta < 1.0 and threshold > 0.5
    if adaptive:
        ts, t = [], threshold               # ts[k]: the threshold in force after k kept boxes
        while True:
            ts.append(t)
            if t <= 0.5 or len(ts) > n:
                break
            t *= eta
        table = torch.tensor(ts, dtype=boxes.dtype, device=dev)
    for s in range(0, n, _BLOCK):
        e = min(s + _BLOCK, n)
        blk = boxes[s:e]
        m = e - s
        iou_bb = iou_of(blk, blk)                                         # [m(j), m(i)]
        iou_pb = iou_of(boxes[kept], blk)                                 # [K, m]
        if groups is not None:
            g = groups[s:e]
            nan = float("nan")
            iou_bb = iou_bb.masked_fill(g[:, None] != g[None, :], nan)
            iou_pb = iou_pb.masked_fill(groups[kept][:, None] != g[None, :], nan)
        tri = torch.ones(m, m, dtype=torch.bool, device=dev).triu(1)     # j < i
        if adaptive:
            k = torch.ones(m, dtype=torch.bool, device=dev)
            while True:
                cnt = kept.numel() + torch.cumsum(k, 0) - k.long()
                th = table[cnt.clamp(max=table.numel() - 1)]
                nk = ~((iou_pb > th).any(0) | ((iou_bb > th) & tri & k[:, None]).any(0))
                if torch.equal(nk, k):
                    break
                k = nk
        else:
            over = (iou_bb > threshold) & tri
            cand = ~(iou_pb > threshold).any(0)
            k = cand
            while True:
                nk = cand & ~(over & k[:, None]).any(0)
                if torch.equal(nk, k):
                    break
                k = nk
        kept = torch.cat([kept, k.nonzero().flatten() + s])
        if limit is not None and kept.numel() >= limit:
            return kept[:limit]
    return kept


def _columns(a, b):
    """The corner columns of ``a`` [..., K, 4] as [..., K, 1] and of ``b`` [..., M, 4] as
    [..., 1, M], each contiguous (broadcasting strided columns is several times slower)."""
    ca = a.movedim(-1, 0).contiguous().unsqueeze(-1)
    cb = b.movedim(-1, 0).contiguous().unsqueeze(-2)
    return ca, cb


def _iou_plain(a, b):
    """Pairwise IoU [..., K, M] of corner boxes ``a`` [..., K, 4] and ``b`` [..., M, 4] as
    Paddle's nms kernel computes it (areas without clamping, intersections clamped at 0; 0/0
    stays NaN, which suppresses nothing)."""
    ca, cb = _columns(a, b)
    area_a = (ca[2] - ca[0]) * (ca[3] - ca[1])
    area_b = (cb[2] - cb[0]) * (cb[3] - cb[1])
    w = (torch.minimum(ca[2], cb[2]) - torch.maximum(ca[0], cb[0])).clamp_(min=0)
    h = (torch.minimum(ca[3], cb[3]) - torch.maximum(ca[1], cb[1])).clamp_(min=0)
    inter = w.mul_(h)
    return inter / ((area_a + area_b) - inter)


def _bbox_area(b, normalized):
    """Paddle's BBoxArea: 0 for an inverted box, else w*h (+1 on each side unnormalized)."""
    w = b[..., 2] - b[..., 0]
    h = b[..., 3] - b[..., 1]
    area = w * h if normalized else (w + 1) * (h + 1)
    return torch.where((w < 0) | (h < 0), torch.zeros_like(area), area)


def _jaccard(a, b, normalized, exact=True):
    """Paddle's JaccardOverlap, pairwise [..., K, M] between the boxes ``a`` [..., K, 4] and
    ``b`` [..., M, 4]: 0 where they do not touch, else intersection over union (+1 pixel on
    each side unnormalized). With ``exact=False`` (for boxes none of which is inverted) the
    boxes that do not touch get their 0 from clamped sides, half the work; two such boxes
    of zero area then give 0/0 = NaN instead of 0."""
    ca, cb = _columns(a, b)
    iw = torch.minimum(ca[2], cb[2]) - torch.maximum(ca[0], cb[0])
    ih = torch.minimum(ca[3], cb[3]) - torch.maximum(ca[1], cb[1])
    if exact:
        # Paddle's test: b lies wholly left, right, above or below a
        apart = (cb[0] > ca[2]) | (cb[2] < ca[0]) | (cb[1] > ca[3]) | (cb[3] < ca[1])
    if normalized:
        inter = iw.clamp_(min=0).mul_(ih.clamp_(min=0)) if not exact else iw.mul_(ih)
    else:
        if not exact:
            # not inverted: the boxes are apart exactly where a raw side is negative
            iw = (iw + 1).masked_fill_(iw < 0, 0.0)
            ih = (ih + 1).masked_fill_(ih < 0, 0.0)
            inter = iw.mul_(ih)
        else:
            inter = (iw + 1).mul_(ih + 1)
    union = (_bbox_area(a, normalized).unsqueeze(-1) + _bbox_area(b, normalized).unsqueeze(-2))
    iou = inter / union.sub_(inter)
    return iou.masked_fill_(apart, 0.0) if exact else iou


def nms(boxes, iou_threshold=0.3, scores=None, category_idxs=None, categories=None,
        top_k=None):
    """Indices (int64) of the boxes kept by non-maximum suppression: a box is dropped when it
    overlaps a kept box of higher rank (and, with ``category_idxs``, of the same category) by
    IoU > ``iou_threshold``. Without ``scores`` the boxes are ranked as given; with them, by
    score, and the kept indices come sorted by score. With ``category_idxs`` only the
    categories listed in ``categories`` are kept, at most ``top_k`` of them."""
    b = _float_tensor(boxes, "nms", "x", 0, "nms").detach()
    if b.dim() != 2 or b.shape[1] != 4:
        raise ValueError(f"(InvalidArgument) The shape {list(b.shape)} of boxes must be (N, 4).")
    iou_threshold = _attr(iou_threshold, b.dtype)
    if scores is None:
        return wrap(_greedy_keep(b, _iou_plain, iou_threshold))
    s = tensor_arg(scores, "argsort", "x", 0).detach()
    if category_idxs is None:
        order = torch.argsort(s, descending=True, stable=True)
        return wrap(order[_greedy_keep(b[order], _iou_plain, iou_threshold)])
    if top_k is not None:
        assert top_k <= s.shape[0], "top_k should be smaller equal than the number of boxes"
    assert categories is not None, (
        "if category_idxs is given, categories which is a list of unique id of all categories "
        "is necessary")
    c = tensor_arg(category_idxs, "equal", "x", 0)
    cats = torch.as_tensor(list(categories), dtype=c.dtype, device=c.device)
    listed = torch.isin(c, cats).nonzero().flatten()
    order = listed[torch.argsort(s[listed], descending=True, stable=True)]
    # suppression only within a category; the first top_k kept are the top_k best
    kept = order[_greedy_keep(b[order], _iou_plain, iou_threshold, groups=c[order],
                              limit=top_k)]
    return wrap(kept)


# ---------------------------------------------------------------------------- matrix NMS
def _nms_inputs(bboxes, scores, kernel):
    """The torch tensors of a batched NMS's bboxes [N, M, 4] and scores [N, C, M] (scores in
    the boxes' dtype), checked as Paddle's kernels check them."""
    bb = _float_tensor(bboxes, kernel, "bboxes", 0, kernel)
    sc = _float_tensor(scores, kernel, "scores", 1, kernel)
    if bb.dim() != 3 or bb.shape[2] != 4:
        raise ValueError(f"(InvalidArgument) The rank of Input(BBoxes) must be 3 with the last "
                         f"dimension 4, but received shape {list(bb.shape)}.")
    if sc.dim() != 3 or sc.shape[0] != bb.shape[0] or sc.shape[2] != bb.shape[1]:
        raise ValueError(f"(InvalidArgument) The shape of Input(Scores) {list(sc.shape)} must "
                         f"be [N, C, M] with BBoxes {list(bb.shape)}.")
    return bb, sc.to(bb.dtype)


def _matrix_nms_image(bb, sc, score_threshold, post_threshold, nms_top_k, keep_top_k,
                      use_gaussian, sigma, background_label, normalized):
    """(detections [k, 6], box indices [k]) of one image: bb [M, 4], sc [C, M]."""
    num_class, m = sc.shape
    classes = torch.tensor([c for c in range(num_class) if c != background_label],
                           dtype=torch.long, device=sc.device)
    s = sc[classes]                                              # [C', M]
    # only the boxes above the threshold take part: the longest such row bounds the work
    k = int((s > score_threshold).sum(1).max()) if s.numel() else 0
    k = k if nms_top_k <= -1 else min(nms_top_k, k)
    top, idx = torch.sort(s, dim=1, descending=True, stable=True)
    top, idx = top[:, :k], idx[:, :k]
    valid = top > score_threshold                                # a prefix of each row
    bx = bb[idx]                                                 # [C', k, 4]
    # no inverted box: the cheaper overlaps (their NaN for two zero-area boxes apart acts as
    # Paddle's 0 does: no decay, no max; a decay factor >= 1 needs sigma >= 0)
    exact = bool(((bb[:, 2] < bb[:, 0]) | (bb[:, 3] < bb[:, 1])).any()) or (
        use_gaussian and sigma < 0)
    upper = ~torch.ones(k, k, dtype=torch.bool, device=sc.device).tril(-1)   # not j < i
    inf = float("inf")
    mins = []
    # a few classes at a time, so that the [classes, k, k] temporaries stay in cache
    step = max(1, (1 << 18) // max(k * k, 1))
    for c0 in range(0, bx.shape[0] if k else 0, step):
        b_ = bx[c0:c0 + step]
        iou = _jaccard(b_, b_, normalized, exact).masked_fill_(upper, 0.0)  # [c, k(i), k(j)]
        # the max over j < i; std::max(m, NaN) keeps m
        cmax = torch.nan_to_num(iou, nan=0.0).amax(2).unsqueeze(1)      # iou_max of j, along i
        if use_gaussian:
            decay = torch.exp((cmax * cmax - iou * iou) * sigma)
        else:
            decay = (1.0 - iou) / (1.0 - cmax)
        # std::min(min_decay, decay) keeps min_decay when decay is NaN
        decay = torch.nan_to_num_(decay, nan=1.0, posinf=inf, neginf=-inf)
        mins.append(decay.masked_fill_(upper, 1.0).amin(2))
    min_decay = torch.cat(mins) if mins else torch.ones_like(top)
    decayed = min_decay * top
    keep = valid & (decayed > post_threshold)
    cls = classes[:, None].expand_as(idx)[keep]
    box_idx = idx[keep]
    dscore = decayed[keep]
    order = torch.argsort(dscore, descending=True, stable=True)
    if keep_top_k > -1:
        order = order[:keep_top_k]
    box_idx = box_idx[order]
    det = torch.cat([cls[order].to(sc.dtype)[:, None], dscore[order][:, None], bb[box_idx]], 1)
    return det, box_idx


def matrix_nms(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k,
               use_gaussian=False, gaussian_sigma=2.0, background_label=0, normalized=True,
               return_index=False, return_rois_num=True, name=None):
    """Matrix NMS (SOLOv2): per image and class, the boxes scoring above ``score_threshold``
    (the best ``nms_top_k``) have their scores decayed by their overlaps with better boxes
    (linear, or Gaussian with ``gaussian_sigma``); those above ``post_threshold`` are kept, at
    most ``keep_top_k`` per image, best first. Returns ``(out, rois_num, index)``: out
    [No, 6] rows [label, score, x1, y1, x2, y2]; rois_num (int32 [N]) and index (int32 [No, 1],
    box positions counted across the batch) or None when not asked for."""
    bb, sc = _nms_inputs(bboxes, scores, "matrix_nms")
    thr = _attr(score_threshold, bb.dtype)
    post = _attr(post_threshold, bb.dtype)
    sigma = _attr(gaussian_sigma, bb.dtype)
    args = (thr, post, nms_top_k, keep_top_k, use_gaussian, sigma, background_label, normalized)
    if isinstance(bb, StaticProxy) or isinstance(sc, StaticProxy):
        out, rois_num, index = _record_matrix_nms(bb, sc, args)
    else:
        out, rois_num, index = (wrap(t) for t in _matrix_nms_batch(bb, sc, *args))
    return (out, rois_num if return_rois_num else None, index if return_index else None)


def _matrix_nms_batch(bb, sc, thr, post, nms_top_k, keep_top_k, use_gaussian, sigma,
                      background_label, normalized):
    """(out, rois_num, index) torch tensors of matrix_nms over the batch."""
    dets, idxs, nums = [], [], []
    m = bb.shape[1]
    for i in range(bb.shape[0]):
        det, bi = _matrix_nms_image(bb[i].detach(), sc[i].detach(), thr, post, nms_top_k,
                                    keep_top_k, use_gaussian, sigma, background_label,
                                    normalized)
        dets.append(det)
        idxs.append(bi + i * m)
        nums.append(det.shape[0])
    out = torch.cat(dets, 0) if dets else bb.new_zeros(0, 6)
    index = (torch.cat(idxs, 0) if idxs else bb.new_zeros(0, dtype=torch.long))
    index = index.to(torch.int32)[:, None]
    rois_num = torch.tensor(nums, dtype=torch.int32, device=bb.device)
    return out, rois_num, index


def _record_matrix_nms(bb, sc, args):
    """matrix_nms in a static Program: one op computed when the program runs, its outputs
    of Paddle's static shapes (the detections' count -1)."""
    proxy = bb if isinstance(bb, StaticProxy) else sc
    tracer = proxy.tracer
    n = bb.shape[0]

    def metas(which):
        k = SENTINELS[which]
        return (torch.empty([k, 6], dtype=bb.dtype, device="meta"),
                torch.empty([n], dtype=torch.int32, device="meta"),
                torch.empty([k, 1], dtype=torch.int32, device="meta"))
    pair = (metas(0), metas(1))
    node = tracer.record("call_function", _matrix_nms_batch, (bb, sc, *args), {}, pv=pair,
                         rg=False, meta={"op_type": "matrix_nms", "no_flatten": True})
    return tuple(wrap(tracer.record("call_function", operator.getitem, (node, k), {},
                                    pv=(pair[0][k], pair[1][k]), rg=False))
                 for k in range(3))


# ---------------------------------------------------------------------------- multiclass NMS
def multiclass_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold=0.3,
                   normalized=True, nms_eta=1.0, background_label=0, rois_num=None):
    """Paddle's ``multiclass_nms3`` kernel (no public function: detectors reach it through
    ``_legacy_C_ops``/``_C_ops``): per image and class (but ``background_label``), the boxes
    scoring above ``score_threshold`` (the best ``nms_top_k``) go through greedy NMS at
    ``nms_threshold`` (adaptive with ``nms_eta`` < 1); an image keeping more than
    ``keep_top_k`` boxes keeps its best ``keep_top_k``.

    Batched: bboxes [N, M, 4] shared by the classes, scores [N, C, M]. Per RoI (two-stage
    heads, ``rois_num`` [N] given): bboxes [M, C, 4] one box per class, scores [M, C], image i
    owning the next ``rois_num[i]`` rows. Returns ``(out, index, rois_num)``: out [No, 6] rows
    [label, score, x1, y1, x2, y2], by image, then class, then score (per RoI: then RoI, as
    Paddle's kernel orders them); index (int32 [No, 1])
    the box positions counted across the batch (per RoI: row * C + label); rois_num (int32
    [N]) the rows per image."""
    if rois_num is None:
        bb, sc = _nms_inputs(bboxes, scores, "multiclass_nms3")
        n, num_class, m = sc.shape
        images = [(sc[i], lambda c, i=i: bb[i], i * m, 1) for i in range(n)]
    else:
        bb, sc, counts = _roi_nms_inputs(bboxes, scores, rois_num)
        num_class = sc.shape[1]
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(int)
        images = [(sc[s:s + k].t(), lambda c, s=s, k=k: bb[s:s + k, c], s * num_class, num_class)
                  for s, k in zip(starts.tolist(), counts)]
    bb, sc = bb.detach(), sc.detach()
    thr = _attr(score_threshold, bb.dtype)
    nms_thr = _attr(nms_threshold, bb.dtype)
    eta = _attr(nms_eta, bb.dtype)

    def iou_of(a, b):
        return _jaccard(a, b, normalized)

    rows, idxs, nums = [], [], []
    for img_sc, boxes_of, offset, stride in images:
        labels, picks, boxes = [], [], []
        for c in range(num_class):
            if c == background_label:
                continue
            s = img_sc[c].detach()
            cand = (s > thr).nonzero().flatten()
            order = cand[torch.argsort(s[cand], descending=True, stable=True)]
            if nms_top_k > -1:
                order = order[:nms_top_k]
            cls_boxes = boxes_of(c).detach()
            kept = order[_greedy_keep(cls_boxes[order], iou_of, nms_thr, eta)]
            labels.append(torch.full_like(kept, c))
            picks.append(kept)
            boxes.append(cls_boxes[kept])
        empty = torch.zeros(0, dtype=torch.long, device=bb.device)
        label = torch.cat(labels) if labels else empty
        pick = torch.cat(picks) if picks else empty
        box = torch.cat(boxes) if boxes else bb.new_zeros(0, 4)
        score = img_sc.detach()[label, pick]
        if -1 < keep_top_k < pick.numel():
            best = torch.argsort(score, descending=True, stable=True)[:keep_top_k]
            # back to class order, each class's boxes best first
            best = best[torch.argsort(label[best], stable=True)]
            label, pick, score, box = label[best], pick[best], score[best], box[best]
        if stride > 1:
            # per RoI, Paddle lists each class's kept boxes by RoI, not by score
            by_roi = torch.argsort(label * (pick.numel() + img_sc.shape[1]) + pick, stable=True)
            label, pick, score, box = label[by_roi], pick[by_roi], score[by_roi], box[by_roi]
        rows.append(torch.cat([label.to(bb.dtype)[:, None], score[:, None], box], 1))
        # per RoI, Paddle counts the (row, class) entries of the [M, C] score matrix
        idxs.append(offset + pick * stride + (label if stride > 1 else 0))
        nums.append(pick.numel())
    out = torch.cat(rows, 0) if rows else bb.new_zeros(0, 6)
    index = (torch.cat(idxs) if idxs else torch.zeros(0, dtype=torch.long)).to(torch.int32)
    return (wrap(out), wrap(index[:, None]),
            wrap(torch.tensor(nums, dtype=torch.int32, device=bb.device)))


def _roi_nms_inputs(bboxes, scores, rois_num):
    """The torch tensors of a per-RoI NMS's bboxes [M, C, 4], scores [M, C] (in the boxes'
    dtype) and the RoI counts per image (a list of ints summing to M)."""
    kernel = "multiclass_nms3"
    bb = _float_tensor(bboxes, kernel, "bboxes", 0, kernel)
    sc = _float_tensor(scores, kernel, "scores", 1, kernel)
    if bb.dim() != 3 or bb.shape[2] != 4:
        raise ValueError(f"(InvalidArgument) The rank of Input(BBoxes) must be 3 with the last "
                         f"dimension 4, but received shape {list(bb.shape)}.")
    if sc.dim() != 2 or tuple(sc.shape) != tuple(bb.shape[:2]):
        raise ValueError(f"(InvalidArgument) With rois_num, Input(Scores) must be [M, C] with "
                         f"BBoxes [M, C, 4]; received scores {list(sc.shape)}, bboxes "
                         f"{list(bb.shape)}.")
    counts = [int(v) for v in tensor_arg(rois_num, kernel, "rois_num", 2).reshape(-1).tolist()]
    if any(v < 0 for v in counts) or sum(counts) != bb.shape[0]:
        raise ValueError(f"(InvalidArgument) rois_num {counts} must be non-negative counts "
                         f"summing to the {bb.shape[0]} rows of BBoxes.")
    return bb, sc.to(bb.dtype), counts


# ---------------------------------------------------------------------------- box coder
def box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size",
              box_normalized=True, axis=0, name=None):
    """Encode ``target_box`` [N, 4] against ``prior_box`` [M, 4] into [N, M, 4] offsets
    (``encode_center_size``), or decode offsets [N, M, 4] back into corner boxes
    (``decode_center_size``; the priors broadcast along ``axis``). ``prior_box_var`` is a
    [M, 4] Tensor, or 4 numbers shared by all priors. No gradient, as in Paddle."""
    if isinstance(prior_box_var, (list, tuple)):
        prior_box_var = list(prior_box_var)
        assert len(prior_box_var) == 4, (
            "Input prior_box_var must be Variable or list|tuple with 4 elements.")
    elif not isinstance(prior_box_var, Tensor):
        raise TypeError("Input prior_box_var must be Variable or list|tuple")
    p = _float_tensor(prior_box, "box_coder", "prior_box", 0, "box_coder").detach()
    t = _float_tensor(target_box, "box_coder", "target_box", 2, "box_coder").detach()
    if code_type not in ("encode_center_size", "decode_center_size"):
        raise ValueError(f"(InvalidArgument) The 'code_type' attribute in BoxCoder must be "
                         f"'encode_center_size' or 'decode_center_size'. But received "
                         f"'code_type' is {code_type}")
    t = t.to(p.dtype)
    if isinstance(prior_box_var, Tensor):
        var = prior_box_var._t.detach().to(p.device, p.dtype)
    else:
        var = torch.tensor(prior_box_var, dtype=torch.float32).to(p.device, p.dtype)
    norm = 0.0 if box_normalized else 1.0
    pw = p[:, 2] - p[:, 0] + norm
    ph = p[:, 3] - p[:, 1] + norm
    pcx = p[:, 0] + pw / 2
    pcy = p[:, 1] + ph / 2
    if code_type == "encode_center_size":
        if t.dim() != 2:
            raise ValueError(f"(InvalidArgument) The rank of Input TargetBox in BoxCoder "
                             f"operator must be 2 when code_type is encode_center_size. But "
                             f"received rank is {t.dim()}")
        tcx = ((t[:, 2] + t[:, 0]) / 2)[:, None]
        tcy = ((t[:, 3] + t[:, 1]) / 2)[:, None]
        tw = (t[:, 2] - t[:, 0] + norm)[:, None]
        th = (t[:, 3] - t[:, 1] + norm)[:, None]
        out = torch.stack([(tcx - pcx) / pw, (tcy - pcy) / ph,
                           torch.log(torch.abs(tw / pw)), torch.log(torch.abs(th / ph))], -1)
        return wrap(out / var)                                   # var [M, 4] or [4]
    if t.dim() != 3:
        raise ValueError(f"(InvalidArgument) The rank of Input TargetBox in BoxCoder operator "
                         f"must be 3. But received rank is {t.dim()}")
    sel = (lambda v: v[None, :]) if axis == 0 else (lambda v: v[:, None])
    pw, ph, pcx, pcy = sel(pw), sel(ph), sel(pcx), sel(pcy)
    v = var if var.dim() == 1 else (var[None] if axis == 0 else var[:, None])
    cx = v[..., 0] * t[..., 0] * pw + pcx
    cy = v[..., 1] * t[..., 1] * ph + pcy
    w = torch.exp(v[..., 2] * t[..., 2]) * pw
    h = torch.exp(v[..., 3] * t[..., 3]) * ph
    return wrap(torch.stack([cx - w / 2, cy - h / 2, cx + w / 2 - norm, cy + h / 2 - norm], -1))


# ---------------------------------------------------------------------------- prior box
def prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=[1.0],  # noqa: B006
              variance=[0.1, 0.1, 0.2, 0.2], flip=False, clip=False, steps=[0.0, 0.0],  # noqa: B006
              offset=0.5, min_max_aspect_ratios_order=False, name=None):
    """SSD prior boxes for each cell of ``input``'s feature map [N, C, H, W] over ``image``
    [N, C, IH, IW]: ``(boxes, variances)``, both [H, W, num_priors, 4], boxes normalized
    [x1, y1, x2, y2]."""
    if not isinstance(min_sizes, (list, tuple)):
        min_sizes = [min_sizes]
    if not isinstance(aspect_ratios, (list, tuple)):
        aspect_ratios = [aspect_ratios]
    if not isinstance(steps, (list, tuple)):
        steps = [steps]
    if len(steps) != 2:
        raise ValueError("steps should be (step_w, step_h)")
    if max_sizes is not None and len(max_sizes) > 0 and max_sizes[0] > 0 and not isinstance(
            max_sizes, (list, tuple)):
        max_sizes = [max_sizes]
    max_sizes = list(max_sizes or [])
    x = tensor_arg(input, "prior_box", "input", 0)
    img = tensor_arg(image, "prior_box", "image", 1)
    if x.dim() != 4 or img.dim() != 4:
        raise ValueError(f"(InvalidArgument) The Input(Input) and Input(Image) of PriorBoxOp "
                         f"should be 4-D tensors, but received {x.dim()}-D and {img.dim()}-D.")
    dt = x.dtype if x.dtype in _FLOATS else torch.float32
    dev = x.device
    f32 = np.float32
    ars = [f32(1.0)]
    for ar in (f32(a) for a in aspect_ratios):
        if any(abs(float(ar) - float(o)) < 1e-6 for o in ars):
            continue
        ars.append(ar)
        if flip:
            ars.append(f32(1.0) / ar)
    fh, fw = x.shape[2], x.shape[3]
    ih, iw = img.shape[2], img.shape[3]
    if steps[0] == 0.0 or steps[1] == 0.0:
        sw = torch.tensor(iw, dtype=dt) / fw
        sh = torch.tensor(ih, dtype=dt) / fh
    else:
        sw = torch.tensor(float(steps[0]), dtype=torch.float32).to(dt)
        sh = torch.tensor(float(steps[1]), dtype=torch.float32).to(dt)
    # the sizes of the priors of one cell, in Paddle's order, computed in float32 as Paddle
    # computes its float attributes; halved in the box dtype
    sizes = []
    for si, ms in enumerate(f32(s) for s in min_sizes):
        by_ratio = [(ms * np.sqrt(ar), ms / np.sqrt(ar)) for ar in ars
                    if not (min_max_aspect_ratios_order and abs(float(ar) - 1.0) < 1e-6)]
        mx = []
        if max_sizes:
            side = np.sqrt(ms * f32(max_sizes[si]))
            mx = [(side, side)]
        if min_max_aspect_ratios_order:
            sizes += [(ms, ms)] + mx + by_ratio
        else:
            sizes += by_ratio + mx
    wh = torch.tensor(np.array(sizes, dtype=np.float32), device=dev).to(dt) / 2
    hw, hh = wh[:, 0], wh[:, 1]
    off = torch.tensor(float(offset), dtype=torch.float32).to(dt)
    cx = (torch.arange(fw, dtype=dt, device=dev) + off) * sw.to(dev)        # [W]
    cy = (torch.arange(fh, dtype=dt, device=dev) + off) * sh.to(dev)        # [H]
    cx = cx[None, :, None]
    cy = cy[:, None, None]
    boxes = torch.stack(torch.broadcast_tensors(
        (cx - hw) / iw, (cy - hh) / ih, (cx + hw) / iw, (cy + hh) / ih), -1)
    if clip:
        boxes = boxes.clamp(0.0, 1.0)
    var = torch.tensor([float(v) for v in variance], dtype=torch.float32).to(dt).to(dev)
    return wrap(boxes), wrap(var.expand_as(boxes).contiguous())


# ---------------------------------------------------------------------------- YOLO
def yolo_box(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox=True,
             name=None, scale_x_y=1.0, iou_aware=False, iou_aware_factor=0.5):
    """Decode a YOLOv3 head ``x`` [N, A*(5+class_num), H, W] (with ``iou_aware``, A IoU
    channels first: [N, A*(6+class_num), H, W]) into ``(boxes, scores)``: [N, A*H*W, 4] corner
    boxes in the pixels of ``img_size`` [N, 2] (height, width) and [N, A*H*W, class_num]
    scores; a box whose confidence is below ``conf_thresh`` is all zeros in both."""
    t = _float_tensor(x, "yolo_box", "x", 0, "yolo_box").detach()
    im = tensor_arg(img_size, "yolo_box", "img_size", 1)
    n, c, h, w = t.shape
    an = len(anchors) // 2
    per = 6 + class_num if iou_aware else 5 + class_num
    if c != an * per:
        raise ValueError(f"(InvalidArgument) Input(X) dim[1] should be equal to "
                         f"(anchor_mask_number * ({per})). But received dim[1]({c}) != "
                         f"(anchor_mask_number * ({per}))({an * per}).")
    dt = t.dtype
    if iou_aware:
        iou = torch.sigmoid(t[:, :an])                                  # [N, A, H, W]
        p = t[:, an:].reshape(n, an, 5 + class_num, h, w)
    else:
        p = t.reshape(n, an, 5 + class_num, h, w)
    conf = torch.sigmoid(p[:, :, 4])
    if iou_aware:
        f = _attr(iou_aware_factor, dt)
        conf = torch.pow(conf, 1.0 - f) * torch.pow(iou, f)
    scale = float_attr(scale_x_y)             # a float attribute; the bias is a double of it
    bias = -0.5 * (scale - 1.0)
    imf = im.to(dt)
    img_h = imf[:, 0].view(n, 1, 1, 1)
    img_w = imf[:, 1].view(n, 1, 1, 1)
    gx = torch.arange(w, dtype=dt, device=t.device).view(1, 1, 1, w)
    gy = torch.arange(h, dtype=dt, device=t.device).view(1, 1, h, 1)
    anc = torch.tensor(anchors, dtype=dt, device=t.device).view(an, 2)
    aw = anc[:, 0].view(1, an, 1, 1)
    ah = anc[:, 1].view(1, an, 1, 1)
    cx = (gx + torch.sigmoid(p[:, :, 0]) * scale + bias) * img_w / w
    cy = (gy + torch.sigmoid(p[:, :, 1]) * scale + bias) * img_h / h
    bw = torch.exp(p[:, :, 2]) * aw * img_w / (downsample_ratio * w)
    bh = torch.exp(p[:, :, 3]) * ah * img_h / (downsample_ratio * h)
    x1, y1 = cx - bw / 2, cy - bh / 2
    x2, y2 = cx + bw / 2, cy + bh / 2
    if clip_bbox:
        zero = torch.zeros((), dtype=dt, device=t.device)
        x1, y1 = torch.maximum(x1, zero), torch.maximum(y1, zero)
        x2, y2 = torch.minimum(x2, img_w - 1), torch.minimum(y2, img_h - 1)
    keep = conf >= _attr(conf_thresh, dt)                        # [N, A, H, W]
    boxes = torch.stack([x1, y1, x2, y2], -1)
    scores = conf[:, :, None] * torch.sigmoid(p[:, :, 5:])
    boxes = torch.where(keep[..., None], boxes, torch.zeros_like(boxes))
    scores = torch.where(keep[:, :, None], scores, torch.zeros_like(scores))
    return (wrap(boxes.reshape(n, an * h * w, 4)),
            wrap(scores.permute(0, 1, 3, 4, 2).reshape(n, an * h * w, class_num)))


def _sce(x, label):
    """Paddle's sigmoid cross entropy with logits: max(x, 0) - x*label + log(1 + exp(-|x|))."""
    return torch.clamp(x, min=0) - x * label + torch.log1p(torch.exp(-torch.abs(x)))


def _center_iou(x1, y1, w1, h1, x2, y2, w2, h2):
    """IoU of center-size boxes, as Paddle's YOLO kernels compute it."""
    ow = torch.minimum(x1 + w1 / 2, x2 + w2 / 2) - torch.maximum(x1 - w1 / 2, x2 - w2 / 2)
    oh = torch.minimum(y1 + h1 / 2, y2 + h2 / 2) - torch.maximum(y1 - h1 / 2, y2 - h2 / 2)
    inter = torch.where((ow < 0) | (oh < 0), torch.zeros_like(ow), ow * oh)
    return inter / (w1 * h1 + w2 * h2 - inter)


def yolo_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh,
              downsample_ratio, gt_score=None, use_label_smooth=True, name=None, scale_x_y=1.0):
    """The YOLOv3 loss of the head ``x`` [N, len(anchor_mask)*(5+class_num), H, W] against
    ground-truth boxes ``gt_box`` [N, B, 4] (center x, y, width, height, relative to the image)
    with labels ``gt_label`` [N, B] (and mixup weights ``gt_score``): [N], per image. Each
    ground-truth box is matched to its best anchor (by shape); when that anchor is one of
    ``anchor_mask`` its cell's prediction pays the location (sigmoid cross entropy on x, y,
    L1 on log w, h, weighted by 2 - w*h), class and objectness losses; predictions overlapping
    no ground truth by more than ``ignore_thresh`` pay the no-object loss. Differentiable in
    ``x`` (autograd; see the module note)."""
    t = _float_tensor(x, "yolo_loss", "x", 0, "yolo_loss")
    gb = _float_tensor(gt_box, "yolo_loss", "gt_box", 1, "yolo_loss").detach().to(t.dtype)
    gl = tensor_arg(gt_label, "yolo_loss", "gt_label", 2).detach().long()
    n, c, h, w = t.shape
    dt, dev = t.dtype, t.device
    mask_num = len(anchor_mask)
    if c != mask_num * (5 + class_num):
        raise ValueError(f"(InvalidArgument) Input(X) dim[1] should be equal to "
                         f"(anchor_mask_number * (5 + class_num)). But received dim[1]({c}) != "
                         f"(anchor_mask_number * (5 + class_num))({mask_num * (5 + class_num)}).")
    if gb.dim() != 3 or gb.shape[2] != 4 or gb.shape[0] != n:
        raise ValueError(f"(InvalidArgument) Input(GTBox) should be a 3-D tensor [N, B, 4], "
                         f"but received shape {list(gb.shape)}.")
    b = gb.shape[1]
    if gt_score is None:
        gs = torch.ones(n, b, dtype=dt, device=dev)
    else:
        gs = tensor_arg(gt_score, "yolo_loss", "gt_score", 3).detach().to(dt)
    in_h, in_w = downsample_ratio * h, downsample_ratio * w
    an_num = len(anchors) // 2
    anc = torch.tensor(anchors, dtype=dt, device=dev).view(an_num, 2)
    mask_t = torch.tensor(list(anchor_mask), dtype=torch.long, device=dev)
    scale = float_attr(scale_x_y)
    bias = -0.5 * (scale - 1.0)
    pos, neg = 1.0, 0.0
    if use_label_smooth:
        sw = min(1.0 / class_num, 1.0 / 40)
        pos, neg = 1.0 - sw, sw

    p = t.reshape(n, mask_num, 5 + class_num, h, w)
    # predicted boxes (no gradient: they only decide which cells are ignored)
    with torch.no_grad():
        gx = torch.arange(w, dtype=dt, device=dev).view(1, 1, 1, w)
        gy = torch.arange(h, dtype=dt, device=dev).view(1, 1, h, 1)
        maw = anc[mask_t, 0].view(1, mask_num, 1, 1)
        mah = anc[mask_t, 1].view(1, mask_num, 1, 1)
        px = (gx + torch.sigmoid(p[:, :, 0]) * scale + bias) / w
        py = (gy + torch.sigmoid(p[:, :, 1]) * scale + bias) / h
        pw = torch.exp(p[:, :, 2]) * maw / in_w
        ph = torch.exp(p[:, :, 3]) * mah / in_h
        valid = ~((gb[..., 2] < 1e-6) | (gb[..., 3] < 1e-6))          # [N, B]
        g = gb.view(n, 1, 1, 1, b, 4)
        iou = _center_iou(px[..., None], py[..., None], pw[..., None], ph[..., None],
                          g[..., 0], g[..., 1], g[..., 2], g[..., 3])   # [N, mask, H, W, B]
        iou = torch.where(valid.view(n, 1, 1, 1, b), iou, torch.zeros_like(iou))
        best = iou.amax(-1) if b else torch.zeros_like(px)
        obj = torch.where(best > _attr(ignore_thresh, dt), torch.full_like(px, -1.0),
                          torch.zeros_like(px))                       # [N, mask, H, W]

        # match each ground-truth box to its best anchor by shape
        zeros = torch.zeros((), dtype=dt, device=dev)
        aiou = _center_iou(zeros, zeros, (anc[:, 0] / in_w).view(1, 1, an_num),
                           (anc[:, 1] / in_h).view(1, 1, an_num), zeros, zeros,
                           gb[..., 2:3], gb[..., 3:4])                 # [N, B, an]
        best_n = aiou.argmax(-1) if an_num else torch.zeros(n, b, dtype=torch.long)
        lookup = torch.full((max(an_num, 1),), -1, dtype=torch.long, device=dev)
        for j in reversed(range(mask_num)):                           # first match wins
            if 0 <= anchor_mask[j] < an_num:
                lookup[anchor_mask[j]] = j
        midx = lookup[best_n]                                         # [N, B]
        gi = (gb[..., 0] * w).to(torch.int64)                         # truncation, as C++
        gj = (gb[..., 1] * h).to(torch.int64)
        hit = valid & (midx >= 0)
        bi, ti = hit.nonzero(as_tuple=True)                           # in (image, box) order
        m_ = midx[bi, ti]
        cj, ci = gj[bi, ti], gi[bi, ti]
        score = gs[bi, ti]
        cell = ((bi * mask_num + m_) * h + cj) * w + ci               # flat [N, mask, H, W]
        # the objectness target of a cell is the score of the last box matched to it
        last = torch.full((n * mask_num * h * w,), -1, dtype=torch.long, device=dev)
        order = torch.arange(cell.numel(), device=dev)
        last = last.scatter_reduce(0, cell, order, reduce="amax")
        has = last >= 0
        obj = obj.reshape(-1).clone()
        obj[has] = score[last[has]]
        obj = obj.view(n, mask_num, h, w)

    gt = gb[bi, ti]
    bn = best_n[bi, ti]
    tx = gt[:, 0] * w - ci.to(dt)
    ty = gt[:, 1] * h - cj.to(dt)
    tw = torch.log(gt[:, 2] * in_w / anc[bn, 0])
    th = torch.log(gt[:, 3] * in_h / anc[bn, 1])
    wscale = (2.0 - gt[:, 2] * gt[:, 3]) * score
    rows = p[bi, m_, :, cj, ci]                                       # [K, 5 + C]
    loc = (_sce(rows[:, 0], tx) * wscale + _sce(rows[:, 1], ty) * wscale
           + torch.abs(tw - rows[:, 2]) * wscale + torch.abs(th - rows[:, 3]) * wscale)
    onehot = torch.arange(class_num, device=dev)[None, :] == gl[bi, ti][:, None]
    target = torch.where(onehot, torch.full_like(rows[:, 5:], pos),
                         torch.full_like(rows[:, 5:], neg))
    lab = (_sce(rows[:, 5:], target) * score[:, None]).sum(1)
    loss = torch.zeros(n, dtype=dt, device=dev).index_add(0, bi, loc + lab)
    xo = p[:, :, 4]
    objl = torch.where(obj > 1e-5, _sce(xo, torch.ones_like(xo)) * obj,
                       torch.where(obj > -0.5, _sce(xo, torch.zeros_like(xo)),
                                   torch.zeros_like(xo)))
    return wrap(loss + objl.sum((1, 2, 3)))


# ---------------------------------------------------------------------------- anchor generator
def anchor_generator(input, anchor_sizes, aspect_ratios, variances=(0.1, 0.1, 0.2, 0.2),
                     stride=(16.0, 16.0), offset=0.5):
    """Paddle's ``anchor_generator`` kernel (Faster R-CNN's anchors; no public function in
    Paddle 3: reached through ``_C_ops``/``_legacy_C_ops``): for each cell of ``input``'s
    [H, W] grid, one anchor per (aspect ratio, size) pair, ratios outer, centred at
    ``cell * stride + offset * (stride - 1)``; the base side ``round(sqrt(stride_w * stride_h /
    ratio))`` (height: that times the ratio, rounded) scaled by ``size / stride``. Returns
    ``(anchors, variances)``, both [H, W, A, 4] in ``input``'s dtype, corners inclusive
    (x2 = centre + (width - 1) / 2)."""
    t = _float_tensor(input, "anchor_generator", "input", 0, "anchor_generator")
    if t.dim() != 4:
        raise ValueError(f"(InvalidArgument) The layout of input is NCHW, but received input "
                         f"of rank {t.dim()}.")
    sizes = [float(v) for v in anchor_sizes]
    ratios = [float(v) for v in aspect_ratios]
    var = [float(v) for v in variances]
    if not sizes or not ratios or len(var) != 4 or len(stride) != 2:
        raise ValueError(f"(InvalidArgument) anchor_generator needs anchor_sizes and "
                         f"aspect_ratios, 4 variances and a 2-value stride; received "
                         f"{sizes}, {ratios}, {var}, {list(stride)}.")
    dt, dev = t.dtype, t.device
    h, w = t.shape[2], t.shape[3]
    sw, sh = (float(v) for v in stride)
    # the kernel computes in float32 (its attributes are C++ floats)
    f32 = np.float32
    wh = []
    for ar in ratios:
        base_w = np.floor(np.sqrt(f32(sw * sh) / f32(ar)) + f32(0.5))
        base_h = np.floor(base_w * f32(ar) + f32(0.5))
        for size in sizes:
            wh.append((f32(size) / f32(sw) * base_w, f32(size) / f32(sh) * base_h))
    half = torch.tensor(wh, dtype=torch.float32, device=dev).sub(1).mul(0.5)      # [A, 2]
    xs = torch.arange(w, dtype=torch.float32, device=dev) * sw + offset * (sw - 1)
    ys = torch.arange(h, dtype=torch.float32, device=dev) * sh + offset * (sh - 1)
    ctr = torch.stack(torch.broadcast_tensors(xs[None, :], ys[:, None]), -1)      # [H, W, 2]
    ctr = ctr[:, :, None, :]
    anchors = torch.cat([ctr - half, ctr + half], -1).to(dt)                      # [H, W, A, 4]
    v = torch.tensor(var, dtype=torch.float32, device=dev).to(dt).expand_as(anchors)
    return wrap(anchors), wrap(v.contiguous())


# ---------------------------------------------------------------------------- proposals
def _decode_anchors(anchor, delta, var, offset):
    """Paddle's BoxCoder of generate_proposals: deltas on anchors, log-sizes clipped at
    log(1000/16)."""
    aw = anchor[:, 2] - anchor[:, 0] + offset
    ah = anchor[:, 3] - anchor[:, 1] + offset
    acx = anchor[:, 0] + 0.5 * aw
    acy = anchor[:, 1] + 0.5 * ah
    cx = var[:, 0] * delta[:, 0] * aw + acx
    cy = var[:, 1] * delta[:, 1] * ah + acy
    bw = torch.exp(torch.clamp(var[:, 2] * delta[:, 2], max=_BBOX_CLIP)) * aw
    bh = torch.exp(torch.clamp(var[:, 3] * delta[:, 3], max=_BBOX_CLIP)) * ah
    return torch.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2 - offset, cy + bh / 2 - offset], 1)


def generate_proposals(scores, bbox_deltas, img_size, anchors, variances, pre_nms_top_n=6000,
                       post_nms_top_n=1000, nms_thresh=0.5, min_size=0.1, eta=1.0,
                       pixel_offset=False, return_rois_num=False, name=None):
    """RPN proposals: per image, the ``pre_nms_top_n`` best-scoring anchors (``scores``
    [N, A, H, W]) are moved by ``bbox_deltas`` [N, 4A, H, W] (with ``variances``), clipped to
    ``img_size`` [N, 2] (height, width), stripped of boxes smaller than ``min_size`` and
    reduced by NMS (adaptive with ``eta`` < 1) to ``post_nms_top_n``. Returns ``(rpn_rois
    [R, 4], rpn_roi_probs [R, 1], rpn_rois_num int32 [N])``; an image left with no box
    gives one all-zero box of score 0, as in Paddle."""
    assert return_rois_num, "return_rois_num should be True in dygraph mode."
    s = _float_tensor(scores, "generate_proposals", "scores", 0, "generate_proposals").detach()
    d = _float_tensor(bbox_deltas, "generate_proposals", "bbox_deltas", 1,
                      "generate_proposals").detach()
    im = tensor_arg(img_size, "generate_proposals", "img_size", 2).detach()
    anc = tensor_arg(anchors, "generate_proposals", "anchors", 3).detach()
    var = tensor_arg(variances, "generate_proposals", "variances", 4).detach()
    n, a, h, w = s.shape
    dt = s.dtype
    s = s.permute(0, 2, 3, 1).reshape(n, -1)
    d = d.permute(0, 2, 3, 1).reshape(n, -1, 4).to(dt)
    anc = anc.reshape(-1, 4).to(dt)
    var = var.reshape(-1, 4).to(dt)
    im = im.to(dt)
    offset = 1.0 if pixel_offset else 0.0
    min_sz = max(_attr(min_size, dt), 1.0)
    thr = _attr(nms_thresh, dt)
    eta_ = _attr(eta, dt)
    rois, probs, nums = [], [], []
    total = s.shape[1]
    for i in range(n):
        order = torch.argsort(s[i], descending=True, stable=True)
        if 0 < pre_nms_top_n < total:
            order = order[:int(pre_nms_top_n)]
        sc = s[i][order]
        box = _decode_anchors(anc[order], d[i][order], var[order], offset)
        ih, iw = im[i, 0], im[i, 1]
        zero = torch.zeros((), dtype=dt, device=box.device)
        bx = torch.maximum(torch.minimum(box[:, 0::2], iw - offset), zero)
        by = torch.maximum(torch.minimum(box[:, 1::2], ih - offset), zero)
        box = torch.stack([bx[:, 0], by[:, 0], bx[:, 1], by[:, 1]], 1)
        ws = box[:, 2] - box[:, 0] + offset
        hs = box[:, 3] - box[:, 1] + offset
        ok = (ws >= min_sz) & (hs >= min_sz)
        if pixel_offset:
            ok &= ((box[:, 0] + ws / 2) <= iw) & ((box[:, 1] + hs / 2) <= ih)
        keep = ok.nonzero().flatten()
        if keep.numel() == 0:
            rois.append(box.new_zeros(1, 4))
            probs.append(sc.new_zeros(1, 1))
            nums.append(1)
            continue
        box, sc = box[keep], sc[keep]
        if thr > 0:
            # boxes already sorted by score; the first post_nms_top_n kept are the answer. The
            # filter left no inverted box and no side under 1 (min_size >= 1): the cheaper
            # overlaps are exact here
            limit = int(post_nms_top_n) if post_nms_top_n > 0 else None
            kept = _greedy_keep(box, lambda p, q: _jaccard(p, q, not pixel_offset, False), thr,
                                eta_, limit=limit)
            box, sc = box[kept], sc[kept]
        rois.append(box)
        probs.append(sc[:, None])
        nums.append(box.shape[0])
    return (wrap(torch.cat(rois, 0)), wrap(torch.cat(probs, 0)),
            wrap(torch.tensor(nums, dtype=torch.int32, device=s.device)))


def distribute_fpn_proposals(fpn_rois, min_level, max_level, refer_level, refer_scale,
                             pixel_offset=False, rois_num=None, name=None):
    """Assign each RoI of ``fpn_rois`` [R, 4] to an FPN level, floor(log2(sqrt(area) /
    refer_scale) + refer_level) clipped to [min_level, max_level]. Returns ``(multi_rois,
    restore_ind, rois_num_per_level)``: the RoIs of each level (in their original order),
    the int32 [R, 1] positions of the original RoIs in the levels' concatenation, and each
    level's int32 [B] RoI count per image (``rois_num`` [B] gives the images)."""
    assert max_level > 0 and min_level > 0, "min_level and max_level should be greater than 0"
    num_lvl = max_level - min_level + 1
    assert num_lvl > 1, "max_level should be greater than min_level"
    assert num_lvl < 100, "Only support max to 100 levels, (max_level - min_level + 1 < 100)"
    assert rois_num is not None, "rois_num should not be None in dygraph mode."
    r = _float_tensor(fpn_rois, "distribute_fpn_proposals", "fpn_rois", 0,
                      "distribute_fpn_proposals").detach()
    rn = tensor_arg(rois_num, "distribute_fpn_proposals", "rois_num", 1).detach().long()
    dev = r.device
    area = _bbox_area(r, not pixel_offset)
    scale = torch.sqrt(area)
    lvl = torch.floor(torch.log2(scale / refer_scale + 1e-8) + refer_level)
    lvl = lvl.clamp(min_level, max_level).long() - min_level          # [R]
    nr = r.shape[0]
    image = torch.repeat_interleave(torch.arange(rn.numel(), device=dev), rn, output_size=nr)
    order = torch.argsort(lvl, stable=True)
    restore = torch.empty_like(order)
    restore[order] = torch.arange(nr, device=dev)
    counts = torch.bincount(lvl, minlength=num_lvl)
    per_img = torch.zeros(num_lvl, rn.numel(), dtype=torch.long, device=dev)
    per_img.index_put_((lvl, image), torch.ones_like(lvl), accumulate=True)
    multi = list(torch.split(r[order], counts.tolist(), 0))
    return ([wrap(m) for m in multi], wrap(restore.to(torch.int32)[:, None]),
            [wrap(c.to(torch.int32)) for c in per_img])

