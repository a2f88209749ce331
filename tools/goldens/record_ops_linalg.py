"""Record Paddle 3.3.1's linear algebra, ``paddle.fft`` and ``paddle.signal`` as goldens for
tests/test_ops_linalg.py. Run with the oracle interpreter (real Paddle lives only there):

    /work/paddle_venv/bin/python tools/goldens/record_ops_linalg.py

Writes tests/goldens/ops_linalg.json: {"meta": ..., "cases": [...]}. Each case:

* ``api``: the Paddle name (as in api_targets.tsv); ``id``: unique, readable;
* ``inputs``: name -> {dtype, shape, values}; inputs are drawn from a seeded numpy generator
  (bfloat16 values are stored as the float32 values Paddle holds; complex as [re, im]);
* ``code``: Python statements run with ``paddle``, ``np`` and the inputs bound by name; they
  set ``out`` (a Tensor or a tuple of Tensors);
* ``expected``: {"outputs": [{dtype, shape, values, cmp}], "tuple": bool} or {"error": name};
  ``cmp`` is "val" (values), "abs" (absolute values: vectors unique up to sign or phase) or
  "none" (dtype and shape only: random or otherwise not comparable);
* ``grad``: for differentiable cases, the inputs differentiated; ``weights`` per float output;
  ``grads``: name -> values of d sum(out * weight) / d input (complex outputs: the real and
  imaginary parts weighted separately, by ``weights`` and ``weights_imag``);
* ``note``: why the expected values do not come from Paddle itself, where they do not:
  "float32": Paddle's CPU build has no float16/bfloat16 kernel, so the expected values are the
  float32 results cast; "numpy": Paddle 3.3.1 fails against its own documentation (fftshift).
"""
import json
import math
import os
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

paddle.set_device("cpu")
paddle.seed(2024)   # svd_lowrank draws its start matrix from Paddle's generator
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "ops_linalg.json")
rng = np.random.default_rng(20240611)
CASES = []
FLOATS = ("float16", "bfloat16", "float32", "float64")


# ---------------------------------------------------------------------- inputs
def rand(shape, dtype="float32", lo=-2.0, hi=2.0):
    """A random array for ``dtype``: uniform floats, ints in [-5, 5], random bools."""
    if dtype == "bool":
        return ("bool", rng.random(shape) < 0.5)
    if dtype.startswith("int"):
        return (dtype, rng.integers(-5, 6, size=shape).astype(dtype))
    if dtype.startswith("complex"):
        v = rng.uniform(lo, hi, shape) + 1j * rng.uniform(lo, hi, shape)
        return (dtype, v.astype(dtype))
    v = rng.uniform(lo, hi, shape)
    if dtype == "bfloat16":
        v = paddle.to_tensor(v.astype("float32")).astype("bfloat16").astype("float32").numpy()
        return ("bfloat16", v)
    return (dtype, v.astype(dtype))


def spd(n, batch=(), dtype="float32"):
    """A symmetric positive-definite (batch of) n x n matrix."""
    a = rng.uniform(-1, 1, tuple(batch) + (n, n))
    return (dtype, (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype))


def lowrank(m, n, r, batch=(), dtype="float32"):
    """An m x n matrix of rank r with well separated singular values."""
    u = np.linalg.qr(rng.normal(size=tuple(batch) + (m, r)))[0]
    v = np.linalg.qr(rng.normal(size=tuple(batch) + (n, r)))[0]
    s = np.arange(r, 0, -1, dtype=np.float64) * 2.0
    return (dtype, ((u * s[..., None, :]) @ np.swapaxes(v, -1, -2)).astype(dtype))


def tri(n, upper, batch=()):
    a = rng.uniform(-1, 1, tuple(batch) + (n, n)) + 3 * np.eye(n)
    return ("float32", (np.triu(a) if upper else np.tril(a)).astype("float32"))


def to_paddle(spec, grad):
    dtype, arr = spec
    if dtype == "bfloat16":
        t = paddle.to_tensor(arr.astype("float32")).astype("bfloat16")
    else:
        t = paddle.to_tensor(arr, dtype=dtype)
    if grad:
        t.stop_gradient = False
    return t


# ---------------------------------------------------------------------- serialisation
def dtype_name(t):
    return str(t.dtype).replace("paddle.", "")


def values(t):
    """Flat JSON values of a Tensor or array (bfloat16 via float32, complex as [re, im])."""
    a = t.astype("float32").numpy() if hasattr(t, "dtype") and dtype_name(t) == "bfloat16" \
        else np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    a = a.reshape(-1)
    if a.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in a]
    if a.dtype.kind == "f":
        return [float(v) for v in a]
    if a.dtype.kind == "b":
        return [bool(v) for v in a]
    return [int(v) for v in a]


def encode_input(spec):
    dtype, arr = spec
    return {"dtype": dtype, "shape": list(arr.shape), "values": values(arr)}


def encode_output(t, cmp):
    return {"dtype": dtype_name(t), "shape": list(t.shape), "values": values(t), "cmp": cmp}


def run_code(code, env):
    exec(code, env)
    return env["out"]


def case(api, cid, code, inputs, grad=(), cmp=None, note=None, float32_ref=False,
         numpy_ref=None, aborts=False, grad_code=None):
    """Run ``code`` on Paddle and store the case (see the module docstring). ``aborts``: Paddle
    kills the process here (SIGABRT), so the case expects the ValueError its checks imply.
    ``grad_code``: an equivalent computation whose backward Paddle gets right where the
    backward of ``code`` itself fails (matmul with broadcast batch axes)."""
    c = {"api": api, "id": f"{api}-{cid}", "code": code,
         "inputs": {k: encode_input(v) for k, v in inputs.items()}}
    if aborts:
        c.update(expected={"error": "ValueError"}, note="Paddle 3.3.1 aborts (SIGABRT)")
        CASES.append(c)
        return
    if numpy_ref is not None:   # Paddle fails against its docs: the docs' (numpy's) values
        c.update(expected={"tuple": False, "outputs": [
            {"dtype": str(numpy_ref.dtype), "shape": list(numpy_ref.shape),
             "values": values(numpy_ref), "cmp": "val"}]}, note="numpy")
        CASES.append(c)
        return
    env = {"paddle": paddle, "np": np, "math": math}
    if float32_ref:   # Paddle CPU lacks the kernel: run in float32 and cast the result back
        env.update({k: to_paddle(("float32", v[1].astype("float32")), k in grad)
                    for k, v in inputs.items()})
        note = "float32"
    else:
        env.update({k: to_paddle(v, k in grad) for k, v in inputs.items()})
    try:
        out = run_code(code, env)
    except Exception as e:  # noqa: BLE001  the exception type is the golden
        c["expected"] = {"error": type(e).__name__}
        CASES.append(c)
        return
    is_tuple = isinstance(out, (tuple, list))
    outs = list(out) if is_tuple else [out]
    if float32_ref:
        dt = next(v[0] for v in inputs.values())
        outs = [o.astype(dt) for o in outs]
    cmps = cmp or ["val"] * len(outs)
    c["expected"] = {"tuple": is_tuple,
                     "outputs": [encode_output(o, m) for o, m in zip(outs, cmps)]}
    if note:
        c["note"] = note
    if grad:
        c["grad"] = list(grad)
        weights, weights_imag, loss = [], [], 0
        for o in outs:
            d = dtype_name(o)
            if d in FLOATS or d.startswith("complex"):
                w = rng.uniform(-1, 1, o.shape).astype("float32")
                weights.append([float(v) for v in w.reshape(-1)])
                wt = paddle.to_tensor(w).astype("float32" if d.startswith("complex") else d)
                if d.startswith("complex"):
                    wi = rng.uniform(-1, 1, o.shape).astype("float32")
                    weights_imag.append([float(v) for v in wi.reshape(-1)])
                    wit = paddle.to_tensor(wi)
                    rl = paddle.real(o).astype("float32")
                    im = paddle.imag(o).astype("float32")
                    loss = loss + (rl * wt).sum() + (im * wit).sum()
                else:
                    weights_imag.append(None)
                    loss = loss + (o * wt).sum()
            else:
                weights.append(None)
                weights_imag.append(None)
        c["weights"], c["weights_imag"] = weights, weights_imag
        if grad_code is not None:
            env = {"paddle": paddle, "np": np, "math": math}
            env.update({k: to_paddle(v, k in grad) for k, v in inputs.items()})
            go = run_code(grad_code, env)
            loss = (go * paddle.to_tensor(np.array(weights[0], "float32").reshape(go.shape))).sum()
            c["grad_note"] = f"Paddle 3.3.1's backward fails here; grads from {grad_code!r}"
        ins = [env[k] for k in grad]
        try:
            gs = paddle.grad([loss], ins, allow_unused=True)
        except Exception as e:  # noqa: BLE001  Paddle's backward fails for a few shapes
            print(f"{c['id']}: Paddle's backward raised {type(e).__name__}; no grad golden")
            c["grad_note"] = f"Paddle 3.3.1's backward raises {type(e).__name__} here"
            for k in ("grad", "weights", "weights_imag"):
                del c[k]
            CASES.append(c)
            return
        c["grads"] = {k: (None if g is None else values(g)) for k, g in zip(grad, gs)}
    CASES.append(c)


# ---------------------------------------------------------------------- the matmul family
GRAD_CODE = {
    "bcast": "out = paddle.matmul(x.expand([2, 5, 2, 3]), y.expand([2, 5, 3, 4]))",
    "tx-1d": "out = paddle.matmul(x, y)",
    "ty-bcast": "out = paddle.matmul(x.expand([2, 5, 2, 3]), y.expand([2, 5, 4, 3]), False, True)",
}


def record_matmul():
    mm = "paddle.matmul"
    for dt in ("float32", "float64", "int32", "int64", "complex64"):
        g = ("x", "y") if dt in ("float32", "float64") else ()
        case(mm, f"2d-{dt}", "out = paddle.matmul(x, y)",
             {"x": rand([2, 3], dt), "y": rand([3, 4], dt)}, grad=g)
    for dt in ("float16", "bfloat16"):
        case(mm, f"2d-{dt}", "out = paddle.matmul(x, y)",
             {"x": rand([2, 3], dt), "y": rand([3, 4], dt)}, float32_ref=True)
    shapes = [("1d-1d", [3], [3]), ("1d-2d", [3], [3, 4]), ("2d-1d", [2, 3], [3]),
              ("3d-1d", [2, 2, 3], [3]), ("1d-3d", [3], [2, 3, 4]),
              ("bcast", [2, 1, 2, 3], [5, 3, 4]), ("3d-2d", [4, 2, 3], [3, 5]),
              ("empty", [0, 3], [3, 4]), ("empty-k", [2, 0], [0, 4])]
    for name, sx, sy in shapes:
        case(mm, name, "out = paddle.matmul(x, y)", {"x": rand(sx), "y": rand(sy)},
             grad=("x", "y") if name != "empty" else (), grad_code=GRAD_CODE.get(name))
    flags = [("tx", [3, 2], [3, 4], "transpose_x=True"),
             ("ty", [2, 3], [4, 3], "transpose_y=True"),
             ("txy", [2, 3, 2], [2, 4, 3], "transpose_x=True, transpose_y=True"),
             ("tx-1d", [3], [3, 4], "transpose_x=True"),
             ("ty-1d", [3], [3], "transpose_x=True, transpose_y=True"),
             ("ty-1d-2d", [3], [4, 3], "transpose_y=True"),
             ("ty-bcast", [2, 1, 2, 3], [5, 4, 3], "False, True")]
    for name, sx, sy, kw in flags:
        case(mm, name, f"out = paddle.matmul(x, y, {kw})", {"x": rand(sx), "y": rand(sy)},
             grad=("x", "y"), grad_code=GRAD_CODE.get(name))
    for name, sx, sy in [("mismatch", [2, 3], [4, 3]), ("0d", [], [3]),
                         ("bad-bcast", [2, 2, 3], [3, 3, 4])]:
        case(mm, name, "out = paddle.matmul(x, y)", {"x": rand(sx), "y": rand(sy)})
    mixes = [("f32-f64", "float32", "float64"), ("f32-i64", "float32", "int64"),
             ("f32-i32", "float32", "int32"), ("i64-f32", "int64", "float32"),
             ("f64-i64", "float64", "int64"), ("i32-i64", "int32", "int64"),
             ("f32-c64", "float32", "complex64"), ("c64-f32", "complex64", "float32"),
             ("bool", "bool", "bool")]
    for name, a, b in mixes:
        case(mm, f"mix-{name}", "out = paddle.matmul(x, y)",
             {"x": rand([2, 3], a), "y": rand([3, 2], b)})
    case(mm, "not-tensor", "out = paddle.matmul([[1.0]], y)", {"y": rand([1, 1])})
    case("paddle.Tensor.matmul", "method", "out = x.matmul(y, transpose_y=True)",
         {"x": rand([2, 3]), "y": rand([4, 3])}, grad=("x", "y"))
    case("paddle.Tensor.__matmul__", "op", "out = x @ y", {"x": rand([2, 2, 3]),
                                                           "y": rand([3, 4])}, grad=("x", "y"))
    case("paddle.Tensor.__matmul__", "op-1d", "out = x @ y", {"x": rand([3]), "y": rand([3])})
    case("paddle.Tensor.__rmatmul__", "rop", "out = y.__rmatmul__(x)",
         {"x": rand([2, 3]), "y": rand([3, 2])})

    case("paddle.mm", "2d", "out = paddle.mm(x, y)", {"x": rand([2, 3]), "y": rand([3, 4])},
         grad=("x", "y"))
    case("paddle.mm", "bcast", "out = paddle.mm(x, y)", {"x": rand([2, 2, 3]),
                                                         "y": rand([3, 4])})
    case("paddle.mm", "1d", "out = paddle.mm(input=x, mat2=y)", {"x": rand([3]),
                                                                 "y": rand([3, 4])})
    case("paddle.mm", "f64", "out = x.mm(y)", {"x": rand([2, 3], "float64"),
                                               "y": rand([3, 4], "float64")})
    case("paddle.mm", "mismatch", "out = paddle.mm(x, y)", {"x": rand([2, 3]),
                                                            "y": rand([4, 4])})

    for dt in ("float32", "float64"):
        case("paddle.bmm", dt, "out = paddle.bmm(x, y)",
             {"x": rand([2, 2, 3], dt), "y": rand([2, 3, 4], dt)}, grad=("x", "y"))
    case("paddle.bmm", "method", "out = x.bmm(y)", {"x": rand([1, 2, 3]), "y": rand([1, 3, 2])})
    for name, sx, sy in [("2d", [2, 3], [3, 4]), ("batch-mismatch", [1, 2, 3], [2, 3, 4]),
                         ("k-mismatch", [2, 2, 3], [2, 4, 4])]:
        case("paddle.bmm", name, "out = paddle.bmm(x, y)", {"x": rand(sx), "y": rand(sy)})
    case("paddle.bmm", "mix", "out = paddle.bmm(x, y)",
         {"x": rand([2, 2, 3]), "y": rand([2, 3, 4], "float64")})

    case("paddle.mv", "f32", "out = paddle.mv(x, vec)", {"x": rand([2, 3]), "vec": rand([3])},
         grad=("x", "vec"))
    case("paddle.mv", "f64", "out = x.mv(vec)", {"x": rand([3, 3], "float64"),
                                                 "vec": rand([3], "float64")})
    case("paddle.mv", "bad", "out = paddle.mv(x, vec)", {"x": rand([2, 3]), "vec": rand([2])})

    for dt in ("float32", "float64", "int32", "int64", "complex64"):
        g = ("x", "y") if dt.startswith("float") else ()
        case("paddle.dot", f"1d-{dt}", "out = paddle.dot(x, y)",
             {"x": rand([4], dt), "y": rand([4], dt)}, grad=g)
    case("paddle.dot", "2d", "out = paddle.dot(x, y)", {"x": rand([3, 4]), "y": rand([3, 4])},
         grad=("x", "y"))
    case("paddle.dot", "2d-int", "out = x.dot(y)", {"x": rand([2, 3], "int64"),
                                                    "y": rand([2, 3], "int64")})
    case("paddle.dot", "empty", "out = paddle.dot(x, y)", {"x": rand([0]), "y": rand([0])})
    for name, a, b in [("f32-f64", "float32", "float64"), ("i32-i64", "int32", "int64"),
                       ("c64-f32", "complex64", "float32"), ("f32-c64", "float32", "complex64"),
                       ("bool", "bool", "bool")]:
        case("paddle.dot", f"mix-{name}", "out = paddle.dot(x, y)",
             {"x": rand([3], a), "y": rand([3], b)})
    case("paddle.dot", "shape-mismatch", "out = paddle.dot(x, y)", {"x": rand([3]),
                                                                    "y": rand([4])})
    case("paddle.dot", "3d", "out = paddle.dot(x, y)", {"x": rand([2, 2, 2]),
                                                        "y": rand([2, 2, 2])})

    case("paddle.inner", "2d", "out = paddle.inner(x, y)", {"x": rand([2, 3]),
                                                            "y": rand([4, 3])}, grad=("x", "y"))
    case("paddle.inner", "1d", "out = x.inner(y)", {"x": rand([3]), "y": rand([3])})
    case("paddle.inner", "0d", "out = paddle.inner(x, y)", {"x": rand([]), "y": rand([4, 3])})
    case("paddle.inner", "int", "out = paddle.inner(x, y)", {"x": rand([2, 3], "int64"),
                                                             "y": rand([3], "int64")})
    case("paddle.inner", "mismatch", "out = paddle.inner(x, y)", {"x": rand([2, 3]),
                                                                  "y": rand([2])})

    for name, sx, sy, dt in [("1d", [3], [4], "float32"), ("2d-1d", [2, 3], [4], "float32"),
                             ("0d", [], [], "float32"), ("int", [2], [3], "int64"),
                             ("bool", [2], [3], "bool"), ("f64", [2], [2], "float64")]:
        case("paddle.outer", name, "out = paddle.outer(x, y)",
             {"x": rand(sx, dt), "y": rand(sy, dt)},
             grad=("x", "y") if dt.startswith("float") else ())
    case("paddle.outer", "method", "out = x.outer(y)", {"x": rand([2]), "y": rand([2])})
    case("paddle.outer", "mix-f32-f64", "out = paddle.outer(x, y)",
         {"x": rand([2]), "y": rand([3], "float64")})
    case("paddle.outer", "mix-i32-i64", "out = paddle.outer(x, y)",
         {"x": rand([2], "int32"), "y": rand([3], "int64")})

    for name, sx, sy, dt in [("2d-1d", [2, 3], [4], "float32"), ("3d-2d", [2, 1, 2], [2, 3],
                                                                 "float32"),
                             ("int", [2, 2], [2], "int64"), ("f64", [2], [3], "float64"),
                             ("0d", [], [3], "float32")]:
        case("paddle.kron", name, "out = paddle.kron(x, y)",
             {"x": rand(sx, dt), "y": rand(sy, dt)},
             grad=("x", "y") if dt.startswith("float") else ())
    case("paddle.kron", "method", "out = x.kron(y)", {"x": rand([2]), "y": rand([2])})
    case("paddle.kron", "mix", "out = paddle.kron(x, y)", {"x": rand([2]),
                                                           "y": rand([2], "float64")})

    td = "paddle.tensordot"
    for name, sx, sy, ax in [("default", [2, 3, 4], [3, 4, 5], "2"),
                             ("int1", [2, 3, 4], [4, 5], "1"),
                             ("int0", [2, 3], [2], "0"),
                             ("list", [2, 3, 4], [2, 3, 5], "[0, 1]"),
                             ("pair", [3, 4, 5], [4, 3, 2], "([1, 0], [0, 1])"),
                             ("pair-short", [2, 3, 4], [3, 2, 4], "[[0, 1, 2], [1, 0]]"),
                             ("nested-one", [2, 3, 4], [5, 3, 4], "[[1, 2]]"),
                             ("tensor", [2, 3, 4], [2, 3, 5], "paddle.to_tensor([0, 1])"),
                             ("bcast-1", [2, 1, 4], [3, 5], "[[1], [0]]"),
                             ("neg", [2, 3, 4], [4, 3], "[[-1, -2], [0, 1]]"),
                             ("empty-axes", [2, 3], [4], "[[], []]")]:
        case(td, name, f"out = paddle.tensordot(x, y, axes={ax})",
             {"x": rand(sx), "y": rand(sy)}, grad=("x", "y"))
    case(td, "f64", "out = paddle.tensordot(x, y, 1)", {"x": rand([2, 3], "float64"),
                                                        "y": rand([3, 2], "float64")})
    case(td, "int", "out = paddle.tensordot(x, y, 1)", {"x": rand([2, 3], "int64"),
                                                        "y": rand([3, 2], "int64")})
    case(td, "mismatch", "out = paddle.tensordot(x, y, 1)", {"x": rand([2, 3]),
                                                             "y": rand([4, 2])})
    case(td, "neg-int", "out = paddle.tensordot(x, y, -1)", {"x": rand([2, 3]),
                                                             "y": rand([3, 2])})
    case(td, "method", "out = x.tensordot(y, axes=1)", {"x": rand([2, 3]), "y": rand([3])})

    es = "paddle.einsum"
    for name, eq, shapes in [("matmul", "ij,jk->ik", ([2, 3], [3, 4])),
                             ("implicit", "ij,jk", ([2, 3], [3, 4])),
                             ("trace", "ii", ([3, 3],)), ("diag", "ii->i", ([3, 3],)),
                             ("sum", "ij->", ([2, 3],)), ("transpose", "ij->ji", ([2, 3],)),
                             ("outer", "i,j->ij", ([2], [3])),
                             ("batch", "bij,bjk->bik", ([2, 2, 3], [2, 3, 4])),
                             ("ellipsis", "...ij,...jk", ([5, 2, 3], [3, 4])),
                             ("three", "ij,jk,kl->il", ([2, 3], [3, 4], [4, 2])),
                             ("bilinear", "bn,anm,bm->ba", ([2, 3], [4, 3, 5], [2, 5])),
                             ("spaces", "i j , j k -> i k", ([2, 3], [3, 4]))]:
        names = "xyz"[:len(shapes)]
        case(es, name, f"out = paddle.einsum('{eq}', {', '.join(names)})",
             {n: rand(s) for n, s in zip(names, shapes)}, grad=tuple(names))
    case(es, "f64", "out = paddle.einsum('ij,j->i', x, y)", {"x": rand([2, 3], "float64"),
                                                             "y": rand([3], "float64")})
    case(es, "mix", "out = paddle.einsum('ij,j->i', x, y)", {"x": rand([2, 3]),
                                                             "y": rand([3], "float64")})
    case(es, "bad-count", "out = paddle.einsum('ij,jk->ik', x)", {"x": rand([2, 3])})
    case(es, "bad-shape", "out = paddle.einsum('ij,jk->ik', x, y)", {"x": rand([2, 3]),
                                                                     "y": rand([4, 4])})

    am = "paddle.addmm"
    for name, si, kw in [("bias-1d", [4], ""), ("bias-11", [1, 1], ", beta=0.5, alpha=2.0"),
                         ("bias-21", [2, 1], ", alpha=-1.0"), ("full", [2, 4], ", beta=2.0"),
                         ("bias-14", [1, 4], ", 0.0, 1.0")]:
        case(am, name, f"out = paddle.addmm(inp, x, y{kw})",
             {"inp": rand(si), "x": rand([2, 3]), "y": rand([3, 4])}, grad=("inp", "x", "y"))
    case(am, "f64", "out = inp.addmm(x, y, beta=0.5)", {"inp": rand([2, 2], "float64"),
                                                        "x": rand([2, 3], "float64"),
                                                        "y": rand([3, 2], "float64")})
    case(am, "3d-input", "out = paddle.addmm(inp, x, y)",
         {"inp": rand([1, 2, 4]), "x": rand([2, 3]), "y": rand([3, 4])})
    case(am, "0d-input", "out = paddle.addmm(inp, x, y)",
         {"inp": rand([]), "x": rand([2, 3]), "y": rand([3, 4])})
    case(am, "3d-x", "out = paddle.addmm(inp, x, y)",
         {"inp": rand([2, 4]), "x": rand([1, 2, 3]), "y": rand([3, 4])})
    case(am, "mismatch", "out = paddle.addmm(inp, x, y)",
         {"inp": rand([2, 4]), "x": rand([2, 3]), "y": rand([2, 4])})
    case("paddle.addmm_", "inplace", "r = paddle.addmm_(inp, x, y, beta=0.5, alpha=2.0)\n"
         "out = (inp, paddle.to_tensor(r is inp))",
         {"inp": rand([2, 4]), "x": rand([2, 3]), "y": rand([3, 4])})
    case("paddle.addmm_", "method", "inp.addmm_(x, y)\nout = inp",
         {"inp": rand([2, 2]), "x": rand([2, 3]), "y": rand([3, 2])})
    case("paddle.addmm_", "leaf-grad", "inp.stop_gradient = False\n"
         "out = paddle.addmm_(inp, x, y)",
         {"inp": rand([2, 2]), "x": rand([2, 3]), "y": rand([3, 2])})
    case("paddle.baddbmm", "basic", "out = paddle.baddbmm(inp, x, y, beta=0.5, alpha=2.0)",
         {"inp": rand([2, 2, 4]), "x": rand([2, 2, 3]), "y": rand([2, 3, 4])},
         grad=("inp", "x", "y"))
    case("paddle.baddbmm", "method", "out = inp.baddbmm(x, y)",
         {"inp": rand([1, 2, 2]), "x": rand([1, 2, 3]), "y": rand([1, 3, 2])})

    cr = "paddle.cross"
    for name, sx, kw in [("default", [3, 3], ""), ("default-2", [2, 3], ""),
                         ("axis0", [3, 2], ", axis=0"), ("axis-neg", [2, 3, 3], ", axis=-1"),
                         ("axis1", [2, 3, 4], ", axis=1"), ("first3", [4, 3, 3], "")]:
        case(cr, name, f"out = paddle.cross(x, y{kw})", {"x": rand(sx), "y": rand(sx)},
             grad=("x", "y"))
    case(cr, "int", "out = x.cross(y)", {"x": rand([2, 3], "int64"), "y": rand([2, 3], "int64")})
    case(cr, "linalg", "out = paddle.linalg.cross(x, y, axis=1)",
         {"x": rand([2, 3], "float64"), "y": rand([2, 3], "float64")})
    case(cr, "no-3", "out = paddle.cross(x, y)", {"x": rand([2, 2]), "y": rand([2, 2])})
    case(cr, "axis-not-3", "out = paddle.cross(x, y, axis=0)", {"x": rand([2, 3]),
                                                                "y": rand([2, 3])})

    vd = "paddle.linalg.vecdot"
    case(vd, "basic", "out = paddle.linalg.vecdot(x, y)", {"x": rand([2, 3]), "y": rand([2, 3])},
         grad=("x", "y"))
    case(vd, "bcast-axis0", "out = paddle.linalg.vecdot(x, y, axis=0)",
         {"x": rand([3, 2]), "y": rand([3, 1])})
    case(vd, "complex", "out = paddle.linalg.vecdot(x, y)",
         {"x": rand([3], "complex64"), "y": rand([3], "complex64")})
    case("paddle.vecdot", "top", "out = paddle.vecdot(x, y)", {"x": rand([4]), "y": rand([4])})

    for name, s in [("0d", []), ("1d", [3]), ("2d", [2, 3]), ("3d", [2, 3, 4])]:
        case("paddle.t", name, "out = paddle.t(x)", {"x": rand(s)}, grad=("x",) if s != [2, 3, 4]
             else ())
    case("paddle.t", "method-int", "out = x.t()", {"x": rand([2, 3], "int32")})
    case("paddle.t_", "inplace", "r = paddle.t_(x)\nout = (x, paddle.to_tensor(r is x))",
         {"x": rand([2, 3])})
    case("paddle.matrix_transpose", "3d", "out = paddle.matrix_transpose(x)",
         {"x": rand([2, 3, 4])}, grad=("x",))
    case("paddle.matrix_transpose", "1d", "out = paddle.matrix_transpose(x)", {"x": rand([3])})
    case("paddle.linalg.matrix_transpose", "2d", "out = paddle.linalg.matrix_transpose(x)",
         {"x": rand([2, 3], "int64")})


# ---------------------------------------------------------------------- norms
def record_norms():
    vn = "paddle.linalg.vector_norm"
    x = rand([2, 3, 4])
    for name, kw in [("default", ""), ("p1", "p=1"), ("p0", "p=0"), ("pinf", "p=float('inf')"),
                     ("pninf", "p=-float('inf')"), ("p3", "p=3"), ("phalf", "p=0.5"),
                     ("pneg1", "p=-1"), ("axis-1", "axis=-1"),
                     ("axis0-keep", "axis=0, keepdim=True"),
                     ("axis-list", "axis=[0, 2]"), ("axis-tuple", "p=1, axis=(-1, -2)"),
                     ("axis-list1", "axis=[1]"), ("keep-none", "keepdim=True"),
                     ("inf-axes", "p=float('inf'), axis=[1, 2]"),
                     ("zero-axes", "p=0, axis=[0, 1]"), ("p3-axes", "p=3, axis=[0, 2]"),
                     ("all-axes", "axis=[0, 1, 2]")]:
        g = ("x",) if name not in ("p0", "zero-axes") else ()
        case(vn, name, f"out = paddle.linalg.vector_norm(x, {kw})", {"x": x}, grad=g)
    case(vn, "f64", "out = paddle.linalg.vector_norm(x, p=2, axis=1)",
         {"x": rand([3, 4], "float64")}, grad=("x",))
    case(vn, "0d", "out = paddle.linalg.vector_norm(x)", {"x": rand([])})
    case(vn, "complex", "out = paddle.linalg.vector_norm(x, axis=-1)", {"x": rand([2, 3],
                                                                              "complex64")})
    case(vn, "dtype", "out = paddle.linalg.vector_norm(x, dtype='float64')", {"x": rand([3])})
    case(vn, "p-str", "out = paddle.linalg.vector_norm(x, p='fro')", {"x": rand([3])})

    mn = "paddle.linalg.matrix_norm"
    x = rand([2, 3, 4])
    for name, kw in [("default", ""), ("nuc", "p='nuc'"), ("p1", "p=1"), ("pn1", "p=-1"),
                     ("p2", "p=2"), ("pn2", "p=-2"), ("inf", "p=float('inf')"),
                     ("ninf", "p=-float('inf')"), ("axes01", "p='fro', axis=[0, 1]"),
                     ("axes-rev", "p=1, axis=[-1, -2]"), ("keep", "p='nuc', keepdim=True"),
                     ("keep-inf", "p=float('inf'), axis=(0, 2), keepdim=True")]:
        case(mn, name, f"out = paddle.linalg.matrix_norm(x, {kw})", {"x": x}, grad=("x",))
    case(mn, "bad-p", "out = paddle.linalg.matrix_norm(x, p=3)", {"x": rand([3, 3])})
    case(mn, "bad-axis", "out = paddle.linalg.matrix_norm(x, axis=[0, 1, 2])", {"x": x})
    case(mn, "f64-2d", "out = paddle.linalg.matrix_norm(x, p=2)", {"x": rand([3, 3], "float64")})

    nm = "paddle.linalg.norm"
    x2, x3 = rand([3, 4]), rand([2, 3, 4])
    for name, xx, kw in [("default-2d", x2, ""), ("default-3d", x3, ""),
                         ("fro-none-3d", x3, "p='fro'"), ("fro-axis", x3, "p='fro', axis=[0, 1]"),
                         ("fro-int-axis", x3, "p='fro', axis=1"),
                         ("p2-matrix", x3, "p=2, axis=[-2, -1]"), ("p2-vec", x3, "p=2, axis=-1"),
                         ("inf-none", x3, "p=float('inf')"), ("ninf-axis", x3, "p=-np.inf, axis=0"),
                         ("p1-axis0", x2, "p=1, axis=0"), ("p1-none-2d", x2, "p=1"),
                         ("nuc-none", x2, "p='nuc'"), ("nuc-axes", x3, "p='nuc', axis=(1, 2)"),
                         ("keep-none", x3, "keepdim=True"),
                         ("keep-axis", x3, "axis=1, keepdim=True"),
                         ("p0", x2, "p=0"), ("p3-tuple", x3, "p=3, axis=(0, 2)"),
                         ("axis-list1", x3, "axis=[2]"),
                         ("pinf-matrix", x2, "p=np.inf, axis=[0, 1]"),
                         ("p1-matrix", x3, "p=1, axis=[1, 2], keepdim=True")]:
        case(nm, name, f"out = paddle.linalg.norm(x, {kw})", {"x": xx},
             grad=() if name == "p0" else ("x",))
    case(nm, "nuc-3d-none", "out = paddle.linalg.norm(x, p='nuc')", {"x": x3})
    case(nm, "bad-str", "out = paddle.linalg.norm(x, p='abc', axis=[0, 1])", {"x": x2})
    case(nm, "f64", "out = paddle.linalg.norm(x, axis=1)", {"x": rand([2, 3], "float64")})
    case(nm, "dtype", "out = paddle.linalg.norm(x, dtype='float64')", {"x": rand([2, 3])})
    case("paddle.norm", "top", "out = paddle.norm(x, p=1)", {"x": rand([2, 3])})
    case("paddle.Tensor.norm", "method", "out = x.norm(p='fro', axis=[0, 1])",
         {"x": rand([2, 3])}, grad=("x",))

    for name, sx, sy, p in [("p2", [2, 3], [3], 2), ("pinf", [2, 3], [2, 3], "float('inf')"),
                            ("pninf", [2, 3], [1, 3], "-float('inf')"), ("p0", [3], [3], 0),
                            ("p1", [2, 1], [1, 3], 1), ("p3", [4], [4], 3),
                            ("phalf", [3], [3], 0.5)]:
        case("paddle.dist", name, f"out = paddle.dist(x, y, p={p})",
             {"x": rand(sx), "y": rand(sy)}, grad=() if p == 0 else ("x", "y"))
    case("paddle.dist", "method-f64", "out = x.dist(y)", {"x": rand([3], "float64"),
                                                          "y": rand([3], "float64")})
    case("paddle.cdist", "basic", "out = paddle.cdist(x, y)", {"x": rand([4, 3]),
                                                               "y": rand([5, 3])},
         grad=("x", "y"))
    case("paddle.cdist", "batch-p1", "out = paddle.cdist(x, y, p=1.0)",
         {"x": rand([2, 4, 3]), "y": rand([2, 5, 3])})
    case("paddle.cdist", "pinf", "out = x.cdist(y, p=float('inf'))",
         {"x": rand([4, 3]), "y": rand([2, 3])})

    cd = "paddle.linalg.cond"
    a, b, r = rand([3, 3]), rand([2, 3, 3]), rand([4, 3])
    for name, xx, kw in [("default", a, ""), ("fro", b, ", p='fro'"), ("nuc", a, ", p='nuc'"),
                         ("inf", a, ", p=np.inf"), ("ninf", b, ", p=-np.inf"), ("p1", a, ", p=1"),
                         ("pn1", a, ", p=-1"), ("p2", b, ", p=2"), ("pn2", a, ", p=-2"),
                         ("rect", r, ""), ("rect-pn2", r, ", p=-2")]:
        case(cd, name, f"out = paddle.linalg.cond(x{kw})", {"x": xx})
    case(cd, "rect-p1", "out = paddle.linalg.cond(x, p=1)", {"x": r})
    case(cd, "bad-p", "out = paddle.linalg.cond(x, p=3)", {"x": a})
    case(cd, "f64-method", "out = x.cond()", {"x": rand([3, 3], "float64")})


# ---------------------------------------------------------------------- decompositions
def record_decompositions():
    L = "paddle.linalg."
    a, b = rand([3, 3]), rand([2, 3, 3])
    for name, xx in [("2d", a), ("3d", b), ("f64", rand([4, 4], "float64")),
                     ("1x1", rand([1, 1]))]:
        case(L + "det", name, "out = paddle.linalg.det(x)", {"x": xx}, grad=("x",))
    case(L + "det", "empty-batch", "out = paddle.linalg.det(x)", {"x": rand([0, 3, 3])})
    case(L + "det", "non-square", "out = paddle.linalg.det(x)", {"x": rand([3, 4])})
    case(L + "det", "int", "out = paddle.linalg.det(x)", {"x": rand([3, 3], "int64")})
    for name, xx in [("2d", a), ("3d", b), ("neg", ("float32", -np.eye(3, dtype="float32"))),
                     ("f64", rand([3, 3], "float64"))]:
        case(L + "slogdet", name, "out = paddle.linalg.slogdet(x)", {"x": xx},
             grad=("x",) if name != "neg" else ())
    case("paddle.Tensor.slogdet", "method", "out = x.slogdet()", {"x": a})

    for name, xx in [("2d", a), ("3d", b), ("f64", rand([3, 3], "float64"))]:
        case(L + "inv", name, "out = paddle.linalg.inv(x)", {"x": xx}, grad=("x",))
    case(L + "inv", "singular", "out = paddle.linalg.inv(x)", {"x": ("float32",
                                                                     np.ones([3, 3], "float32"))})
    case(L + "inv", "non-square", "out = paddle.linalg.inv(x)", {"x": rand([2, 3])})
    case("paddle.inverse", "top", "out = paddle.inverse(x)", {"x": a}, grad=("x",))
    case("paddle.inverse", "method", "out = x.inverse()", {"x": rand([2, 2, 2], "float64")})

    so = L + "solve"
    for name, sx, sy, kw in [("mat", [3, 3], [3, 2], ""), ("vec", [3, 3], [3], ""),
                             ("batch-bcast", [2, 3, 3], [3, 2], ""),
                             ("batch-both", [2, 3, 3], [2, 3, 1], ""),
                             ("right", [3, 3], [2, 3], ", left=False"),
                             ("batch-vec", [2, 3, 3], [2, 3], "")]:
        case(so, name, f"out = paddle.linalg.solve(x, y{kw})", {"x": rand(sx), "y": rand(sy)},
             grad=("x", "y"))
    case(so, "f64-method", "out = x.solve(y)", {"x": rand([2, 2], "float64"),
                                                "y": rand([2, 2], "float64")})
    case(so, "singular", "out = paddle.linalg.solve(x, y)",
         {"x": ("float32", np.ones([2, 2], "float32")), "y": rand([2, 1])})
    case(so, "mismatch", "out = paddle.linalg.solve(x, y)", {"x": rand([3, 3]), "y": rand([2, 2])})
    case(so, "mix", "out = paddle.linalg.solve(x, y)", {"x": rand([2, 2]),
                                                        "y": rand([2, 2], "float64")})

    s3, s3b = spd(3), spd(3, (2,))
    for name, xx, kw in [("lower", s3, ""), ("upper", s3, ", upper=True"), ("batch", s3b, ""),
                         ("f64", spd(4, dtype="float64"), "")]:
        case(L + "cholesky", name, f"out = paddle.linalg.cholesky(x{kw})", {"x": xx},
             grad=("x",))
    case(L + "cholesky", "not-pd", "out = paddle.linalg.cholesky(x)",
         {"x": ("float32", -np.eye(3, dtype="float32"))})
    case("paddle.cholesky", "top-method", "out = x.cholesky(upper=True)", {"x": s3})
    for name, upper in [("lower", False), ("upper", True)]:
        fac = np.linalg.cholesky(s3[1].astype("float64"))
        fac = (fac.T if upper else fac).astype("float32")
        case(L + "cholesky_solve", name,
             f"out = paddle.linalg.cholesky_solve(y, x, upper={upper})",
             {"x": ("float32", fac), "y": rand([3, 2])}, grad=("x", "y"))
        case(L + "cholesky_inverse", name,
             f"out = paddle.linalg.cholesky_inverse(x, upper={upper})",
             {"x": ("float32", fac)}, grad=("x",))

    ts = L + "triangular_solve"
    for name, xx, sy, kw in [("upper", tri(3, True), [3, 2], ""),
                             ("lower", tri(3, False), [3, 2], ", upper=False"),
                             ("transpose", tri(3, True), [3, 1], ", transpose=True"),
                             ("unit", tri(3, False), [3, 2],
                              ", upper=False, unitriangular=True"),
                             ("batch", tri(3, True, (2,)), [3, 2], ""),
                             ("batch-bcast", tri(3, True), [2, 3, 2], "")]:
        # unitriangular: Paddle's gradient also fills the triangle and diagonal that are never
        # read; ours (torch's) is zero there, so only the values are compared.
        case(ts, name, f"out = paddle.linalg.triangular_solve(x, y{kw})",
             {"x": xx, "y": rand(sy)}, grad=("x", "y") if name != "unit" else ())
    case(ts, "vec", "out = paddle.linalg.triangular_solve(x, y)", {"x": tri(3, True),
                                                                   "y": rand([3])})

    lu = L + "lu"
    sq, rect = rand([4, 4]), rand([4, 3])
    case(lu, "2d", "out = paddle.linalg.lu(x)", {"x": sq})
    case(lu, "infos", "out = paddle.linalg.lu(x, get_infos=True)", {"x": rand([2, 3, 3])})
    case(lu, "infos-2d", "out = paddle.linalg.lu(x, get_infos=True)", {"x": sq})
    case(lu, "rect", "out = paddle.linalg.lu(x)", {"x": rect})
    case(lu, "wide", "out = x.lu()", {"x": rand([3, 5], "float64")})
    case(lu, "no-pivot", "out = paddle.linalg.lu(x, pivot=False)", {"x": sq})
    case(lu, "grad", "out = paddle.linalg.lu(x)[0]", {"x": sq}, grad=("x",))
    lun = L + "lu_unpack"
    for name, xx, kw in [("square", sq, ""), ("rect", rect, ""), ("wide", rand([3, 5]), ""),
                         ("no-data", sq, ", unpack_ludata=False"),
                         ("no-pivots", rect, ", unpack_pivots=False"),
                         ("batch", rand([2, 3, 3]), "")]:
        case(lun, name,
             f"lu, piv = paddle.linalg.lu(x)\nout = paddle.linalg.lu_unpack(lu, piv{kw})",
             {"x": xx})
    case(lun, "grad", "lu, piv = paddle.linalg.lu(x)\np, l, u = paddle.linalg.lu_unpack(lu, piv)\n"
         "out = (l, u)", {"x": sq}, grad=("x",))
    for tr in ("N", "T"):
        case(L + "lu_solve", tr, "lu, piv = paddle.linalg.lu(x)\n"
             f"out = paddle.linalg.lu_solve(y, lu, piv, trans='{tr}')",
             {"x": rand([3, 3]), "y": rand([3, 2])})

    qr = L + "qr"
    recon = "q, r = paddle.linalg.qr(x{kw})\nout = (q, r, q @ r)"
    for name, sx, kw in [("tall", [4, 3], ""), ("wide", [3, 5], ""), ("complete", [4, 3],
                                                                      ", mode='complete'"),
                         ("batch", [2, 3, 3], ""), ("f64", [3, 3], "")]:
        dt = "float64" if name == "f64" else "float32"
        case(qr, name, recon.format(kw=kw), {"x": rand(sx, dt)}, cmp=["abs", "abs", "val"])
    case(qr, "r", "out = paddle.linalg.qr(x, mode='r')", {"x": rand([4, 3])}, cmp=["abs"])
    case(qr, "bad-mode", "out = paddle.linalg.qr(x, mode='x')", {"x": rand([4, 3])})
    case(qr, "grad", "q, r = paddle.linalg.qr(x)\nout = q @ r", {"x": rand([4, 3])}, grad=("x",))
    case("paddle.Tensor.qr", "method", "out = x.qr()", {"x": rand([3, 3])}, cmp=["abs", "abs"])

    sv = L + "svd"
    usv = ("u, s, vh = paddle.linalg.svd(x{kw})\n"
           "k = s.shape[-1]\nout = (u, s, vh, (u[..., :k] * s[..., None, :]) @ vh[..., :k, :])")
    for name, sx, kw, dt in [("tall", [4, 3], "", "float32"), ("wide", [3, 5], "", "float32"),
                             ("full", [4, 3], ", full_matrices=True", "float32"),
                             ("full-wide", [2, 4], ", True", "float32"),
                             ("batch", [2, 3, 4], "", "float32"), ("f64", [3, 3], "", "float64")]:
        case(sv, name, usv.format(kw=kw), {"x": rand(sx, dt)}, cmp=["abs", "val", "abs", "val"])
    case(sv, "1d", "out = paddle.linalg.svd(x)", {"x": rand([3])})
    case(sv, "int", "out = paddle.linalg.svd(x)", {"x": rand([3, 3], "int64")})
    case(sv, "grad-s", "out = paddle.linalg.svd(x)[1]", {"x": rand([4, 3])}, grad=("x",))
    case(sv, "grad-recon", "u, s, vh = paddle.linalg.svd(x)\nout = (u * s[..., None, :]) @ vh",
         {"x": rand([3, 4])}, grad=("x",))
    case(L + "svdvals", "basic", "out = paddle.linalg.svdvals(x)", {"x": rand([2, 4, 3])},
         grad=("x",))

    lr = lowrank(8, 5, 2)
    recon_lr = "u, s, v = {call}\nout = (u, s, v, (u * s[..., None, :]) @ v.mT)"
    case(L + "svd_lowrank", "q2", recon_lr.format(call="paddle.linalg.svd_lowrank(x, q=2)"),
         {"x": lr}, cmp=["none", "val", "none", "val"])
    case(L + "svd_lowrank", "default-q", recon_lr.format(call="paddle.linalg.svd_lowrank(x)"),
         {"x": lowrank(6, 4, 4)}, cmp=["none", "val", "none", "val"])
    case(L + "svd_lowrank", "M", recon_lr.format(call="paddle.linalg.svd_lowrank(x, q=3, M=m)"),
         {"x": lr, "m": ("float32", np.full([1, 5], 0.5, "float32"))},
         cmp=["none", "val", "none", "val"])
    case(L + "svd_lowrank", "bad-q", "out = paddle.linalg.svd_lowrank(x, q=7)", {"x": lr})
    case(L + "pca_lowrank", "center",
         recon_lr.format(call="paddle.linalg.pca_lowrank(x, q=2)"),
         {"x": ("float32", (lr[1] + np.arange(5, dtype="float32")).astype("float32"))},
         cmp=["none", "val", "none", "val"])
    case(L + "pca_lowrank", "no-center-batch",
         recon_lr.format(call="x.pca_lowrank(q=2, center=False, niter=3)"),
         {"x": lowrank(7, 4, 2, (2,))}, cmp=["none", "val", "none", "val"])
    case(L + "pca_lowrank", "bad-q", "out = paddle.linalg.pca_lowrank(x, q=9)", {"x": lr})

    ev = ("w, v = paddle.linalg.eig(x)\n"
          "out = (w, v, paddle.linalg.vector_norm(x.astype(w.dtype) @ v - v * w[..., None, :]))")
    for name, xx in [("2d", a), ("f64", rand([4, 4], "float64")), ("batch", b),
                     ("sym", spd(3))]:
        case(L + "eig", name, ev, {"x": xx}, cmp=["sorted", "none", "val"])
    case(L + "eig", "method", "out = x.eig()[0]", {"x": rand([2, 2])})
    case(L + "eigvals", "basic", "out = paddle.linalg.eigvals(x)", {"x": a}, cmp=["sorted"])
    case(L + "eigvals", "batch-f64", "out = x.eigvals()", {"x": rand([2, 3, 3], "float64")},
         cmp=["sorted"])
    case(L + "eigvals", "non-square", "out = paddle.linalg.eigvals(x)", {"x": rand([2, 3])})
    for name, xx, kw in [("L", spd(3), ""), ("U", rand([3, 3]), ", UPLO='U'"),
                         ("batch", spd(3, (2,)), ""), ("f64", spd(4, dtype="float64"), "")]:
        case(L + "eigh", name, f"out = paddle.linalg.eigh(x{kw})", {"x": xx}, cmp=["val", "abs"])
        # batch: Paddle 3.3.1's eigvalsh gradient is not symmetric (wrong); values only
        case(L + "eigvalsh", name, f"out = paddle.linalg.eigvalsh(x{kw})", {"x": xx},
             grad=("x",) if name != "batch" else ())
    case(L + "eigh", "grad-w", "out = paddle.linalg.eigh(x)[0]", {"x": spd(3)}, grad=("x",))
    case(L + "eigh", "bad-uplo", "out = paddle.linalg.eigh(x, UPLO='X')", {"x": spd(3)})
    case("paddle.eigvalsh", "top-method", "out = x.eigvalsh()", {"x": spd(3)})

    mr = L + "matrix_rank"
    low = lowrank(4, 4, 2)
    for name, xx, kw in [("full", a, ""), ("low", low, ""), ("batch", b, ""),
                         ("tol", low, ", tol=3.0"), ("tol-tensor", ("float32", np.stack([low[1],
                                                                                         low[1]])),
                                                      ", tol=paddle.to_tensor([1.0, 5.0])"),
                         ("hermitian", spd(3), ", hermitian=True"),
                         ("atol", low, ", atol=3.0"), ("rtol", low, ", rtol=0.6"),
                         ("atol-rtol", low, ", atol=1.0, rtol=0.9"),
                         ("f64", rand([3, 4], "float64"), "")]:
        case(mr, name, f"out = paddle.linalg.matrix_rank(x{kw})", {"x": xx})
    case(mr, "1d", "out = paddle.linalg.matrix_rank(x)", {"x": rand([3])})
    case(mr, "tol-and-atol", "out = paddle.linalg.matrix_rank(x, tol=1.0, atol=1.0)", {"x": a})

    for name, xx, kw in [("rect", rand([4, 3]), ""), ("herm", spd(3), ", hermitian=True"),
                         ("batch", rand([2, 2, 3]), ""), ("low", low, ", rcond=1e-5"),
                         ("f64", rand([3, 2], "float64"), "")]:
        case(L + "pinv", name, f"out = paddle.linalg.pinv(x{kw})", {"x": xx},
             grad=("x",) if name in ("rect", "batch") else ())

    md = L + "multi_dot"
    case(md, "three", "out = paddle.linalg.multi_dot([x, y, z])",
         {"x": rand([2, 3]), "y": rand([3, 4]), "z": rand([4, 5])}, grad=("x", "y", "z"))
    case(md, "vec-ends", "out = paddle.linalg.multi_dot([x, y, z])",
         {"x": rand([3]), "y": rand([3, 4]), "z": rand([4])}, grad=("x", "y", "z"))
    case(md, "two-f64", "out = paddle.linalg.multi_dot([x, y])",
         {"x": rand([2, 3], "float64"), "y": rand([3, 2], "float64")})
    case(md, "one", "out = paddle.linalg.multi_dot([x])", {"x": rand([2, 3])})
    case(md, "mismatch", "out = paddle.linalg.multi_dot([x, y])", {"x": rand([2, 3]),
                                                                   "y": rand([2, 3])})

    mp = L + "matrix_power"
    for name, xx, n in [("3", a, 3), ("0", a, 0), ("1", a, 1), ("neg", b, -2),
                        ("f64", rand([2, 2], "float64"), 5)]:
        case(mp, name, f"out = paddle.linalg.matrix_power(x, {n})", {"x": xx},
             grad=("x",) if name in ("3", "neg") else ())
    case(mp, "method", "out = x.matrix_power(2)", {"x": rand([2, 2])})
    case(L + "matrix_exp", "basic", "out = paddle.linalg.matrix_exp(x)",
         {"x": rand([2, 3, 3], lo=-0.5, hi=0.5)}, grad=("x",))

    ls = L + "lstsq"
    for name, sx, sy, kw in [("default", [4, 3], [4, 2], ""), ("gelsd", [4, 3], [4, 2],
                                                                ", driver='gelsd'"),
                             ("gelss", [5, 3], [5, 1], ", driver='gelss'"),
                             ("gels", [4, 3], [4, 2], ", driver='gels'"),
                             ("batch-f64", [2, 4, 2], [2, 4, 1], ""),
                             ("rcond", [4, 3], [4, 2], ", rcond=1e-3, driver='gelsd'")]:
        dt = "float64" if "f64" in name else "float32"
        case(ls, name, f"out = paddle.linalg.lstsq(x, y{kw})",
             {"x": rand(sx, dt), "y": rand(sy, dt)})
    case(ls, "bad-driver", "out = paddle.linalg.lstsq(x, y, driver='xx')",
         {"x": rand([4, 3]), "y": rand([4, 2])})

    cv = L + "cov"
    for name, xx, kw in [("basic", rand([3, 5]), ""), ("rowvar", rand([5, 3]), ", rowvar=False"),
                         ("ddof", rand([3, 5]), ", ddof=False"), ("1d", rand([5]), ""),
                         ("f64", rand([2, 4], "float64"), "")]:
        case(cv, name, f"out = paddle.linalg.cov(x{kw})", {"x": xx}, grad=("x",))
    case(cv, "weights", "out = paddle.linalg.cov(x, fweights=fw, aweights=aw)",
         {"x": rand([3, 4]), "fw": ("int64", np.array([1, 2, 1, 3])),
          "aw": ("float32", rng.uniform(0.1, 1, 4).astype("float32"))})
    case(cv, "int", "out = paddle.linalg.cov(x)", {"x": rand([3, 4], "int64")})
    case("paddle.Tensor.cov", "method", "out = x.cov()", {"x": rand([2, 3])})
    for name, xx, kw in [("basic", rand([3, 5]), ""), ("rowvar", rand([5, 3]), ", rowvar=False"),
                         ("1d", rand([4]), "")]:
        case(L + "corrcoef", name, f"out = paddle.linalg.corrcoef(x{kw})", {"x": xx},
             grad=("x",))

    hh = rand([4, 3])
    case(L + "householder_product", "basic",
         "out = paddle.linalg.householder_product(x, tau)",
         {"x": hh, "tau": rand([3], lo=0.5, hi=1.5)}, grad=("x", "tau"))
    for name, sx, sy, kw in [("basic", [4, 3], [3, 2], ""),
                             ("left-T", [4, 3], [4, 2], ", transpose=True"),
                             ("right-T", [3, 3], [2, 3], ", left=False, transpose=True"),
                             ("right", [3, 3], [2, 3], ", left=False"),
                             ("mismatch", [4, 3], [4, 2], "")]:
        case(L + "ormqr", name, f"out = paddle.linalg.ormqr(x, tau, y{kw})",
             {"x": rand(sx), "tau": rand([sx[-1]], lo=0.5, hi=1.5), "y": rand(sy)})


# ---------------------------------------------------------------------- fft and signal
def record_fft():
    F = "paddle.fft."
    x, c = rand([4, 6]), rand([4, 6], "complex64")
    for fn in ("fft", "ifft", "rfft", "ihfft"):
        for name, xx, kw in [("default", x, ""), ("n-pad", x, ", n=8"), ("n-crop", x, ", n=3"),
                             ("axis0", x, ", axis=0"), ("ortho", x, ", norm='ortho'"),
                             ("forward", x, ", axis=-2, norm='forward'"),
                             ("f64", rand([5], "float64"), ""), ("int", rand([5], "int64"), ""),
                             ("complex", c, ""), ("f16", rand([4], "float16"), ""),
                             ("n0", x, ", n=0"), ("bad-axis", x, ", axis=2"),
                             ("bad-norm", x, ", norm='xx'"), ("norm-none", x, ", norm=None"),
                             ("0d", rand([]), ""), ("1d", rand([7]), "")]:
            g = ("x",) if name in ("default", "n-pad", "ortho", "forward") else ()
            case(F + fn, name, f"out = paddle.fft.{fn}(x{kw})", {"x": xx}, grad=g)
    for fn in ("irfft", "hfft"):
        for name, xx, kw in [("default", c, ""), ("n", c, ", n=7"), ("axis0", c, ", axis=0"),
                             ("ortho", c, ", norm='ortho'"), ("forward", c, ", norm='forward'"),
                             ("real", x, ""), ("int", rand([5], "int64"), ""),
                             ("c128", rand([3, 4], "complex128"), ", n=5"), ("n0", c, ", n=-1")]:
            g = ("x",) if name in ("default", "n", "real") else ()
            case(F + fn, name, f"out = paddle.fft.{fn}(x{kw})", {"x": xx}, grad=g)
    x3, c3 = rand([2, 4, 6]), rand([2, 4, 6], "complex64")
    for fn in ("fft2", "ifft2", "rfft2", "ihfft2", "irfft2", "hfft2"):
        real_in = fn in ("rfft2", "ihfft2")
        xx = x3 if real_in else c3
        for name, kw in [("default", ""), ("s", ", s=[3, 4]"), ("axes", ", axes=(0, 2)"),
                         ("ortho", ", norm='ortho'"), ("s-axes", ", s=[5, 3], axes=[-1, 0]"),
                         ("bad-s", ", s=[3]"), ("bad-axes", ", axes=[0, 1, 2]"),
                         ("dup-axes", ", axes=[1, 1]"), ("neg-s", ", s=[-1, 3]")]:
            g = ("x",) if name in ("default", "s") else ()
            case(F + fn, name, f"out = paddle.fft.{fn}(x{kw})", {"x": xx}, grad=g,
                 aborts=name == "dup-axes")
        case(F + fn, "1d", f"out = paddle.fft.{fn}(x)", {"x": rand([4])})
        case(F + fn, "real-int", f"out = paddle.fft.{fn}(x)", {"x": rand([3, 4], "int32")})
    for fn in ("fftn", "ifftn", "rfftn", "ihfftn", "irfftn", "hfftn"):
        real_in = fn in ("rfftn", "ihfftn")
        xx = x3 if real_in else c3
        for name, kw in [("default", ""), ("s", ", s=[3, 5]"), ("axes", ", axes=[0, 2]"),
                         ("one-axis", ", axes=[1]"), ("s-axes", ", s=[4, 4, 4], axes=(0, 1, 2)"),
                         ("forward", ", norm='forward'"), ("s-too-long", ", s=[2, 2, 2, 2]"),
                         ("s-axes-len", ", s=[3], axes=[0, 1]"), ("neg-s", ", s=[-1]"),
                         ("bad-axis", ", axes=[3]")]:
            g = ("x",) if name in ("default", "axes") else ()
            case(F + fn, name, f"out = paddle.fft.{fn}(x{kw})", {"x": xx}, grad=g)
        case(F + fn, "f64", f"out = paddle.fft.{fn}(x)",
             {"x": rand([3, 4], "float64" if real_in else "complex128")})
    for fn in ("fftfreq", "rfftfreq"):
        for name, kw in [("default", "5"), ("even", "8, d=0.5"), ("f64", "5, 0.1, 'float64'"),
                         ("int-dtype", "6, dtype='int64'"), ("zero", "0")]:
            case(F + fn, name, f"out = paddle.fft.{fn}({kw})", {})
    xs = rand([4, 5])
    for fn, npf in (("fftshift", np.fft.fftshift), ("ifftshift", np.fft.ifftshift)):
        case(F + fn, "default", f"out = paddle.fft.{fn}(x)", {"x": xs}, grad=("x",))
        for name, xx, kw, axes in [("1d", rand([5]), "", None), ("axes-int", xs, ", axes=1", 1),
                                   ("axes-list", xs, ", axes=[0]", [0]),
                                   ("axes-tuple", xs, ", axes=(0, 1)", (0, 1)),
                                   ("int", rand([6], "int64"), "", None)]:
            case(F + fn, name, f"out = paddle.fft.{fn}(x{kw})", {"x": xx},
                 numpy_ref=npf(xx[1], axes=axes))


def record_signal():
    S = "paddle.signal."
    sig, sig2 = rand([64]), rand([2, 48])
    for name, xx, kw in [("basic", sig, "16"), ("hop-win", sig, "16, hop_length=3, win_length=10"),
                         ("window", sig, "16, window=w"), ("no-center", sig, "16, center=False"),
                         ("constant", sig, "16, pad_mode='constant'"),
                         ("normalized", sig, "16, normalized=True"),
                         ("twosided", sig, "16, onesided=False"), ("batch", sig2, "12, 5"),
                         ("f64", rand([40], "float64"), "8"),
                         ("complex", rand([32], "complex64"), "8")]:
        inputs = {"x": xx}
        if "window=w" in kw:
            inputs["w"] = ("float32", np.hanning(16).astype("float32"))
        case(S + "stft", name, f"out = paddle.signal.stft(x, {kw})", inputs,
             grad=("x",) if name in ("basic", "window", "batch") else ())
    for name, kw in [("3d", "16"), ("bad-nfft", "100"), ("bad-win", "16, win_length=20"),
                     ("bad-pad", "16, pad_mode='circular'"), ("bad-hop", "16, hop_length=0")]:
        xx = rand([2, 2, 64]) if name == "3d" else sig
        case(S + "stft", name, f"out = paddle.signal.stft(x, {kw})", {"x": xx})
    case("paddle.Tensor.stft", "method", "out = x.stft(8, 4)", {"x": rand([32])})
    spec = "sp = paddle.signal.stft(x, {a})\nout = paddle.signal.istft(sp, {b})"
    for name, xx, a, b in [("roundtrip", sig, "16", "16"),
                           ("hann", sig, "16, window=w", "16, window=w"),
                           ("hop-len", sig, "16, 4, window=w", "16, 4, window=w, length=50"),
                           ("batch", sig2, "12, 3", "12, 3"),
                           ("normalized", sig, "16, normalized=True", "16, normalized=True"),
                           ("no-center", sig, "16, 4, center=False, window=w",
                            "16, 4, center=False, window=w"),
                           ("twosided", sig, "16, onesided=False", "16, onesided=False"),
                           ("complex-out", sig, "16, onesided=False",
                            "16, onesided=False, return_complex=True"),
                           ("f64", rand([40], "float64"), "8", "8")]:
        inputs = {"x": xx}
        if "w" in a:
            inputs["w"] = ("float32", np.hanning(16).astype("float32") + 0.1)
        case(S + "istft", name, spec.format(a=a, b=b), inputs,
             grad=("x",) if name in ("roundtrip", "hann") else ())
    case(S + "istft", "real-input", "out = paddle.signal.istft(x, 8)", {"x": rand([5, 4])})
    case(S + "istft", "bad-size", "out = paddle.signal.istft(x, 16)",
         {"x": rand([5, 4], "complex64")})
    case(S + "istft", "nola", "sp = paddle.signal.stft(x, 16, 8, window=w)\n"
         "out = paddle.signal.istft(sp, 16, 8, window=w)",
         {"x": sig, "w": ("float32", np.concatenate([np.zeros(8), np.ones(8)]).astype("float32"))})
    case("paddle.Tensor.istft", "method", "out = x.stft(8).istft(8)", {"x": rand([32])})
    for name, xx, kw in [("last", rand([2, 20]), "5, 3"), ("first", rand([20, 2]), "4, 4, axis=0"),
                         ("1d", rand([10]), "10, 1")]:
        case(S + "frame", name, f"out = paddle.signal.frame(x, {kw})", {"x": xx}, grad=("x",))
    case(S + "frame", "too-long", "out = paddle.signal.frame(x, 11, 1)", {"x": rand([10])})
    for name, xx, kw in [("last", rand([2, 5, 4]), "3"), ("first", rand([4, 5, 2]), "2, axis=0"),
                         ("complex", rand([4, 3], "complex64"), "2")]:
        case(S + "overlap_add", name, f"out = paddle.signal.overlap_add(x, {kw})", {"x": xx},
             grad=("x",) if name != "complex" else ())


def main():
    record_matmul()
    record_norms()
    record_decompositions()
    record_fft()
    record_signal()
    ids = [c["id"] for c in CASES]
    dup = {i for i in ids if ids.count(i) > 1}
    assert not dup, dup
    meta = {"paddle_version": paddle.__version__,
            "generator": "numpy.random.default_rng(20240611)"}
    with open(OUT, "w") as f:
        json.dump({"meta": meta, "cases": CASES}, f, separators=(",", ":"))
    print(f"{len(CASES)} cases -> {os.path.normpath(OUT)} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
