"""The random engine behind every CPU random op: a numpy mt19937_64.

Paddle keeps one ``std::mt19937_64`` per device generator.  ``paddle.seed(s)``
reseeds it through ``std::seed_seq{s}`` and every CPU random kernel then pulls
64-bit words from that single engine.  This module reproduces that engine bit
for bit:

* ``std::seed_seq`` stores each seed value modulo 2**32, so only the low 32 bits
  of the seed reach the engine (``initial_seed()`` still reports the full
  value, as Paddle does).
* ``mersenne_twister_engine::seed(seed_seq&)`` asks the seed_seq for
  2 * 312 32-bit words and joins each pair (low word first) into one 64-bit
  state word, then marks the state as used up, so the first draw twists.
* The twist is lazy exactly as in libstdc++: a state at position 312 is only
  regenerated when the next word is asked for.  ``get_state()`` therefore
  gives the same (312 words, position) pair that C++ would print.

Two implementations give the same words.  Where the optional C module
``_rngkernels`` is built (``setup.py``; ``run.sh`` builds it), the engine and
the big distributions run there, on the generator's own state array.
Otherwise (or with ``PADDLE_COMPAT_PURE_PYTHON`` set, or after
``use_c_kernels(False)``) generation is vectorised numpy: per generation of
312 words the twist term of 311 words is one numpy expression (it only reads
the old generation), the new words follow in two 156-wide xors, and only the
last word is finished on Python ints; tempering runs over the whole request
in cache-sized chunks.  A generator keeps a tempered copy of its current
generation, so small requests are a slice.  ``peek_raw``/``advance`` let
rejection samplers look ahead and then consume exactly the words C++ would
have used.  ``tests/test_rng_kernels.py`` compares the two paths bit for bit.
"""

from __future__ import annotations

import importlib
import os

import numpy as np

try:  # the optional C kernels (_rngkernels.c); the numpy code below gives the same bits
    if os.environ.get("PADDLE_COMPAT_PURE_PYTHON"):
        raise ImportError("PADDLE_COMPAT_PURE_PYTHON is set")
    # (by name: import graphs read "from . import _rngkernels" as importing the package)
    _C_MODULE = importlib.import_module(__package__ + "._rngkernels")
except ImportError:
    _C_MODULE = None

__all__ = ["Generator", "GeneratorState", "mt19937_64_seed_words", "c_kernels", "use_c_kernels"]

# the kernels in use: the C module, or None for the numpy code
_fast = _C_MODULE


def c_kernels():
    """The C kernel module in use, or None where the numpy code runs."""
    return _fast


def use_c_kernels(on=True):
    """Switch the C kernels on (where built) or off; returns whether they were on.  Both
    give the same numbers -- this exists to compare them."""
    global _fast
    was = _fast is not None
    _fast = _C_MODULE if on else None
    return was

# mt19937_64 parameters (word size 64, degree 312, middle word 156, split 31).
_N = 312
_M = 156
_HALF = _N - _M  # 156: new words computable in one vector step


def _k(v):
    # 0-d arrays: numpy ufuncs take these much faster than numpy scalars
    return np.array(v, dtype=np.uint64)


_MATRIX_A = _k(0xB5026F5AA96619E9)
_UPPER = _k(0xFFFFFFFF80000000)  # top 33 bits
_LOWER = _k(0x000000007FFFFFFF)  # low 31 bits
_ONE = _k(1)
# tempering
_TU, _TD = _k(29), _k(0x5555555555555555)
_TS, _TB = _k(17), _k(0x71D67FFFEDA60000)
_TT, _TC = _k(37), _k(0xFFF7EEE000000000)
_TL = _k(43)

_MASK32 = 0xFFFFFFFF


def _seed_seq_generate(values, count):
    """std::seed_seq::generate for ``values`` (already reduced mod 2**32).

    Returns ``count`` 32-bit words as a list of Python ints.  This runs once
    per reseed (a few thousand integer steps), never per random number.
    """
    n = count
    s = len(values)
    b = [0x8B8B8B8B] * n
    if n == 0:
        return b
    if n >= 623:
        t = 11
    elif n >= 68:
        t = 7
    elif n >= 39:
        t = 5
    elif n >= 7:
        t = 3
    else:
        t = (n - 1) // 2
    p = (n - t) // 2
    q = p + t
    m = max(s + 1, n)
    for k in range(m):
        x = b[k % n] ^ b[(k + p) % n] ^ b[(k - 1) % n]
        r1 = ((x ^ (x >> 27)) * 1664525) & _MASK32
        if k == 0:
            r2 = r1 + s
        elif k <= s:
            r2 = r1 + k % n + values[k - 1]
        else:
            r2 = r1 + k % n
        r2 &= _MASK32
        b[(k + p) % n] = (b[(k + p) % n] + r1) & _MASK32
        b[(k + q) % n] = (b[(k + q) % n] + r2) & _MASK32
        b[k % n] = r2
    for k in range(m, m + n):
        x = (b[k % n] + b[(k + p) % n] + b[(k - 1) % n]) & _MASK32
        r3 = ((x ^ (x >> 27)) * 1566083941) & _MASK32
        r4 = (r3 - k % n) & _MASK32
        b[(k + p) % n] ^= r3
        b[(k + q) % n] ^= r4
        b[k % n] = r4
    return b


def mt19937_64_seed_words(seed):
    """State words of ``std::mt19937_64(std::seed_seq{seed})``.

    ``seed`` is any integer; like libstdc++, seed_seq keeps it modulo 2**32.
    """
    words = _seed_seq_generate([int(seed) & _MASK32], 2 * _N)
    w = np.array(words, dtype=np.uint64)
    state = w[0::2] | (w[1::2] << np.uint64(32))
    # An all-zero significant state is replaced by the standard fallback.
    if (int(state[0]) & int(_UPPER)) == 0 and not state[1:].any():
        state[0] = np.uint64(1 << 63)
    return state


def _mt19937_64_int_seed(value):
    """State words of ``mt19937_64::seed(value)`` (the plain integer seeding,
    used by kernels that get an op-level ``seed`` attribute)."""
    mask = (1 << 64) - 1
    x = [int(value) & mask]
    for i in range(1, _N):
        prev = x[-1]
        x.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & mask)
    return np.array(x, dtype=np.uint64)


_A_INT = int(_MATRIX_A)
_UPPER_INT = int(_UPPER)
_LOWER_INT = int(_LOWER)


def _extend(seq, nblocks):
    """Fill generations 1..nblocks of ``seq`` (shape ((nblocks+1)*312,),
    generation 0 = current state) in place.

    For one generation ``old -> new`` the twist term
    ``t[i] = (((old[i] & UPPER) | (old[i+1] & LOWER)) >> 1) ^ (A if old[i+1]
    is odd)`` only involves old words for i < 311, so it is one vector
    expression; then ``new[:156] = old[156:] ^ t[:156]``,
    ``new[156:311] = new[:155] ^ t[156:]`` and the last word (which needs
    ``new[0]``) is done on Python ints."""
    rows = seq.reshape(nblocks + 1, _N)
    t = np.empty(_N - 1, dtype=np.uint64)
    m = np.empty(_N - 1, dtype=np.uint64)
    xor, band, shr, mul = np.bitwise_xor, np.bitwise_and, np.right_shift, np.multiply
    upper, one, mag = _UPPER, _ONE, _MATRIX_A
    t_lo, t_hi = t[:_HALF], t[_HALF:]
    for b in range(nblocks):
        old = rows[b]
        new = rows[b + 1]
        hi = old[1:]
        xor(old[:-1], hi, t)
        band(t, upper, t)
        xor(t, hi, t)  # (old[i] & UPPER) | (old[i+1] & LOWER)
        shr(t, one, t)
        band(hi, one, m)
        mul(m, mag, m)
        xor(t, m, t)
        xor(old[_M:], t_lo, new[:_HALF])
        xor(new[: _N - 1 - _HALF], t_hi, new[_HALF : _N - 1])
        first = new.item(0)
        y = (old.item(_N - 1) & _UPPER_INT) | (first & _LOWER_INT)
        last = new.item(_M - 1) ^ (y >> 1)
        if first & 1:
            last ^= _A_INT
        new[_N - 1] = last


_TCHUNK = 1 << 15  # words per tempering pass: keeps the temporaries in cache


def _temper(x, out=None):
    """mt19937_64 output tempering of the words ``x`` (no temporaries beyond
    one cache-sized scratch buffer)."""
    n = x.size
    if out is None:
        out = np.empty(n, dtype=np.uint64)
    scratch = np.empty(min(n, _TCHUNK), dtype=np.uint64)
    for s in range(0, n, _TCHUNK):
        e = min(s + _TCHUNK, n)
        xs = x[s:e]
        y = out[s:e]
        t = scratch[: e - s]
        np.right_shift(xs, _TU, t)
        np.bitwise_and(t, _TD, t)
        np.bitwise_xor(xs, t, y)
        np.left_shift(y, _TS, t)
        np.bitwise_and(t, _TB, t)
        np.bitwise_xor(y, t, y)
        np.left_shift(y, _TT, t)
        np.bitwise_and(t, _TC, t)
        np.bitwise_xor(y, t, y)
        np.right_shift(y, _TL, t)
        np.bitwise_xor(y, t, y)
    return out


class GeneratorState:
    """Copyable snapshot of a :class:`Generator`.

    ``mt`` holds the 312 state words, ``pos`` the index of the next word to
    temper (312 means the next draw twists first), ``seed`` the value that
    ``initial_seed()`` reports.  ``offset`` mirrors Paddle's ``thread_offset``
    (always 0 on CPU).
    """

    __slots__ = ("mt", "pos", "seed", "offset")

    def __init__(self, mt, pos, seed, offset=0):
        self.mt = np.array(mt, dtype=np.uint64, copy=True)
        if self.mt.shape != (_N,):
            raise ValueError("mt19937_64 state needs 312 words")
        self.pos = int(pos)
        if not 0 <= self.pos <= _N:
            raise ValueError("state position must be in [0, 312]")
        self.seed = int(seed)
        self.offset = int(offset)

    def clone(self):
        return GeneratorState(self.mt, self.pos, self.seed, self.offset)

    def current_seed(self):
        """The seed the generator was last seeded with (Paddle's ``GeneratorState`` method)."""
        return self.seed

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    def __eq__(self, other):
        if not isinstance(other, GeneratorState):
            return NotImplemented
        return (
            self.pos == other.pos
            and self.seed == other.seed
            and self.offset == other.offset
            and np.array_equal(self.mt, other.mt)
        )

    def __getstate__(self):
        return (self.mt.tolist(), self.pos, self.seed, self.offset)

    def __setstate__(self, st):
        mt, pos, seed, offset = st
        self.mt = np.array(mt, dtype=np.uint64)
        self.pos, self.seed, self.offset = int(pos), int(seed), int(offset)

    def engine_text(self):
        """The engine as ``operator<<`` of libstdc++ prints it (words, then
        position) -- handy for comparing with Paddle's own state dump."""
        return " ".join(str(int(v)) for v in self.mt) + " " + str(self.pos)

    def __repr__(self):
        return f"GeneratorState(seed={self.seed}, pos={self.pos})"


def _random_seed():
    # Paddle: two 32-bit random_device words, kept to 53 bits.
    return int.from_bytes(os.urandom(8), "little") & 0x1FFFFFFFFFFFFF


class Generator:
    """Numpy twin of Paddle's CPU generator (``std::mt19937_64``).

    ``Generator(seed)`` seeds deterministically; ``Generator()`` picks a
    random 53-bit seed like Paddle's default generator.
    """

    def __init__(self, seed=None):
        self._mt = np.zeros(_N, dtype=np.uint64)
        self._pos = _N
        self._seed = 0
        self._offset = 0
        self._tout = None  # tempered copy of the current generation, lazily
        self._peek_cache = None  # (stream, start, length) of the last peek
        if seed is None:
            self.seed()
        else:
            self.manual_seed(seed)

    def _set_words(self, mt, pos):
        self._mt = mt
        self._pos = pos
        self._tout = None
        self._peek_cache = None

    # -- seeding --------------------------------------------------------
    def manual_seed(self, seed):
        """Reseed through ``std::seed_seq{seed}``; returns ``self``."""
        seed = int(seed)
        if not 0 <= seed < (1 << 64):
            # Paddle's manual_seed takes a uint64_t and rejects anything else
            raise ValueError(f"seed must be in [0, 2**64), got {seed}")
        self._set_words(mt19937_64_seed_words(seed), _N)
        self._seed = seed
        self._offset = 0
        return self

    def seed(self):
        """Reseed from OS entropy (53 bits, as Paddle); returns the seed."""
        s = _random_seed()
        self.manual_seed(s)
        return s

    def initial_seed(self):
        return self._seed

    # -- state ----------------------------------------------------------
    def get_state(self):
        return GeneratorState(self._mt, self._pos, self._seed, self._offset)

    def set_state(self, state):
        if not isinstance(state, GeneratorState):
            raise TypeError("set_state expects a GeneratorState")
        self._set_words(state.mt.copy(), state.pos)
        self._seed = state.seed
        self._offset = state.offset
        return self

    def clone(self):
        g = Generator.__new__(Generator)
        g._tout = None
        g._peek_cache = None
        return g.set_state(self.get_state())

    # -- drawing --------------------------------------------------------
    def _run(self, kernel, out, *args):
        """Run a C kernel that draws into ``out`` from this engine and moves it on.  The
        kernel works on a copy of the words that then becomes the state (a moved engine
        never keeps its words array, as with the numpy path)."""
        mt = self._mt.copy()
        self._pos = kernel(mt, self._pos, out, *args)
        self._mt = mt
        self._tout = None
        self._peek_cache = None
        return out

    def _stream(self, n):
        """Untempered words reaching ``n`` ahead: (seq, start) with the next n
        outputs being temper(seq[start:start+n]); seq[:312] is the current
        generation, later generations follow (nothing is committed)."""
        avail = _N - self._pos
        if n <= avail:
            return self._mt, self._pos
        nblocks = -(-(n - avail) // _N)
        seq = np.empty((nblocks + 1) * _N, dtype=np.uint64)
        seq[:_N] = self._mt
        _extend(seq, nblocks)
        return seq, self._pos

    def _commit(self, seq, start, used):
        """Move the engine past ``used`` words of a stream from _stream."""
        end = start + used
        if end <= _N:
            self._pos = end
            return
        # generation holding the last consumed word; like C++, a generation
        # used up to its end stays current (position 312) until the next draw
        blk = (end - 1) // _N
        self._mt = seq[blk * _N : (blk + 1) * _N].copy()
        self._pos = end - blk * _N
        self._tout = None

    def _draw(self, n, consume):
        if n <= _N - self._pos:
            if self._tout is None:
                self._tout = _temper(self._mt)
            out = self._tout[self._pos : self._pos + n]
            if consume:
                self._pos += n
                return out.copy()
            self._peek_cache = None
            view = out.view()
            view.flags.writeable = False
            return view
        seq, start = self._stream(n)
        out = _temper(seq[start : start + n])
        if consume:
            self._commit(seq, start, n)
        else:
            self._peek_cache = (seq, start, n)
        return out

    def random_raw(self, n):
        """Next ``n`` 64-bit outputs (``uint64`` array), consuming them."""
        n = int(n)
        if n < 0:
            raise ValueError("n must be >= 0")
        self._peek_cache = None
        if _fast is not None:
            out = np.empty(n, dtype=np.uint64)
            return self._run(_fast.raw, out) if n else out
        return self._draw(n, True)

    def peek_raw(self, n):
        """Next ``n`` outputs (read-only array) without consuming them.
        Follow with :meth:`advance` to consume a prefix -- rejection samplers
        only know afterwards how many words they used."""
        n = int(n)
        if n < 0:
            raise ValueError("n must be >= 0")
        if _fast is not None:
            out = np.empty(n, dtype=np.uint64)
            if n:
                _fast.raw(self._mt.copy(), self._pos, out)
            return out
        return self._draw(n, False)

    def advance(self, k):
        """Consume ``k`` outputs without returning them."""
        k = int(k)
        if k < 0:
            raise ValueError("k must be >= 0")
        cache = self._peek_cache
        self._peek_cache = None
        if k == 0:
            return
        if _fast is not None:
            mt = self._mt.copy()
            self._pos = _fast.skip(mt, self._pos, k)
            self._mt = mt
            self._tout = None
            return
        if k <= _N - self._pos:
            self._pos += k
            return
        if cache is not None and k <= cache[2]:
            self._commit(cache[0], cache[1], k)
            return
        while k > 0:
            step = min(k, 1 << 22)
            seq, start = self._stream(step)
            self._commit(seq, start, step)
            k -= step

    def random64(self):
        """One 64-bit output as a Python int (Paddle's ``Generator.random``)."""
        return int(self.random_raw(1)[0])

    def __repr__(self):
        return f"Generator(initial_seed={self._seed})"

    def __getstate__(self):
        return self.get_state().__getstate__()

    def __setstate__(self, st):
        s = GeneratorState.__new__(GeneratorState)
        s.__setstate__(st)
        self._peek_cache = None
        self.set_state(s)

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()
