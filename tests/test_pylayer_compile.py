"""PyLayer under ``torch.compile(fullgraph=True)``: a torch function calling a PyLayer compiles
without graph breaks (fullgraph=True fails on any break), and its values and gradients match
the same function run eagerly. The backends "eager" and "aot_eager" trace the whole PyLayer
(forward and backward); one small case runs the default inductor backend."""
import pytest
import torch

import paddle_compat as paddle
from paddle_compat.autograd import PyLayer, PyLayerContext

dynamo = pytest.importorskip("torch._dynamo")

BACKENDS = ["eager", "aot_eager"]


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    dynamo.reset()
    yield
    dynamo.reset()


def T(x):
    return paddle.to_torch(x) if isinstance(x, paddle.Tensor) else x


def P(t):
    return paddle.from_torch(t)


def leaves(*shapes, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(*s, generator=g, dtype=torch.float64).requires_grad_(True)
            for s in shapes]


def check(fn, inputs, backend, loss=lambda o: o.sum()):
    """Compile ``fn`` with fullgraph=True, run it and its backward on ``inputs`` and on copies
    eagerly, and compare outputs and gradients."""
    copies = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    cf = torch.compile(fn, fullgraph=True, backend=backend)
    got = cf(*inputs)
    ref = fn(*copies)
    torch.testing.assert_close(got, ref)
    loss(got).backward()
    loss(ref).backward()
    for a, b in zip(inputs, copies):
        if b.grad is None:
            assert a.grad is None
        else:
            torch.testing.assert_close(a.grad, b.grad)
    return got


# ---------------------------------------------------------------------- layers
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


class Scaled(PyLayer):
    """Non-tensor arguments of every kind, a keyword argument, ctx attributes."""

    @staticmethod
    def forward(ctx, x, scale, power=2, mode="exp", fn=None):
        ctx.scale = scale
        ctx.power = power
        ctx.mode = mode
        y = paddle.exp(x) if mode == "exp" else paddle.tanh(x)
        if fn is not None:
            y = fn(y)
        ctx.save_for_backward(x)
        return y * scale

    @staticmethod
    def backward(ctx, dy):
        x, = ctx.saved_tensor()
        assert ctx.mode in ("exp", "tanh")
        if ctx.mode == "exp":
            d = paddle.exp(x)
        else:
            d = 1 - paddle.square(paddle.tanh(x))
        return dy * d * ctx.scale


class TwoIn(PyLayer):
    """Two tensor inputs (one may stop gradient), two outputs, saved tensors nested in a list."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward([x, y], 3.0, None)
        return x * y, paddle.mean(x + y, axis=-1)

    @staticmethod
    def backward(ctx, da, dm):
        (x, y), c, nothing = ctx.saved_tensor()
        assert c == 3.0 and nothing is None
        n = x.shape[-1]
        dm = paddle.unsqueeze(dm, -1) / n
        dx = da * y + dm
        dy = da * x + dm
        return dx, (dy if not y.stop_gradient else None)


class ListIn(PyLayer):
    """A list of tensors is one input slot taking a list of gradients."""

    @staticmethod
    def forward(ctx, xs, w):
        ctx.w = w
        return xs[0] * w + xs[1]

    @staticmethod
    def backward(ctx, g):
        return [g * ctx.w, g]


class NonDiff(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        mask = x > 0
        ctx.mark_non_differentiable(mask)
        return y, mask

    @staticmethod
    def backward(ctx, dy, dmask):
        return dy * 2


class NoMaterialize(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, d1, d2):
        g = d1 * 2 if d1 is not None else None
        if d2 is not None:
            g = d2 * 3 if g is None else g + d2 * 3
        return g


class StructuredOut(PyLayer):
    """Outputs with non-tensor items and a nested list (one slot: a list of gradients)."""

    @staticmethod
    def forward(ctx, x):
        return x * 2, 7, [x * 3, "tag", x * 4]

    @staticmethod
    def backward(ctx, d, ds):
        assert isinstance(ds, list) and len(ds) == 2
        return d * 2 + ds[0] * 3 + ds[1] * 4


class Same(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 3


# ---------------------------------------------------------------------- cases
@pytest.mark.parametrize("backend", BACKENDS)
def test_doc_tanh_paddle_tensors_inside(backend):
    def f(t):
        return paddle.to_torch(cus_tanh.apply(P(t)).mean())
    x, = leaves((2, 3))
    check(f, [x], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_doc_tanh_raw_torch(backend):
    def f(t):
        y = cus_tanh.apply(t)
        assert type(y) is torch.Tensor
        return y * 2
    x, = leaves((4,))
    check(f, [x], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_non_tensor_args_kwargs_and_ctx_attributes(backend):
    def f(t):
        x = P(t)
        a = Scaled.apply(x, 2.0)
        b = Scaled.apply(x, 0.5, power=3, mode="tanh")
        c = Scaled.apply(x, 1.5, 1, "exp", fn=lambda y: y)
        return T(a + b * c)
    x, = leaves((3,))
    check(f, [x], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_inputs_two_outputs_nested_saved(backend):
    def f(a, b):
        p, m = TwoIn.apply(P(a), P(b))
        return T(p.sum() + (m * m).sum())
    a, b = leaves((2, 3), (2, 3))
    check(f, [a, b], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_input_that_stops_gradient(backend):
    def f(a, b):
        p, m = TwoIn.apply(P(a), P(b))
        return T(p.sum() + m.sum())
    a, = leaves((2, 3))
    b = torch.randn(2, 3, dtype=torch.float64)
    check(f, [a, b], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_list_argument_slot(backend):
    def f(a, b):
        return T(ListIn.apply([P(a), P(b)], 3.0))
    a, b = leaves((3,), (3,))
    check(f, [a, b], backend)


# torch < 2.13's dynamo cannot hash an object with its own __hash__ (a paddle dtype as a
# dict key, in astype): it breaks the graph there, which fullgraph refuses
@pytest.mark.skipif(torch.__version__ < "2.13",
                    reason="fullgraph over astype needs torch >= 2.13's dynamo")
@pytest.mark.parametrize("backend", BACKENDS)
def test_mark_non_differentiable(backend):
    def f(t):
        y, mask = NonDiff.apply(P(t))
        assert mask.stop_gradient and not y.stop_gradient
        return T(y * mask.astype("float64"))
    x, = leaves((5,))
    check(f, [x], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_set_materialize_grads_false(backend):
    def f(t):
        a, b = NoMaterialize.apply(P(t))
        return T(a + b)

    def only_first(t):
        a, b = NoMaterialize.apply(P(t))
        return T(a)
    x, = leaves((3,))
    check(f, [x], backend)
    x, = leaves((3,))
    check(only_first, [x], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_structured_outputs(backend):
    def f(t):
        a, seven, (b, tag, c) = StructuredOut.apply(P(t))
        assert seven == 7 and tag == "tag"
        return T(a + b + c)
    x, = leaves((3,))
    check(f, [x], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_input_returned_unchanged(backend):
    def f(t):
        return T(Same.apply(P(t * 1)))
    x, = leaves((3,))
    check(f, [x], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_grad_and_inference(backend):
    def f(t):
        return T(cus_tanh.apply(P(t)))
    x = torch.randn(3, dtype=torch.float64)
    cf = torch.compile(f, fullgraph=True, backend=backend)
    torch.testing.assert_close(cf(x), torch.tanh(x))
    x.requires_grad_(True)
    with torch.no_grad():
        out = cf(x)
    assert not out.requires_grad
    torch.testing.assert_close(out, torch.tanh(x))


def test_ctx_is_a_pylayer_context_with_saved_tensor_none():
    seen = []

    class C(PyLayer):
        @staticmethod
        def forward(ctx, x):
            seen.append(isinstance(ctx, PyLayerContext))
            return x * 2

        @staticmethod
        def backward(ctx, g):
            assert ctx.saved_tensor() is None
            return g * 2

    def f(t):
        return T(C.apply(P(t)))
    x, = leaves((3,))
    check(f, [x], "aot_eager")
    assert seen and all(seen)


def test_explain_counts_no_graph_break():
    def f(t):
        x = P(t)
        y = cus_tanh.apply(x)
        a, b = TwoIn.apply(y, x)
        return T(Scaled.apply(a, 2.0, mode="tanh") + b.sum())
    x, = leaves((2, 3))
    ex = dynamo.explain(f)(x)
    assert ex.graph_break_count == 0 and ex.graph_count == 1


def test_layer_traced_function_also_runs_eagerly():
    """The Function used while compiling is also correct when it runs eagerly (what dynamo
    does with it after a graph break elsewhere in the layer)."""
    x, = leaves((2, 3))
    ref = x.detach().clone().requires_grad_(True)
    for layer, args, kwargs in ((Scaled, (2.0,), {"mode": "tanh"}), (cus_tanh, (), {})):
        fn = layer._pl_traced
        x.grad = ref.grad = None
        y = fn.apply(((P(x), *args), kwargs, False, (-1,)), x)
        y.sum().backward()
        layer.apply(P(ref), *args, **kwargs).sum().backward()
        torch.testing.assert_close(x.grad, ref.grad)


def test_inductor_small_case():
    pytest.importorskip("torch._inductor")

    def f(t):
        return paddle.to_torch(cus_tanh.apply(P(t)) * 2)
    x = torch.randn(8, requires_grad=True)
    check(f, [x], "inductor")
