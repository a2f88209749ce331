"""A vision pipeline end to end: write a tiny image folder (two classes of 24x24 PNGs, stripes
that run across or down), read it with ``paddle.vision.datasets.DatasetFolder`` through
``paddle.vision.transforms`` (Grayscale, Resize, seeded RandomCrop, RandomHorizontalFlip,
ToTensor, Normalize), batch it with ``paddle.io.DataLoader``, train ``paddle.vision.models``'
LeNet on it for a few epochs, then keep the confident predictions with
``paddle.vision.ops.nms`` over toy boxes.

    python examples/vision_folder_train.py [--device gpu]

The same file runs on real Paddle (``import paddle`` instead of the line below).
"""
import argparse
import os
import random
import tempfile

import numpy as np

import paddle_compat as paddle


def write_folder(root, per_class=12, seed=0):
    """``root/across/*.png`` and ``root/down/*.png``: noisy stripes of period 4."""
    from PIL import Image
    rng = np.random.default_rng(seed)
    for label in ("across", "down"):
        os.makedirs(os.path.join(root, label), exist_ok=True)
        for i in range(per_class):
            stripes = (np.arange(24) // 2 % 2 * 160).astype("float32")
            img = np.tile(stripes[:, None] if label == "across" else stripes[None, :], (1, 1))
            img = np.broadcast_to(img, (24, 24)) + rng.normal(0, 20, (24, 24))
            rgb = np.repeat(np.clip(img, 0, 255).astype("uint8")[..., None], 3, axis=2)
            Image.fromarray(rgb).save(os.path.join(root, label, f"{i:02d}.png"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    args = ap.parse_args()
    paddle.set_device(args.device)
    paddle.seed(1)
    random.seed(1)
    np.random.seed(1)
    T = paddle.vision.transforms
    transform = T.Compose([T.Grayscale(), T.Resize(32), T.RandomCrop(28),
                           T.RandomHorizontalFlip(0.5), T.ToTensor(),
                           T.Normalize(mean=[0.5], std=[0.5])])
    with tempfile.TemporaryDirectory() as root:
        write_folder(root)
        data = paddle.vision.datasets.DatasetFolder(root, transform=transform)
        print("classes:", data.classes, "samples:", len(data))
        loader = paddle.io.DataLoader(data, batch_size=8, shuffle=True, drop_last=True)
        model = paddle.vision.models.LeNet(num_classes=2)
        opt = paddle.optimizer.Adam(learning_rate=0.002, parameters=model.parameters())
        for epoch in range(6):
            losses = []
            for images, labels in loader:
                loss = paddle.nn.functional.cross_entropy(model(images), labels.reshape([-1]))
                loss.backward()
                opt.step()
                opt.clear_grad()
                losses.append(float(loss))
            print(f"epoch {epoch}: mean loss {np.mean(losses):.4f} over {len(losses)} batches")
        model.eval()
        images, labels = next(iter(paddle.io.DataLoader(data, batch_size=24)))
        with paddle.no_grad():
            probs = paddle.nn.functional.softmax(model(images), axis=-1)
        accuracy = float((probs.argmax(-1) == labels.reshape([-1])).astype("float32").mean())
        print(f"accuracy on the folder: {accuracy:.2f}")

    # detection post-processing: overlapping boxes scored by the model's confidence
    boxes = paddle.to_tensor([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30],
                              [21, 19, 31, 29]], dtype="float32")
    scores = probs.max(-1)[:4]
    keep = paddle.vision.ops.nms(boxes, iou_threshold=0.5, scores=scores)
    print("boxes kept by nms:", sorted(keep.numpy().tolist()))
    assert len(keep) == 2, "nms keeps one box of each overlapping pair"


if __name__ == "__main__":
    main()
