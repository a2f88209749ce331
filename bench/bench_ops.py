"""Per-call overhead of the most-called Paddle APIs: paddle_compat vs raw torch.

    python bench/bench_ops.py [N]

Walks /work/shared/api_targets.tsv (or bench/api_targets.tsv) in rank order and times the first
N (default 30) APIs that paddle_compat has and that have a torch equivalent below, on small
2x3 float32 tensors, both in this run, interleaved: median per-call microseconds of this
thread's CPU time (see timing.py) and the ratio. APIs of op modules not written yet are
skipped (looked up with getattr).
"""
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paddle_compat as paddle  # noqa: E402
from timing import CPU_CLOCK, paired  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = [os.path.join(HERE, "api_targets.tsv"), "/work/shared/api_targets.tsv"]

t = torch.randn(2, 3)
t2 = torch.randn(2, 3)
tb = t > 0
x = paddle.to_tensor(t)
y = paddle.to_tensor(t2)
xb = paddle.to_tensor(tb)
w = torch.randn(4, 3)
wt = w.t().contiguous()
pw = paddle.to_tensor(wt)

# api -> (paddle_compat statement, torch statement); names bound: x, y, xb, pw, t, t2, tb, wt
CASES = {
    "paddle.Tensor.__getitem__": ("x[0]", "t[0]"),
    "paddle.Tensor.__setitem__": ("x[0] = 1.0", "t[0] = 1.0"),
    "paddle.Tensor.astype": ("x.astype('float64')", "t.to(dtype=torch.float64)"),
    "paddle.Tensor.__add__": ("x + y", "t + t2"),
    "paddle.Tensor.__mul__": ("x * y", "t * t2"),
    "paddle.Tensor.reshape": ("x.reshape([3, 2])", "t.reshape(3, 2)"),
    "paddle.concat": ("paddle.concat([x, y])", "torch.cat([t, t2])"),
    "paddle.matmul": ("paddle.matmul(x, pw)", "torch.matmul(t, wt)"),
    "paddle.mean": ("paddle.mean(x)", "torch.mean(t)"),
    "paddle.Tensor.transpose": ("x.transpose([1, 0])", "t.permute(1, 0)"),
    "paddle.Tensor.cast": ("x.cast('float64')", "t.to(dtype=torch.float64)"),
    "paddle.cast": ("paddle.cast(x, 'float64')", "t.to(dtype=torch.float64)"),
    "paddle.Tensor.__sub__": ("x - y", "t - t2"),
    "paddle.full": ("paddle.full([2, 3], 1.0)", "torch.full((2, 3), 1.0)"),
    "paddle.nn.functional.softmax": ("paddle.nn.functional.softmax(x)",
                                     "torch.softmax(t, -1)"),
    "paddle.reshape": ("paddle.reshape(x, [3, 2])", "torch.reshape(t, (3, 2))"),
    "paddle.Tensor.__truediv__": ("x / y", "t / t2"),
    "paddle.ones": ("paddle.ones([2, 3])", "torch.ones(2, 3)"),
    "paddle.transpose": ("paddle.transpose(x, [1, 0])", "torch.permute(t, (1, 0))"),
    "paddle.Tensor.expand": ("x.expand([4, 2, 3])", "t.expand(4, 2, 3)"),
    "paddle.sum": ("paddle.sum(x)", "torch.sum(t)"),
    "paddle.where": ("paddle.where(xb, x, y)", "torch.where(tb, t, t2)"),
    "paddle.broadcast_to": ("paddle.broadcast_to(x, [4, 2, 3])", "torch.broadcast_to(t, (4, 2, 3))"),
    "paddle.Tensor.sum": ("x.sum()", "t.sum()"),
    "paddle.zeros": ("paddle.zeros([2, 3])", "torch.zeros(2, 3)"),
    "paddle.Tensor.unsqueeze": ("x.unsqueeze(0)", "t.unsqueeze(0)"),
    "paddle.Tensor.squeeze": ("x.squeeze()", "t.squeeze()"),
    "paddle.Tensor.__rmul__": ("2.0 * x", "2.0 * t"),
    "paddle.Tensor.mean": ("x.mean()", "t.mean()"),
    "paddle.add": ("paddle.add(x, y)", "torch.add(t, t2)"),
    "paddle.Tensor.clone": ("x.clone()", "t.clone()"),
    "paddle.arange": ("paddle.arange(6)", "torch.arange(6)"),
    "paddle.Tensor.__eq__": ("x == y", "t == t2"),
    "paddle.full_like": ("paddle.full_like(x, 2.0)", "torch.full_like(t, 2.0)"),
    "paddle.Tensor.detach": ("x.detach()", "t.detach()"),
    "paddle.any": ("paddle.any(xb)", "torch.any(tb)"),
    "paddle.stack": ("paddle.stack([x, y])", "torch.stack([t, t2])"),
    "paddle.Tensor.__matmul__": ("x @ pw", "t @ wt"),
    "paddle.Tensor.__lt__": ("x < y", "t < t2"),
    "paddle.Tensor.__neg__": ("-x", "-t"),
    "paddle.Tensor.__gt__": ("x > y", "t > t2"),
    "paddle.Tensor.scale": ("x.scale(2.0)", "t * 2.0"),
    "paddle.assign": ("paddle.assign(x)", "t.clone()"),
    "paddle.divide": ("paddle.divide(x, y)", "torch.divide(t, t2)"),
    "paddle.empty": ("paddle.empty([2, 3])", "torch.empty(2, 3)"),
    "paddle.Tensor.__rsub__": ("2.0 - x", "2.0 - t"),
    "paddle.ones_like": ("paddle.ones_like(x)", "torch.ones_like(t)"),
    "paddle.max": ("paddle.max(x)", "torch.amax(t)"),
    "paddle.Tensor.__radd__": ("2.0 + x", "2.0 + t"),
    "paddle.split": ("paddle.split(x, 3, axis=1)", "torch.split(t, 1, 1)"),
    "paddle.Tensor.__ne__": ("x != y", "t != t2"),
    "paddle.abs": ("paddle.abs(x)", "torch.abs(t)"),
    "paddle.Tensor.__and__": ("xb & xb", "tb & tb"),
    "paddle.log": ("paddle.log(x)", "torch.log(t)"),
    "paddle.zeros_like": ("paddle.zeros_like(x)", "torch.zeros_like(t)"),
    "paddle.Tensor.flatten": ("x.flatten()", "t.flatten()"),
    "paddle.Tensor.all": ("xb.all()", "tb.all()"),
    "paddle.pow": ("paddle.pow(x, 2.0)", "torch.pow(t, 2.0)"),
    "paddle.squeeze": ("paddle.squeeze(x)", "torch.squeeze(t)"),
    "paddle.Tensor.pow": ("x.pow(2.0)", "t.pow(2.0)"),
    "paddle.nn.functional.sigmoid": ("paddle.nn.functional.sigmoid(x)", "torch.sigmoid(t)"),
    "paddle.unsqueeze": ("paddle.unsqueeze(x, 0)", "torch.unsqueeze(t, 0)"),
    "paddle.isnan": ("paddle.isnan(x)", "torch.isnan(t)"),
    "paddle.square": ("paddle.square(x)", "torch.square(t)"),
    "paddle.tanh": ("paddle.tanh(x)", "torch.tanh(t)"),
    "paddle.Tensor.cumsum": ("x.cumsum(1)", "t.cumsum(1)"),
    "paddle.scale": ("paddle.scale(x, 2.0)", "t * 2.0"),
    "paddle.logical_and": ("paddle.logical_and(xb, xb)", "torch.logical_and(tb, tb)"),
    "paddle.logical_or": ("paddle.logical_or(xb, xb)", "torch.logical_or(tb, tb)"),
    "paddle.Tensor.__ge__": ("x >= y", "t >= t2"),
    "paddle.rsqrt": ("paddle.rsqrt(x)", "torch.rsqrt(t)"),
    "paddle.prod": ("paddle.prod(x)", "torch.prod(t)"),
    "paddle.sqrt": ("paddle.sqrt(x)", "torch.sqrt(t)"),
    "paddle.maximum": ("paddle.maximum(x, y)", "torch.maximum(t, t2)"),
    "paddle.cumsum": ("paddle.cumsum(x, 1)", "torch.cumsum(t, 1)"),
    "paddle.sin": ("paddle.sin(x)", "torch.sin(t)"),
    "paddle.greater_equal": ("paddle.greater_equal(x, y)", "torch.ge(t, t2)"),
    "paddle.cos": ("paddle.cos(x)", "torch.cos(t)"),
    "paddle.less_than": ("paddle.less_than(x, y)", "torch.lt(t, t2)"),
    "paddle.multiply": ("paddle.multiply(x, y)", "torch.mul(t, t2)"),
    "paddle.all": ("paddle.all(xb)", "torch.all(tb)"),
    "paddle.subtract": ("paddle.subtract(x, y)", "torch.sub(t, t2)"),
    "paddle.exp": ("paddle.exp(x)", "torch.exp(t)"),
    "paddle.equal": ("paddle.equal(x, y)", "torch.eq(t, t2)"),
    "paddle.clip": ("paddle.clip(x, -1.0, 1.0)", "torch.clamp(t, -1.0, 1.0)"),
}


def resolve(api):
    """The paddle_compat object for a Paddle API name, or None when it is not there yet."""
    obj = paddle
    for part in api.split(".")[1:]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def as_function(stmt, env):
    """A function running the statement (an expression or an assignment) with ``env``."""
    code = f"def _bench_fn():\n    {stmt}\n"
    exec(code, env)
    return env.pop("_bench_fn")


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    path = next(p for p in TARGETS if os.path.exists(p))
    env = dict(paddle=paddle, torch=torch, x=x, y=y, xb=xb, pw=pw, t=t, t2=t2, tb=tb, wt=wt)
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 2 or not parts[0].isdigit():
                continue
            api = parts[1]
            if api not in CASES or resolve(api) is None:
                continue
            ours, raw = CASES[api]
            try:
                exec(ours, env)
            except Exception as e:  # noqa: BLE001  report and go on
                print(f"{api:36s} skipped: {type(e).__name__}: {e}")
                continue
            o, r, _ = paired(as_function(ours, env), as_function(raw, env), clock=CPU_CLOCK)
            rows.append((parts[0], api, o, r))
            if len(rows) == n:
                break
    print(f"{'rank':>4}  {'api':36s} {'compat us':>10} {'torch us':>9} {'ratio':>6}")
    for rank, api, ours, raw in rows:
        print(f"{rank:>4}  {api:36s} {ours:10.2f} {raw:9.2f} {ours / raw:6.2f}")
    ratios = [o / r for _, _, o, r in rows]
    if ratios:
        print(f"median ratio over {len(rows)} APIs: {statistics.median(ratios):.2f}, "
              f"worst {max(ratios):.2f}")


if __name__ == "__main__":
    main()
