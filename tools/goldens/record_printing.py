"""Record Paddle's tensor printing as goldens for tests/test_printing.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_printing.py

Writes tests/goldens/printing.json, a list of cases. Each case holds what is needed to rebuild
the tensor without Paddle:

* ``dtype`` (Paddle name), ``shape``;
* either ``values``: the flat stored values read back from Paddle (floats, ints, bools; complex
  as ``[re, im]``; NaN/Infinity as JSON's Python extensions), or ``recipe``: a formula evaluated
  with numpy in float64/int64 (see ``recipe_values``), whose results are exactly representable
  in ``dtype`` (checked here);
* ``sha256`` of the stored values (see ``canonical_bytes``), so the test can check its rebuild;
* ``options``: the full print options in force, ``stop_gradient``, and ``text``: ``repr(t)``.
"""
import hashlib
import json
import os
import sys

import numpy as np
import paddle

DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "printing.json")

INF, NAN = float("inf"), float("nan")


def recipe_values(recipe, dtype, n):
    """The flat values of a recipe: numpy only, identical in tests/test_printing.py."""
    i = np.arange(n, dtype=np.int64)

    def part(r):
        return ((i * r["mult"] + r["add"]) % r["mod"] + r["offset"]).astype(np.float64) * r["scale"]

    if dtype in ("complex64", "complex128"):
        v = part(recipe["re"]) + 1j * part(recipe["im"])
    else:
        v = part(recipe)
        if dtype == "bool":
            v = v != 0
        elif dtype not in ("float16", "bfloat16", "float32", "float64"):
            v = v.astype(np.int64)
    for idx, val in recipe.get("overrides", []):
        v[idx] = complex(*val) if isinstance(val, list) else val
    return v


def canonical_bytes(a):
    """The values of numpy array ``a`` as bytes: float64/complex128 with one NaN, or int64/bool.

    Hashing these rather than raw storage ignores NaN sign and payload (which Paddle never
    prints and which differ between Paddle's and torch's bfloat16 conversions).
    """
    a = np.asarray(a)
    if a.dtype.kind in "fc":
        f = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
        f = np.ascontiguousarray(f).view(np.float64).copy()
        f[np.isnan(f)] = np.nan
        return f.tobytes()
    return np.ascontiguousarray(a.astype(bool if a.dtype == bool else np.int64)).tobytes()


def stored_bytes(t):
    """The canonical bytes of the values Paddle stores for ``t``."""
    return canonical_bytes((t.astype("float32") if t.dtype == paddle.bfloat16 else t).numpy())


def stored_values(t):
    """The stored values of ``t`` as a flat JSON-friendly list."""
    a = (t.astype("float32") if t.dtype == paddle.bfloat16 else t).numpy().reshape(-1)
    if np.iscomplexobj(a):
        return [[float(z.real), float(z.imag)] for z in a.tolist()]
    return a.tolist()


def make(dtype, arr):
    if dtype == "bfloat16":
        return paddle.to_tensor(np.asarray(arr, dtype=np.float32)).astype("bfloat16")
    return paddle.to_tensor(np.asarray(arr).astype(dtype))


CASES = []


def case(name, dtype, values=None, shape=None, recipe=None, stop_gradient=True, **opts):
    """Build one tensor in Paddle, print it under ``opts`` and keep the golden."""
    if recipe is not None:
        n = int(np.prod(shape))
        flat = recipe_values(recipe, dtype, n)
        t = make(dtype, flat.reshape(shape))
        back = (t.astype("float32") if dtype == "bfloat16" else t).numpy().reshape(-1)
        assert np.array_equal(back.astype(flat.dtype), flat, equal_nan=flat.dtype.kind in "fc"), \
            f"{name}: recipe not exact in {dtype}"
    else:
        arr = np.array(values)
        if shape is not None:
            arr = arr.reshape(shape)
        t = make(dtype, arr)
    t.stop_gradient = stop_gradient
    full = dict(DEFAULTS, **opts)
    paddle.set_printoptions(**full)
    try:
        text = repr(t)
        assert str(t) == text
    finally:
        paddle.set_printoptions(**DEFAULTS)
    c = dict(name=name, dtype=dtype, shape=list(t.shape))
    if recipe is not None:
        c["recipe"] = recipe
    else:
        c["values"] = stored_values(t)
    c.update(sha256=hashlib.sha256(stored_bytes(t)).hexdigest(), options=full,
             stop_gradient=t.stop_gradient, text=text)
    CASES.append(c)


def R(mult, add, mod, offset, scale, overrides=None):
    r = dict(mult=mult, add=add, mod=mod, offset=offset, scale=scale)
    if overrides:
        r["overrides"] = overrides
    return r


FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTS = ["int8", "int16", "int32", "int64", "uint8"]
COMPLEX = ["complex64", "complex128"]


def record_all():
    rng = np.random.default_rng(20240531)

    # --- every dtype: 0-d, 1-d, 2-d, 3-d -------------------------------------------------
    for dt in FLOATS:
        case(f"{dt}-0d", dt, 3.5)
        case(f"{dt}-0d-neg", dt, -0.1)
        case(f"{dt}-0d-int-valued", dt, 7.0)
        case(f"{dt}-1d", dt, [0.5, -1.25, 3.0, 0.1])
        case(f"{dt}-2d-random", dt, rng.standard_normal((2, 3)))
        case(f"{dt}-3d", dt, (np.arange(12) * 0.75 - 4).reshape(2, 2, 3))
        case(f"{dt}-specials", dt, [1.5, INF, -INF, NAN, -0.0, 0.0])
    for dt in INTS:
        lo = 0 if dt == "uint8" else -5
        case(f"{dt}-0d", dt, 7)
        case(f"{dt}-1d", dt, list(range(lo, lo + 6)))
        case(f"{dt}-2d", dt, (np.arange(6) * 13 + lo).reshape(2, 3))
        case(f"{dt}-3d", dt, (np.arange(12) * 3 + lo).reshape(2, 3, 2))
    case("int8-extremes", "int8", [-128, 127, 0])
    case("uint8-extremes", "uint8", [0, 255, 17])
    case("int16-extremes", "int16", [-32768, 32767])
    case("int32-extremes", "int32", [-2**31, 2**31 - 1, 5])
    case("int64-extremes", "int64", [-2**63, 2**63 - 1, 42])
    case("int64-0d-neg", "int64", -12)
    case("bool-0d", "bool", True)
    case("bool-0d-false", "bool", False)
    case("bool-1d", "bool", [True, False, True])
    case("bool-2d", "bool", [[True, False], [False, False]])
    case("bool-all-true", "bool", [[True, True, True]])
    for dt in COMPLEX:
        case(f"{dt}-0d", dt, 1 + 2j)
        case(f"{dt}-0d-neg-imag", dt, 1.5 - 0.25j)
        case(f"{dt}-1d", dt, [1 + 2j, -1 - 0.5j, 0.25j, 3 + 0j])
        case(f"{dt}-2d-random", dt, rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2)))
        case(f"{dt}-specials", dt, [complex(1, NAN), complex(NAN, 1), complex(-1, NAN),
                                    complex(INF, -INF), complex(2, -0.0), complex(0, -1)])
    case("complex64-only-neg-imag", "complex64", [complex(0, -1), complex(0, 2)])
    case("complex64-neg-real-nan-imag", "complex64", [complex(-1, NAN), complex(2, 1)])
    case("complex128-neg-zero-real", "complex128", [complex(-0.0, -1), complex(2, 1)])
    case("complex64-sci", "complex64", [1e-5 + 2e8j, -3 - 4j], sci_mode=True)
    case("complex128-prec2", "complex128", [1.005 + 2.5j, -3.125 - 4j], precision=2)

    # --- empty tensors -------------------------------------------------------------------
    for shape in ([0], [2, 0], [0, 3], [2, 0, 3], [0, 0], [3, 1, 0]):
        case(f"float32-empty-{shape}", "float32", np.zeros(shape))
    case("int64-empty", "int64", np.zeros([0], dtype=np.int64))
    case("bool-empty-2x0", "bool", np.zeros([2, 0], dtype=bool))
    case("complex64-empty", "complex64", np.zeros([0, 2], dtype=np.complex64))
    case("bfloat16-empty", "bfloat16", np.zeros([2, 0]))
    case("float32-empty-sg-false", "float32", np.zeros([0]), stop_gradient=False)

    # --- 4-d and degenerate shapes --------------------------------------------------------
    case("float32-4d", "float32", (np.arange(24) * 0.5 - 3).reshape(2, 3, 2, 2))
    case("int64-4d", "int64", (np.arange(16) - 8).reshape(2, 2, 2, 2))
    case("float32-1x1x1x1", "float32", np.ones([1, 1, 1, 1]) * 2.5)
    case("float32-row", "float32", [[1.0, 2.5, -3.0, 4.0, 5.0]])
    case("float32-col", "float32", [[1.0], [2.5], [-3.0], [4.0], [5.0]])
    case("int32-5d", "int32", np.arange(32).reshape(2, 2, 2, 2, 2))

    # --- integer-valued, all-zero, negative zero ------------------------------------------
    case("float32-int-valued", "float32", [1.0, 2.0, 3.0])
    case("float32-int-valued-neg", "float32", [[-1.0, 2.0], [30.0, -400.0]])
    case("float64-int-and-frac", "float64", [1.0, 2.5, -100.0])
    case("float32-zeros", "float32", np.zeros([2, 3]))
    case("float64-neg-zeros", "float64", [-0.0, -0.0])
    case("int64-zeros", "int64", np.zeros([3, 2], dtype=np.int64))
    case("bool-all-false", "bool", np.zeros([2, 2], dtype=bool))
    case("complex64-zeros", "complex64", np.zeros([2], dtype=np.complex64))

    # --- mixed magnitudes (Paddle never switches to sci mode by itself) -------------------
    case("float32-tiny-huge", "float32", [1e-5, 1e8])
    case("float64-tiny-huge", "float64", [1e-5, 1e8, -2.5])
    case("float32-tiny-huge-inf-nan", "float32", [1e-5, 1e8, INF, -INF, NAN])
    case("float64-1e300", "float64", [1e300, -1e-300, 0.5])
    case("float32-max", "float32", [3.4028234663852886e38, -1.0])
    case("float16-max-subnormal", "float16", [65504.0, 6e-8, -1.0])
    case("float32-subnormal", "float32", [1e-40, 1e-45])
    case("float64-small-values", "float64", [0.000123456789, 0.0000000049])
    case("float32-sci", "float32", [1e-5, 1e8, -2.5, 3.0], sci_mode=True)
    case("float64-sci-specials", "float64", [1e-5, INF, -INF, NAN, 0.0], sci_mode=True)
    case("float16-sci", "float16", [0.1, -2.0], sci_mode=True)
    case("bfloat16-sci", "bfloat16", [[0.1, -2.0], [300.0, 1e-3]], sci_mode=True)
    case("int64-sci-ignored", "int64", [1, -200, 30000], sci_mode=True)
    case("float32-0d-sci", "float32", 123.456, sci_mode=True)
    case("float32-sci-prec0", "float32", [1.5, -250.0, 0.0], sci_mode=True, precision=0)

    # --- precision -----------------------------------------------------------------------
    vals = [3.14159265358979, -2.718281828459045, 100.0, 0.5]
    for p in (0, 1, 2, 4, 12, 17):
        case(f"float64-precision-{p}", "float64", vals, precision=p)
    case("float32-precision-12", "float32", [0.1, -0.2], precision=12)
    case("float32-precision-0-halves", "float32", [0.5, 1.5, 2.5, -0.5], precision=0)
    case("float16-precision-3", "float16", [[0.1, 0.2], [-0.3, 10.0]], precision=3)

    # --- stop_gradient -------------------------------------------------------------------
    case("float32-sg-false", "float32", [[1.0, -2.5], [3.0, 4.0]], stop_gradient=False)
    case("float64-0d-sg-false", "float64", 2.5, stop_gradient=False)
    case("complex64-sg-false", "complex64", [1 + 1j], stop_gradient=False)
    case("bfloat16-sg-false", "bfloat16", [1.0, 0.5], stop_gradient=False)

    # --- width comes from the summarised edges even without summary ----------------------
    case("float32-mid-wider", "float32", [0.5, 1.0, 2.0, 12345.5, -7.25, 3.0, 4.0, 5.0, 6.0, 7.0])
    case("int64-mid-wider", "int64", (np.arange(64) % 7).reshape(8, 8) * np.where(
        np.arange(64).reshape(8, 8) == 27, -100000, 1))
    case("int64-mid-negative", "int64", [1, 2, 3, -4, 5, 6, 7])
    case("float32-edges-neg-only", "float32", [-1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])

    # --- line wrapping -------------------------------------------------------------------
    case("float32-1d-30", "float32", np.arange(30) * 1.25 - 10)
    case("float64-2d-wrap", "float64", (np.arange(60) * 0.37 - 7).reshape(3, 20))
    case("float32-3d-wrap", "float32", (np.arange(2 * 2 * 12) * 1.5).reshape(2, 2, 12))
    case("int64-1d-50", "int64", np.arange(50) * 37 - 500)
    case("bool-1d-40", "bool", (np.arange(40) % 3) == 0)
    case("complex64-1d-10", "complex64", np.arange(10) * 0.5 - 1j * np.arange(10))
    for lw in (1, 10, 40, 120, 200):
        case(f"float32-linewidth-{lw}", "float32", np.arange(24) * 0.5 - 3, linewidth=lw)
    case("float32-2d-linewidth-30", "float32", (np.arange(24) * 0.5).reshape(2, 12), linewidth=30)
    case("int64-3d-linewidth-20", "int64", np.arange(36).reshape(2, 2, 9), linewidth=20)

    # --- summarisation -------------------------------------------------------------------
    case("float32-1d-2000", "float32", shape=[2000], recipe=R(37, 5, 1000, -500, 0.125))
    case("float32-2d-50x40", "float32", shape=[50, 40], recipe=R(7919, 11, 997, -498, 0.25))
    case("float64-3d-12x12x12", "float64", shape=[12, 12, 12], recipe=R(101, 3, 257, -128, 0.03125))
    case("float32-4d-5x6x7x8", "float32", shape=[5, 6, 7, 8], recipe=R(13, 1, 200, -100, 0.5))
    case("float16-2d-33x33", "float16", shape=[33, 33], recipe=R(31, 0, 64, -32, 0.0625))
    case("bfloat16-2d-32x33", "bfloat16", shape=[32, 33], recipe=R(17, 4, 128, -64, 0.5))
    case("int64-1d-1001", "int64", shape=[1001], recipe=R(1, 0, 100000, 0, 1))
    case("int64-1d-1000-no-summary", "int64", shape=[1000], recipe=R(1, 0, 100000, -3, 1))
    case("int32-2d-40x30-mid-neg", "int32", shape=[40, 30],
         recipe=R(3, 0, 1000, 0, 1, overrides=[[600, -99999]]))
    case("int8-2d-30x40", "int8", shape=[30, 40], recipe=R(7, 0, 256, -128, 1))
    case("int16-3d-10x10x11", "int16", shape=[10, 10, 11], recipe=R(97, 0, 20000, -10000, 1))
    case("uint8-1d-1200", "uint8", shape=[1200], recipe=R(3, 0, 256, 0, 1))
    case("bool-2d-40x30", "bool", shape=[40, 30], recipe=R(1, 0, 3, 0, 1))
    case("complex64-1d-1500", "complex64", shape=[1500],
         recipe=dict(re=R(3, 0, 64, -32, 0.5), im=R(5, 1, 32, -16, 0.25)))
    case("complex128-2d-40x40", "complex128", shape=[40, 40],
         recipe=dict(re=R(7, 2, 100, -50, 0.125), im=R(11, 0, 90, -10, 1.0)))
    case("float32-2x600", "float32", shape=[2, 600], recipe=R(5, 0, 50, -25, 0.5))
    case("float32-600x2", "float32", shape=[600, 2], recipe=R(5, 0, 50, -25, 0.5))
    case("float32-1x1x1001", "float32", shape=[1, 1, 1001], recipe=R(1, 0, 1001, 0, 1))
    case("float32-summary-mid-nan", "float32", shape=[3000],
         recipe=R(1, 0, 1000, 0, 0.5, overrides=[[1500, NAN], [2, -INF]]))
    case("float32-summary-sg-false", "float32", shape=[1100], recipe=R(1, 0, 10, 0, 1),
         stop_gradient=False)
    case("float32-summary-sci", "float32", shape=[40, 40], recipe=R(3, 0, 100, -50, 0.25),
         sci_mode=True)

    case("float32-2x500x2", "float32", shape=[2, 500, 2], recipe=R(3, 0, 40, -20, 0.25))
    case("bool-1d-2000", "bool", shape=[2000], recipe=R(1, 1, 2, 0, 1))
    case("int64-summary-neg-mid-only", "int64", shape=[1200],
         recipe=R(1, 0, 10, 0, 1, overrides=[[600, -5]]))
    case("float16-summary-inf-edges", "float16", shape=[1500],
         recipe=R(1, 0, 100, 0, 0.5, overrides=[[0, INF], [1499, -INF], [1, NAN]]))
    case("float64-summary-prec17", "float64", shape=[1001], recipe=R(1, 0, 1001, -500, 0.1),
         precision=17)
    case("float32-summary-linewidth-200", "float32", shape=[60, 60], recipe=R(7, 0, 60, -30, 0.5),
         linewidth=200, edgeitems=6, threshold=100)
    case("complex64-summary-neg-real-nan-imag", "complex64", shape=[1010],
         recipe=dict(re=R(1, 0, 10, 1, 1.0), im=R(1, 0, 10, 0, 1.0),
                     overrides=[[1, [-1.0, NAN]], [1009, [0.0, -2.0]]]))
    case("float32-rows-mid-wider", "float32", (np.arange(21) * 0.5).reshape(7, 3) *
         np.where(np.arange(21).reshape(7, 3) == 10, -1000, 1))

    # --- threshold / edgeitems -----------------------------------------------------------
    ten = np.arange(10) * 1.5 - 4
    case("float32-threshold-5", "float32", ten, threshold=5)
    case("float32-threshold-10-equal", "float32", ten, threshold=10)
    case("float32-threshold-9", "float32", ten, threshold=9)
    case("float32-threshold-0-len1", "float32", [2.5], threshold=0)
    case("float32-threshold-0-0d", "float32", 2.5, threshold=0)
    case("float32-threshold-0-len6", "float32", np.arange(6) * 1.0, threshold=0)
    case("int64-threshold-0-len8", "int64", np.arange(8), threshold=0)
    case("float32-2d-threshold-10", "float32", (np.arange(56) * 0.5).reshape(7, 8), threshold=10)
    for e in (1, 2, 5):
        case(f"float32-2d-edgeitems-{e}", "float32", (np.arange(144) * 0.25 - 9).reshape(12, 12),
             threshold=20, edgeitems=e)
    case("float32-1d-2000-edgeitems-1", "float32", shape=[2000], recipe=R(37, 5, 1000, -500, 0.125),
         edgeitems=1)
    case("float32-edgeitems-0-summary", "float32", (np.arange(20) * 0.5).reshape(4, 5),
         threshold=5, edgeitems=0)
    case("float32-edgeitems-0-no-summary", "float32", (np.arange(20) * 0.5 - 2).reshape(4, 5),
         edgeitems=0)
    case("int64-edgeitems-1-no-summary", "int64", [5, 123456, -7, 9], edgeitems=1)
    case("float32-edgeitems-0-0d", "float32", 1.5, edgeitems=0)
    case("float32-combo", "float32", shape=[30, 30], recipe=R(13, 0, 99, -49, 0.5),
         precision=3, threshold=50, edgeitems=2, linewidth=40)
    case("float64-combo-sci", "float64", (np.arange(60) * 1.75 - 20).reshape(3, 4, 5),
         precision=2, threshold=30, edgeitems=1, sci_mode=True, linewidth=30)


def record_grad():
    """Record a gradient: Paddle prints ``x.grad`` with stop_gradient=False."""
    x = paddle.to_tensor([[1.5, -2.0], [3.0, 0.25]], stop_gradient=False)
    (x * x).sum().backward()
    g = x.grad
    text = repr(g)
    assert str(g) == text
    CASES.append(dict(name="float32-grad", dtype="float32", shape=list(g.shape),
                      values=stored_values(g),
                      sha256=hashlib.sha256(stored_bytes(g)).hexdigest(),
                      options=dict(DEFAULTS), stop_gradient=g.stop_gradient, text=text))


def main():
    paddle.set_device("cpu")
    paddle.set_printoptions(**DEFAULTS)
    record_all()
    record_grad()
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    with open(OUT, "w") as f:
        json.dump(CASES, f, indent=1)
        f.write("\n")
    print(f"wrote {len(CASES)} cases to {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
