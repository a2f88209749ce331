"""Save small models with real Paddle 3.3.1's ``paddle.jit.save`` into tests/data/model_files/,
with input/output goldens, for tests/test_model_files.py.

Run with the oracle venv: /work/paddle_venv/bin/python tools/model_files/record_models.py

Per model NAME it writes NAME.json (the PIR program), NAME.pdiparams (the parameters), and
expected/NAME.json: the inputs, the outputs of the Layer that was saved, and the outputs of
``paddle.jit.load(NAME)`` in eval mode and in train mode, with the names, shapes and dtypes of
the loaded layer's parameters and state_dict.
"""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.static import InputSpec

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "model_files")


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(6, 16)
        self.l2 = nn.Linear(16, 4)

    def forward(self, x):
        h = F.relu(self.l1(x))
        return F.softmax(self.l2(h), axis=-1)


class SmallCNN(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2D(4)
        self.conv2 = nn.Conv2D(4, 4, 3, stride=2, padding=1, bias_attr=False)
        self.fc = nn.Linear(4, 5)

    def forward(self, x):
        h = F.relu(self.bn(self.conv(x)))
        h = F.max_pool2d(h, 2)
        h = F.avg_pool2d(self.conv2(h), 2)
        return self.fc(paddle.flatten(h, 1))


class Block(nn.Layer):
    """A tiny transformer-ish block: layer_norm, q/k/v projections, reshape/transpose,
    scaled matmul, softmax, dropout (inference form), gelu feed-forward, residuals."""

    def __init__(self, d=8, heads=2):
        super().__init__()
        self.heads, self.d = heads, d
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.drop = nn.Dropout(0.1)
        self.ln2 = nn.LayerNorm(d)
        self.ff1 = nn.Linear(d, 2 * d)
        self.ff2 = nn.Linear(2 * d, d)

    def forward(self, x):
        b, s = x.shape[0], x.shape[1]
        h = self.ln1(x)
        qkv = self.qkv(h).reshape([b, s, 3, self.heads, self.d // self.heads])
        qkv = qkv.transpose([2, 0, 3, 1, 4])
        q, k, v = qkv[0], qkv[1], qkv[2]
        att = paddle.matmul(q, k, transpose_y=True) * (self.d // self.heads) ** -0.5
        att = self.drop(F.softmax(att, axis=-1))
        o = paddle.matmul(att, v).transpose([0, 2, 1, 3]).reshape([b, s, self.d])
        x = x + self.proj(o)
        return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))


class EmbedTanh(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 6)
        self.fc = nn.Linear(6, 3)

    def forward(self, ids):
        e = self.emb(ids)
        return paddle.tanh(self.fc(e.mean(axis=1))) + 1.0


class MobileSE(nn.Layer):
    """A mobile-net-style block at tiny width: depthwise conv, hardswish, a squeeze-excite
    gate (adaptive average pool, sigmoid, multiply), concat, unsqueeze/squeeze, global
    pooling, and a few elementwise ops."""

    def __init__(self):
        super().__init__()
        self.dw = nn.Conv2D(4, 4, 3, padding="SAME", groups=4)
        self.pw = nn.Conv2D(4, 4, 1)
        self.se1 = nn.Conv2D(4, 2, 1)
        self.se2 = nn.Conv2D(2, 4, 1)
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        h = F.hardswish(self.dw(x))
        g = F.sigmoid(self.se2(F.relu6(self.se1(F.adaptive_avg_pool2d(h, 1)))))
        h = self.pw(h * g)
        h = paddle.concat([h, F.leaky_relu(x, 0.2) - h], axis=1)
        v = F.adaptive_max_pool2d(h, 1).squeeze([2, 3])
        v = paddle.unsqueeze(v, 1).squeeze(1) / 2.0
        return paddle.sqrt(paddle.exp(self.fc(v)))


class Misc(nn.Layer):
    """Elementwise and reduction odds and ends: divide, maximum/minimum, pow, abs, rsqrt,
    cast, sum, dropout in its 'downscale_in_infer' inference form."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 5)
        self.drop = nn.Dropout(0.25, mode="downscale_in_infer")

    def forward(self, x):
        h = self.fc(x)
        a = paddle.maximum(h, x) / (paddle.abs(paddle.minimum(h, x)) + 1.0)
        b = paddle.rsqrt(paddle.pow(h, 2.0) + 1.0)
        c = self.drop(a * b)
        n = paddle.cast(paddle.sum(c, axis=-1, keepdim=True) > 0, "float32")
        return paddle.concat([c, n], axis=-1), paddle.sum(c, axis=0)


def _arr(a):
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "data": a.reshape(-1).tolist()}


def _outs(out):
    """The outputs as a list of arrays (a Tensor or a list/tuple of them)."""
    return [o.numpy() for o in out] if isinstance(out, (list, tuple)) else [out.numpy()]


def main():
    # the goldens go into a subfolder: a second .json beside NAME.json makes Paddle's own
    # jit.load fail with "Invalid model file"
    os.makedirs(os.path.join(OUT, "expected"), exist_ok=True)
    rng = np.random.default_rng(7)
    models = [
        ("mlp", MLP, [InputSpec([None, 6], "float32", "x")],
         [rng.standard_normal((3, 6)).astype("float32")]),
        ("cnn", SmallCNN, [InputSpec([None, 3, 8, 8], "float32", "x")],
         [rng.standard_normal((2, 3, 8, 8)).astype("float32")]),
        ("block", Block, [InputSpec([None, 5, 8], "float32", "x")],
         [rng.standard_normal((2, 5, 8)).astype("float32")]),
        ("embed", EmbedTanh, [InputSpec([None, 4], "int64", "ids")],
         [rng.integers(0, 20, (3, 4)).astype("int64")]),
        ("mobile", MobileSE, [InputSpec([None, 4, 6, 6], "float32", "x")],
         [rng.standard_normal((2, 4, 6, 6)).astype("float32")]),
        ("misc", Misc, [InputSpec([None, 5], "float32", "x")],
         [rng.standard_normal((4, 5)).astype("float32")]),
        ("mlp64", MLP, [InputSpec([None, 6], "float64", "x")],     # float64 parameters
         [rng.standard_normal((3, 6))]),
    ]
    for i, (name, cls, spec, inputs) in enumerate(models):
        paddle.seed(100 + i)
        paddle.set_default_dtype("float64" if name.endswith("64") else "float32")
        layer = cls()
        if name == "cnn":     # give the batch norm non-trivial running statistics
            layer.train()
            for _ in range(2):
                layer(paddle.to_tensor(rng.standard_normal((4, 3, 8, 8)).astype("float32")))
        layer.eval()
        xs = [paddle.to_tensor(a) for a in inputs]
        ref = _outs(layer(*xs))
        path = os.path.join(OUT, name)
        for ext in (".json", ".pdiparams", ".pdiparams.info"):   # jit.save fails over old files
            if os.path.exists(path + ext):
                os.remove(path + ext)
        paddle.jit.save(layer, path, input_spec=spec)
        loaded = paddle.jit.load(path)
        loaded.eval()
        out_eval = _outs(loaded(*xs))
        loaded.train()
        out_train = _outs(loaded(*xs))
        gold = {
            "inputs": [_arr(a) for a in inputs],
            "layer_output": [_arr(a) for a in ref],
            "eval_output": [_arr(a) for a in out_eval],
            "train_output": [_arr(a) for a in out_train],
            "parameters": [[p.name, list(p.shape), str(p.dtype), bool(p.stop_gradient)]
                           for p in loaded.parameters()],
            "state_dict": [[k, list(v.shape)] for k, v in loaded.state_dict().items()],
        }
        with open(os.path.join(OUT, "expected", name + ".json"), "w") as f:
            json.dump(gold, f, indent=1)
        print(name, "recorded:", len(gold["parameters"]), "parameters")


if __name__ == "__main__":
    main()
