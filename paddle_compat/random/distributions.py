"""Paddle's CPU random kernels, re-done in numpy on top of :class:`Generator`.

Every function takes the engine first and returns a numpy array holding the
values Paddle 3.3.1 produces on CPU for the same engine state, and leaves the
engine exactly where Paddle's would be.  The rules were read from Paddle's
CPU kernels plus the libstdc++ distributions they use, and checked against
real Paddle (``tests/goldens/random.json``).

Building blocks shared by all ops
---------------------------------
* canonical float (``std::generate_canonical``): one 64-bit word ``w`` gives
  ``T(w) / 2**64`` where ``T(w)`` is the correctly rounded conversion, and a
  result that rounds up to 1 becomes the largest ``T`` below 1.
* uniform real ``U(a, b)``: ``canonical * (b - a) + a`` in ``T`` (no fused
  multiply-add in Paddle's build).
* uniform int ``[a, b]`` (libstdc++ >= 11): Lemire's multiply-shift,
  ``(w * r) >> 64`` with ``r = b - a + 1``, drawing again while the low half
  of the product is below ``2**64 mod r``.
* ``log``: ``std::log`` is glibc's ``log``/``logf``.  ``log`` is taken from
  the C library itself through numpy's plain (non-SIMD) loop; ``logf`` is
  re-done here with glibc's published algorithm, because numpy's float32 log
  and a correctly rounded log both differ from glibc in the last bit.

Where the C kernels of ``_rngkernels.c`` are built (see ``engine``), the
hot loops (canonical floats, uniform, the polar method, bounded integers,
std::shuffle) run there, step for step the same arithmetic as the numpy code
here, which stays the reference and the fallback.

dtype names are Paddle's: ``float32``, ``float64``, ``float16``,
``bfloat16``, ``complex64``, ``complex128``, ``int32``, ``int64``.  For
``bfloat16`` the functions return float32 values; Paddle converts them with
round-to-nearest-even (the same as ``torch``'s float32 -> bfloat16 cast,
:func:`bfloat16_bits` gives the bits).
"""

from __future__ import annotations

import math
import struct

import numpy as np

from . import engine as _engine
from .engine import Generator, GeneratorState, _mt19937_64_int_seed

__all__ = [
    "canonical",
    "uniform",
    "rand",
    "normal",
    "randn",
    "standard_normal",
    "normal_tensor",
    "randint",
    "randperm",
    "bernoulli",
    "multinomial",
    "poisson",
    "standard_gamma",
    "dropout_mask",
    "keep_flags",
    "keep_threshold",
    "bfloat16_bits",
    "glibc_logf",
    "glibc_log",
]

_U64 = np.uint64
_M32 = np.array(0xFFFFFFFF, dtype=np.uint64)
_S32 = np.array(32, dtype=np.uint64)
_TWO_M64 = 2.0**-64

def _dtype_name(dtype):
    name = str(dtype)
    if name.startswith("paddle."):
        name = name[len("paddle.") :]
    if name == "uint16":  # Paddle's legacy name for bfloat16
        name = "bfloat16"
    return name


def _numel(shape):
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    shape = tuple(int(s) for s in shape)
    n = 1
    for s in shape:
        if s < 0:
            raise ValueError(f"negative dimension in shape {shape}")
        n *= s
    return shape, n


def _compute_type(name):
    """numpy type the C++ distribution works in for a Paddle float dtype."""
    if name == "float64":
        return np.float64
    if name in ("float32", "float16", "bfloat16"):
        return np.float32
    raise TypeError(f"unsupported floating dtype {name!r}")


def _finish(values, name):
    """Cast float32 work values to the Paddle dtype (bfloat16 stays float32)."""
    if name == "float16":
        return values.astype(np.float16)  # round to nearest even, like phi
    return values


def bfloat16_bits(values):
    """bfloat16 bit patterns (uint16) of finite float32 ``values`` with
    Paddle's conversion: round to nearest, ties to even."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    lsb = (bits >> np.uint32(16)) & np.uint32(1)
    return ((bits + np.uint32(0x7FFF) + lsb) >> np.uint32(16)).astype(np.uint16)


# ---------------------------------------------------------------------------
# canonical floats
# ---------------------------------------------------------------------------
_BELOW_ONE_F32 = np.array(np.nextafter(np.float32(1), np.float32(0)))
_BELOW_ONE_F64 = np.array(np.nextafter(1.0, 0.0))
_SCALE_F32 = np.array(_TWO_M64, dtype=np.float32)
_SCALE_F64 = np.array(_TWO_M64)
_TIE_MASK = np.array(0x1FFFFFFF, dtype=np.uint64)  # float64 bits below float32 precision
_TIE = np.array(0x10000000, dtype=np.uint64)
_CHUNK = 1 << 15  # elements per pass in chunked pipelines (cache-sized)


_TWO_32 = np.array(2.0**32)


def _u64_to_f64(w):
    """Correctly rounded uint64 -> float64: the two 32-bit halves convert
    exactly (fast signed path) and the one addition rounds once.  (numpy's
    own uint64 cast is also exact, but much slower.)"""
    hi = np.right_shift(w, _S32).view(np.int64).astype(np.float64)
    lo = np.bitwise_and(w, _M32).view(np.int64).astype(np.float64)
    np.multiply(hi, _TWO_32, hi)
    np.add(hi, lo, hi)
    return hi


def _u64_to_f32(w):
    """Correctly rounded uint64 -> float32 (numpy's own cast goes through
    float64 and can round twice).

    The float64 step rounds once; its result can only be wrong for float32
    when it sits exactly on a float32 tie, so those few words are redone
    with their 11 lowest bits folded into one sticky bit, which makes the
    float64 step exact."""
    d = _u64_to_f64(w)
    f = d.astype(np.float32)
    tie = np.equal(np.bitwise_and(d.view(np.uint64), _TIE_MASK), _TIE)
    if tie.any():
        wt = w[tie]
        big = wt >= _U64(1 << 53)
        low = wt & _U64(0x7FF)
        folded = (wt & ~_U64(0x7FF)) | np.where(low != 0, _U64(0x800), _U64(0))
        f[tie] = _u64_to_f64(np.where(big, folded, wt)).astype(np.float32)
    return f


def canonical(words, ctype, out=None):
    """``std::generate_canonical<T, digits(T)>`` of 64-bit ``words``: the
    correctly rounded ``T(w) * 2**-64``, capped at the largest T below 1."""
    n = words.size
    if out is None:
        out = np.empty(n, dtype=ctype)
    fast = _engine._fast
    if fast is not None and n and out.flags.c_contiguous:
        fast.canonical(np.ascontiguousarray(words, dtype=np.uint64), out)
        return out
    for s in range(0, n, _CHUNK):
        e = min(s + _CHUNK, n)
        w = words[s:e]
        o = out[s:e]
        if ctype is np.float32:
            np.multiply(_u64_to_f32(w), _SCALE_F32, o)
            np.minimum(o, _BELOW_ONE_F32, out=o)
        else:
            np.multiply(_u64_to_f64(w), _SCALE_F64, o)
            np.minimum(o, _BELOW_ONE_F64, out=o)
    return out


# ---------------------------------------------------------------------------
# glibc log / logf
# ---------------------------------------------------------------------------
# glibc's logf (from Arm's optimized-routines, MIT licence): x = 2**k * z with
# z in [0x3f330000, 2 * 0x3f330000) as a float; 16 sub-intervals, each with a
# reference point c given as (1/c, log c) in double; log1p(z/c - 1) by a
# degree-4 polynomial, everything in double, one final rounding to float.
_LOGF_INVC = np.array(
    [float.fromhex(h) for h in (
        "0x1.661EC79F8F3BEP+0", "0x1.571ED4AAF883DP+0", "0x1.49539F0F010BP+0",
        "0x1.3C995B0B80385P+0", "0x1.30D190C8864A5P+0", "0x1.25E227B0B8EAP+0",
        "0x1.1BB4A4A1A343FP+0", "0x1.12358F08AE5BAP+0", "0x1.0953F419900A7P+0",
        "0x1P+0", "0x1.E608CFD9A47ACP-1", "0x1.CA4B31F026AAP-1",
        "0x1.B2036576AFCE6P-1", "0x1.9C2D163A1AA2DP-1", "0x1.886E6037841EDP-1",
        "0x1.767DCF5534862P-1",
    )],
    dtype=np.float64,
)
_LOGF_LOGC = np.array(
    [float.fromhex(h) for h in (
        "-0x1.57BF7808CAADEP-2", "-0x1.2BEF0A7C06DDBP-2", "-0x1.01EAE7F513A67P-2",
        "-0x1.B31D8A68224E9P-3", "-0x1.6574F0AC07758P-3", "-0x1.1AA2BC79C81P-3",
        "-0x1.A4E76CE8C0E5EP-4", "-0x1.1973C5A611CCCP-4", "-0x1.252F438E10C1EP-5",
        "0x0P+0", "0x1.AA5AA5DF25984P-5", "0x1.C5E53AA362EB4P-4",
        "0x1.526E57720DB08P-3", "0x1.BC2860D22477P-3", "0x1.1058BC8A07EE1P-2",
        "0x1.4043057B6EE09P-2",
    )],
    dtype=np.float64,
)
_LOGF_LN2 = np.array(float.fromhex("0x1.62E42FEFA39EFP-1"))
_LOGF_P0 = np.array(float.fromhex("-0x1.00EA348B88334P-2"))
_LOGF_P1 = np.array(float.fromhex("0x1.5575B0BE00B6AP-2"))
_LOGF_P2 = np.array(float.fromhex("-0x1.FFFFEF20A4123P-2"))
_LOGF_OFF = np.array(0x3F330000, dtype=np.uint32)
_U32_19 = np.array(19, dtype=np.uint32)
_U32_15 = np.array(15, dtype=np.uint32)
_U32_EXP = np.array(0xFF800000, dtype=np.uint32)
_I32_23 = np.array(23, dtype=np.int32)
_F64_1 = np.array(1.0)


def glibc_logf(x):
    """glibc's ``logf`` for positive finite float32 values, vectorised.

    Same steps as glibc: split x = 2**k * z (z near 1, exact), pick the
    sub-interval's (1/c, log c), r = z/c - 1 in double, log1p(r) by the
    polynomial, add log c + k*ln2, round once to float32.  Checked bit for
    bit against glibc 2.36 for every float32 in (0, 1] (the inputs the polar
    method can produce), including glibc's FMA build."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    ix = x.view(np.uint32)
    if ix.size and ix.min() < 0x00800000:  # subnormals: scale them up first
        ix = ix.copy()
        sub = ix < 0x00800000
        ix[sub] = (x[sub] * np.float32(2.0**23)).view(np.uint32) - np.uint32(23 << 23)
    tmp = np.subtract(ix, _LOGF_OFF)
    i = np.right_shift(tmp, _U32_19)
    np.bitwise_and(i, _U32_15, i)
    k = np.right_shift(tmp.view(np.int32), _I32_23).astype(np.float64)
    np.bitwise_and(tmp, _U32_EXP, tmp)
    np.subtract(ix, tmp, tmp)  # z's bits: x with the exponent of 2**k removed
    z = tmp.view(np.float32).astype(np.float64)
    r = np.take(_LOGF_INVC, i)
    np.multiply(r, z, r)
    np.subtract(r, _F64_1, r)  # r = z/c - 1
    np.multiply(k, _LOGF_LN2, k)
    np.add(k, np.take(_LOGF_LOGC, i), k)  # log c + k*ln2
    r2 = np.multiply(r, r)
    y = np.multiply(r, _LOGF_P1)
    np.add(y, _LOGF_P2, y)
    np.add(y, np.multiply(r2, _LOGF_P0), y)
    np.multiply(y, r2, y)
    np.add(k, r, k)
    np.add(y, k, y)
    # x == 1 lands in the c == 1 sub-interval with r == 0: exactly +0
    return y.astype(np.float32)


def _log_libm_plain(x):
    # numpy runs its own SIMD log (which differs from glibc in the last bit)
    # on forward-strided input; a reversed input view with a forward output
    # makes it fall back to the scalar loop, i.e. the C library's log() for
    # each element.  (Reversing both would let numpy flip them back.)
    out = np.log(x[::-1])
    return out[::-1]


_LOG_MODE = None
_log_pyfunc = np.frompyfunc(math.log, 1, 1)


def _log_mode():
    global _LOG_MODE
    if _LOG_MODE is None:
        probe = np.random.default_rng(12345).random(4096) + 1e-300
        probe = np.concatenate([probe, _LOG_PROBES])
        want = np.array([math.log(v) for v in probe])  # math.log is libm log
        _LOG_MODE = "numpy" if np.array_equal(_log_libm_plain(probe), want) else "python"
    return _LOG_MODE


# inputs where numpy's AVX-512 log and glibc's log disagree (found offline)
_LOG_PROBES = np.array(
    [float.fromhex(h) for h in (
        "0x1.f9bdfb870fa4dp-1", "0x1.fcfe6d2b1c6f7p-1", "0x1.fe65f83bc88dap-1",
        "0x1.f049dc439c050p-1", "0x1.19a43bda88b47p-6", "0x1.f417f5cca6418p-1",
        "0x1.d2df9f394e2b8p-1", "0x1.0ba716463bbe1p-3", "0x1.f3bc5b085858fp-1",
        "0x1.b64b43e44e7bfp-1", "0x1.a3bb0d3bb77d1p-17", "0x1.1c1d8eb2c1147p-2",
    )],
    dtype=np.float64,
)


def glibc_log(x):
    """glibc's ``log`` for float64 values, vectorised (see module doc)."""
    x = np.ascontiguousarray(x, dtype=np.float64)
    if _log_mode() == "numpy":
        return _log_libm_plain(x)
    return _log_pyfunc(x).astype(np.float64)


# ---------------------------------------------------------------------------
# 128-bit helpers and bounded integers
# ---------------------------------------------------------------------------
def _mul64x64(x, r):
    """(high, low) 64-bit halves of x * r for uint64 arrays/scalars."""
    xl = x & _M32
    xh = x >> _S32
    rl = r & _M32
    rh = r >> _S32
    ll = xl * rl
    lh = xl * rh
    hl = xh * rl
    hh = xh * rh
    mid = (ll >> _S32) + (lh & _M32) + (hl & _M32)
    low = (ll & _M32) | (mid << _S32)
    high = hh + (lh >> _S32) + (hl >> _S32) + (mid >> _S32)
    return high, low


def _mul_hi_small(w, r, out):
    """High 64 bits of w * r for uint64 ``w`` and a 0-d uint64 ``r < 2**32``."""
    xh = w >> _S32
    np.multiply(xh, r, xh)
    xl = w & _M32
    np.multiply(xl, r, xl)
    np.right_shift(xl, _S32, xl)
    np.add(xh, xl, xh)  # < 2**64: no overflow
    np.right_shift(xh, _S32, out)


def _bounded_same_range(gen, n, r):
    """n draws of libstdc++ uniform_int over [0, r) (1 <= r < 2**64), as
    uint64, via Lemire's method with exact engine consumption."""
    out = np.empty(n, dtype=np.uint64)
    if n == 0:
        return out
    r_int = int(r)
    fast = _engine._fast
    if fast is not None:
        return gen._run(fast.bounded, out, r_int, 0)
    ru = np.array(r_int, dtype=np.uint64)
    threshold = np.array(((1 << 64) - r_int) % r_int, dtype=np.uint64)
    small = r_int < (1 << 32)
    done = 0
    while done < n:
        want = n - done
        # rejections happen with probability < r / 2**64: a little slack
        c = min(want + 16 + int(want * (r_int / 2.0**64) * 2), _CHUNK)
        w = gen.peek_raw(c)
        low = w * ru  # wraps: the low half of the product
        rej = low < threshold
        if not rej.any():
            take = min(want, c)
            if small:
                _mul_hi_small(w[:take], ru, out[done : done + take])
            else:
                out[done : done + take] = _mul64x64(w[:take], ru)[0]
            gen.advance(take)
            done += take
            continue
        idx = np.flatnonzero(~rej)[:want]
        k = idx.size
        if small:
            _mul_hi_small(w[idx], ru, out[done : done + k])
        else:
            out[done : done + k] = _mul64x64(w[idx], ru)[0]
        done += k
        gen.advance(int(idx[-1]) + 1 if k == want else c)
    return out


def _bounded_varying(gen, ranges):
    """Draws of uniform_int over [0, ranges[i]) for each i in turn (each
    sample consumes one word plus one per rejection)."""
    m = ranges.size
    out = np.empty(m, dtype=np.uint64)
    done = 0
    chunk = 1 << 14
    while done < m:
        c = min(chunk, m - done)
        r = ranges[done : done + c]
        w = gen.peek_raw(c)
        high, low = _mul64x64(w, r)
        maybe = low < r
        if maybe.any():
            # libstdc++ only computes the threshold when low < r
            rej = np.zeros(c, dtype=bool)
            mi = np.flatnonzero(maybe)
            rr = r[mi]
            thr = (_U64(0) - rr) % rr
            rej[mi] = low[mi] < thr
        else:
            rej = None
        if rej is None or not rej.any():
            out[done : done + c] = high
            gen.advance(c)
            done += c
            continue
        f = int(np.argmax(rej))
        out[done : done + f] = high[:f]
        gen.advance(f + 1)  # the rejected word
        done += f
        # finish this one sample: keep drawing until accepted
        rv = ranges[done]
        val = _bounded_same_range_first(gen, rv)
        out[done] = val
        done += 1
        chunk = max(64, chunk // 2)
    return out


def _bounded_same_range_first(gen, r):
    """Retry loop of one rejected uniform_int sample (the first word already
    consumed): returns the high half of the first accepted product."""
    r_int = int(r)
    ru = _U64(r_int)
    threshold = _U64(((1 << 64) - r_int) % r_int)
    while True:
        w = gen.peek_raw(8)
        high, low = _mul64x64(w, ru)
        ok = np.flatnonzero(low >= threshold)
        if ok.size:
            gen.advance(int(ok[0]) + 1)
            return high[ok[0]]
        gen.advance(8)


# ---------------------------------------------------------------------------
# uniform
# ---------------------------------------------------------------------------
def _canonicals(gen, n, ctype):
    """The canonical floats of the engine's next ``n`` words."""
    fast = _engine._fast
    if fast is not None and n:
        # canonical * 1 + 0 is the canonical value itself (they are >= +0)
        return gen._run(fast.uniform, np.empty(n, dtype=ctype), 0.0, 1.0)
    return canonical(gen.random_raw(n), ctype)


def _uniform_values(gen, n, ctype, lo, hi):
    out = np.empty(n, dtype=ctype)
    lo = np.array(lo, dtype=ctype)
    span = np.array(ctype(hi) - ctype(lo), dtype=ctype)
    fast = _engine._fast
    if fast is not None:
        return gen._run(fast.uniform, out, float(lo), float(span)) if n else out
    for s in range(0, n, _CHUNK):
        e = min(s + _CHUNK, n)
        o = out[s:e]
        canonical(gen.random_raw(e - s), ctype, o)
        np.multiply(o, span, o)
        np.add(o, lo, o)
    return out


def _private_engine(seed, op):
    """The engine a kernel given a non-zero ``seed`` attribute (a C ``int``) draws from:
    ``mt19937_64::seed(seed)``, new for the call (the global stream is left untouched)."""
    seed = int(seed)
    if not -(1 << 31) <= seed < (1 << 31):
        raise OverflowError(f"{op} seed must fit in a C int")
    seed &= (1 << 64) - 1       # the C int converts to the engine's uint64 (negatives wrap)
    return Generator(0).set_state(GeneratorState(_mt19937_64_int_seed(seed), 312, seed))


def uniform(gen, shape, dtype_name="float32", min=-1.0, max=1.0, seed=0):
    """``paddle.uniform``: one word per element, ``canonical * (max - min) +
    min`` computed in float32 (float32/float16/bfloat16) or float64.  The
    kernel receives ``min``/``max`` as float32, so float64 output still uses
    ``float32(min)`` and ``float32(max)``.  float16 rounds the float32 value
    to nearest even; bfloat16 is returned as float32 (Paddle rounds to nearest
    even).  A non-zero ``seed`` (a C ``int``) uses a private engine seeded
    with ``mt19937_64::seed(seed)`` and leaves ``gen`` untouched."""
    name = _dtype_name(dtype_name)
    shape, n = _numel(shape)
    ctype = _compute_type(name)
    lo = float(np.float32(min))
    hi = float(np.float32(max))
    if seed:
        gen = _private_engine(seed, "uniform")
    vals = _uniform_values(gen, n, ctype, lo, hi)
    return _finish(vals, name).reshape(shape)


def rand(gen, shape, dtype_name="float32"):
    """``paddle.rand``: ``uniform`` with min 0 and max 1, i.e. the canonical
    float of one word per element."""
    return uniform(gen, shape, dtype_name, 0.0, 1.0)


# ---------------------------------------------------------------------------
# normal (Marsaglia polar, libstdc++)
# ---------------------------------------------------------------------------
_POLAR_CHUNK = 1 << 14  # pairs examined per pass


def _normal_values(gen, n, ctype, mean, std):
    """``n`` values ``z * std + mean`` (each op rounded in ``ctype``; ``mean``/``std``
    hold ctype values) of one fresh normal distribution (:func:`_polar`)."""
    fast = _engine._fast
    if fast is not None:
        out = np.empty(n, dtype=ctype)
        return gen._run(fast.normal, out, float(mean), float(std)) if n else out
    z = _polar(gen, n, ctype)
    z *= ctype(std)
    z += ctype(mean)
    return z


def _polar(gen, n, ctype):
    """n standard normals from one fresh std::normal_distribution<T>.

    Words come in pairs (u1, u2) -> x = 2*u1 - 1, y = 2*u2 - 1 rounded to T;
    pairs with r2 = x*x + y*y outside (0, 1] are skipped; an accepted pair
    yields y*m then x*m with m = sqrt(-2*log(r2)/r2); a spare left by an odd
    n is thrown away with the distribution."""
    pairs = (n + 1) // 2
    out = np.empty(2 * pairs, dtype=ctype)
    two = np.array(2, dtype=ctype)
    one = np.array(1, dtype=ctype)
    zero = np.array(0, dtype=ctype)
    minus2 = np.array(-2, dtype=ctype)
    got = 0
    while got < pairs:
        want = pairs - got
        # acceptance is pi/4: enough pairs to finish unless the chunk caps it
        k = min(int(want * 1.2733) + 32, _POLAR_CHUNK)
        w = gen.peek_raw(2 * k)
        # 2*u is exact and 2*u - 1 then rounds once, in T (the C++ code goes
        # through double for the "- 1.0", which rounds to the same T value)
        v = canonical(w, ctype)
        np.multiply(v, two, v)
        np.subtract(v, one, v)
        v = v.reshape(k, 2)
        x = v[:, 0]
        y = v[:, 1]
        r2 = x * x
        r2 += y * y
        keep = np.less_equal(r2, one)
        keep &= np.not_equal(r2, zero)
        ok = np.flatnonzero(keep)
        if ok.size >= want:
            ok = ok[:want]
            gen.advance(2 * (int(ok[-1]) + 1))
        else:
            gen.advance(2 * k)
        m = ok.size
        if m == 0:
            continue
        x = x[ok]
        y = y[ok]
        r2 = r2[ok]
        lg = glibc_logf(r2) if ctype is np.float32 else glibc_log(r2)
        np.multiply(lg, minus2, lg)
        np.divide(lg, r2, lg)
        np.sqrt(lg, lg)
        dst = out[2 * got : 2 * (got + m)].reshape(m, 2)
        np.multiply(y, lg, dst[:, 0])
        np.multiply(x, lg, dst[:, 1])
        got += m
    return out[:n]


def normal(gen, shape, dtype_name="float32", mean=0.0, std=1.0, seed=0):
    """``paddle.normal``/``gaussian`` with scalar mean and std.  Each call
    builds a new ``std::normal_distribution``: Marsaglia's polar method on
    pairs of canonical floats (see :func:`_polar`), in float32 for
    float32/float16/bfloat16 and float64 for float64, then ``z * std + mean``
    in that type with ``mean`` and ``std`` first rounded to float32 (the
    kernel takes them as float).  float16 rounds the float32 result to
    nearest even, bfloat16 is returned as float32 (Paddle rounds it to
    nearest even).  complex64/complex128 fill the real then imaginary part of
    each element with consecutive draws of one float32/float64 distribution
    with the same mean and std ``float32(sqrt(std**2 / 2))``.  A non-zero ``seed`` draws from
    a private engine, as :func:`uniform`'s does."""
    if seed:
        gen = _private_engine(seed, "gaussian")
    name = _dtype_name(dtype_name)
    shape, n = _numel(shape)
    if name in ("complex64", "complex128"):
        ctype = np.float32 if name == "complex64" else np.float64
        part_std = ctype(_complex_part_std(std))
        z = _normal_values(gen, 2 * n, ctype, ctype(np.float32(mean)), part_std)
        res = np.empty(n, dtype=np.complex64 if name == "complex64" else np.complex128)
        res.real = z[0::2]
        res.imag = z[1::2]
        return res.reshape(shape)
    ctype = _compute_type(name)
    z = _normal_values(gen, n, ctype, ctype(np.float32(mean)), ctype(np.float32(std)))
    return _finish(z, name).reshape(shape)


def _complex_part_std(std):
    """std of each part of a complex normal: sqrt(std**2 / 2) evaluated in
    double from the float32 std, then stored as float32 (for both complex
    widths)."""
    sd = float(np.float32(std))
    return np.float32(math.sqrt(sd * sd / 2.0))


def randn(gen, shape, dtype_name="float32"):
    """``paddle.randn``/``standard_normal``: :func:`normal` with mean 0 and
    std 1 (so ``z * 1 + 0``: a ``-0.0`` comes out as ``+0.0``)."""
    return normal(gen, shape, dtype_name, 0.0, 1.0)


standard_normal = randn


def normal_tensor(gen, mean, std):
    """``paddle.normal`` with a tensor mean and/or std (numpy arrays or
    Python numbers; at least one an array).  Paddle draws
    ``standard_normal(shape, dtype)`` with the shape and dtype of ``mean`` if
    it is a tensor (``std`` is cast to that dtype and reshaped to that
    shape), else of ``std``, then computes ``out * std + mean`` with two
    separately rounded elementwise ops in that dtype."""
    mean_is_arr = isinstance(mean, np.ndarray)
    std_is_arr = isinstance(std, np.ndarray)
    if not (mean_is_arr or std_is_arr):
        raise TypeError("normal_tensor needs an array mean or std")
    if mean_is_arr:
        dt = mean.dtype
        shape = mean.shape
        if std_is_arr:
            std = std.astype(dt).reshape(shape)
        else:
            std = dt.type(np.float32(std)) if dt == np.float32 else dt.type(std)
    else:
        dt = std.dtype
        shape = std.shape
        mean = dt.type(mean)
    z = randn(gen, shape, dt.name)
    return (z * std) + mean


# ---------------------------------------------------------------------------
# integers
# ---------------------------------------------------------------------------
def randint(gen, low, high, shape, dtype_name="int64"):
    """``paddle.randint``: ``std::uniform_int_distribution(low, high - 1)``
    per element (low/high are C ints), i.e. ``low + ((w * r) >> 64)`` with
    ``r = high - low``, a word being skipped while ``(w * r) mod 2**64 <
    2**64 mod r``.  int32 and int64 give the same numbers."""
    name = _dtype_name(dtype_name)
    if name not in ("int32", "int64"):
        raise TypeError(f"randint supports int32/int64, got {name!r}")
    low = int(low)
    high = int(high)
    for v in (low, high):
        if not -(1 << 31) <= v < (1 << 31):
            raise OverflowError(f"randint bound {v} exceeds int32 range")
    if low >= high:
        raise ValueError(f"randint needs low < high, got {low} >= {high}")
    shape, n = _numel(shape)
    fast = _engine._fast
    if fast is not None:
        off = np.empty(n, dtype=np.int64)
        if n:
            gen._run(fast.bounded, off, high - low, low)  # low + offset, as int64
    else:
        off = _bounded_same_range(gen, n, high - low).astype(np.int64)
        off += low
    return off.astype(np.int32 if name == "int32" else np.int64, copy=False).reshape(shape)


def _shuffle_swaps(gen, n):
    """Swap targets j[i] (0 <= j[i] <= i, i = 1..n-1) that libstdc++'s
    ``std::shuffle`` draws for n elements with a 64-bit engine: when n is
    even, j[1] comes from uniform_int(0, 1); the rest go in pairs (i, i+1)
    from one uniform_int(0, (i+1)*(i+2) - 1) value x as
    (x // (i+2), x % (i+2))."""
    j = np.zeros(n, dtype=np.int64)
    if n < 2:
        return j
    start = 1
    if n % 2 == 0:
        j[1] = int(_bounded_same_range(gen, 1, 2)[0])
        start = 2
    firsts = np.arange(start, n, 2, dtype=np.uint64)
    if firsts.size:
        b0 = firsts + _U64(1)
        b1 = firsts + _U64(2)
        x = _bounded_varying(gen, b0 * b1)
        fi = firsts.astype(np.int64)
        j[fi] = (x // b1).astype(np.int64)
        j[fi + 1] = (x % b1).astype(np.int64)
    return j


def _apply_forward_swaps(j):
    """Final array of ``for i in 1..n-1: swap(a[i], a[j[i]])`` from iota,
    without a loop per swap.

    Position p ends with the last value written to it.  Writes to p happen
    at step p (it receives what position j[p] held then, or p itself when
    j[p] == p) and at every later step i with j[i] == p (it receives i).  So
    p's value is the last step targeting p, if that step is after p;
    otherwise it is "what position q = j[p] held just before step p": the
    step targeting q that precedes step p (if it is after q), else the same
    question for q one level down.  With the steps grouped by target, "last
    step targeting p" and "previous step with the same target" are plain
    lookups, and all positions walk down their chains together."""
    n = j.size
    if n <= 1:
        return np.arange(n, dtype=np.int64)
    steps = np.arange(1, n, dtype=np.int64)
    keys = j[1:] * n
    keys += steps
    keys.sort()  # grouped by target, steps ascending inside a group
    tgt = keys // n
    stp = keys - tgt * n
    same = tgt[1:] == tgt[:-1]
    prev_same = np.full(n, -1, dtype=np.int64)  # previous step, same target
    prev_same[stp[1:][same]] = stp[:-1][same]
    last = np.full(n, -1, dtype=np.int64)  # last step targeting each position
    ends = np.flatnonzero(~same)
    last[tgt[ends]] = stp[ends]
    last[tgt[-1]] = stp[-1]

    result = np.empty(n, dtype=np.int64)
    pos = np.arange(n, dtype=np.int64)
    hit = last > pos
    result[hit] = last[hit]
    who = pos[~hit]
    cur = who  # the step whose "value before" we ask about (cur == p first)
    first = True
    while who.size:
        if first:
            q = cur
            first = False
            h = np.full(q.size, -1, dtype=np.int64)
        else:
            q = j[cur]
            h = prev_same[cur]
        found = h > q
        result[who[found]] = h[found]
        rest = ~found
        who, q = who[rest], q[rest]
        jq = j[q]
        stop = (q == 0) | (jq == q)
        result[who[stop]] = q[stop]
        go = ~stop
        who, cur = who[go], q[go]
    return result


def randperm(gen, n, dtype_name="int64"):
    """``paddle.randperm``: ``std::shuffle`` of ``0..n-1`` with the shared
    engine (libstdc++ algorithm: swap i with j[i] for i = 1..n-1, targets
    drawn two per word as described in :func:`_shuffle_swaps`)."""
    name = _dtype_name(dtype_name)
    n = int(n)
    if n < 0:
        raise ValueError("randperm needs n >= 0")
    fast = _engine._fast
    if fast is not None:
        perm = np.empty(n, dtype=np.int64)
        if n > 1:  # n < 2 draws nothing
            gen._run(fast.shuffle, perm)
        else:
            perm[:] = 0
    else:
        perm = _apply_forward_swaps(_shuffle_swaps(gen, n))
    return perm.astype(
        {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}[name]
    )


def _binary_search(cum, u):
    """Per row of ``cum`` (nd, nc) and each of that row's draws ``u``
    (nd, k): the kernel's bisection, left = 0, right = nc; while right >
    left: mid = left + (right - left) // 2, go right of mid when cum[mid] < u.
    Mirrors the C++ loop step by step, so it needs no sortedness."""
    nd, nc = cum.shape
    left = np.zeros(u.shape, dtype=np.int64)
    right = np.full(u.shape, nc, dtype=np.int64)
    rix = np.arange(nd)[:, None]
    active = right > left
    while active.any():
        mid = left + (right - left) // 2
        less = cum[rix, np.minimum(mid, nc - 1)] < u
        left = np.where(active & less, mid + 1, left)
        right = np.where(active & ~less, mid, right)
        active = right > left
    return left


# ---------------------------------------------------------------------------
# bernoulli / multinomial
# ---------------------------------------------------------------------------
def bernoulli(gen, probs):
    """``paddle.bernoulli``: per element, in order, one canonical float ``u``
    of the input's type (float32 or float64) and ``1`` if ``u < p`` else
    ``0``, same dtype as ``probs``.  Probabilities outside [0, 1] raise."""
    p = np.asarray(probs)
    if p.dtype not in (np.float32, np.float64):
        raise TypeError(f"bernoulli supports float32/float64, got {p.dtype}")
    flat = p.reshape(-1)
    if flat.size and (np.any(flat > 1) or np.any(flat < 0) or np.isnan(flat).any()):
        raise ValueError("bernoulli probabilities must be in [0, 1]")
    u = _canonicals(gen, flat.size, p.dtype.type)
    return (u < flat).astype(p.dtype).reshape(p.shape)


def multinomial(gen, probs, num_samples, replacement=False):
    """``paddle.multinomial`` (int64 result, shape ``(*batch, num_samples)``).

    Rows are handled in order; in each row the running sum of the weights is
    kept in the input's type, divided by the total, its last entry set to 1,
    and every sample draws one canonical float ``u`` and takes the first
    category whose cumulative value is ``>= u`` (binary search).  Without
    replacement, after each sample but the last the chosen category's mass
    ``d`` is removed: entries from the chosen index on lose ``d`` and all are
    divided by ``1 - d``, each step rounded in the input's type."""
    p = np.asarray(probs)
    if p.dtype not in (np.float32, np.float64):
        raise TypeError(f"multinomial supports float32/float64 here, got {p.dtype}")
    if p.ndim not in (1, 2):
        raise ValueError("multinomial expects a 1-D or 2-D input")
    ctype = p.dtype.type
    rows = p.reshape(-1, p.shape[-1])
    nd, nc = rows.shape
    num_samples = int(num_samples)
    if np.any(rows < 0):
        raise ValueError("multinomial weights must be >= 0")
    sums = np.add.accumulate(rows, axis=1, dtype=ctype)  # sequential in ctype
    total = sums[:, -1]
    if np.any(~(total > 0)):
        raise ValueError("multinomial weights must sum to > 0")
    if not replacement and np.any(nc - (rows == 0).sum(axis=1) < num_samples):
        raise ValueError("not enough non-zero categories to sample without replacement")
    cum = (sums / total[:, None]).astype(ctype)
    u = _canonicals(gen, nd * num_samples, ctype).reshape(nd, num_samples)
    out = np.empty((nd, num_samples), dtype=np.int64)
    one = ctype(1)
    cum[:, -1] = one
    if replacement:
        out = _binary_search(cum, u)
        return out.reshape(p.shape[:-1] + (num_samples,))
    out = np.empty((nd, num_samples), dtype=np.int64)
    rix = np.arange(nd)
    cols = np.arange(nc)
    # without replacement each draw depends on the previous pick of its row:
    # one pass per sample column, all rows at once
    for s in range(num_samples):
        cum[:, -1] = one
        ids = _binary_search(cum, u[:, s : s + 1])[:, 0]
        out[:, s] = ids
        if s == num_samples - 1:
            break
        prev = np.where(ids > 0, cum[rix, np.maximum(ids - 1, 0)], ctype(0))
        d = (cum[rix, ids] - prev).astype(ctype)
        # "1.0 - d" is evaluated in double in the C++ source, then stored as T
        new_sum = (1.0 - d.astype(np.float64)).astype(ctype)
        cum = np.where(cols[None, :] >= ids[:, None], cum - d[:, None], cum).astype(ctype)
        cum = (cum / new_sum[:, None]).astype(ctype)
    return out.reshape(p.shape[:-1] + (num_samples,))


# ---------------------------------------------------------------------------
# poisson (libstdc++ std::poisson_distribution<int>)
# ---------------------------------------------------------------------------
class _Canonicals:
    """Canonical doubles (or floats, ``ctype=np.float32``) of the engine's words, one per
    call, in order (``_Adaptor<URNG, T>``); words are converted a block at a time and only
    the ones used are consumed (:meth:`close`)."""

    def __init__(self, gen, hint, ctype=np.float64):
        self._gen = gen
        self._block = int(min(max(hint, 64), 1 << 20))
        self._ctype = ctype
        self._arr = np.empty(0, ctype)      # the block converted
        self._buf = []                      # the same as Python floats (made when asked)
        self._i = 0

    def _refill(self, n):
        self._gen.advance(self._i)
        self._arr = canonical(self._gen.peek_raw(n), self._ctype)
        self._buf = None
        self._i = 0

    def __call__(self):
        if self._i == len(self._arr):
            self._refill(self._block)
        if self._buf is None:
            self._buf = self._arr.tolist()
        v = self._buf[self._i]
        self._i += 1
        return v

    def array(self, need):
        """The canonicals from the next one on (an array, at least ``need`` of them), not
        consumed until :meth:`consume`."""
        if len(self._arr) - self._i < need:
            self._refill(max(need, self._block))
        return self._arr[self._i:]

    def consume(self, k):
        self._i += k

    def close(self):
        self._gen.advance(self._i)
        self._arr = np.empty(0, self._ctype)
        self._buf = []
        self._i = 0


def _poisson_small_c(fast, u, rates, out):
    """The multiplication method (rates below 12) over ``rates`` (float64) into ``out``
    (int64) by the C kernel, drawing from ``u`` in order."""
    done, need = 0, 64
    while done < len(rates):
        arr = u.array(need)
        k, used = fast.poisson_small(arr, rates[done:], out[done:])
        u.consume(used)
        done += k
        need = 64 if k else 2 * len(arr)      # an element that needs more than what was left


def _libm():
    import ctypes
    import ctypes.util

    lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    for name in ("lgamma", "exp", "log"):
        fn = getattr(lib, name)
        fn.restype = ctypes.c_double
        fn.argtypes = [ctypes.c_double]
    return lib


_LIBM = None
# the libstdc++ constants (long double literals, stored as double)
_PI_4 = float("0.7853981633974483096156608458198757")
_SPI_2 = float("1.2533141373155002512078826424055226")
_R178 = float("0.0128205128205128205128205128205128")
_E178 = float("1.0129030479320018583185514777512983")
_NAF = (1.0 - float(np.finfo(np.float64).eps)) / 2
_INT_THR = 2147483647 + _NAF
_INT_MIN = -2147483648


def _poisson_large(u, mean, lib):
    """One draw for mean >= 12: Devroye's rejection (``random.tcc``), with a fresh
    ``normal_distribution<double>`` (Marsaglia polar, its spare kept for the next normal of
    this draw)."""
    exp, log, lgamma = lib.exp, lib.log, lib.lgamma
    m = math.floor(mean)
    lm_thr = log(mean)
    lfm = lgamma(m + 1)
    sm = math.sqrt(m)
    dx = math.sqrt(2 * m * log(32 * m / _PI_4))
    d = float(math.floor(max(6.0, min(m, dx)) + 0.5))       # std::round of a value >= 6
    cx = 2 * m + d
    scx = math.sqrt(cx / 2)
    r1cx = 1 / cx
    c2b = math.sqrt(_PI_4 * cx) * exp(r1cx)
    cb = 2 * cx * exp(-d * r1cx * (1 + d / 2)) / d
    c1 = sm * _SPI_2
    c2 = c2b + c1
    c3 = c2 + 1
    c4 = c3 + 1
    c5 = c4 + _E178
    c = cb + c5
    two_cx = 2 * (2 * m + d)
    spare = None

    def normal():
        nonlocal spare
        if spare is not None:
            r, spare = spare, None
            return r
        while True:
            x = 2.0 * u() - 1.0
            y = 2.0 * u() - 1.0
            r2 = x * x + y * y
            if not (r2 > 1.0 or r2 == 0.0):
                break
        mult = math.sqrt(-2 * log(r2) / r2)
        spare = x * mult
        return y * mult

    while True:
        uu = c * u()
        e = -log(1.0 - u())
        w = 0.0
        if uu <= c1:
            n = normal()
            y = -abs(n) * sm - 1
            x = math.floor(y)
            w = -n * n / 2
            if x < -m:
                continue
        elif uu <= c2:
            n = normal()
            y = 1 + abs(n) * scx
            x = math.ceil(y)
            w = y * (2 - y) * r1cx
            if x > d:
                continue
        elif uu <= c3:
            x = -1
        elif uu <= c4:
            x = 0
        elif uu <= c5:
            x = 1
            w = _R178
        else:
            v = -log(1.0 - u())
            y = d + v * two_cx / d
            x = math.ceil(y)
            w = -d * r1cx * (1 + y / 2)
        x = float(x)
        if not (w - e - x * lm_thr > lfm - lgamma(x + m + 1)) and not (x + m >= _INT_THR):
            return int(x + m + _NAF)


def _poisson_inf(u):
    """An infinite rate: the constants are inf/NaN, so the first round takes the last branch
    (three words) and accepts NaN, which the C++ int cast turns into INT_MIN."""
    u()
    u()
    u()


def poisson(gen, rates):
    """``paddle.poisson`` (float32/float64 rates, same dtype out): per element, in order, a
    fresh ``std::poisson_distribution<int>(double(rate))`` drawn with the shared engine
    through canonical doubles.  Rates below 12 (and NaN): multiply uniforms until the product
    is ``<= exp(-rate)``, the count minus one (so a rate <= 0 gives 0 after one draw); from
    12 on, the rejection method of libstdc++ (``lgamma``/``log``/``exp`` of the C library).
    A non-finite draw (infinite rate) gives INT_MIN, as the C++ cast does on x86.  Checked
    against real Paddle in ``tests/goldens/ops_rest.json``."""
    global _LIBM
    r = np.asarray(rates)
    if r.dtype not in (np.float32, np.float64):
        raise TypeError(f"poisson supports float32/float64, got {r.dtype}")
    flat = r.reshape(-1).astype(np.float64).tolist()
    out = np.empty(len(flat), dtype=np.int64)
    if not flat:
        return out.astype(r.dtype).reshape(r.shape)
    if _LIBM is None:
        _LIBM = _libm()
    lib = _LIBM
    r64 = np.ascontiguousarray(flat, dtype=np.float64)
    hint = float(np.where((r64 == r64) & (r64 > 0), np.where(r64 < 12, r64 + 2.0, 4.0),
                          1.0).sum())       # words to convert at a time (a block size)
    u = _Canonicals(gen, int(min(hint, 1 << 20)) + 16)
    exp = lib.exp
    thr_cache = {}
    fast = _engine._fast
    if fast is not None and not hasattr(fast, "poisson_small"):
        fast = None                         # a build of the kernels from before it
    try:
        if fast is not None:                # rates below 12 (and NaN) by runs in C
            start = 0
            for b in np.flatnonzero(r64 >= 12).tolist() + [len(flat)]:
                if b > start:
                    _poisson_small_c(fast, u, r64[start:b], out[start:b])
                if b < len(flat):
                    mean = flat[b]
                    if math.isinf(mean):
                        out[b] = _INT_MIN
                        _poisson_inf(u)
                    else:
                        out[b] = _poisson_large(u, mean, lib)
                start = b + 1
            return out.astype(r.dtype).reshape(r.shape)
        for i, mean in enumerate(flat):
            if mean >= 12:
                if math.isinf(mean):
                    out[i] = _INT_MIN
                    _poisson_inf(u)
                    continue
                out[i] = _poisson_large(u, mean, lib)
                continue
            thr = thr_cache.get(mean)
            if thr is None:
                thr = thr_cache[mean] = exp(-mean)
            k = 0
            prod = 1.0
            while True:
                prod *= u()
                k += 1
                if not prod > thr:
                    break
            out[i] = k - 1
    finally:
        u.close()
    return out.astype(r.dtype).reshape(r.shape)


# ---------------------------------------------------------------------------
# standard_gamma (Marsaglia-Tsang, one element after the other)
# ---------------------------------------------------------------------------
_F32 = struct.Struct("f")
_LIBMF = None


def _libmf():
    """The C library's ``logf`` and ``powf`` (what ``std::log``/``std::pow`` of floats call)."""
    import ctypes
    import ctypes.util

    lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    lib.logf.restype = ctypes.c_float
    lib.logf.argtypes = [ctypes.c_float]
    lib.powf.restype = ctypes.c_float
    lib.powf.argtypes = [ctypes.c_float, ctypes.c_float]
    return lib


def _f32(v):
    """A double rounded to the nearest float32 (as a Python float)."""
    try:
        return _F32.unpack(_F32.pack(v))[0]
    except OverflowError:
        return float(np.float32(v))


def _normal_f64(u):
    """One draw of a fresh ``std::normal_distribution<double>`` (its spare thrown away)."""
    while True:
        x = 2.0 * u() - 1.0
        y = 2.0 * u() - 1.0
        r2 = x * x + y * y
        if not (r2 > 1.0 or r2 == 0.0):
            return y * math.sqrt(-2 * math.log(r2) / r2)


def _normal_f32(u, logf):
    """The same for ``normal_distribution<float>``: every step rounded to float."""
    f = _f32
    while True:
        x = f(2.0 * u() - 1.0)
        y = f(2.0 * u() - 1.0)
        r2 = f(f(x * x) + f(y * y))
        if not (r2 > 1.0 or r2 == 0.0):
            return f(y * f(math.sqrt(f(f(-2.0 * logf(r2)) / r2))))


_THIRD_F = float(np.float32(1.0 / 3.0))     # the kernel's float literals 1.0f/3.0f, 0.0331f
_C0331_F = float(np.float32(0.0331))


def _pow(x, y):
    try:
        return math.pow(x, y)
    except OverflowError:       # C's pow gives inf
        return math.inf


def _log(x):
    return math.log(x) if x > 0.0 else -math.inf     # C's log(0); x is never negative here


def _gamma_f64(a, u):
    scale = 1.0
    if a < 1.0:
        if a == 0.0:
            return 0.0
        scale = _pow(1.0 - u(), 1.0 / a)
        a += 1.0
    d = a - _THIRD_F
    if not d > 0.0:             # NaN, or alpha below -2/3: Paddle's loop never ends
        return math.nan
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        while True:
            x = _normal_f64(u)
            y = 1.0 + c * x
            if not y <= 0.0:
                break
        v = y * y * y
        w = 1.0 - u()
        xx = x * x
        if w < 1.0 - _C0331_F * xx * xx or \
                math.log(w) < 0.5 * xx + d * (1.0 - v + _log(v)):
            return scale * d * v


def _gamma_f32(a, u, lib):
    f = _f32
    logf = lib.logf
    scale = 1.0
    if a < 1.0:
        if a == 0.0:
            return 0.0
        scale = lib.powf(f(1.0 - u()), f(1.0 / a))
        a = f(a + 1.0)
    d = f(a - _THIRD_F)
    if not d > 0.0:
        return math.nan
    c = f(1.0 / f(math.sqrt(f(9.0 * d))))
    while True:
        while True:
            x = _normal_f32(u, logf)
            y = f(1.0 + f(c * x))
            if not y <= 0.0:
                break
        v = f(f(y * y) * y)
        w = f(1.0 - u())
        xx = f(x * x)
        if w < f(1.0 - f(f(_C0331_F * xx) * xx)) or \
                logf(w) < f(f(0.5 * xx) + f(d * f(f(1.0 - v) + logf(v)))):
            return f(f(scale * d) * v)


def standard_gamma(gen, alphas):
    """``paddle.standard_gamma`` (float32/float64 ``alphas``, same dtype out): per element,
    in order, Marsaglia and Tsang's rejection method on the shared engine, as Paddle's CPU
    kernel runs it: an alpha below 1 first draws a uniform ``s`` for the boost
    ``(1 - s) ** (1 / alpha)`` and goes on with alpha + 1; then ``d = alpha - 1/3``,
    ``c = 1 / sqrt(9 d)``, and per round a normal ``x`` from a fresh
    ``std::normal_distribution`` (redrawn while ``1 + c x <= 0``), ``v = (1 + c x)**3`` and a
    uniform ``u``, accepted when ``1 - u < 1 - 0.0331 x**4`` or
    ``log(1 - u) < x**2 / 2 + d (1 - v + log v)``; the draw is ``boost * d * v``, at least
    the dtype's smallest normal number.  Every step is rounded in the dtype (float32 with the
    C library's ``logf``/``powf``); 1/3 and 0.0331 are float literals in both.  An alpha of
    0 gives that smallest number; a NaN alpha, or one below -2/3 (where Paddle never
    returns), gives NaN.  Checked against real Paddle in ``tests/goldens/ops_rest.json``."""
    global _LIBMF
    a = np.asarray(alphas)
    if a.dtype not in (np.float32, np.float64):
        raise TypeError(f"standard_gamma supports float32/float64, got {a.dtype}")
    ct = a.dtype.type
    flat = a.reshape(-1).tolist()
    out = np.empty(len(flat), dtype=ct)
    if not flat:
        return out.reshape(a.shape)
    u = _Canonicals(gen, 4 * len(flat) + 16, ct)
    try:
        if ct is np.float32:
            if _LIBMF is None:
                _LIBMF = _libmf()
            lib = _LIBMF
            vals = [_gamma_f32(v, u, lib) for v in flat]
        else:
            vals = [_gamma_f64(v, u) for v in flat]
    finally:
        u.close()
    out[:] = vals
    tiny = np.finfo(ct).tiny
    np.maximum(out, tiny, out=out, where=~np.isnan(out))
    return out.reshape(a.shape)


# ---------------------------------------------------------------------------
# dropout
# ---------------------------------------------------------------------------
def dropout_mask(gen, shape, p):
    """Keep-mask (bool array of ``shape``) of ``paddle.nn.functional.dropout``
    in training: one float32 canonical ``u`` per mask element, in order; the
    element is dropped when ``u < float32(p)``.

    Without ``axis`` (the dropout kernel) the mask has the input's shape,
    ``p == 1`` zeroes everything without drawing, and the output is ``x /
    T(1.0f - p)`` (``1.0f - p`` rounded in float32) where kept in
    ``upscale_in_train`` mode, ``x`` in ``downscale_in_infer`` mode, ``+0``
    where dropped.  With ``axis`` Paddle works in Python: the mask shape is
    the input's with every other dim set to 1 (same draws, via ``uniform``),
    the output is ``(x * T(1 / (1 - p)) + 0) * mask`` (``1 / (1 - p)`` in
    double; ``x`` unscaled in ``downscale_in_infer``), so dropped negatives
    give ``-0.0``; ``p == 1`` gives ``x * 0 + 0`` without drawing.  ``p ==
    0`` returns the input before any op runs (no draws) in both paths."""
    shape, n = _numel(shape)
    pf = np.float32(p)
    if pf == np.float32(1):
        return np.zeros(shape, dtype=bool)
    u = _canonicals(gen, n, np.float32)
    return (u >= pf).reshape(shape)


_KEEP_THRESHOLDS = {}


def keep_threshold(p):
    """The smallest 64-bit word whose float32 canonical is ``>= float32(p)`` (canonicals grow
    with the word, so ``word >= threshold`` is ``dropout_mask``'s keep test without the float
    conversion); ``2**64`` where no word is kept (``float32(p) >= 1``)."""
    pf = np.float32(p)
    t = _KEEP_THRESHOLDS.get(pf)
    if t is None:
        lo, hi = 0, 1 << 64             # canonical(hi - 1) may stay below pf: hi is "none"
        while lo < hi:
            mid = (lo + hi) // 2
            if canonical(np.array([mid], dtype=np.uint64), np.float32)[0] >= pf:
                hi = mid
            else:
                lo = mid + 1
        t = _KEEP_THRESHOLDS[pf] = lo
    return t


def keep_flags(gen, n, p, out=None):
    """``dropout_mask``'s flags for the engine's next ``n`` words as a flat bool array (into
    ``out``, a C-contiguous one-byte array of ``n`` elements, when given): one pass comparing
    each word with ``keep_threshold(p)``, in C where built. ``float32(p) >= 1`` draws nothing
    and keeps nothing, as ``dropout_mask``."""
    if out is None:
        out = np.empty(n, dtype=bool)
    t = keep_threshold(p)
    if t >> 64:
        out[...] = False
    elif n:
        keep = getattr(_engine._fast, "keep", None)     # None: kernels built before it
        if keep is not None:
            gen._run(keep, out, t)
        else:
            for s in range(0, n, _CHUNK):
                e = min(s + _CHUNK, n)
                np.greater_equal(gen.random_raw(e - s), _U64(t), out=out[s:e])
    return out

