"""paddledet 2.6.0: two detectors built by ppdet's own workspace (``load_config`` + ``create``)
from YAML configs written here, with seeded weights and 128x128 inputs (no download).

- PP-YOLOE-s (CSPResNet + CustomCSPPAN + PPYOLOEHead, anchor-free): the train-mode losses dict
  for three steps of the config's ``OptimizerBuilder`` (Momentum + L2) and ``LearningRate``
  (PiecewiseDecay + LinearWarmup), the first two with the static ATSS assigner, the third with
  the TaskAlignedAssigner; eval mode through ``MultiClassNMS`` (``_legacy_C_ops.multiclass_nms3``);
  save/reload.
- SSD (MobileNet v1 + SSDHead): anchors through ``prior_box`` (``_legacy_C_ops``), ``SSDBox``
  decode, ``MultiClassNMS`` in eval mode; save/reload (its training: below).
- ppdet's detection ops (``ppdet.modeling.ops``, which call ``paddle._legacy_C_ops`` in dynamic
  mode): ``anchor_generator``, ``prior_box``, ``box_coder`` (both variance forms),
  ``generate_proposals``, ``distribute_fpn_proposals``, ``multiclass_nms`` (batched, and per-RoI
  rows with ``rois_num``), ``matrix_nms``, on seeded inputs.

Paddle 3.3.1 itself stops some of ppdet 2.6.0 (left out here): two-stage detectors (Faster
R-CNN's RPNHead concats the 0-D ``paddle.shape(rois)[0]`` of each image, ``rpn_head.py:234``)
and SSD's training (``ssd_loss.py:127``: int64 ``<`` float32 is refused by type promotion).
"""
import os

import numpy as np
import paddle
import ppdet
from ppdet.core.workspace import create, load_config
from ppdet.modeling import ops

from _common import Driver, jittered, seed_params

d = Driver("paddledet", version_of="ppdet")
state = {}

PPYOLOE = """
architecture: YOLOv3
num_classes: 3
norm_type: bn
depth_mult: 0.33
width_mult: 0.25

YOLOv3:
  backbone: CSPResNet
  neck: CustomCSPPAN
  yolo_head: PPYOLOEHead
  post_process: ~

CSPResNet:
  layers: [3, 6, 6, 3]
  channels: [64, 128, 256, 512, 1024]
  return_idx: [1, 2, 3]
  use_large_stem: True
  use_alpha: True

CustomCSPPAN:
  out_channels: [768, 384, 192]
  stage_num: 1
  block_num: 3
  act: swish
  spp: true

PPYOLOEHead:
  fpn_strides: [32, 16, 8]
  grid_cell_scale: 5.0
  grid_cell_offset: 0.5
  static_assigner_epoch: 1
  use_varifocal_loss: True
  loss_weight: {class: 1.0, iou: 2.5, dfl: 0.5}
  static_assigner:
    name: ATSSAssigner
    topk: 9
  assigner:
    name: TaskAlignedAssigner
    topk: 13
    alpha: 1.0
    beta: 6.0
  nms:
    name: MultiClassNMS
    nms_top_k: 1000
    keep_top_k: 30
    score_threshold: 0.0
    nms_threshold: 0.6

LearningRate:
  base_lr: 0.0001
  schedulers:
  - !PiecewiseDecay
    gamma: 0.1
    milestones: [2]
    use_warmup: false
  - !LinearWarmup
    start_factor: 0.1
    steps: 2

OptimizerBuilder:
  optimizer:
    momentum: 0.9
    type: Momentum
  regularizer:
    factor: 0.0005
    type: L2
"""

SSD = """
architecture: SSD
num_classes: 3

SSD:
  backbone: MobileNet
  ssd_head: SSDHead
  post_process: BBoxPostProcess

MobileNet:
  norm_decay: 0.
  scale: 1
  conv_learning_rate: 0.1
  extra_block_filters: [[256, 512], [128, 256], [128, 256], [64, 128]]
  with_extra_blocks: true
  feature_maps: [11, 13, 14, 15, 16, 17]

SSDHead:
  anchor_generator:
    steps: [0, 0, 0, 0, 0, 0]
    aspect_ratios: [[2.], [2., 3.], [2., 3.], [2., 3.], [2., 3.], [2., 3.]]
    min_ratio: 20
    max_ratio: 90
    base_size: 128
    min_sizes: [25.6, 44.8, 64.0, 83.2, 102.4, 121.6]
    max_sizes: [[], 64.0, 83.2, 102.4, 121.6, 128.0]
    offset: 0.5
    flip: true
    min_max_aspect_ratios_order: false

BBoxPostProcess:
  decode:
    name: SSDBox
  nms:
    name: MultiClassNMS
    keep_top_k: 30
    score_threshold: 0.01
    nms_threshold: 0.45
    nms_top_k: 400
    nms_eta: 1.0
"""


def build(name, text):
    """The architecture of config ``text`` (written to a file, loaded by ppdet's workspace)."""
    path = os.path.join(d.tmp, f"{name}.yml")
    with open(path, "w") as f:
        f.write(text)
    cfg = load_config(path)
    return cfg, create(cfg.architecture)


def batch(model_name, size=128, epoch_id=0):
    """A two-image batch: seeded images, three padded ground-truth boxes per image."""
    rng = np.random.RandomState(3)
    img = jittered(rng.standard_normal((2, 3, size, size)).astype("float32"))
    boxes = 2 * np.array([[[4, 6, 30, 40], [20, 18, 60, 58], [0, 0, 0, 0]],
                          [[10, 2, 44, 30], [8, 30, 28, 62], [34, 36, 62, 60]]], "float32")
    classes = np.array([[[0], [2], [0]], [[1], [1], [2]]], "int64")
    pad = np.array([[[1], [1], [0]], [[1], [1], [1]]], "float32")
    inputs = {"image": paddle.to_tensor(img),
              "im_shape": paddle.to_tensor([[size, size]] * 2, dtype="float32"),
              "scale_factor": paddle.to_tensor([[1.0, 1.0]] * 2, dtype="float32"),
              "epoch_id": epoch_id}
    if model_name == "ppyoloe":
        inputs.update(gt_bbox=paddle.to_tensor(boxes), gt_class=paddle.to_tensor(classes),
                      pad_gt_mask=paddle.to_tensor(pad))
    else:   # SSD: no padding (every row is matched), boxes normalised, labels [N, M]
        boxes[0, 2] = [70, 80, 120, 110]
        inputs.update(gt_bbox=paddle.to_tensor(boxes / size),
                      gt_class=paddle.to_tensor(classes[..., 0]))
    return inputs


def train(name, model, cfg, epochs):
    """Three steps of the config's optimizer (PP-YOLOE) or plain Momentum; the losses dicts."""
    if "OptimizerBuilder" in cfg:
        lr = create("LearningRate")(2)
        opt = create("OptimizerBuilder")(lr, model)
    else:
        lr = None
        opt = paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9,
                                        parameters=model.parameters())
    model.train()
    steps = []
    for epoch in epochs:
        losses = model(batch(name, epoch_id=epoch))
        losses["loss"].backward()
        opt.step()
        opt.clear_grad()
        if lr is not None:
            opt._learning_rate.step()
        steps.append({k: float(v) for k, v in losses.items()})
    d.put(f"{name}.train", steps)
    d.put(f"{name}.train.lr", opt.get_lr())


def evaluate(name, model, tag):
    """Eval-mode boxes after NMS: [label, score, x1, y1, x2, y2] rows and the per-image count."""
    model.eval()
    out = model(batch(name))
    d.put(f"{name}.{tag}.bbox_num", out["bbox_num"])
    d.put(f"{name}.{tag}.bbox", out["bbox"])
    return out


def save_reload(name, model, cfg):
    path = os.path.join(d.tmp, f"{name}.pdparams")
    paddle.save(model.state_dict(), path)
    again = create(cfg.architecture)
    again.set_state_dict(paddle.load(path))
    model.eval()
    again.eval()
    a, b = model(batch(name)), again(batch(name))
    d.put(f"{name}.reload.same_num", bool((a["bbox_num"] == b["bbox_num"]).all()))
    same = a["bbox"].shape == b["bbox"].shape
    d.put(f"{name}.reload.maxdiff", float((a["bbox"] - b["bbox"]).abs().max())
          if same and a["bbox"].shape[0] else (0.0 if same else -1.0))


def detector(name, text, epochs):
    @d.stage(f"{name}.build")
    def _():
        cfg, model = build(name, text)
        seed_params(model)
        for p in model.parameters():
            if len(p.shape) == 4:
                # conv kernels at He scale (seed_params' fixed 0.05 fades a deep net's signal
                # to a constant map, where NMS only sees tied scores)
                p.set_value(p * (np.sqrt(2.0 / np.prod(p.shape[1:])) / 0.05))
        head = getattr(model, "yolo_head", None)
        if head is not None and hasattr(head, "proj_conv"):
            # the DFL projection is a fixed 0..reg_max ramp, not a weight: the head's own value
            lo, hi = head.reg_range
            head.proj_conv.weight.set_value(
                paddle.linspace(lo, hi - 1, head.reg_channels).reshape([1, -1, 1, 1]))
        state[name] = (cfg, model)
        d.put(f"{name}.n_params", sum(int(np.prod(p.shape)) for p in model.parameters()))

    @d.stage(f"{name}.eval_seeded")
    def _():
        evaluate(name, state[name][1], "eval_seeded")

    if epochs:
        @d.stage(f"{name}.train")
        def _():
            cfg, model = state[name]
            train(name, model, cfg, epochs)

    @d.stage(f"{name}.eval")
    def _():
        evaluate(name, state[name][1], "eval")

    @d.stage(f"{name}.save_reload")
    def _():
        cfg, model = state[name]
        save_reload(name, model, cfg)


# epoch 0 < static_assigner_epoch: ATSS; epoch 1: the task-aligned assigner
detector("ppyoloe", PPYOLOE, (0, 0, 1))
# SSD's loss stops on Paddle 3.3.1 itself (ssd_loss.py:127 compares an int64 rank with a
# float32 count): its anchors (prior_box), decode and NMS run, its training does not
detector("ssd", SSD, None)

OPS = {}


def op_stage(name):
    """Decorator: run ``fn()`` as stage ``ops.<name>`` and record what it returns."""
    def run(fn):
        @d.stage(f"ops.{name}")
        def _():
            d.put(f"ops.{name}", fn())
        return fn
    return run


def rand(shape, seed, scale=1.0, shift=0.0):
    return paddle.to_tensor(jittered(
        (np.random.RandomState(seed).uniform(size=shape) * scale + shift).astype("float32"), seed))


def corner_boxes(n, seed, size=64.0):
    """``n`` boxes [x1, y1, x2, y2] inside ``size`` with positive extent."""
    rng = np.random.RandomState(seed)
    xy = rng.uniform(0, size * 0.6, (n, 2))
    wh = rng.uniform(size * 0.1, size * 0.4, (n, 2))
    return np.concatenate([xy, xy + wh], 1).astype("float32")


@op_stage("anchor_generator")
def _():
    anchor, var = ops.anchor_generator(rand([1, 8, 4, 5], 0), anchor_sizes=[16, 32],
                                       aspect_ratios=[0.5, 1.0, 2.0],
                                       variance=[0.1, 0.1, 0.2, 0.2], stride=[16.0, 16.0],
                                       offset=0.5)
    return [anchor, var]


@op_stage("prior_box")
def _():
    box, var = ops.prior_box(rand([1, 8, 4, 4], 1), rand([1, 3, 32, 32], 2), min_sizes=[8.0],
                             max_sizes=[16.0], aspect_ratios=[2.0], flip=True, clip=True,
                             steps=[8.0, 8.0])
    return [box, var]


@op_stage("box_coder")
def _():
    prior = paddle.to_tensor(jittered(corner_boxes(6, 3)))
    target = paddle.to_tensor(jittered(corner_boxes(4, 4)))
    enc = ops.box_coder(prior, [0.1, 0.1, 0.2, 0.2], target, "encode_center_size", False)
    dec = ops.box_coder(prior, rand([6, 4], 5, 0.2, 0.1), rand([6, 4, 4], 6, 0.5),
                        "decode_center_size", False, axis=1)
    return [enc, dec]


def proposals_inputs():
    anchors = paddle.to_tensor(jittered(corner_boxes(4 * 4 * 3, 7, 64.0).reshape(4, 4, 3, 4)))
    return (rand([1, 3, 4, 4], 8), rand([1, 12, 4, 4], 9, 0.4, -0.2),
            paddle.to_tensor([[64.0, 64.0]]), anchors, paddle.ones_like(anchors))


@op_stage("generate_proposals")
def _():
    rois, probs, num = ops.generate_proposals(*proposals_inputs(), pre_nms_top_n=30,
                                              post_nms_top_n=10, nms_thresh=0.7, min_size=0.0,
                                              return_rois_num=True)
    return [rois, probs, num]


@op_stage("distribute_fpn_proposals")
def _():
    rois = np.concatenate([corner_boxes(5, 10, 32.0), corner_boxes(4, 11, 400.0)])
    multi, restore, nums = ops.distribute_fpn_proposals(
        paddle.to_tensor(jittered(rois)), 2, 5, 4, 224, pixel_offset=True,
        rois_num=paddle.to_tensor([6, 3], dtype="int32"))
    return [multi, restore, nums]


def nms_inputs(seed, m=12, c=3):
    boxes = np.stack([corner_boxes(m, seed + i, 64.0) for i in range(2)])
    scores = np.random.RandomState(seed + 5).uniform(size=(2, c, m)).astype("float32")
    return paddle.to_tensor(jittered(boxes)), paddle.to_tensor(jittered(scores, seed))


@op_stage("multiclass_nms")
def _():
    boxes, scores = nms_inputs(20)
    out, num, index = ops.multiclass_nms(boxes, scores, score_threshold=0.2, nms_top_k=8,
                                         keep_top_k=10, nms_threshold=0.4, normalized=False,
                                         background_label=-1, return_index=True)
    return [out, num, index]


@op_stage("multiclass_nms_rois_num")
def _():
    # per-RoI rows (two-stage heads): boxes [M, C, 4], scores [M, C], RoIs per image
    m, c = 9, 3
    boxes = np.stack([corner_boxes(m, 30 + k, 64.0) for k in range(c)], 1)
    scores = np.random.RandomState(31).uniform(size=(m, c)).astype("float32")
    out, num, index = ops.multiclass_nms(
        paddle.to_tensor(jittered(boxes)), paddle.to_tensor(jittered(scores, 2)),
        score_threshold=0.3, nms_top_k=-1, keep_top_k=6, nms_threshold=0.5, normalized=False,
        background_label=0, return_index=True, rois_num=paddle.to_tensor([5, 4], dtype="int32"))
    return [out, num, index]


@op_stage("matrix_nms")
def _():
    boxes, scores = nms_inputs(40)
    out, num, index = ops.matrix_nms(boxes, scores, score_threshold=0.2, post_threshold=0.1,
                                     nms_top_k=8, keep_top_k=10, use_gaussian=True,
                                     gaussian_sigma=2.0, background_label=-1, normalized=False,
                                     return_index=True)
    return [out, num, index]


d.meta["version"] = ppdet.__version__
d.finish()
