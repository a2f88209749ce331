"""paddle.sparse.matmul (sparse x dense) against torch.sparse.mm on the same tensors.

    python bench/bench_sparse.py [--repeat 15] [--threads 1]

Each row times ``paddle.sparse.matmul(x, y)`` on paddle_compat tensors and
``torch.sparse.mm(a, b)`` on the torch tensors they wrap (the same storage), interleaved, and
prints the medians and the ratio ours / torch (target <= 1.2). Forward only, and forward +
backward (the gradients of the sparse values and of the dense operand; torch's side calls
backward on a leaf sparse tensor that requires grad). Real Paddle 3.3.1 has no CPU kernel for
sparse matmul, so it is not timed here.
"""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from timing import CPU_CLOCK, machine, paired  # noqa: E402

import paddle_compat as paddle  # noqa: E402

CASES = [  # (rows, cols, density, dense columns, layout)
    (256, 256, 0.05, 64, "coo"),
    (1024, 1024, 0.01, 64, "coo"),
    (4096, 4096, 0.002, 128, "coo"),
    (1024, 1024, 0.01, 64, "csr"),
    (4096, 4096, 0.002, 128, "csr"),
]


def make(m, n, density, k, layout, seed=0):
    rs = np.random.RandomState(seed)
    nnz = int(m * n * density)
    flat = np.unique(rs.randint(0, m * n, nnz))
    idx = np.stack([flat // n, flat % n])
    vals = rs.uniform(-1, 1, flat.size).astype("float32")
    x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(idx), paddle.to_tensor(vals), [m, n])
    if layout == "csr":
        x = x.to_sparse_csr()
    y = paddle.to_tensor(rs.uniform(-1, 1, (n, k)).astype("float32"))
    return x, y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (1: this thread's CPU time is the clock, which other "
                         "processes on a shared machine disturb least)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    clock = CPU_CLOCK if args.threads == 1 else None
    kw = {"clock": clock} if clock else {}
    print(f"paddle.sparse.matmul vs torch.sparse.mm ({machine()})")
    print(f"{'case':34} {'ours us':>10} {'torch us':>10} {'ratio':>6}")
    for m, n, dens, k, layout in CASES:
        x, y = make(m, n, dens, k, layout)
        a, b = paddle.to_torch(x), paddle.to_torch(y)
        work = max(1, int(2e5 / max(1, x.nnz() * k // 64)))
        number = max(3, min(200, work))
        name = f"{layout} {m}x{n} d={dens} @ {n}x{k}"
        ours, theirs, r = paired(lambda: paddle.sparse.matmul(x, y),
                                 lambda: torch.sparse.mm(a, b), number, args.repeat, **kw)
        print(f"{name + ' fwd':34} {ours:10.1f} {theirs:10.1f} {r:6.2f}")
        # forward + backward: gradients of the sparse values and of the dense operand
        vals = x.values().detach()
        vals.stop_gradient = False
        yg = y.detach()
        yg.stop_gradient = False
        xs = (paddle.sparse.sparse_coo_tensor(x.indices(), vals, [m, n], stop_gradient=False)
              if layout == "coo" else
              paddle.sparse.sparse_csr_tensor(x.crows(), x.cols(), vals, [m, n],
                                              stop_gradient=False))
        at = a.detach().clone().requires_grad_(True)
        bt = b.detach().clone().requires_grad_(True)

        def ours_fb():
            paddle.sparse.matmul(xs, yg).sum().backward()
            vals.clear_grad(False)
            yg.clear_grad(False)

        def torch_fb():
            torch.sparse.mm(at, bt).sum().backward()
            at.grad = None
            bt.grad = None
        try:
            ours, theirs, r = paired(ours_fb, torch_fb, max(2, number // 3), args.repeat, **kw)
            print(f"{name + ' fwd+bwd':34} {ours:10.1f} {theirs:10.1f} {r:6.2f}")
        except RuntimeError as e:          # torch's sparse autograd lacks the case
            print(f"{name + ' fwd+bwd':34} torch: {str(e).splitlines()[0][:60]}")


if __name__ == "__main__":
    main()
