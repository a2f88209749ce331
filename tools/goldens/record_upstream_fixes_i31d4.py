"""Record Paddle 3.3.1's behaviour behind the fixes of issue 31's helper d4 (Paddle's
test/legacy_test files that run gradient_checker's double/triple gradient checks, the
test_static_and_infer tests of test_max_op/test_min_op/test_prod_op, test_softmax_op,
test_group_norm_op):

- a legacy static Program as gradient_checker builds it: a fed Variable made persistable lives
  in the Scope (a feed writes it, a run without feed reads it), create_var of a name the
  block holds is that variable, a gradient of a gradient is None for an input the first
  gradient does not depend on (a linear op's gradient does not depend on its input);
- a shape equals the tuple of its ints (``x.shape == (1, 4)``);
- save_inference_model of a Linear on a 3-D input (``Tensor.t`` of its weight) and of
  max/min/prod over an axis, read back by paddle.inference as the tests read it;
- softmax's TypeError for an integer Variable, softmax_ with a dtype and in static mode;
- static.nn.group_norm's TypeError for an integer input.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_i31d4.py

Writes tests/goldens/upstream_fixes_i31d4.json (tests/test_upstream_fixes_i31d4.py runs the
same code on paddle_compat). Each case leaves its result in ``out`` (plain JSON values).
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_i31d4.json")

CASES = {
    "legacy_static_gradient_of_gradient": """
from paddle import base
paddle.enable_static()
res = []
try:
    with paddle.pir_utils.OldIrGuard():
        main, startup = paddle.static.Program(), paddle.static.Program()
        scope = paddle.static.Scope()
        with paddle.static.program_guard(main, startup), paddle.static.scope_guard(scope):
            x = paddle.static.data("x", [2, 3], "float32")
            x.stop_gradient = False
            x.persistable = True
            y = paddle.flip(x, [0]) * 3.0
            dy = main.global_block().create_var(name="dy_in", shape=[2, 3], dtype="float32",
                                                persistable=True)
            dy.stop_gradient = False
            dy2 = main.global_block().create_var(name="dy_in", shape=[2, 3], dtype="float32",
                                                 persistable=True)
            res.append(dy2.name)
            scope.var("dy_in").get_tensor().set(np.arange(6, dtype="float32").reshape(2, 3),
                                                base.CPUPlace())
            (dx,) = base.gradients([y], [x], [dy])
            ddx = base.gradients([dx], [x, dy], None)
            res.append([v is None for v in ddx])
            exe = paddle.static.Executor(base.CPUPlace())
            xv = np.ones((2, 3), "float32")
            r = exe.run(main, feed={"x": xv}, fetch_list=[dx, ddx[1]])
            res.append([a.tolist() for a in r])
            # the fed persistable stays in the scope: a run without feed reads it
            res.append(np.array(scope.find_var("x").get_tensor()).tolist())
            scope.find_var("x").get_tensor().set(np.full((2, 3), 2, "float32"), base.CPUPlace())
            r = exe.run(main, fetch_list=[y])
            res.append(r[0].tolist())
finally:
    paddle.disable_static()
out = res
""",
    "shape_equals_tuple": """
x = paddle.ones([1, 4])
s = x.shape
out = [s == (1, 4), s != (1, 4), s != (1, 5), (1, 4) == s, s == [1, 4], s == (4, 1)]
""",
    "shape_equals_tuple_static": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        d = paddle.static.data("d", [2, 3], "float32")
        out = [d.shape == (2, 3), d.shape == [2, 3], d.shape != (2, 3)]
finally:
    paddle.disable_static()
""",
    "save_inference_model_linear3d_max_min_prod": """
import paddle.inference as paddle_infer
from paddle.framework import in_pir_mode
paddle.seed(3)
paddle.enable_static()
try:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3, 4], "float32")
        h = paddle.nn.Linear(4, 5)(x)
        outs = [paddle.max(h, axis=1), paddle.min(h, axis=[0, 2], keepdim=True),
                paddle.prod(h, axis=2)]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        xv = np.linspace(-1, 1, 24).astype("float32").reshape(2, 3, 4)
        ref = exe.run(main, feed={"x": xv}, fetch_list=outs)
        prefix = os.path.join(tmp, "m")
        paddle.static.save_inference_model(prefix, [x], outs, exe)
        ext = ".json" if in_pir_mode() else ".pdmodel"      # as the tests pick the file
finally:
    paddle.disable_static()
cfg = paddle_infer.Config(prefix + ext, prefix + ".pdiparams")
pred = paddle_infer.create_predictor(cfg)
h_in = pred.get_input_handle(pred.get_input_names()[0])
h_in.reshape(xv.shape)
h_in.copy_from_cpu(xv)
pred.run()
got = [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]
out = [[list(g.shape) for g in got], all(np.allclose(a, b, 1e-5, 1e-6) for a, b in zip(ref, got))]
""",
    "softmax_int_static_type_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        paddle.nn.functional.softmax(paddle.static.data("x", [2, 3], "int32"))
finally:
    paddle.disable_static()
""",
    "softmax__int_static_type_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        paddle.nn.functional.softmax_(paddle.static.data("x", [2, 3], "int32"))
finally:
    paddle.disable_static()
""",
    "softmax__with_dtype": """
x = paddle.to_tensor(np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], "float32"))
y = paddle.nn.functional.softmax_(x, dtype="float64")
out = [str(y.dtype), str(x.dtype), y is x, y.numpy().tolist(), x.numpy().tolist()]
""",
    "softmax__static_is_out_of_place": """
import warnings
xv = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], "float32")
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        x = paddle.static.data("x", [2, 3], "float32")
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            y1 = paddle.nn.functional.softmax_(x)
        y2 = paddle.nn.functional.softmax(x)
        r = paddle.static.Executor(paddle.CPUPlace()).run(feed={"x": xv}, fetch_list=[y1, y2])
finally:
    paddle.disable_static()
out = [np.allclose(r[0], r[1]), r[0].tolist(),
       any("does not perform inplace" in str(m.message) for m in w)]
""",
    "static_inplace_scale_keeps_fed_array": """
xv = np.arange(6, dtype="float32").reshape(2, 3)
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [2, 3], "float32")
        y = x.scale_(2.0, 3.0)
    r = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={"x": xv}, fetch_list=[y])
finally:
    paddle.disable_static()
out = [r[0].tolist(), xv.tolist()]
""",
    "tensor_clear": """
x = paddle.to_tensor(np.ones((3, 4)), dtype="float64")
before = x._is_initialized()
x._clear()
out = [before, str(x), x._is_initialized()]
""",
    "tensor_grad_value_and_copy_gradient_from": """
a = paddle.to_tensor(np.array([2.0, 3.0], "float32"), stop_gradient=False)
res = [a._grad_value() is None]
(a ** 2).sum().backward()
res.append(np.array(a._grad_value()).tolist())
a._copy_gradient_from(paddle.to_tensor(np.array([7.0, 8.0], "float32")))
res.append(a.grad.numpy().tolist())
b = paddle.to_tensor(np.array([1.0, 2.0], "float32"), stop_gradient=False)
b._copy_gradient_from(paddle.to_tensor(np.array([5.0, 6.0], "float32")))
res.append(b.grad.numpy().tolist())
out = res
""",
    "dist_p0_and_p15_gradients": """
res = []
for p in (0.0, 1.5):
    x = paddle.to_tensor(np.array([[0.5, -1.0, 2.0], [0.0, 3.0, 1.0]]), stop_gradient=False)
    y = paddle.to_tensor(np.array([[0.5, 1.0, -2.0], [1.0, 3.0, 0.0]]), stop_gradient=False)
    d = paddle.dist(x, y, p)
    gx, gy = paddle.grad([d], [x, y])
    res.append([float(d), gx.numpy().tolist(), gy.numpy().tolist()])
out = res
""",
    "scope_tensor_of_transposed_array_set_element": """
scope = paddle.static.Scope()
t = scope.var("a").get_tensor()
t.set(np.transpose(np.arange(6, dtype="float64").reshape(2, 3)), paddle.CPUPlace())
t._set_double_element(1, 9.0)
out = [np.array(t).tolist(), t._get_double_element(1)]
""",
    "group_norm_int_static_type_error": """
paddle.enable_static()
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        paddle.static.nn.group_norm(paddle.static.data("x", [-1, 2, 4, 3], "int32"), 2)
finally:
    paddle.disable_static()
""",
}


def main():
    record(CASES, paddle, OUT, "upstream_i31d4_")


if __name__ == "__main__":
    main()
