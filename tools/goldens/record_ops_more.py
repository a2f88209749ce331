"""Record Paddle 3.3.1's goldens for the ops of rows 301+ of api_targets.tsv (diagonal, complex
views, histograms, scatter_nd, index_add, special functions, unfold, kthvalue/mode, the
in-place random fills, autograd.jacobian/hessian ...) for tests/test_ops_more.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_ops_more.py

The case format and the recording helpers are record_ops_math.py's (imported from it).
Random cases seed the generator inside their call, so their values are Paddle's CPU stream.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_ops_math as M  # noqa: E402  (imports paddle; sets the cpu device)
from record_ops_math import CASES, T, case, paddle  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "ops_more.json")
M.DOMAINS["half"] = lambda n: M.rng.uniform(0.5, 3.0, n)
M.DOMAINS["prob"] = lambda n: M.rng.uniform(0.05, 0.95, n)


def I(values, shape=None, dtype="int64"):
    """An integer (or bool) tensor spec with the given values."""
    vals = list(np.asarray(values).reshape(-1).tolist())
    return {"dtype": dtype, "shape": list(np.shape(values)) if shape is None else list(shape),
            "values": vals}


def B(values, shape=None):
    return I(values, shape, "bool")


def F(values, shape=None, dtype="float32"):
    vals = [float(v) for v in np.asarray(values, dtype=np.float64).reshape(-1)]
    return {"dtype": dtype, "shape": list(np.shape(values)) if shape is None else list(shape),
            "values": vals}


# ---------------------------------------------------------------------------- diagonal & co
def diagonal_cases():
    for api, fn in (("paddle.diagonal", "paddle.diagonal"), ("paddle.trace", "paddle.trace")):
        case(api, f"{fn}(x)", tag="f32-2d", x=T("float32", [3, 4]))
        case(api, f"{fn}(x, offset=1)", tag="offset1", x=T("float32", [3, 4]))
        case(api, f"{fn}(x, offset=-2)", tag="offset-2", x=T("float64", [3, 4]))
        case(api, f"{fn}(x, offset=5)", tag="offset-out", x=T("float32", [3, 4]))
        case(api, f"{fn}(x, 0, 1, 2)", tag="3d-12", x=T("float32", [2, 3, 4]))
        case(api, f"{fn}(x, offset=1, axis1=-1, axis2=0)", tag="3d-neg", x=T("float32", [2, 3, 4]))
        case(api, f"{fn}(x)", tag="i32", x=T("int32", [3, 3], "ints"))
        case(api, f"{fn}(x)", tag="i64", x=T("int64", [3, 3], "ints"))
        case(api, f"{fn}(x)", tag="bool", x=T("bool", [3, 3], "bools"))
        case(api, f"{fn}(x)", tag="f16", x=T("float16", [3, 3]))
        case(api, f"{fn}(x)", tag="bf16", x=T("bfloat16", [3, 3]))
        case(api, f"{fn}(x)", tag="1d", x=T("float32", [3]))
        case(api, f"{fn}(x, axis1=1, axis2=1)", tag="same-axes", x=T("float32", [3, 3]))
        case(api, f"{fn}(x)", tag="empty", x=T("float32", [0, 3]))
    case("paddle.Tensor.diagonal", "x.diagonal(1, 0, 2)", x=T("float32", [3, 2, 4]))
    case("paddle.Tensor.trace", "x.trace(offset=-1)", x=T("float32", [3, 4]))
    case("paddle.diagonal_scatter", "paddle.diagonal_scatter(x, y)",
         x=T("float32", [3, 3]), y=T("float32", [3]))
    case("paddle.diagonal_scatter", "paddle.diagonal_scatter(x, y, offset=1)", tag="offset",
         x=T("float32", [3, 4]), y=T("float32", [3]))
    case("paddle.diagonal_scatter", "paddle.diagonal_scatter(x, y, -1, 2, 0)", tag="3d",
         x=T("float64", [3, 2, 4]), y=T("float64", [2, 3]))
    case("paddle.diagonal_scatter", "paddle.diagonal_scatter(x, y)", tag="i64",
         x=T("int64", [3, 3], "ints"), y=T("int64", [3], "ints"))
    case("paddle.diagonal_scatter", "paddle.diagonal_scatter(x, y)", tag="bad-shape",
         x=T("float32", [3, 3]), y=T("float32", [2]))
    case("paddle.Tensor.diagonal_scatter", "x.diagonal_scatter(y, 0, 0, 1)",
         x=T("float32", [2, 2]), y=T("float32", [2]))
    for off in (0, 1, -2):
        case("paddle.diagflat", f"paddle.diagflat(x, offset={off})", tag=f"1d-{off}",
             x=T("float32", [3]))
    case("paddle.diagflat", "paddle.diagflat(x)", tag="2d", x=T("float64", [2, 2]))
    case("paddle.diagflat", "paddle.diagflat(x, 1)", tag="3d-i64", x=T("int64", [2, 1, 2], "ints"))
    case("paddle.diagflat", "paddle.diagflat(x)", tag="0d", x=T("float32", []))
    case("paddle.diagflat", "paddle.diagflat(x)", tag="bool", x=T("bool", [3], "bools"))
    case("paddle.select_scatter", "paddle.select_scatter(x, v, 0, 1)",
         x=T("float32", [3, 4]), v=T("float32", [4]))
    case("paddle.select_scatter", "paddle.select_scatter(x, v, -1, -2)", tag="neg",
         x=T("float64", [2, 3, 4]), v=T("float64", [2, 3]))
    case("paddle.select_scatter", "paddle.select_scatter(x, v, 1, 0)", tag="i32",
         x=T("int32", [2, 3], "ints"), v=T("int32", [2], "ints"))
    case("paddle.select_scatter", "paddle.select_scatter(x, v, 0, 0)", tag="bad-shape",
         x=T("float32", [3, 4]), v=T("float32", [3]))
    case("paddle.select_scatter", "paddle.select_scatter(x, v, 0, 3)", tag="bad-index",
         x=T("float32", [3, 4]), v=T("float32", [4]))


# ---------------------------------------------------------------------------- complex
def complex_cases():
    case("paddle.complex", "paddle.complex(a, b)", a=T("float32", [2, 3]), b=T("float32", [2, 3]))
    case("paddle.complex", "paddle.complex(a, b)", tag="f64-bcast", a=T("float64", [2, 1]),
         b=T("float64", [3]))
    case("paddle.complex", "paddle.as_real(paddle.complex(a, b))", tag="grad",
         a=T("float32", [2, 3]), b=T("float32", [2, 3]))
    case("paddle.complex", "paddle.complex(a, b)", tag="i32", a=T("int32", [2], "ints"),
         b=T("int32", [2], "ints"))
    case("paddle.complex", "paddle.complex(a, b)", tag="mixed", a=T("float32", [2]),
         b=T("float64", [2]))
    case("paddle.complex", "paddle.complex(a, b)", tag="0d", a=T("float32", []), b=T("float32", []))
    case("paddle.as_complex", "paddle.as_complex(x)", x=T("float32", [3, 2]))
    case("paddle.as_complex", "paddle.as_real(paddle.as_complex(x) * 2)", tag="grad",
         x=T("float64", [2, 3, 2]))
    case("paddle.as_complex", "paddle.as_complex(x)", tag="bad-last", x=T("float32", [2, 3]))
    case("paddle.as_real", "paddle.as_real(paddle.complex(a, b))", tag="f64",
         a=T("float64", [3]), b=T("float64", [3]))
    case("paddle.as_real", "paddle.as_real(x)", tag="real-input", x=T("float32", [3]))
    case("paddle.Tensor.as_real", "paddle.complex(a, b).as_real()", a=T("float32", [2]),
         b=T("float32", [2]))
    case("paddle.Tensor.as_complex", "x.as_complex()", x=T("float32", [2]))
    for fn in ("real", "imag", "angle"):
        api = f"paddle.{fn}"
        case(api, f"paddle.{fn}(paddle.complex(a, b))", tag="c64", a=T("float32", [2, 3]),
             b=T("float32", [2, 3]))
        case(api, f"paddle.{fn}(paddle.complex(a, b))", tag="c128", a=T("float64", [3]),
             b=T("float64", [3]))
        case(api, f"paddle.{fn}(x)", tag="f32", x=T("float32", [2, 3], "normal", [0.0, -0.0]))
        case(api, f"paddle.{fn}(x)", tag="f64", x=T("float64", [3]))
        case(api, f"paddle.{fn}(x)", tag="i32", x=T("int32", [3], "ints"))
        case(api, f"paddle.{fn}(x)", tag="i64", x=T("int64", [3], "ints"))
        case(api, f"paddle.{fn}(x)", tag="bool", x=T("bool", [3], "bools"))
        case(api, f"paddle.{fn}(x)", tag="f16", x=T("float16", [3]))
        case(f"paddle.Tensor.{fn}", f"paddle.complex(a, b).{fn}()", a=T("float32", [2]),
             b=T("float32", [2]))
    case("paddle.angle", "paddle.angle(x)", tag="special",
         x=F([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, -1.0]))
    case("paddle.polar", "paddle.polar(a, b)", a=T("float32", [2, 3], "pos"), b=T("float32", [2, 3]))
    case("paddle.polar", "paddle.as_real(paddle.polar(a, b))", tag="grad",
         a=T("float64", [3], "pos"), b=T("float64", [3]))
    case("paddle.polar", "paddle.polar(a, b)", tag="bcast", a=T("float32", [2, 1], "pos"),
         b=T("float32", [3]))
    case("paddle.polar", "paddle.polar(a, b)", tag="i64", a=T("int64", [2], "posints"),
         b=T("int64", [2], "ints"))


# ---------------------------------------------------------------------------- histograms
def histogram_cases():
    case("paddle.histogram", "paddle.histogram(x)", x=T("float32", [20]), grad=False)
    case("paddle.histogram", "paddle.histogram(x, bins=5, min=-1, max=1)", tag="range",
         x=T("float32", [4, 5]), grad=False)
    case("paddle.histogram", "paddle.histogram(x, bins=4)", tag="i64", x=T("int64", [10], "ints"))
    case("paddle.histogram", "paddle.histogram(x, bins=4)", tag="i32", x=T("int32", [10], "ints"))
    case("paddle.histogram", "paddle.histogram(x, bins=3, weight=w)", tag="weight",
         x=T("float32", [8]), w=T("float32", [8], "pos"), grad=False)
    case("paddle.histogram", "paddle.histogram(x, bins=3, density=True)", tag="density",
         x=T("float64", [8]), grad=False)
    case("paddle.histogram", "paddle.histogram(x, bins=3, weight=w, density=True)",
         tag="weight-density", x=T("float32", [8]), w=T("float32", [8], "pos"), grad=False)
    case("paddle.histogram", "paddle.histogram(x, bins=4)", tag="const",
         x=F([2.0, 2.0, 2.0]), grad=False)
    case("paddle.histogram", "paddle.histogram(x, bins=4)", tag="empty", x=T("float32", [0]),
         grad=False)
    case("paddle.histogram", "paddle.histogram(x, bins=4, min=2, max=1)", tag="bad-range",
         x=T("float32", [5]), grad=False)
    case("paddle.Tensor.histogram", "x.histogram(bins=6, min=-2.0, max=2.0)",
         x=T("float32", [3, 4]), grad=False)
    case("paddle.histogram_bin_edges", "paddle.histogram_bin_edges(x, bins=5)",
         x=T("float32", [10]), grad=False)
    case("paddle.histogram_bin_edges", "paddle.histogram_bin_edges(x, 4, -1.0, 3.0)",
         tag="range", x=T("float64", [10]), grad=False)
    case("paddle.histogram_bin_edges", "paddle.histogram_bin_edges(x, 3)", tag="i64",
         x=T("int64", [6], "ints"))
    case("paddle.histogram_bin_edges", "paddle.histogram_bin_edges(x, 4)", tag="const",
         x=F([1.0, 1.0]), grad=False)
    case("paddle.histogramdd", "paddle.histogramdd(x, bins=3)", x=T("float32", [10, 2]),
         grad=False)
    case("paddle.histogramdd", "paddle.histogramdd(x, bins=[2, 3, 4])", tag="bins-list",
         x=T("float64", [12, 3]), grad=False)
    case("paddle.histogramdd", "paddle.histogramdd(x, bins=2, ranges=[-1.0, 1.0, 0.0, 2.0])",
         tag="ranges", x=T("float32", [3, 4, 2]), grad=False)
    case("paddle.histogramdd", "paddle.histogramdd(x, bins=3, weights=w, density=True)",
         tag="weights-density", x=T("float32", [10, 2]), w=T("float32", [10], "pos"), grad=False)
    case("paddle.histogramdd", "paddle.histogramdd(x, bins=3, density=True)", tag="density",
         x=T("float64", [10, 2]), grad=False)
    case("paddle.histogramdd", "paddle.histogramdd(x, bins=[e0, e1])", tag="edges",
         x=T("float32", [10, 2]), e0=F([-3.0, 0.0, 1.0, 3.0]), e1=F([-2.0, 2.0]), grad=False)
    case("paddle.Tensor.histogramdd", "x.histogramdd(bins=2)", x=T("float32", [6, 2]), grad=False)
    case("paddle.bincount", "paddle.bincount(x)", x=T("int64", [10], "shift"))
    case("paddle.bincount", "paddle.bincount(x, minlength=8)", tag="minlength",
         x=T("int32", [10], "shift"))
    case("paddle.bincount", "paddle.bincount(x, weights=w)", tag="weights",
         x=T("int64", [6], "shift"), w=T("float32", [6]), grad=False)
    case("paddle.bincount", "paddle.bincount(x, weights=w)", tag="weights-f64",
         x=T("int64", [6], "shift"), w=T("float64", [6]), grad=False)
    case("paddle.bincount", "paddle.bincount(x, weights=w)", tag="weights-i32",
         x=T("int64", [6], "shift"), w=T("int32", [6], "ints"))
    case("paddle.bincount", "paddle.bincount(x, weights=w)", tag="weights-i64",
         x=T("int64", [6], "shift"), w=T("int64", [6], "ints"))
    case("paddle.bincount", "paddle.bincount(x)", tag="empty", x=T("int64", [0], "shift"))
    case("paddle.bincount", "paddle.bincount(x)", tag="negative", x=I([1, -1, 2]))
    case("paddle.bincount", "paddle.bincount(x)", tag="float", x=T("float32", [3], "pos"))
    case("paddle.bincount", "paddle.bincount(x)", tag="2d", x=I([[1, 2], [0, 1]]))
    case("paddle.Tensor.bincount", "x.bincount(minlength=2)", x=T("int64", [5], "shift"))


# ---------------------------------------------------------------------------- views & fills
def view_cases():
    case("paddle.Tensor.fill_", "x.fill_(2.5)", inplace=True, x=T("float32", [2, 3]))
    case("paddle.Tensor.fill_", "x.fill_(3)", tag="i64", inplace=True, x=T("int64", [3], "ints"))
    case("paddle.Tensor.fill_", "x.fill_(1.7)", tag="i32-float", inplace=True,
         x=T("int32", [3], "ints"))
    case("paddle.Tensor.fill_", "x.fill_(True)", tag="bool", inplace=True, x=T("bool", [3], "bools"))
    case("paddle.Tensor.fill_", "x.fill_(1.0)", tag="leaf-requires-grad", x=T("float32", [3]))
    case("paddle.Tensor.fill_", "(x * 1).fill_(2.0)", tag="nonleaf", x=T("float32", [2, 2]))
    case("paddle.Tensor.fill_", "x.fill_(paddle.to_tensor(4.0))", tag="tensor-value",
         inplace=True, x=T("float32", [2]))
    case("paddle.Tensor.set_", "x.set_(y)", inplace=True, x=T("float32", [2, 3]),
         y=T("float32", [4]))
    case("paddle.Tensor.set_", "x.set_()", tag="empty", inplace=True, x=T("float32", [2, 3]))
    case("paddle.Tensor.set_", "x.set_(y, [2, 2])", tag="shape", inplace=True,
         x=T("float32", [3]), y=T("float32", [6]))
    case("paddle.Tensor.set_", "x.set_(y, [2, 2], [1, 2], 1)", tag="stride-offset", inplace=True,
         x=T("float64", [3]), y=T("float64", [6]))
    case("paddle.Tensor.set_", "x.set_(y[2:], [2, 2], [1, 2], 16)", tag="offset-bytes",
         inplace=True, x=T("float64", [3]), y=T("float64", [8]))
    case("paddle.Tensor.set_", "x.set_(y)", tag="dtype-mismatch", x=T("float32", [3]),
         y=T("float64", [3]), grad=False)
    case("paddle.Tensor.is_coalesced", "x.is_coalesced()", x=T("float32", [2]))
    case("paddle.Tensor.coalesce", "x.coalesce()", x=T("float32", [2]))
    for api, call in (("paddle.unfold", "paddle.unfold(x, 0, 2, 1)"),
                      ("paddle.Tensor.unfold", "x.unfold(0, 2, 1)")):
        case(api, call, x=T("float32", [5]))
    case("paddle.unfold", "paddle.unfold(x, -1, 3, 2)", tag="3d-neg", x=T("float32", [2, 3, 7]))
    case("paddle.unfold", "paddle.unfold(x, 1, 2, 3)", tag="i64", x=T("int64", [2, 6], "ints"))
    case("paddle.unfold", "paddle.unfold(x, 0, 6, 1)", tag="too-big", x=T("float32", [5]))
    case("paddle.unfold", "paddle.unfold(x, 0, 1, 1)", tag="0d", x=T("float32", []))
    case("paddle.unfold", "paddle.unfold(x, 0, 2, 0)", tag="step0", x=T("float32", [4]))
    case("paddle.as_strided", "paddle.as_strided(x, [2, 2], [1, 2])", x=T("float32", [2, 3]))
    case("paddle.as_strided", "paddle.as_strided(x, [3], [2], 1)", tag="offset",
         x=T("float64", [8]))
    case("paddle.as_strided", "paddle.as_strided(x, [3], [2], 8)", tag="offset-bytes",
         x=T("float64", [8]))
    case("paddle.as_strided", "paddle.as_strided(x[2:], [2], [1], 4)", tag="view-offset",
         x=T("float32", [6]))
    case("paddle.as_strided", "paddle.as_strided(x, [2, 3], [0, 1])", tag="broadcast",
         x=T("int32", [3], "ints"))
    case("paddle.Tensor.as_strided", "x.as_strided([2], [3])", x=T("float32", [6]))
    case("paddle.view", "paddle.view(x, [3, 2])", x=T("float32", [2, 3]))
    case("paddle.view", "paddle.view(x, [-1])", tag="neg1", x=T("float32", [2, 3]))
    case("paddle.view", "paddle.view(x, [0, 3])", tag="zero", x=T("float32", [2, 3]))
    case("paddle.view", "paddle.view(x, 'int32')", tag="dtype-same-size", x=T("float32", [2, 3]))
    case("paddle.view", "paddle.view(x, paddle.float16)", tag="dtype-smaller",
         x=T("float32", [2, 3]))
    case("paddle.view", "paddle.view(x, 'float64')", tag="dtype-larger", x=T("float32", [2, 4]))
    case("paddle.view", "paddle.view(x, [4, 2])", tag="bad", x=T("float32", [2, 3]))
    case("paddle.Tensor.view", "x.view([6])", x=T("float32", [2, 3]))
    case("paddle.view_as", "paddle.view_as(x, y)", x=T("float32", [2, 3]), y=T("float32", [3, 2]))
    case("paddle.Tensor.view_as", "x.view_as(y)", x=T("int64", [6], "ints"), y=T("float32", [6, 1]))


# ---------------------------------------------------------------------------- scatter/index
def index_cases():
    case("paddle.scatter_nd", "paddle.scatter_nd(i, u, [3, 4])",
         i=I([[1], [2], [1]]), u=T("float32", [3, 4]))
    case("paddle.scatter_nd", "paddle.scatter_nd(i, u, [3, 4])", tag="full-index",
         i=I([[0, 1], [2, 3], [0, 1]]), u=T("float64", [3]))
    case("paddle.scatter_nd", "paddle.scatter_nd(i, u, (2, 3, 2))", tag="i32-index",
         i=I([[1, 0], [0, 2]], dtype="int32"), u=T("float32", [2, 2]))
    case("paddle.scatter_nd", "paddle.scatter_nd(i, u, [4])", tag="int-updates",
         i=I([[1], [1], [3]]), u=T("int64", [3], "ints"))
    case("paddle.scatter_nd", "paddle.scatter_nd(i, u, [3, 4])", tag="bad-shape",
         i=I([[1], [2]]), u=T("float32", [2, 3]))
    case("paddle.scatter_nd_add", "paddle.scatter_nd_add(x, i, u)", x=T("float32", [3, 4]),
         i=I([[1], [2], [1]]), u=T("float32", [3, 4]))
    case("paddle.scatter_nd_add", "paddle.scatter_nd_add(x, i, u)", tag="3d",
         x=T("float64", [3, 2, 2]), i=I([[0, 1], [2, 0], [0, 1]]), u=T("float64", [3, 2]))
    case("paddle.scatter_nd_add", "paddle.scatter_nd_add(x, i, u)", tag="i32",
         x=T("int32", [4], "ints"), i=I([[0], [0]]), u=T("int32", [2], "ints"))
    case("paddle.scatter_nd_add", "paddle.scatter_nd_add(x, i, u)", tag="neg-index",
         x=T("float32", [4]), i=I([[-1], [0]]), u=T("float32", [2]))
    case("paddle.scatter_nd_add", "paddle.scatter_nd_add(x, i, u)", tag="empty-index",
         x=T("float32", [2, 3]), i=I(np.zeros((0, 1), dtype=np.int64)), u=T("float32", [0, 3]))
    case("paddle.Tensor.scatter_nd_add", "x.scatter_nd_add(i, u)", x=T("float32", [3]),
         i=I([[2]]), u=T("float32", [1]))
    idx = I([0, 2])
    case("paddle.index_add", "paddle.index_add(x, i, 0, v)", x=T("float32", [3, 4]), i=idx,
         v=T("float32", [2, 4]))
    case("paddle.index_add", "paddle.index_add(x, i, -1, v, alpha=2)", tag="alpha-neg",
         x=T("float64", [2, 3, 4]), i=I([1, 1, 3], dtype="int32"), v=T("float64", [2, 3, 3]))
    case("paddle.index_add", "paddle.index_add(x, i, 1, v)", tag="i64",
         x=T("int64", [2, 3], "ints"), i=I([0]), v=T("int64", [2, 1], "ints"))
    case("paddle.index_add", "paddle.index_add(x, i, 0, v)", tag="bad-shape",
         x=T("float32", [3, 4]), i=idx, v=T("float32", [2, 3]))
    case("paddle.index_add_", "paddle.index_add_(x, i, 0, v)", inplace=True,
         x=T("float32", [3, 2]), i=idx, v=T("float32", [2, 2]))
    case("paddle.Tensor.index_add", "x.index_add(i, 0, v)", x=T("float32", [3]), i=idx,
         v=T("float32", [2]))
    case("paddle.Tensor.index_add_", "x.index_add_(i, 0, v)", inplace=True, x=T("float32", [3]),
         i=idx, v=T("float32", [2]))
    case("paddle.index_fill", "paddle.index_fill(x, i, 0, 1.5)", x=T("float32", [3, 4]), i=idx)
    case("paddle.index_fill", "paddle.index_fill(x, i, -1, -2)", tag="neg-int",
         x=T("int64", [2, 3], "ints"), i=I([2], dtype="int32"))
    case("paddle.index_fill", "paddle.index_fill(x, i, 1, v)", tag="tensor-value",
         x=T("float64", [2, 3]), i=I([0, 1]), v=T("float64", []))
    case("paddle.index_fill", "paddle.index_fill(x, i, 0, True)", tag="bool",
         x=T("bool", [3], "bools"), i=I([1]))
    case("paddle.index_fill_", "paddle.index_fill_(x, i, 0, 0.5)", inplace=True,
         x=T("float32", [3, 2]), i=idx)
    case("paddle.Tensor.index_fill", "x.index_fill(i, 0, 7.0)", x=T("float32", [3]), i=idx)
    case("paddle.Tensor.index_fill_", "x.index_fill_(i, 0, 7.0)", inplace=True,
         x=T("float32", [3]), i=idx)
    mask = B([[True, False, True], [False, False, True]])
    case("paddle.masked_scatter", "paddle.masked_scatter(x, m, v)", x=T("float32", [2, 3]),
         m=mask, v=T("float32", [6]))
    case("paddle.masked_scatter", "paddle.masked_scatter(x, m, v)", tag="bcast",
         x=T("float64", [2, 3]), m=B([True, False, True]), v=T("float64", [2, 4]))
    case("paddle.masked_scatter", "paddle.masked_scatter(x, m, v)", tag="i32",
         x=T("int32", [2, 3], "ints"), m=mask, v=T("int32", [3], "ints"))
    case("paddle.masked_scatter", "paddle.masked_scatter(x, m, v)", tag="too-few",
         x=T("float32", [2, 3]), m=mask, v=T("float32", [2]))
    case("paddle.masked_scatter_", "paddle.masked_scatter_(x, m, v)", inplace=True,
         x=T("float32", [2, 3]), m=mask, v=T("float32", [4]))
    case("paddle.Tensor.masked_scatter", "x.masked_scatter(m, v)", x=T("float32", [2, 3]),
         m=mask, v=T("float32", [3]))
    case("paddle.Tensor.masked_scatter_", "x.masked_scatter_(m, v)", inplace=True,
         x=T("float32", [2, 3]), m=mask, v=T("float32", [3]))
    case("paddle.take", "paddle.take(x, i)", x=T("float32", [3, 4]), i=I([[0, 5], [11, 3]]))
    case("paddle.take", "paddle.take(x, i)", tag="neg", x=T("float64", [3, 4]), i=I([-1, -12]))
    case("paddle.take", "paddle.take(x, i, mode='wrap')", tag="wrap", x=T("float32", [2, 3]),
         i=I([7, -8, 2], dtype="int32"))
    case("paddle.take", "paddle.take(x, i, mode='clip')", tag="clip", x=T("int64", [2, 3], "ints"),
         i=I([7, -8, 2]))
    case("paddle.take", "paddle.take(x, i)", tag="out-of-range", x=T("float32", [2, 3]),
         i=I([6]))
    case("paddle.take", "paddle.take(x, i, mode='bogus')", tag="bad-mode",
         x=T("float32", [2, 3]), i=I([1]))
    case("paddle.take", "paddle.take(x, i)", tag="float-index", x=T("float32", [2, 3]),
         i=F([1.0]))
    case("paddle.Tensor.take", "x.take(i)", x=T("float32", [4]), i=I(1, shape=[]))
    case("paddle.multiplex", "paddle.multiplex([a, b], i)", a=T("float32", [3, 2]),
         b=T("float32", [3, 2]), i=I([[1], [0], [1]], dtype="int32"))
    case("paddle.multiplex", "paddle.multiplex([a, b, c], i)", tag="3-inputs",
         a=T("float64", [2, 3]), b=T("float64", [2, 3]), c=T("float64", [2, 3]), i=I([[2], [0]]))
    case("paddle.multiplex", "paddle.multiplex([a, b], i)", tag="i64",
         a=T("int64", [2], "ints"), b=T("int64", [2], "ints"), i=I([[1], [1]]))
    case("paddle.shard_index", "paddle.shard_index(x, 20, 2, 0)", x=I([[1], [6], [12], [19]]))
    case("paddle.shard_index", "paddle.shard_index(x, 20, 2, 1, ignore_value=-5)", tag="shard1",
         x=I([[1], [6], [12], [19]]))
    case("paddle.shard_index", "paddle.shard_index(x, 10, 3, 2)", tag="i32-uneven",
         x=I([[0], [4], [8], [9]], dtype="int32"))
    case("paddle.shard_index", "paddle.shard_index(x, 20, 2, 0)", tag="1d", x=I([1, 12]))
    case("paddle.Tensor.shard_index", "x.shard_index(8, 2, 1)", x=I([[3], [5]]))


# ---------------------------------------------------------------------------- reshaping etc.
def shape_cases():
    case("paddle.strided_slice", "paddle.strided_slice(x, [0, 1], [0, 0], [3, 4], [2, 1])",
         x=T("float32", [3, 4]))
    case("paddle.strided_slice", "paddle.strided_slice(x, [1], [3], [0], [-1])", tag="neg-stride",
         x=T("float32", [2, 4]))
    case("paddle.strided_slice", "paddle.strided_slice(x, [-1, 0], [-3, -2], [100, 2], [2, 1])",
         tag="neg-axis-clamp", x=T("float64", [3, 2, 5]))
    case("paddle.strided_slice", "paddle.strided_slice(x, [0], [-1], [-100], [-2])",
         tag="neg-all", x=T("int64", [6], "ints"))
    case("paddle.strided_slice", "paddle.strided_slice(x, [0], [s], [e], [st])", tag="tensors",
         x=T("float32", [6]), s=I(1, shape=[]), e=I(5, shape=[]), st=I(2, shape=[]))
    case("paddle.strided_slice", "paddle.strided_slice(x, [0], [0], [3], [0])", tag="zero-stride",
         x=T("float32", [4]))
    case("paddle.Tensor.strided_slice", "x.strided_slice([0], [1], [4], [2])",
         x=T("float32", [5]))
    case("paddle.reverse", "paddle.reverse(x, 0)", x=T("float32", [3, 2]))
    case("paddle.reverse", "paddle.reverse(x, [0, -1])", tag="list", x=T("float64", [2, 3, 2]))
    case("paddle.reverse", "paddle.reverse(x, [])", tag="empty-axes", x=T("int32", [3], "ints"))
    case("paddle.reverse", "paddle.reverse(x, (1,))", tag="tuple", x=T("bool", [2, 2], "bools"))
    case("paddle.Tensor.reverse", "x.reverse([0])", x=T("float32", [3]))
    for k in (1, 2, 3, -1, 4, 5):
        case("paddle.rot90", f"paddle.rot90(x, k={k})", tag=f"k{k}", x=T("float32", [2, 3]))
    case("paddle.rot90", "paddle.rot90(x, 1, [1, 2])", tag="3d", x=T("float64", [2, 3, 4]))
    case("paddle.rot90", "paddle.rot90(x, 1, [-1, 0])", tag="neg-axes", x=T("int64", [2, 3], "ints"))
    case("paddle.rot90", "paddle.rot90(x, 1, [0, 0])", tag="same-axes", x=T("float32", [2, 3]))
    case("paddle.rot90", "paddle.rot90(x, 1, [0])", tag="one-axis", x=T("float32", [2, 3]))
    case("paddle.rot90", "paddle.rot90(x)", tag="1d", x=T("float32", [3]))
    case("paddle.Tensor.rot90", "x.rot90(2)", x=T("float32", [2, 2]))
    case("paddle.crop", "paddle.crop(x, shape=[2, 2])", x=T("float32", [3, 3]))
    case("paddle.crop", "paddle.crop(x, shape=[2, -1], offsets=[1, 1])", tag="neg1-offsets",
         x=T("float32", [3, 4]))
    case("paddle.crop", "paddle.crop(x, shape=[-1, 2, 2], offsets=[0, 1, 0])", tag="3d",
         x=T("float64", [2, 3, 4]))
    case("paddle.crop", "paddle.crop(x, shape=s, offsets=o)", tag="tensor-args",
         x=T("float32", [3, 4]), s=I([2, 3], dtype="int32"), o=I([1, 0], dtype="int32"))
    case("paddle.crop", "paddle.crop(x)", tag="no-shape", x=T("int64", [2, 3], "ints"))
    case("paddle.crop", "paddle.crop(x, shape=[2, 2], offsets=[2, 2])", tag="too-far",
         x=T("float32", [3, 3]))
    case("paddle.crop", "paddle.crop(x, shape=y)", tag="shape-tensor-ref",
         x=T("float32", [3, 3]), y=T("float32", [2, 1]))
    case("paddle.rank", "paddle.rank(x)", x=T("float32", [2, 3]))
    case("paddle.rank", "paddle.rank(x)", tag="0d", x=T("int32", [], "ints"))
    case("paddle.Tensor.rank", "x.rank()", x=T("float32", [2, 1, 1]))
    case("paddle.tolist", "paddle.tolist(x)", x=T("float32", [2, 3]))
    case("paddle.tolist", "paddle.tolist(x)", tag="0d", x=T("int64", [], "ints"))
    case("paddle.tolist", "paddle.tolist(x)", tag="bool", x=T("bool", [2], "bools"))
    case("paddle.Tensor.tolist", "x.tolist()", x=T("int32", [2, 2], "ints"))
    case("paddle.combinations", "paddle.combinations(x)", x=T("float32", [4]))
    case("paddle.combinations", "paddle.combinations(x, r=3)", tag="r3", x=T("int64", [4], "ints"))
    case("paddle.combinations", "paddle.combinations(x, 2, True)", tag="replace",
         x=T("float64", [3]))
    case("paddle.combinations", "paddle.combinations(x, r=5)", tag="r-too-big",
         x=T("float32", [3]))
    case("paddle.combinations", "paddle.combinations(x, r=0)", tag="r0", x=T("float32", [3]))
    case("paddle.combinations", "paddle.combinations(x)", tag="2d", x=T("float32", [2, 2]))
    case("paddle.Tensor.combinations", "x.combinations(1)", x=T("float32", [3]))
    case("paddle.unique_consecutive", "paddle.unique_consecutive(x)",
         x=I([1, 1, 2, 2, 3, 1, 1, 2]))
    case("paddle.unique_consecutive", "paddle.unique_consecutive(x, True, True)", tag="all",
         x=I([1, 1, 2, 2, 3, 1, 1, 2], dtype="int32"))
    case("paddle.unique_consecutive",
         "paddle.unique_consecutive(x, return_counts=True, dtype='int32')", tag="dtype",
         x=F([1.0, 1.0, 2.0, 2.0]))
    case("paddle.unique_consecutive",
         "paddle.unique_consecutive(x, return_inverse=True, return_counts=True, axis=0)",
         tag="axis0", x=I([[1, 2], [1, 2], [3, 4], [1, 2]]))
    case("paddle.unique_consecutive", "paddle.unique_consecutive(x, True, axis=-1)",
         tag="axis-neg", x=I([[1, 1, 2], [3, 3, 4]]))
    case("paddle.unique_consecutive", "paddle.unique_consecutive(x, True)", tag="2d-flat",
         x=I([[1, 1], [1, 2]]))
    case("paddle.unique_consecutive", "paddle.unique_consecutive(x)", tag="empty",
         x=T("float32", [0]))
    case("paddle.Tensor.unique_consecutive", "x.unique_consecutive(return_counts=True)",
         x=I([5, 5, 6]))
    case("paddle.reduce_as", "paddle.reduce_as(x, t)", x=T("float32", [2, 3, 4]),
         t=T("float32", [3, 1]))
    case("paddle.reduce_as", "paddle.reduce_as(x, t)", tag="lead", x=T("float64", [2, 3]),
         t=T("float64", [3]))
    case("paddle.reduce_as", "paddle.reduce_as(x, t)", tag="same", x=T("float32", [2, 3]),
         t=T("float32", [2, 3]))
    case("paddle.reduce_as", "paddle.reduce_as(x, t)", tag="i32", x=T("int32", [2, 3], "ints"),
         t=T("int32", [1, 3], "ints"))
    case("paddle.reduce_as", "paddle.reduce_as(x, t)", tag="bool", x=T("bool", [2, 3], "bools"),
         t=T("bool", [3], "bools"))
    case("paddle.reduce_as", "paddle.reduce_as(x, t)", tag="bad", x=T("float32", [2, 3]),
         t=T("float32", [2]))
    case("paddle.reduce_as", "paddle.reduce_as(x, t)", tag="0d-target", x=T("float32", [2, 3]),
         t=T("float32", []))
    case("paddle.Tensor.reduce_as", "x.reduce_as(t)", x=T("float32", [4, 2]), t=T("float32", [2]))


# ---------------------------------------------------------------------------- creation
def creation_cases():
    case("paddle.logspace", "paddle.logspace(0, 3, 4)")
    case("paddle.logspace", "paddle.logspace(0, 1, 5, base=2.0, dtype='float64')", tag="base2")
    case("paddle.logspace", "paddle.logspace(0, 4, 5, 2, 'int32')", tag="int32")
    case("paddle.logspace", "paddle.logspace(1, 3, 3, dtype='int64')", tag="int64")
    case("paddle.logspace", "paddle.logspace(2, 0, 3)", tag="desc")
    case("paddle.logspace", "paddle.logspace(0, 3, 1)", tag="num1")
    case("paddle.logspace", "paddle.logspace(0.5, 1.5, 3, 10.0, 'float16')", tag="f16")
    case("paddle.logspace", "paddle.logspace(s, e, n, b)", tag="tensors",
         s=F(0.0, shape=[]), e=F(2.0, shape=[]), n=I(3, shape=[], dtype="int32"),
         b=F(3.0, shape=[]), grad=False)
    case("paddle.logspace", "paddle.logspace(0, 2, 3, dtype='bool')", tag="bool")
    for fn in ("triu_indices", "tril_indices"):
        api = f"paddle.{fn}"
        case(api, f"paddle.{fn}(3, 3)")
        case(api, f"paddle.{fn}(4, 3, 1)", tag="offset1")
        case(api, f"paddle.{fn}(3, 4, -1)", tag="offset-1")
        case(api, f"paddle.{fn}(3, 3, 0, 'int32')", tag="int32")
        case(api, f"paddle.{fn}(0, 3)", tag="empty")
        case(api, f"paddle.{fn}(2, 3, 5)", tag="big-offset")
        case(api, f"paddle.{fn}(3, 3, 0, 'float32')", tag="float-dtype")
    case("paddle.triu_indices", "paddle.triu_indices(3)", tag="col-none")


# ---------------------------------------------------------------------------- search
def search_cases():
    case("paddle.kthvalue", "paddle.kthvalue(x, 2)", x=T("float32", [5]))
    case("paddle.kthvalue", "paddle.kthvalue(x, 1, axis=0)", tag="axis0", x=T("float32", [3, 4]))
    case("paddle.kthvalue", "paddle.kthvalue(x, 3, axis=-1, keepdim=True)", tag="keepdim",
         x=T("float64", [2, 3, 4]))
    case("paddle.kthvalue", "paddle.kthvalue(x, 2, 1)", tag="ties",
         x=T("float32", [3, 5], "ties"))
    case("paddle.kthvalue", "paddle.kthvalue(x, 2)", tag="i64", x=T("int64", [2, 4], "ints"))
    case("paddle.kthvalue", "paddle.kthvalue(x, 2)", tag="i32", x=T("int32", [4], "ints"))
    case("paddle.kthvalue", "paddle.kthvalue(x, 1)", tag="0d", x=T("float32", []))
    case("paddle.kthvalue", "paddle.kthvalue(x, 6)", tag="k-too-big", x=T("float32", [5]))
    case("paddle.kthvalue", "paddle.kthvalue(x, 2)", tag="nan",
         x=F([1.0, float("nan"), 0.5, 2.0]))
    case("paddle.kthvalue", "paddle.kthvalue(x, 2)", tag="f16", x=T("float16", [4]))
    case("paddle.Tensor.kthvalue", "x.kthvalue(2, axis=0)", x=T("float32", [3, 2]))
    case("paddle.mode", "paddle.mode(x)", x=T("float32", [6], "ties"))
    case("paddle.mode", "paddle.mode(x, axis=0)", tag="axis0", x=T("float32", [5, 3], "ties"))
    case("paddle.mode", "paddle.mode(x, -1, True)", tag="keepdim", x=T("float64", [2, 3, 6], "ties"))
    case("paddle.mode", "paddle.mode(x)", tag="i64", x=T("int64", [2, 7], "ties"))
    case("paddle.mode", "paddle.mode(x)", tag="i32", x=T("int32", [7], "ties"))
    case("paddle.mode", "paddle.mode(x)", tag="all-distinct", x=T("float32", [4]))
    case("paddle.mode", "paddle.mode(x)", tag="0d", x=T("float32", []))
    case("paddle.Tensor.mode", "x.mode(axis=1)", x=T("float32", [2, 5], "ties"))
    seq = F([1.0, 3.0, 5.0, 7.0, 9.0])
    case("paddle.bucketize", "paddle.bucketize(x, s)", x=F([[0.5, 3.0, 6.0], [9.0, 10.0, 5.0]]),
         s=seq)
    case("paddle.bucketize", "paddle.bucketize(x, s, right=True)", tag="right",
         x=F([[0.5, 3.0, 6.0], [9.0, 10.0, 5.0]]), s=seq)
    case("paddle.bucketize", "paddle.bucketize(x, s, out_int32=True)", tag="int32",
         x=I([1, 4, 9]), s=I([1, 3, 5, 7, 9]))
    case("paddle.bucketize", "paddle.bucketize(x, s)", tag="0d", x=F(4.0, shape=[]), s=seq)
    case("paddle.bucketize", "paddle.bucketize(x, s)", tag="2d-seq", x=F([1.0]),
         s=F([[1.0, 2.0]]))
    case("paddle.Tensor.bucketize", "x.bucketize(s)", x=F([2.0, 8.0]), s=seq)


# ---------------------------------------------------------------------------- math
def math_cases():
    for fn, dom in (("i0e", "small"), ("i1", "small"), ("i1e", "small"), ("sinc", "small")):
        api = f"paddle.{fn}"
        case(api, f"paddle.{fn}(x)", tag="f32", x=T("float32", [2, 3], dom, [0.0]))
        case(api, f"paddle.{fn}(x)", tag="f64", x=T("float64", [2, 1, 3], dom))
        case(api, f"paddle.{fn}(x)", tag="0d", x=T("float32", [], dom))
        case(api, f"paddle.{fn}(x)", tag="empty", x=T("float32", [0, 2], dom))
        case(api, f"paddle.{fn}(x)", tag="special", x=T("float32", [5], dom, M.SPECIAL))
        case(api, f"paddle.{fn}(x)", tag="f16", x=T("float16", [4], dom))
        case(api, f"paddle.{fn}(x)", tag="bf16", x=T("bfloat16", [4], dom))
        case(api, f"paddle.{fn}(x)", tag="i32", x=T("int32", [3], "ints"))
        case(api, f"paddle.{fn}(x)", tag="i64", x=T("int64", [3], "ints"))
        case(api, f"paddle.{fn}([1.0])", tag="list")
        case(f"paddle.Tensor.{fn}", f"x.{fn}()", x=T("float32", [3], dom))
    case("paddle.sinc_", "paddle.sinc_(x)", inplace=True, x=T("float32", [3]))
    case("paddle.Tensor.sinc_", "x.sinc_()", inplace=True, x=T("float32", [3]))
    for fn in ("positive", "negative"):
        api = f"paddle.{fn}"
        case(api, f"paddle.{fn}(x)", tag="f32", x=T("float32", [2, 3]))
        case(api, f"paddle.{fn}(x)", tag="i32", x=T("int32", [3], "ints"))
        case(api, f"paddle.{fn}(x)", tag="i64", x=T("int64", [3], "ints"))
        case(api, f"paddle.{fn}(x)", tag="0d", x=T("float64", []))
        case(api, f"paddle.{fn}(x)", tag="bool", x=T("bool", [3], "bools"))
        case(api, f"paddle.{fn}(x)", tag="f16", x=T("float16", [3]))
    case("paddle.Tensor.negative", "x.negative()", x=T("float32", [3]))
    for n in (0, 1, 2, 3):
        case("paddle.polygamma", f"paddle.polygamma(x, {n})", tag=f"n{n}",
             x=T("float32", [2, 3], "half"))
    case("paddle.polygamma", "paddle.polygamma(x, 1)", tag="f64", x=T("float64", [3], "half"))
    case("paddle.polygamma", "paddle.polygamma(x, 1)", tag="i64", x=T("int64", [3], "posints"))
    case("paddle.polygamma", "paddle.polygamma(x, 1)", tag="neg-x", x=F([-1.5, -0.5, 0.0]))
    case("paddle.polygamma", "paddle.polygamma(x, -1)", tag="neg-n", x=T("float32", [3], "half"))
    case("paddle.polygamma", "paddle.polygamma(x, 1.5)", tag="float-n", x=T("float32", [3], "half"))
    case("paddle.polygamma", "paddle.polygamma(x, 2)", tag="0d", x=T("float32", [], "half"))
    case("paddle.polygamma_", "paddle.polygamma_(x, 1)", inplace=True, x=T("float32", [3], "half"))
    case("paddle.Tensor.polygamma", "x.polygamma(2)", x=T("float32", [3], "half"))
    case("paddle.Tensor.polygamma_", "x.polygamma_(1)", inplace=True, x=T("float32", [3], "half"))
    case("paddle.renorm", "paddle.renorm(x, 2, 0, 1.0)", x=T("float32", [3, 4]))
    case("paddle.renorm", "paddle.renorm(x, 1, -1, 2.5)", tag="p1-neg",
         x=T("float64", [2, 3, 4]))
    case("paddle.renorm", "paddle.renorm(x, 3.0, 1, 100.0)", tag="no-clip", x=T("float32", [2, 3]))
    case("paddle.renorm", "paddle.renorm(x, 2, 0, 0.5)", tag="zero-row",
         x=F([[0.0, 0.0], [3.0, 4.0]]))
    case("paddle.renorm", "paddle.renorm(x, 2, 2, 1.0)", tag="bad-axis", x=T("float32", [2, 3]))
    case("paddle.renorm_", "paddle.renorm_(x, 2, 0, 1.0)", inplace=True, x=T("float32", [3, 2]))
    case("paddle.Tensor.renorm", "x.renorm(2, 1, 1.0)", x=T("float32", [3, 2]))
    case("paddle.Tensor.renorm_", "x.renorm_(2, 1, 1.0)", inplace=True, x=T("float32", [3, 2]))
    case("paddle.ldexp", "paddle.ldexp(x, y)", x=T("float32", [2, 3]), y=T("int32", [2, 3], "ints"))
    case("paddle.ldexp", "paddle.ldexp(x, y)", tag="f64-bcast", x=T("float64", [2, 3]),
         y=T("int64", [3], "ints"))
    case("paddle.ldexp", "paddle.ldexp(x, y)", tag="int-int", x=T("int64", [3], "ints"),
         y=T("int32", [3], "shift"))
    case("paddle.ldexp", "paddle.ldexp(x, y)", tag="i32-i32", x=T("int32", [3], "ints"),
         y=T("int32", [3], "shift"))
    case("paddle.ldexp", "paddle.ldexp(x, y)", tag="float-exp", x=T("float32", [3]),
         y=T("float32", [3], "ints"))
    case("paddle.ldexp", "paddle.ldexp(x, 2)", tag="scalar-exp", x=T("float32", [3]))
    case("paddle.ldexp_", "paddle.ldexp_(x, y)", inplace=True, x=T("float32", [3]),
         y=T("int32", [3], "shift"))
    case("paddle.Tensor.ldexp", "x.ldexp(y)", x=T("float32", [3]), y=T("int64", [3], "shift"))
    case("paddle.Tensor.ldexp_", "x.ldexp_(y)", inplace=True, x=T("float32", [3]),
         y=T("int64", [3], "shift"))
    case("paddle.nextafter", "paddle.nextafter(x, y)", x=T("float32", [2, 3]),
         y=T("float32", [2, 3]))
    case("paddle.nextafter", "paddle.nextafter(x, y)", tag="f64-bcast", x=T("float64", [2, 3]),
         y=T("float64", [3]))
    case("paddle.nextafter", "paddle.nextafter(x, y)", tag="special",
         x=F([0.0, 1.0, float("nan"), float("inf"), 2.0]), y=F([1.0, 1.0, 0.0, 0.0, -float("inf")]))
    case("paddle.nextafter", "paddle.nextafter(x, y)", tag="mixed", x=T("float32", [2]),
         y=T("float64", [2]))
    case("paddle.nextafter", "paddle.nextafter(x, y)", tag="int", x=T("int64", [2], "ints"),
         y=T("int64", [2], "ints"))
    case("paddle.Tensor.nextafter", "x.nextafter(y)", x=T("float32", [2]), y=T("float32", [2]))
    for fn in ("gammainc", "gammaincc"):
        api = f"paddle.{fn}"
        case(api, f"paddle.{fn}(x, y)", tag="f32", x=T("float32", [2, 3], "half"),
             y=T("float32", [2, 3], "half"))
        case(api, f"paddle.{fn}(x, y)", tag="f64-bcast", x=T("float64", [2, 1], "half"),
             y=T("float64", [3], "pos"))
        case(api, f"paddle.{fn}(x, y)", tag="zeros", x=F([1.0, 0.0, 2.0]), y=F([0.0, 1.0, 0.0]))
        case(api, f"paddle.{fn}(x, y)", tag="negative", x=F([-1.0, 1.0]), y=F([1.0, -1.0]))
        case(api, f"paddle.{fn}(x, y)", tag="i32", x=T("int32", [2], "posints"),
             y=T("int32", [2], "posints"))
        case(f"{api}_", f"paddle.{fn}_(x, y)", inplace=True, x=T("float32", [3], "half"),
             y=T("float32", [3], "half"))
        case(f"paddle.Tensor.{fn}", f"x.{fn}(y)", x=T("float32", [3], "half"),
             y=T("float32", [3], "half"))
        case(f"paddle.Tensor.{fn}_", f"x.{fn}_(y)", inplace=True, x=T("float32", [3], "half"),
             y=T("float32", [3], "half"))
    case("paddle.frexp", "paddle.frexp(x)", x=T("float32", [2, 3], "normal", [0.0, -0.0]))
    case("paddle.frexp", "paddle.frexp(x)", tag="f64", x=T("float64", [4]))
    case("paddle.frexp", "paddle.frexp(x)", tag="special", x=T("float32", [5], "normal", M.SPECIAL))
    case("paddle.frexp", "paddle.frexp(x)", tag="i32", x=T("int32", [3], "ints"))
    case("paddle.frexp", "paddle.frexp(x)", tag="0d", x=T("float32", []))
    case("paddle.Tensor.frexp", "x.frexp()", x=T("float32", [3]))
    for p in (1, 2, 3):
        case("paddle.multigammaln", f"paddle.multigammaln(x, {p})", tag=f"p{p}",
             x=T("float32", [2, 3], "gt1"))
    case("paddle.multigammaln", "paddle.multigammaln(x, 2)", tag="f64", x=T("float64", [3], "gt1"))
    case("paddle.multigammaln", "paddle.multigammaln(x, 3)", tag="domain", x=F([0.9, 1.2]))
    case("paddle.multigammaln", "paddle.multigammaln(x, 0)", tag="p0", x=F([2.0]))
    case("paddle.multigammaln_", "paddle.multigammaln_(x, 2)", inplace=True,
         x=T("float32", [3], "gt1"))
    case("paddle.Tensor.multigammaln", "x.multigammaln(2)", x=T("float32", [3], "gt1"))
    case("paddle.Tensor.multigammaln_", "x.multigammaln_(2)", inplace=True,
         x=T("float32", [3], "gt1"))
    case("paddle.less", "paddle.less(x, y)", x=T("float32", [2, 3], "ties"),
         y=T("float32", [2, 3], "ties"))
    case("paddle.less", "paddle.less(x, y)", tag="bcast-int", x=T("int32", [2, 3], "ties"),
         y=T("int32", [3], "ties"))
    case("paddle.less", "paddle.less(x, y)", tag="mixed", x=T("float32", [3], "ties"),
         y=T("int64", [3], "ties"))
    case("paddle.less", "paddle.less(x, 1.0)", tag="scalar", x=T("float32", [3], "ties"))
    case("paddle.less", "paddle.less(x, y)", tag="bool", x=T("bool", [3], "bools"),
         y=T("bool", [3], "bools"))
    case("paddle.Tensor.less", "x.less(y)", x=T("float32", [3], "ties"), y=T("float32", [3], "ties"))
    case("paddle.Tensor.less_", "x.less_(y)", inplace=True, x=T("float32", [3], "ties"),
         y=T("float32", [3], "ties"))
    case("paddle.Tensor.__div__", "x.__div__(y)", x=T("float32", [2, 3]), y=T("float32", [3], "pos"))
    case("paddle.Tensor.__div__", "x.__div__(2)", tag="int-scalar", x=T("int64", [3], "ints"))
    case("paddle.Tensor.__div__", "x.__div__(y)", tag="int", x=T("int32", [3], "ints"),
         y=T("int32", [3], "posints"))


# ---------------------------------------------------------------------------- numerical
def numeric_cases():
    for fn in ("trapezoid", "cumulative_trapezoid"):
        api = f"paddle.{fn}"
        case(api, f"paddle.{fn}(y)", tag="1d", y=T("float32", [5]))
        case(api, f"paddle.{fn}(y, dx=0.5)", tag="dx", y=T("float32", [2, 4]))
        case(api, f"paddle.{fn}(y, x)", tag="x", y=T("float64", [2, 4]), x=T("float64", [4]))
        case(api, f"paddle.{fn}(y, x, axis=0)", tag="x-axis0", y=T("float32", [3, 2]),
             x=T("float32", [3, 2]))
        case(api, f"paddle.{fn}(y, axis=-2)", tag="axis-neg", y=T("float32", [2, 3, 2]))
        case(api, f"paddle.{fn}(y, x, dx=1.0)", tag="x-and-dx", y=T("float32", [3]),
             x=T("float32", [3]))
        case(api, f"paddle.{fn}(y)", tag="i64", y=T("int64", [4], "ints"))
        case(api, f"paddle.{fn}(y)", tag="one", y=T("float32", [1]))
        case(api, f"paddle.{fn}(y)", tag="f16", y=T("float16", [4]))
        case(f"paddle.Tensor.{fn}", f"y.{fn}(dx=2.0)", y=T("float32", [3]))
    case("paddle.pdist", "paddle.pdist(x)", x=T("float32", [4, 3]))
    case("paddle.pdist", "paddle.pdist(x, p=1.0)", tag="p1", x=T("float64", [3, 2]))
    case("paddle.pdist", "paddle.pdist(x, p=0)", tag="p0", x=T("float32", [3, 2], "ties"),
         grad=False)
    case("paddle.pdist", "paddle.pdist(x, p=float('inf'))", tag="pinf", x=T("float32", [3, 2]))
    case("paddle.pdist", "paddle.pdist(x, p=3.0)", tag="p3", x=T("float32", [3, 2]))
    case("paddle.pdist", "paddle.pdist(x)", tag="one-row", x=T("float32", [1, 3]))
    case("paddle.pdist", "paddle.pdist(x)", tag="1d", x=T("float32", [3]))


# ---------------------------------------------------------------------------- random
def random_cases():
    """The in-place fills and the random samplers: seeded inside the call, so the values are
    Paddle's CPU stream."""
    def rc(api, call, tag, seed=7, **inputs):
        case(api, f"(paddle.seed({seed}), {call})[1]", tag=tag, grad=False, **inputs)

    for dt in ("float32", "float64"):
        rc("paddle.Tensor.normal_", "x.normal_()", dt, x=T(dt, [3, 4]))
        rc("paddle.Tensor.normal_", "x.normal_(1.5, 0.5)", f"{dt}-args", x=T(dt, [7]))
        rc("paddle.Tensor.uniform_", "x.uniform_()", dt, x=T(dt, [3, 4]))
        rc("paddle.Tensor.uniform_", "x.uniform_(-2.0, 3.0)", f"{dt}-args", x=T(dt, [5]))
        rc("paddle.Tensor.exponential_", "x.exponential_()", dt, x=T(dt, [3, 4]))
        rc("paddle.Tensor.exponential_", "x.exponential_(3.0)", f"{dt}-lam", x=T(dt, [5]))
        rc("paddle.Tensor.log_normal_", "x.log_normal_()", dt, x=T(dt, [2, 3]))
        rc("paddle.Tensor.log_normal_", "x.log_normal_(0.5, 0.25)", f"{dt}-args", x=T(dt, [5]))
        rc("paddle.Tensor.geometric_", "x.geometric_(0.3)", dt, x=T(dt, [3, 4]))
        rc("paddle.Tensor.cauchy_", "x.cauchy_()", dt, x=T(dt, [3, 4]))
        rc("paddle.Tensor.cauchy_", "x.cauchy_(1.0, 2.0)", f"{dt}-args", x=T(dt, [5]))
        rc("paddle.Tensor.bernoulli_", "x.bernoulli_()", dt, x=T(dt, [3, 4]))
        rc("paddle.Tensor.bernoulli_", "x.bernoulli_(0.2)", f"{dt}-p", x=T(dt, [8]))
        rc("paddle.log_normal", f"paddle.log_normal(shape=[2, 3]).astype('{dt}')", dt)
    rc("paddle.Tensor.bernoulli_", "x.bernoulli_(p)", "tensor-p", x=T("float32", [6]),
       p=T("float32", [6], "prob"))
    rc("paddle.Tensor.geometric_", "x.geometric_(p)", "tensor-p", x=T("float32", [4]),
       p=T("float32", [4], "prob"))
    rc("paddle.Tensor.normal_", "x.normal_()", "empty", x=T("float32", [0, 2]))
    case("paddle.Tensor.normal_", "x.normal_()", tag="leaf-error", x=T("float32", [3]))
    rc("paddle.Tensor.exponential_", "(x.exponential_(), x.exponential_())[1]", "twice",
       x=T("float32", [4]))
    rc("paddle.log_normal", "paddle.log_normal(0.0, 1.0, [4])", "args")
    rc("paddle.log_normal", "paddle.log_normal(m, s)", "tensors", m=T("float32", [3]),
       s=T("float32", [3], "pos"))
    rc("paddle.log_normal", "paddle.log_normal(m, s)", "tensors-f64", m=T("float64", [2, 2]),
       s=T("float64", [2, 2], "pos"))
    rc("paddle.log_normal_", "paddle.log_normal_(x)", "fn", x=T("float32", [4]))
    # standard_gamma and binomial: checked statistically by the test; dtype/shape/errors here
    meta = "(lambda r: [r.dtype == paddle.{}, list(r.shape)])(paddle.{})"
    case("paddle.standard_gamma", meta.format("float32", "standard_gamma(x)"),
         tag="meta", x=T("float32", [2, 3], "pos"), grad=False)
    case("paddle.standard_gamma", "paddle.standard_gamma(x)", tag="int", x=T("int64", [3], "posints"))
    case("paddle.binomial",
         meta.format("int64", "binomial(n, p)"),
         tag="meta", n=T("int64", [2, 3], "posints"), p=T("float32", [3], "prob"), grad=False)
    case("paddle.binomial", "paddle.binomial(n, p)", tag="p-one", n=I([3, 5]), p=F([1.0, 0.0]))
    case("paddle.binomial", "paddle.binomial(n, p)", tag="int-p", n=I([3, 5]), p=I([1, 0]))


# ---------------------------------------------------------------------------- autograd
def autograd_cases():
    # Jacobian/Hessian objects are indexed ([:] / [i, j]) to get Tensors
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x * x, x)[:]", x=T("float32", [3]))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(paddle.matmul(a, x), x)[:]",
         tag="matvec", a=T("float32", [2, 3]), x=T("float32", [3]))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x.exp(), x)[:]", tag="2d",
         x=T("float64", [2, 2]))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x.sum(), x)[:]", tag="0d-y",
         x=T("float32", [3]))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x * 2, x)[:]", tag="0d-x",
         x=T("float32", []))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x * x, x, batch_axis=0)[:]",
         tag="batch", x=T("float32", [2, 3]))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x * x, x, batch_axis=0)[1]",
         tag="batch-row", x=T("float32", [2, 3]))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x * x, x)[1]", tag="row",
         x=T("float32", [3]))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x * x, x)[:, 1]", tag="col",
         x=T("float32", [3]))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x * x, x)[1:, 0:2]", tag="slices",
         x=T("float32", [3]))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x * x, x).shape",
         tag="shape", x=T("float32", [2, 3]))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x * x, x, batch_axis=0).shape",
         tag="batch-shape", x=T("float32", [2, 3]))
    case("paddle.autograd.jacobian",
         "[[j[:] for j in r] for r in paddle.autograd.jacobian([x * y, x + y], [x, y])]", tag="lists",
         x=T("float32", [2]), y=T("float32", [2]))
    case("paddle.autograd.jacobian",
         "[j[:] for j in paddle.autograd.jacobian(x * y, [x, y])]", tag="xs-list",
         x=T("float32", [2]), y=T("float32", [2]))
    case("paddle.autograd.jacobian",
         "[j[:] for j in paddle.autograd.jacobian((x * 2, x * 3), x)]", tag="ys-tuple",
         x=T("float32", [2]))
    case("paddle.autograd.jacobian", "paddle.autograd.jacobian(x * x, x, batch_axis=1)",
         tag="bad-batch-axis", x=T("float32", [2, 3]))
    case("paddle.autograd.hessian", "paddle.autograd.hessian((x * x * x).sum(), x)[:]",
         x=T("float32", [3]))
    case("paddle.autograd.hessian", "paddle.autograd.hessian((x * y).sum() + (x * x).sum(), x)[:]",
         tag="two-inputs", x=T("float64", [2]), y=T("float64", [2]))
    case("paddle.autograd.hessian",
         "[[h[:] for h in row] for row in paddle.autograd.hessian((x * y * y).sum(), [x, y])]",
         tag="xs-list", x=T("float32", [2]), y=T("float32", [2]))
    case("paddle.autograd.hessian",
         "paddle.autograd.hessian(x.exp().sum(axis=1), x, batch_axis=0)[:]",
         tag="batch", x=T("float32", [2, 3]))
    case("paddle.autograd.hessian", "paddle.autograd.hessian(x.exp(), x)", tag="non-scalar",
         x=T("float32", [3]))
    case("paddle.autograd.hessian", "paddle.autograd.hessian((x.exp()).sum(), x).shape",
         tag="shape", x=T("float32", [2, 2]))


def segment_cases():
    ids = I([0, 0, 1, 3])
    for op in ("sum", "mean", "max", "min"):
        api = f"paddle.incubate.segment_{op}"
        case(api, f"paddle.incubate.segment_{op}(x, i)", x=T("float32", [4, 3]), i=ids)
        case(api, f"paddle.incubate.segment_{op}(x, i)", tag="f64-1d", x=T("float64", [4]), i=ids)
        case(api, f"paddle.incubate.segment_{op}(x, i)", tag="i32", x=T("int32", [4, 2], "ints"),
             i=I([0, 1, 1, 1], dtype="int32"))


def main():
    diagonal_cases()
    complex_cases()
    histogram_cases()
    view_cases()
    index_cases()
    shape_cases()
    creation_cases()
    search_cases()
    math_cases()
    numeric_cases()
    random_cases()
    autograd_cases()
    segment_cases()
    data = {"meta": {"paddle": paddle.__version__, "numpy": np.__version__}, "cases": CASES}
    text = json.dumps(data, separators=(",", ":"))
    with open(OUT, "w") as f:
        f.write(text)
    print(f"{len(CASES)} cases, {len(text) / 1e6:.2f} MB -> {os.path.normpath(OUT)}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
