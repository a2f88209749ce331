"""The small conv net and training loop both paddleslim drivers quantize, prune and train:
seeded weights, a fixed (jittered) batch of 3x16x16 images with 10-class labels."""
import numpy as np
import paddle

from _common import jittered, seed_params

IMAGES = jittered(np.random.RandomState(0).standard_normal((4, 3, 16, 16)).astype("float32"))
LABELS = np.array([[1], [7], [3], [0]], dtype="int64")


class Net(paddle.nn.Layer):
    """conv-bn-relu, strided conv-relu, linear head: 10 classes from 3x16x16."""

    def __init__(self):
        super().__init__()
        self.conv1 = paddle.nn.Conv2D(3, 8, 3, padding=1)
        self.bn1 = paddle.nn.BatchNorm2D(8)
        self.conv2 = paddle.nn.Conv2D(8, 16, 3, stride=2, padding=1)
        self.fc = paddle.nn.Linear(16 * 8 * 8, 10)

    def forward(self, x):
        x = paddle.nn.functional.relu(self.bn1(self.conv1(x)))
        x = paddle.nn.functional.relu(self.conv2(x))
        return self.fc(paddle.flatten(x, 1))


def seeded_net():
    net = Net()
    seed_params(net)
    return net


def train(model, steps=3, after_step=None):
    """``steps`` Momentum steps of cross entropy on the fixed batch; the losses."""
    x, y = paddle.to_tensor(IMAGES), paddle.to_tensor(LABELS)
    opt = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9,
                                    parameters=model.parameters())
    model.train()
    losses = []
    for _ in range(steps):
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        if after_step is not None:
            after_step()
        losses.append(float(loss))
    return losses
