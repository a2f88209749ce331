"""The C kernels of the random engine (paddle_compat/random/_rngkernels.c) against the numpy
code they stand in for, and both against big draws of real Paddle 3.3.1.

* C path vs numpy path, bit for bit, on the same seeds: every distribution, several sizes
  (odd ones, generation boundaries, 1e6), both float dtypes, and the engine state after each
  call (small and big calls in a row must leave the engine where the other path leaves it).
* tests/goldens/random_big.json (tools/goldens/record_random_big.py, run with real Paddle):
  1e6-value draws and small/big/small sequences, checked through the sha256 of their bits,
  their sum and a few slices, on both paths, then the next raw engine words.

The C comparisons skip where the module is not built (a machine without a C compiler); the
golden tests then still run on the numpy path.
"""

import hashlib
import importlib.util
import json
import math
import os

import numpy as np
import pytest

from paddle_compat.random import distributions as D
from paddle_compat.random import engine
from paddle_compat.random.engine import Generator

GOLDEN = os.path.join(os.path.dirname(__file__), "goldens", "random_big.json")
with open(GOLDEN) as _f:
    BIG = json.load(_f)

HAVE_C = engine._C_MODULE is not None
needs_c = pytest.mark.skipif(not HAVE_C, reason="the C RNG kernels are not built")
PATHS = ["c", "numpy"] if HAVE_C else ["numpy"]


@pytest.fixture
def path(request):
    """Run the test body with the C kernels on ("c") or off ("numpy")."""
    was = engine.use_c_kernels(request.param == "c")
    assert (engine.c_kernels() is not None) == (request.param == "c")
    yield request.param
    engine.use_c_kernels(was)


def both(fn, seed):
    """fn(generator) on the C path and on the numpy path, from the same seed: the two
    results and the two engine states afterwards."""
    was = engine.use_c_kernels(True)
    try:
        g = Generator(seed)
        a = fn(g)
        sa = g.get_state()
        engine.use_c_kernels(False)
        h = Generator(seed)
        b = fn(h)
        sb = h.get_state()
    finally:
        engine.use_c_kernels(was)
    return a, b, sa, sb


def bits(a):
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "c":
        a = a.view(np.float64 if a.dtype == np.complex128 else np.float32)
    return a.view({8: np.uint64, 4: np.uint32, 2: np.uint16}[a.dtype.itemsize]) \
        if a.dtype.kind == "f" else a


def assert_same(a, b, sa, sb):
    if isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y, None, None)
    else:
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(bits(a), bits(b))
    if sa is not None:
        assert sa == sb, (sa, sb)


SIZES = [0, 1, 2, 3, 7, 155, 311, 312, 313, 624, 625, 1001, 99_999, 1_000_001]
FLOATS = ["float32", "float64"]


# ---------------------------------------------------------------------------
# C path == numpy path
# ---------------------------------------------------------------------------
@needs_c
@pytest.mark.parametrize("n", SIZES)
def test_raw_words(n):
    assert_same(*both(lambda g: [g.random_raw(5), g.random_raw(n), g.random_raw(3)], 5))


@needs_c
@pytest.mark.parametrize("n", [0, 1, 7, 311, 312, 313, 5000])
@pytest.mark.parametrize("pos", [0, 1, 155, 311, 312])
def test_peek_advance(n, pos):
    def fn(g):
        if pos:
            g.advance(pos)
        a = g.peek_raw(n)
        g.advance(n // 2)
        return [a.copy(), g.peek_raw(3).copy(), g.random_raw(2)]
    assert_same(*both(fn, 77))


@needs_c
@pytest.mark.parametrize("dt", FLOATS + ["float16", "bfloat16"])
@pytest.mark.parametrize("n", SIZES)
def test_randn(dt, n):
    assert_same(*both(lambda g: D.randn(g, [n], dt), 2023))


@needs_c
@pytest.mark.parametrize("dt", FLOATS)
def test_small_big_small(dt):
    """Drawing 7, then 1e5, then 3 values leaves the same engine on both paths, whatever
    the position the draws start from (the spare of an odd draw is dropped)."""
    for skip in (0, 1, 300, 311, 312):
        def fn(g):
            g.advance(skip)
            return [D.randn(g, [7], dt), D.randn(g, [100_000], dt), D.randn(g, [3], dt),
                    D.rand(g, [5], dt), D.randn(g, [1], dt)]
        assert_same(*both(fn, 31 + skip))


@needs_c
@pytest.mark.parametrize("dt", FLOATS + ["float16", "complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 4, 313, 99_999])
def test_normal_mean_std(dt, n):
    def fn(g):
        return [D.normal(g, [n], dt, 1.5, 0.3), D.normal(g, [n], dt, -3.0, 2.0),
                D.normal(g, [2], dt, 0.1, 1e-3)]
    assert_same(*both(fn, 9))


@needs_c
@pytest.mark.parametrize("dt", FLOATS + ["float16", "bfloat16"])
@pytest.mark.parametrize("n", SIZES)
def test_uniform_and_rand(dt, n):
    def fn(g):
        return [D.rand(g, [n], dt), D.uniform(g, [n], dt, -2.5, 7.0), D.uniform(g, [3], dt)]
    assert_same(*both(fn, 4))


@needs_c
def test_uniform_private_seed():
    assert_same(*both(lambda g: D.uniform(g, [100_001], "float32", -1.0, 1.0, seed=123), 1))


@needs_c
@pytest.mark.parametrize("lo,hi", [(0, 1), (0, 2), (0, 1000), (-5, -2), (0, 3),
                                   (-(2**31), 2**31 - 1), (1, 2**31 - 1), (-7, 2**30 + 3)])
@pytest.mark.parametrize("n", [1, 7, 313, 100_003])
def test_randint(lo, hi, n):
    def fn(g):
        return [D.randint(g, lo, hi, [n], "int64"), D.randint(g, lo, hi, [n], "int32"),
                D.randint(g, lo, hi, [2], "int64")]
    assert_same(*both(fn, 3))


@needs_c
@pytest.mark.parametrize("r", [1, 2, 3, 2**32 - 1, 2**32 + 1, 2**63 + 12345, 2**64 - 1,
                               (2**64 // 3) * 2])
def test_bounded_wide_ranges(r):
    """Ranges beyond C ints (as the shuffle uses): many rejections for the largest ones."""
    assert_same(*both(lambda g: [D._bounded_same_range(g, 20_001, r), g.random_raw(2)], 8))


@needs_c
@pytest.mark.parametrize("n", [0, 1, 2, 3, 1000, 100_001])
def test_randperm(n):
    assert_same(*both(lambda g: [D.randperm(g, n), D.randperm(g, 5, "int32")], 6))


@needs_c
@pytest.mark.parametrize("dt", FLOATS)
def test_bernoulli_multinomial_dropout(dt):
    p = np.linspace(0, 1, 100_003).astype(dt)
    w = np.abs(np.sin(np.arange(3 * 57, dtype=dt))).reshape(3, 57)

    def fn(g):
        return [D.bernoulli(g, p), D.multinomial(g, w, 20, False), D.multinomial(g, w, 999, True),
                D.dropout_mask(g, (313, 7), 0.3).view(np.uint8), D.bernoulli(g, p[:3])]
    assert_same(*both(fn, 12))


@pytest.mark.parametrize("p", [0.0, 1e-30, 0.1, 0.3, 0.5, 0.9, 1 - 2 ** -24, 1.0])
def test_keep_flags_are_dropout_mask(p):
    """Dropout's one-pass keep flags (word >= threshold; what nn.functional.dropout draws) are
    dropout_mask's float32 test on both paths, and leave the engine where it leaves it."""
    for c in PATHS:
        was = engine.use_c_kernels(c == "c")
        try:
            g, h = Generator(21), Generator(21)
            ref = [D.dropout_mask(g, (313, 7), p).ravel(), D.dropout_mask(g, (5,), p)]
            got = [D.keep_flags(h, 313 * 7, p), D.keep_flags(h, 5, p, np.ones(5, np.uint8))]
            assert_same([ref[0], ref[1].view(np.uint8)], got, g.get_state(), h.get_state())
        finally:
            engine.use_c_kernels(was)
    t = D.keep_threshold(p)
    if 0 < t < 1 << 64:     # the threshold is the first kept word
        below, at = D.canonical(np.array([t - 1, t], dtype=np.uint64), np.float32)
        assert below < np.float32(p) <= at


@needs_c
def test_poisson():
    rates = np.linspace(0, 40, 5001)
    assert_same(*both(lambda g: [D.poisson(g, rates), D.poisson(g, rates[:3].astype(np.float32))],
                      13))


@needs_c
@pytest.mark.parametrize("dt", FLOATS)
def test_canonical(dt):
    rng = np.random.default_rng(1)
    w = rng.integers(0, 2**64, size=100_003, dtype=np.uint64)
    # ties, words that round up to 1, zero, the smallest words
    q = rng.integers(2**23, 2**24, size=1000, dtype=np.uint64) << np.uint64(40)
    w = np.concatenate([w, q | np.uint64(1 << 39), q | np.uint64((1 << 39) + 1),
                        np.array([0, 1, 2**64 - 1, 2**64 - 2**39, 2**63, 2**63 - 1, 2**53 + 1,
                                  2**40 - 1], dtype=np.uint64)])
    ctype = np.dtype(dt).type
    c = D.canonical(w, ctype)
    was = engine.use_c_kernels(False)
    try:
        ref = D.canonical(w, ctype)
    finally:
        engine.use_c_kernels(was)
    assert np.array_equal(bits(c), bits(ref))
    assert np.all(c < 1)


@pytest.mark.parametrize("path", PATHS, indirect=True)
def test_a_moved_engine_has_new_words(path):
    """A moved engine gets a new words array on both paths (side_generator in
    nn/functional/extra.py tells "moved" by the array's identity and the position), even
    when the position comes back to where it was."""
    g = Generator(1)
    g.random_raw(300)
    before = g._mt
    g.random_raw(312)
    assert g._pos == 300 and g._mt is not before
    before = g._mt
    D.randint(g, 0, 2, [312])  # (a range of 2 never rejects: 312 words)
    assert g._pos == 300 and g._mt is not before


def _fresh_engine_module():
    """A private copy of random/engine.py, run now (under the current environment)."""
    spec = importlib.util.spec_from_file_location("paddle_compat.random._engine_copy",
                                                  engine.__file__)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_pure_python_env_turns_the_kernels_off(monkeypatch):
    monkeypatch.setenv("PADDLE_COMPAT_PURE_PYTHON", "1")
    mod = _fresh_engine_module()
    assert mod.c_kernels() is None and mod._C_MODULE is None
    monkeypatch.delenv("PADDLE_COMPAT_PURE_PYTHON")
    built = importlib.util.find_spec("paddle_compat.random._rngkernels") is not None
    mod = _fresh_engine_module()
    assert (mod.c_kernels() is not None) == built


# ---------------------------------------------------------------------------
# big draws against real Paddle
# ---------------------------------------------------------------------------
def make_input(spec):
    kind, n = spec["kind"], spec["n"]
    if kind == "probs":
        return np.linspace(0.0, 1.0, n, dtype=spec["dtype"])
    if kind == "rates":
        return np.linspace(0.0, 40.0, n, dtype=spec["dtype"])
    raise ValueError(kind)


def run_call(g, call):
    op, dt = call["op"], call.get("dtype")
    if op == "randn":
        r = D.randn(g, call["shape"], dt)
        return D.bfloat16_bits(r) if dt == "bfloat16" else r
    if op == "rand":
        return D.rand(g, call["shape"], dt)
    if op == "uniform":
        return D.uniform(g, call["shape"], dt, call["min"], call["max"])
    if op == "gaussian":
        return D.normal(g, call["shape"], dt, call["mean"], call["std"])
    if op == "randint":
        return D.randint(g, call["low"], call["high"], call["shape"], dt)
    if op == "randperm":
        return D.randperm(g, call["n"], dt)
    if op == "bernoulli":
        return D.bernoulli(g, make_input(call["x"]))
    if op == "poisson":
        return D.poisson(g, make_input(call["x"]))
    raise ValueError(op)


def check(ours, rec, where):
    a = np.ascontiguousarray(ours)
    assert str(a.dtype) == rec["dtype"] and list(a.shape) == rec["shape"], where
    flat = bits(a).reshape(-1)
    conv = (lambda v: format(int(v), "x")) if a.dtype.kind == "f" else int
    mid = flat.size // 2
    edge = len(rec["head"])
    assert [conv(v) for v in flat[:edge]] == rec["head"], where
    assert [conv(v) for v in flat[mid : mid + edge]] == rec["mid"], where
    assert [conv(v) for v in flat[flat.size - len(rec["tail"]) :]] == rec["tail"], where
    # (the sum's last bits depend on numpy's summation order: the hash checks the bits)
    assert math.isclose(float(np.sum(a, dtype=np.float64)), rec["sum"], rel_tol=1e-12,
                        abs_tol=1e-9), where
    assert hashlib.sha256(flat.tobytes()).hexdigest() == rec["sha256"], where


def _label(s):
    return f"seed{s['seed']}-" + "-".join(f"{c['op']}{c.get('dtype', '')}" for c in s["calls"])


@pytest.mark.parametrize("path", PATHS, indirect=True)
@pytest.mark.parametrize("stream", BIG["streams"], ids=_label)
def test_big_draws_match_paddle(stream, path):
    g = Generator(stream["seed"])
    for i, call in enumerate(stream["calls"]):
        check(run_call(g, call), call["result"], f"{path} seed {stream['seed']} call {i}")
    assert [str(g.random64()) for _ in stream["next_raw"]] == stream["next_raw"]
