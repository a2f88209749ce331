"""Record Paddle 3.3.1's detection ops of ``paddle.vision.ops`` (nms, matrix_nms, box_coder,
prior_box, yolo_box, yolo_loss, generate_proposals, distribute_fpn_proposals) as goldens for
tests/test_vision_ops_detection.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_vision_ops_detection.py

Writes tests/goldens/vision_ops_detection.json in the case format of ops_nn2.json (api, id,
inputs, pre, call, grad, expected, weights, grads). Names bound while evaluating: ``paddle``,
``O`` (paddle.vision.ops), ``np`` and the inputs. Inputs are seeded random boxes (x1, y1 and a
positive width and height, plus degenerate and inverted boxes where a case says so).
"""
import json
import os
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)
import paddle.vision.ops as O  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opcase import build, short_floats, tensor_outputs  # noqa: E402
from opcase import encode as _encode, encode_result as _encode_result  # noqa: E402


def encode(t):
    return _encode(t, short_floats)


def encode_result(r):
    return _encode_result(r, short_floats)


paddle.set_device("cpu")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "vision_ops_detection.json")
rng = np.random.default_rng(20261126)
V = "paddle.vision.ops."


def spec(dtype, a):
    a = np.asarray(a)
    if dtype in ("float32", "float64"):
        vals = short_floats(a.astype(dtype))
    else:
        vals = [int(v) for v in a.reshape(-1)]
    return {"dtype": dtype, "shape": list(a.shape), "values": vals}


def U(dtype, shape, lo=-2.0, hi=2.0):
    return spec(dtype, rng.uniform(lo, hi, shape))


def boxes(dtype, n, lo=0.0, hi=10.0, size=(0.5, 4.0), lead=()):
    """n corner boxes [x1, y1, x2, y2] with x1, y1 in [lo, hi) and sides in ``size``."""
    xy = rng.uniform(lo, hi, lead + (n, 2))
    wh = rng.uniform(size[0], size[1], lead + (n, 2))
    return spec(dtype, np.concatenate([xy, xy + wh], -1))


def perm_scores(dtype, shape):
    """Distinct scores in (0, 1) (no ties: Paddle's sorts are not stable)."""
    n = int(np.prod(shape))
    v = (rng.permutation(n) + rng.uniform(0.05, 0.95, n)) / n
    return spec(dtype, v.reshape(shape))


CASES, IDS = [], set()


def case(api, call, grad=True, tag="", pre=None, nograd=(), **inputs):
    """Run ``call`` on real Paddle and store the case: the inputs, the result or the error,
    and the gradients of sum(out * w) for the float inputs in ``grad`` (a list of names, or
    True for every float input not in ``nograd``) where Paddle's outputs carry gradients."""
    cid = f"{api}[{tag or call}]"
    k = 2
    while cid in IDS:
        cid = f"{api}[{tag or call}#{k}]"
        k += 1
    IDS.add(cid)
    env = {"paddle": paddle, "O": O, "np": np}
    gnames = []
    for name, s in inputs.items():
        t = build(s)
        if (grad is True or name in (grad or ())) and s["dtype"] in ("float32", "float64") \
                and name not in nograd:
            t.stop_gradient = False
            gnames.append(name)
        env[name] = t
    c = {"api": api, "id": cid, "inputs": inputs, "call": call, "grad": gnames}
    if pre:
        c["pre"] = pre
    try:
        if pre:
            exec(pre, env)
        r = eval(call, env)
    except Exception as e:  # noqa: BLE001  the exception is the golden
        c["expected"] = {"error": type(e).__name__, "message": str(e).split("\n")[0][:200]}
        CASES.append(c)
        return
    c["expected"] = encode_result(r)
    outs = [o for o in tensor_outputs(r) if not o.stop_gradient
            and str(o.dtype).replace("paddle.", "") in ("float32", "float64")]
    if gnames and outs:
        ws = [paddle.to_tensor(rng.uniform(-1, 1, o.shape)).astype(o.dtype) for o in outs]
        loss = sum((o * w).sum() for o, w in zip(outs, ws))
        gs = paddle.grad(loss, [env[n] for n in gnames], allow_unused=True)
        c["weights"] = [encode(w) for w in ws]
        c["grads"] = {n: (None if g is None else encode(g)) for n, g in zip(gnames, gs)}
    else:
        c["grad"] = []
    CASES.append(c)


# ---------------------------------------------------------------------------- nms
def nms_cases():
    a = V + "nms"
    for dt in ("float32", "float64"):
        for n, thr in ((0, 0.3), (1, 0.3), (7, 0.3), (40, 0.1), (40, 0.5), (40, 0.0)):
            case(a, f"O.nms(b, {thr})", tag=f"{dt} n={n} thr={thr}", b=boxes(dt, n))
    # more boxes than one suppression block (256), crowded: long suppression chains
    case(a, "O.nms(b, 0.2)", tag="600 crowded", b=boxes("float32", 600, 0, 30, (1, 6)))
    case(a, "O.nms(b, 0.6, scores=s)", tag="700 crowded scores",
         b=boxes("float64", 700, 0, 25, (1, 8)), s=perm_scores("float64", [700]))
    # degenerate: identical, zero-size, inverted boxes
    deg = [[0, 0, 1, 1], [0, 0, 1, 1], [0.5, 0.5, 1.5, 1.5], [0, 0, 0, 0], [0, 0, 0, 0],
           [2, 2, 1, 1], [3, 3, 3, 5], [0.2, 0.2, 0.8, 0.8], [2, 2, 1, 1]]
    for dt in ("float32", "float64"):
        case(a, "O.nms(b, 0.1)", tag=f"{dt} degenerate", b=spec(dt, deg))
        case(a, "O.nms(b, 0.5, scores=s)", tag=f"{dt} degenerate scores", b=spec(dt, deg),
             s=perm_scores(dt, [len(deg)]))
    for dt in ("float32", "float64"):
        for n in (0, 1, 12, 60):
            case(a, "O.nms(b, 0.3, scores=s)", tag=f"{dt} n={n} scores", b=boxes(dt, n),
                 s=perm_scores(dt, [n]))
    case(a, "O.nms(b, 0.3, scores=s, top_k=2)", tag="top_k ignored without categories",
         b=boxes("float32", 12), s=perm_scores("float32", [12]))
    for n, cats, top_k in ((30, [0, 1, 2], None), (30, [0, 1, 2], 5), (30, [2, 0], None),
                           (30, [1], 3), (30, [0, 1, 2, 7], 30), (1, [0, 1, 2], None),
                           (0, [0, 1], None), (30, [5], None)):
        for dt in ("float32", "float64"):
            case(a, f"O.nms(b, 0.4, s, c, {cats}, {top_k})", tag=f"{dt} n={n} {cats} {top_k}",
                 b=boxes(dt, n, 0, 6), s=perm_scores(dt, [n]),
                 c=spec("int64", rng.integers(0, 3, n)))
    b, s = boxes("float32", 6), perm_scores("float32", [6])
    c = spec("int64", rng.integers(0, 2, 6))
    case(a, "O.nms(b, 0.4, s, c)", tag="categories missing", b=b, s=s, c=c)
    case(a, "O.nms(b, 0.4, s, c, [0, 1], 7)", tag="top_k over", b=b, s=s, c=c)
    case(a, "O.nms([[0.0, 0.0, 1.0, 1.0]], 0.4)", tag="list")
    case(a, "O.nms(b, 0.4)", tag="3 columns", b=spec("float32", rng.uniform(0, 1, (4, 3))))
    case(a, "O.nms(b, 0.4)", tag="int32", b=spec("int32", [[0, 0, 2, 2], [1, 1, 3, 3]]))


# ---------------------------------------------------------------------------- matrix NMS
def matrix_nms_cases():
    a = V + "matrix_nms"
    for dt in ("float32", "float64"):
        b = boxes(dt, 24, 0, 1, (0.05, 0.4), lead=(2,))
        s = perm_scores(dt, [2, 4, 24])
        for args in ("0.2, 0.1, -1, -1", "0.3, 0.2, 10, 8", "0.1, 0.05, 5, -1",
                     "0.2, 0.1, -1, -1, use_gaussian=True",
                     "0.2, 0.1, -1, 12, use_gaussian=True, gaussian_sigma=0.5",
                     "0.2, 0.1, -1, -1, background_label=-1",
                     "0.2, 0.1, -1, -1, background_label=2",
                     "0.2, 0.1, -1, -1, return_index=True",
                     "0.2, 0.1, -1, -1, return_index=True, return_rois_num=False",
                     "0.2, 0.1, 100, 100, normalized=False, return_index=True",
                     "0.99, 0.1, -1, -1, return_index=True",
                     "0.2, 0.9, -1, -1, return_index=True"):
            case(a, f"O.matrix_nms(b, s, {args})", tag=f"{dt} {args}", b=b, s=s)
    # pixel boxes (unnormalized), crowded
    b = boxes("float32", 40, 0, 20, (1, 8), lead=(1,))
    case(a, "O.matrix_nms(b, s, 0.1, 0.05, -1, -1, normalized=False, return_index=True)",
         tag="pixels", b=b, s=perm_scores("float32", [1, 3, 40]))
    # one image has detections, the other none
    sc = rng.uniform(0.0, 1.0, (2, 3, 10))
    sc[1] *= 0.1
    case(a, "O.matrix_nms(b, s, 0.3, 0.0, -1, -1, return_index=True)", tag="one empty image",
         b=boxes("float32", 10, 0, 1, (0.05, 0.4), lead=(2,)), s=spec("float32", sc))
    deg = [[[0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 0, 0], [0.5, 0.5, 0.2, 0.2], [0.1, 0.1, 0.9, 0.9]]]
    case(a, "O.matrix_nms(b, s, 0.0, 0.0, -1, -1, return_index=True)", tag="degenerate",
         b=spec("float64", deg), s=perm_scores("float64", [1, 2, 5]))
    case(a, "O.matrix_nms(b, s, 0.0, 0.0, -1, -1, return_index=True)", tag="no boxes",
         b=spec("float32", np.zeros((2, 0, 4))), s=spec("float32", np.zeros((2, 3, 0))))


# ---------------------------------------------------------------------------- box coder
def box_coder_cases():
    a = V + "box_coder"
    for dt in ("float32", "float64"):
        p, t = boxes(dt, 5), boxes(dt, 3)
        v = spec(dt, rng.uniform(0.1, 0.5, (5, 4)))
        case(a, "O.box_coder(p, [0.1, 0.1, 0.2, 0.2], t)", tag=f"{dt} encode list", p=p, t=t)
        case(a, "O.box_coder(p, v, t)", tag=f"{dt} encode tensor", p=p, t=t, v=v)
        case(a, "O.box_coder(p, (0.1, 0.2, 0.3, 0.4), t, box_normalized=False)",
             tag=f"{dt} encode pixels", p=p, t=t)
        case(a, "O.box_coder(p, v, t, 'encode_center_size', False)",
             tag=f"{dt} encode tensor pixels", p=p, t=t, v=v)
        d = U(dt, [3, 5, 4], -1, 1)
        case(a, "O.box_coder(p, [0.1, 0.1, 0.2, 0.2], d, 'decode_center_size')",
             tag=f"{dt} decode list", p=p, d=d)
        case(a, "O.box_coder(p, v, d, 'decode_center_size', axis=0)",
             tag=f"{dt} decode tensor axis 0", p=p, d=d, v=v)
        case(a, "O.box_coder(p, v, d, 'decode_center_size', False)",
             tag=f"{dt} decode tensor pixels", p=p, d=d, v=v)
        p3, v3 = boxes(dt, 3), spec(dt, rng.uniform(0.1, 0.5, (3, 4)))
        case(a, "O.box_coder(p, v, d, 'decode_center_size', axis=1)",
             tag=f"{dt} decode tensor axis 1", p=p3, d=d, v=v3)
        case(a, "O.box_coder(p, [0.2, 0.1, 0.3, 0.1], d, 'decode_center_size', False, 1)",
             tag=f"{dt} decode list axis 1 pixels", p=p3, d=d)
    p, t = boxes("float32", 4), boxes("float32", 2)
    case(a, "O.box_coder(p, [0.1, 0.1, 0.2, 0.2], t)", tag="gradient", p=p, t=t)
    case(a, "O.box_coder(p, [0.1, 0.1, 0.2, 0.2], t, 'decode_center_size')",
         tag="decode of 2-D", p=p, t=t)
    case(a, "O.box_coder(p, 0.1, t)", tag="var number", p=p, t=t)
    case(a, "O.box_coder(p, None, t)", tag="var None", p=p, t=t)
    case(a, "O.box_coder(p, [0.1, 0.1, 0.2], t)", tag="var 3", p=p, t=t)
    case(a, "O.box_coder(p, [0.1, 0.1, 0.2, 0.2], t, 'center')", tag="bad code_type", p=p, t=t)


# ---------------------------------------------------------------------------- prior box
def prior_box_cases():
    a = V + "prior_box"
    for dt in ("float32", "float64"):
        # only the shapes count
        x, im = spec(dt, np.zeros([1, 1, 3, 4])), spec(dt, np.zeros([1, 1, 12, 20]))
        for args in ("[2.0]", "[2.0, 4.0], clip=True, flip=True",
                     "[2.0, 5.0], [4.0, 9.0], [2.0, 3.0], flip=True",
                     "[2.0, 5.0], [4.0, 9.0], [2.0, 3.0], flip=True, "
                     "min_max_aspect_ratios_order=True",
                     "3.0, aspect_ratios=2.0, variance=[0.1, 0.2, 0.3, 0.4], steps=[4.0, 3.0]",
                     "[4.0], [7.0], [1.0, 0.5, 2.0], clip=True, steps=[5.0, 5.0], offset=0.3",
                     "[3.0], aspect_ratios=[1.0, 1.0, 2.0, 0.5], flip=True",
                     "[2.0], steps=[0.0, 6.0]"):
            case(a, f"O.prior_box(x, im, {args})", tag=f"{dt} {args}", x=x, im=im)
    x, im = spec("float32", np.zeros([1, 1, 3, 4])), spec("float32", np.zeros([1, 1, 12, 20]))
    case(a, "O.prior_box(x, im, [2.0], steps=[1.0, 2.0, 3.0])", tag="3 steps", x=x, im=im)
    case(a, "O.prior_box(x, im, [2.0], max_sizes=5.0)", tag="max_sizes number", x=x, im=im)


# ---------------------------------------------------------------------------- YOLO
def yolo_box_cases():
    a = V + "yolo_box"
    anchors = [10, 13, 16, 30, 33, 23]
    for dt in ("float32", "float64"):
        x = U(dt, [2, 3 * 7, 4, 5], -3, 3)
        im = spec("int32", [[96, 128], [60, 70]])
        for args in ("0.01, 8", "0.5, 8", "0.5, 8, clip_bbox=False", "0.3, 16, scale_x_y=1.2",
                     "0.0, 8, clip_bbox=True, scale_x_y=0.9"):
            case(a, f"O.yolo_box(x, im, {anchors}, 2, {args})", tag=f"{dt} {args}", x=x, im=im)
        xi = U(dt, [2, 3 * 8, 4, 5], -3, 3)
        for args in ("0.2, 8, iou_aware=True", "0.1, 8, iou_aware=True, iou_aware_factor=0.3"):
            case(a, f"O.yolo_box(x, im, {anchors}, 2, {args})", tag=f"{dt} {args}", x=xi, im=im)
    case(a, "O.yolo_box(x, im, [10, 13], 3, 0.01, 32)", tag="1 anchor 1x1",
         x=U("float32", [1, 8, 1, 1], -3, 3), im=spec("int32", [[32, 32]]))
    case(a, f"O.yolo_box(x, im, {anchors}, 2, 0.01, 8)", tag="bad channels",
         x=U("float32", [1, 20, 2, 2]), im=spec("int32", [[32, 32]]))


def gt_boxes(dt, n, b, h, w, invalid=()):
    """Ground-truth center boxes [n, b, 4] in distinct cells (Paddle's backward keeps one
    gradient per cell); ``invalid`` [(i, t)] get a zero width."""
    out = np.zeros((n, b, 4))
    for i in range(n):
        cells = rng.choice(h * w, size=b, replace=False)
        out[i, :, 0] = (cells % w + rng.uniform(0.1, 0.9, b)) / w
        out[i, :, 1] = (cells // w + rng.uniform(0.1, 0.9, b)) / h
        out[i, :, 2:] = rng.uniform(0.05, 0.6, (b, 2))
    for i, t in invalid:
        out[i, t, 2] = 0.0
    return spec(dt, out)


def yolo_loss_cases():
    a = V + "yolo_loss"
    anchors = [10, 13, 16, 30, 33, 23, 30, 61, 62, 45, 59, 119]
    for dt in ("float32", "float64"):
        n, h, w, c = 2, 5, 5, 3
        x = U(dt, [n, 3 * (5 + c), h, w], -2, 2)
        gb = gt_boxes(dt, n, 6, h, w, invalid=[(1, 5)])
        gl = spec("int32", rng.integers(0, c, (n, 6)))
        gs = spec(dt, rng.uniform(0.3, 1.0, (n, 6)))
        for mask, args in (([0, 1, 2], "0.7, 8"), ([3, 4, 5], "0.5, 16"),
                           ([0, 1, 2], "0.7, 8, gt_score=gs"),
                           ([1, 2, 3], "0.6, 8, use_label_smooth=False"),
                           ([0, 1, 2], "0.3, 8, scale_x_y=1.1"),
                           ([2, 0, 4], "0.4, 32, gt_score=gs, use_label_smooth=False")):
            case(a, f"O.yolo_loss(x, gb, gl, {anchors}, {mask}, {c}, {args})",
                 tag=f"{dt} {mask} {args}", grad=["x"], x=x, gb=gb, gl=gl, gs=gs)
    # more classes than 40: label smoothing capped at 1/40; a 1-box, 1-anchor head
    x = U("float32", [1, 2 * (5 + 45), 3, 3], -2, 2)
    case(a, "O.yolo_loss(x, gb, gl, [10, 13, 30, 40], [0, 1], 45, 0.5, 8)", tag="45 classes",
         grad=["x"], x=x, gb=gt_boxes("float32", 1, 2, 3, 3),
         gl=spec("int32", rng.integers(0, 45, (1, 2))))
    case(a, "O.yolo_loss(x, gb, gl, [10, 13, 30, 40], [0, 1], 2, 0.5, 8)", tag="all invalid",
         grad=["x"], x=U("float32", [2, 14, 3, 3], -2, 2),
         gb=gt_boxes("float32", 2, 2, 3, 3, invalid=[(0, 0), (0, 1), (1, 0), (1, 1)]),
         gl=spec("int32", [[0, 1], [1, 0]]))
    # two boxes of one image on one cell and anchor: the forward adds both losses, Paddle's
    # backward keeps the last box's gradient only (a known difference)
    gb = np.array([[[0.30, 0.40, 0.20, 0.25], [0.32, 0.45, 0.22, 0.27], [0.8, 0.8, 0.3, 0.3]]])
    case(a, "O.yolo_loss(x, gb, gl, [10, 13, 30, 40], [0, 1], 2, 0.5, 8)", tag="shared cell",
         grad=["x"], x=U("float32", [1, 14, 3, 3], -2, 2), gb=spec("float32", gb),
         gl=spec("int32", [[0, 1, 1]]))
    case(a, "O.yolo_loss(x, gb, gl, [10, 13, 30, 40], [0, 1], 2, 0.5, 8)", tag="bad channels",
         grad=False, x=U("float32", [2, 13, 3, 3]), gb=gt_boxes("float32", 2, 2, 3, 3),
         gl=spec("int32", [[0, 1], [1, 0]]))


# ---------------------------------------------------------------------------- proposals
def proposal_inputs(dt, n, a, h, w, stride=8.0):
    sc = perm_scores(dt, [n, a, h, w])
    d = U(dt, [n, 4 * a, h, w], -0.6, 0.6)
    cy, cx = np.meshgrid((np.arange(h) + 0.5) * stride, (np.arange(w) + 0.5) * stride,
                         indexing="ij")
    sizes = np.array([[16, 16], [24, 12], [12, 24], [32, 32], [8, 8]])[:a]
    anc = np.zeros((h, w, a, 4))
    anc[..., 0] = cx[..., None] - sizes[:, 0] / 2
    anc[..., 1] = cy[..., None] - sizes[:, 1] / 2
    anc[..., 2] = cx[..., None] + sizes[:, 0] / 2
    anc[..., 3] = cy[..., None] + sizes[:, 1] / 2
    var = np.broadcast_to(np.array([0.1, 0.1, 0.2, 0.2]), anc.shape)
    return dict(s=sc, d=d, anc=spec(dt, anc), var=spec(dt, var))


def generate_proposals_cases():
    a = V + "generate_proposals"
    for dt in ("float32", "float64"):
        inp = proposal_inputs(dt, 2, 3, 6, 7)
        im = spec(dt, [[48, 56], [40, 30]])
        for args in ("return_rois_num=True",
                     "20, 8, 0.5, return_rois_num=True",
                     "50, 30, 0.7, 2.0, eta=0.9, return_rois_num=True",
                     "60, 40, 0.8, 0.5, eta=0.5, pixel_offset=True, return_rois_num=True",
                     "100, 0, 0.3, 4.0, return_rois_num=True",
                     "0, 10, 0.6, 1.0, pixel_offset=True, return_rois_num=True"):
            case(a, f"O.generate_proposals(s, d, im, anc, var, {args})", tag=f"{dt} {args}",
                 im=im, **inp)
        case(a, "O.generate_proposals(s, d, im, anc, var, 0, 10, 0.0, return_rois_num=True)",
             tag=f"{dt} no nms", im=im, **inp)
    inp = proposal_inputs("float32", 2, 2, 3, 3)
    case(a, "O.generate_proposals(s, d, im, anc, var, 10, 5, 0.5, 200.0, return_rois_num=True)",
         tag="no box survives", im=spec("float32", [[24, 24], [24, 24]]), **inp)
    case(a, "O.generate_proposals(s, d, im, anc, var)", tag="return_rois_num False",
         im=spec("float32", [[24, 24], [24, 24]]), **inp)


def distribute_cases():
    a = V + "distribute_fpn_proposals"
    for dt in ("float32", "float64"):
        r = boxes(dt, 30, 0, 200, (2, 300))
        rn = spec("int32", [12, 0, 18])
        for args in ("2, 5, 4, 224, rois_num=rn", "2, 5, 4, 224, pixel_offset=True, rois_num=rn",
                     "1, 3, 2, 56, rois_num=rn", "3, 6, 4, 100, False, rn"):
            case(a, f"O.distribute_fpn_proposals(r, {args})", tag=f"{dt} {args}", r=r, rn=rn)
    # degenerate and inverted boxes go to the lowest level; an empty level in between
    deg = [[0, 0, 0, 0], [5, 5, 1, 1], [0, 0, 223, 223], [0, 0, 447.999, 447.999],
           [0, 0, 112, 112], [10, 10, 10, 20], [0, 0, 1000, 1000]]
    for dt in ("float32", "float64"):
        case(a, "O.distribute_fpn_proposals(r, 2, 6, 4, 224, rois_num=rn)", tag=f"{dt} degenerate",
             r=spec(dt, deg), rn=spec("int32", [3, 4]))
    # roi scale at refer_scale * 2 (1 - 2e-9): on the level boundary up to the 1e-8 guard
    s = 224 * 2 * (1 - 2e-9)
    case(a, "O.distribute_fpn_proposals(r, 2, 6, 4, 224, rois_num=rn)", tag="boundary guard",
         r=spec("float64", [[0, 0, s, s], [0, 0, 224.0, 224.0]]), rn=spec("int32", [2]))
    case(a, "O.distribute_fpn_proposals(r, 2, 5, 4, 224, rois_num=rn)", tag="no rois",
         r=spec("float32", np.zeros((0, 4))), rn=spec("int32", [0, 0]))
    r = boxes("float32", 4, 0, 200, (2, 300))
    rn = spec("int32", [4])
    case(a, "O.distribute_fpn_proposals(r, 2, 5, 4, 224)", tag="rois_num None", r=r)
    case(a, "O.distribute_fpn_proposals(r, 0, 5, 4, 224, rois_num=rn)", tag="level 0", r=r,
         rn=rn)
    case(a, "O.distribute_fpn_proposals(r, 3, 3, 4, 224, rois_num=rn)", tag="one level", r=r,
         rn=rn)


def main():
    nms_cases()
    matrix_nms_cases()
    box_coder_cases()
    prior_box_cases()
    yolo_box_cases()
    yolo_loss_cases()
    generate_proposals_cases()
    distribute_cases()
    with open(OUT, "w") as f:
        json.dump({"paddle": paddle.__version__, "cases": CASES}, f, separators=(",", ":"))
    errors = sum("error" in c["expected"] for c in CASES)
    print(f"{len(CASES)} cases ({errors} errors) -> {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
