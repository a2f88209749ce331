"""Static-mode cases of issue 31 (static_pylayer backward through any Variable, nn.Layer
parameters in a static Program, grouped fetch lists), run on real Paddle 3.3.1 by
tools/goldens/record_static_more.py and on paddle_compat by tests/test_static_more.py. Each
case is ``fn(paddle, rec)`` as in static_cases.py."""
import numpy as np

from static_cases import _progs, normalize_error, var_info  # noqa: F401 (the recorder uses it)

XB = np.array([[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 3.0]], dtype=np.float32)


def _exe(paddle):
    return paddle.static.Executor(paddle.CPUPlace())


def _grad_of(grad_list, v):
    """The gradient paired with ``v`` in append_backward's list (PIR: ``is_same``; ours
    gives back the object the caller passed)."""
    for p, g in grad_list:
        if p is v or (hasattr(p, "is_same") and p.is_same(v)):
            return g
    raise AssertionError("no gradient for the variable")


def _creation_input_backward(paddle, rec, shape, backward_fn, loss_fn):
    """static_pylayer(3 * x) of a creation op's result ``paddle.full(shape, -2.0)``, then
    append_backward(loss_fn(out), [data]): the output and the input's gradient."""
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        data = paddle.full(shape=shape, dtype="float32", fill_value=-2.0)
        data.stop_gradient = False
        out = paddle.static.nn.static_pylayer(lambda x: 3 * x, [data], backward_fn)
        grad_list = paddle.static.append_backward(loss_fn(out), [data])
    if not shape:
        rec("n_grads", len(grad_list))
    ret, g = _exe(paddle).run(main, fetch_list=[out, _grad_of(grad_list, data)])
    rec("ret", ret)
    rec("x_grad", g)


def pylayer_0d_backward(paddle, rec):
    """test_static_pylayer: a 0-d creation-op result as static_pylayer's input, and
    append_backward(out, [data])."""
    _creation_input_backward(paddle, rec, [], lambda dy: -5 * dy, lambda out: out)


def pylayer_backward_tanh(paddle, rec):
    _creation_input_backward(paddle, rec, [3, 4], lambda dy: paddle.tanh(dy), paddle.mean)


def pylayer_two_creation_inputs(paddle, rec):
    """Two creation-op inputs, gradients of both through gradients() and append_backward."""
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        a = paddle.full(shape=[2, 3], dtype="float32", fill_value=1.5)
        b = paddle.ones([2, 3], dtype="float32")
        a.stop_gradient = False
        b.stop_gradient = False
        y1, y2 = paddle.static.nn.static_pylayer(
            lambda u, v: (u * v, u - v), [a, b], lambda d1, d2: (d1 * 2.0, d2 * -3.0))
        loss = paddle.sum(y1) + paddle.sum(y2 * y2)
        ga, gb = paddle.static.gradients([loss], [a, b])
    rec("ga", var_info(ga))
    va, vb, l = _exe(paddle).run(main, fetch_list=[ga, gb, loss])
    rec("values", [va, vb, l])


def pylayer_cond_inside(paddle, rec):
    """test_static_pylayer's cond inside static_pylayer, gradients of five variables."""
    def fwd(i, a):
        return i, paddle.static.nn.cond(i < 5.0, lambda: paddle.add(a, a),
                                        lambda: paddle.subtract(a, a))

    def bwd(di, da):
        return da * 3.0, paddle.static.nn.cond(di < 5.0, lambda: -1 * da, lambda: da * da)

    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        i = paddle.static.data(name="i", shape=[1], dtype="float32")
        i.stop_gradient = False
        a = 2.0 * i
        out_i, out_a = paddle.static.nn.static_pylayer(fwd, [i, a], bwd)
        out = out_i + out_a
        loss = paddle.exp(out)
        gl = paddle.static.append_backward(loss, [i, a, out_i, out_a, out])
    exe = _exe(paddle)
    fetch = [out] + [_grad_of(gl, v) for v in (out, out_i, out_a, a, i)]
    for f in (0.0, 1.0, 7.0):
        rec(f"feed_{f}", exe.run(main, feed={"i": np.full((1,), f, np.float32)},
                                 fetch_list=fetch))


def _linear_net(paddle):
    x = paddle.static.data("x", [None, 4], "float32")
    lin = paddle.nn.Linear(
        4, 3, weight_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(0.25)),
        bias_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(-0.5)))
    y = paddle.nn.functional.relu(lin(x))
    return x, lin, paddle.mean(y * y)


def layer_params_append_backward(paddle, rec):
    """nn.Linear built under program_guard: its parameters are the program's, so
    append_backward (by default and given the parameters) finds them."""
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x, lin, loss = _linear_net(paddle)
        rec("weight", var_info(lin.weight))
        rec("bias", var_info(lin.bias))
        given = paddle.static.append_backward(loss, [lin.weight, lin.bias])
    exe = _exe(paddle)
    exe.run(start)
    rec("n_grads", len(given))
    vals = exe.run(main, feed={"x": XB}, fetch_list=[loss, _grad_of(given, lin.weight),
                                                     _grad_of(given, lin.bias)])
    rec("loss_and_grads", vals)


def layer_params_default_list(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x, lin, loss = _linear_net(paddle)
        pg = paddle.static.append_backward(loss)
    rec("shapes", [list(p.shape) for p, _ in pg])
    exe = _exe(paddle)
    exe.run(start)
    rec("grads", exe.run(main, feed={"x": XB}, fetch_list=[g for _, g in pg]))


def layer_params_minimize(paddle, rec):
    """SGD.minimize trains an nn.Layer built in the program: the loss falls step by step."""
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x, lin, loss = _linear_net(paddle)
        paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    exe = _exe(paddle)
    exe.run(start)
    rec("losses", [exe.run(main, feed={"x": XB}, fetch_list=[loss])[0] for _ in range(4)])


def layer_conv_bn_minimize(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("img", [None, 2, 5, 5], "float32")
        conv = paddle.nn.Conv2D(
            2, 3, 3, weight_attr=paddle.ParamAttr(
                initializer=paddle.nn.initializer.Constant(0.1)))
        bn = paddle.nn.BatchNorm2D(3)
        bn.eval()
        loss = paddle.mean(paddle.nn.functional.relu(bn(conv(x))))
        paddle.optimizer.SGD(learning_rate=0.02).minimize(loss)
    exe = _exe(paddle)
    exe.run(start)
    img = (np.arange(100, dtype=np.float32).reshape(2, 2, 5, 5) % 7) / 7.0
    rec("losses", [exe.run(main, feed={"img": img}, fetch_list=[loss])[0] for _ in range(3)])


def fetch_grouped(paddle, rec):
    """fetch_list groups (a layer returning a list) one level deep: a flat result list."""
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 4], "float32")
        a, b, c = x * 2.0, x + 1.0, paddle.mean(x)
    exe = _exe(paddle)
    for k, fl in enumerate(([[a, b], c], [a, (b, c)], [[a]], (a, [b]))):
        rec(f"fetch_{k}", exe.run(main, feed={"x": XB}, fetch_list=fl))


def fetch_nested_too_deep(paddle, rec):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 4], "float32")
        a, b = paddle.exp(x), paddle.tanh(x)
    _exe(paddle).run(main, feed={"x": XB}, fetch_list=[a, [b, [a]]])


def shape_variables(paddle, rec):
    """Creation ops whose shape is a Variable (fed, or paddle.shape of a Variable) or a list
    holding one: the Program's shape is -1 where the value is known only at run time."""
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 4], "float32")
        s = paddle.static.data("s", [2], "int32")
        outs = [paddle.full(s, 1.5), paddle.zeros(paddle.shape(x), dtype="int64"),
                paddle.ones([paddle.shape(x)[0], 2]), paddle.empty(shape=s, dtype="float64"),
                paddle.full(shape=[3, paddle.shape(x)[1]], fill_value=-2.0, dtype="float32")]
        outs[3] = paddle.zeros_like(outs[3])
    rec("vars", [var_info(v) for v in outs])
    rec("values", _exe(paddle).run(main, feed={"x": XB, "s": np.array([2, 3], np.int32)},
                                   fetch_list=outs))


def inplace_on_variables(paddle, rec):
    """In-place methods on static Variables: the out-of-place op (a new Variable)."""
    import warnings
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 4], "float32")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = x * 0.25
            outs = [paddle.tanh_(x * 1.0), y.erfinv_(), paddle.exp_(x * 0.5) if hasattr(
                paddle, "exp_") else (x * 0.5).exp_(), (x * 1.0).sqrt_()]
    rec("vars", [var_info(v) for v in outs])
    rec("values", _exe(paddle).run(main, feed={"x": np.abs(XB) / 4}, fetch_list=outs + [y]))


CASES = {f.__name__: f for f in (
    pylayer_0d_backward, pylayer_backward_tanh, pylayer_two_creation_inputs,
    pylayer_cond_inside, layer_params_append_backward, layer_params_default_list,
    layer_params_minimize, layer_conv_bn_minimize, fetch_grouped, fetch_nested_too_deep,
    shape_variables, inplace_on_variables)}
