"""PyLayer behaviour cases, run on real Paddle (tools/goldens/record_pylayer.py writes
tests/goldens/pylayer.json) and on paddle_compat (tests/test_pylayer_goldens.py compares).

Each case is ``case(paddle, rec)``: ``paddle`` is the module under test (real Paddle or
paddle_compat; this file imports neither), ``rec(label, value)`` records a value. An exception
ending a case is recorded as its type and Paddle's message (normalised by ``normalize_error``).
This module defines no tests itself.
"""
import re

import numpy as np

CASES = {}
# Cases where real Paddle 3.3.1 contradicts its own docs or loses information; we follow the
# docs and test our behaviour in tests/test_pylayer.py (the golden records what Paddle does).
DEVIATIONS = {
    "not_inplace_leaf": "Paddle drops the gradient to x; its docs promise it (we keep it)",
    "not_inplace_intermediate": "Paddle drops the gradient to x; its docs promise it",
    "doc_mark_not_inplace_loop": "Paddle turns the leaf x into a non-leaf; the docs say the "
                                 "input keeps its autograd identity",
    "hook_on_output": "Paddle calls the hook but ignores its result (computes hooked_grads and "
                      "then passes the raw grads): we use the hook's result, as register_hook's "
                      "docs say",
    "grad_partial_inputs": "Paddle prunes x and then rejects the gradient backward returns for "
                           "it; we discard it (torch's needs_input_grad is set at forward)",
    "backward_wrong_shape_intermediate": "Paddle hands a gradient of another shape unchecked "
                                         "to the grad kernel of the op that made the input "
                                         "(elementwise kernels read past their buffers); we "
                                         "raise torch's RuntimeError",
    "saved_modified_inplace": "Paddle does not version-check PyLayer saves and silently uses "
                              "the modified value; we raise Paddle's version error",
    "saved_output_modified_inplace": "as saved_modified_inplace",
    "list_return_two_inputs": "Paddle reads a list returned by backward as one gradient; its "
                              "docs allow list/tuple: we read it as a tuple",
    "grad_sg_mixed_order": "Paddle's .grad stop_gradient follows the first gradient to arrive; "
                           "torch sums all arrivals first",
}


def case(fn):
    CASES[fn.__name__[5:]] = fn
    return fn


def normalize_error(exc):
    """(type name, message) with Paddle's C++ decorations removed: the ``[Hint: ...]`` and
    ``(at file:line)`` suffixes, addresses and the Python stack of External errors."""
    msg = str(exc)
    m = re.search(r"backward of (GradNodePyLayer_\w+)", msg)
    if msg.startswith("(External)") and m:
        lines = [ln.strip() for ln in msg.splitlines()]
        i = next(k for k, ln in enumerate(lines) if "backward of" in ln)
        err = next(ln for ln in lines[i + 1:] if ln)
        return type(exc).__name__, f"(External) {m.group(1)}: {err}"
    msg = msg.split("\n  [Hint:")[0]
    msg = re.sub(r" \(at /[^)]*\)\s*$", "", msg.strip())
    return type(exc).__name__, msg.strip()


def leaf(paddle, shape=(2,), v=1.0, dtype="float32"):
    x = paddle.full(list(shape), v, dtype=dtype)
    x.stop_gradient = False
    return x


def inplace_add(paddle, t, v=1.0):
    t.add_(paddle.full(t.shape, v, dtype=t.dtype))


def _layers(paddle, rec=None):
    """The PyLayers of the cases, built for the given paddle module."""
    PyLayer = paddle.autograd.PyLayer
    L = {}

    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            y, = ctx.saved_tensor()
            return dy * (1 - paddle.square(y))
    L["cus_tanh"] = cus_tanh

    class Probe(PyLayer):
        """Records grad mode and stop_gradient seen inside forward and backward."""
        @staticmethod
        def forward(ctx, x):
            rec("fwd_grad_enabled", paddle.is_grad_enabled())
            rec("fwd_x_sg", x.stop_gradient)
            y = x * 2
            rec("fwd_y_sg", y.stop_gradient)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            y, = ctx.saved_tensor()
            rec("bwd_grad_enabled", paddle.is_grad_enabled())
            rec("bwd_dy_sg", dy.stop_gradient)
            rec("bwd_saved_sg", y.stop_gradient)
            rec("bwd_called", True)
            return dy * 2
    L["Probe"] = Probe

    class Add(PyLayer):
        @staticmethod
        def forward(ctx, x1, x2):
            return x1 + x2

        @staticmethod
        def backward(ctx, dy):
            return dy, dy
    L["Add"] = Add

    class Same(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3
    L["Same"] = Same

    class NotInplace(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3
    L["NotInplace"] = NotInplace

    class Twice(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    L["Twice"] = Twice
    return L


# ---------------------------------------------------------------------- documented examples
@case
def case_doc_cus_tanh_float64(paddle, rec):
    L = _layers(paddle)
    data = paddle.to_tensor(np.array([[0.06132208, 1.11349594, 0.41906252],
                                      [-0.2, 2.5, -1.7]]), dtype="float64")
    data.stop_gradient = False
    z = L["cus_tanh"].apply(data)
    rec("z", z)
    z.mean().backward()
    rec("grad", data.grad)


@case
def case_doc_func_args(paddle, rec):
    class tanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x1, func1, func2=paddle.square):
            ctx.func = func2
            y1 = func1(x1)
            ctx.save_for_backward(y1)
            return y1

        @staticmethod
        def backward(ctx, dy1):
            y1, = ctx.saved_tensor()
            return dy1 * (1 - ctx.func(y1))
    x = paddle.to_tensor(np.array([[0.5, -1.0, 2.0]]), dtype="float64")
    x.stop_gradient = False
    z = tanh.apply(x1=x, func1=paddle.tanh)
    rec("z", z)
    z.mean().backward()
    rec("grad", x.grad)
    y = leaf(paddle, (2, 3), 0.3, "float64")
    z = tanh.apply(y, func1=paddle.tanh)
    z.sum().backward()
    rec("grad_positional", y.grad)


@case
def case_doc_output_shape(paddle, rec):
    class cus_tanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x1, x2):
            y = x1 + x2
            return y, y.shape

        @staticmethod
        def backward(ctx, dy):
            return dy, dy
    data = leaf(paddle, (2, 3), 0.5)
    z, y_shape = cus_tanh.apply(data, data)
    rec("shape", list(y_shape))
    rec("shape_type_is_list", isinstance(y_shape, list))
    z.mean().backward()
    rec("grad", data.grad)


@case
def case_doc_only_shape_output(paddle, rec):
    class cus_tanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x1, x2):
            y = x1 + x2
            return y.shape

        @staticmethod
        def backward(ctx, dy):
            return dy, dy
    data = leaf(paddle, (2, 3))
    cus_tanh.apply(data, data)


@case
def case_doc_none_for_stop_gradient_input(paddle, rec):
    class cus_tanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x1, x2):
            return x1 + x2

        @staticmethod
        def backward(ctx, dy):
            return dy, None
    data1 = leaf(paddle, (2, 3))
    data2 = paddle.full([2, 3], 2.0)
    z = cus_tanh.apply(data1, data2)
    z.mean().backward()
    rec("grad1", data1.grad)
    rec("grad2_is_none", data2.grad is None)


@case
def case_doc_all_stop_gradient(paddle, rec):
    L = _layers(paddle)
    data1 = paddle.full([2, 3], 1.0)
    data2 = paddle.full([2, 3], 2.0)
    z = L["Add"].apply(data1, data2)
    rec("z_sg", z.stop_gradient)
    rec("z", z)
    rec("grad_is_none", data1.grad is None)


@case
def case_doc_mark_non_differentiable(paddle, rec):
    class Tanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            a = x + x
            b = x + x + x
            ctx.mark_non_differentiable(a)
            return a, b

        @staticmethod
        def backward(ctx, grad_a, grad_b):
            rec("grad_a", grad_a)
            rec("grad_b", grad_b)
            return grad_b
    x = paddle.ones([1], dtype="float64")
    x.stop_gradient = False
    a, b = Tanh.apply(x)
    rec("a_sg", a.stop_gradient)
    rec("b_sg", b.stop_gradient)
    b.sum().backward()
    rec("x_grad", x.grad)


@case
def case_doc_set_materialize_grads(paddle, rec):
    class Tanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x + x + x, x + x

        @staticmethod
        def backward(ctx, grad, grad2):
            rec("grad2", grad2)
            return grad

    class Tanh2(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x + x + x, x + x

        @staticmethod
        def backward(ctx, grad, grad2):
            rec("grad2_none", grad2 is None)
            rec("grad", grad)
            return grad
    x = paddle.ones([1], dtype="float64")
    x.stop_gradient = False
    Tanh.apply(x)[0].backward()
    rec("x_grad", x.grad)
    x2 = paddle.ones([1], dtype="float64")
    x2.stop_gradient = False
    Tanh2.apply(x2)[0].backward()
    rec("x2_grad", x2.grad)


# ---------------------------------------------------------------------- grad mode, stop_gradient
@case
def case_grad_mode_inside(paddle, rec):
    L = _layers(paddle, rec)
    P = L["Probe"]
    x = leaf(paddle)
    y = P.apply(x)
    rec("y_sg", y.stop_gradient)
    rec("y_is_leaf", y.is_leaf)
    y.sum().backward()
    rec("x_grad", x.grad)
    rec("grad_enabled_after", paddle.is_grad_enabled())


@case
def case_no_grad_input_needs_none(paddle, rec):
    calls = []
    L = _layers(paddle, lambda k, v: calls.append(k))
    P = L["Probe"]
    y = P.apply(paddle.ones([2]))
    rec("y_sg", y.stop_gradient)
    x = leaf(paddle)
    with paddle.no_grad():
        y2 = P.apply(x)
    rec("y2_sg", y2.stop_gradient)
    rec("bwd_called", "bwd_called" in calls)


@case
def case_grad_sg_pylayer_only(paddle, rec):
    L = _layers(paddle)
    x = leaf(paddle)
    L["cus_tanh"].apply(x).sum().backward()
    rec("grad", x.grad)


@case
def case_grad_sg_through_ordinary(paddle, rec):
    L = _layers(paddle)
    x = leaf(paddle)
    L["cus_tanh"].apply(x * 1).sum().backward()
    rec("grad", x.grad)


@case
def case_grad_sg_passthrough(paddle, rec):
    class P(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g
    x = leaf(paddle)
    P.apply(x).sum().backward()
    rec("grad", x.grad)


@case
def case_grad_sg_two_pylayers(paddle, rec):
    L = _layers(paddle)
    x = leaf(paddle)
    (L["cus_tanh"].apply(x).sum() + L["cus_tanh"].apply(x).sum()).backward()
    rec("grad", x.grad)


@case
def case_grad_sg_mixed_order(paddle, rec):
    L = _layers(paddle)
    x = leaf(paddle)
    (L["cus_tanh"].apply(x).sum() + (x * 2).sum()).backward()
    rec("grad", x.grad)


# ---------------------------------------------------------------------- arguments
@case
def case_list_and_kwargs_inputs(paddle, rec):
    class ListIn(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, xs, k, y=None, *, z=None):
            rec("fwd_types", [type(xs).__name__, k, type(y).__name__, type(z).__name__,
                              len(xs), xs[2]])
            return xs[0] * 2 + xs[1] * 3 + y * 4 + z * 5

        @staticmethod
        def backward(ctx, g):
            return [g * 2, g * 3], g * 4, g * 5
    a, b, c, d = leaf(paddle), leaf(paddle), leaf(paddle), leaf(paddle)
    r = ListIn.apply([a, b, 7], "k", y=c, z=d)
    rec("r_sg", r.stop_gradient)
    r.sum().backward()
    rec("grads", [a.grad, b.grad, c.grad, d.grad])


@case
def case_tuple_input_tuple_grads_wrong(paddle, rec):
    class T(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, xs):
            return xs[0] * 2 + xs[1] * 3

        @staticmethod
        def backward(ctx, g):
            return (g * 2, g * 3)
    a, b = leaf(paddle), leaf(paddle)
    T.apply((a, b)).sum().backward()


@case
def case_tuple_input_nested_grads(paddle, rec):
    class T(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, xs):
            return xs[0] * 2 + xs[1] * 3

        @staticmethod
        def backward(ctx, g):
            return ((g * 2, g * 3),)
    a, b = leaf(paddle), leaf(paddle)
    T.apply((a, b)).sum().backward()
    rec("grads", [a.grad, b.grad])


@case
def case_list_input_list_return(paddle, rec):
    class T(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, xs):
            return xs[0] * 2 + xs[1] * 3

        @staticmethod
        def backward(ctx, g):
            return [g * 2, g * 3]
    a, b = leaf(paddle), leaf(paddle)
    T.apply([a, b]).sum().backward()
    rec("grads", [a.grad, b.grad])


@case
def case_nested_two_levels(paddle, rec):
    class N(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, xs):
            return xs[0][0] * 2 + xs[1] * 3

        @staticmethod
        def backward(ctx, g):
            return [g * 3]
    a, b = leaf(paddle), leaf(paddle)
    r = N.apply([[a], b])
    rec("r_sg", r.stop_gradient)
    r.sum().backward()
    rec("a_grad_none", a.grad is None)
    rec("b_grad", b.grad)


@case
def case_kwargs_order(paddle, rec):
    class K(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * 2 + y * 3

        @staticmethod
        def backward(ctx, g):
            return g * 2, g * 3
    a, b = leaf(paddle), leaf(paddle)
    K.apply(y=b, x=a).sum().backward()
    rec("grads", [a.grad, b.grad])


@case
def case_instance_apply_and_ctx_type(paddle, rec):
    class A(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            rec("ctx_type", type(ctx).__name__)
            rec("ctx_isinstance", isinstance(ctx, paddle.autograd.PyLayerContext))
            ctx.foo = 3
            ctx.bar = [1]
            return x * 2

        @staticmethod
        def backward(ctx, g):
            rec("attrs", [ctx.foo, ctx.bar])
            return g
    a = A()
    y = a.apply(leaf(paddle))
    rec("y", y)
    y.sum().backward()


# ---------------------------------------------------------------------- outputs
@case
def case_outputs_passthrough(paddle, rec):
    class O(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x.shape, 3, None, "s"

        @staticmethod
        def backward(ctx, a):
            return a * 2
    r = O.apply(leaf(paddle))
    rec("types", [type(v).__name__ for v in r])
    rec("values", [list(r[1]), r[2], r[3], r[4]])
    rec("r0", r[0])


@case
def case_outputs_list_top(paddle, rec):
    class O(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return [x * 2, x * 3]

        @staticmethod
        def backward(ctx, a, b):
            return a * 2 + b * 3
    x = leaf(paddle)
    r = O.apply(x)
    rec("type", type(r).__name__)
    (r[0].sum() + r[1].sum()).backward()
    rec("grad", x.grad)


@case
def case_outputs_tuple_partial_use(paddle, rec):
    class O(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return (x * 2, x * 3)

        @staticmethod
        def backward(ctx, a, b):
            rec("a", a)
            rec("b", b)
            return a * 2 + b * 3
    x = leaf(paddle)
    r = O.apply(x)
    rec("type", type(r).__name__)
    r[0].sum().backward()
    rec("grad", x.grad)


@case
def case_forward_returns_none(paddle, rec):
    class R(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return None

        @staticmethod
        def backward(ctx, g):
            return g
    R.apply(leaf(paddle))


@case
def case_forward_returns_ints(paddle, rec):
    class RetInt(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return [1, 2]

        @staticmethod
        def backward(ctx, g):
            return g
    RetInt.apply(leaf(paddle))


# ---------------------------------------------------------------------- ctx options
@case
def case_materialize_false_none(paddle, rec):
    class M(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, a, b):
            rec("a", a)
            rec("b_none", b is None)
            return a * 2
    x = leaf(paddle)
    M.apply(x)[0].sum().backward()
    rec("grad", x.grad)


@case
def case_non_differentiable_both_used(paddle, rec):
    class ND(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            a = x * 2
            b = x * 3
            ctx.mark_non_differentiable(a)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            rec("ga", ga)
            rec("gb", gb)
            return gb * 3
    x = leaf(paddle)
    a, b = ND.apply(x)
    rec("sg", [a.stop_gradient, b.stop_gradient])
    (a.sum() + b.sum()).backward()
    rec("grad", x.grad)


@case
def case_non_differentiable_only(paddle, rec):
    class ND(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            a = x * 2
            ctx.mark_non_differentiable(a)
            return a, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            rec("bwd_called", True)
            return gb
    x = leaf(paddle)
    a, b = ND.apply(x)
    a.sum().backward()
    rec("grad_none", x.grad is None)


@case
def case_non_differentiable_no_materialize(paddle, rec):
    class ND(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            a = x * 2
            ctx.mark_non_differentiable(a)
            ctx.set_materialize_grads(False)
            return a, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            rec("ga_none", ga is None)
            rec("gb", gb)
            return gb * 3
    x = leaf(paddle)
    ND.apply(x)[1].sum().backward()
    rec("grad", x.grad)


@case
def case_saved_tensor_none(paddle, rec):
    class S(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, a):
            rec("saved", ctx.saved_tensor())
            return a * 2
    S.apply(leaf(paddle)).sum().backward()


@case
def case_saved_mixed_container(paddle, rec):
    class S(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, [x * 2, None], 3, None)
            return x * 2

        @staticmethod
        def backward(ctx, a):
            s = ctx.saved_tensor()
            rec("saved", s)
            rec("types", [type(v).__name__ for v in s])
            return a * 2
    S.apply(leaf(paddle)).sum().backward()


@case
def case_save_twice_keeps_last(paddle, rec):
    class S(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.save_for_backward(x * 5)
            return x * 2

        @staticmethod
        def backward(ctx, a):
            rec("saved", ctx.saved_tensor())
            return a * 2
    S.apply(leaf(paddle)).sum().backward()


@case
def case_dtype_consistent_chain(paddle, rec):
    class Down(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return (g * 2).astype("float64")

    class Up(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        def backward(ctx, g):
            rec("up_got", str(g.dtype))
            return g * 3

    class Up2(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_grad_in_dtype_consistent(False)
            return x * 3

        @staticmethod
        def backward(ctx, g):
            rec("up2_got", str(g.dtype))
            rec("up2_g", g)
            return g * 3
    x = leaf(paddle)
    Down.apply(Up.apply(x)).sum().backward()
    rec("grad", x.grad)
    x = leaf(paddle)
    Down.apply(Up2.apply(x)).sum().backward()
    rec("grad2", x.grad)


@case
def case_backward_wrong_dtype(paddle, rec):
    class W(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return (g * 2).astype("float64")
    x = leaf(paddle)
    W.apply(x).sum().backward()
    rec("grad", x.grad)


@case
def case_backward_wrong_shape(paddle, rec):
    class W(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return paddle.ones([3])
    x = leaf(paddle)
    W.apply(x).sum().backward()
    rec("grad", x.grad)


def _grad_layer(paddle, make):
    """A PyLayer (y = 2x) whose backward returns ``make(g)``."""
    class G(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return make(g)
    return G


def data_leaf(paddle, shape=(2, 3), v=1.0, dtype="float32"):
    """A leaf made from data (to_tensor): Paddle keeps a PyLayer's gradient for it in the dtype
    backward returned."""
    x = paddle.to_tensor(np.full(shape, v, dtype=dtype))
    x.stop_gradient = False
    return x


@case
def case_backward_grad_shapes_stored(paddle, rec):
    # a leaf's gradient of another shape (smaller, a broadcastable one, 0-D) is its .grad
    for name, shape in (("five", [5]), ("row", [1, 3]), ("scalar", [])):
        W = _grad_layer(paddle, lambda g, s=shape: paddle.full(s, 0.5))
        x = data_leaf(paddle)
        W.apply(x).sum().backward()
        rec(name, x.grad)
        x = leaf(paddle, (2, 3))
        W.apply(x).sum().backward()
        rec(name + "_op_leaf", x.grad)
    # a passed-through gradient of another shape does not stop gradient
    W = _grad_layer(paddle, lambda g: g.sum())
    x = data_leaf(paddle)
    W.apply(x).sum().backward()
    rec("passed", x.grad)


@case
def case_backward_wrong_shape_accumulates(paddle, rec):
    W = _grad_layer(paddle, lambda g: paddle.full([5], 0.5))
    x = data_leaf(paddle)
    (W.apply(x).sum() + W.apply(x).sum()).backward()
    rec("two_paths", x.grad)
    W.apply(x).sum().backward()
    rec("second_backward", x.grad)
    x.clear_grad()
    rec("cleared", x.grad)


@case
def case_backward_wrong_shape_with_right_one(paddle, rec):
    # Paddle cannot sum gradients of different shapes: a RuntimeError, whatever the order
    W = _grad_layer(paddle, lambda g: paddle.full([1, 3], 0.5))
    for order in ("pylayer_first", "op_first", "op_backward_before"):
        x = data_leaf(paddle)
        try:
            if order == "pylayer_first":
                (W.apply(x).sum() + (x * 3).sum()).backward()
            elif order == "op_first":
                ((x * 3).sum() + W.apply(x).sum()).backward()
            else:
                (x * 3).sum().backward()
                W.apply(x).sum().backward()
            rec(order, x.grad)
        except Exception as e:          # noqa: BLE001 - the type is the result
            rec(order, type(e).__name__)
    V = _grad_layer(paddle, lambda g: paddle.full([], 0.5))
    x = data_leaf(paddle)
    try:
        (W.apply(x).sum() + V.apply(x).sum()).backward()
        rec("two_shapes", x.grad)
    except Exception as e:              # noqa: BLE001
        rec("two_shapes", type(e).__name__)


@case
def case_backward_grad_dtype_data_leaf(paddle, rec):
    # a leaf made from data keeps the dtype backward returned; one made by an op gets it cast
    # (backward_wrong_dtype), also with another shape
    for dt in ("float64", "float16", "int64"):
        W = _grad_layer(paddle, lambda g, d=dt: paddle.full([2, 3], 2.5, d))
        x = data_leaf(paddle)
        W.apply(x).sum().backward()
        rec(dt, x.grad)
        x = leaf(paddle, (2, 3))
        W.apply(x).sum().backward()
        rec(dt + "_op_leaf", x.grad)
    W = _grad_layer(paddle, lambda g: paddle.full([5], 2, "int64"))
    x = leaf(paddle, (2, 3))
    W.apply(x).sum().backward()
    rec("int64_five_op_leaf", x.grad)


@case
def case_backward_int_grad_accumulated(paddle, rec):
    # Paddle cannot accumulate integer gradients
    W = _grad_layer(paddle, lambda g: paddle.full([2, 3], 2, "int64"))
    x = data_leaf(paddle)
    try:
        (W.apply(x).sum() + W.apply(x).sum()).backward()
        rec("grad", x.grad)
    except Exception as e:              # noqa: BLE001
        rec("grad", type(e).__name__)


@case
def case_backward_wrong_shape_intermediate(paddle, rec):
    W = _grad_layer(paddle, lambda g: paddle.full([5], 0.5))
    x = data_leaf(paddle)
    W.apply(x * 1.0).sum().backward()
    rec("grad", x.grad)


@case
def case_grad_wrong_shape(paddle, rec):
    # paddle.grad returns a PyLayer's gradient for a leaf as it is: its shape, and its dtype
    # even for a leaf made by an op
    W = _grad_layer(paddle, lambda g: paddle.full([5], 0.5))
    x = data_leaf(paddle)
    rec("g", paddle.grad(W.apply(x).sum(), [x]))
    W = _grad_layer(paddle, lambda g: paddle.full([2, 3], 2, "int64"))
    x = leaf(paddle, (2, 3))
    rec("int64_op_leaf", paddle.grad(W.apply(x).sum(), [x]))
    rec("x_grad", x.grad)
    W = _grad_layer(paddle, lambda g: paddle.full([1, 3], 0.5))
    x = data_leaf(paddle)
    y = paddle.to_tensor(np.ones([2, 3], "float32"), stop_gradient=False)
    rec("two_inputs", paddle.grad(W.apply(x).sum() + (y * 2).sum(), [y, x]))


# ---------------------------------------------------------------------- in-place
@case
def case_inplace_leaf_error(paddle, rec):
    L = _layers(paddle)
    L["Same"].apply(leaf(paddle))


@case
def case_inplace_intermediate(paddle, rec):
    L = _layers(paddle)
    a = leaf(paddle)
    b = a * 2
    c = L["Same"].apply(b)
    rec("same_object", c is b)
    rec("b_is_leaf", b.is_leaf)
    rec("c_sg", c.stop_gradient)
    c.sum().backward()
    rec("grad", a.grad)


@case
def case_inplace_stop_gradient(paddle, rec):
    L = _layers(paddle)
    a = paddle.ones([2])
    c = L["Same"].apply(a)
    rec("same_object", c is a)
    rec("c_sg", c.stop_gradient)


@case
def case_inplace_leaf_no_grad_mode(paddle, rec):
    L = _layers(paddle)
    a = leaf(paddle)
    with paddle.no_grad():
        c = L["Same"].apply(a)
    rec("same_object", c is a)
    rec("a_is_leaf", a.is_leaf)


@case
def case_not_inplace_leaf(paddle, rec):
    L = _layers(paddle)
    a = leaf(paddle)
    c = L["NotInplace"].apply(a)
    rec("same_object", c is a)
    rec("c_sg", c.stop_gradient)
    c.sum().backward()
    rec("grad", a.grad)


@case
def case_not_inplace_intermediate(paddle, rec):
    L = _layers(paddle)
    a = leaf(paddle)
    b = a * 2
    c = L["NotInplace"].apply(b)
    rec("same_object", c is b)
    rec("c_sg", c.stop_gradient)
    c.sum().backward()
    rec("grad", a.grad)


@case
def case_doc_mark_not_inplace_loop(paddle, rec):
    class Exp(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output.exp()
    x = paddle.to_tensor(np.array([[0.3]], dtype="float32"))
    x.stop_gradient = False
    attn_layers = [Exp(), Exp()]
    for step in range(2):
        a = x
        for j in range(2):
            a = attn_layers[j].apply(x)
        a.backward()
    rec("x_is_leaf", x.is_leaf)
    rec("a_sg", a.stop_gradient)


# ---------------------------------------------------------------------- errors
@case
def case_no_forward(paddle, rec):
    class NoFwd(paddle.autograd.PyLayer):
        @staticmethod
        def backward(ctx, g):
            return g
    NoFwd.apply(leaf(paddle))


@case
def case_no_backward(paddle, rec):
    class NoBwd(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2
    y = NoBwd.apply(leaf(paddle))
    rec("y_sg", y.stop_gradient)
    y.sum().backward()


@case
def case_too_many_grads(paddle, rec):
    class Two(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, g):
            return g, g, g
    Two.apply(leaf(paddle), leaf(paddle)).sum().backward()


@case
def case_too_few_grads(paddle, rec):
    class Few(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, g):
            return g
    Few.apply(leaf(paddle), leaf(paddle)).sum().backward()


@case
def case_too_few_grads_ok(paddle, rec):
    class Few(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, g):
            return g
    a = leaf(paddle)
    Few.apply(a, paddle.ones([2])).sum().backward()
    rec("grad", a.grad)


@case
def case_non_tensor_grad(paddle, rec):
    class N(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return 3
    N.apply(leaf(paddle)).sum().backward()


@case
def case_numpy_grad(paddle, rec):
    class N(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return np.ones([2], "float32")
    N.apply(leaf(paddle)).sum().backward()


@case
def case_grad_for_stop_gradient_input(paddle, rec):
    L = _layers(paddle)
    L["Add"].apply(leaf(paddle), paddle.ones([2])).sum().backward()


@case
def case_none_for_needed_input(paddle, rec):
    class N(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, g):
            return None, g
    a, b = leaf(paddle), leaf(paddle)
    N.apply(a, b).sum().backward()
    rec("a_none", a.grad is None)
    rec("b", b.grad)


@case
def case_list_return_two_inputs(paddle, rec):
    class LR(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, g):
            return [g, g * 2]
    a, b = leaf(paddle), leaf(paddle)
    LR.apply(a, b).sum().backward()
    rec("grads", [a.grad, b.grad])


@case
def case_error_in_backward(paddle, rec):
    class Err(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise KeyError("boom")
    try:
        Err.apply(leaf(paddle)).sum().backward()
    finally:
        rec("grad_enabled_after", paddle.is_grad_enabled())


@case
def case_error_in_forward(paddle, rec):
    class ErrF(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            raise KeyError("boomf")

        @staticmethod
        def backward(ctx, g):
            return g
    try:
        ErrF.apply(leaf(paddle))
    finally:
        rec("grad_enabled_after", paddle.is_grad_enabled())


@case
def case_saved_modified_inplace(paddle, rec):
    class Ver(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensor()
            return g * x
    a = leaf(paddle)
    b = a * 1
    y = Ver.apply(b)
    inplace_add(paddle, b)
    y.sum().backward()
    rec("grad", a.grad)


@case
def case_saved_output_modified_inplace(paddle, rec):
    class VerOut(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            y, = ctx.saved_tensor()
            return g * y
    a = leaf(paddle)
    y = VerOut.apply(a)
    inplace_add(paddle, y)
    y.sum().backward()
    rec("grad", a.grad)


@case
def case_ordinary_version_error(paddle, rec):
    a = leaf(paddle)
    b = a * 1
    c = paddle.tanh(b)
    d = paddle.tanh(c)
    inplace_add(paddle, c)
    d.sum().backward()


# ---------------------------------------------------------------------- composition
@case
def case_double_backward(paddle, rec):
    class G2(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensor()
            rec("bwd_grad_enabled", paddle.is_grad_enabled())
            return 2 * x * g
    x = leaf(paddle, v=3.0)
    y = G2.apply(x)
    g, = paddle.grad(y.sum(), x, create_graph=True)
    rec("g", g)
    g.sum().backward()
    rec("x_grad", x.grad)
    x2 = leaf(paddle, v=3.0)
    g2, = paddle.grad(G2.apply(x2).sum(), x2)
    rec("g_no_create", g2)


@case
def case_grad_partial_inputs(paddle, rec):
    class Two(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g * 2, g * 3
    x = leaf(paddle, v=3.0)
    w = leaf(paddle, v=2.0)
    g = paddle.grad(Two.apply(x, w).sum(), [w])
    rec("g", g)


@case
def case_grad_partial_inputs_none(paddle, rec):
    class Two(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return None, g * 3
    x = leaf(paddle, v=3.0)
    w = leaf(paddle, v=2.0)
    g = paddle.grad(Two.apply(x, w).sum(), [w])
    rec("g", g)
    rec("x_grad_none", x.grad is None)


@case
def case_hook_on_output(paddle, rec):
    L = _layers(paddle)
    x = leaf(paddle)
    y = L["Twice"].apply(x)
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    rec("grad", x.grad)


@case
def case_hook_downstream_and_input(paddle, rec):
    L = _layers(paddle)
    x = leaf(paddle)
    z = L["Twice"].apply(x) * 1
    z.register_hook(lambda g: g * 10)
    z.sum().backward()
    rec("grad", x.grad)
    x2 = leaf(paddle)
    x2.register_hook(lambda g: g * 10)
    L["Twice"].apply(x2).sum().backward()
    rec("grad2", x2.grad)


@case
def case_nested_pylayers(paddle, rec):
    L = _layers(paddle)
    Inner = L["Twice"]

    class Outer(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = Inner.apply(x)
            rec("inner_out_sg", y.stop_gradient)
            return y * 3

        @staticmethod
        def backward(ctx, g):
            h = Inner.apply(g)
            rec("inner_in_bwd_sg", h.stop_gradient)
            return h * 3
    x = leaf(paddle)
    Outer.apply(x).sum().backward()
    rec("grad", x.grad)


@case
def case_layer_like_usage(paddle, rec):
    L = _layers(paddle)

    class MyLayer:                      # stands in for paddle.nn.Layer
        def __init__(self):
            self.w = leaf(paddle, v=0.5)

        def __call__(self, x):
            return L["cus_tanh"].apply(x * self.w)
    m = MyLayer()
    x = leaf(paddle, v=2.0)
    m(x).sum().backward()
    rec("x_grad", x.grad)
    rec("w_grad", m.w.grad)


@case
def case_retain_graph_twice(paddle, rec):
    L = _layers(paddle)
    x = leaf(paddle)
    y = L["cus_tanh"].apply(x * 1)
    y.sum().backward(retain_graph=True)
    rec("grad1", x.grad)
