"""PyLayer: rules where we follow Paddle's docs over Paddle 3.3.1, and what goes beyond Paddle
(torch interop, torch.compile, autocast, CUDA, memory). The rules Paddle 3.3.1 gets right are
checked against its recording in test_pylayer_goldens.py."""
import gc

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from paddle_compat.autograd import PyLayer, PyLayerContext

DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)]


def leaf(v=1.0, shape=(2,), dtype="float32", device="cpu"):
    t = torch.full(shape, v, dtype=getattr(torch, dtype), device=device)
    x = paddle.from_torch(t)
    x.stop_gradient = False
    return x


def T(x):
    return paddle.to_torch(x)


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


class Same(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 3


class NotInplace(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_not_inplace(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 3


# ---------------------------------------------------------------------- names
def test_reachable_names():
    assert paddle.autograd.PyLayer is PyLayer
    assert paddle.autograd.py_layer.PyLayer is PyLayer
    assert paddle.autograd.PyLayerContext is PyLayerContext
    assert callable(paddle.autograd.backward)


# ---------------------------------------------------------------------- core, on every device
@pytest.mark.parametrize("device", DEVICES)
def test_doc_tanh_values(device):
    x0 = torch.tensor([[0.06132208, 1.11349594, 0.41906252]], dtype=torch.float64, device=device)
    x = paddle.from_torch(x0.clone())
    x.stop_gradient = False
    z = cus_tanh.apply(x)
    z.mean().backward()
    ref = (1 - torch.tanh(x0) ** 2) / 3
    torch.testing.assert_close(T(x.grad), ref)
    assert x.grad.stop_gradient is True
    assert z.stop_gradient is False


@pytest.mark.parametrize("device", DEVICES)
def test_grad_mode_off_inside_and_restored(device):
    seen = {}

    class P(PyLayer):
        @staticmethod
        def forward(ctx, x):
            seen["fwd"] = paddle.is_grad_enabled()
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen["bwd"] = paddle.is_grad_enabled()
            return g * 2
    x = leaf(device=device)
    P.apply(x).sum().backward()
    assert seen == {"fwd": False, "bwd": False}
    assert torch.is_grad_enabled()


@pytest.mark.parametrize("device", DEVICES)
def test_double_backward(device):
    class G2(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensor()
            return 2 * x * g
    x = leaf(3.0, device=device)
    g, = paddle.grad(G2.apply(x).sum(), x, create_graph=True)
    assert g.stop_gradient is False
    g.sum().backward()
    assert T(x.grad).tolist() == [2.0, 2.0]


@pytest.mark.parametrize("device", DEVICES)
def test_materialize_and_non_differentiable(device):
    got = {}

    class ND(PyLayer):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.mark_non_differentiable(a)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            got["ga"] = ga
            return gb * 3
    x = leaf(device=device)
    a, b = ND.apply(x)
    assert a.stop_gradient and not b.stop_gradient
    b.sum().backward()
    assert T(got["ga"]).tolist() == [0.0, 0.0] and got["ga"].stop_gradient
    assert T(x.grad).tolist() == [3.0, 3.0]


# ---------------------------------------------------------------------- docs over Paddle 3.3.1
def test_mark_not_inplace_keeps_leaf_and_gradient():
    """Paddle 3.3.1 drops the gradient and turns x into a non-leaf; its docs promise neither."""
    x = leaf()
    c = NotInplace.apply(x)
    assert c is not x and x.is_leaf and not c.is_leaf and not c.stop_gradient
    c.sum().backward()
    assert T(x.grad).tolist() == [3.0, 3.0]
    b = x * 2
    c = NotInplace.apply(b)
    assert c is not b
    c.sum().backward()
    assert T(x.grad).tolist() == [3.0 + 6.0, 3.0 + 6.0]


def test_doc_mark_not_inplace_loop_accumulates():
    class Exp(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output.exp()
    x = paddle.from_torch(torch.tensor([[0.3]]))
    x.stop_gradient = False
    layers = [Exp(), Exp()]
    for _ in range(2):
        for j in range(2):
            a = layers[j].apply(x)
        a.backward()
    assert x.is_leaf
    np.testing.assert_allclose(T(x.grad).numpy(), [[2 * np.e]], rtol=1e-6)


def test_inplace_intermediate_same_object_and_version_bump():
    a = leaf()
    b = a * 2
    c = Same.apply(b)
    assert c is b and not b.is_leaf
    c.sum().backward()
    assert T(a.grad).tolist() == [6.0, 6.0]
    with pytest.raises(ValueError, match="Leaf Var .* can't use inplace strategy"):
        Same.apply(leaf())


def test_hook_on_output_is_applied():
    """Paddle 3.3.1 calls the hook and ignores its result; register_hook's docs say it is used."""
    class Twice(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    x = leaf()
    y = Twice.apply(x)
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert T(x.grad).tolist() == [20.0, 20.0]


def test_grad_with_partial_inputs_discards_unneeded():
    class Two(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g * 2, g * 3
    x, w = leaf(3.0), leaf(2.0)
    g, = paddle.grad(Two.apply(x, w).sum(), [w])
    assert T(g).tolist() == [3.0, 3.0] and x.grad is None


def test_list_returned_by_backward_is_a_tuple():
    class LR(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, g):
            return [g, g * 2]
    a, b = leaf(), leaf()
    LR.apply(a, b).sum().backward()
    assert T(a.grad).tolist() == [1.0, 1.0] and T(b.grad).tolist() == [2.0, 2.0]


def test_nested_list_output_gets_list_of_grads():
    """Paddle 3.3.1 segfaults here; a list inside the outputs is one slot."""
    got = {}

    class OutList(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return [x * 2, x * 3], 5, None, "s", x * 4

        @staticmethod
        def backward(ctx, gl, g3):
            got["gl"] = gl
            return gl[0] * 2 + gl[1] * 3 + g3 * 4
    x = leaf()
    r = OutList.apply(x)
    assert isinstance(r, tuple) and isinstance(r[0], list) and r[1:4] == (5, None, "s")
    (r[0][1].sum() * 10).backward()
    assert isinstance(got["gl"], list) and T(got["gl"][0]).tolist() == [0.0, 0.0]
    assert T(x.grad).tolist() == [30.0, 30.0]


def test_version_error_for_saved_tensor():
    """Paddle 3.3.1 silently uses the modified value; we raise Paddle's version error."""
    class Ver(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensor()
            return g * x
    a = leaf()
    b = a * 1
    y = Ver.apply(b)
    T(b).add_(1)
    with pytest.raises(RuntimeError, match=r"\(PermissionDenied\).*Its version is 1 but the "
                                           r"expected version is 0"):
        y.sum().backward()
    assert torch.is_grad_enabled()


class WrongShape(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return paddle.ones([3])


def test_wrong_gradient_shape_of_a_leaf_is_its_grad():
    # Paddle's rule (tests/goldens/pylayer.json: backward_grad_shapes_stored and the cases
    # after it): kept beside torch's .grad, which stays None
    x = leaf()
    WrongShape.apply(x).sum().backward()
    assert x.grad.shape == [3] and x.grad.numpy().tolist() == [1.0, 1.0, 1.0]
    assert x.grad.stop_gradient and paddle.to_torch(x).grad is None
    WrongShape.apply(x).sum().backward()          # accumulates
    assert x.grad.numpy().tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(RuntimeError, match=r"\(PreconditionNotMet\).*shape \[2\] into .*\[3\]"):
        (x * 3).sum().backward()                  # a gradient of x's own shape cannot be added
    x.grad = None
    assert x.grad is None
    WrongShape.apply(x).sum().backward()
    x.clear_grad()
    assert x.grad.shape == [3] and x.grad.numpy().tolist() == [0.0, 0.0, 0.0]
    x.clear_grad(set_to_zero=False)
    assert x.grad is None


def test_wrong_gradient_shape_keeps_torch_rules_elsewhere():
    # raw torch tensors: torch's check, as for any autograd.Function
    t = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="invalid gradient"):
        WrongShape.apply(t).sum().backward()
    # an input made by an op (deviation backward_wrong_shape_intermediate: Paddle hands the
    # gradient unchecked to that op's grad kernel)
    with pytest.raises(RuntimeError, match="invalid gradient"):
        WrongShape.apply(leaf() * 1).sum().backward()
    # torch.autograd.grad (paddle.grad returns it as Paddle does: grad_wrong_shape)
    x = leaf()
    with pytest.raises(RuntimeError, match="invalid gradient"):
        torch.autograd.grad(paddle.to_torch(WrongShape.apply(x).sum()), [paddle.to_torch(x)])
    g, = paddle.grad(WrongShape.apply(x).sum(), [x])
    assert g.shape == [3] and x.grad is None
    # a leaf holding a gradient already: it cannot take one of another shape (Paddle too)
    x = leaf()
    (x * 3).sum().backward()
    with pytest.raises(RuntimeError):
        WrongShape.apply(x).sum().backward()
    assert x.grad.numpy().tolist() == [3.0, 3.0]


def test_gradient_dtype_of_a_leaf_follows_how_it_was_made():
    class F64(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return (g * 2).astype("float64")
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)     # from data: kept as returned
    F64.apply(x).sum().backward()
    assert x.grad.dtype == paddle.float64 and x.grad.numpy().tolist() == [2.0, 2.0]
    assert paddle.to_torch(x).grad is None
    x = paddle.full([2], 1.0)                                  # made by an op: cast
    x.stop_gradient = False
    F64.apply(x).sum().backward()
    assert x.grad.dtype == paddle.float32 and x.grad.numpy().tolist() == [2.0, 2.0]
    x = paddle.to_tensor(np.array([1.0, 2.0], dtype="float32"))
    x.stop_gradient = False
    p = paddle.to_tensor(x)                                    # from a Tensor: cast
    p.stop_gradient = False
    F64.apply(p).sum().backward()
    assert p.grad.dtype == paddle.float32


def test_second_backward_raises_and_retain_graph_works():
    """Paddle 3.3.1 segfaults on any second backward through a PyLayer; we raise (or work with
    retain_graph=True)."""
    x = leaf()
    y = cus_tanh.apply(x * 1)
    y.sum().backward()
    with pytest.raises(SystemError, match="retain_graph=True"):
        y.sum().backward()
    x = leaf()
    y = cus_tanh.apply(x * 1)
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    ref = 2 * (1 - np.tanh(1.0) ** 2)
    np.testing.assert_allclose(T(x.grad).numpy(), [ref, ref], rtol=1e-6)


@pytest.mark.parametrize("save, expect", [
    (lambda x: [()], ()),
    (lambda x: [(3, None)], (3, None)),
    (lambda x: [(x, [x, 1]), (x * 5,)], ([5.0, 5.0],)),
    (lambda x: [(x,), (x * 5, 7)], ([5.0, 5.0], 7)),
    (lambda x: [(x * 5, 7), (x,), ()], ()),
], ids=["nothing", "no-tensor", "mixed-then-one", "one-then-mixed", "three-calls"])
def test_save_for_backward_containers_and_replacement(save, expect):
    """The last save_for_backward call wins, whatever the earlier ones held (Paddle 3.3.1 gives
    the same for the first four, checked by hand)."""
    seen = []

    class S(PyLayer):
        @staticmethod
        def forward(ctx, x):
            for args in save(x):
                ctx.save_for_backward(*args)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen.append(ctx.saved_tensor())
            return g * 2
    S.apply(leaf()).sum().backward()
    got, = seen
    assert type(got) is tuple
    assert [v.tolist() if isinstance(v, paddle.Tensor) else v for v in got] == list(expect)


def test_saved_tensors_freed_after_backward():
    ctxs = []

    class S(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x * 2)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            ctxs.append(ctx)
            ctx.saved_tensor()
            return g
    S.apply(leaf()).sum().backward()
    with pytest.raises(SystemError, match="freed"):
        ctxs[0].saved_tensor()


def test_errors_leave_no_state_behind():
    class Err(PyLayer):
        @staticmethod
        def forward(ctx, x):
            raise KeyError("f")

        @staticmethod
        def backward(ctx, g):
            return g
    with paddle.no_grad():
        with pytest.raises(KeyError):
            Err.apply(leaf())
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()

    class ErrB(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise KeyError("b")
    with pytest.raises(OSError, match="GradNodePyLayer_ErrB") as info:
        ErrB.apply(leaf()).sum().backward()
    assert isinstance(info.value.__cause__, KeyError)
    assert torch.is_grad_enabled()


def test_pylayer_called_from_backward_and_nested():
    class Inner(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Outer(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = Inner.apply(x)
            assert y.stop_gradient
            return y * 3

        @staticmethod
        def backward(ctx, g):
            return Inner.apply(g) * 3
    x = leaf()
    Outer.apply(x).sum().backward()
    assert T(x.grad).tolist() == [6.0, 6.0]


def test_autograd_backward_with_pylayer():
    x = leaf(0.5)
    y1, y2 = cus_tanh.apply(x), cus_tanh.apply(x * 2)
    paddle.autograd.backward([y1.sum(), y2.sum()])
    t = torch.tensor(0.5)
    ref = (1 - torch.tanh(t) ** 2) + 2 * (1 - torch.tanh(2 * t) ** 2)
    np.testing.assert_allclose(T(x.grad).numpy(), [ref.item()] * 2, rtol=1e-6)


def test_once_differentiable():
    from paddle_compat.autograd.py_layer import once_differentiable

    class O(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            assert not paddle.is_grad_enabled()
            return g * 2
    x = leaf()
    g, = paddle.grad(O.apply(x).sum(), x, create_graph=True)
    assert g.stop_gradient


def test_dtype_not_consistent_keeps_sent_dtype():
    got = []

    class Down(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return (g * 2).astype("float64")

    class Up(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_grad_in_dtype_consistent(False)
            return x * 3

        @staticmethod
        def backward(ctx, g):
            got.append(g.dtype)
            return g * 3
    x = leaf()
    Down.apply(Up.apply(x)).sum().backward()
    assert got == [paddle.float64]
    assert x.grad.dtype == paddle.float32 and T(x.grad).tolist() == [6.0, 6.0]


# ---------------------------------------------------------------------- memory
def test_no_reference_cycles():
    x = leaf()
    for _ in range(3):                  # warm up (torch creates some one-off garbage)
        cus_tanh.apply(x).mean().backward()
        Same.apply(x * 1).sum().backward()
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            cus_tanh.apply(x).mean().backward()
        gc.collect()                    # classes of earlier tests freed only now
        for _ in range(200):
            z = cus_tanh.apply(x)
            z.mean().backward()
            y = Same.apply(x * 1)
            y.sum().backward()
        del z, y
        gc.set_debug(gc.DEBUG_SAVEALL)
        n = gc.collect()
        kinds = sorted({type(o).__name__ for o in gc.garbage})
        gc.garbage.clear()
        assert n == 0, kinds
    finally:
        gc.set_debug(0)
        gc.enable()


# ---------------------------------------------------------------------- torch interop
class TorchTanh(PyLayer):
    @staticmethod
    def forward(ctx, x, scale=1.0):
        y = paddle.tanh(x) * scale
        ctx.save_for_backward(y)
        ctx.scale = scale
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (ctx.scale - paddle.square(y) / ctx.scale)


@pytest.mark.parametrize("device", DEVICES)
def test_raw_torch_in_raw_torch_out(device):
    seen = []

    class Check(PyLayer):
        @staticmethod
        def forward(ctx, x):
            seen.append((type(x), isinstance(ctx, PyLayerContext)))
            return x * 1

        @staticmethod
        def backward(ctx, g):
            seen.append(type(g))
            return g
    t = torch.linspace(-1, 1, 6, device=device, requires_grad=True)
    Check.apply(t).sum().backward()
    assert seen == [(paddle.Tensor, True), paddle.Tensor]
    y = TorchTanh.apply(t, 2.0)
    assert type(y) is torch.Tensor and y.requires_grad
    g, = torch.autograd.grad(y.sum(), t)
    ref, = torch.autograd.grad((torch.tanh(t) * 2).sum(), t)
    torch.testing.assert_close(g, ref)


def test_torch_module_and_checkpoint():
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(3, 3)

        def forward(self, x):
            return TorchTanh.apply(self.lin(x))
    torch.manual_seed(0)
    m = M()
    x = torch.randn(4, 3)
    out = torch.utils.checkpoint.checkpoint(m, x, use_reentrant=False)
    out.sum().backward()
    g1 = m.lin.weight.grad.clone()
    m.zero_grad()
    torch.tanh(m.lin(x)).sum().backward()
    torch.testing.assert_close(g1, m.lin.weight.grad)


def test_autocast_dtypes():
    """Under torch.autocast (torch code calling a PyLayer) a PyLayer sees its
    inputs as given (Paddle does not cast PyLayer inputs), ops inside forward are autocast, and
    backward gets gradients in the output's dtype."""
    seen = {}

    class A(PyLayer):
        @staticmethod
        def forward(ctx, x, w):
            seen["in"] = (x.dtype, w.dtype)
            y = paddle.from_torch(torch.mm(T(x), T(w)))
            seen["mm"] = y.dtype
            return y

        @staticmethod
        def backward(ctx, g):
            seen["g"] = g.dtype
            return g, g
    x, w = leaf(shape=(2, 2)), leaf(shape=(2, 2))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = A.apply(x, w)
    y.astype("float32").sum().backward()
    assert seen == {"in": (paddle.float32, paddle.float32), "mm": paddle.bfloat16,
                    "g": paddle.bfloat16}
    assert x.grad.dtype == paddle.float32


def test_paddle_amp_auto_cast_dtypes():
    """Under paddle.amp.auto_cast (O1, bfloat16, following Paddle's docs on CPU) a PyLayer's
    inputs arrive as given, white-list ops inside forward (matmul) run in bfloat16, black-list
    ones (exp) in float32, and backward gets the gradient in the output's dtype."""
    seen = {}

    class A(PyLayer):
        @staticmethod
        def forward(ctx, x, w):
            seen["in"] = (x.dtype, w.dtype)
            y = paddle.matmul(x, w)
            seen["matmul"] = y.dtype
            seen["exp"] = paddle.exp(y).dtype
            return y

        @staticmethod
        def backward(ctx, g):
            seen["g"] = g.dtype
            return g.astype("float32"), g.astype("float32")
    x, w = leaf(shape=(2, 2)), leaf(shape=(2, 2))
    with paddle.amp.auto_cast(dtype="bfloat16"):
        y = A.apply(x, w)
    y.astype("float32").sum().backward()
    assert seen == {"in": (paddle.float32, paddle.float32), "matmul": paddle.bfloat16,
                    "exp": paddle.float32, "g": paddle.bfloat16}
    assert x.grad.dtype == paddle.float32 and w.grad.dtype == paddle.float32


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_torch_compile_fullgraph(backend):
    """More cases (every ctx feature, paddle Tensors, inductor) in test_pylayer_compile.py."""
    pytest.importorskip("torch._dynamo")
    torch._dynamo.reset()

    def f(t):
        return TorchTanh.apply(t, 2.0).sum()
    cf = torch.compile(f, fullgraph=True, backend=backend)
    t = torch.linspace(-1, 1, 6, requires_grad=True)
    out = cf(t)
    out.backward()
    ref = torch.linspace(-1, 1, 6, requires_grad=True)
    f(ref).backward()
    torch.testing.assert_close(t.grad, ref.grad)
