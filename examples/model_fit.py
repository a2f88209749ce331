"""Train a small CNN with the high-level API, ``paddle.Model``: print its ``paddle.summary`` and
``paddle.flops`` tables, ``fit`` it for 3 epochs on a fixed synthetic image set (which quadrant
of a 12x12 image holds a bright square) with an evaluation after every epoch, early stopping and
checkpoints, then ``evaluate``, ``predict``, ``save`` and ``load`` it back.

The same file runs on real Paddle (``import paddle`` instead of the line below) and prints the
same (tests/test_hapi.py compares it with real Paddle's output, recorded by
tools/goldens/record_hapi.py; Paddle 3.3.1's own ``paddle.flops`` fails under numpy >= 2.3,
which refuses its ``int()`` of a one-element array, so the recorder restores the older rule).

    python examples/model_fit.py [--device gpu]
"""
import argparse
import os
import tempfile
import warnings

import numpy as np

import paddle_compat as paddle


class Quadrants(paddle.io.Dataset):
    """``n`` 1x12x12 float32 images, noise plus a bright 4x4 square in one quadrant (the
    label, 0-3), from a fixed numpy seed."""

    def __init__(self, n, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, 4, n).astype("int64")
        self.images = (rng.standard_normal((n, 1, 12, 12)) * 0.3).astype("float32")
        for img, label in zip(self.images, self.labels):
            r, c = 6 * (label // 2) + 1, 6 * (label % 2) + 1
            img[0, r:r + 4, c:c + 4] += 1.0

    def __getitem__(self, i):
        return self.images[i], self.labels[i:i + 1]

    def __len__(self):
        return len(self.labels)


def network():
    """A conv followed by batch norm has no bias: its gradient through the norm is zero up to
    rounding, which Adam would scale up to full steps of noise."""
    nn = paddle.nn
    return nn.Sequential(nn.Conv2D(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
                         nn.Conv2D(4, 8, 3, padding=1, bias_attr=False), nn.BatchNorm2D(8), nn.ReLU(),
                         nn.AdaptiveAvgPool2D(2), nn.Flatten(), nn.Linear(32, 4))


def main(device="cpu"):
    # Paddle's note on every switch of BatchNorm back to training is not a result
    warnings.filterwarnings("ignore", message="When training, we now always track")
    paddle.set_device(device)
    paddle.seed(2024)
    train, test = Quadrants(96, 0), Quadrants(32, 1)
    net = network()
    paddle.summary(net, (None, 1, 12, 12))
    paddle.flops(net, [1, 1, 12, 12], print_detail=True)

    model = paddle.Model(net)
    model.prepare(paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy(topk=(1, 2)))
    with tempfile.TemporaryDirectory() as tmp:
        stop = paddle.callbacks.EarlyStopping(monitor="acc_top1", mode="max", patience=2,
                                              save_best_model=False)
        model.fit(train, test, batch_size=16, epochs=3, log_freq=3, verbose=2,
                  shuffle=False, save_dir=os.path.join(tmp, "ckpt"), callbacks=[stop])
        print("checkpoints:", sorted(os.listdir(os.path.join(tmp, "ckpt"))))
        result = model.evaluate(test, batch_size=16, verbose=0)
        print("evaluate:", {k: np.round(np.asarray(v), 4).tolist() for k, v in result.items()})
        logits = model.predict(test, batch_size=16, stack_outputs=True, verbose=0)[0]
        predicted = logits.argmax(axis=1)
        print(f"predict: {logits.shape[0]} images, {int((predicted == test.labels).sum())} "
              "classified correctly")

        model.save(os.path.join(tmp, "quadrants"))
        again = paddle.Model(network())
        again.prepare(paddle.optimizer.Adam(learning_rate=0.01,
                                            parameters=again.parameters()),
                      paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy(topk=(1, 2)))
        again.load(os.path.join(tmp, "quadrants"))
        same = np.allclose(again.predict(test, batch_size=16, stack_outputs=True,
                                         verbose=0)[0], logits, atol=1e-6)
        print("reloaded model predicts the same:", same)
    if not same or result["acc_top1"] < 0.5:
        raise SystemExit("model_fit: the trained model did not learn the task")
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu", help="cpu or gpu")
    main(parser.parse_args().device)
