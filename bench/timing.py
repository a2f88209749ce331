"""Timing helpers shared by the bench scripts: medians of per-call times, machine name."""
import platform
import statistics
import time

import torch


def per_call_us(fn, number=2000, repeat=15):
    """Median over ``repeat`` runs of the mean time of one call, in microseconds."""
    fn()
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t0) / number * 1e6)
    return statistics.median(runs)


def paired(ours, theirs, number=2000, repeat=15):
    """(ours_us, theirs_us, ratio): interleaved medians, so drift hits both sides alike."""
    a, b = [], []
    ours(), theirs()
    for _ in range(repeat):
        a.append(per_call_us(ours, number, 1))
        b.append(per_call_us(theirs, number, 1))
    ma, mb = statistics.median(a), statistics.median(b)
    return ma, mb, ma / mb


def machine():
    return (f"{platform.processor() or platform.machine()}, {torch.get_num_threads()} threads, "
            f"torch {torch.__version__}, Python {platform.python_version()}")
