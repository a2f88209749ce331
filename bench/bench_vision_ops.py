"""paddle.vision.ops: paddle_compat against a plain torch reference and real Paddle.

    python bench/bench_vision_ops.py [--repeat 7] [--threads 1] [-k SUBSTRING]

``CASES`` is a list: one dict per case with ``name``; ``setup``, code written against the
Paddle API (it runs both here, with ``paddle`` = paddle_compat, and under real Paddle) binding
the inputs, with ``np`` and ``torch`` bound here; ``call``, the timed statement (the same code
on both); and ``torch``, a statement timing a plain torch version of the same work (None where
there is nothing meaningful to compare), which may use the torch tensors ``T(x)`` (the tensor
a paddle_compat Tensor wraps) and the functions in ``REFS``. Ours and the torch reference are
timed interleaved (median per call, this thread's CPU time with --threads 1); real Paddle runs
the same setup and call in its own virtualenv (../paddle_venv or /work/paddle_venv) when it
exists. Ratios are ours / torch and ours / Paddle.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from timing import CPU_CLOCK, machine, paired, per_call_us  # noqa: E402

import paddle_compat as paddle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VENVS = [os.path.join(os.path.dirname(os.path.dirname(HERE)), "paddle_venv", "bin", "python"),
         "/work/paddle_venv/bin/python"]

BOXES = """
rs = np.random.RandomState(0)
xy = rs.uniform(0, {spread}, ({n}, 2))
b = paddle.to_tensor(np.concatenate([xy, xy + rs.uniform(1, 8, ({n}, 2))], 1).astype('float32'))
s = paddle.to_tensor(rs.uniform(0, 1, {n}).astype('float32'))
"""


def greedy_nms_loop(boxes, scores, thr):
    """The straightforward port: sort, one IoU matrix, then one box at a time."""
    order = torch.argsort(scores, descending=True)
    b = boxes[order]
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.maximum(b[:, None, :2], b[None, :, :2])
    rb = torch.minimum(b[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    over = inter / (area[:, None] + area[None, :] - inter) > thr
    removed = torch.zeros(b.shape[0], dtype=torch.bool)
    keep = []
    for i in range(b.shape[0]):
        if not removed[i]:
            keep.append(i)
            removed |= over[i]
    return order[torch.tensor(keep, dtype=torch.long)]


def box_coder_encode(p, t, var):
    pw, ph = p[:, 2] - p[:, 0], p[:, 3] - p[:, 1]
    pcx, pcy = p[:, 0] + pw / 2, p[:, 1] + ph / 2
    tw, th = (t[:, 2] - t[:, 0])[:, None], (t[:, 3] - t[:, 1])[:, None]
    tcx, tcy = ((t[:, 0] + t[:, 2]) / 2)[:, None], ((t[:, 1] + t[:, 3]) / 2)[:, None]
    return torch.stack([(tcx - pcx) / pw, (tcy - pcy) / ph, torch.log(tw / pw),
                        torch.log(th / ph)], -1) / var


def roi_align_grid_sample(x, boxes, bid, out, ratio, scale):
    """The plain port of roi_align (fixed ``ratio`` x ``ratio`` samples per bin): every box's
    image copied out, grid_sample at the sample points, average pooling over each bin."""
    n, c, h, w = x.shape
    b = boxes * scale - 0.5
    steps = (torch.arange(out * ratio, dtype=x.dtype) + 0.5) / (out * ratio)
    ys = b[:, 1:2] + (b[:, 3:4] - b[:, 1:2]) * steps
    xs = b[:, 0:1] + (b[:, 2:3] - b[:, 0:1]) * steps
    grid = torch.stack([(xs / (w - 1) * 2 - 1)[:, None, :].expand(-1, out * ratio, -1),
                        (ys / (h - 1) * 2 - 1)[:, :, None].expand(-1, -1, out * ratio)], -1)
    sampled = torch.nn.functional.grid_sample(x[bid], grid, align_corners=True)
    return torch.nn.functional.avg_pool2d(sampled, ratio)


def deform_conv_grid_sample(x, offset, weight, mask, padding):
    """The plain port of deform_conv2d: one grid_sample of the padded input per kernel tap,
    the taps stacked into columns, one matmul."""
    n, c, h, w = x.shape
    cout, _, kh, kw = weight.shape
    oh, ow = offset.shape[2:]
    xp = torch.nn.functional.pad(x, (padding,) * 4)
    hp, wp = h + 2 * padding, w + 2 * padding
    base_y = torch.arange(oh, dtype=x.dtype)[:, None].expand(oh, ow)
    base_x = torch.arange(ow, dtype=x.dtype)[None, :].expand(oh, ow)
    cols = []
    for k in range(kh * kw):
        py = base_y + k // kw + offset[:, 2 * k]
        px = base_x + k % kw + offset[:, 2 * k + 1]
        grid = torch.stack([px / (wp - 1) * 2 - 1, py / (hp - 1) * 2 - 1], -1)
        cols.append(torch.nn.functional.grid_sample(xp, grid, align_corners=True)
                    * mask[:, k:k + 1])
    cols = torch.stack(cols, 2).reshape(n, c * kh * kw, oh * ow)
    return (weight.reshape(cout, -1) @ cols).reshape(n, cout, oh, ow)


REFS = {"greedy_nms_loop": greedy_nms_loop, "box_coder_encode": box_coder_encode,
        "roi_align_grid_sample": roi_align_grid_sample,
        "deform_conv_grid_sample": deform_conv_grid_sample}

# region pooling: 2 images of 256 x 50 x 50 (stride 16 of 800 x 800), 512 boxes of 32-400 px
ROIS = """
rs = np.random.RandomState(0)
x = paddle.to_tensor(rs.standard_normal((2, 256, 50, 50)).astype('float32'))
xy = rs.uniform(0, 600, (512, 2))
b = np.concatenate([xy, xy + rs.uniform(32, 400, (512, 2))], 1)
b = paddle.to_tensor(b.astype('float32'))
bn = paddle.to_tensor(np.array([256, 256], 'int32'))
"""
DEFORM = """
rs = np.random.RandomState(0)
x = paddle.to_tensor(rs.standard_normal((2, 64, 32, 32)).astype('float32'))
o = paddle.to_tensor(rs.uniform(-2, 2, (2, 18, 32, 32)).astype('float32'))
m = paddle.to_tensor(rs.uniform(0, 1, (2, 9, 32, 32)).astype('float32'))
w = paddle.to_tensor((rs.standard_normal((64, 64, 3, 3)) * 0.05).astype('float32'))
"""

CASES = [
    dict(name="nms 200 boxes, scores", setup=BOXES.format(n=200, spread=40),
         call="paddle.vision.ops.nms(b, 0.5, scores=s)",
         torch="greedy_nms_loop(T(b), T(s), 0.5)"),
    dict(name="nms 2000 boxes, scores", setup=BOXES.format(n=2000, spread=120),
         call="paddle.vision.ops.nms(b, 0.5, scores=s)",
         torch="greedy_nms_loop(T(b), T(s), 0.5)"),
    dict(name="nms 2000 boxes, 20 categories", setup=BOXES.format(n=2000, spread=120)
         + "c = paddle.to_tensor(rs.randint(0, 20, 2000).astype('int64'))\n",
         call="paddle.vision.ops.nms(b, 0.5, s, c, list(range(20)), 300)", torch=None),
    dict(name="box_coder encode 300 x 1000", setup=BOXES.format(n=1000, spread=40)
         + "t = b[:300]\n",
         call="paddle.vision.ops.box_coder(b, [0.1, 0.1, 0.2, 0.2], t)",
         torch="box_coder_encode(T(b), T(t), VAR)"),
    dict(name="matrix_nms 2 x 80 classes x 500", setup="""
rs = np.random.RandomState(0)
xy = rs.uniform(0, 0.8, (2, 500, 2))
b = paddle.to_tensor(np.concatenate([xy, xy + rs.uniform(0.02, 0.2, (2, 500, 2))], -1).astype('float32'))
s = paddle.to_tensor(rs.uniform(0, 1, (2, 80, 500)).astype('float32'))
""", call="paddle.vision.ops.matrix_nms(b, s, 0.5, 0.1, 200, 100)", torch=None),
    dict(name="prior_box 38x38, 6 priors", setup="""
x = paddle.zeros([1, 8, 38, 38]); im = paddle.zeros([1, 3, 300, 300])
""", call="paddle.vision.ops.prior_box(x, im, [30.0], [60.0], [2.0], flip=True, clip=True)",
         torch=None),
    dict(name="yolo_box 8 x 255 x 19 x 19", setup="""
rs = np.random.RandomState(0)
x = paddle.to_tensor(rs.uniform(-3, 3, (8, 255, 19, 19)).astype('float32'))
im = paddle.to_tensor(np.full((8, 2), 608, 'int32'))
""", call="paddle.vision.ops.yolo_box(x, im, [116, 90, 156, 198, 373, 326], 80, 0.01, 32)",
         torch=None),
    dict(name="yolo_loss 8 x 255 x 19 x 19, 20 gt", setup="""
rs = np.random.RandomState(0)
x = paddle.to_tensor(rs.uniform(-3, 3, (8, 255, 19, 19)).astype('float32'))
gb = paddle.to_tensor(np.concatenate([rs.uniform(0.05, 0.95, (8, 20, 2)),
                                      rs.uniform(0.05, 0.5, (8, 20, 2))], -1).astype('float32'))
gl = paddle.to_tensor(rs.randint(0, 80, (8, 20)).astype('int32'))
anchors = [10, 13, 16, 30, 33, 23, 30, 61, 62, 45, 59, 119, 116, 90, 156, 198, 373, 326]
""", call="paddle.vision.ops.yolo_loss(x, gb, gl, anchors, [6, 7, 8], 80, 0.7, 32)",
         torch=None),
    dict(name="generate_proposals 2 x 15 x 50 x 50", setup="""
rs = np.random.RandomState(0)
n, a, h, w = 2, 15, 50, 50
sc = paddle.to_tensor(rs.uniform(0, 1, (n, a, h, w)).astype('float32'))
d = paddle.to_tensor(rs.uniform(-0.5, 0.5, (n, 4 * a, h, w)).astype('float32'))
cy, cx = np.meshgrid((np.arange(h) + 0.5) * 16, (np.arange(w) + 0.5) * 16, indexing='ij')
sz = rs.uniform(16, 256, (a, 2))
anc = np.stack([cx[..., None] - sz[:, 0] / 2, cy[..., None] - sz[:, 1] / 2,
                cx[..., None] + sz[:, 0] / 2, cy[..., None] + sz[:, 1] / 2], -1)
anc = paddle.to_tensor(anc.astype('float32'))
var = paddle.to_tensor(np.full((h, w, a, 4), 0.1, 'float32'))
im = paddle.to_tensor(np.array([[800, 800], [800, 800]], 'float32'))
""", call="paddle.vision.ops.generate_proposals(sc, d, im, anc, var, 6000, 1000, 0.7, "
           "return_rois_num=True)", torch=None),
    dict(name="distribute_fpn_proposals 2000 rois", setup="""
rs = np.random.RandomState(0)
xy = rs.uniform(0, 600, (2000, 2))
r = paddle.to_tensor(np.concatenate([xy, xy + rs.uniform(4, 500, (2000, 2))], 1).astype('float32'))
rn = paddle.to_tensor(np.array([1000, 1000], 'int32'))
""", call="paddle.vision.ops.distribute_fpn_proposals(r, 2, 5, 4, 224, rois_num=rn)",
         torch=None),
    dict(name="roi_align 512 boxes 7x7, ratio 2", setup=ROIS,
         call="paddle.vision.ops.roi_align(x, b, bn, 7, 1 / 16, 2)",
         torch="roi_align_grid_sample(T(x), T(b), BID, 7, 2, 1 / 16)"),
    dict(name="roi_align 512 boxes 7x7, adaptive", setup=ROIS,
         call="paddle.vision.ops.roi_align(x, b, bn, 7, 1 / 16)", torch=None),
    dict(name="roi_pool 512 boxes 7x7", setup=ROIS,
         call="paddle.vision.ops.roi_pool(x, b, bn, 7, 1 / 16)", torch=None),
    dict(name="psroi_pool 512 boxes 7x7, 490 channels", setup=ROIS.replace("256, 50", "490, 50"),
         call="paddle.vision.ops.psroi_pool(x, b, bn, 7, 1 / 16)", torch=None),
    dict(name="deform_conv2d v2 2x64x32x32, 64 out", setup=DEFORM,
         call="paddle.vision.ops.deform_conv2d(x, o, w, padding=1, mask=m)",
         torch="deform_conv_grid_sample(T(x), T(o), T(w), T(m), 1)"),
]

PADDLE_SNIPPET = r"""
import json, sys, time, statistics, warnings
warnings.filterwarnings("ignore")
import numpy as np
import paddle
paddle.set_device("cpu")
cases, repeat = json.loads(sys.argv[1]), int(sys.argv[2])
clock = time.thread_time
out = {}
for c in cases:
    env = {"paddle": paddle, "np": np}
    try:
        exec(c["setup"], env)
        f = eval("lambda: " + c["call"], env)
        f()
        t0 = clock(); f(); one = max(clock() - t0, 1e-6)
        number = max(1, int(0.2 / one))
        runs = []
        for _ in range(repeat):
            t0 = clock()
            for _ in range(number):
                f()
            runs.append((clock() - t0) / number * 1e6)
        out[c["name"]] = statistics.median(runs)
    except Exception as e:
        out[c["name"]] = repr(e)[:120]
print(json.dumps(out))
"""


def paddle_times(cases, repeat, threads):
    venv = next((v for v in VENVS if os.path.exists(v)), None)
    if venv is None:
        return {}
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    try:
        p = subprocess.run([venv, "-c", PADDLE_SNIPPET,
                            json.dumps([{k: c[k] for k in ("name", "setup", "call")}
                                        for c in cases]), str(repeat)],
                           capture_output=True, text=True, env=env, timeout=1800)
        return json.loads(p.stdout.strip().splitlines()[-1])
    except (subprocess.SubprocessError, ValueError, IndexError):
        return {}


def T(x):
    return x._t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("-k", default="", help="only the cases whose name contains this")
    ap.add_argument("--no-paddle", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    clock = {"clock": CPU_CLOCK} if args.threads == 1 else {}
    cases = [c for c in CASES if args.k in c["name"]]
    theirs = {} if args.no_paddle else paddle_times(cases, args.repeat, args.threads)
    print(f"paddle.vision.ops ({machine()})")
    print(f"{'case':40} {'ours us':>10} {'torch us':>10} {'ratio':>6} {'Paddle us':>10} "
          f"{'ratio':>6}")
    for c in cases:
        env = {"paddle": paddle, "np": np, "torch": torch, "T": T,
               "VAR": torch.tensor([0.1, 0.1, 0.2, 0.2]),
               "BID": torch.arange(2).repeat_interleave(256), **REFS}
        exec(c["setup"], env)
        ours = eval("lambda: " + c["call"], env)
        one = per_call_us(ours, 1, 1, **clock)
        number = max(1, int(2e5 / max(one, 1.0)))
        if c["torch"]:
            ref = eval("lambda: " + c["torch"], env)
            o, t, r = paired(ours, ref, number, args.repeat, **clock)
            tcol = f"{t:10.1f} {r:6.2f}"
        else:
            o = per_call_us(ours, number, args.repeat, **clock)
            tcol = f"{'-':>10} {'':>6}"
        p = theirs.get(c["name"])
        pcol = f"{p:10.1f} {o / p:6.2f}" if isinstance(p, float) else f"{'-':>10}"
        print(f"{c['name']:40} {o:10.1f} {tcol} {pcol}")


if __name__ == "__main__":
    main()
