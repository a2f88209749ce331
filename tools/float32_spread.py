"""How far float32 results may move on another CPU: a pytest plugin that measures it.

A float32 golden recorded on one machine is met on another with other BLAS / oneDNN kernels
(AVX-512 vs AVX2 blocking), other vector widths in ATen's reductions and another thread count:
each op then rounds differently, and a deep composition (attention, an encoder, a training
loop) piles those differences up. This plugin replays the tests with every float32 ATen op
computed in float64 and rounded back to float32 (``SPREAD_MODE=f64``): each op's result is then
the correctly rounded one, which differs from this machine's by this machine's own float32
accumulation error, the same size as the error of any other CPU's kernels. Run it with
``SPREAD_MODE=native`` too, and under ``ATEN_CPU_CAPABILITY=default|avx2``, ``MKL_ENABLE_INSTRUCTIONS``,
``ONEDNN_MAX_CPU_ISA`` or ``SPREAD_THREADS=1``, to see the spread those give.

Every ``np.testing.assert_allclose`` / ``torch.testing.assert_close`` a test makes is recorded
(the tests keep passing or failing as they would): per test, the largest ``ratio`` =
max |got - want| / (atol + rtol |want|) over its comparisons (above 1 fails), with the largest
absolute and relative difference and the tolerance used. ``SPREAD_OUT`` names the JSON file
written at the end.

    PYTHONPATH=tools SPREAD_MODE=f64 SPREAD_OUT=/tmp/f64.json \\
        python -m pytest -q -p no:cacheprovider -p float32_spread tests/test_nn_layers.py
    python tools/float32_spread.py /tmp/native.json /tmp/f64.json    # the table, worst first

DEVELOPERS.md ("Float32 tolerances") says how the numbers set the tolerance tiers in
tests/golden_utils.py.
"""
import json
import os
import sys

import numpy as np
import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten, tree_map

_UP = {torch.float32: torch.float64, torch.complex64: torch.complex128}
_DOWN = {torch.float64: torch.float32, torch.complex128: torch.complex64}
# ops that draw random numbers or update running statistics in place run as they are
_NATIVE_WORDS = ("rand", "dropout", "bernoulli", "normal", "uniform", "multinomial",
                 "exponential", "poisson", "batch_norm", "geometric", "cauchy")


def _native_only(func, args, kwargs):
    schema = func._schema
    if schema.is_mutable or any(r.alias_info is not None for r in schema.returns):
        return True                         # in-place, out= and view ops keep their aliasing
    name = schema.name
    if any(w in name for w in _NATIVE_WORDS):
        return True
    flat, _ = tree_flatten((args, kwargs))
    if any(isinstance(a, torch.dtype) for a in flat):
        return True                         # an explicit dtype says what precision is wanted
    tensors = [a for a in flat if isinstance(a, torch.Tensor)]
    if not tensors or any(t.device.type != "cpu" for t in tensors):
        return True
    if any(t.dtype in _DOWN for t in tensors):
        return True                         # already float64: nothing to round back
    return not any(t.dtype in _UP for t in tensors)


class Float64Rounded(TorchDispatchMode):
    """Every functional float32/complex64 CPU op computed in double and rounded back."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if _native_only(func, args, kwargs):
            return func(*args, **kwargs)
        up = tree_map(lambda a: a.to(_UP[a.dtype]) if isinstance(a, torch.Tensor)
                      and a.dtype in _UP else a, (args, kwargs))
        out = func(*up[0], **up[1])
        return tree_map(lambda a: a.to(_DOWN[a.dtype]) if isinstance(a, torch.Tensor)
                        and a.dtype in _DOWN else a, out)


# ------------------------------------------------------------------ recording comparisons
_RECORD = {}
_CURRENT = [None]
_ACTUAL = {}        # nodeid -> the actual values of each comparison (SPREAD_SAVE)
_REF = {}           # the same from a reference run (SPREAD_REF): "spread" is the distance


def _note(actual, desired, rtol, atol):
    nodeid = _CURRENT[0]
    if nodeid is None:
        return
    try:
        a = np.asarray(actual, dtype=np.complex128 if np.iscomplexobj(actual) else np.float64)
        d = np.asarray(desired, dtype=a.dtype)
        a, d = np.broadcast_arrays(a, d)
    except Exception:       # noqa: BLE001 - not numeric: nothing to measure
        return
    ok = np.isfinite(a) & np.isfinite(d)
    if not ok.any():
        return
    diff = np.abs(a[ok] - d[ok])
    bound = atol + rtol * np.abs(d[ok])
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(bound > 0, diff / np.where(bound > 0, bound, 1),
                         np.where(diff > 0, np.inf, 0.0))
        rel = np.where(np.abs(d[ok]) > 0, diff / np.abs(d[ok]), 0.0)
    i = int(np.argmax(ratio))
    rec = _RECORD.setdefault(nodeid, {"ratio": 0.0, "max_abs": 0.0, "max_rel": 0.0,
                                      "tol": None, "n": 0, "spread": 0.0})
    k = rec["n"]
    rec["n"] += 1
    flat = a.real.reshape(-1)
    _ACTUAL.setdefault(nodeid, []).append([float(v) if np.isfinite(v) else None for v in flat])
    ref = _REF.get(nodeid)
    if ref is not None and k < len(ref) and len(ref[k]) == flat.size:
        r = np.array([np.nan if v is None else v for v in ref[k]])
        both = np.isfinite(r) & np.isfinite(flat)
        b = (atol + rtol * np.abs(d.real.reshape(-1)))[both]
        moved = np.abs(flat[both] - r[both])
        with np.errstate(divide="ignore", invalid="ignore"):
            sp = np.where(b > 0, moved / np.where(b > 0, b, 1), np.where(moved > 0, np.inf, 0))
        if sp.size:
            rec["spread"] = max(rec["spread"], float(sp.max()))
            rec["moved_rel"] = max(rec.get("moved_rel", 0.0), float(
                (moved / np.maximum(np.abs(r[both]), 1e-30)).max()))
    rec["max_abs"] = max(rec["max_abs"], float(diff.max()))
    rec["max_rel"] = max(rec["max_rel"], float(rel.max()))
    if float(ratio[i]) >= rec["ratio"]:
        rec["ratio"] = float(ratio[i])
        rec["tol"] = [float(rtol), float(atol)]
        rec["at"] = [float(a[ok][i].real), float(d[ok][i].real)]


def _wrap_numpy(orig):
    def assert_allclose(actual, desired, rtol=1e-7, atol=0, *args, **kwargs):
        _note(actual, desired, rtol, atol)
        return orig(actual, desired, rtol, atol, *args, **kwargs)
    return assert_allclose


def _wrap_torch(orig):
    def assert_close(actual, expected, *args, rtol=None, atol=None, **kwargs):
        if isinstance(actual, torch.Tensor) and isinstance(expected, torch.Tensor):
            r, a = rtol, atol
            if r is None:
                r, a = {torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5),
                        torch.float64: (1e-7, 1e-7)}.get(actual.dtype, (1.3e-6, 1e-5))
            _note(actual.detach().cpu().resolve_conj().numpy() if actual.dtype != torch.bfloat16
                  else actual.detach().float().cpu().numpy(),
                  expected.detach().cpu().resolve_conj().numpy() if expected.dtype !=
                  torch.bfloat16 else expected.detach().float().cpu().numpy(), r, a)
        return orig(actual, expected, *args, rtol=rtol, atol=atol, **kwargs)
    return assert_close


def pytest_configure(config):
    np.testing.assert_allclose = _wrap_numpy(np.testing.assert_allclose)
    torch.testing.assert_close = _wrap_torch(torch.testing.assert_close)
    if os.environ.get("SPREAD_REF"):
        with open(os.environ["SPREAD_REF"]) as f:
            _REF.update(json.load(f))
    if os.environ.get("SPREAD_THREADS"):
        torch.set_num_threads(int(os.environ["SPREAD_THREADS"]))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    _CURRENT[0] = item.nodeid
    if os.environ.get("SPREAD_MODE", "native") == "f64":
        with Float64Rounded():
            yield
    else:
        yield
    _CURRENT[0] = None


def pytest_sessionfinish(session, exitstatus):
    out = os.environ.get("SPREAD_OUT")
    if out:
        with open(out, "w") as f:
            json.dump(_RECORD, f, indent=0, sort_keys=True)
    if os.environ.get("SPREAD_SAVE"):
        with open(os.environ["SPREAD_SAVE"], "w") as f:
            json.dump(_ACTUAL, f)


def _table(paths, top=60):
    """The tests worst first: per run (columns in the order given) the ratio to the golden and,
    where the run had a reference, the spread (how much of the tolerance the run moved)."""
    runs = []
    for p in paths:
        with open(p) as f:
            runs.append(json.load(f))

    def worst(k):
        return max(max(r.get(k, {}).get("ratio", 0), r.get(k, {}).get("spread", 0))
                   for r in runs)
    ids = sorted(set().union(*runs), key=lambda k: -worst(k))
    print("  ".join(f"{os.path.basename(p)[:17]:>17}" for p in paths),
          " (ratio/spread)  tol  test")
    for k in ids[:top]:
        cells = [r.get(k) for r in runs]
        last = next((c for c in reversed(cells) if c), {})
        print("  ".join(f"{c['ratio']:8.3g}/{c.get('spread', 0):<8.3g}" if c else f"{'-':>17}"
                        for c in cells), last.get("tol"), k)


if __name__ == "__main__":
    _table(sys.argv[1:])
