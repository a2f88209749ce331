"""Recurrent layers: paddle_compat's ``nn.LSTM`` / ``nn.GRU`` forward + backward against raw
``torch.nn.LSTM`` / ``torch.nn.GRU`` with the same sizes and weights, in this run, interleaved
(median CPU time of the process per step, all its threads: steadier than wall time on a
shared machine; and the ratio); real Paddle 3.3.1 too when its virtualenv exists.

    python bench/bench_rnn.py [--device cpu|gpu] [--repeat 15] [--threads 1]

One intra-op thread by default: on a shared 2-core machine OpenMP's spin-waiting makes
multi-threaded timings of these small kernels swing by 10x.

Sizes: (batch, steps, input, hidden, layers, bidirectional). A step is forward, the sum of the
outputs, backward. ``seq`` rows pass ``sequence_length`` (torch: ``pack_padded_sequence``).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paddle_compat as paddle  # noqa: E402
from timing import machine  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VENVS = [os.path.join(os.path.dirname(os.path.dirname(HERE)), "paddle_venv", "bin", "python"),
         "/work/paddle_venv/bin/python"]

SIZES = [("small", 4, 8, 16, 32, 1, False), ("medium", 16, 32, 64, 128, 2, False),
         ("medium bi", 16, 32, 64, 128, 2, True)]


def _time(fn, repeat, number):
    fn()
    runs = []
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(number):
            fn()
        runs.append((time.process_time() - t0) / number * 1e6)
    return statistics.median(runs)


def _sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def bench(mode, size, device, repeat, with_seq=False):
    _, b, s, i, h, layers, bi = size
    ours = getattr(paddle.nn, mode)(i, h, num_layers=layers,
                                    direction="bidirect" if bi else "forward")
    ref = getattr(torch.nn, mode)(i, h, num_layers=layers, bidirectional=bi, batch_first=True)
    with torch.no_grad():
        for name, p in ref.named_parameters():
            p.copy_(getattr(ours, name)._t)
    ours.to(device="gpu" if device.type == "cuda" else "cpu")
    ref.to(device)
    x_t = torch.randn(b, s, i, device=device, requires_grad=True)
    x = paddle.to_tensor(x_t.detach().clone())
    x.stop_gradient = False
    lengths = torch.from_numpy(np.random.default_rng(0).integers(1, s + 1, b))
    seq = paddle.to_tensor(lengths.to(device)) if with_seq else None

    def step_ours():
        y, _ = ours(x, None, seq)
        y.sum().backward()
        _sync(device)

    def step_torch():
        if with_seq:
            packed = torch.nn.utils.rnn.pack_padded_sequence(x_t, lengths, batch_first=True,
                                                             enforce_sorted=False)
            y, _ = ref(packed)
            y = torch.nn.utils.rnn.pad_packed_sequence(y, batch_first=True, total_length=s)[0]
        else:
            y, _ = ref(x_t)
        y.sum().backward()
        _sync(device)

    number = max(1, int(2e4 / (b * s * h)))
    a, t = [], []
    for _ in range(repeat):
        a.append(_time(step_ours, 1, number))
        t.append(_time(step_torch, 1, number))
    return statistics.median(a), statistics.median(t)


PADDLE_SNIPPET = r'''
import statistics, sys, time, numpy as np, paddle
mode, b, s, i, h, layers, bi, with_seq, repeat = sys.argv[1:]
b, s, i, h, layers, repeat = map(int, (b, s, i, h, layers, repeat))
m = getattr(paddle.nn, mode)(i, h, num_layers=layers,
                             direction="bidirect" if bi == "True" else "forward")
x = paddle.randn([b, s, i]); x.stop_gradient = False
seq = paddle.to_tensor(np.random.default_rng(0).integers(1, s + 1, b)) if with_seq == "True" \
    else None
def step():
    y, _ = m(x, None, seq)
    y.sum().backward()
number = max(1, int(2e4 / (b * s * h)))
step()
runs = []
for _ in range(repeat):
    t0 = time.process_time()
    for _ in range(number):
        step()
    runs.append((time.process_time() - t0) / number * 1e6)
print(statistics.median(runs))
'''


def paddle_us(mode, size, with_seq, repeat):
    venv = next((v for v in VENVS if os.path.exists(v)), None)
    if venv is None:
        return None
    _, b, s, i, h, layers, bi = size
    try:
        out = subprocess.run([venv, "-c", PADDLE_SNIPPET, mode, str(b), str(s), str(i), str(h),
                              str(layers), str(bi), str(with_seq), str(repeat)],
                             capture_output=True, text=True, timeout=600, check=True)
        return float(out.stdout.strip().splitlines()[-1])
    except (subprocess.SubprocessError, ValueError, IndexError):
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--no-paddle", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)     # for the Paddle subprocess
    device = torch.device("cuda" if args.device == "gpu" else "cpu")
    print(f"RNN forward+backward, median process-CPU us per step ({machine()}, {device})")
    print(f"{'case':32s} {'ours':>10s} {'torch':>10s} {'ratio':>7s} {'paddle':>10s}")
    for mode in ("LSTM", "GRU"):
        for size in SIZES:
            for with_seq in (False, True):
                if with_seq and size[0] != "medium":
                    continue
                ours, ref = bench(mode, size, device, args.repeat, with_seq)
                pd = None if args.no_paddle or device.type == "cuda" else \
                    paddle_us(mode, size, with_seq, args.repeat)
                name = f"{mode} {size[0]}{' seq' if with_seq else ''}"
                pd_txt = f"{pd:10.1f}" if pd is not None else f"{'-':>10s}"
                print(f"{name:32s} {ours:10.1f} {ref:10.1f} {ours / ref:6.2f}x {pd_txt}")


if __name__ == "__main__":
    main()
