"""Record Paddle 3.3.1's behaviour behind the fixes of issue 31's slice B1 (Paddle's
test/legacy_test files test_add_n_op ... test_lookup_table_v2_op, tools/upstream/table_B1.txt):

- operator types run by type (``core.Operator.create(OpDesc bytes).run(scope, place)``, what
  Paddle's OpTest builds its numeric gradients with): the registry entries of
  ``static/fluid_ops.py`` and ``jit/program_desc.py`` for argsort, cummax, logcumsumexp
  (exclusive/reverse), huber_loss, elementwise ops with an axis and X of the lower rank, group_norm's Mean/Variance, instance_norm's saved
  statistics, isclose, kthvalue, diag_v2, diagonal, index_select, index_add, lerp, atan2,
  label_smooth, kldiv_loss, log_loss, fold, affine_grid, expand_as_v2, fill_any_like, logspace;
- a retained intermediate whose grad node ran but got no gradient for it (an unused split
  part) has a zero gradient that stops gradient; one whose node never ran has none;
- ``heaviside``'s gradient for x is a zero tensor (``paddle.grad(..., allow_unused=True)``);
- ``paddle.tensor.exponential_``, ``_C_ops.huber_loss``, ``int(paddle.int64)``,
  ``paddle.base.framework.grad_var_name``;
- ``einsum`` with an output label repeated (``'i->ii'``: undiagonalize);
- ``isclose`` with tolerance tensors (one float64 element) and its dtype errors;
- Paddle's errors of ``paddle.diag``, ``paddle.linalg.eig`` (no integer kernel) and of ``paddle.broadcast_tensors`` in static mode.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_B1.py

Writes tests/goldens/upstream_fixes_B1.json: {case: {"code": ..., "value": ...} or
{"code": ..., "error": type name}}; tests/test_upstream_fixes_B1.py runs the same code on
paddle_compat (tests/code_cases.py). Each case leaves its result in ``out`` (plain JSON values).
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_B1.json")

# run one operator by type in a Scope; ins {slot: array}, outs [slot], attrs {name: (type, v)}
RUN_OP = """
from paddle.base import core
from paddle.base.proto import framework_pb2 as pb


def run_op(op_type, ins, outs, attrs):
    scope, place = core.Scope(), core.CPUPlace()
    d = pb.OpDesc()
    d.type = op_type
    for slot, arr in ins.items():
        v = d.inputs.add()
        v.parameter = slot
        v.arguments.append("in_" + slot)
        scope.var("in_" + slot).get_tensor().set(np.asarray(arr), place)
    for slot in outs:
        v = d.outputs.add()
        v.parameter = slot
        v.arguments.append("out_" + slot)
        scope.var("out_" + slot).get_tensor()
    for k, (t, val) in attrs.items():
        a = d.attrs.add()
        a.name = k
        a.type = getattr(pb, t)
        if t == "INTS":
            a.ints.extend(val)
        else:
            setattr(a, {"INT": "i", "FLOAT": "f", "STRING": "s", "BOOLEAN": "b"}[t], val)
    core.Operator.create(d.SerializeToString()).run(scope, place)
    res = [np.array(scope.find_var("out_" + s).get_tensor()) for s in outs]
    return [[(r.round(5) if r.dtype.kind == "f" else r).tolist(), str(r.dtype)] for r in res]


x = np.array([[3., 1., 2.], [0.5, -1., 4.]], dtype="float32")
"""

CASES = {
    "op_argsort_descending": RUN_OP + """
out = run_op("argsort", {"X": x}, ["Out", "Indices"],
             {"axis": ("INT", 1), "descending": ("BOOLEAN", True)})
""",
    "op_cummax": RUN_OP + """
out = run_op("cummax", {"x": x}, ["out", "indices"], {"axis": ("INT", 0), "dtype": ("INT", 3)})
""",
    "op_logcumsumexp_exclusive_reverse": RUN_OP + """
out = run_op("logcumsumexp", {"X": x}, ["Out"],
             {"axis": ("INT", 1), "exclusive": ("BOOLEAN", True), "reverse": ("BOOLEAN", True)})
out[0][0] = [[v if abs(v) < 1e30 else "lowest" if v < 0 else v for v in row]
             for row in out[0][0]]
""",
    "op_logcumsumexp_flatten": RUN_OP + """
out = run_op("logcumsumexp", {"X": x}, ["Out"], {"flatten": ("BOOLEAN", True)})
""",
    "op_huber_loss": RUN_OP + """
out = run_op("huber_loss", {"X": x, "Y": x * 2}, ["Out", "Residual"], {"delta": ("FLOAT", 1.0)})
""",
    "op_group_norm_statistics": RUN_OP + """
g = np.arange(24, dtype="float32").reshape(1, 6, 2, 2) ** 1.5
out = run_op("group_norm", {"X": g, "Scale": np.ones(6, "float32"),
                            "Bias": np.zeros(6, "float32")}, ["Y", "Mean", "Variance"],
             {"groups": ("INT", 3), "epsilon": ("FLOAT", 1e-5), "data_layout": ("STRING", "NCHW")})
""",
    "op_instance_norm_statistics": RUN_OP + """
g = np.arange(16, dtype="float32").reshape(2, 2, 2, 2) ** 1.5
out = run_op("instance_norm", {"X": g, "Scale": np.ones(2, "float32"),
                               "Bias": np.zeros(2, "float32")},
             ["Y", "SavedMean", "SavedVariance"], {"epsilon": ("FLOAT", 1e-5)})
""",
    "op_isclose_string_tolerances": RUN_OP + """
out = run_op("isclose", {"Input": x, "Other": x + 1e-3}, ["Out"],
             {"rtol": ("STRING", "1e-05"), "atol": ("STRING", "0.01"),
              "equal_nan": ("BOOLEAN", False)})
""",
    "op_kthvalue": RUN_OP + """
out = run_op("kthvalue", {"X": x}, ["Out", "Indices"],
             {"k": ("INT", 2), "axis": ("INT", 1), "keepdim": ("BOOLEAN", True)})
""",
    "op_diag_v2_padding": RUN_OP + """
out = run_op("diag_v2", {"X": np.array([1., 2.], "float32")}, ["Out"],
             {"offset": ("INT", 1), "padding_value": ("FLOAT", 7.0)})
""",
    "op_diagonal": RUN_OP + """
out = run_op("diagonal", {"Input": np.arange(24, dtype="float32").reshape(2, 3, 4)}, ["Out"],
             {"offset": ("INT", -1), "axis1": ("INT", 2), "axis2": ("INT", 1)})
""",
    "op_index_select_and_add": RUN_OP + """
idx = np.array([2, 0], "int64")
out = (run_op("index_select", {"X": x, "Index": idx}, ["Out"], {"dim": ("INT", 1)})
       + run_op("index_add", {"X": x, "Index": idx, "AddValue": np.ones((2, 2), "float32")},
                ["Out"], {"axis": ("INT", 1)}))
""",
    "op_lerp_atan2": RUN_OP + """
out = (run_op("lerp", {"X": x, "Y": x * 3, "Weight": np.array([0.25], "float32")}, ["Out"], {})
       + run_op("atan2", {"X1": x, "X2": x[::-1].copy()}, ["Out"], {}))
""",
    "op_label_smooth_kldiv_log_loss": RUN_OP + """
p = np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], "float32")
out = (run_op("label_smooth", {"X": p}, ["Out"], {"epsilon": ("FLOAT", 0.1)})
       + run_op("kldiv_loss", {"X": np.log(p), "Target": p[::-1].copy()}, ["Loss"],
                {"reduction": ("STRING", "batchmean")})
       + run_op("log_loss", {"Predicted": p.reshape(-1, 1), "Labels": np.ones((6, 1), "float32")},
                ["Loss"], {"epsilon": ("FLOAT", 1e-4)}))
""",
    "op_fold": RUN_OP + """
out = run_op("fold", {"X": np.arange(16, dtype="float32").reshape(1, 4, 4)}, ["Y"],
             {"output_sizes": ("INTS", [3, 3]), "kernel_sizes": ("INTS", [2, 2]),
              "strides": ("INTS", [1, 1]), "paddings": ("INTS", [0, 0, 0, 0]),
              "dilations": ("INTS", [1, 1])})
""",
    "op_affine_grid": RUN_OP + """
theta = np.array([[[1., 0.5, 0.], [0., 1., 0.25]]], "float32")
out = run_op("affine_grid", {"Theta": theta}, ["Output"],
             {"output_shape": ("INTS", [1, 1, 2, 3]), "align_corners": ("BOOLEAN", False)})
""",
    "op_expand_as_v2_fill_any_like": RUN_OP + """
out = (run_op("expand_as_v2", {"X": np.array([[1.], [2.]], "float32")}, ["Out"],
              {"target_shape": ("INTS", [2, 3])})
       + run_op("fill_any_like", {"X": x}, ["Out"], {"value": ("FLOAT", 5.0), "dtype": ("INT", 3)}))
""",
    "op_logspace": RUN_OP + """
f = lambda v: np.array([v], "float32")
out = run_op("logspace", {"Start": f(0.), "Stop": f(3.), "Num": np.array([4], "int32"),
                          "Base": f(2.)}, ["Out"], {"dtype": ("INT", 5)})
""",
    "op_elementwise_mul_x_smaller_axis": RUN_OP + """
a = np.arange(6, dtype="float32").reshape(2, 3)
b = np.arange(24, dtype="float32").reshape(2, 2, 3, 2)
out = run_op("elementwise_mul", {"X": a, "Y": b[..., 0].copy()}, ["Out"], {"axis": ("INT", 1)})
out += run_op("elementwise_sub", {"X": a, "Y": b}, ["Out"], {"axis": ("INT", 1)})
""",
    "retain_grads_unused_split_part": """
x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3), stop_gradient=False)
a, b = paddle.split(x * 1.0, [1, 2], axis=1)
a.retain_grads()
b.retain_grads()
a.sum().backward()
out = [b.grad.numpy().tolist(), b.grad.stop_gradient, a.grad.numpy().tolist(),
       x.grad.numpy().tolist()]
""",
    "retain_grads_node_not_run": """
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = x * 2
y.retain_grads()
(x * 3).sum().backward()
out = [y.grad is None, x.grad.numpy().tolist()]
""",
    "retain_grads_split_part_backward_twice": """
x = paddle.to_tensor(np.arange(4, dtype="float32"), stop_gradient=False)
a, b = paddle.split(x * 2.0, 2)
b.retain_grads()
a.sum().backward(retain_graph=True)
first = b.grad.numpy().tolist()
(b * 3).sum().backward()
out = [first, b.grad.numpy().tolist(), x.grad.numpy().tolist()]
""",
    "heaviside_zero_x_gradient": """
x = paddle.to_tensor([[-1.0, 0.0, 2.0], [0.0, 3.0, -2.0]], stop_gradient=False)
y = paddle.to_tensor([0.5, 0.25, 0.75], stop_gradient=False)
o = paddle.heaviside(x, y)
gx, gy = paddle.grad([o], [x, y], [paddle.ones_like(o) * 2], allow_unused=True)
special = paddle.heaviside(paddle.to_tensor([float("nan"), -0.0, float("inf")]),
                           paddle.to_tensor([3.0, 4.0, 5.0]))
out = [o.numpy().tolist(), gx.numpy().tolist(), gy.numpy().tolist(), gx.stop_gradient,
       special.numpy().tolist()]
""",
    "heaviside_to_static_zero_x_gradient": """
f = paddle.jit.to_static(lambda x, y: paddle.heaviside(x, y))
x = paddle.to_tensor([[-1.0, 0.0, float("inf")], [0.0, float("nan"), -2.0]], stop_gradient=False)
y = paddle.to_tensor([0.5, 0.25, 0.75], stop_gradient=False)
o = f(x, y)
gx, gy = paddle.grad([o], [x, y], allow_unused=True)
out = [o.numpy().tolist(), gx.numpy().tolist(), gy.numpy().tolist()]
""",
    "einsum_undiagonal": """
A = paddle.to_tensor(np.array([1.0, 2.0]), stop_gradient=False)
B = paddle.to_tensor(np.array([1.0, 1.0]))
M = paddle.to_tensor(np.arange(6.0).reshape(2, 3), stop_gradient=False)
o = paddle.einsum("ij->jii", M)
(o * paddle.arange(12, dtype="float64").reshape([3, 2, 2])).sum().backward()
out = [paddle.einsum("i->ii", A).numpy().tolist(), paddle.einsum("i,j->ii", A, B).numpy().tolist(),
       list(o.shape), o.numpy().tolist(), M.grad.numpy().tolist()]
""",
    "tensor_exponential_": """
paddle.seed(3)
t = paddle.zeros([2000])
r = paddle.tensor.exponential_(t, lam=2.0)
out = [r is t, bool((t.numpy() >= 0).all()), round(float(t.numpy().mean()), 1),
       paddle.tensor.random.exponential_ is paddle.tensor.exponential_,
       hasattr(paddle, "exponential_")]
""",
    "c_ops_huber_loss": """
x = paddle.to_tensor([0.5, -2.0, 3.0])
y = paddle.to_tensor([0.0, 0.0, 0.0])
from paddle import _C_ops
o = _C_ops.huber_loss(x, y, 1.0)
out = [type(o).__name__, o.numpy().tolist()]
""",
    "int_of_dtype": """
out = [int(paddle.int64), int(paddle.float32), int(paddle.bool), int(paddle.int32)]
""",
    "grad_var_name": """
from paddle.base.framework import grad_var_name
out = grad_var_name("x_0")
""",
    "diag_offset_float": """
paddle.diag(paddle.ones([3, 3]), offset=2.5)
""",
    "diag_padding_value_list": """
paddle.diag(paddle.ones([3]), padding_value=[9])
""",
    "diag_static_errors": """
paddle.enable_static()
res = []
try:
    x = paddle.static.data("data", [3, 3])
    for kw in ({"offset": 2.5}, {"padding_value": [9]}):
        try:
            paddle.diag(x, **kw)
            res.append("ok")
        except Exception as e:
            res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "broadcast_tensors_static_errors": """
paddle.enable_static()
res = []
try:
    for dts in (("float32", "float64"), ("int8", "int8")):
        xs = [paddle.static.data(f"bt_{i}_{d}", [-1, 1 + 3 * i, 1], d) for i, d in enumerate(dts)]
        try:
            paddle.broadcast_tensors(xs)
            res.append("ok")
        except Exception as e:
            res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "isclose_tensor_tolerances": """
x = paddle.to_tensor([10000.0, 1e-07, float("nan")])
y = paddle.to_tensor([10000.1, 1e-08, float("nan")])
r = paddle.to_tensor(np.array([1e-05]))
a = paddle.to_tensor(np.array([1e-08]))
out = [paddle.isclose(x, y, r, a).numpy().tolist(),
       paddle.isclose(x, y, r, a, equal_nan=True).numpy().tolist()]
""",
    "isclose_tensor_rtol_two_elements": """
x = paddle.to_tensor([1.0, 2.0])
paddle.isclose(x, x, paddle.to_tensor(np.array([1e-5, 1e-5])), paddle.to_tensor(np.array([1e-8])))
""",
    "isclose_tensor_rtol_int32": """
x = paddle.to_tensor([1.0, 2.0])
paddle.isclose(x, x, paddle.to_tensor(np.array([5], "int32")), paddle.to_tensor(np.array([1e-8])))
""",
    "isclose_int_dynamic": """
paddle.isclose(paddle.ones([2], "int32"), paddle.ones([2], "int32"))
""",
    "isclose_int_static": """
paddle.enable_static()
res = []
try:
    for dx, dy in (("int32", "float64"), ("float64", "int32")):
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            try:
                paddle.isclose(paddle.static.data("x", [2], dx), paddle.static.data("y", [2], dy))
                res.append("ok")
            except Exception as e:
                res.append(type(e).__name__)
finally:
    paddle.disable_static()
out = res
""",
    "eig_int64_error": """
paddle.linalg.eig(paddle.to_tensor(np.ones((3, 3), "int64")))
""",
    "broadcast_tensors_int8_dynamic": """
paddle.broadcast_tensors([paddle.ones([1, 2], "int8"), paddle.ones([3, 1], "int8")])
""",
}


def main():
    record(CASES, paddle, OUT, "upstream_b1_")


if __name__ == "__main__":
    main()
