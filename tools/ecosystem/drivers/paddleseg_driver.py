"""paddleseg 2.8.0: a UNet built by the library's own SegBuilder from a YAML config (written
here, with a tiny on-disk dataset of the generic ``Dataset`` type); seeded weights; forward,
three steps of the config's SGD + PolynomialDecay with ``loss_computation``; save/reload; the
library's metrics (mIoU, accuracy, kappa)."""
import os

import cv2
import numpy as np
import paddle
import paddleseg
from paddleseg.core.train import loss_computation
from paddleseg.cvlibs import Config, SegBuilder
from paddleseg.utils import metrics

from _common import Driver, jittered, seed_params

d = Driver("paddleseg")
state = {}


def write_dataset(root):
    """Two 32x32 images with 3-class masks, and the list files."""
    rng = np.random.RandomState(0)
    lines = []
    for i in range(2):
        img = rng.randint(0, 255, (32, 32, 3)).astype(np.uint8)
        lab = np.zeros((32, 32), np.uint8)
        lab[8:20, 4:28] = 1
        lab[22:30, 10 + i:18 + i] = 2
        cv2.imwrite(os.path.join(root, f"img{i}.png"), img)
        cv2.imwrite(os.path.join(root, f"lab{i}.png"), lab)
        lines.append(f"img{i}.png lab{i}.png")
    for name in ("train.txt", "val.txt"):
        with open(os.path.join(root, name), "w") as f:
            f.write("\n".join(lines) + "\n")


CONFIG = """
batch_size: 2
iters: 3
train_dataset: {{type: Dataset, dataset_root: {root}, train_path: {root}/train.txt,
  num_classes: 3, mode: train, transforms: [{{type: Normalize}}]}}
val_dataset: {{type: Dataset, dataset_root: {root}, val_path: {root}/val.txt,
  num_classes: 3, mode: val, transforms: [{{type: Normalize}}]}}
model: {{type: UNet, num_classes: 3, use_deconv: false}}
optimizer: {{type: SGD, momentum: 0.9, weight_decay: 4.0e-5}}
lr_scheduler: {{type: PolynomialDecay, learning_rate: 0.05, end_lr: 0, power: 0.9}}
loss: {{types: [{{type: DiceLoss}}], coef: [1]}}
"""


@d.stage("build")
def _():
    root = os.path.join(d.tmp, "data")
    os.makedirs(root)
    write_dataset(root)
    path = os.path.join(d.tmp, "unet.yml")
    with open(path, "w") as f:
        f.write(CONFIG.format(root=root))
    builder = SegBuilder(Config(path))
    model = builder.model
    seed_params(model)
    state.update(builder=builder, model=model)
    loader = paddle.io.DataLoader(builder.train_dataset, batch_size=2, shuffle=False)
    batch = next(iter(loader))
    state["img"] = paddle.to_tensor(jittered(batch["img"].numpy()))
    state["label"] = batch["label"].astype("int64")
    d.put("data.img", batch["img"])
    d.put("data.label", batch["label"])
    model.eval()
    d.put("forward", model(state["img"])[0])


@d.stage("train")
def _():
    builder, model = state["builder"], state["model"]
    optimizer = builder.optimizer
    model.train()
    losses = []
    for _ in range(3):
        loss_list = loss_computation(model(state["img"]), state["label"], None, builder.loss)
        loss = sum(loss_list)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        optimizer._learning_rate.step()
        losses.append(float(loss))
    d.put("train.losses", losses)
    d.put("train.lr", optimizer.get_lr())


@d.stage("save_reload")
def _():
    model = state["model"]
    path = os.path.join(d.tmp, "model.pdparams")
    paddle.save(model.state_dict(), path)
    again = state["builder"].model.__class__(num_classes=3, use_deconv=False)
    again.set_state_dict(paddle.load(path))
    model.eval()
    again.eval()
    d.put("reload.maxdiff", float((again(state["img"])[0] - model(state["img"])[0]).abs().max()))


@d.stage("metrics")
def _():
    # paddleseg 2.8.0's evaluate() / calculate_area concat 0-D sums, which Paddle 3.3.1
    # refuses (as its CrossEntropyLoss mixes int64 and float32: DiceLoss in the config): the areas are stacked here and fed to the library's own metrics
    model = state["model"]
    model.eval()
    pred = paddle.argmax(model(state["img"])[0], axis=1)
    label = state["label"].squeeze(1)
    d.put("eval.pred", pred)
    areas = [[paddle.sum(paddle.cast(c, "int64")) for c in (
        paddle.logical_and(pred == i, label == i), pred == i, label == i)] for i in range(3)]
    inter, pred_a, lab_a = (paddle.stack([a[k] for a in areas]) for k in range(3))
    class_iou, miou = metrics.mean_iou(inter, pred_a, lab_a)
    acc, class_precision, class_recall = metrics.class_measurement(inter, pred_a, lab_a)
    d.put("eval", {"miou": miou, "class_iou": class_iou, "acc": acc,
                   "class_precision": class_precision, "class_recall": class_recall,
                   "kappa": metrics.kappa(inter, pred_a, lab_a)})


d.meta["version"] = paddleseg.__version__
d.finish()
