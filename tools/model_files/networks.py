"""The small networks whose Paddle-saved files are the fixtures of tests/test_model_files.py,
written once for both sides: tools/model_files/record_models.py builds them on real Paddle and
saves them; bench/bench_model_files.py builds them on paddle_compat to time the loaded files
against. ``networks(paddle)`` returns ``{name: Layer class}`` made with that ``paddle``."""


def networks(paddle):
    nn, F = paddle.nn, paddle.nn.functional

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

    return {"mlp": MLP, "cnn": SmallCNN, "block": Block, "embed": EmbedTanh,
            "mobile": MobileSE, "misc": Misc}
