"""Timing helpers shared by the bench scripts: medians of per-call times, machine name.

``clock`` is wall time by default; the per-op benches pass ``CPU_CLOCK`` (this thread's CPU
time), which other processes on a shared machine disturb far less and which, for these
CPU-bound sub-microsecond calls, measures the same work."""
import platform
import statistics
import time

import torch


CPU_CLOCK = time.thread_time


def per_call_us(fn, number=2000, repeat=15, clock=time.perf_counter):
    """Median over ``repeat`` runs of the mean time of one call, in microseconds."""
    fn()
    runs = []
    for _ in range(repeat):
        t0 = clock()
        for _ in range(number):
            fn()
        runs.append((clock() - t0) / number * 1e6)
    return statistics.median(runs)


def paired(ours, theirs, number=2000, repeat=15, clock=time.perf_counter):
    """(ours_us, theirs_us, ratio): interleaved medians, so drift hits both sides alike."""
    a, b = [], []
    ours(), theirs()
    for _ in range(repeat):
        a.append(per_call_us(ours, number, 1, clock))
        b.append(per_call_us(theirs, number, 1, clock))
    ma, mb = statistics.median(a), statistics.median(b)
    return ma, mb, ma / mb


def torch_sgd_step(model, x, y):
    """One raw-torch training step of ``model`` on (x, y): cross entropy, backward, SGD with
    momentum 0.9, gradients cleared; the baseline the training benchmarks compare with."""
    import torch
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def step():
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        return loss
    return step


def paddle_encoder(paddle):
    """The Transformer-encoder classifier the training benchmarks time, from ``paddle``
    (paddle_compat, or real Paddle): embedding 1000x128, 2 encoder layers (4 heads, 512 wide,
    dropout 0.1), mean over tokens, a 10-way head."""
    class Encoder(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = paddle.nn.Embedding(1000, 128)
            layer = paddle.nn.TransformerEncoderLayer(128, 4, 512, dropout=0.1)
            self.enc = paddle.nn.TransformerEncoder(layer, 2)
            self.head = paddle.nn.Linear(128, 10)

        def forward(self, ids):
            return self.head(self.enc(self.emb(ids)).mean(axis=1))
    return Encoder()


def torch_encoder():
    """``paddle_encoder`` written in torch (batch-first, no nested tensors)."""
    import torch

    class Encoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = torch.nn.Embedding(1000, 128)
            layer = torch.nn.TransformerEncoderLayer(128, 4, 512, dropout=0.1, batch_first=True)
            self.enc = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.head = torch.nn.Linear(128, 10)

        def forward(self, ids):
            return self.head(self.enc(self.emb(ids)).mean(dim=1))
    return Encoder()


def machine():
    return (f"{platform.processor() or platform.machine()}, {torch.get_num_threads()} threads, "
            f"torch {torch.__version__}, Python {platform.python_version()}")
