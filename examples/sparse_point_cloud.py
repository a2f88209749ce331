"""A point-cloud backbone on paddle.sparse: two synthetic clouds (a sphere above a ground
plane, a box) are voxelised into a 24 x 24 x 24 grid (features: the mean offset of the points
in each voxel and their count), then go through SubmConv3D + BatchNorm + ReLU (twice, the two
submanifold layers sharing their rulebook through ``key``) and a strided Conv3D, and are
trained for 8 steps with Adam to regress a per-voxel target; prints the losses.

The same file runs on real Paddle (``import paddle`` instead of the line below): that is how
tools/goldens/record_sparse_nn.py records the losses tests/test_sparse_nn.py checks.

    python examples/sparse_point_cloud.py [--device gpu]
"""
import argparse

import numpy as np

import paddle_compat as paddle

GRID = 24


def voxelise(points, batch):
    """Voxel indices [4, n] (batch, z, y, x) and features [n, 4] of points in [0, 1)^3."""
    cells = np.clip(np.floor(points * GRID).astype(np.int64), 0, GRID - 1)
    keys = (cells[:, 0] * GRID + cells[:, 1]) * GRID + cells[:, 2]
    uniq, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    offset = points * GRID - cells - 0.5
    feats = np.zeros((uniq.size, 4))
    np.add.at(feats[:, :3], inverse, offset)
    feats[:, :3] /= counts[:, None]
    feats[:, 3] = np.log1p(counts)
    z, rem = np.divmod(uniq, GRID * GRID)
    y, x = np.divmod(rem, GRID)
    return np.stack([np.full_like(z, batch), z, y, x]), feats


def make_clouds(rng):
    ground = np.column_stack([rng.uniform(0, 1, (900, 2)), rng.normal(0.05, 0.01, 900)])
    d = rng.normal(size=(1200, 3))
    sphere = 0.5 + 0.3 * d / np.linalg.norm(d, axis=1, keepdims=True)
    face = rng.integers(0, 3, 1500)
    box = rng.uniform(0.2, 0.8, (1500, 3))
    box[np.arange(1500), face] = np.where(rng.random(1500) < 0.5, 0.2, 0.8)
    idx, feats = zip(*(voxelise(np.clip(p, 0, 0.999), b)
                       for b, p in enumerate([np.vstack([ground, sphere]), box])))
    return np.concatenate(idx, 1), np.concatenate(feats).astype("float32")


class Backbone(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        sn = paddle.sparse.nn
        self.subm1 = sn.SubmConv3D(4, 8, 3, padding=1, key="subm1")
        self.bn1 = sn.BatchNorm(8)
        self.subm2 = sn.SubmConv3D(8, 8, 3, padding=1, key="subm1")
        self.bn2 = sn.BatchNorm(8)
        self.relu = sn.ReLU()
        self.down = sn.Conv3D(8, 16, 3, stride=2, padding=1)

    def forward(self, x):
        x = self.relu(self.bn1(self.subm1(x)))
        x = self.relu(self.bn2(self.subm2(x)))
        return self.down(x)


def main(device="cpu", verbose=True, steps=8):
    paddle.set_device(device)
    rng = np.random.default_rng(0)
    idx, feats = make_clouds(rng)
    model = Backbone()
    for name, p in model.named_parameters():     # fixed weights: the same on any framework
        if name.endswith("weight") and len(p.shape) == 5:
            p.set_value(rng.normal(0, 0.3, p.shape).astype("float32"))
    x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(idx), paddle.to_tensor(feats),
                                        [2, GRID, GRID, GRID, 4])
    x.stop_gradient = False    # real Paddle 3.3.1's conv3d backward crashes on a constant input
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    if verbose:
        print(f"{idx.shape[1]} active voxels in 2 clouds, grid {GRID}^3")
    losses = []
    for step in range(steps):
        y = model(x)
        v = y.values()
        target = paddle.tanh(v.detach().sum(axis=1, keepdim=True) * 0.1) * 0.5
        loss = ((v - target) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
        if verbose:
            print(f"step {step}: {y.nnz()} output sites {list(y.shape)}, loss {float(loss):.6f}")
    return losses


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    main(ap.parse_args().device)
