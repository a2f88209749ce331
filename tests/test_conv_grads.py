"""The convolution gradients our compiled graphs take apart (jit/conv_grads.py): depthwise
ones, and dense ones whose output is smaller than the kernel. The decomposition traced as
AOTAutograd traces it (``make_fx`` with the table) against ATen's own gradients, the calls it
leaves alone, its custom op's fake kernel against the real one, and inductor training runs of
a small convolution network against eager (float32 to its rounding, float64 to 1e-12)."""
import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import paddle_compat as paddle
from paddle_compat.jit import compiled as _compiled
from paddle_compat.jit import conv_grads

aten = torch.ops.aten
CONV_BWD = aten.convolution_backward.default


def _case(n, c, h, w, k=(3, 3), stride=1, padding=1, dilation=1, mult=1, cl=False, seed=0,
          dense=None):
    """A depthwise convolution's output gradient, input, weight and the rest of
    convolution_backward's arguments; with ``dense``, a convolution of ``dense`` output
    channels, not grouped."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, c, h, w, generator=g)
    wt = torch.randn(dense, c, *k, generator=g) if dense else \
        torch.randn(c * mult, 1, *k, generator=g)
    if cl:
        x = x.contiguous(memory_format=torch.channels_last)
    groups = 1 if dense else c
    y = torch.nn.functional.conv2d(x, wt, None, stride, padding, dilation, groups)
    dy = torch.randn(y.shape, generator=g)
    args = [[stride] * 2, [padding] * 2, [dilation] * 2, False, [0, 0], groups]
    return dy, x, wt, args


def _traced(dy, x, wt, args, mask):
    """ATen's convolution_backward traced with our decomposition (as AOTAutograd traces a
    backward under our compiles' table): its graph and its outputs on the same tensors."""
    table = {CONV_BWD: conv_grads.convolution_backward(None)}

    def f(dy, x, wt):
        return CONV_BWD(dy, x, wt, [wt.shape[0]], *args, mask)
    gm = make_fx(f, decomposition_table=table)(dy, x, wt)
    return gm, gm(dy, x, wt)


def _matches_aten(shape, kw, mask):
    """The traced decomposition's gradients for ``_case(*shape, **kw)`` against ATen's (None
    where ``mask`` asks for none): its graph and the weight."""
    dy, x, wt, args = _case(*shape, **kw)
    gm, got = _traced(dy, x, wt, args, mask)
    want = CONV_BWD(dy, x, wt, [wt.shape[0]], *args, mask)
    for g, w, asked in zip(got, want, mask):
        if asked:
            # float32 sums of at most a few hundred products, in another order than oneDNN's
            torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-5)
        else:
            assert g is None
    return gm, wt


def _targets(gm):
    return [n.target for n in gm.graph.nodes if n.op == "call_function"]


@pytest.mark.parametrize("shape,kw", [
    ((8, 24, 2, 2), {}),                                  # smaller than the kernel: summed
    ((4, 16, 1, 1), {}),
    ((4, 16, 2, 5), {"stride": 2}),
    ((2, 8, 2, 2), {"padding": 2, "dilation": 2}),
    ((2, 8, 2, 6), {"k": (3, 5), "cl": True}),
    ((4, 16, 8, 8), {"stride": 2}),                       # not smaller: ATen's, channels_last
    ((2, 8, 7, 5), {"padding": 0, "cl": True}),
])
@pytest.mark.parametrize("mask", [[True, True, True], [False, True, False],
                                  [True, False, True]])
def test_depthwise_gradients_match_aten(shape, kw, mask):
    gm, wt = _matches_aten(shape, kw, mask)
    # no ATen convolution_backward is left in the traced graph: the small case's weight
    # gradient is sums, the rest goes through our op (with its layout)
    assert CONV_BWD not in _targets(gm)
    small = shape[2] < wt.shape[2] or shape[3] < wt.shape[3]
    op_used = torch.ops.paddle_compat.depthwise_conv_backward.default in _targets(gm)
    assert op_used == (mask[0] or (mask[1] and not small))


@pytest.mark.parametrize("shape,kw", [
    ((4, 16, 2, 2), {"dense": 8}),                        # a 2x2 output under 3x3: products
    ((2, 8, 4, 4), {"dense": 16, "stride": 2}),
    ((2, 8, 1, 1), {"dense": 4}),
    ((2, 8, 2, 5), {"dense": 4, "cl": True}),
    ((2, 8, 3, 3), {"dense": 4, "padding": 0, "k": (2, 2), "dilation": 2}),
    ((2, 8, 6, 6), {"dense": 4}),                         # not smaller: ATen's
])
@pytest.mark.parametrize("mask", [[True, True, True], [False, True, False],
                                  [True, False, False]])
def test_tiny_dense_gradients_match_aten(shape, kw, mask):
    gm, wt = _matches_aten(shape, kw, mask)
    dy = _case(*shape, **kw)[0]
    tiny = dy.shape[2] < wt.shape[2] or dy.shape[3] < wt.shape[3]
    assert (CONV_BWD in _targets(gm)) == (not tiny)
    assert (torch.ops.aten.mm.default in _targets(gm)) == (tiny and any(mask[:2]))


def _grouped():
    """2 groups of 4 channels: grouped, not depthwise."""
    x, wt = torch.randn(2, 8, 2, 2), torch.randn(8, 4, 3, 3)
    dy = torch.nn.functional.conv2d(x, wt, None, 1, 1, 1, 2)
    return dy, x, wt, [[1, 1], [1, 1], [1, 1], False, [0, 0], 2]


@pytest.mark.parametrize("make", [lambda: _case(2, 8, 2, 2, mult=2), _grouped],
                         ids=["two filters per channel", "grouped"])
def test_other_convolutions_are_left_to_aten(make):
    dy, x, wt, args = make()
    gm, got = _traced(dy, x, wt, args, [True, True, False])
    assert CONV_BWD in _targets(gm)
    assert torch.ops.paddle_compat.depthwise_conv_backward.default not in _targets(gm)
    want = CONV_BWD(dy, x, wt, [wt.shape[0]], *args, [True, True, False])
    torch.testing.assert_close(got[0], want[0])
    torch.testing.assert_close(got[1], want[1])


def test_transposed_and_3d_convolutions_go_to_the_entry_before():
    calls = []

    def before(*a):
        calls.append(a[7])
        return NotImplemented
    dec = conv_grads.convolution_backward(before)
    x, wt = torch.randn(2, 4, 2, 2), torch.randn(4, 1, 3, 3)
    dy = torch.randn(2, 4, 2, 2)
    assert dec(dy, x, wt, None, [1, 1], [1, 1], [1, 1], True, [0, 0], 4,
               [True, True, False]) is NotImplemented
    x3, w3 = torch.randn(1, 4, 2, 2, 2), torch.randn(4, 1, 3, 3, 3)
    assert dec(torch.randn(1, 4, 2, 2, 2), x3, w3, None, [1] * 3, [1] * 3, [1] * 3, False,
               [0] * 3, 4, [True, True, False]) is NotImplemented
    assert calls == [True, False]
    assert dec.replaces is before


def test_op_fake_kernel_matches_the_real_one():
    """The op's fake kernel gives the real outputs' shapes, dtypes and strides (inductor
    plans its buffers by them)."""
    conv_grads._aten_op()
    op = torch.ops.paddle_compat.depthwise_conv_backward.default
    cl = torch.channels_last
    for mask in ([True, True], [True, False], [False, True]):
        dy, x, wt, _ = _case(4, 16, 8, 8, stride=2, cl=True)
        torch.library.opcheck(op, (dy.contiguous(memory_format=cl), x, wt, [2, 2], [1, 1],
                                   [1, 1], mask))
        gi, gw = op(dy.contiguous(memory_format=cl), x, wt, [2, 2], [1, 1], [1, 1], mask)
        assert gi.is_contiguous(memory_format=cl) if mask[0] else gi.numel() == 0
        assert gw.is_contiguous() if mask[1] else gw.numel() == 0


def test_our_table_registers_the_op_before_any_compile():
    """A graph loaded from the compile cache calls our op without tracing the decomposition:
    building our compiles' table registers it (a fresh process)."""
    code = ("import torch, paddle_compat\n"
            "from paddle_compat.jit import compiled\n"
            "assert not hasattr(torch.ops.paddle_compat, 'depthwise_conv_backward')\n"
            "compiled._our_decompositions()\n"
            "torch.ops.paddle_compat.depthwise_conv_backward.default\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)


def test_table_holds_it_only_inside_our_compiles():
    from torch._inductor.decomposition import select_decomp_table
    inductors = select_decomp_table().get(CONV_BWD)
    with _compiled._inductor_table():
        ours = select_decomp_table()[CONV_BWD]
        assert ours is not inductors and ours.replaces is inductors
        with _compiled._inductor_table():                 # nested: still inductor's behind
            assert select_decomp_table()[CONV_BWD].replaces is inductors
    assert select_decomp_table().get(CONV_BWD) is inductors
    assert _compiled._decompositions()[CONV_BWD].replaces is inductors


class _Depthwise(paddle.nn.Layer):
    """A depthwise convolution on 2x2 maps (smaller than the 3x3 kernel: the summed weight
    gradient) after a depthwise stride-2 one on 4x4 (ATen's, through our op), with bias, batch
    norm and dropout; then a dense one on the 2x2 maps (its gradients as matrix products)."""

    def __init__(self):
        super().__init__()
        self.a = paddle.nn.Conv2D(6, 6, 3, stride=2, padding=1, groups=6)
        self.bn = paddle.nn.BatchNorm2D(6)
        self.b = paddle.nn.Conv2D(6, 6, 3, padding=1, groups=6, bias_attr=False)
        self.c = paddle.nn.Conv2D(6, 5, 3, padding=1)
        self.head = paddle.nn.Linear(20, 3)

    def forward(self, x):
        h = paddle.nn.functional.relu6(self.bn(self.a(x)))
        h = paddle.nn.functional.dropout(paddle.nn.functional.relu(self.b(h)), 0.2,
                                         training=self.training)
        return self.head(paddle.flatten(self.c(h), 1))


def _train(model):
    opt = paddle.optimizer.Momentum(0.05, parameters=model.parameters())
    paddle.seed(4)
    x, y = paddle.randn([4, 6, 4, 4]), paddle.randn([4, 3])
    losses = []
    for _ in range(3):
        loss = paddle.nn.functional.mse_loss(model(x), y)
        loss.backward()
        grads = [p.grad.numpy().copy() for p in model.parameters() if not p.stop_gradient]
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses, grads + [p.numpy() for p in model.parameters()]   # + BN's stats


@pytest.mark.parametrize("dtype, rtol", [("float32", 1e-5), ("float64", 1e-12)])
def test_inductor_training_of_small_convolutions_matches_eager(monkeypatch, dtype, rtol):
    """Float32 to its rounding; float64 to 1e-12: the compiled step (these decompositions,
    batch norm, dropout's draws, the Momentum update) computes what eager does."""
    monkeypatch.setattr(_compiled, "TIMED_CHOICE", False)     # inductor's code every call
    before = paddle.get_default_dtype()
    paddle.set_default_dtype(dtype)
    try:
        paddle.seed(0)
        le, ge = _train(_Depthwise())
        paddle.seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lc, gc = _train(paddle.jit.to_static(_Depthwise(), backend="CINN"))
    finally:
        paddle.set_default_dtype(before)
    np.testing.assert_allclose(lc, le, rtol=rtol)
    for a, b in zip(gc, ge):
        assert a.dtype == np.dtype(dtype)
        np.testing.assert_allclose(a, b, rtol=10 * rtol, atol=rtol / 10)
