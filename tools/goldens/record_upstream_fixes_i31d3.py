"""Record Paddle 3.3.1's behaviour behind the fixes of issue 31's helper d3 (Paddle's
test/legacy_test files test_unbind_op, test_unstack_op, test_lerp_op, test_index_select_op,
test_flip, test_logcumsumexp_op, test_label_smooth_op):

- the registered kernels OpTest's class teardown reads (``core._get_all_register_op_kernels``):
  ops whose gradient op is another forward op (unbind, flip, split) have no ``<op>_grad``;
- ``paddle.scale`` of a complex tensor (its values and its gradient), and the gradient of a
  complex ``unstack`` in a static program as OpTest builds it (mean, sum, scale);
- ``Tensor.lerp_`` refusing a broadcast that would grow x;
- ``paddle._C_ops.logcumsumexp`` with its attributes by position;
- ``label_smooth``'s kernel signature (PriorDist listed even when not given);
- ``paddle.decomposition.decompose`` under forward prim: unbind, lerp (tensor and float
  weight), index_select leave the program, the values stay.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_i31d3.py

Writes tests/goldens/upstream_fixes_i31d3.json: {case: {"code": ..., "value": ...} or
{"code": ..., "error": type name}}; tests/test_upstream_fixes_i31d3.py runs the same code on
paddle_compat (tests/code_cases.py). Each case leaves its result in ``out`` (plain JSON values).
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_i31d3.json")

# build a static program under forward prim, decompose it: (op there before, after, values)
DECOMPOSE = """
from paddle.base import core
from paddle.decomposition import decompose


def decomposed(op, build):
    rng = np.random.default_rng(0)
    feed = {"x": rng.random((3, 4)).astype("float32"), "y": rng.random((3, 4)).astype("float32"),
            "w": np.array([0.2, 0.7, -0.6, 1.5], "float32"), "i": np.array([3, 1], "int64")}
    names = lambda p: [o.name().split(".")[-1] for o in p.global_block().ops]
    paddle.enable_static()
    core._set_prim_forward_enabled(True)
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [3, 4], "float32")
            y = paddle.static.data("y", [3, 4], "float32")
            w = paddle.static.data("w", [4], "float32")
            i = paddle.static.data("i", [2], "int64")
            outs = build(x, y, w, i)
            before = names(main)
            outs = decompose(main, outs)
            after = names(main)
        vals = paddle.static.Executor().run(main, feed=feed, fetch_list=outs)
    finally:
        core._set_prim_forward_enabled(False)
        paddle.disable_static()
    return [op in before, op in after, [np.round(v, 5).tolist() for v in vals]]
"""

CASES = {
    "kernels_without_grad_kernel": """
from paddle.base import core
k = core._get_all_register_op_kernels()
out = [op in k for op in ("unbind", "unbind_grad", "flip", "flip_grad", "split_grad",
                          "stack_grad", "unstack_grad", "index_select_grad", "lerp_grad")]
""",
    "scale_complex_values_and_grad": """
x = paddle.to_tensor(np.array([1 + 2j, 3 - 1j], "complex64"), stop_gradient=False)
y = paddle.scale(x, 0.5, bias=1.0)
z = paddle.scale(x, 2.0, bias=1.0, bias_after_scale=False)
paddle.mean(y + z).backward()
out = [[[v.real, v.imag] for v in t.numpy().tolist()] for t in (y, z, x.grad)]
""",
    "unstack_complex_static_grad": """
paddle.enable_static()
try:
    prog = paddle.static.Program()
    with paddle.static.program_guard(prog):
        x = paddle.static.data("x", [2, 3], "complex64")
        x.stop_gradient = False
        loss = paddle.scale(paddle.add_n([paddle.mean(p) for p in paddle.unstack(x, axis=1)]),
                            1 / 3.0)
        g = paddle.static.append_backward(loss, parameter_list=[x])[0][1]
    xv = (np.arange(6) + 1j * np.arange(6)).reshape(2, 3).astype("complex64")
    res = paddle.static.Executor().run(prog, feed={"x": xv}, fetch_list=[g])[0]
finally:
    paddle.disable_static()
out = [[[round(v.real, 6), round(v.imag, 6)] for v in row] for row in res.tolist()]
""",
    "lerp_inplace_grows_x": """
x = paddle.ones([2, 4])
x.lerp_(paddle.zeros([4]), paddle.to_tensor([0.75, 0.75, 0.75, 0.75]))
res = [x.numpy().tolist()]
for y, w in ((paddle.zeros([3, 2, 4]), 0.5), (paddle.zeros([4]), paddle.ones([3, 1, 4]))):
    try:
        paddle.ones([2, 4]).lerp_(y, w)
        res.append("ok")
    except ValueError as e:
        res.append(str(e).split("inplace tensor")[0])
out = res
""",
    "c_ops_logcumsumexp": """
x = paddle.to_tensor(np.arange(6, dtype="float64").reshape(2, 3) / 2)
out = [np.round(paddle._C_ops.logcumsumexp(x, a, f, e, r).numpy(), 6).tolist()
       for a, f, e, r in ((0, False, False, False), (1, False, False, True),
                          (0, True, False, True), (1, False, True, False))]
out[3] = [[v if v > -1e30 else "lowest" for v in row] for row in out[3]]
""",
    "label_smooth_kernel_signature": """
from paddle.base.framework import _dygraph_tracer
t = paddle.ones([2, 3])
sig = _dygraph_tracer()._get_kernel_signature("label_smooth", {"X": [t]}, {"Out": [t]},
                                              {"epsilon": 0.1})
out = [list(s) for s in sig]
""",
    "decompose_unbind": DECOMPOSE + """
out = decomposed("unbind", lambda x, y, w, i: list(paddle.unbind(x, 1)))
""",
    "decompose_lerp_tensor_weight": DECOMPOSE + """
out = decomposed("lerp", lambda x, y, w, i: [paddle.lerp(x, y, w)])
""",
    "decompose_lerp_float_weight": DECOMPOSE + """
out = decomposed("lerp", lambda x, y, w, i: [paddle.lerp(x, y, 0.75)])
""",
    "decompose_index_select": DECOMPOSE + """
out = decomposed("index_select", lambda x, y, w, i: [paddle.index_select(x, i, axis=-1)])
""",
}


def main():
    record(CASES, paddle, OUT, "upstream_i31d3_")


if __name__ == "__main__":
    main()
