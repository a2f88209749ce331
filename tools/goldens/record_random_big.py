"""Record big seeded CPU draws of real Paddle into tests/goldens/random_big.json.

Run with the virtualenv that has real Paddle (our oracle, never a dependency):

    /work/paddle_venv/bin/python tools/goldens/record_random_big.py

Each *stream* seeds the global generator, makes a few big random calls (up to 1e6 values,
odd sizes among them, small calls around big ones so the engine state has to carry over
between calls), then reads the next raw engine words.  An array is kept small: its dtype,
shape, the sha256 of its raw bytes (floats compared through their bits), its float64 sum, and
a few slices (head, tail, one from the middle).  Inputs (bernoulli probabilities, poisson
rates) are formulas that tests/test_rng_kernels.py rebuilds with numpy.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys

import numpy as np
import paddle
from paddle.base import core

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "tests", "goldens", "random_big.json")

EDGE = 6

paddle.set_device("cpu")
GEN = core.default_cpu_generator()


def bits_of(a):
    a = np.ascontiguousarray(a)
    if a.dtype == np.float64:
        return a.view(np.uint64)
    if a.dtype == np.float32:
        return a.view(np.uint32)
    if a.dtype == np.float16:
        return a.view(np.uint16)
    return a


def encode(a):
    a = np.ascontiguousarray(a)
    flat = bits_of(a).reshape(-1)
    conv = (lambda v: format(int(v), "x")) if a.dtype.kind == "f" else int
    mid = flat.size // 2
    return {
        "dtype": str(a.dtype),
        "shape": list(a.shape),
        "sha256": hashlib.sha256(flat.tobytes()).hexdigest(),
        "sum": float(np.sum(a, dtype=np.float64)),
        "head": [conv(v) for v in flat[:EDGE]],
        "mid": [conv(v) for v in flat[mid : mid + EDGE]],
        "tail": [conv(v) for v in flat[-EDGE:]] if flat.size else [],
    }


def make_input(spec):
    """The input arrays named in a call (the tests build the same ones)."""
    kind, n = spec["kind"], spec["n"]
    if kind == "probs":  # bernoulli probabilities in [0, 1]
        return np.linspace(0.0, 1.0, n, dtype=spec["dtype"])
    if kind == "rates":  # poisson rates over both of libstdc++'s branches (< 12 and >= 12)
        return np.linspace(0.0, 40.0, n, dtype=spec["dtype"])
    raise ValueError(kind)


def run(call):
    op, dt = call["op"], call.get("dtype")
    if op == "randn":
        t = paddle.randn(call["shape"], dt)
    elif op == "rand":
        t = paddle.rand(call["shape"], dt)
    elif op == "uniform":
        t = paddle.uniform(call["shape"], dt, min=call["min"], max=call["max"])
    elif op == "gaussian":
        t = paddle.tensor.random.gaussian(call["shape"], call["mean"], call["std"], dtype=dt)
    elif op == "randint":
        t = paddle.randint(call["low"], call["high"], call["shape"], dt)
    elif op == "randperm":
        t = paddle.randperm(call["n"], dt)
    elif op == "bernoulli":
        t = paddle.bernoulli(paddle.to_tensor(make_input(call["x"])))
    elif op == "poisson":
        t = paddle.poisson(paddle.to_tensor(make_input(call["x"])))
    else:
        raise ValueError(op)
    return t.numpy()


def streams():
    M = 1_000_000
    out = []
    for seed, dt in ((2023, "float32"), (2023, "float64"), (7, "float32"), (7, "float64")):
        out.append((seed, [{"op": "randn", "dtype": dt, "shape": [M]}]))
    for dt in ("float32", "float64"):
        # state continuation: a small call, a big one, a small one
        out.append((11, [{"op": "randn", "dtype": dt, "shape": [7]},
                         {"op": "randn", "dtype": dt, "shape": [100_000]},
                         {"op": "randn", "dtype": dt, "shape": [3]}]))
        out.append((12, [{"op": "rand", "dtype": dt, "shape": [7]},
                         {"op": "rand", "dtype": dt, "shape": [M]},
                         {"op": "rand", "dtype": dt, "shape": [3]}]))
        out.append((13, [{"op": "gaussian", "dtype": dt, "shape": [999, 1001], "mean": 1.5,
                          "std": 0.25},
                         {"op": "uniform", "dtype": dt, "shape": [M - 1], "min": -2.5,
                          "max": 7.0},
                         {"op": "randn", "dtype": dt, "shape": [1]}]))
    out.append((14, [{"op": "randint", "dtype": "int64", "shape": [M], "low": 0, "high": 1000},
                     {"op": "randint", "dtype": "int32", "shape": [100_001], "low": -(2**31),
                      "high": 2**31 - 1},
                     {"op": "randint", "dtype": "int64", "shape": [333_333], "low": -5,
                      "high": -2},
                     {"op": "randn", "dtype": "float32", "shape": [5]}]))
    out.append((15, [{"op": "randperm", "dtype": "int64", "n": 100_000},
                     {"op": "bernoulli", "x": {"kind": "probs", "n": 100_003,
                                               "dtype": "float32"}},
                     {"op": "bernoulli", "x": {"kind": "probs", "n": 65_537,
                                               "dtype": "float64"}},
                     {"op": "poisson", "x": {"kind": "rates", "n": 20_001,
                                             "dtype": "float64"}},
                     {"op": "randn", "dtype": "float16", "shape": [100_001]},
                     {"op": "rand", "dtype": "float32", "shape": [2]}]))
    return out


def main():
    recs = []
    for seed, calls in streams():
        paddle.seed(seed)
        for call in calls:
            call["result"] = encode(run(call))
        recs.append({"seed": seed, "calls": calls,
                     "next_raw": [str(GEN.random()) for _ in range(4)]})
    doc = {
        "meta": {"paddle": paddle.__version__, "numpy": np.__version__,
                 "python": sys.version.split()[0], "platform": platform.platform(),
                 "libc": " ".join(platform.libc_ver())},
        "streams": recs,
    }
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT}: {len(recs)} streams")


if __name__ == "__main__":
    main()
