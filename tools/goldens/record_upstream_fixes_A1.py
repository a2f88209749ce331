"""Record Paddle 3.3.1's behaviour behind the fixes of issue 31's slice A1 (Paddle's
test/legacy_test files, /work/briefs/files_A1.txt; tools/upstream/table_A1.txt):

- op types of Paddle's operator tests (``OpTest``) in the one op-type registry
  (``static.fluid_ops``): their ``OpProto`` slots and attributes, their kernel signatures
  (how ``OpTest`` maps slots and attributes to ``python_api``'s arguments), and operators of
  those types appended to an old-IR Program by ``Block.append_op``;
- bfloat16 held in numpy as its uint16 bits, as Paddle's operator tests feed it: numpy's uint16
  as a dtype argument, ``DenseTensor.set`` of a uint16 array, uint16 arrays fed to bfloat16
  Variables and bfloat16 results fetched;
- ``allclose`` with its tolerances as Tensors (Paddle's ``Rtol``/``Atol`` inputs) and its
  static-mode argument checks; ``bincount`` in a static program.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_A1.py

Writes tests/goldens/upstream_fixes_A1.json: {case: {"code": ..., "value": ...} or
{"code": ..., "error": type name}}; tests/test_upstream_fixes_A1.py runs the same code on
paddle_compat (tests/code_cases.py). Each case leaves plain JSON values in ``out``.
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_A1.json")

CASES = {
    # --------------------------------------------------------------- op-type registry
    # each op type's OpProto slots, attributes (less the generated ones) and kernel signature
    "op_protos_and_kernel_signatures": """
from paddle.base.framework import OpProtoHolder, _dygraph_tracer
out = {}
for t, given in [("addmm", None), ("allclose", None), ("bincount", None), ("cross", None),
                 ("conv2d_transpose", ["Input", "Filter"]), ("cummin", None),
                 ("diag_embed", None), ("eigvalsh", None), ("empty", []), ("eye", None),
                 ("fill_any_like", None), ("gumbel_softmax", None), ("linspace", None),
                 ("logsumexp", None), ("lu", None), ("masked_select", None)]:
    p = OpProtoHolder.instance().get_op_proto(t)
    attrs = [a.name for a in p.attrs
             if not a.name.startswith("op_") and a.name != "with_quant_attr"]
    names = [i.name for i in p.inputs] if given is None else given
    ins = {n: [paddle.to_tensor([1.0])] for n in names}
    outs = {o.name: [paddle.to_tensor([1.0])] for o in p.outputs}
    sig = _dygraph_tracer()._get_kernel_signature(t, ins, outs, {})
    out[t] = [[i.name for i in p.inputs], [o.name for o in p.outputs], attrs,
              [list(s) for s in sig]]
""",
    # operators appended to an old-IR program by type, run, their outputs fetched
    "append_op_by_type": """
def run_op(op_type, inputs, out_slots, attrs):
    paddle.enable_static()
    try:
        with paddle.pir_utils.OldIrGuard():
            main = paddle.static.Program()
            with paddle.static.program_guard(main):
                blk = main.global_block()
                ins = {k: blk.create_var(name=k, dtype=v.dtype, shape=list(v.shape))
                       for k, v in inputs.items()}
                outs = {k: blk.create_var(name="out_" + k, dtype="float64")
                        for k in out_slots}
                blk.append_op(type=op_type, inputs=ins, outputs=outs, attrs=attrs)
                exe = paddle.static.Executor(paddle.CPUPlace())
                got = exe.run(main, feed=dict(inputs), fetch_list=list(outs.values()))
    finally:
        paddle.disable_static()
    return [np.asarray(g).round(6).tolist() for g in got]

out = {
    "addmm": run_op("addmm", {"Input": np.ones([2, 2]), "X": np.arange(6.0).reshape(2, 3),
                              "Y": np.ones([3, 2])}, ["Out"], {"Alpha": 2.0, "Beta": 0.5}),
    "cummin": run_op("cummin", {"x": np.array([[3.0, 1.0, 2.0], [0.0, 5.0, -1.0]])},
                     ["out", "indices"], {"axis": 1, "dtype": 3}),
    "logsumexp": run_op("logsumexp", {"X": np.arange(6.0).reshape(2, 3)}, ["Out"],
                        {"axis": [1], "keepdim": True, "reduce_all": False}),
    "eye": run_op("eye", {}, ["Out"], {"num_rows": 2, "num_columns": 3, "dtype": 6}),
    "fill_any_like": run_op("fill_any_like", {"X": np.zeros([2, 2])}, ["Out"],
                            {"value": 2.5}),
    "diag_embed": run_op("diag_embed", {"Input": np.array([[1.0, 2.0]])}, ["Out"],
                         {"offset": 1, "dim1": -2, "dim2": -1}),
    "determinant": run_op("determinant", {"Input": np.array([[2.0, 1.0], [1.0, 3.0]])},
                          ["Out"], {}),
    "index_sample": run_op("index_sample", {"X": np.arange(6.0).reshape(2, 3),
                                            "Index": np.array([[2, 0], [1, 1]])}, ["Out"], {}),
    "conv2d_transpose": run_op(
        "conv2d_transpose", {"Input": np.ones([1, 1, 2, 2]), "Filter": np.ones([1, 1, 2, 2])},
        ["Output"], {"strides": [2, 2], "paddings": [0, 0], "dilations": [1, 1], "groups": 1,
                     "data_format": "NCHW", "padding_algorithm": "EXPLICIT"}),
}
""",
    # --------------------------------------------------------------- bfloat16 as uint16
    "uint16_dtype_arguments": """
from paddle.base.framework import convert_np_dtype_to_dtype_
out = [str(paddle.zeros([2], dtype=np.uint16).dtype),
       str(paddle.ones([2]).astype(np.uint16).dtype),
       str(paddle.cast(paddle.ones([2]), np.dtype("uint16")).dtype),
       str(convert_np_dtype_to_dtype_(np.uint16))]
""",
    "vartype_dtype_arguments": """
from paddle.base import core
out = [str(paddle.zeros([2], dtype=core.VarDesc.VarType.FP32).dtype),
       str(paddle.ones([1]).astype(core.VarDesc.VarType.FP64).dtype),
       str(paddle.full([1], 1, dtype=core.VarDesc.VarType.INT32).dtype)]
""",
    "datatype_members": """
from paddle.base import core
D = core.DataType
out = [D.FLOAT32 == paddle.float32, D.FLOAT64 == paddle.float64, D.BFLOAT16 == paddle.bfloat16,
       D.INT64 == paddle.int64, str(D.FLOAT16), str(D.UNDEFINED), str(D.COMPLEX64)]
""",
    "densetensor_set_uint16": """
from paddle.base import core
t = core.DenseTensor()
t.set(np.array([16256, 16384], np.uint16), paddle.CPUPlace())
a = np.array(t)
out = [str(t._dtype()), str(a.dtype), a.tolist()]
""",
    "static_feed_fetch_bfloat16": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3], np.uint16)
        y = paddle.static.data("y", [3], np.uint16)
        m = paddle.minimum(x, y)
        f = paddle.cast(m, "float32")
        exe = paddle.static.Executor(paddle.CPUPlace())
        a = np.array([16256, 16384, 16448], np.uint16)      # 1, 2, 3 as bfloat16 bits
        b = np.array([16384, 16256, 16448], np.uint16)
        r = exe.run(main, feed={"x": a, "y": b}, fetch_list=[m, f])
finally:
    paddle.disable_static()
out = [str(x.dtype), str(r[0].dtype), r[0].tolist(), str(r[1].dtype), r[1].tolist()]
""",
    "static_feed_densetensor_bfloat16": """
from paddle.base import core
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], np.uint16)
        f = paddle.cast(x * 2, "float32")
        exe = paddle.static.Executor(paddle.CPUPlace())
        t = core.DenseTensor()
        t.set(np.array([16256, 16384], np.uint16), paddle.CPUPlace())
        r = exe.run(main, feed={"x": t}, fetch_list=[f])
finally:
    paddle.disable_static()
out = r[0].tolist()
""",
    # --------------------------------------------------------------- allclose
    "allclose_tensor_rtol": """
x = paddle.to_tensor(np.array([10000.0, 1e-07]))
y = paddle.to_tensor(np.array([10000.1, 1e-08]))
out = [bool(paddle.allclose(x, y, rtol=paddle.to_tensor(np.array([1e-05])),
                            atol=paddle.to_tensor(np.array([1e-08])))),
       bool(paddle.allclose(x, y, rtol=paddle.to_tensor(np.array([1e-02])))),
       paddle.isclose(x, y, rtol=paddle.to_tensor(np.array([1e-05]))).numpy().tolist()]
""",
    "allclose_rtol_two_elements": """
x = paddle.to_tensor(np.array([1.0, 2.0]))
out = paddle.allclose(x, x, rtol=paddle.to_tensor(np.array([1e-5, 1e-5])))
""",
    "allclose_atol_int32": """
x = paddle.to_tensor(np.array([1.0, 2.0]))
out = paddle.allclose(x, x, atol=paddle.to_tensor(np.array([8], "int32")))
""",
    "allclose_static_rtol_bool": """
paddle.enable_static()
try:
    x = paddle.static.data("x", [2], "float64")
    out = paddle.allclose(x, x, rtol=True)
finally:
    paddle.disable_static()
""",
    "allclose_static_atol_int": """
paddle.enable_static()
try:
    x = paddle.static.data("x", [2], "float64")
    out = paddle.allclose(x, x, atol=1)
finally:
    paddle.disable_static()
""",
    "allclose_static_equal_nan_int": """
paddle.enable_static()
try:
    x = paddle.static.data("x", [2], "float64")
    out = paddle.allclose(x, x, equal_nan=1)
finally:
    paddle.disable_static()
""",
    "allclose_static_tensor_rtol": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float64")
        r = paddle.static.data("r", [1], "float64")
        o = paddle.allclose(x, x + 0.01, rtol=r)
        exe = paddle.static.Executor(paddle.CPUPlace())
        got = [bool(exe.run(main, feed={"x": np.array([1.0, 2.0]), "r": np.array([v])},
                            fetch_list=[o])[0]) for v in (1e-5, 1e-1)]
finally:
    paddle.disable_static()
out = got
""",
    # --------------------------------------------------------------- names, random ops
    "c_ops_bce_loss": """
x = paddle.to_tensor([0.2, 0.7, 0.9])
y = paddle.to_tensor([0.0, 1.0, 1.0])
out = paddle._C_ops.bce_loss(x, y).numpy().round(6).tolist()
""",
    "c_ops_conv2d_transpose": """
x = paddle.to_tensor(np.arange(8, dtype="float32").reshape(1, 2, 2, 2))
w = paddle.ones([2, 1, 2, 2])
y = paddle._C_ops.conv2d_transpose(x, w, [1, 1], [0, 0], [], [], "EXPLICIT", 1, [1, 1], "NCHW")
out = [list(y.shape), y.numpy().tolist()]
""",
    "bernoulli_static": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        y = paddle.bernoulli(x)
        exe = paddle.static.Executor(paddle.CPUPlace())
        r = exe.run(main, feed={"x": np.array([[0.0, 1.0, 0.0], [1.0, 1.0, 0.0]], "float32")},
                    fetch_list=[y])
finally:
    paddle.disable_static()
out = [list(y.shape), str(r[0].dtype), r[0].tolist()]
""",
    # --------------------------------------------------------------- data-dependent lengths
    "masked_select_static": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        m = paddle.static.data("m", [3], "bool")
        y = paddle.masked_select(x, m)
        exe = paddle.static.Executor(paddle.CPUPlace())
        r = exe.run(main, feed={"x": np.arange(6, dtype="float32").reshape(2, 3),
                                "m": np.array([True, False, True])}, fetch_list=[y])
finally:
    paddle.disable_static()
out = [list(y.shape), r[0].tolist()]
""",
    "bincount_static": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [7], "int64")
        w = paddle.static.data("w", [7], "int64")
        a = paddle.bincount(x, weights=w)
        b = paddle.bincount(x, minlength=10)
        exe = paddle.static.Executor(paddle.CPUPlace())
        r = exe.run(main, feed={"x": np.array([0, 1, 1, 3, 2, 1, 7]),
                                "w": np.array([0, 1, 1, 2, 2, 1, 0])}, fetch_list=[a, b])
finally:
    paddle.disable_static()
out = [list(a.shape), list(b.shape), str(r[0].dtype), r[0].tolist(), r[1].tolist()]
""",
}


def main():
    record(CASES, paddle, OUT, "upstream_A1_")


if __name__ == "__main__":
    main()
