"""Static-mode cases run on real Paddle (tools/goldens/record_static.py) and on paddle_compat
(tests/test_static_goldens.py). Each case is ``fn(paddle, rec)``; ``rec(label, value)`` records
values (numpy arrays, Variables' shape/dtype/stop_gradient, names, strings); an exception ends
the case and is recorded by type and message."""
import numpy as np

X1 = np.array([[1.0, 2.0, 3.0, 4.0, 5.0]], dtype=np.float32)
X2 = np.arange(12, dtype=np.float32).reshape(3, 4) / 10


def var_info(v):
    return {"shape": list(v.shape), "dtype": str(v.dtype).replace("paddle.", ""),
            "stop_gradient": bool(v.stop_gradient)}


def _progs(paddle):
    return paddle.static.Program(), paddle.static.Program()


def doc_example(paddle, rec):
    def forward_fn(x):
        return paddle.exp(x)

    def backward_fn(dy):
        return 2 * paddle.exp(dy)

    main, start = _progs(paddle)
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.program_guard(main, start):
        data = paddle.static.data(name="X", shape=[None, 5], dtype="float32")
        data.stop_gradient = False
        ret = paddle.static.nn.static_pylayer(forward_fn, [data], backward_fn)
        data_grad = paddle.static.gradients([ret], data)[0]
    rec("data", var_info(data))
    rec("ret", var_info(ret))
    rec("data_grad", var_info(data_grad))
    rec("data.name", data.name)
    exe.run(start)
    x, x_grad, y = exe.run(main, feed={"X": X1}, fetch_list=[data, data_grad, ret])
    rec("x", x)
    rec("x_grad", x_grad)
    rec("y", y)
    rec("printed", "\n".join([str(x), str(x_grad), str(y)]))
    x, x_grad, y = exe.run(main, feed={"X": X2[:, :4].repeat(2, 1)[:, :5]}, fetch_list=[data, data_grad, ret])
    rec("x_grad2", x_grad)


def multi_io(paddle, rec):
    def fwd(x, y):
        return x * y, x + y

    def bwd(d1, d2):
        return d1 * 3 + d2, d1 * 5 + d2

    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [3, 4], "float32")
        y = paddle.static.data("y", [3, 4], "float32")
        x.stop_gradient = False
        y.stop_gradient = False
        out = paddle.static.nn.static_pylayer(fwd, [x, y], bwd)
        rec("out_type", type(out).__name__)
        rec("out_len", len(out))
        a, b = out
        loss = paddle.mean(a + 2 * b)
        gx, gy = paddle.static.gradients([loss], [x, y])
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    r = exe.run(main, feed={"x": X2, "y": X2 + 1}, fetch_list=[a, b, loss, gx, gy])
    for k, v in zip(["a", "b", "loss", "gx", "gy"], r):
        rec(k, v)
    rec("gx_info", var_info(gx))


def nested_out(paddle, rec):
    def fwd(x):
        return [x * 2, (x + 1, paddle.exp(x))]

    def bwd(d1, d2, d3):
        return d1 + d2 + d3

    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2, 2], "float32")
        x.stop_gradient = False
        out = paddle.static.nn.static_pylayer(fwd, [x], bwd)
        rec("out_type", type(out).__name__)
        rec("out_len", len(out))
        rec("item_types", [type(o).__name__ == type(x).__name__ for o in out])
        loss = paddle.sum(out[0]) + paddle.sum(out[1]) + paddle.sum(out[2])
        (gx,) = paddle.static.gradients([loss], [x])
    exe = paddle.static.Executor(paddle.CPUPlace())
    r = exe.run(main, feed={"x": X2[:2, :2]}, fetch_list=[out[0], out[2], gx])
    for k, v in zip(["o0", "o2", "gx"], r):
        rec(k, v)


def zero_d(paddle, rec):
    def fwd(x):
        return x * x

    def bwd(dy):
        return dy * 10

    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [], "float32")
        x.stop_gradient = False
        y = paddle.static.nn.static_pylayer(fwd, [x], bwd)
        (gx,) = paddle.static.gradients([y], [x])
    rec("y", var_info(y))
    rec("gx", var_info(gx))
    exe = paddle.static.Executor(paddle.CPUPlace())
    r = exe.run(main, feed={"x": np.array(3.0, dtype=np.float32)}, fetch_list=[y, gx])
    rec("vals", r)


def forward_none(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2], "float32")
        out = paddle.static.nn.static_pylayer(lambda x: None, [x])
    rec("out", out)


def no_backward_stop_gradient_error(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2], "float32")
        x.stop_gradient = False
        paddle.static.nn.static_pylayer(lambda x: paddle.exp(x), [x])


def no_backward_ok(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2], "float32")
        y = paddle.static.nn.static_pylayer(lambda x: paddle.tanh(x) * 2, [x])
    rec("y", var_info(y))
    exe = paddle.static.Executor(paddle.CPUPlace())
    rec("val", exe.run(main, feed={"x": np.array([0.5, -1.0], np.float32)}, fetch_list=[y])[0])


def inputs_not_list(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2], "float32")
        paddle.static.nn.static_pylayer(lambda x: paddle.exp(x), (x,))


def backward_count_mismatch(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2], "float32")
        y = paddle.static.data("y", [2], "float32")
        x.stop_gradient = False
        y.stop_gradient = False
        out = paddle.static.nn.static_pylayer(lambda a, b: a + b, [x, y], lambda d: d)
        rec("built", True)
        paddle.static.gradients([out], [x, y])


def backward_none_grad(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2], "float32")
        y = paddle.static.data("y", [2], "float32")
        x.stop_gradient = False
        out = paddle.static.nn.static_pylayer(lambda a, b: a * b, [x, y],
                                              lambda d: (d * 7, None))
        (gx,) = paddle.static.gradients([out], [x])
    exe = paddle.static.Executor(paddle.CPUPlace())
    r = exe.run(main, feed={"x": np.array([1.0, 2.0], np.float32),
                            "y": np.array([3.0, 4.0], np.float32)}, fetch_list=[out, gx])
    rec("vals", r)


def cond_in_pylayer(paddle, rec):
    def fwd(x):
        s = paddle.sum(x)
        return paddle.static.nn.cond(s > 0, lambda: x * 2, lambda: x * -3)

    def bwd(dy):
        return dy * 100

    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 2], "float32")
        x.stop_gradient = False
        y = paddle.static.nn.static_pylayer(fwd, [x], bwd)
        (gx,) = paddle.static.gradients([paddle.sum(y)], [x])
    rec("y", var_info(y))
    exe = paddle.static.Executor(paddle.CPUPlace())
    for k, arr in enumerate([np.array([[1.0, 2.0]], np.float32),
                             np.array([[-1.0, -2.0], [0.5, 0.1]], np.float32)]):
        rec(f"run{k}", exe.run(main, feed={"x": arr}, fetch_list=[y, gx]))


def cond_case(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [1], "float32")
        one = paddle.full([1], 1.0, "float32")
        r = paddle.static.nn.case([(x < one, lambda: x * 10), (x < one * 3, lambda: x * 100)],
                                  default=lambda: x * 1000)
    exe = paddle.static.Executor(paddle.CPUPlace())
    for v in [0.5, 2.0, 5.0]:
        rec(f"x={v}", exe.run(main, feed={"x": np.array([v], np.float32)}, fetch_list=[r])[0])


def gradients_unconnected(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2], "float32")
        z = paddle.static.data("z", [2], "float32")
        x.stop_gradient = False
        z.stop_gradient = False
        y = paddle.sum(x * x)
        g = paddle.static.gradients([y], [x, z])
    rec("g1_is_none", g[1] is None)
    exe = paddle.static.Executor(paddle.CPUPlace())
    rec("gx", exe.run(main, feed={"x": np.array([1.0, 3.0], np.float32),
                                  "z": np.array([1.0, 3.0], np.float32)}, fetch_list=[g[0]])[0])


def shapes_and_dtypes(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 3, 4], "float32")
        i = paddle.static.data("i", [-1], "int64")
        rec("x", var_info(x))
        rec("i", var_info(i))
        rec("sum1", var_info(paddle.sum(x, axis=1)))
        rec("reshape", var_info(paddle.reshape(x, [-1, 12])))
        rec("matmul", var_info(paddle.matmul(x, paddle.transpose(x, [0, 2, 1]))))
        rec("mean", var_info(paddle.mean(x)))
        rec("cast", var_info(paddle.cast(i, "float32")))
        rec("concat", var_info(paddle.concat([x, x], axis=0)))
        rec("ndim", x.ndim)
        rec("name", x.name)


def fc_shapes(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 4], "float32")
        h = paddle.static.nn.fc(x, 8, activation="relu")
        out = paddle.static.nn.fc(h, 3)
        rec("h", var_info(h))
        rec("out", var_info(out))
        params = main.global_block().all_parameters()
        rec("params", [(p.name, list(p.shape), p.persistable, p.stop_gradient) for p in params])
        loss = paddle.mean(out)
        pg = paddle.static.append_backward(loss)
        rec("pg", [(p.name, list(g.shape)) for p, g in pg])
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    r = exe.run(main, feed={"x": X2}, fetch_list=[out] + [g for _, g in pg])
    rec("shapes", [list(a.shape) for a in r])
    rec("bias_grad", r[-1])


def feed_bad_shape(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 5], "float32")
        y = paddle.exp(x)
    exe = paddle.static.Executor(paddle.CPUPlace())
    rec("y", exe.run(main, feed={"x": np.ones([2, 6], np.float32)}, fetch_list=[y])[0])


def program_guard_restores(paddle, rec):
    before = paddle.static.default_main_program()
    main, start = _progs(paddle)
    try:
        with paddle.static.program_guard(main, start):
            rec("inside", paddle.static.default_main_program() is main)
            raise KeyError("boom")
    except KeyError:
        pass
    rec("restored", paddle.static.default_main_program() is before)
    rec("dynamic", paddle.in_dynamic_mode())


def clone_for_test(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 2], "float32")
        x.stop_gradient = False
        y = paddle.tanh(x) * 3
        test = main.clone(for_test=True)
        (gx,) = paddle.static.gradients([y], [x])
    exe = paddle.static.Executor(paddle.CPUPlace())
    rec("y", exe.run(test, feed={"x": X2[:2, :2]}, fetch_list=[y])[0])
    rec("gx", exe.run(main, feed={"x": X2[:2, :2]}, fetch_list=[gx])[0])


def multi_run_scope(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 3], "float32")
        w = paddle.static.create_parameter([3, 2], "float32", name="w",
                                           default_initializer=paddle.nn.initializer.Constant(0.5))
        y = paddle.matmul(x, w)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    rec("y", exe.run(main, feed={"x": X2[:, :3]}, fetch_list=[y])[0])
    rec("w", np.array(paddle.static.global_scope().find_var("w").get_tensor()))


CASES = {f.__name__: f for f in [
    doc_example, multi_io, nested_out, zero_d, forward_none, no_backward_stop_gradient_error,
    no_backward_ok, inputs_not_list, backward_count_mismatch, backward_none_grad,
    cond_in_pylayer, cond_case, gradients_unconnected, shapes_and_dtypes, fc_shapes,
    feed_bad_shape, program_guard_restores, clone_for_test, multi_run_scope]}


def normalize_error(e):
    builtin = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
    return builtin.__name__, str(e).split("\n")[0][:300]
