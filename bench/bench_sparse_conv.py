"""SubmConv3D forward + backward on a voxelised point cloud: paddle_compat (the rulebook kernels
of paddle_compat/sparse/nn/functional/_rulebook.py on torch) against real Paddle's CPU kernel
in the same run.

    python bench/bench_sparse_conv.py [--voxels 20000] [--cin 16] [--cout 32] [--repeat 15]

The cloud: voxels on the surfaces of spheres of several radii in a 48 x 256 x 256 grid (a
2-d manifold, as LiDAR and depth clouds are: about 9 active neighbours per site), ``voxels``
of them, batch 1. Each timed step builds the rulebook (no ``key``: both sides rebuild it per
call), runs the convolution and its backward (gradients of the values and the kernel). Real
Paddle runs in its own interpreter (``--paddle-python``, default ../paddle_venv/bin/python or
$PADDLE_PYTHON) on the same voxels and weights, with the same thread count (``--threads``);
without it only ours is timed. Prints the medians (wall clock) and the ratio Paddle / ours
(> 1: ours faster), and whether the two results agree.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PADDLE_SIDE = r"""
import json, sys, time, statistics, warnings
warnings.filterwarnings("ignore")
import numpy as np
import paddle
import paddle.sparse.nn.functional as F
paddle.set_device("cpu")
d = np.load(sys.argv[1])
repeat = int(sys.argv[2])
idx = paddle.to_tensor(d["indices"])
times = []
for i in range(repeat + 1):
    x = paddle.sparse.sparse_coo_tensor(idx, paddle.to_tensor(d["values"]), list(d["shape"]))
    x.stop_gradient = False
    w = paddle.to_tensor(d["weight"], stop_gradient=False)
    t0 = time.perf_counter()
    y = F.subm_conv3d(x, w, padding=1)
    y.backward(paddle.sparse.sparse_coo_tensor(y.indices(), paddle.to_tensor(d["cot"]),
                                               y.shape))
    t1 = time.perf_counter()
    if i >= 1:
        times.append(t1 - t0)
print(json.dumps({"median": statistics.median(times),
                  "out0": y.values().numpy()[0].tolist(),
                  "gw": float(w.grad.abs().sum())}))
"""


def cloud(n, seed=0):
    """``n`` distinct voxels on sphere surfaces in a 48 x 256 x 256 grid: [4, n] indices."""
    rng = np.random.default_rng(seed)
    dims = np.array([48, 256, 256])
    keys = set()
    found = []
    while len(found) < n:
        c = rng.uniform([8, 30, 30], dims - [8, 30, 30])
        r = rng.uniform(5, 22)
        m = int(4 * np.pi * r * r * 4)
        v = rng.standard_normal((m, 3))
        p = np.floor(c + r * v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.int64)
        p = p[((p >= 0) & (p < dims)).all(1)]
        k = (p[:, 0] * dims[1] + p[:, 1]) * dims[2] + p[:, 2]
        for kk, pp in zip(k.tolist(), p):
            if kk not in keys:
                keys.add(kk)
                found.append(pp)
    pts = np.array(found[:n])
    order = np.lexsort((pts[:, 2], pts[:, 1], pts[:, 0]))
    pts = pts[order]
    return np.concatenate([np.zeros((1, n), np.int64), pts.T], 0), dims


def ours(data, repeat):
    import torch

    import paddle_compat as paddle
    import paddle_compat.sparse.nn.functional as F
    idx = paddle.to_tensor(data["indices"])
    times = []
    for i in range(repeat + 2):
        x = paddle.sparse.sparse_coo_tensor(idx, paddle.to_tensor(data["values"]),
                                            list(data["shape"]))
        x.stop_gradient = False
        w = paddle.to_tensor(data["weight"], stop_gradient=False)
        t0 = time.perf_counter()
        y = F.subm_conv3d(x, w, padding=1)
        y.backward(paddle.sparse.sparse_coo_tensor(y.indices(), paddle.to_tensor(data["cot"]),
                                                   y.shape))
        t1 = time.perf_counter()
        if i >= 2:
            times.append(t1 - t0)
    return {"median": statistics.median(times), "out0": y.values().numpy()[0].tolist(),
            "gw": float(w.grad.abs().sum()), "threads": torch.get_num_threads()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--voxels", type=int, default=20000)
    ap.add_argument("--cin", type=int, default=16)
    ap.add_argument("--cout", type=int, default=32)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--threads", type=int, default=None,
                    help="CPU threads for both sides (default: torch's own count)")
    ap.add_argument("--paddle-repeat", type=int, default=3,
                    help="timed runs of real Paddle (about 30x slower than ours here)")
    ap.add_argument("--paddle-python", default=os.environ.get(
        "PADDLE_PYTHON", os.path.join(os.path.dirname(ROOT), "paddle_venv", "bin", "python")))
    args = ap.parse_args()
    if args.threads:
        import torch
        torch.set_num_threads(args.threads)
    rng = np.random.default_rng(1)
    indices, dims = cloud(args.voxels)
    data = {"indices": indices, "shape": np.array([1, *dims, args.cin]),
            "values": rng.standard_normal((args.voxels, args.cin)).astype(np.float32),
            "weight": (rng.standard_normal((3, 3, 3, args.cin, args.cout)) * 0.1)
            .astype(np.float32),
            "cot": rng.standard_normal((args.voxels, args.cout)).astype(np.float32)}
    mine = ours(data, args.repeat)
    print(f"SubmConv3D {args.cin}->{args.cout}, kernel 3, {args.voxels} active voxels "
          f"(grid {'x'.join(map(str, dims))}), forward + backward, {mine['threads']} threads")
    print(f"  paddle_compat (torch)  median {mine['median'] * 1e3:8.2f} ms")
    if not os.path.exists(args.paddle_python):
        print("  real Paddle: not installed (--paddle-python); skipped")
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cloud.npz")
        np.savez(path, **data)
        env = dict(os.environ, OMP_NUM_THREADS=str(mine["threads"]),
                   MKL_NUM_THREADS=str(mine["threads"]), PYTHONPATH="")
        p = subprocess.run([args.paddle_python, "-c", PADDLE_SIDE, path,
                            str(args.paddle_repeat)],
                           capture_output=True, text=True, env=env, cwd=tmp)
    if p.returncode:
        print("  real Paddle failed:", p.stderr.strip().splitlines()[-1:])
        return
    theirs = json.loads(p.stdout.strip().splitlines()[-1])
    same = np.allclose(mine["out0"], theirs["out0"], rtol=1e-4, atol=1e-4) and \
        abs(mine["gw"] - theirs["gw"]) <= 1e-4 * abs(theirs["gw"])
    print(f"  real Paddle 3.3.1 CPU  median {theirs['median'] * 1e3:8.2f} ms")
    print(f"  ratio Paddle / ours: {theirs['median'] / mine['median']:.2f}x "
          f"({'faster' if theirs['median'] > mine['median'] else 'slower'}; results "
          f"{'agree' if same else 'DIFFER'})")


if __name__ == "__main__":
    main()
