"""Compare two runs of the same configs (real Paddle vs paddle_compat) and summarise.

    python -m api_corpus.compare real.jsonl compat.jsonl [--report report.md] [--json out.json]

A call agrees when both sides give the same structure, dtypes and shapes and values within
the dtype's tolerance (NaN equal to NaN), or both raise exceptions of the same built-in
type. An API agrees when all its calls do. paddle.vision.* is counted apart and left out of
the headline metric. Configs where real Paddle itself crashed or timed out are skipped.
"""
import argparse
import json
import re
from collections import defaultdict

import numpy as np

from .runner import load_npy

TOL = {"float16": (2e-3, 2e-3), "bfloat16": (2e-2, 2e-2), "float32": (1e-4, 1e-5),
       "complex64": (1e-4, 1e-5), "float64": (1e-7, 1e-10), "complex128": (1e-7, 1e-10)}
# APIs whose values are unspecified (uninitialised memory): compare dtype and shape only
VALUES_FREE = {"paddle.empty", "paddle.empty_like",
               # Paddle's CPU kernel seeds its own engine from std::random_device: its picks
               # never repeat (the counts do)
               "paddle.geometric.sample_neighbors"}
# Calls where real Paddle is plainly wrong (paddle_compat follows the docs): a config
# substring (or an exception message of Paddle's) -> why. Counted apart.
PADDLE_WRONG = {
    "<built-in function roll> returned a result with an exception set":
        "Paddle 3.3.1's roll fails on a shifts Tensor of shape [1] (int() of a 1-d array), so "
        "roll(x, Tensor([k])) and fftshift/ifftshift of one axis raise SystemError",
    "returned a result with an exception set":
        "Paddle 3.3.1's C function fails converting a [1]-shaped Tensor argument to int "
        "(SystemError), e.g. min(x, axis=Tensor([1])) or squeeze(x, axis=Tensor([1]))",
    'paddle.Tensor.set_(Tensor([3, 8],"float16"), Tensor([6, 3],"float16"), list[3,8,], '
    'list[2,2,], 0, )':
        "the view (shape [3, 8], strides [2, 2]) ends past the 18 elements of the source: "
        "Paddle reads beyond its memory, paddle_compat raises",
}


def paddle_wrong(key, want):
    r = want.get("result")
    msg = r.get("msg", "") if isinstance(r, dict) and "error" in r else ""
    return next((why for k, why in PADDLE_WRONG.items() if k in key or k in msg), None)
# APIs whose results are not comparable at all: the attribute list of a Tensor
NOT_COMPARED = {"paddle.Tensor.__dir__"}


class Diff(Exception):
    def __init__(self, kind, where, detail):
        super().__init__(f"{kind} at {where}: {detail}")
        self.kind = kind


def _values(want, got, where, values=True):
    for k in ("dtype", "ndarray"):
        if want.get(k) != got.get(k):
            raise Diff("dtype", where, f"got {got.get(k)}, want {want.get(k)}")
    if want.get("shape") != got.get("shape"):
        raise Diff("shape", where, f"got {got.get('shape')}, want {want.get('shape')}")
    if not values:
        return
    w, g = load_npy(want["npy"]), load_npy(got["npy"])
    if w.shape != g.shape:
        raise Diff("shape", where, f"arrays {g.shape} vs {w.shape}")
    dt = want.get("dtype") or want.get("ndarray")
    if dt in TOL and w.size:
        rtol, atol = TOL[dt]
        wf, gf = w.astype(np.complex128 if w.dtype.kind == "c" else np.float64), \
            g.astype(np.complex128 if g.dtype.kind == "c" else np.float64)
        ok = np.isclose(gf, wf, rtol=rtol, atol=atol, equal_nan=True)
        if not ok.all():
            i = np.flatnonzero(~ok.reshape(-1))
            raise Diff("value", where, f"{len(i)}/{w.size} differ, first at {i[0]}: got "
                       f"{gf.reshape(-1)[i[0]]}, want {wf.reshape(-1)[i[0]]}")
    elif w.size and not np.array_equal(w, g):
        i = np.flatnonzero((w != g).reshape(-1))
        raise Diff("value", where, f"{len(i)}/{w.size} differ, first at {i[0]}: got "
                   f"{g.reshape(-1)[i[0]]}, want {w.reshape(-1)[i[0]]}")


def same(want, got, where="out", values=True):
    """Raise Diff where ``got`` differs from ``want`` (encoded results)."""
    if isinstance(want, dict) and "error" in want:
        if not (isinstance(got, dict) and "error" in got):
            raise Diff("no-error", where, f"Paddle raised {want['error']} ({want['msg'][:120]})")
        if got["error"] != want["error"]:
            raise Diff("error-type", where, f"got {got['error']} ({got['msg'][:100]}), want "
                       f"{want['error']} ({want['msg'][:100]})")
        return
    if isinstance(got, dict) and "error" in got:
        kind = "missing" if got.get("type") == "missing" else (
            "unsupported" if got["error"] == "NotImplementedError" else "error")
        raise Diff(kind, where, f"{got['error']}: {got['msg'][:200]}")
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            raise Diff("structure", where, f"got {str(got)[:80]}, want list of {len(want)}")
        for i, (w, g) in enumerate(zip(want, got)):
            same(w, g, f"{where}[{i}]", values)
        return
    if isinstance(want, dict) and "npy" in want:
        if not (isinstance(got, dict) and "npy" in got):
            raise Diff("structure", where, f"got {str(got)[:80]}, want a tensor")
        _values(want, got, where, values)
        return
    if isinstance(want, dict) and "dict" in want:
        if not (isinstance(got, dict) and "dict" in got) or set(got["dict"]) != set(want["dict"]):
            raise Diff("structure", where, "dict keys differ")
        for k in want["dict"]:
            same(want["dict"][k], got["dict"][k], f"{where}.{k}", values)
        return
    if isinstance(want, dict) and "py" in want and isinstance(want["py"], float):
        if not (isinstance(got, dict) and isinstance(got.get("py"), float)):
            raise Diff("structure", where, f"got {got}, want {want}")
        if not np.isclose(got["py"], want["py"], rtol=1e-6, atol=1e-9, equal_nan=True):
            raise Diff("value", where, f"got {got}, want {want}")
        return
    if want != got:
        raise Diff("value" if type(want) is type(got) else "structure", where,
                   f"got {str(got)[:100]}, want {str(want)[:100]}")


def compare_one(want, got):
    """None when the two outcomes of one config agree, else the Diff."""
    if "setup_error" in got or "crash" in got:
        return Diff("crash", "call", got.get("setup_error") or got.get("crash"))
    values = want["api"] not in VALUES_FREE
    try:
        same(want["result"], got["result"], "out", values)
        if "inplace" in want:
            same(want["inplace"], got.get("inplace"), "inplace", values)
    except Diff as d:
        return d
    return None


_NO_CPU = re.compile(r"is not registered|only supports? GPU|not support \w+ for cpu|"
                     r"libpaddle\.eager\.ops\.legacy' has no attribute|arch only support",
                     re.I)


def no_cpu_kernel(want):
    """True when real Paddle failed only because its CPU build lacks the kernel (float16 and
    bfloat16 kernels of many ops, the fused GPU ops): the call says nothing about Paddle's
    semantics, so it is left out of the agreement figures (paddle_compat computes these)."""
    r = want.get("result")
    return isinstance(r, dict) and "error" in r and bool(_NO_CPU.search(r.get("msg", "")))


def load(path):
    out = {}
    with open(path) as fh:
        for line in fh:
            r = json.loads(line)
            out[r["key"]] = r
    return out


def summarise(real, compat):
    per_api = defaultdict(list)
    for key, want in real.items():
        if "crash" in want or "setup_error" in want or key not in compat or no_cpu_kernel(want) \
                or want["api"] in NOT_COMPARED:
            continue
        d = compare_one(want, compat[key])
        per_api[want["api"]].append((key, d))
    return per_api


def group(api):
    """'vision' and 'sparse' are counted apart: vision is its own issue; PaddleAPITest itself
    skips paddle.sparse.* (the configs pass dense tensors, which Paddle's sparse kernels
    reject), and paddle_compat has no sparse namespace yet."""
    if api.startswith("paddle.vision."):
        return "vision"
    if api.startswith("paddle.sparse."):
        return "sparse"
    return "main"


def stats(per_api, which=None, wrong=None):
    apis = {a: c for a, c in per_api.items() if which is None or group(a) == which}
    if wrong:                     # leave out the calls where Paddle is wrong
        apis = {a: [(k, d) for k, d in c if k not in wrong] for a, c in apis.items()}
        apis = {a: c for a, c in apis.items() if c}
    ok_api = sum(all(d is None for _, d in c) for c in apis.values())
    calls = [d for c in apis.values() for _, d in c]
    ok_calls = sum(d is None for d in calls)
    return len(apis), ok_api, len(calls), ok_calls


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("real")
    ap.add_argument("compat")
    ap.add_argument("--json")
    ap.add_argument("--verbose", "-v", action="store_true")
    a = ap.parse_args(argv)
    real, compat = load(a.real), load(a.compat)
    per_api = summarise(real, compat)
    skipped = [k for k, w in real.items() if "crash" in w or "setup_error" in w]
    nocpu = [k for k, w in real.items() if no_cpu_kernel(w)]
    print(f"{len(real)} configs recorded, {len(skipped)} crashed or timed out in Paddle, "
          f"{len(nocpu)} without a Paddle CPU kernel: left out")
    for label, sel in (("all", None), ("non-vision, non-sparse", "main"), ("vision", "vision"),
                       ("sparse", "sparse")):
        n, ok, nc, okc = stats(per_api, sel)
        if n:
            print(f"{label:22s} APIs {ok}/{n} agree ({100 * ok / n:.1f}%), calls {okc}/{nc} "
                  f"({100 * okc / nc:.1f}%)")
    wrong = {k: paddle_wrong(k, w) for k, w in real.items() if paddle_wrong(k, w)}
    n, ok, nc, okc = stats(per_api, "main", wrong)
    print(f"{'  without Paddle bugs':22s} APIs {ok}/{n} agree ({100 * ok / n:.1f}%), calls "
          f"{okc}/{nc} ({100 * okc / nc:.1f}%)  [{len(wrong)} calls where Paddle is wrong]")
    kinds = defaultdict(int)
    rows = []
    for api in sorted(per_api):
        if group(api) != "main":
            continue
        for key, d in per_api[api]:
            if d is not None:
                kinds[d.kind] += 1
                rows.append({"api": api, "key": key, "kind": d.kind, "detail": str(d)})
    print("differences by kind (non-vision, non-sparse):", dict(sorted(kinds.items(), key=lambda kv: -kv[1])))
    if a.verbose:
        for r in rows:
            print(f"- {r['key'][:160]}\n    {r['detail'][:300]}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
