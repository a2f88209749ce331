"""The numpy random engine against real Paddle 3.3.1 (tests/goldens/random.json).

Goldens come from tools/goldens/record_random.py (run with the Paddle venv);
nothing here imports paddle.  Every comparison is bit-exact: floats are
compared by their bit patterns, whole arrays through the sha256 of their
bytes plus their first/last values.  Paddle's float ``log`` is glibc's, so
the goldens are tied to glibc's log/logf (recorded with glibc 2.36, whose
logf/log have been unchanged since 2.28).
"""

import copy
import hashlib
import json
import os
import pickle

import numpy as np
import pytest

from paddle_compat.random import distributions as D
from paddle_compat.random.engine import Generator, GeneratorState

GOLDEN = os.path.join(os.path.dirname(__file__), "goldens", "random.json")

with open(GOLDEN) as _f:
    G = json.load(_f)

_BITS = {
    "float64": (np.uint64, np.float64),
    "float32": (np.uint32, np.float32),
    "float16": (np.uint16, np.float16),
    "bfloat16": (np.uint16, None),
    "complex64": (np.uint32, np.complex64),
    "complex128": (np.uint64, np.complex128),
}


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def decode_input(rec):
    ut, ft = _BITS[rec["dtype"]]
    bits = np.array([int(h, 16) for h in rec["bits"]], dtype=ut)
    return bits.view(ft).reshape(rec["shape"])


def as_bits(arr, kind):
    """Our result in the golden's representation (bits for floats)."""
    a = np.ascontiguousarray(arr)
    if kind == "bfloat16":
        return D.bfloat16_bits(a)
    if kind in _BITS:
        ut, ft = _BITS[kind]
        assert a.dtype == ft, (a.dtype, kind)
        return a.view(ut)
    assert a.dtype == np.dtype(kind), (a.dtype, kind)
    return a


def check_result(ours, rec, where):
    kind = rec["dtype"]
    assert list(np.shape(ours)) == rec["shape"], where
    bits = as_bits(ours, kind)
    flat = bits.reshape(-1)
    if kind in _BITS:
        conv = [format(int(v), "x") for v in flat]
    else:
        conv = [int(v) for v in flat]
    if "values" in rec:
        assert conv == rec["values"], where
    else:
        assert conv[: len(rec["head"])] == rec["head"], where
        assert conv[-len(rec["tail"]) :] == rec["tail"], where
    assert hashlib.sha256(np.ascontiguousarray(bits).tobytes()).hexdigest() == rec["sha256"], where


def run_call(gen, call):
    op = call["op"]
    dt = call.get("dtype")
    if op in ("randn", "standard_normal"):
        return D.randn(gen, call["shape"], dt)
    if op == "rand":
        return D.rand(gen, call["shape"], dt)
    if op == "uniform":
        return D.uniform(gen, call["shape"], dt, call["min"], call["max"], seed=call.get("seed", 0))
    if op in ("normal", "gaussian"):
        return D.normal(gen, call["shape"], dt, call["mean"], call["std"])
    if op == "normal_tensor":
        mean = call["mean"]
        std = call["std"]
        mean = decode_input(mean) if isinstance(mean, dict) else mean
        std = decode_input(std) if isinstance(std, dict) else std
        return D.normal_tensor(gen, mean, std)
    if op == "dropout":
        return dropout(gen, decode_input(call["x"]), call["p"], call["mode"], call.get("axis"))
    if op == "randint":
        return D.randint(gen, call["low"], call["high"], call["shape"], dt)
    if op == "randperm":
        return D.randperm(gen, call["n"], dt)
    if op == "bernoulli":
        return D.bernoulli(gen, decode_input(call["x"]))
    if op == "multinomial":
        return D.multinomial(gen, decode_input(call["x"]), call["num_samples"], call["replacement"])
    raise ValueError(op)


def dropout(gen, x, p, mode, axis=None):
    """paddle.nn.functional.dropout (training) on top of D.dropout_mask."""
    if p == 0:
        return x.copy()  # Paddle returns the input without running an op
    t = x.dtype.type
    if axis is None:  # the dropout kernel
        keep = D.dropout_mask(gen, x.shape, p)
        if mode == "upscale_in_train" and p != 1:
            kept = x / t(np.float32(1) - np.float32(p))
        else:
            kept = x
        return np.where(keep, kept, t(0)).astype(x.dtype)
    # Python-level path: paddle.scale (x * s + 0), then times the 0/1 mask
    # (so a dropped negative value comes out as -0.0)
    if p == 1:
        return x * t(0) + t(0)
    scaled = x * t(1 / (1 - p)) + t(0) if mode == "upscale_in_train" else x
    mask_shape = tuple(d if i in axis else 1 for i, d in enumerate(x.shape))
    keep = D.dropout_mask(gen, mask_shape, p).astype(x.dtype)
    return scaled * keep


def replay(gen, calls, label):
    for i, call in enumerate(calls):
        where = f"{label} call {i}: {call['op']} {call.get('dtype')} {call.get('shape', call.get('n'))}"
        if "error" in call:
            with pytest.raises(Exception):
                run_call(gen, call)
            continue
        check_result(run_call(gen, call), call["result"], where)


def crafted_generator(case):
    words = np.array([int(w) for w in case["words"]], dtype=np.uint64)
    return Generator(0).set_state(GeneratorState(words, case["pos"], int(case["seed"])))


# ---------------------------------------------------------------------------
# the engine
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("rec", G["raw"], ids=lambda r: "seed" + r["seed"])
def test_raw_stream(rec):
    g = Generator(int(rec["seed"]))
    assert g.initial_seed() == int(rec["initial_seed"])
    want = [int(v) for v in rec["first"]]
    # mixed request sizes must give one continuous stream
    got = [g.random64()] + [int(v) for v in g.random_raw(310)] + [int(v) for v in g.random_raw(1)]
    got += [int(v) for v in g.random_raw(388)]
    assert got == want
    st = g.get_state()
    assert st.pos == rec["state_after_700"]["pos"]
    text = " ".join(str(int(w)) for w in st.mt)
    assert hashlib.sha256(text.encode()).hexdigest() == rec["state_after_700"]["words_sha256"]


def test_seed_keeps_low_32_bits_but_reports_full_seed():
    a = Generator(5)
    b = Generator(2**32 + 5)
    assert b.initial_seed() == 2**32 + 5
    assert np.array_equal(a.random_raw(10), b.random_raw(10))


def test_random_raw_chunking_is_invisible():
    ref = Generator(99).random_raw(5000)
    g = Generator(99)
    parts = [g.random_raw(k) for k in (0, 1, 311, 312, 313, 7, 1000, 3056)]
    assert np.array_equal(np.concatenate(parts), ref)


def test_peek_and_advance():
    g = Generator(7)
    ref = Generator(7).random_raw(2000)
    assert np.array_equal(g.peek_raw(900), ref[:900])
    g.advance(500)
    assert np.array_equal(g.random_raw(10), ref[500:510])
    g.advance(700)  # past any cached look-ahead
    assert np.array_equal(g.random_raw(5), ref[1210:1215])


def test_state_roundtrip_and_copies():
    g = Generator(2023)
    g.random_raw(123)
    st = g.get_state()
    a = g.random_raw(1000)
    g.set_state(st)
    assert np.array_equal(g.random_raw(1000), a)
    c = copy.deepcopy(st)
    assert c == st and c is not st
    p = pickle.loads(pickle.dumps(st))
    assert p == st
    h = copy.copy(g)
    assert np.array_equal(h.random_raw(3), g.random_raw(3))
    assert st.engine_text().endswith(" 123")


def test_nondeterministic_seed():
    g = Generator()
    s = g.seed()
    assert 0 <= s < 2**53 and g.initial_seed() == s
    assert np.array_equal(g.random_raw(4), Generator(s).random_raw(4))


def test_invalid_seed():
    with pytest.raises((ValueError, TypeError, OverflowError)):
        Generator(-1)
    with pytest.raises((ValueError, TypeError, OverflowError)):
        Generator(2**64)


def test_design_note_value():
    g = Generator(2023)
    v = D.randn(g, [2, 3], "float64").ravel()
    want = [0.06132208, 1.11349594, 0.41906252, -0.24858210, -1.85169316, -1.50370079]
    assert np.allclose(v, want, atol=5e-9)


# ---------------------------------------------------------------------------
# the distributions, against Paddle
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("stream", G["streams"], ids=lambda s: "seed" + s["seed"])
def test_stream(stream):
    g = Generator(int(stream["seed"]))
    replay(g, stream["calls"], "seed " + stream["seed"])
    assert [str(g.random64()) for _ in stream["next_raw"]] == stream["next_raw"]


@pytest.mark.parametrize("case", G["crafted"], ids=lambda c: f"{c['calls'][0]['op']}-{c['seed']}")
def test_crafted(case):
    g = crafted_generator(case)
    want = [int(o) for o in case["outputs"]]
    assert [int(v) for v in g.clone().random_raw(len(want))] == want
    replay(g, case["calls"], "crafted seed " + case["seed"])
    assert [str(g.random64()) for _ in case["next_raw"]] == case["next_raw"]


# ---------------------------------------------------------------------------
# building blocks
# ---------------------------------------------------------------------------
def test_u64_to_float32_is_correctly_rounded():
    rng = np.random.default_rng(0)
    w = rng.integers(0, 2**64, size=3000, dtype=np.uint64)
    # ties and near-ties below the float32 precision of 64-bit words
    q = rng.integers(2**23, 2**24, size=1000, dtype=np.uint64) << np.uint64(40)
    w = np.concatenate([w, q | np.uint64(1 << 39), q | np.uint64((1 << 39) + 1), q | np.uint64((1 << 39) - 1)])
    from fractions import Fraction

    got = D._u64_to_f32(w)
    for v, g in zip(w.tolist(), got.tolist()):
        # exact: round-half-even of v to 24 significant bits
        L = v.bit_length()
        if L <= 24:
            want = float(v)
        else:
            sh = L - 24
            m, r = divmod(v, 1 << sh)
            half = 1 << (sh - 1)
            if r > half or (r == half and m & 1):
                m += 1
            want = float(Fraction(m << sh))
        assert g == want


def _libm():
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("m")
    if not name:
        pytest.skip("no C math library to compare with")
    lib = ctypes.CDLL(name)
    lib.logf.restype = ctypes.c_float
    lib.logf.argtypes = [ctypes.c_float]
    return lib


def test_glibc_logf_matches_the_c_library():
    # our numpy logf against the C library's, value by value (test-only loop)
    lib = _libm()
    rng = np.random.default_rng(7)
    x = np.concatenate([
        rng.random(60000).astype(np.float32),
        (rng.random(20000) ** 12).astype(np.float32),
        np.float32(1) - rng.integers(1, 2**16, 20000).astype(np.float32) * np.float32(2.0**-24),
        (rng.random(20000) * 1e6).astype(np.float32),
        np.array([1.0, 0.5, 2.0**-50, 2.0**-126, 2.0**-149, 3.0e-45, 0.99999994, 3.4e38], np.float32),
    ])
    x = x[x > 0]
    got = D.glibc_logf(x)
    want = np.array([lib.logf(float(v)) for v in x], dtype=np.float32)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_glibc_log_matches_the_c_library():
    import math

    rng = np.random.default_rng(8)
    x = np.concatenate([rng.random(50000), rng.random(20000) ** 20, D._LOG_PROBES, [1.0, 2.0**-1074, 0.5]])
    x = x[x > 0]
    got = D.glibc_log(x)
    want = np.array([math.log(v) for v in x])  # CPython's math.log is libm's log
    assert np.array_equal(got.view(np.uint64), want.view(np.uint64))
    assert D._log_mode() == "numpy"  # the vectorised path is in use


def test_randperm_matches_sequential_swaps():
    g = Generator(31)
    j = D._shuffle_swaps(g.clone(), 500)
    a = np.arange(500)
    for i in range(1, 500):  # reference: the swaps one by one (test only)
        a[i], a[j[i]] = a[j[i]], a[i]
    assert np.array_equal(D.randperm(g, 500, "int64"), a)


def test_odd_normal_drops_spare():
    g1 = Generator(11)
    D.randn(g1, [3], "float32")
    g2 = Generator(11)
    D.randn(g2, [4], "float32")
    # both consumed the same words (two accepted pairs' worth)
    assert np.array_equal(g1.random_raw(3), g2.random_raw(3))


def test_empty_shapes():
    g = Generator(1)
    assert D.randn(g, [0, 3], "float32").shape == (0, 3)
    assert D.randperm(g, 0, "int64").shape == (0,)
    assert D.randint(g, 0, 5, [0], "int32").shape == (0,)
    assert np.array_equal(g.random_raw(2), Generator(1).random_raw(2))
