"""Record Paddle 3.3.1's behaviour behind the fixes for Paddle's own tests, slice A2 of issue 31
(tools/upstream, files_A2): operators by their C++ op_type in a legacy static Program
(``Block.append_op``, as OpTest builds them: the op types registered for the slice),
``paddle.tensor``'s linalg names, ``multinomial`` in a static program.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_A2.py

Writes tests/goldens/upstream_fixes_A2.json: {case: {"code": ..., "value": ...} or
{"code": ..., "error": type name}}; tests/test_upstream_fixes_A2.py runs the same code on
paddle_compat. Each case leaves its result in ``out`` (plain JSON values).
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_A2.json")

# run_op(op_type, inputs {slot: array or [arrays]}, outputs {slot: count or None}, attrs):
# the op appended by type to a legacy Program, run; the outputs as lists
RUN_OP = """
def run_op(op_type, inputs, outputs, attrs):
    paddle.enable_static()
    try:
        with paddle.pir_utils.OldIrGuard():
            prog = paddle.static.Program()
            with paddle.static.program_guard(prog):
                block = prog.global_block()
                ins, feed = {}, {}
                for slot, v in inputs.items():
                    vs = v if isinstance(v, list) else [v]
                    names = []
                    for k, a in enumerate(vs):
                        name = f"{slot}_{k}"
                        names.append(block.create_var(name=name, shape=list(a.shape),
                                                      dtype=str(a.dtype)))
                        feed[name] = a
                    ins[slot] = names if isinstance(v, list) else names[0]
                outs, fetch = {}, []
                for slot, n in outputs.items():
                    vs = [block.create_var(name=f"o_{slot}_{k}", dtype="float32")
                          for k in range(n or 1)]
                    outs[slot] = vs if n else vs[0]
                    fetch += [v.name for v in vs]
                block.append_op(type=op_type, inputs=ins, outputs=outs, attrs=attrs)
                res = paddle.static.Executor(paddle.CPUPlace()).run(prog, feed=feed,
                                                                    fetch_list=fetch)
    finally:
        paddle.disable_static()
    return [[str(r.dtype), np.asarray(r).tolist()] for r in res]
"""

X34 = "(np.arange(12, dtype='float64').reshape(3, 4) / 7 - 0.5)"

CASES = {
    "tensor_namespace_linalg_names": """
x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
out = [paddle.tensor.matrix_power(x, 2).numpy().tolist(),
       paddle.tensor.linalg.matrix_power(x, 3).numpy().tolist(),
       [round(float(v), 5) for v in paddle.tensor.svd(x)[1].numpy()],
       hasattr(paddle.tensor, "no_such_function")]
""",
    "tensor_array_to_tensor_concat_and_stack": """
f = paddle.tensor.manipulation.tensor_array_to_tensor
r1, i1 = f([paddle.ones([2, 3]), paddle.zeros([2, 5])], axis=1)
r2, i2 = f([paddle.ones([2, 3]), paddle.zeros([2, 3])], axis=0, use_stack=True)
out = [list(r1.shape), r1.numpy().sum().item(), str(i1.dtype), i1.numpy().tolist(),
       list(r2.shape), i2.numpy().tolist()]
""",
    "pixel_unshuffle_factor_errors": """
x = paddle.ones([2, 1, 12, 12])
out = []
for factor in (3.33, -1, 0):
    for make in (lambda: paddle.nn.functional.pixel_unshuffle(x, factor),
                 lambda: paddle.nn.PixelUnshuffle(factor)):
        try:
            make()
            out.append("ok")
        except Exception as e:  # noqa: BLE001
            out.append([type(e).__name__, str(e)])
""",
    "multinomial_in_static_program": """
paddle.enable_static()
try:
    prog = paddle.static.Program()
    with paddle.static.program_guard(prog):
        p = paddle.static.data("p", [2, 4], "float32")
        s = paddle.multinomial(p, 3, replacement=True)
        shape = list(s.shape)
    r, = paddle.static.Executor().run(prog, feed={"p": np.array(
        [[0, 0, 1, 0], [0, 1, 0, 0]], "float32")}, fetch_list=[s])
finally:
    paddle.disable_static()
out = [shape, str(r.dtype), r.tolist()]
""",
    "op_matrix_power": RUN_OP + f"""
out = run_op("matrix_power", {{"X": {X34}[:3, :3]}}, {{"Out": None}}, {{"n": 3}})
""",
    "op_meshgrid": RUN_OP + """
out = run_op("meshgrid", {"X": [np.arange(3.0), np.arange(2.0) + 5]}, {"Out": 2}, {})
""",
    "op_mode": RUN_OP + """
x = np.array([[1.0, 2.0, 2.0, 3.0], [4.0, 4.0, 1.0, 1.0]])
out = run_op("mode", {"X": x}, {"Out": None, "Indices": None}, {"axis": 1, "keepdim": True})
""",
    "op_nanmedian": RUN_OP + """
x = np.array([[1.0, np.nan, 3.0, 2.0], [4.0, 5.0, np.nan, np.nan]])
out = run_op("nanmedian", {"X": x}, {"Out": None, "MedianIndex": None},
             {"axis": [1], "keepdim": False})[:1]
""",
    "op_put_along_axis": RUN_OP + f"""
out = run_op("put_along_axis", {{"Input": {X34}, "Index": np.array([[0], [2], [1]]),
                                 "Value": np.ones((3, 1))}}, {{"Result": None}},
             {{"Axis": 1, "Reduce": "add"}})
""",
    "op_reduce_all_any_prod": RUN_OP + """
b = np.array([[True, False], [True, True]])
out = [run_op("reduce_all", {"X": b}, {"Out": None}, {"dim": [1]}),
       run_op("reduce_any", {"X": b}, {"Out": None}, {"reduce_all": True}),
       run_op("reduce_prod", {"X": np.arange(1.0, 7.0).reshape(2, 3)}, {"Out": None},
              {"dim": [0], "keep_dim": True})]
""",
    "op_roll": RUN_OP + f"""
out = run_op("roll", {{"X": {X34}}}, {{"Out": None}}, {{"shifts": [1, -1], "axis": [0, 1]}})
""",
    "op_scatter_nd_add": RUN_OP + f"""
out = run_op("scatter_nd_add", {{"X": {X34}, "Index": np.array([[1], [1], [0]]),
                                 "Updates": np.ones((3, 4))}}, {{"Out": None}}, {{}})
""",
    "op_searchsorted": RUN_OP + """
out = run_op("searchsorted", {"SortedSequence": np.array([1.0, 3.0, 5.0, 7.0]),
                              "Values": np.array([3.0, 6.0, 9.0])}, {"Out": None},
             {"right": True})
""",
    "op_size_trace_trunc": RUN_OP + f"""
out = [run_op("size", {{"Input": {X34}}}, {{"Out": None}}, {{}}),
       run_op("trace", {{"Input": {X34}}}, {{"Out": None}}, {{"offset": 1}}),
       run_op("trunc", {{"X": {X34} * 3}}, {{"Out": None}}, {{}})]
""",
    "op_split_sections_and_num": RUN_OP + """
x = np.arange(20.0).reshape(4, 5)
out = [run_op("split", {"X": x}, {"Out": 3}, {"axis": 1, "sections": [2, 1, 2]}),
       run_op("split", {"X": x}, {"Out": 2}, {"axis": 0, "num": 2})]
""",
    "op_take_along_axis": RUN_OP + f"""
out = run_op("take_along_axis", {{"Input": {X34}, "Index": np.array([[0, 3], [1, 1], [2, 0]])}},
             {{"Result": None}}, {{"Axis": 1}})
""",
    "op_tile": RUN_OP + """
out = run_op("tile", {"X": np.arange(3.0)}, {"Out": None}, {"repeat_times": [2, 2]})
""",
    "op_tril_indices": RUN_OP + """
out = run_op("tril_indices", {}, {"out": None}, {"rows": 4, "cols": 3, "offset": 0,
                                                 "dtype": 2})
""",
    "op_where": RUN_OP + f"""
c = np.array([[True, False, True, False]] * 3)
out = run_op("where", {{"Condition": c, "X": {X34}, "Y": np.zeros((3, 4))}}, {{"Out": None}},
             {{}})
""",
    "op_pixel_unshuffle": RUN_OP + """
out = run_op("pixel_unshuffle", {"X": np.arange(16.0).reshape(1, 1, 4, 4)}, {"Out": None},
             {"downscale_factor": 2})
""",
    "op_prelu_modes": RUN_OP + """
x = np.arange(-6.0, 6.0).reshape(1, 3, 2, 2)
out = [run_op("prelu", {"X": x, "Alpha": np.array([0.25])}, {"Out": None}, {"mode": "all"}),
       run_op("prelu", {"X": x, "Alpha": np.array([0.1, 0.2, 0.3])}, {"Out": None},
              {"mode": "channel"}),
       run_op("prelu", {"X": x, "Alpha": np.arange(12.0).reshape(1, 3, 2, 2) / 10},
              {"Out": None}, {"mode": "element"})]
""",
    "op_solve": RUN_OP + """
out = run_op("solve", {"X": np.array([[3.0, 1.0], [1.0, 2.0]]),
                       "Y": np.array([[9.0], [8.0]])}, {"Out": None}, {})
""",
    "op_unfold": RUN_OP + """
out = run_op("unfold", {"X": np.arange(18.0).reshape(1, 2, 3, 3)}, {"Y": None},
             {"kernel_sizes": [2, 2], "strides": [1, 1], "paddings": [0, 0, 0, 0],
              "dilations": [1, 1]})
""",
}


def main():
    record(CASES, paddle, OUT, "upstream_A2_")


if __name__ == "__main__":
    main()
