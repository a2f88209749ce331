"""Prove that real Paddle loads what paddle_compat's ``paddle.save`` writes.

Two steps, two interpreters:

    python3 tools/goldens/check_paddle_loads.py write
        (paddle_compat) writes the objects of ``ours_objects()`` to tests/data/ours/
    /work/paddle_venv/bin/python tools/goldens/check_paddle_loads.py check
        (real Paddle 3.3.1) loads each file and writes what it got (dtypes, shapes, names,
        values, container kinds) to tests/goldens/amp_io_paddle_loads.json

tests/test_save_load.py then checks that our writer still produces exactly these bytes and
that the verdict describes the objects we wrote.
"""
import json
import os
import sys

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OURS = os.path.join(ROOT, "tests", "data", "ours")
VERDICT = os.path.join(ROOT, "tests", "goldens", "amp_io_paddle_loads.json")


def ours_objects(paddle):
    """{file name: (object, protocol)}: deterministic objects built with paddle_compat."""
    import torch
    from paddle_compat.framework.parameter import make_parameter
    w = make_parameter(torch.arange(6, dtype=torch.float32).reshape(2, 3) / 8, "linear_0.w_0")
    b = make_parameter(torch.tensor([0.5, -1.0, 2.0]), "linear_0.b_0")
    bf = paddle.to_tensor([1.5, -2.25, 3.0e38], dtype="bfloat16")
    bf.name = "bf_tensor"
    h = paddle.to_tensor([[0.1, 65504.0]], dtype="float16")
    h.name = "h_tensor"
    t = paddle.arange(6, dtype="float64").reshape([2, 3]).T       # not contiguous
    t.name = "transposed"
    i = paddle.to_tensor([1, 2, 3], dtype="int64")
    i.name = "counter"
    scalar = paddle.to_tensor(2.5)
    scalar.name = "scalar"
    flags = paddle.to_tensor([True, False])
    flags.name = "flags"
    moment = paddle.to_tensor([[0.25, 0.5, 0.75]] * 2)
    moment.name = "linear_0.w_0_moment1_0"
    return {
        "linear.pdparams": ({"weight": w, "bias": b}, 4),
        "opt.pdopt": ({"linear_0.w_0_moment1_0": moment,
                       "LR_Scheduler": {"last_epoch": 3, "last_lr": 0.05}}, 4),
        "bf16.pdtensor": (bf, 4),
        "fp16.pdtensor": (h, 4),
        "mixed_sd.pdparams": ({"t": t, "scalar": scalar, "flags": flags, "bf": bf}, 4),
        "nested.pdparams": ({"epoch": 3, "names": ["a", "b"],
                             "cfg": {"lr": 0.1, "betas": (0.9, 0.99), "flag": True,
                                     "none": None},
                             "w": i, "arr": np.arange(3, dtype=np.int32), "pair": (w, "x")}, 4),
        "protocol2.pdparams": ({"weight": w, "bias": b}, 2),
        "protocol3_list.pdparams": ([h, {"k": i}, 7, "s"], 3),
    }


def write():
    import paddle_compat as paddle
    from paddle_compat.framework.io import save
    os.makedirs(OURS, exist_ok=True)
    for fname, (obj, protocol) in ours_objects(paddle).items():
        save(obj, os.path.join(OURS, fname), protocol=protocol)
    print("wrote", sorted(os.listdir(OURS)))


def check():
    import paddle
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from record_amp_io import describe
    out = {}
    for fname in sorted(os.listdir(OURS)):
        path = os.path.join(OURS, fname)
        out[fname] = {"load": describe(paddle.load(path)),
                      "load_numpy": describe(paddle.load(path, return_numpy=True))}
    with open(VERDICT, "w") as f:
        json.dump({"paddle": paddle.__version__, "files": out}, f, indent=1)
        f.write("\n")
    print("Paddle", paddle.__version__, "loaded", len(out), "files; wrote", VERDICT)


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]]()
