"""Record Paddle 3.3.1's behaviour behind the fixes of issue 31's helper d5 (Paddle's
test/legacy_test files that run operators by type over ``core.Scope`` SelectedRows, and the op
types ``adam``, ``rmsprop``, ``hierarchical_sigmoid``, ``matrix_nms``):

- ``scope.var(name).get_selected_rows()`` / ``core.SelectedRows``: rows, height, value tensor;
- operators over a SelectedRows input: ``scale`` (keeps rows and height), ``clip_by_norm``
  (merges repeated rows), ``lookup_table_v2`` with a SelectedRows table, ``fill_constant``
  into a SelectedRows output, ``sgd``/``adagrad``/``adam`` (lazy and not)/``rmsprop`` with a
  sparse gradient (repeated rows add up);
- the dense ``adam``, ``rmsprop`` (centered), ``hierarchical_sigmoid`` (PreOut) and
  ``matrix_nms`` op types;
- ``fill_constant`` with its ValueTensor/ShapeTensor inputs, ``paddle.full`` with a Variable
  value in static mode, the TypeError of a float shape Variable;
- static ``Adam`` with a beta given as a Variable (its powers start at 0.9/0.999);
- ``embedding``: Paddle's error for ids other than int32/int64 (its static build with int8
  ids and a numpy ``padding_idx``: Paddle 3.3.1 crashes recording them here, the case is left
  to test_lookup_table_v2_op.py).

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_i31d5.py

Writes tests/goldens/upstream_fixes_i31d5.json; tests/test_upstream_fixes_i31d5.py runs the
same code on paddle_compat. Each case leaves its result in ``out`` (plain JSON values).
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_i31d5.json")

# run one operator by type in a Scope: ins {slot: array or ("rows", rows, height, array)},
# outs {slot: "dense", "rows" or "=Slot" (written into the input Slot's variable)},
# attrs {name: (type, value)}
RUN_OP = """
from paddle.base import core
from paddle.base.proto import framework_pb2 as pb


def run_op(op_type, ins, outs, attrs, prefill=None):
    scope, place = core.Scope(), core.CPUPlace()
    d = pb.OpDesc()
    d.type = op_type
    for slot, arr in ins.items():
        v = d.inputs.add()
        v.parameter = slot
        v.arguments.append("in_" + slot)
        if isinstance(arr, tuple):
            sr = scope.var("in_" + slot).get_selected_rows()
            sr.set_rows(arr[1])
            sr.set_height(arr[2])
            sr.sync_index()
            sr.get_tensor().set(np.asarray(arr[3]), place)
        else:
            scope.var("in_" + slot).get_tensor().set(np.asarray(arr), place)
    names = {}
    for slot, kind in outs.items():
        v = d.outputs.add()
        v.parameter = slot
        names[slot] = "in_" + kind[1:] if kind.startswith("=") else "out_" + slot
        v.arguments.append(names[slot])
        if kind.startswith("="):
            if isinstance(ins[kind[1:]], tuple):
                outs[slot] = "rows"
        elif kind == "rows":
            scope.var("out_" + slot).get_selected_rows()
        else:
            t = scope.var("out_" + slot).get_tensor()
            if prefill is not None and slot in prefill:
                t.set(np.asarray(prefill[slot]), place)
    for k, (t, val) in attrs.items():
        a = d.attrs.add()
        a.name = k
        a.type = getattr(pb, t)
        if t == "INTS":
            a.ints.extend(val)
        else:
            setattr(a, {"INT": "i", "FLOAT": "f", "STRING": "s", "BOOLEAN": "b"}[t], val)
    core.Operator.create(d.SerializeToString()).run(scope, place)
    res = {}
    for slot, kind in outs.items():
        var = scope.find_var(names[slot])
        if kind == "rows":
            sr = var.get_selected_rows()
            r = np.array(sr.get_tensor())
            res[slot] = [sr.rows(), sr.height(), r.round(5).tolist()]
        else:
            r = np.array(var.get_tensor())
            res[slot] = [(r.round(5) if r.dtype.kind == "f" else r).tolist(), str(r.dtype)]
    return res


g = np.array([[1., 2., 3.], [0.5, -1., 4.], [2., 0., -2.]], dtype="float32")
p = np.arange(15, dtype="float32").reshape(5, 3) / 10
"""

CASES = {
    "selected_rows_object": """
from paddle.base import core
sr = core.SelectedRows([0, 4, 4], 10)
scope = core.Scope()
v = scope.var("a").get_selected_rows()
v.set_rows([3, 1])
v.set_height(6)
v.get_tensor().set(np.ones((2, 4), "float32"), core.CPUPlace())
out = [sr.rows(), sr.height(), sr.numel(), v.rows(), v.height(), v.numel(),
       np.array(scope.find_var("a").get_selected_rows().get_tensor()).shape,
       v.get_tensor()._get_dims()]
""",
    "op_scale_selected_rows": RUN_OP + """
out = run_op("scale", {"X": ("rows", [4, 0, 4], 7, g)}, {"Out": "rows"},
             {"scale": ("FLOAT", 2.0), "bias": ("FLOAT", 1.0)})
""",
    "op_clip_by_norm_selected_rows_merges": RUN_OP + """
out = run_op("clip_by_norm", {"X": ("rows", [3, 0, 3], 5, g)}, {"Out": "rows"},
             {"max_norm": ("FLOAT", 1.0)})
""",
    "op_fill_constant_into_selected_rows": RUN_OP + """
out = run_op("fill_constant", {}, {"Out": "rows"},
             {"shape": ("INTS", [2, 3]), "value": ("FLOAT", 1.5), "dtype": ("INT", 5)})
""",
    "op_lookup_table_v2_selected_rows_table": RUN_OP + """
out = run_op("lookup_table_v2", {"W": ("rows", [0, 1, 2], 3, g),
                                 "Ids": np.array([[2, 0], [1, 2]], "int64")},
             {"Out": "dense"}, {})
""",
    "op_sgd_sparse_grad_repeated_rows": RUN_OP + """
out = run_op("sgd", {"Param": p, "Grad": ("rows", [4, 1, 4], 5, g),
                     "LearningRate": np.array([0.5], "float32")}, {"ParamOut": "=Param"}, {})
""",
    "op_sgd_sparse_param": RUN_OP + """
out = run_op("sgd", {"Param": ("rows", [0, 1, 2, 3, 4], 5, p),
                     "Grad": ("rows", [2, 0], 5, g[:2]),
                     "LearningRate": np.array([0.5], "float32")}, {"ParamOut": "=Param"}, {})
""",
    "op_adagrad_sparse_grad": RUN_OP + """
out = run_op("adagrad", {"Param": p, "Grad": ("rows", [4, 1, 4], 5, g), "Moment": p + 1,
                         "LearningRate": np.array([0.5], "float32")},
             {"ParamOut": "=Param", "MomentOut": "=Moment"}, {"epsilon": ("FLOAT", 1e-6)})
""",
    "op_adam_dense": RUN_OP + """
out = run_op("adam", {"Param": p, "Grad": p[::-1] - 0.7, "Moment1": p / 3, "Moment2": p / 2,
                      "LearningRate": np.array([0.1], "float32"),
                      "Beta1Pow": np.array([0.81], "float32"),
                      "Beta2Pow": np.array([0.9], "float32")},
             {"ParamOut": "dense", "Moment1Out": "dense", "Moment2Out": "dense",
              "Beta1PowOut": "dense", "Beta2PowOut": "dense"},
             {"beta1": ("FLOAT", 0.9), "beta2": ("FLOAT", 0.95), "epsilon": ("FLOAT", 1e-3)})
""",
    "op_adam_sparse_grad_lazy": RUN_OP + """
rowed = ["ParamOut", "Moment1Out", "Moment2Out"]
outs = dict.fromkeys(rowed + ["Beta1PowOut", "Beta2PowOut"], "dense")
out = run_op("adam", {"Param": p, "Grad": ("rows", [3, 1, 3], 5, g), "Moment1": p / 3,
                      "Moment2": p / 2, "LearningRate": np.array([0.1], "float32"),
                      "Beta1Pow": np.array([0.81], "float32"),
                      "Beta2Pow": np.array([0.9], "float32")}, outs,
             {"beta1": ("FLOAT", 0.9), "beta2": ("FLOAT", 0.95), "epsilon": ("FLOAT", 1e-3),
              "lazy_mode": ("BOOLEAN", True)},
             prefill={k: np.full((5, 3), -1.0, "float32") for k in rowed})
""",
    "op_adam_sparse_grad_not_lazy": RUN_OP + """
out = run_op("adam", {"Param": p, "Grad": ("rows", [3, 1, 3], 5, g), "Moment1": p / 3,
                      "Moment2": p / 2, "LearningRate": np.array([0.1], "float32"),
                      "Beta1Pow": np.array([0.81], "float32"),
                      "Beta2Pow": np.array([0.9], "float32")},
             {"ParamOut": "dense", "Moment1Out": "dense", "Moment2Out": "dense",
              "Beta1PowOut": "dense", "Beta2PowOut": "dense"},
             {"beta1": ("FLOAT", 0.9), "beta2": ("FLOAT", 0.95), "epsilon": ("FLOAT", 1e-3)})
""",
    "op_rmsprop_centered_sparse_grad": RUN_OP + """
out = run_op("rmsprop", {"Param": p, "Grad": ("rows", [0, 2, 0], 5, g), "MeanSquare": p + 1,
                         "Moment": p / 4, "MeanGrad": p / 5,
                         "LearningRate": np.array([0.1], "float32")},
             {"ParamOut": "=Param", "MomentOut": "=Moment", "MeanSquareOut": "=MeanSquare",
              "MeanGradOut": "=MeanGrad"},
             {"epsilon": ("FLOAT", 1e-6), "decay": ("FLOAT", 0.9), "momentum": ("FLOAT", 0.1),
              "centered": ("BOOLEAN", True)})
""",
    "op_rmsprop_dense": RUN_OP + """
out = run_op("rmsprop", {"Param": p, "Grad": p - 0.5, "MeanSquare": p + 1, "Moment": p / 4,
                         "MeanGrad": p / 5, "LearningRate": np.array([0.1], "float32")},
             {"ParamOut": "=Param", "MomentOut": "=Moment", "MeanSquareOut": "=MeanSquare",
              "MeanGradOut": "=MeanGrad"},
             {"epsilon": ("FLOAT", 1e-6), "decay": ("FLOAT", 0.9), "momentum": ("FLOAT", 0.1)})
""",
    "op_hierarchical_sigmoid_custom_tree": RUN_OP + """
x = np.arange(8, dtype="float64").reshape(2, 4) / 10
w = np.arange(12, dtype="float64").reshape(3, 4) / 20 - 0.2
out = run_op("hierarchical_sigmoid",
             {"X": x, "W": w, "Label": np.array([0, 2], "int64"),
              "PathTable": np.array([[0, 1, -1], [0, 2, -1]], "int64"),
              "PathCode": np.array([[1, 0, -1], [0, 1, -1]], "int64"),
              "Bias": np.array([[0.1], [-0.2], [0.3]], "float64")},
             {"Out": "dense", "PreOut": "dense"}, {"num_classes": ("INT", 4)})
""",
    "op_hierarchical_sigmoid_default_tree": RUN_OP + """
x = np.arange(8, dtype="float64").reshape(2, 4) / 10
w = np.arange(20, dtype="float64").reshape(5, 4) / 20 - 0.4
out = run_op("hierarchical_sigmoid",
             {"X": x, "W": w, "Label": np.array([[1], [5]], "int64")},
             {"Out": "dense", "PreOut": "dense"}, {"num_classes": ("INT", 6)})
""",
    "op_matrix_nms": RUN_OP + """
boxes = np.array([[[0, 0, 1, 1], [0, 0, 0.9, 1], [0.5, 0.5, 1, 1]]], "float32")
scores = np.array([[[0.1, 0.1, 0.1], [0.9, 0.8, 0.3], [0.2, 0.7, 0.6]]], "float32")
out = run_op("matrix_nms", {"BBoxes": boxes, "Scores": scores},
             {"Out": "dense", "Index": "dense", "RoisNum": "dense"},
             {"score_threshold": ("FLOAT", 0.05), "nms_top_k": ("INT", 10),
              "keep_top_k": ("INT", 10), "post_threshold": ("FLOAT", 0.0),
              "background_label": ("INT", 0), "normalized": ("BOOLEAN", True),
              "gaussian_sigma": ("FLOAT", 2.0), "use_gaussian": ("BOOLEAN", False)})
""",
    "op_fill_constant_value_and_shape_tensors": RUN_OP + """
out = run_op("fill_constant", {"ValueTensor": np.array([2.5], "float32"),
                               "ShapeTensor": np.array([2, 3], "int32")},
             {"Out": "dense"}, {"value": ("FLOAT", 9.0), "dtype": ("INT", 5)})
""",
    "full_static_variable_value": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        v = paddle.static.data("v", [1], "float32")
        a = paddle.full([2, 2], v)
        b = paddle.full([3], v, dtype="int32")
    exe = paddle.static.Executor(paddle.CPUPlace())
    ra, rb = exe.run(main, feed={"v": np.array([1.5], "float32")}, fetch_list=[a, b])
    out = [ra.tolist(), str(ra.dtype), rb.tolist(), str(rb.dtype)]
finally:
    paddle.disable_static()
""",
    "fill_constant_float_shape_variable_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        shape = paddle.static.data("shape", [2], "float32")
        paddle.tensor.fill_constant(shape=shape, dtype="float32", value=1)
finally:
    paddle.disable_static()
""",
    "embedding_uint8_ids_error": """
w = paddle.arange(12, dtype="float32").reshape([4, 3])
paddle.nn.functional.embedding(paddle.to_tensor([[1, 3]], dtype="uint8"), w)
""",
    "adam_static_variable_beta": """
paddle.enable_static()
try:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        lin = paddle.nn.Linear(3, 1, bias_attr=False, weight_attr=paddle.ParamAttr(
            initializer=paddle.nn.initializer.Constant(0.5)))
        loss = paddle.mean(lin(x) * lin(x))
        b1 = paddle.static.create_parameter(
            [1], "float32", default_initializer=paddle.nn.initializer.Constant(0.8))
        opt = paddle.optimizer.Adam(learning_rate=0.1, beta1=b1, beta2=0.95)
        opt.minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    xs = np.arange(6, dtype="float32").reshape(2, 3) / 4
    out = [exe.run(main, feed={"x": xs}, fetch_list=[lin.weight])[0].round(5).tolist()
           for _ in range(3)]
finally:
    paddle.disable_static()
""",
}


def main():
    record(CASES, paddle, OUT, "upstream_i31d5_")


if __name__ == "__main__":
    main()
