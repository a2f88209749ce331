"""Record Paddle 3.3.1's behaviour behind the fixes of issue 31's helper d1 (branch i31d1):
creation and random ops whose shapes or values are static Variables (Paddle's ShapeTensor,
ShapeTensorList, ValueTensor, a Variable ``num``/``start``/``out_shape``/``mean``):

- ``fill_constant``/``gaussian_random``/``randint``/``affine_grid`` by op type: optional
  tensor slots in their OpProto, the kernel signatures that name the tensor slots given;
- static ``paddle.full`` with a Variable value and shape, ``linspace``/``logspace`` with
  Variable arguments (and Paddle's static argument errors), ``affine_grid`` with a Variable
  ``out_shape``, ``empty`` with a shape of unknown length, ``normal`` with a Variable mean
  (and its static TypeErrors);
- the ``exponential`` op type run by type, the gradient through an in-place
  ``exponential_`` of a non-leaf (zero), seeded ``poisson`` draws of small and large rates.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_i31d1.py

Writes tests/goldens/upstream_fixes_i31d1.json (tests/test_upstream_fixes_i31d1.py runs the
same code on paddle_compat). Each case leaves its result in ``out`` (plain JSON values).
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_i31d1.json")

CASES = {
    "kernel_signatures_with_tensor_slots": """
from paddle.base.framework import _dygraph_tracer
s = paddle.to_tensor(np.array([2, 3], "int32"))
v = paddle.to_tensor(np.array([2.0], "float32"))
o = paddle.to_tensor(np.array([2.0], "float32"))
t = _dygraph_tracer()
out = [list(map(list, t._get_kernel_signature(op, ins, {"Out": [o]}, attrs)))
       for op, ins, attrs in (
           ("fill_constant", {"ShapeTensor": [s], "ValueTensor": [v]}, {"value": 1.0}),
           ("fill_constant", {"ShapeTensorList": [s, s]}, {"shape": [-1, 2], "value": 1.0}),
           ("fill_constant", {}, {"shape": [2], "value": 1.0}),
           ("gaussian_random", {"ShapeTensorList": [s, s]}, {}),
           ("randint", {"ShapeTensorList": [s, s]}, {}),
           ("affine_grid", {"Theta": [v], "OutputShape": [s]}, {}))]
""",
    "op_protos_optional_tensor_slots": """
from paddle.base.framework import OpProtoHolder
out = {op: [[i.name, i.dispensable, i.duplicable]
            for i in OpProtoHolder.instance().get_op_proto(op).inputs]
       for op in ("fill_constant", "gaussian_random", "randint")}
""",
    "static_full_variable_value_and_shape": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        v = paddle.static.data("v", [1], "float32")
        sh = paddle.static.data("sh", [2], "int64")
        n = paddle.static.data("n", [1], "int32")
        o1 = paddle.full([2, 3], v, "int32")
        o2 = paddle.full(sh, v)
        o3 = paddle.tensor.fill_constant([n, 2], "float64", v)
        res = paddle.static.Executor().run(
            feed={"v": np.array([2.5], "float32"), "sh": np.array([1, 2], "int64"),
                  "n": np.array([3], "int32")}, fetch_list=[o1, o2, o3])
        out = [list(o1.shape), list(o2.shape), list(o3.shape),
               [[r.tolist(), str(r.dtype)] for r in res]]
finally:
    paddle.disable_static()
""",
    "static_full_shape_dtype_errors": """
paddle.enable_static()
res = []
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        for shape in (paddle.static.data("f", [2], "float32"),
                      [paddle.static.data("b", [1], "bool"), 2]):
            try:
                paddle.full(shape, 1.0)
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "static_linspace_logspace_variables": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        n = paddle.static.data("n", [1], "int32")
        s = paddle.static.data("s", [1], "float32")
        b = paddle.static.data("b", [1], "float32")
        o1 = paddle.logspace(s, 10, n, b)
        o2 = paddle.linspace(s, 10, n)
        o3 = paddle.linspace(0, 1, n, dtype="int64")
        res = paddle.static.Executor().run(
            feed={"s": np.array([1.0], "float32"), "n": np.array([4], "int32"),
                  "b": np.array([2.0], "float32")}, fetch_list=[o1, o2, o3])
        out = [list(o1.shape), list(o2.shape), [[r.tolist(), str(r.dtype)] for r in res]]
finally:
    paddle.disable_static()
""",
    "static_linspace_logspace_errors": """
paddle.enable_static()
res = []
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        f64 = paddle.static.data("f64", [1], "float64")
        f32 = paddle.static.data("f32", [1], "float32")
        for fn in (lambda: paddle.logspace(0, 10, 1, 2, dtype="int8"),
                   lambda: paddle.logspace(0, 10, 1.5, 2),
                   lambda: paddle.logspace([0], 10, 1, 2),
                   lambda: paddle.logspace(f64, 10, 1, 2, dtype="float32"),
                   lambda: paddle.logspace(0, 10, f32, 2),
                   lambda: paddle.logspace(0, 10, 1, f64, dtype="float32"),
                   lambda: paddle.linspace(0, 10, 1, dtype="int8"),
                   lambda: paddle.linspace(f64, 10, 1, dtype="float32"),
                   lambda: paddle.linspace(0, 10, f32)):
            try:
                fn()
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    # (only the 3-D grid's static shape: Paddle gives a 2-D grid five dims, [N, -1, -1, -1, 3];
    # ours has the grid's own rank, [N, -1, -1, 2])
    "static_affine_grid_variable_out_shape": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        th = paddle.static.data("th", [2, 2, 3], "float32")
        sh = paddle.static.data("sh", [4], "int32")
        th5 = paddle.static.data("th5", [1, 3, 4], "float32")
        sh5 = paddle.static.data("sh5", [5], "int32")
        o = paddle.nn.functional.affine_grid(th, sh, align_corners=False)
        o5 = paddle.nn.functional.affine_grid(th5, sh5)
        theta = np.array([[[1, 0.5, 0.1], [0.2, 1, -0.3]]] * 2, "float32")
        res = paddle.static.Executor().run(
            feed={"th": theta, "sh": np.array([2, 1, 2, 3], "int32"),
                  "th5": np.arange(12, dtype="float32").reshape(1, 3, 4) / 10,
                  "sh5": np.array([1, 1, 2, 2, 2], "int32")}, fetch_list=[o, o5])
        out = [list(o5.shape), [r.round(5).tolist() for r in res]]
finally:
    paddle.disable_static()
""",
    "static_empty_unknown_length_shape": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        s = paddle.static.data("s", [-1], "int64")
        o = paddle.empty(s, "float64")
        r, = paddle.static.Executor().run(feed={"s": np.array([3, 2], "int64")},
                                          fetch_list=[o])
        out = [list(o.shape), list(r.shape), str(r.dtype)]
finally:
    paddle.disable_static()
""",
    "static_empty_uint8_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        paddle.empty([2, 3], "uint8")
finally:
    paddle.disable_static()
""",
    "static_normal_variable_mean": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        m = paddle.static.data("m", [2, 2000], "float32")
        o = paddle.normal(m, 2.0)
        r, = paddle.static.Executor().run(feed={"m": np.full([2, 2000], 5, "float32")},
                                          fetch_list=[o])
        out = [list(o.shape), list(r.shape), str(r.dtype), round(float(r.mean())),
               round(float(r.std()))]
finally:
    paddle.disable_static()
""",
    "static_normal_errors": """
paddle.enable_static()
res = []
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        mi = paddle.static.data("mi", [4], "int32")
        for kw in ({"mean": [1, 2]}, {"std": [1, 2]}, {"mean": mi}, {"mean": 1.0, "std": mi},
                   {"shape": 1}, {"shape": paddle.static.data("sf", [2], "float32")}):
            try:
                paddle.normal(**kw)
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "exponential_op_by_type": """
from paddle.base import core
from paddle.base.proto import framework_pb2 as pb
scope, place = core.Scope(), core.CPUPlace()
d = pb.OpDesc()
d.type = "exponential"
v = d.inputs.add()
v.parameter, _ = "X", v.arguments.append("x")
v = d.outputs.add()
v.parameter, _ = "Out", v.arguments.append("y")
a = d.attrs.add()
a.name, a.type, a.f = "lambda", pb.FLOAT, 2.0
scope.var("x").get_tensor().set(np.zeros([50, 40], "float32"), place)
scope.var("y").get_tensor()
core.Operator.create(d.SerializeToString()).run(scope, place)
r = np.array(scope.find_var("y").get_tensor())
out = [list(r.shape), str(r.dtype), bool((r >= 0).all()), round(float(r.mean()), 1)]
""",
    "exponential_inplace_non_leaf_zero_grad": """
x = paddle.full([3, 4], -1.0, dtype="float32")
x.stop_gradient = False
y = 2 * x
y.exponential_(0.5)
y.sum().backward()
out = [bool((y.numpy() >= 0).all()), x.grad.numpy().tolist()]
""",
    "poisson_seeded_small_and_large_rates": """
paddle.seed(2024)
rates = np.array([0.5, 3.0, 11.9, 12.0, 30.0, 0.0, 7.0] * 40, "float32").reshape(14, 20)
a = paddle.poisson(paddle.to_tensor(rates))
b = paddle.poisson(paddle.full([3000], 10.0, "float64"))
out = [a.numpy().astype("int64").tolist(), int(b.numpy().sum()),
       b.numpy()[-20:].astype("int64").tolist()]
""",
}


def main():
    record(CASES, paddle, OUT, "upstream_i31d1_")


if __name__ == "__main__":
    main()
