"""Record Paddle 3.3.1's behaviour behind the fixes of issue 31's helper d6 (the errors Paddle's
own test files assert, and small API gaps):

- a static shape from a 1-d shape Variable of unknown length (``static.data([-1])``) is [-1];
- the dtype errors of ``empty`` (static), ``linspace`` (static TypeErrors, the float64 start
  ValueError, no kernel in dynamic mode), ``masked_select`` (static), ``nanmedian`` (no kernel;
  an empty axis list, an axis out of range), ``searchsorted`` (no kernel, unmatched dimensions);
- ``quantile``'s TypeError for a non-Tensor x and ValueError for a bad axis;
- ``static.setitem``: TypeError for a list value; on a constant (``paddle.ones`` in a
  program) index errors when built, a value of the wrong shape when the program runs;
- ``base.create_lod_tensor`` (a DenseTensor is no Tensor: ops given one raise TypeError);
- ``static.data`` of a name declared before with another dtype or shape: a new Variable;
- the errors of ``where`` (one of x/y), ``triangular_solve`` and ``softmax`` (no kernel),
  ``kthvalue`` (k, axis), ``histogram`` (an int range that overflows), ``rot90`` (axes);
- ``einsum``'s equation errors, ``lstsq``'s and ``solve``'s shape and dtype errors, ``fold``'s
  sizes and ``grid_sample``'s non-Tensor arguments;
- ``paddle.framework.dtype.dtype`` (``paddle.dtype(code)``); ``flatten``'s ValueError for a
  non-Tensor, ``inner``'s and ``normal``'s static TypeErrors;
- a binary in-place op (``x.multiply_(y)``) on a static Variable gives a new Variable;
- random values drawn in place into a non-leaf (``y.exponential_()``) have a zero gradient;
- ``embedding``'s ids: int32/int64 only in dynamic mode (NotImplementedError), any integer
  dtype while a program is built;
- no ``x.grad = ...`` while a program is built (AttributeError), ``clip_grad_norm_`` is dynamic
  mode only (RuntimeError);
- ``x.grad_fn``: Paddle's node names (``AddGradNode``, ``GradNodeAccumulation``) and
  ``next_functions`` as a list of nodes (None for an input without gradient);
- ``scatter_nd_add``'s error for an index longer than x's rank;
- ``linalg.eig``'s gradient for a loss that depends on the eigenvectors' phases (Paddle's
  formula, no error).

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_i31d6.py

Writes tests/goldens/upstream_fixes_i31d6.json: {case: {"code": ..., "value": ...} or
{"code": ..., "error": type name}}; tests/test_upstream_fixes_i31d6.py runs the same code on
paddle_compat (tests/code_cases.py). Each case leaves its result in ``out`` (plain JSON values).
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_i31d6.json")

CASES = {
    "empty_unknown_length_shape_static": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        s = paddle.static.data("s", [-1], "int64")
        o = paddle.empty(shape=s, dtype="float64")
        z = paddle.zeros(s)
        exe = paddle.static.Executor(paddle.CPUPlace())
        r = exe.run(feed={"s": np.array([2, 3])}, fetch_list=[o, z])
        out = [list(o.shape), list(z.shape), [list(a.shape) for a in r]]
finally:
    paddle.disable_static()
""",
    "creation_dtype_errors_static": """
res = []
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        for f in (lambda: paddle.empty([2, 3], "uint8"),
                  lambda: paddle.empty([2, 3], "int8"),
                  lambda: paddle.linspace(0, 10, 1, dtype="int8"),
                  lambda: paddle.linspace(0, 10, 1, dtype="float16"),
                  lambda: paddle.linspace(0, 10, 1.33, dtype="int32"),
                  lambda: paddle.linspace([0], 10, 1, dtype="float32"),
                  lambda: paddle.linspace(0, [10], 1, dtype="float32"),
                  lambda: paddle.linspace(0, 10, [0], dtype="float32"),
                  lambda: paddle.linspace(paddle.static.data("st", [1], "float64"), 10, 1,
                                          dtype="float32"),
                  lambda: paddle.linspace(0, paddle.static.data("en", [1], "int64"), 1,
                                          dtype="int32"),
                  lambda: paddle.linspace(0, 10, 5, dtype="float32")):
            try:
                f()
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "linspace_no_kernel_dynamic": """
res = []
for f in (lambda: paddle.linspace(0, 10, 3, dtype="int8"),
          lambda: paddle.linspace([0], 10, 3),
          lambda: paddle.linspace(0, 10, 1.33, dtype="int32").tolist()):
    try:
        res.append(f())
    except Exception as e:
        res.append(type(e).__name__)
out = res
""",
    "masked_select_nanmedian_static_errors": """
res = []
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        x = paddle.static.data("x", [3, 4], "float32")
        for f in (lambda: paddle.masked_select(x, paddle.static.data("m", [3, 4], "float32")),
                  lambda: paddle.masked_select(paddle.static.data("xb", [3, 4], "bool"),
                                               paddle.static.data("mb", [3, 4], "bool")),
                  lambda: paddle.masked_select(x, paddle.static.data("m2", [3, 4], "bool")),
                  lambda: paddle.nanmedian(paddle.static.data("b", [3, 4], "bool")),
                  lambda: paddle.nanmedian(x, axis=[], keepdim=True),
                  lambda: paddle.nanmedian(x)):
            try:
                f()
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "nanmedian_errors_dynamic": """
res = []
for f in (lambda: paddle.nanmedian(paddle.ones([3], "bool")),
          lambda: paddle.nanmedian(paddle.ones([3]), axis=[]),
          lambda: paddle.nanmedian(paddle.ones([3]), axis=()),
          lambda: paddle.nanmedian(paddle.ones([10, 12]), axis=3),
          lambda: paddle.nanmedian(paddle.ones([10, 12]), axis=-3),
          lambda: paddle.nanmedian(paddle.ones([10, 12]), axis=[1, -1]),
          lambda: paddle.nanmedian(paddle.to_tensor(2.0), axis=0).shape):
    try:
        res.append(f() or "ok")
    except Exception as e:
        res.append(type(e).__name__)
out = res
""",
    "quantile_errors": """
res = []
x = paddle.ones([2, 3, 4])
for f in (lambda: paddle.quantile([1, 3, 4], q=0.9),
          lambda: paddle.nanquantile(np.array([1., 3., 4.]), q=0.9),
          lambda: paddle.quantile(x, q=0.4, axis=0.4),
          lambda: paddle.quantile(x, q=0.4, axis=[1, 0.4]),
          lambda: paddle.quantile(x, q=0.4, axis=10),
          lambda: paddle.quantile(x, q=0.4, axis=[1, -10]),
          lambda: paddle.quantile(x, q=0.4, axis=(0, 1)),
          lambda: paddle.quantile(paddle.to_tensor(1.0), 0.5, axis=0),
          lambda: paddle.quantile(x, q=0.4, axis=[0, -1]).shape):
    try:
        res.append(f())
    except Exception as e:
        res.append(type(e).__name__)
out = res
""",
    "searchsorted_errors": """
res = []
fs = (lambda: paddle.searchsorted(paddle.ones([2, 2, 3]), paddle.ones([2, 5])),
      lambda: paddle.searchsorted(paddle.ones([2, 2, 3]), paddle.ones([2, 3, 5])),
      lambda: paddle.searchsorted(paddle.ones([3], "int16"), paddle.ones([3], "int16")),
      lambda: paddle.searchsorted(paddle.ones([2, 3]), paddle.ones([2, 5])).shape)
for f in fs:
    try:
        res.append(f())
    except Exception as e:
        res.append(type(e).__name__)
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        d = paddle.static.data
        for f in (lambda: paddle.searchsorted(d("a", [2, 2, 3], "float64"),
                                              d("b", [2, 5], "float64")),
                  lambda: paddle.searchsorted(d("a1", [-1, 2, 3], "float64"),
                                              d("b1", [2, 2, 5], "float64")),
                  lambda: paddle.searchsorted(d("a2", [2, 2, 2 ** 34], "float64"),
                                              d("b2", [2, 2, 5], "float64"), out_int32=True),
                  lambda: paddle.searchsorted(d("a3", [2, 3], "int16"), d("b3", [2, 5], "int16"))):
            try:
                f()
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "static_setitem_errors": """
res = []
paddle.enable_static()
try:
    prog = paddle.static.Program()
    with paddle.static.program_guard(prog, paddle.static.Program()):
        try:
            paddle.static.setitem(paddle.ones([3, 4]), 0, [1])
            res.append("ok")
        except Exception as e:
            res.append(type(e).__name__)
        x = paddle.ones([3, 4])
        y = paddle.static.setitem(x, 0, np.array([3, 4, 5, 6, 7]))
        res.append("built")
    try:
        paddle.static.Executor(paddle.CPUPlace()).run(prog)
        res.append("ran")
    except Exception as e:
        res.append(type(e).__name__)
    prog = paddle.static.Program()
    with paddle.static.program_guard(prog, paddle.static.Program()):
        x = paddle.ones([2, 3])
        y = paddle.static.setitem(x, 1, np.array([3., 4., 5.]))
    res.append(paddle.static.Executor(paddle.CPUPlace()).run(prog, fetch_list=[y])[0].tolist())
finally:
    paddle.disable_static()
out = res
""",
    "static_setitem_constant_indexing": """
res = []
paddle.enable_static()
try:
    prog = paddle.static.Program()
    with paddle.static.program_guard(prog, paddle.static.Program()):
        for idx in (([True, False], [True, False]), paddle.assign([True, False, True])):
            try:
                paddle.static.setitem(paddle.ones([2, 3, 4]), idx, 0)
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
        x = paddle.zeros([2, 5])
        y = paddle.static.setitem(x, (slice(None), slice(None, None, -2)), 7.0)
        z = paddle.static.setitem(paddle.zeros([2, 3]), 0, paddle.static.data("v", [3], "float32"))
    r = paddle.static.Executor(paddle.CPUPlace()).run(
        prog, feed={"v": np.array([1., 2., 3.], "float32")}, fetch_list=[y, z])
    res.append([a.tolist() for a in r])
finally:
    paddle.disable_static()
out = res
""",
    "create_lod_tensor": """
from paddle import base
t = base.create_lod_tensor(np.array([[-1]]), [[1]], base.CPUPlace())
t2 = base.create_lod_tensor([[1, 2], [3, 4, 5]], [[2, 3]], base.CPUPlace())
t3 = base.create_lod_tensor(t2, [[2, 3]], base.CPUPlace())
res = [np.array(t).tolist(), t.lod(), np.array(t2).tolist(), str(np.array(t2).dtype), t2.lod(),
       list(np.array(t3).shape)]
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        for f in (lambda: paddle.cast(t, "int32"), lambda: paddle.linalg.solve(t, t),
                  lambda: paddle.linalg.triangular_solve(t, t)):
            try:
                f()
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "static_data_declared_again": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        a = paddle.static.data("x", [2, 3], "float32")
        b = paddle.static.data("x", [3], "int64")
        c = paddle.static.data("x", [2, 3], "float32")
        res = [list(a.shape), str(a.dtype), list(b.shape), str(b.dtype), a.name, b.name,
               list(c.shape)]
        exe = paddle.static.Executor(paddle.CPUPlace())
        r = exe.run(feed={"x": np.ones([3], "int64")}, fetch_list=[b * 2])
        res.append([v.tolist() for v in r] + [str(r[0].dtype)])
finally:
    paddle.disable_static()
out = res
""",
    "op_errors_dynamic": """
res = []
c = paddle.to_tensor([[True, False], [False, True]])
a = paddle.ones([2, 2])
x = paddle.ones([2, 10, 20, 25])
iv = paddle.to_tensor([-7095538316670326452, -6102192280439741006, 2040176985344715288,
                       3166073479842736625], dtype="int64")
fs = (lambda: paddle.where(c, a), lambda: paddle.where(c, y=a),
      lambda: paddle.linalg.triangular_solve(paddle.ones([3, 3], "int32"),
                                             paddle.ones([3, 2], "int32")),
      lambda: x.kthvalue(k=0, axis=2), lambda: x.kthvalue(k=500, axis=2),
      lambda: x.kthvalue(k=10, axis=5), lambda: paddle.full([], 1).kthvalue(k=8),
      lambda: [v.tolist() for v in paddle.full([], 1.0).kthvalue(k=1)],
      lambda: paddle.histogram(iv, bins=1, min=0, max=0),
      lambda: paddle.histogram(paddle.to_tensor([1, 2, 3]), bins=2, min=0, max=0).tolist(),
      lambda: paddle.rot90(paddle.ones([2, 3]), k=1, axes=[3, 1]),
      lambda: paddle.rot90(paddle.ones([2, 3]), k=1, axes=[0, 3]),
      lambda: paddle.rot90(paddle.ones([2, 3]), k=1, axes=[0, -2]),
      lambda: paddle.rot90(paddle.to_tensor([[1, 2], [3, 4]]), k=1, axes=[1, -2]).tolist(),
      lambda: paddle.nn.functional.softmax(paddle.ones([2, 3], "int32")),
      lambda: paddle.nn.functional.softmax(paddle.ones([2, 3], "int32"), dtype="float32").tolist())
for f in fs:
    try:
        res.append(f())
    except Exception as e:
        res.append(type(e).__name__)
out = res
""",
    "op_errors_static": """
res = []
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        d = paddle.static.data
        fs = [lambda: paddle.rot90(d("r1", [2], "float32"), k=1, axes=[0, 1]),
              lambda: paddle.rot90(d("r2", [2, 3], "float32"), k=1, axes=[3, 1]),
              lambda: paddle.nn.functional.softmax(d("s1", [2, 3], "int32")),
              lambda: paddle.nn.functional.softmax(1)]
        for dt in ("bool", "int32"):
            fs.append(lambda dt=dt: paddle.linalg.triangular_solve(d("tx" + dt, [3, 3], dt),
                                                                   d("ty" + dt, [3, 2], dt)))
        for f in fs:
            try:
                f()
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "einsum_equation_errors": """
res = []
a = paddle.to_tensor(np.arange(4 * 3 * 4 * 4).reshape(4, 3, 4, 4).astype("float64"))
for args in (("ijk",), ("i -> j -> k", a), ("i,j,k", a, a), ("ij -> k", a, a), ("i, -> k", a),
             ("->", a), ("i", a), ("i_", a), ("i..j", a), ("...k...", a), ("i...->i", a),
             ("ij...,ji...", a, a)):
    try:
        paddle.einsum(*args)
        res.append("ok")
    except Exception as e:
        res.append([type(e).__name__, str(e).split("[Hint")[0].strip()[:100]])
res.append(paddle.einsum("ij,jk->ik", paddle.ones([2, 1]), paddle.ones([3, 2])).shape)
out = res
""",
    "linalg_errors": """
res = []
fs = (lambda: paddle.linalg.lstsq(paddle.ones([5]), paddle.ones([5, 15]), driver="gelsy"),
      lambda: paddle.linalg.lstsq(paddle.ones([5, 10]), paddle.ones([5]), driver="gelsy"),
      lambda: paddle.linalg.lstsq(paddle.ones([5, 10]), paddle.ones([4, 15]), driver="gelsy"),
      lambda: paddle.linalg.solve(paddle.ones([3, 3], "int32"), paddle.ones([3, 2], "int32")),
      lambda: paddle.linalg.solve(paddle.ones([3]), paddle.ones([3])),
      lambda: paddle.linalg.triangular_solve(paddle.ones([3]), paddle.ones([3, 3])),
      lambda: paddle.linalg.triangular_solve(paddle.ones([3, 3]), paddle.ones([3])))
for f in fs:
    try:
        f()
        res.append("ok")
    except Exception as e:
        res.append(type(e).__name__)
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        d = paddle.static.data
        for dt in ("bool", "int64", "float16"):
            try:
                paddle.linalg.solve(d("x" + dt, [3, 3], dt), d("y" + dt, [3, 2], dt))
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
        try:
            paddle.linalg.solve(d("x6", [30], "float64"), d("y6", [30], "float64"))
        except Exception as e:
            res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "fold_grid_sample_errors": """
import paddle.nn.functional as F
res = []
x = paddle.ones([2, 1, 1])
g = paddle.ones([1, 1, 3, 3])
fs = (lambda: F.fold(x, output_sizes=[0, 0], kernel_sizes=[0, 0], dilations=0, paddings=[0, 0],
                     strides=0),
      lambda: F.fold(x, output_sizes=[2, 2], kernel_sizes=[1, 1], dilations=0, strides=1),
      lambda: F.fold(x, output_sizes=[2, 2], kernel_sizes=[2, 2], strides=0),
      lambda: F.fold(x, output_sizes=[0, 0], kernel_sizes=[1, 1]),
      lambda: F.fold(paddle.ones([2, 6, 6]), output_sizes=[0.1, 0.2], kernel_sizes=[2, 2]),
      lambda: F.grid_sample(g, 1.0), lambda: F.grid_sample(1.0, g))
for f in fs:
    try:
        f()
        res.append("ok")
    except Exception as e:
        res.append(type(e).__name__)
out = res
""",
    "framework_dtype_dtype": """
import paddle.framework.dtype as dtypes
res = [str(dtypes.dtype(5)), str(dtypes.dtype(10)), str(dtypes.dtype(paddle.float32)),
       dtypes.dtype is paddle.dtype, isinstance(paddle.float32, paddle.dtype),
       str(paddle.full_like(paddle.ones([2]), 3, dtypes.dtype(9)).dtype)]
try:
    paddle.dtype("int64")
except Exception as e:
    res.append(type(e).__name__)
out = res
""",
    "flatten_inner_errors": """
res = []
x = np.ones([2, 3, 4, 4], "float32")
for f in (lambda: paddle.flatten(x), lambda: paddle.flatten([1, 2]),
          lambda: paddle.inner(np.ones(4), paddle.ones([4], "float64")),
          lambda: paddle.inner(paddle.ones([20, 5]), paddle.ones([10, 2]))):
    try:
        f()
        res.append("ok")
    except Exception as e:
        res.append(type(e).__name__)
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        d = paddle.static.data
        for f in (lambda: paddle.flatten(x),
                  lambda: paddle.inner(d("x", [100], "int8"), d("y", [100], "int8")),
                  lambda: paddle.inner(np.ones(4), d("y2", [4], "float64")),
                  lambda: paddle.inner(d("x1", [20, 50], "float64"), d("y1", [20], "float64"))):
            try:
                f()
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "normal_static_errors": """
res = []
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        d = paddle.static.data
        for f in (lambda: paddle.normal([1, 2, 3]), lambda: paddle.normal(std=[1, 2, 3]),
                  lambda: paddle.normal(d("m", [100], "int32")),
                  lambda: paddle.normal(mean=1.0, std=d("s", [100], "int32")),
                  lambda: paddle.normal(shape=1), lambda: paddle.normal(shape=[1.0]),
                  lambda: paddle.normal(shape=d("sh", [100], "float32")),
                  lambda: paddle.normal(shape=[2, 3]).shape):
            try:
                res.append(f())
            except Exception as e:
                res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "static_inplace_binary": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        x = paddle.static.data("x", [2, 3], "float32")
        y = paddle.static.data("y", [2, 3], "float32")
        res = x.multiply_(y)
        r2 = x.add_(y)
        r3 = paddle.subtract_(x, y)
        out = [v.tolist() for v in paddle.static.Executor(paddle.CPUPlace()).run(
            feed={"x": np.full([2, 3], 2, "float32"), "y": np.full([2, 3], 3, "float32")},
            fetch_list=[res, r2, r3, x])]
finally:
    paddle.disable_static()
""",
    "inplace_random_on_graph_zero_grad": """
x = paddle.full([3, 3], -1.0, dtype="float32")
x.stop_gradient = False
y = 2 * x
y.exponential_(0.5)
y.backward()
out = [bool(y.min() >= 0), y.stop_gradient, x.grad.tolist()]
""",
    "embedding_id_dtypes": """
res = []
w = paddle.ones([10, 3])
for dt in ("uint8", "int8", "int16", "int32"):
    try:
        res.append(paddle.nn.functional.embedding(paddle.to_tensor([1, 9], dtype=dt), w).shape)
    except Exception as e:
        res.append(type(e).__name__)
paddle.enable_static()
try:
    for dt in ("uint8", "int8", "int16"):
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data(name="x", shape=[-1, 7, 30], dtype=dt)
            res.append(paddle.nn.Embedding(10, 20)(x).shape)
finally:
    paddle.disable_static()
out = res
""",
    "grad_setter_and_clip_static": """
res = []
paddle.enable_static()
try:
    x = paddle.to_tensor(np.ones([1, 2], "float32"))
    try:
        x.grad = paddle.to_tensor(np.ones([1, 2], "float32"))
        res.append("ok")
    except Exception as e:
        res.append(type(e).__name__)
    try:
        paddle.nn.utils.clip_grad_norm_(x, max_norm=2)
        res.append("ok")
    except Exception as e:
        res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "grad_fn_names": """
x = paddle.randn([2])
x.stop_gradient = False
y = x ** 2
z = x + y
s = z.sum()
e = paddle.exp(s)
w = paddle.concat([x, paddle.ones([2])])
names = lambda n: [f.name() if f is not None else None for f in n.next_functions]
out = [[t.grad_fn.name(), names(t.grad_fn)] for t in (e, s, z, y, x, w)]
out.append(z.grad_fn.next_functions[0] is x.grad_fn)
""",
    "eig_grad_phase_dependent_loss": """
x = paddle.to_tensor([[0.0, -1.0, 0.2], [1.0, 0.0, 0.1], [0.3, 0.2, 2.0]], dtype="float64",
                     stop_gradient=False)
w, v = paddle.linalg.eig(x)
loss = paddle.sum(paddle.real(v) ** 2) + paddle.sum(paddle.real(w))   # a sign-free loss
loss.backward()
out = [np.round(x.grad.numpy(), 6).tolist(), np.round(np.sort(w.imag().numpy()), 6).tolist()]
""",
    "setitem_list_value_dynamic": """
x = paddle.ones([2, 3])
x[0] = [1]
""",
    "scatter_nd_add_index_too_long": """
res = []
for f in (lambda: paddle.scatter_nd_add(paddle.ones([3, 4, 5]), paddle.ones([2, 10], "int32"),
                                        paddle.ones([2, 10])),):
    try:
        f()
        res.append("ok")
    except Exception as e:
        res.append(type(e).__name__)
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        try:
            paddle.scatter_nd_add(paddle.static.data("r", [-1, 3, 4, 5]),
                                  paddle.static.data("i", [-1, 2, 10], "int32"),
                                  paddle.static.data("u", [-1, 2, 10]))
            res.append("ok")
        except Exception as e:
            res.append([type(e).__name__, "no greater than the rank" in str(e)])
finally:
    paddle.disable_static()
out = res
""",
}


def main():
    record(CASES, paddle, OUT, "upstream_i31d6_")


if __name__ == "__main__":
    main()
