"""Record Paddle 3.3.1's behaviour behind the fixes of issue 31's helper d2 (branch i31d2):
static-mode shape ops whose shapes, axes, starts or sections are Variables, and gather_nd.

- ``reshape``, ``expand``/``broadcast_to``, ``unsqueeze``, ``slice``, ``split`` and ``gather``
  with Variables (a 1-d shape Variable, lists holding Variables, an axis Variable): Paddle's
  static shapes (-1 where known only at run time), the values and a gradient at run time;
- ``split`` along a dim unknown until run time; ``squeeze`` of an unknown dim;
- the op-type registry's ``slice``/``reshape2``/``unsqueeze2``/``split`` with their tensor
  slots appended to a static Program (what OpTest's static checks build), ``_C_ops.slice``
  with ``decrease_axis``, and the kernel signatures OpTest maps slots and attributes with;
- ``gather_nd`` with a 1-d index in static mode, ``squeeze`` with an empty axis list,
  ``where`` with only x, ``scatter_nd_add``'s index error, ``expand`` with a numpy shape,
  ``reshape_`` on a static Variable, ``slice`` with an out-of-range axis,
  ``base.backward.calc_gradient``;
- ``paddle.Size`` equal to a tuple of the same ints; feeding two Variables whose names differ
  only in characters Python names cannot hold (``a.b`` and ``a_b``);
- a persistable data Variable: its fed value stays in the Scope, a run without the feed
  reads it there.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_i31d2.py

Writes tests/goldens/upstream_fixes_i31d2.json; tests/test_upstream_fixes_i31d2.py runs the
same code on paddle_compat. Each case leaves its result in ``out`` (plain JSON values).
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_i31d2.json")

CASES = {
    "static_shape_ops_with_variables": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [2, 3, 4], "float32")
        x.stop_gradient = False
        s = paddle.static.data("s", [3], "int32")
        v = paddle.static.data("v", [1], "int32")
        v0 = paddle.static.data("v0", [], "int64")
        i = paddle.static.data("i", [5], "int64")
        outs = [paddle.reshape(x, s), paddle.reshape(x, [v0, 2, 4]),
                paddle.reshape(x, [-1, v0, 0]), paddle.slice(x, [0, 2], s[:2], [2, 3]),
                paddle.slice(x, [1, 2], [v, 1], [3, 3]), paddle.unsqueeze(x, s[:1]),
                paddle.unsqueeze(x[0], [v, 0]), paddle.unsqueeze(x, v0),
                paddle.expand(x, [v, 2, 3, 4]), paddle.expand(x, [2, v0, -1]),
                paddle.broadcast_to(x[:, :1], [2, v, 4]), paddle.gather(x, i, axis=v)]
        outs += paddle.split(x, [1, v, -1], axis=2) + paddle.split(x, 3, axis=v)
        loss = paddle.sum(outs[4]) + paddle.sum(outs[13])
        g = paddle.static.gradients(loss, [x])
    shapes = [list(o.shape) for o in outs]
    feed = {"x": np.arange(24, dtype="float32").reshape(2, 3, 4),
            "s": np.array([1, 2, 12], "int32"), "v": np.array([1], "int32"),
            "v0": np.array(3, "int64"), "i": np.array([0, 1, 1, 0, 1])}
    res = paddle.static.Executor().run(main, feed=feed, fetch_list=outs + g)
finally:
    paddle.disable_static()
out = [shapes, [r.tolist() for r in res]]
""",
    "static_split_unknown_dim": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        d = paddle.static.data("d", [-1, 10], "float64")
        parts = (paddle.split(d, [1, 1], axis=0) + paddle.split(d, 2, 0)
                 + paddle.split(d, [1, -1], 0))
        sq = paddle.squeeze(d, 0)
    shapes = [list(o.shape) for o in parts + [sq]]
    res = paddle.static.Executor().run(main, feed={"d": np.arange(20.).reshape(2, 10)},
                                       fetch_list=parts)
finally:
    paddle.disable_static()
out = [shapes, [r.tolist() for r in res]]
""",
    "static_append_op_tensor_slots": """
paddle.enable_static()
try:
    with paddle.pir_utils.OldIrGuard():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [3, 4], "float32")
            st = paddle.static.data("st", [2], "int64")
            en = paddle.static.data("en", [2], "int32")
            ax = paddle.static.data("ax", [1], "int32")
            sh = paddle.static.data("sh", [2], "int32")
            block = main.global_block()
            res = {}
            for name, typ, ins, attrs in (
                    ("slice", "slice", {"Input": x, "StartsTensor": st, "EndsTensor": en},
                     {"axes": [0, 1], "infer_flags": [-1, -1]}),
                    ("slice_list", "slice", {"Input": x, "StartsTensorList": [ax],
                                             "EndsTensorList": [en[:1]]},
                     {"axes": [1], "infer_flags": [-1], "starts": [-1], "ends": [-1]}),
                    ("reshape2", "reshape2", {"X": x, "Shape": sh}, {}),
                    ("unsqueeze2", "unsqueeze2", {"X": x, "AxesTensor": ax}, {}),
                    ("split", "split", {"X": x, "AxisTensor": ax}, {"num": 2})):
                o = block.create_var(name=name + "_out", dtype="float32")
                outs = ({"Out": [o, block.create_var(name=name + "_o2", dtype="float32")]}
                        if typ == "split" else {"Out": o})
                if typ in ("reshape2", "unsqueeze2"):
                    outs["XShape"] = block.create_var(name=name + "_xs", dtype="float32")
                block.append_op(type=typ, inputs=ins, outputs=outs, attrs=attrs)
                res[name] = o
        feed = {"x": np.arange(12, dtype="float32").reshape(3, 4),
                "st": np.array([1, 0], "int64"), "en": np.array([3, 2], "int32"),
                "ax": np.array([1], "int32"), "sh": np.array([6, 2], "int32")}
        vals = paddle.static.Executor().run(main, feed=feed, fetch_list=list(res.values()))
finally:
    paddle.disable_static()
out = {k: v.tolist() for k, v in zip(res, vals)}
""",
    "c_ops_slice_decrease": """
x = paddle.to_tensor(np.arange(24, dtype="float32").reshape(2, 3, 4))
a = paddle._C_ops.slice(x, [0, 2], [1, 1], [2, 3], [1, 1], [0])
b = paddle._C_ops.slice(paddle.arange(3.), [0], [1], [2], [1], [0])
out = [a.shape, a.tolist(), b.shape, b.tolist()]
""",
    "kernel_signatures_int_arrays": """
from paddle.base.framework import _dygraph_tracer
t = paddle.ones([2, 2])
res = []
for op, ins, attrs in (
        ("slice", ["Input", "StartsTensor", "EndsTensor"], {"axes": [0], "infer_flags": [-1]}),
        ("slice", ["Input", "StartsTensorList", "EndsTensorList"], {"axes": [0]}),
        ("slice", ["Input"], {"axes": [0], "starts": [0], "ends": [1]}),
        ("unsqueeze2", ["X", "AxesTensorList"], {}), ("reshape2", ["X", "Shape"], {}),
        ("expand_v2", ["X", "expand_shapes_tensor"], {}),
        ("split", ["X", "AxisTensor"], {"num": 2}), ("split", ["X", "SectionsTensorList"], {}),
        ("gather", ["X", "Index", "Axis"], {})):
    sig = _dygraph_tracer()._get_kernel_signature(op, {n: [t] for n in ins}, {"Out": [t]}, attrs)
    res.append([list(sig[0]), list(sig[1])])
out = res
""",
    "static_gather_nd_1d_index": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [5, 4], "float32")
        i = paddle.static.data("i", [1], "int32")
        o = paddle.gather_nd(x, i)
    shape = list(o.shape)
    r, = paddle.static.Executor().run(main, feed={"x": np.arange(20, dtype="float32").reshape(5, 4),
                                                  "i": np.array([3], "int32")}, fetch_list=[o])
finally:
    paddle.disable_static()
out = [shape, r.tolist()]
""",
    "squeeze_empty_axes": """
x = paddle.ones([1, 2, 1])
out = [paddle.squeeze(x, []).shape, paddle.squeeze(x, ()).shape]
""",
    "where_only_x": """
paddle.where(paddle.to_tensor([True, False]), paddle.ones([2]))
""",
    "scatter_nd_add_index_too_long": """
paddle.scatter_nd_add(paddle.ones([3, 4]), paddle.zeros([2, 5], "int64"), paddle.ones([2]))
""",
    "expand_numpy_shape": """
out = paddle.expand(paddle.to_tensor([[1., 2.]]), np.array([3, 2])).tolist()
""",
    "static_reshape_inplace_new_variable": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [2, 6], "float32")
        a = paddle.reshape_(x, [3, 4])
        b = paddle.reshape_(x, [4, 3])
    shapes = [list(x.shape), list(a.shape), list(b.shape)]
    res = paddle.static.Executor().run(main, feed={"x": np.ones((2, 6), "float32")},
                                       fetch_list=[x, a, b])
finally:
    paddle.disable_static()
out = [shapes, [list(r.shape) for r in res]]
""",
    "slice_axis_out_of_range": """
x = paddle.to_tensor(np.arange(24, dtype="float32").reshape(2, 3, 4))
out = [paddle.slice(x, [100], [0], [1]).shape, paddle.slice(x, [-100], [0], [1]).shape]
""",
    "calc_gradient": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [2], "float32")
        x.stop_gradient = False
        g = paddle.base.backward.calc_gradient([paddle.sum(x * x)], [x])
    res = paddle.static.Executor().run(main, feed={"x": np.array([1., 2.], "float32")},
                                       fetch_list=g)
finally:
    paddle.disable_static()
out = [len(g), [r.tolist() for r in res]]
""",
    "size_equals_tuple": """
s = paddle.ones([2, 3]).shape
out = [s == (2, 3), (2, 3) == s, s != (2, 3), s == (2, 4), s == [2, 3]]
""",
    "static_feed_names_spelled_alike": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        a = paddle.static.data("a.b", [2], "float32")
        b = paddle.static.data("a_b", [2], "float32")
        c = a + b * 10
    shape_ok = a.shape == (2,)
    r, = paddle.static.Executor().run(main, feed={"a.b": np.array([1., 2.], "float32"),
                                                  "a_b": np.array([3., 4.], "float32")},
                                      fetch_list=[c])
finally:
    paddle.disable_static()
out = [shape_ok, r.tolist()]
""",
    "static_persistable_data_fed_then_from_scope": """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("pdata", [2], "float32")
        x.persistable = True
        y = x * 3
    scope = paddle.static.global_scope()
    exe = paddle.static.Executor()
    a, = exe.run(main, feed={"pdata": np.array([1., 2.], "float32")}, fetch_list=[y])
    held = np.array(scope.find_var("pdata").get_tensor()).tolist()
    b, = exe.run(main, fetch_list=[y])
finally:
    paddle.disable_static()
out = [a.tolist(), held, b.tolist()]
""",
}


def main():
    record(CASES, paddle, OUT, "upstream_i31d2_")


if __name__ == "__main__":
    main()
