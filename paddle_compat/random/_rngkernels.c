/* Optional C kernels for paddle_compat.random: the mt19937_64 engine and the
 * distributions that dominate big seeded draws (raw words, canonical floats,
 * uniform, Marsaglia-polar normals, bounded integers, std::shuffle, dropout
 * keep flags).
 *
 * Every function here computes exactly what the numpy code of engine.py and
 * distributions.py computes (that code is the reference and the fallback when
 * this module is not built; tests/test_rng_kernels.py compares the two bit for
 * bit).  So the arithmetic is done step by step in the same type, each
 * operation rounded on its own: no fused multiply-add (fp-contract off below
 * and in setup.py) and no excess precision (FLT_EVAL_METHOD must be 0).
 *
 * The engine state is a 312-word uint64 array plus a position in [0, 312]; a
 * kernel updates the words in place (twisting lazily, only when a word is
 * needed at position 312, as libstdc++ does) and returns the new position
 * (engine.Generator hands it a copy of its words and keeps the result).  All
 * functions hold the GIL.  Where a build makes the compiler fail on the checks
 * below, setup.py goes on without the module and the numpy code runs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#if defined(_MSC_VER)
#pragma fp_contract(off)
#endif

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "the RNG kernels need float/double arithmetic without excess precision"
#endif
#if defined(__FAST_MATH__)
#error "the RNG kernels need IEEE arithmetic and the C library's log: no -ffast-math"
#endif

#define MT_N 312
#define MT_M 156
#define MT_A UINT64_C(0xB5026F5AA96619E9)
#define MT_UPPER UINT64_C(0xFFFFFFFF80000000)
#define MT_LOWER UINT64_C(0x000000007FFFFFFF)

/* ------------------------------------------------------------------------ */
/* the engine                                                               */
/* ------------------------------------------------------------------------ */
/* The engine's twist and its tempered output (eng_fill) are integer arithmetic only (the  */
/* same bits on any target). With GCC on x86-64 glibc they are also built for AVX2 and     */
/* AVX-512F, and the CPU picks the build when the module loads (a function clone, resolved  */
/* once): both vectorise there. Every kernel drawing words gains; dropout's keep flags here */
/* (AMD EPYC, 131,072 flags): 162 us plain, 100 us AVX2, 88 us AVX-512F.                     */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define KEEP_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define KEEP_CLONES
#endif

KEEP_CLONES static void
mt_twist(uint64_t *mt)
{
    int i;
    uint64_t x;
    for (i = 0; i < MT_N - MT_M; i++) {
        x = (mt[i] & MT_UPPER) | (mt[i + 1] & MT_LOWER);
        mt[i] = mt[i + MT_M] ^ (x >> 1) ^ (-(mt[i + 1] & 1) & MT_A);
    }
    for (; i < MT_N - 1; i++) {
        x = (mt[i] & MT_UPPER) | (mt[i + 1] & MT_LOWER);
        mt[i] = mt[i + MT_M - MT_N] ^ (x >> 1) ^ (-(mt[i + 1] & 1) & MT_A);
    }
    x = (mt[MT_N - 1] & MT_UPPER) | (mt[0] & MT_LOWER);
    mt[MT_N - 1] = mt[MT_M - 1] ^ (x >> 1) ^ (-(mt[0] & 1) & MT_A);
}

static inline uint64_t
mt_temper(uint64_t y)
{
    y ^= (y >> 29) & UINT64_C(0x5555555555555555);
    y ^= (y << 17) & UINT64_C(0x71D67FFFEDA60000);
    y ^= (y << 37) & UINT64_C(0xFFF7EEE000000000);
    y ^= y >> 43;
    return y;
}

typedef struct {
    uint64_t *mt;
    Py_ssize_t pos;
} engine;

/* the next n outputs into out */
KEEP_CLONES static void
eng_fill(engine *e, uint64_t *out, Py_ssize_t n)
{
    while (n > 0) {
        Py_ssize_t m, i;
        const uint64_t *src;
        if (e->pos >= MT_N) {
            mt_twist(e->mt);
            e->pos = 0;
        }
        m = MT_N - e->pos;
        if (m > n)
            m = n;
        src = e->mt + e->pos;
        for (i = 0; i < m; i++)
            out[i] = mt_temper(src[i]);
        e->pos += m;
        out += m;
        n -= m;
    }
}

static void
eng_skip(engine *e, unsigned long long k)
{
    while (k > 0) {
        unsigned long long m;
        if (e->pos >= MT_N) {
            mt_twist(e->mt);
            e->pos = 0;
        }
        m = (unsigned long long)(MT_N - e->pos);
        if (m > k)
            m = k;
        e->pos += (Py_ssize_t)m;
        k -= m;
    }
}

/* ------------------------------------------------------------------------ */
/* canonical floats: the correctly rounded T(w) * 2**-64, capped below 1    */
/* ------------------------------------------------------------------------ */
/* The conversions are branch-free (random words have a random top bit, so the
 * compiler's own unsigned conversion would mispredict half the time): a word
 * with the top bit set is halved with its lowest bit kept as a sticky bit,
 * which rounds the same way, converted as a signed integer and scaled by
 * 2**-63 instead of 2**-64 (both scalings are exact). */
static const float scale_f32[2] = {0x1p-64f, 0x1p-63f};
static const double scale_f64[2] = {0x1p-64, 0x1p-63};

static inline float
canon_f32(uint64_t w)
{
    uint64_t s = w >> 63;
    float v = (float)(int64_t)((w >> s) | (w & s));
    v = v * scale_f32[s];
    return v < 1.0f ? v : 0x1.fffffep-1f;
}

static inline double
canon_f64(uint64_t w)
{
    uint64_t s = w >> 63;
    double v = (double)(int64_t)((w >> s) | (w & s));
    v = v * scale_f64[s];
    return v < 1.0 ? v : 0x1.fffffffffffffp-1;
}

/* ------------------------------------------------------------------------ */
/* glibc's logf (Arm optimized-routines algorithm), as distributions.py     */
/* ------------------------------------------------------------------------ */
static const double logf_invc[16] = {
    0x1.661ec79f8f3bep+0, 0x1.571ed4aaf883dp+0, 0x1.49539f0f010bp+0,
    0x1.3c995b0b80385p+0, 0x1.30d190c8864a5p+0, 0x1.25e227b0b8eap+0,
    0x1.1bb4a4a1a343fp+0, 0x1.12358f08ae5bap+0, 0x1.0953f419900a7p+0,
    0x1p+0, 0x1.e608cfd9a47acp-1, 0x1.ca4b31f026aap-1,
    0x1.b2036576afce6p-1, 0x1.9c2d163a1aa2dp-1, 0x1.886e6037841edp-1,
    0x1.767dcf5534862p-1,
};
static const double logf_logc[16] = {
    -0x1.57bf7808caadep-2, -0x1.2bef0a7c06ddbp-2, -0x1.01eae7f513a67p-2,
    -0x1.b31d8a68224e9p-3, -0x1.6574f0ac07758p-3, -0x1.1aa2bc79c81p-3,
    -0x1.a4e76ce8c0e5ep-4, -0x1.1973c5a611cccp-4, -0x1.252f438e10c1ep-5,
    0x0p+0, 0x1.aa5aa5df25984p-5, 0x1.c5e53aa362eb4p-4,
    0x1.526e57720db08p-3, 0x1.bc2860d22477p-3, 0x1.1058bc8a07ee1p-2,
    0x1.4043057b6ee09p-2,
};

/* positive finite x only (the polar method's r2 in (0, 1]) */
static inline float
glibc_logf(float x)
{
    uint32_t ix, tmp, iz;
    int32_t k;
    int i;
    float zf;
    double z, r, r2, y, kk;
    memcpy(&ix, &x, 4);
    if (ix < 0x00800000u) { /* subnormal: scale into the normal range */
        float s = x * 0x1p23f;
        memcpy(&ix, &s, 4);
        ix -= 23u << 23;
    }
    tmp = ix - 0x3f330000u;
    i = (int)((tmp >> 19) & 15u);
    k = (int32_t)tmp >> 23;
    iz = ix - (tmp & 0xff800000u);
    memcpy(&zf, &iz, 4);
    z = (double)zf;
    r = logf_invc[i] * z;
    r = r - 1.0;
    kk = (double)k * 0x1.62e42fefa39efp-1;
    kk = kk + logf_logc[i];
    r2 = r * r;
    y = r * 0x1.5575b0be00b6ap-2;
    y = y + -0x1.ffffef20a4123p-2;
    y = y + r2 * -0x1.00ea348b88334p-2;
    y = y * r2;
    kk = kk + r;
    y = y + kk;
    return (float)y;
}

/* ------------------------------------------------------------------------ */
/* argument helpers                                                          */
/* ------------------------------------------------------------------------ */
static int
get_state(PyObject *obj, Py_buffer *view, PyObject *posobj, engine *e)
{
    Py_ssize_t pos;
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (view->itemsize != 8 || view->len != MT_N * 8) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "mt19937_64 state must be 312 64-bit words");
        return -1;
    }
    pos = PyLong_AsSsize_t(posobj);
    if (pos == -1 && PyErr_Occurred()) {
        PyBuffer_Release(view);
        return -1;
    }
    if (pos < 0 || pos > MT_N) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "state position must be in [0, 312]");
        return -1;
    }
    e->mt = (uint64_t *)view->buf;
    e->pos = pos;
    return 0;
}

/* kind: 'f' float32, 'd' float64, 'w' any 8-byte integer (bits), 0 on error */
static char
get_out(PyObject *obj, Py_buffer *view, int writable)
{
    const char *f;
    char c;
    int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0)
        return 0;
    f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    c = f[0];
    if (c != 0 && f[1] == 0) {
        if (c == 'f' && view->itemsize == 4)
            return 'f';
        if (c == 'd' && view->itemsize == 8)
            return 'd';
        if ((c == 'Q' || c == 'q' || c == 'L' || c == 'l') && view->itemsize == 8)
            return 'w';
    }
    PyBuffer_Release(view);
    PyErr_SetString(PyExc_TypeError, "unsupported buffer type for the RNG kernels");
    return 0;
}

static int
check_nargs(Py_ssize_t nargs, Py_ssize_t want, const char *name)
{
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, want, nargs);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* raw(mt, pos, out) -> pos: the next len(out) outputs into a uint64 array   */
/* ------------------------------------------------------------------------ */
static PyObject *
k_raw(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer st, out;
    engine e;
    char kind;
    if (check_nargs(nargs, 3, "raw") < 0 || get_state(args[0], &st, args[1], &e) < 0)
        return NULL;
    kind = get_out(args[2], &out, 1);
    if (!kind) {
        PyBuffer_Release(&st);
        return NULL;
    }
    if (kind != 'w') {
        PyBuffer_Release(&out);
        PyBuffer_Release(&st);
        PyErr_SetString(PyExc_TypeError, "raw() needs a 64-bit integer output");
        return NULL;
    }
    eng_fill(&e, (uint64_t *)out.buf, out.len / 8);
    PyBuffer_Release(&out);
    PyBuffer_Release(&st);
    return PyLong_FromSsize_t(e.pos);
}

/* skip(mt, pos, k) -> pos: consume k outputs */
static PyObject *
k_skip(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer st;
    engine e;
    unsigned long long k;
    if (check_nargs(nargs, 3, "skip") < 0)
        return NULL;
    k = PyLong_AsUnsignedLongLong(args[2]);
    if (k == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    if (get_state(args[0], &st, args[1], &e) < 0)
        return NULL;
    eng_skip(&e, k);
    PyBuffer_Release(&st);
    return PyLong_FromSsize_t(e.pos);
}

/* ------------------------------------------------------------------------ */
/* canonical(words, out): canonical floats of uint64 words (out f32 or f64)  */
/* ------------------------------------------------------------------------ */
static PyObject *
k_canonical(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer in, out;
    char ki, ko;
    Py_ssize_t n, i;
    if (check_nargs(nargs, 2, "canonical") < 0)
        return NULL;
    ki = get_out(args[0], &in, 0);
    if (!ki)
        return NULL;
    ko = get_out(args[1], &out, 1);
    if (!ko) {
        PyBuffer_Release(&in);
        return NULL;
    }
    n = in.len / 8;
    if (ki != 'w' || ko == 'w' || out.len / out.itemsize != n) {
        PyBuffer_Release(&out);
        PyBuffer_Release(&in);
        PyErr_SetString(PyExc_TypeError, "canonical() needs uint64 words and a float output of their size");
        return NULL;
    }
    if (ko == 'f') {
        const uint64_t *w = (const uint64_t *)in.buf;
        float *o = (float *)out.buf;
        for (i = 0; i < n; i++)
            o[i] = canon_f32(w[i]);
    }
    else {
        const uint64_t *w = (const uint64_t *)in.buf;
        double *o = (double *)out.buf;
        for (i = 0; i < n; i++)
            o[i] = canon_f64(w[i]);
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&in);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------ */
/* uniform(mt, pos, out, lo, span) -> pos: canonical * span + lo, in out's   */
/* type (lo and span already hold values of that type)                      */
/* ------------------------------------------------------------------------ */
#define BLOCK 512

static PyObject *
k_uniform(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer st, out;
    engine e;
    char kind;
    double lo, span;
    Py_ssize_t n, done = 0;
    uint64_t buf[BLOCK];
    if (check_nargs(nargs, 5, "uniform") < 0)
        return NULL;
    lo = PyFloat_AsDouble(args[3]);
    if (lo == -1.0 && PyErr_Occurred())
        return NULL;
    span = PyFloat_AsDouble(args[4]);
    if (span == -1.0 && PyErr_Occurred())
        return NULL;
    if (get_state(args[0], &st, args[1], &e) < 0)
        return NULL;
    kind = get_out(args[2], &out, 1);
    if (!kind || kind == 'w') {
        if (kind)
            PyBuffer_Release(&out);
        PyBuffer_Release(&st);
        if (kind)
            PyErr_SetString(PyExc_TypeError, "uniform() needs a float32/float64 output");
        return NULL;
    }
    n = out.len / out.itemsize;
    if (kind == 'f') {
        float *o = (float *)out.buf;
        const float flo = (float)lo, fspan = (float)span;
        while (done < n) {
            Py_ssize_t m = n - done < BLOCK ? n - done : BLOCK, i;
            eng_fill(&e, buf, m);
            for (i = 0; i < m; i++) {
                float v = canon_f32(buf[i]);
                v = v * fspan;
                o[done + i] = v + flo;
            }
            done += m;
        }
    }
    else {
        double *o = (double *)out.buf;
        while (done < n) {
            Py_ssize_t m = n - done < BLOCK ? n - done : BLOCK, i;
            eng_fill(&e, buf, m);
            for (i = 0; i < m; i++) {
                double v = canon_f64(buf[i]);
                v = v * span;
                o[done + i] = v + lo;
            }
            done += m;
        }
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&st);
    return PyLong_FromSsize_t(e.pos);
}

/* ------------------------------------------------------------------------ */
/* normal(mt, pos, out, mean, std) -> pos                                    */
/*                                                                          */
/* len(out) values of one fresh std::normal_distribution<T> (Marsaglia's    */
/* polar method, libstdc++), each then times std plus mean in T.  Pairs of  */
/* words give x = 2*u1 - 1, y = 2*u2 - 1; pairs with r2 = x*x + y*y outside */
/* (0, 1] are skipped; an accepted pair yields y*m then x*m with            */
/* m = sqrt(-2*log(r2)/r2).  A spare left by an odd count is dropped.       */
/* Words are drawn at most two per missing pair, so nothing past the last   */
/* accepted pair is consumed.                                               */
/* ------------------------------------------------------------------------ */
#define PAIRS 256

/* The pass over accepted pairs is split so that the compiler can vectorise the
 * part after the logarithm (division, square root, the products and the
 * interleaving of y*m, x*m); every value is still rounded exactly as the
 * scalar steps would round it. */
static void
normal_f32(engine *e, float *o, Py_ssize_t n, float mean, float sd)
{
    Py_ssize_t pairs = (n + 1) / 2, got = 0;
    uint64_t buf[2 * PAIRS];
    float xs[PAIRS], ys[PAIRS], rs[PAIRS], ls[PAIRS], pb[2 * PAIRS];
    while (got < pairs) {
        Py_ssize_t want = pairs - got, k = want < PAIRS ? want : PAIRS, i, acc = 0, left;
        eng_fill(e, buf, 2 * k);
        for (i = 0; i < k; i++) {
            float x = canon_f32(buf[2 * i]), y = canon_f32(buf[2 * i + 1]), xx, yy, r2;
            x = x * 2.0f;
            x = x - 1.0f;
            y = y * 2.0f;
            y = y - 1.0f;
            xx = x * x;
            yy = y * y;
            r2 = xx + yy;
            xs[acc] = x;
            ys[acc] = y;
            rs[acc] = r2;
            acc += (r2 <= 1.0f) & (r2 != 0.0f);
        }
        for (i = 0; i < acc; i++)
            ls[i] = glibc_logf(rs[i]);
        for (i = 0; i < acc; i++) {
            float m = ls[i] * -2.0f, a, b;
            m = m / rs[i];
            m = sqrtf(m);
            a = ys[i] * m;
            a = a * sd;
            b = xs[i] * m;
            b = b * sd;
            pb[2 * i] = a + mean;
            pb[2 * i + 1] = b + mean;
        }
        left = n - 2 * got;
        memcpy(o + 2 * got, pb, sizeof(float) * (size_t)(2 * acc < left ? 2 * acc : left));
        got += acc;
    }
}

static void
normal_f64(engine *e, double *o, Py_ssize_t n, double mean, double sd)
{
    Py_ssize_t pairs = (n + 1) / 2, got = 0;
    uint64_t buf[2 * PAIRS];
    double xs[PAIRS], ys[PAIRS], rs[PAIRS], ls[PAIRS], pb[2 * PAIRS];
    while (got < pairs) {
        Py_ssize_t want = pairs - got, k = want < PAIRS ? want : PAIRS, i, acc = 0, left;
        eng_fill(e, buf, 2 * k);
        for (i = 0; i < k; i++) {
            double x = canon_f64(buf[2 * i]), y = canon_f64(buf[2 * i + 1]), xx, yy, r2;
            x = x * 2.0;
            x = x - 1.0;
            y = y * 2.0;
            y = y - 1.0;
            xx = x * x;
            yy = y * y;
            r2 = xx + yy;
            xs[acc] = x;
            ys[acc] = y;
            rs[acc] = r2;
            acc += (r2 <= 1.0) & (r2 != 0.0);
        }
        for (i = 0; i < acc; i++)
            ls[i] = log(rs[i]); /* the C library's log, as Paddle's std::log */
        for (i = 0; i < acc; i++) {
            double m = ls[i] * -2.0, a, b;
            m = m / rs[i];
            m = sqrt(m);
            a = ys[i] * m;
            a = a * sd;
            b = xs[i] * m;
            b = b * sd;
            pb[2 * i] = a + mean;
            pb[2 * i + 1] = b + mean;
        }
        left = n - 2 * got;
        memcpy(o + 2 * got, pb, sizeof(double) * (size_t)(2 * acc < left ? 2 * acc : left));
        got += acc;
    }
}

static PyObject *
k_normal(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer st, out;
    engine e;
    char kind;
    double mean, sd;
    if (check_nargs(nargs, 5, "normal") < 0)
        return NULL;
    mean = PyFloat_AsDouble(args[3]);
    if (mean == -1.0 && PyErr_Occurred())
        return NULL;
    sd = PyFloat_AsDouble(args[4]);
    if (sd == -1.0 && PyErr_Occurred())
        return NULL;
    if (get_state(args[0], &st, args[1], &e) < 0)
        return NULL;
    kind = get_out(args[2], &out, 1);
    if (!kind || kind == 'w') {
        if (kind)
            PyBuffer_Release(&out);
        PyBuffer_Release(&st);
        if (kind)
            PyErr_SetString(PyExc_TypeError, "normal() needs a float32/float64 output");
        return NULL;
    }
    if (kind == 'f')
        normal_f32(&e, (float *)out.buf, out.len / 4, (float)mean, (float)sd);
    else
        normal_f64(&e, (double *)out.buf, out.len / 8, mean, sd);
    PyBuffer_Release(&out);
    PyBuffer_Release(&st);
    return PyLong_FromSsize_t(e.pos);
}

/* ------------------------------------------------------------------------ */
/* bounded(mt, pos, out, r, low) -> pos                                      */
/*                                                                          */
/* len(out) draws of libstdc++'s uniform_int over [0, r) (1 <= r < 2**64),  */
/* plus low, as 64-bit words: Lemire's multiply-shift, a word being         */
/* rejected while the low half of w * r is below 2**64 mod r.               */
/* ------------------------------------------------------------------------ */
static inline uint64_t
mul_hi_lo(uint64_t a, uint64_t b, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
    unsigned __int128 p = (unsigned __int128)a * b;
    *lo = (uint64_t)p;
    return (uint64_t)(p >> 64);
#else
    uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
    *lo = (ll & 0xFFFFFFFFu) | (mid << 32);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

static PyObject *
k_bounded(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer st, out;
    engine e;
    char kind;
    unsigned long long r;
    long long low;
    uint64_t thr, buf[BLOCK], *o;
    Py_ssize_t n, done = 0;
    if (check_nargs(nargs, 5, "bounded") < 0)
        return NULL;
    r = PyLong_AsUnsignedLongLong(args[3]);
    if (r == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    low = PyLong_AsLongLong(args[4]);
    if (low == -1 && PyErr_Occurred())
        return NULL;
    if (r == 0) {
        PyErr_SetString(PyExc_ValueError, "bounded() needs a range >= 1");
        return NULL;
    }
    if (get_state(args[0], &st, args[1], &e) < 0)
        return NULL;
    kind = get_out(args[2], &out, 1);
    if (kind != 'w') {
        if (kind) {
            PyBuffer_Release(&out);
            PyErr_SetString(PyExc_TypeError, "bounded() needs a 64-bit integer output");
        }
        PyBuffer_Release(&st);
        return NULL;
    }
    thr = (uint64_t)(0 - (uint64_t)r) % (uint64_t)r;
    o = (uint64_t *)out.buf;
    n = out.len / 8;
    while (done < n) {
        /* one word per draw at least: never more words than draws missing */
        Py_ssize_t m = n - done < BLOCK ? n - done : BLOCK, i;
        eng_fill(&e, buf, m);
        for (i = 0; i < m; i++) {
            uint64_t lo, hi = mul_hi_lo(buf[i], (uint64_t)r, &lo);
            o[done] = hi + (uint64_t)low;
            done += lo >= thr;
        }
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&st);
    return PyLong_FromSsize_t(e.pos);
}

/* ------------------------------------------------------------------------ */
/* shuffle(mt, pos, out) -> pos: out (int64) = std::shuffle of 0..n-1        */
/*                                                                          */
/* libstdc++'s algorithm for a 64-bit engine: for an even n, position 1 is  */
/* swapped with uniform_int(0, 1); then positions go in pairs (i, i+1),     */
/* both targets from one uniform_int over [0, (i+1)*(i+2)) value x, as      */
/* x / (i+2) and x % (i+2).  The swaps are done in order, as in C++.        */
/* ------------------------------------------------------------------------ */
static inline uint64_t
eng_next(engine *e)
{
    if (e->pos >= MT_N) {
        mt_twist(e->mt);
        e->pos = 0;
    }
    return mt_temper(e->mt[e->pos++]);
}

static inline uint64_t
bounded_one(engine *e, uint64_t r)
{
    uint64_t lo, hi = mul_hi_lo(eng_next(e), r, &lo);
    if (lo < r) {
        uint64_t thr = (0 - r) % r;
        while (lo < thr)
            hi = mul_hi_lo(eng_next(e), r, &lo);
    }
    return hi;
}

static PyObject *
k_shuffle(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer st, out;
    engine e;
    char kind;
    int64_t *a, t;
    Py_ssize_t n, i;
    uint64_t j;
    if (check_nargs(nargs, 3, "shuffle") < 0 || get_state(args[0], &st, args[1], &e) < 0)
        return NULL;
    kind = get_out(args[2], &out, 1);
    if (kind != 'w') {
        if (kind) {
            PyBuffer_Release(&out);
            PyErr_SetString(PyExc_TypeError, "shuffle() needs an int64 output");
        }
        PyBuffer_Release(&st);
        return NULL;
    }
    a = (int64_t *)out.buf;
    n = out.len / 8;
    if (n > 0 && UINT64_MAX / (uint64_t)n < (uint64_t)n) {
        PyBuffer_Release(&out);
        PyBuffer_Release(&st);
        PyErr_SetString(PyExc_ValueError, "shuffle() of more than 2**32 elements");
        return NULL;
    }
    for (i = 0; i < n; i++)
        a[i] = i;
    i = 1;
    if (n >= 2 && n % 2 == 0) {
        j = bounded_one(&e, 2);
        t = a[1], a[1] = a[j], a[j] = t;
        i = 2;
    }
    while (i < n) {
        uint64_t b0 = (uint64_t)i + 1, b1 = (uint64_t)i + 2, x = bounded_one(&e, b0 * b1);
        j = x / b1;
        t = a[i], a[i] = a[j], a[j] = t;
        i++;
        j = x % b1;
        t = a[i], a[i] = a[j], a[j] = t;
        i++;
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&st);
    return PyLong_FromSsize_t(e.pos);
}

/* ------------------------------------------------------------------------ */
/* keep(mt, pos, out, threshold) -> pos: dropout's keep flags, one byte per  */
/* word, 1 where the word is >= threshold (the smallest word whose float32   */
/* canonical reaches float32(p): distributions.keep_threshold), else 0       */
/* ------------------------------------------------------------------------ */
static PyObject *
k_keep(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer st, out;
    engine e;
    uint64_t t;
    Py_ssize_t n, done = 0;
    uint64_t buf[BLOCK];
    if (check_nargs(nargs, 4, "keep") < 0)
        return NULL;
    t = PyLong_AsUnsignedLongLong(args[3]);
    if (t == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    if (get_state(args[0], &st, args[1], &e) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[2], &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&st);
        return NULL;
    }
    if (out.itemsize != 1) {
        PyBuffer_Release(&out);
        PyBuffer_Release(&st);
        PyErr_SetString(PyExc_TypeError, "keep() needs a one-byte (bool/uint8) output");
        return NULL;
    }
    n = out.len;
    {
        unsigned char *o = (unsigned char *)out.buf;
        while (done < n) {
            Py_ssize_t m = n - done < BLOCK ? n - done : BLOCK, i;
            eng_fill(&e, buf, m);
            for (i = 0; i < m; i++)
                o[done + i] = (unsigned char)(buf[i] >= t);
            done += m;
        }
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&st);
    return PyLong_FromSsize_t(e.pos);
}


/* ------------------------------------------------------------------------ */
/* poisson_small(u, rates, out) -> (done, used): std::poisson_distribution's */
/* draws for rates below 12 (distributions.poisson's multiplication method): */
/* per element, multiply the canonical doubles of u in order until the      */
/* product is <= exp(-rate); the count minus one goes into out (int64).     */
/* Stops before an element that the rest of u cannot finish.                */
/* ------------------------------------------------------------------------ */
static PyObject *
k_poisson_small(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer u, r, o;
    Py_ssize_t nu, nr, i, pos = 0;
    double last = 0.0, thr = 0.0;
    int have = 0;
    if (check_nargs(nargs, 3, "poisson_small") < 0)
        return NULL;
    if (PyObject_GetBuffer(args[0], &u, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[1], &r, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(&u);
        return NULL;
    }
    if (PyObject_GetBuffer(args[2], &o, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&r);
        PyBuffer_Release(&u);
        return NULL;
    }
    nu = u.len / 8;
    nr = r.len / 8;
    if (u.itemsize != 8 || strcmp(u.format, "d") || r.itemsize != 8 || strcmp(r.format, "d")
        || o.itemsize != 8 || (strcmp(o.format, "l") && strcmp(o.format, "q"))
        || o.len / 8 < nr) {
        PyBuffer_Release(&o);
        PyBuffer_Release(&r);
        PyBuffer_Release(&u);
        PyErr_SetString(PyExc_TypeError, "poisson_small() needs float64 canonicals, float64 rates and an int64 output of their size");
        return NULL;
    }
    {
        const double *uu = (const double *)u.buf, *rr = (const double *)r.buf;
        int64_t *oo = (int64_t *)o.buf;
        for (i = 0; i < nr; i++) {
            double mean = rr[i], prod = 1.0;
            Py_ssize_t p = pos;
            int64_t k = 0;
            if (!have || !(mean == last)) { /* NaN: exp(NaN) again, as the reference */
                thr = exp(-mean);
                last = mean;
                have = 1;
            }
            for (;;) {
                if (p == nu)
                    goto done;
                prod = prod * uu[p++];
                k++;
                if (!(prod > thr))
                    break;
            }
            oo[i] = k - 1;
            pos = p;
        }
    }
done:
    PyBuffer_Release(&o);
    PyBuffer_Release(&r);
    PyBuffer_Release(&u);
    return Py_BuildValue("nn", i, pos);
}

static PyMethodDef methods[] = {
    {"raw", (PyCFunction)(void (*)(void))k_raw, METH_FASTCALL,
     "raw(mt, pos, out) -> pos: the next len(out) 64-bit outputs into a uint64 array"},
    {"skip", (PyCFunction)(void (*)(void))k_skip, METH_FASTCALL,
     "skip(mt, pos, k) -> pos: consume k outputs"},
    {"canonical", (PyCFunction)(void (*)(void))k_canonical, METH_FASTCALL,
     "canonical(words, out): generate_canonical of uint64 words into float32/float64 out"},
    {"uniform", (PyCFunction)(void (*)(void))k_uniform, METH_FASTCALL,
     "uniform(mt, pos, out, lo, span) -> pos: canonical * span + lo in out's float type"},
    {"normal", (PyCFunction)(void (*)(void))k_normal, METH_FASTCALL,
     "normal(mt, pos, out, mean, std) -> pos: polar-method normals * std + mean"},
    {"bounded", (PyCFunction)(void (*)(void))k_bounded, METH_FASTCALL,
     "bounded(mt, pos, out, r, low) -> pos: low + uniform_int over [0, r) as 64-bit words"},
    {"shuffle", (PyCFunction)(void (*)(void))k_shuffle, METH_FASTCALL,
     "shuffle(mt, pos, out) -> pos: std::shuffle of 0..len(out)-1 into an int64 array"},
    {"poisson_small", (PyCFunction)(void (*)(void))k_poisson_small, METH_FASTCALL,
     "poisson_small(u, rates, out) -> (done, used): Poisson draws of rates below 12 from float64 canonicals u"},
    {"keep", (PyCFunction)(void (*)(void))k_keep, METH_FASTCALL,
     "keep(mt, pos, out, threshold) -> pos: 1 where the next word >= threshold, else 0, into a one-byte array"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_rngkernels",
    "C kernels of paddle_compat.random (mt19937_64 and its distributions).", -1, methods,
};

PyMODINIT_FUNC
PyInit__rngkernels(void)
{
    return PyModule_Create(&moddef);
}
