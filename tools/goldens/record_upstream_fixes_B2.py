"""Record Paddle 3.3.1's behaviour that the B2 slice of Paddle's legacy_test files needed from
paddle_compat (issue 31; tools/upstream/table_B2.txt):

- the op types OpTest builds by name (``Block.append_op(type=...)`` in an old-IR Program, run
  by the Executor): ``selu``, ``top_k_v2``, ``multi_dot``, ``segment_pool``,
  ``unique_consecutive``, ``randperm``, ``one_hot_v2``, ``reverse``, ``multiplex``, ``mv``,
  ``pixel_shuffle``, ``maxout``, ``triangular_solve``, ``matrix_rank``, ``qr``,
  ``repeat_interleave``, ``sign``, ``real``/``imag``;
- static Variables as arguments: random ops whose shape is a Variable, ``one_hot``'s depth
  Variable, ``topk``'s k Variable, segment reductions of static ids (sizes known at run time
  read -1), ``rrelu`` in a program, ``paddle.tensor.create_array`` / ``array_write`` /
  ``array_read`` / ``array_length`` (a list in dygraph; ``stack`` of a static array reads -1
  on the stacked axis), a persistable ``create_var`` read from the Scope the program runs in;
- the errors the files assert (``topk`` k < 1, ``multi_dot``/``randint``/``rrelu`` static
  checks, the shuffles' factor checks), ``paddle.tensor.linalg.triangular_solve``.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_B2.py

Writes tests/goldens/upstream_fixes_B2.json: {case: {"code": ..., "value": ...} or
{"code": ..., "error": type name}}; tests/test_upstream_fixes_B2.py runs the same code on
paddle_compat. A case's code is ``APPEND_OP`` (for the ``op_`` cases) and its body; each
leaves its result in ``out`` (plain JSON values).
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_B2.json")

# what OpTest does with an op type: declare variables, append the op by name, run it
APPEND_OP = """
def run_op(op_type, inputs, outputs, attrs, unfetched=()):
    paddle.enable_static()
    try:
        with paddle.pir_utils.OldIrGuard():
            prog = paddle.static.Program()
            block = prog.global_block()
            feed, ins = {}, {}
            for slot, v in inputs.items():
                items = v if isinstance(v, list) else [v]
                vs = []
                for name, arr in items:
                    arr = np.asarray(arr)
                    vs.append(block.create_var(name=name, shape=arr.shape, dtype=arr.dtype))
                    feed[name] = arr
                ins[slot] = vs if isinstance(v, list) else vs[0]
            outs, fetch = {}, []
            for slot, names in outputs.items():
                items = names if isinstance(names, list) else [names]
                vs = [block.create_var(name=n) for n in items]
                outs[slot] = vs if isinstance(names, list) else vs[0]
                fetch += [n for n in items if n not in unfetched]
            block.append_op(type=op_type, inputs=ins, outputs=outs, attrs=attrs)
            exe = paddle.static.Executor(paddle.CPUPlace())
            res = exe.run(prog, feed=feed, fetch_list=fetch)
            return [[np.asarray(r).tolist(), str(np.asarray(r).dtype)] for r in res]
    finally:
        paddle.disable_static()


x = np.array([[1.0, -2.0, 3.0], [-0.5, 0.25, 4.0]], "float32")
"""

OP_CASES = {
    "op_selu": """
out = run_op("selu", {"X": ("x", x)}, {"Out": "out"}, {})
""",
    "op_top_k_v2": """
out = run_op("top_k_v2", {"X": ("x", x)}, {"Out": "o", "Indices": "i"}, {"k": 2})
""",
    "op_top_k_v2_axis_smallest": """
out = run_op("top_k_v2", {"X": ("x", x)}, {"Out": "o", "Indices": "i"},
             {"k": 1, "axis": 0, "largest": False})
""",
    "op_multi_dot": """
out = run_op("multi_dot", {"X": [("a", x), ("b", x.T), ("c", x)]}, {"Out": "o"}, {})
""",
    "op_segment_pool": """
ids = np.array([0, 0], "int64")
out = [run_op("segment_pool", {"X": ("x", x), "SegmentIds": ("s", ids)},
              {"Out": "o", "SummedIds": "n"}, {"pooltype": p}, unfetched=["n"])
       for p in ("SUM", "MEAN", "MAX", "MIN")]
""",
    "op_unique_consecutive": """
out = run_op("unique_consecutive", {"X": ("x", np.array([1, 1, 2, 2, 3, 1]))},
             {"Out": "o", "Index": "i", "Counts": "c"},
             {"return_inverse": True, "return_counts": True, "dtype": 2})
""",
    "op_randperm": """
r = run_op("randperm", {}, {"Out": "o"}, {"n": 6, "dtype": 3})[0]
out = [sorted(r[0]), r[1]]
""",
    "op_one_hot_v2": """
out = run_op("one_hot_v2", {"X": ("x", np.array([[1], [0], [3]]))}, {"Out": "o"},
             {"depth": 4})
""",
    "op_reverse": """
out = run_op("reverse", {"X": ("x", x)}, {"Out": "o"}, {"axis": [0, 1]})
""",
    "op_multiplex": """
out = run_op("multiplex", {"X": [("a", x), ("b", -x)],
                           "Ids": ("i", np.array([[1], [0]], "int32"))}, {"Out": "o"}, {})
""",
    "op_mv": """
out = run_op("mv", {"X": ("x", x), "Vec": ("v", np.array([1.0, 2.0, 3.0], "float32"))},
             {"Out": "o"}, {})
""",
    "op_pixel_shuffle": """
a = np.arange(16, dtype="float32").reshape(1, 4, 2, 2)
out = run_op("pixel_shuffle", {"X": ("x", a)}, {"Out": "o"}, {"upscale_factor": 2})
""",
    "op_maxout": """
a = np.arange(16, dtype="float32").reshape(1, 4, 2, 2)
out = run_op("maxout", {"X": ("x", a)}, {"Out": "o"}, {"groups": 2, "axis": 1})
""",
    "op_triangular_solve": """
a = np.array([[2.0, 1.0], [0.0, 4.0]])
b = np.array([[1.0], [2.0]])
out = run_op("triangular_solve", {"X": ("a", a), "Y": ("b", b)}, {"Out": "o"},
             {"upper": True, "transpose": False, "unitriangular": False})
""",
    "op_matrix_rank": """
a = np.diag([1.0, 0.5, 0.0]).astype("float32")
out = [run_op("matrix_rank", {"X": ("a", a)}, {"Out": "o"},
              {"tol": 0.6, "use_default_tol": False, "hermitian": False}),
       run_op("matrix_rank", {"X": ("a", a)}, {"Out": "o"}, {"hermitian": True})]
""",
    "op_qr": """
a = np.array([[2.0, 0.0], [0.0, 3.0], [0.0, 0.0]])
out = run_op("qr", {"X": ("a", a)}, {"Q": "q", "R": "r"}, {"mode": "reduced"})
""",
    "op_repeat_interleave": """
out = run_op("repeat_interleave", {"X": ("x", x)}, {"Out": "o"}, {"Repeats": 2, "dim": 1})
""",
    "op_scale_scale_tensor": """
out = run_op("scale", {"X": ("x", x), "ScaleTensor": ("s", np.array([3.0], "float32"))},
             {"Out": "o"}, {"bias": 1.0})
""",
    "op_sign_real_imag": """
c = np.array([1 + 2j, -3 - 4j], "complex64")
out = [run_op("sign", {"X": ("x", x)}, {"Out": "o"}, {}),
       run_op("real", {"X": ("c", c)}, {"Out": "o"}, {}),
       run_op("imag", {"X": ("c", c)}, {"Out": "o"}, {})]
""",
}

CASES = {
    # ---- random ops whose shape is a Variable
    "static_randint_shape_variable": """
paddle.enable_static()
main = paddle.static.Program()
with paddle.static.program_guard(main, paddle.static.Program()):
    s = paddle.static.data("s", [2], "int64")
    r = paddle.randint(0, 5, s)
    shape = list(r.shape)
exe = paddle.static.Executor(paddle.CPUPlace())
v = exe.run(main, feed={"s": np.array([3, 4])}, fetch_list=[r])[0]
paddle.disable_static()
out = [shape, list(v.shape), str(v.dtype), bool(v.min() >= 0), bool(v.max() < 5)]
""",
    "static_uniform_gaussian_shape_variable": """
paddle.enable_static()
main = paddle.static.Program()
with paddle.static.program_guard(main, paddle.static.Program()):
    s = paddle.static.data("s", [3], "int32")
    u = paddle.uniform(s, min=2.0, max=3.0)
    g = paddle.tensor.random.gaussian(s, dtype="float64")
    n = paddle.normal(shape=s)
    shapes = [list(u.shape), list(g.shape), list(n.shape)]
exe = paddle.static.Executor(paddle.CPUPlace())
res = exe.run(main, feed={"s": np.array([2, 1, 5], "int32")}, fetch_list=[u, g, n])
paddle.disable_static()
out = [shapes, [list(r.shape) for r in res], [str(r.dtype) for r in res],
       bool(res[0].min() >= 2.0 and res[0].max() < 3.0)]
""",
    "static_randint_shape_list_with_variable": """
paddle.enable_static()
main = paddle.static.Program()
with paddle.static.program_guard(main, paddle.static.Program()):
    d = paddle.static.data("d", [1], "int64")
    r = paddle.randint(-3, 3, [2, d], dtype="int32")
    shape = list(r.shape)
exe = paddle.static.Executor(paddle.CPUPlace())
v = exe.run(main, feed={"d": np.array([4])}, fetch_list=[r])[0]
paddle.disable_static()
out = [shape, list(v.shape), str(v.dtype)]
""",
    "static_randint_float_shape_variable_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        paddle.randint(5, shape=paddle.static.data("X", [1]))
finally:
    paddle.disable_static()
""",
    "static_randint_float_shape_list_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        paddle.randint(5, shape=[paddle.static.data("X", [1])])
finally:
    paddle.disable_static()
""",
    # ---- one_hot / topk / segment reductions with values known at run time
    "static_one_hot_depth_variable": """
paddle.enable_static()
main = paddle.static.Program()
with paddle.static.program_guard(main, paddle.static.Program()):
    x = paddle.static.data("x", [-1, 1], "int64")
    d = paddle.static.data("d", [1], "int32")
    y = paddle.nn.functional.one_hot(x, d)
    z = paddle.nn.functional.one_hot(x, 5)
    shapes = [list(y.shape), list(z.shape)]
exe = paddle.static.Executor(paddle.CPUPlace())
res = exe.run(main, feed={"x": np.array([[1], [3]]), "d": np.array([4], "int32")},
              fetch_list=[y, z])
paddle.disable_static()
out = [shapes, [r.tolist() for r in res]]
""",
    "static_topk_k_variable": """
paddle.enable_static()
main = paddle.static.Program()
with paddle.static.program_guard(main, paddle.static.Program()):
    x = paddle.static.data("x", [3, 4], "float32")
    k = paddle.static.data("k", [1], "int32")
    v, i = paddle.topk(x, k)
    v0, i0 = paddle.topk(x, k, axis=0, largest=False)
    shapes = [list(v.shape), list(i.shape), list(v0.shape)]
exe = paddle.static.Executor(paddle.CPUPlace())
a = np.array([[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8]], "float32")
res = exe.run(main, feed={"x": a, "k": np.array([2], "int32")}, fetch_list=[v, i, v0, i0])
paddle.disable_static()
out = [shapes, [r.tolist() for r in res], str(res[1].dtype)]
""",
    "topk_k_zero_error": """
out = paddle.topk(paddle.to_tensor([1, 2, 3]), k=0)
""",
    "topk_k_negative_error": """
out = paddle.topk(paddle.to_tensor([1, 2, 3]), k=-1)
""",
    "static_segment_sum_mean": """
paddle.enable_static()
main = paddle.static.Program()
with paddle.static.program_guard(main, paddle.static.Program()):
    x = paddle.static.data("x", [4, 2], "float32")
    ids = paddle.static.data("ids", [4], "int32")
    s = paddle.geometric.segment_sum(x, ids)
    m = paddle.geometric.segment_mean(x, ids)
    mx = paddle.geometric.segment_max(x, ids)
    shapes = [list(s.shape), list(m.shape)]
exe = paddle.static.Executor(paddle.CPUPlace())
a = np.arange(8, dtype="float32").reshape(4, 2)
res = exe.run(main, feed={"x": a, "ids": np.array([0, 0, 1, 3], "int32")},
              fetch_list=[s, m, mx])
paddle.disable_static()
out = [shapes, [r.tolist() for r in res]]
""",
    # ---- rrelu in a program
    "static_rrelu_train_and_eval": """
paddle.enable_static()
main = paddle.static.Program()
with paddle.static.program_guard(main, paddle.static.Program()):
    x = paddle.static.data("x", [2, 3], "float32")
    y = paddle.nn.functional.rrelu(x, 0.1, 0.3, training=True)
    z = paddle.nn.functional.rrelu(x, 0.1, 0.3, training=False)
    shape = list(y.shape)
exe = paddle.static.Executor(paddle.CPUPlace())
a = np.array([[1.0, -1.0, 2.0], [-2.0, 0.5, -0.5]], "float32")
y1, z1 = exe.run(main, feed={"x": a}, fetch_list=[y, z])
paddle.disable_static()
ratio = y1[a < 0] / a[a < 0]
out = [shape, y1[a >= 0].tolist(), bool(((ratio >= 0.1) & (ratio <= 0.3)).all()),
       z1.tolist()]
""",
    "static_rrelu_int_input_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program()):
        paddle.nn.functional.rrelu(paddle.static.data("x", [2, 3], "int32"), 0.1, 0.3)
finally:
    paddle.disable_static()
""",
    "static_rrelu_not_a_variable_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program()):
        paddle.nn.functional.rrelu(1, 0.1, 0.3)
finally:
    paddle.disable_static()
""",
    # ---- tensor arrays
    "array_dygraph_list": """
a = paddle.tensor.create_array("float32")
x = paddle.ones([2])
b = paddle.tensor.array_write(x, paddle.zeros([1], "int64"), a)
paddle.tensor.array_write(x * 3, paddle.to_tensor([1]), a)
paddle.tensor.array_write(x * 2, paddle.to_tensor([0]), a)
out = [type(a).__name__, b is a, len(a), paddle.tensor.array_length(a),
       type(paddle.tensor.array_length(a)).__name__,
       paddle.tensor.array_read(a, paddle.to_tensor([1])).tolist(), a[0].tolist(),
       len(paddle.tensor.create_array("float32", [x, x]))]
""",
    "array_dygraph_write_past_end_error": """
out = paddle.tensor.array_write(paddle.ones([2]), paddle.to_tensor([3]))
""",
    "array_dygraph_int_index_error": """
out = paddle.tensor.array_write(paddle.ones([2]), 1, paddle.tensor.create_array("float32"))
""",
    "array_static_stack": """
paddle.enable_static()
prog = paddle.static.Program()
with paddle.static.program_guard(prog):
    inp = paddle.assign(np.arange(6, dtype="float32").reshape(2, 3))
    ta = paddle.tensor.create_array(dtype="float32")
    zero = paddle.tensor.fill_constant(shape=[1], value=0, dtype="int64")
    for i in range(3):
        paddle.tensor.array_write(inp * (i + 1), zero + i, ta)
    st = paddle.stack(ta, axis=1)
    n = paddle.tensor.array_length(ta)
    first = paddle.tensor.array_read(ta, zero)
    shapes = [list(st.shape), list(n.shape)]
res = paddle.static.Executor(paddle.CPUPlace()).run(prog, fetch_list=[st, n, first])
paddle.disable_static()
out = [shapes, [r.tolist() for r in res]]
""",
    "array_static_stack_of_data": """
paddle.enable_static()
prog = paddle.static.Program()
with paddle.static.program_guard(prog):
    x = paddle.static.data("x", [2], "float32")
    ta = paddle.tensor.create_array(dtype="float32")
    for i in range(2):
        paddle.tensor.array_write(x + i, paddle.tensor.array_length(ta), ta)
    st = paddle.stack(ta)
    shape = list(st.shape)
res = paddle.static.Executor(paddle.CPUPlace()).run(
    prog, feed={"x": np.array([1.0, 2.0], "float32")}, fetch_list=[st])
paddle.disable_static()
out = [shape, res[0].tolist()]
""",
    # ---- a persistable variable declared by create_var, set in the Scope
    "static_create_var_persistable_from_scope": """
paddle.enable_static()
with paddle.pir_utils.OldIrGuard():
    prog = paddle.static.Program()
    with paddle.static.program_guard(prog):
        x = paddle.static.data("x", [2], "float32")
        g = prog.global_block().create_var(name="g_in_scope", shape=[2], dtype="float32",
                                           persistable=True)
        y = x * g
    scope = paddle.base.core.Scope()
    scope.var("g_in_scope").get_tensor().set(np.array([3.0, 4.0], "float32"),
                                             paddle.CPUPlace())
    res = paddle.static.Executor(paddle.CPUPlace()).run(
        prog, feed={"x": np.array([1.0, 2.0], "float32")}, fetch_list=[y], scope=scope)
paddle.disable_static()
out = res[0].tolist()
""",
    # ---- name= names the op's output; old-IR Variable.desc; stack of an unknown dimension
    "static_name_argument_names_the_output": """
paddle.enable_static()
with paddle.pir_utils.OldIrGuard():
    with paddle.static.program_guard(paddle.static.Program()):
        x = paddle.static.data(name="x", shape=[2, 3], dtype="complex64")
        y = paddle.static.data(name="y", shape=[2, 3], dtype="float32")
        names = [paddle.real(x, name="real_res").name, paddle.imag(x, name="im").name,
                 paddle.add(y, y, name="myadd").name, paddle.nn.functional.relu(y, name="r1").name]
paddle.disable_static()
out = [n.split(".tmp_")[0] for n in names] + [all(".tmp_" in n for n in names)]
""",
    "static_variable_desc_flags": """
paddle.enable_static()
with paddle.pir_utils.OldIrGuard():
    with paddle.static.program_guard(paddle.static.Program()):
        x = paddle.static.data(name="x", shape=[-1, 4], dtype="float32")
        d = x.desc
        d.set_need_check_feed(False)
        out = [d.name(), d.shape(), str(d.dtype()), d.need_check_feed()]
paddle.disable_static()
""",
    "static_repeat_interleave_repeats_variable": """
paddle.enable_static()
main = paddle.static.Program()
with paddle.static.program_guard(main, paddle.static.Program()):
    x = paddle.static.data(name="x", shape=[-1, 4], dtype="float32")
    r = paddle.static.data(name="r", shape=[4], dtype="int32")
    z = paddle.repeat_interleave(x, r, axis=1)
    r0 = paddle.static.data(name="r0", shape=[3], dtype="int32")
    z0 = paddle.repeat_interleave(x, r0, axis=0)
    shapes = [list(z.shape), list(z0.shape)]
a = np.arange(12, dtype="float32").reshape(3, 4)
res = paddle.static.Executor(paddle.CPUPlace()).run(
    main, feed={"x": a, "r": np.array([0, 1, 2, 1], "int32"),
                "r0": np.array([1, 2, 1], "int32")}, fetch_list=[z, z0])
paddle.disable_static()
out = [shapes, [v.tolist() for v in res]]
""",
    "static_stack_unknown_and_known_dims": """
paddle.enable_static()
main = paddle.static.Program()
with paddle.static.program_guard(main, paddle.static.Program()):
    b = paddle.static.data(name="b", shape=[-1], dtype="int64")
    e = paddle.static.data(name="e", shape=[3], dtype="int64")
    k = paddle.stack([b, e], axis=0)
    shape = list(k.shape)
res = paddle.static.Executor(paddle.CPUPlace()).run(
    main, feed={"b": np.ones([3], "int64"), "e": np.zeros([3], "int64")}, fetch_list=[k])
paddle.disable_static()
out = [shape, res[0].tolist()]
""",
    # ---- errors the files assert
    "static_multi_dot_int_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        i = paddle.static.data("i", [10, 10], "int32")
        paddle.linalg.multi_dot([i, i])
finally:
    paddle.disable_static()
""",
    "static_multi_dot_middle_1d_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        d = lambda n, s: paddle.static.data(n, s, "float64")
        paddle.linalg.multi_dot([d("a", [3, 2]), d("b", [2]), d("c", [2, 2])])
finally:
    paddle.disable_static()
""",
    "pixel_shuffle_float_factor_error": """
out = paddle.nn.functional.pixel_shuffle(paddle.ones([2, 9, 4, 4]), 3.33)
""",
    "pixel_shuffle_zero_factor_error": """
out = paddle.nn.functional.pixel_shuffle(paddle.ones([1, 1, 1, 1]), 0)
""",
    "pixel_shuffle_layer_float_factor_error": """
out = paddle.nn.PixelShuffle(3.33)
""",
    "pixel_shuffle_layer_data_format_error": """
out = paddle.nn.PixelShuffle(3, "MEOW")
""",
    "pixel_unshuffle_layer_float_factor_error": """
out = paddle.nn.PixelUnshuffle(2.5)
""",
    "pixel_unshuffle_zero_factor_error": """
out = paddle.nn.functional.pixel_unshuffle(paddle.ones([1, 4, 2, 2]), 0)
""",
    "channel_shuffle_float_groups_error": """
out = paddle.nn.functional.channel_shuffle(paddle.ones([1, 4, 2, 2]), 2.5)
""",
    "channel_shuffle_layer_zero_groups_error": """
out = paddle.nn.ChannelShuffle(0)
""",
    "shuffle_layers_accept_int_factors": """
x = paddle.arange(16, dtype="float32").reshape([1, 4, 2, 2])
out = [paddle.nn.PixelShuffle(2)(x).shape, paddle.nn.PixelUnshuffle(2)(x).shape,
       paddle.nn.ChannelShuffle(2)(x).numpy().ravel().tolist()]
out = [list(out[0]), list(out[1]), out[2]]
""",
    "pow_tensors_not_broadcasting_error": """
out = paddle.pow(paddle.ones([2, 3]), paddle.ones([4]))
""",
    "static_pow_int8_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        paddle.pow(paddle.static.data("x", [2, 2], dtype="int8"), 2)
finally:
    paddle.disable_static()
""",
    "static_prod_bool_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        paddle.prod(paddle.static.data("b", [2, 2, 4], dtype="bool"))
finally:
    paddle.disable_static()
""",
    "static_prod_axis_list_with_tensor": """
paddle.enable_static()
main = paddle.static.Program()
with paddle.static.program_guard(main, paddle.static.Program()):
    x = paddle.static.data(name="x", shape=[2, 3, 4], dtype="float32")
    p = paddle.prod(x, [1, paddle.full([1], 2, "int64")])
    s = paddle.sum(x, [0, paddle.full([1], 2, "int64")])
    shapes = [list(p.shape), list(s.shape)]
a = np.arange(1, 25, dtype="float32").reshape(2, 3, 4) / 10
res = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={"x": a}, fetch_list=[p, s])
paddle.disable_static()
out = [shapes, [r.tolist() for r in res]]
""",
    "static_square_error_cost_list_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        label = paddle.static.data(name="label1", shape=[None, 3], dtype="float32")
        paddle.nn.functional.square_error_cost([256, 3], label)
finally:
    paddle.disable_static()
""",
    "tensor_linalg_triangular_solve": """
a = paddle.to_tensor([[2.0, 1.0], [0.0, 4.0]])
b = paddle.to_tensor([[1.0], [2.0]])
out = [paddle.tensor.linalg.triangular_solve(a, b).tolist(),
       paddle.tensor.linalg.multi_dot([a, b]).tolist()]
""",
}


def all_cases():
    """{name: full code}: the op cases after ``APPEND_OP``, the others as written."""
    out = {name: APPEND_OP + body for name, body in OP_CASES.items()}
    out.update(CASES)
    return out


def main():
    record(all_cases(), paddle, OUT, "upstream_b2_")


if __name__ == "__main__":
    main()
