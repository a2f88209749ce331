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


def machine():
    return (f"{platform.processor() or platform.machine()}, {torch.get_num_threads()} threads, "
            f"torch {torch.__version__}, Python {platform.python_version()}")
