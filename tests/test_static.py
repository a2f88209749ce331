"""Static mode beyond the goldens: training, state after errors, export, to_static, Executor
caching, the doc example's printed output."""
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from static_helpers import ensure_exports

ensure_exports()
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


@pytest.fixture
def static():
    paddle.enable_static()
    try:
        yield
    finally:
        paddle.disable_static()


def test_doc_example_prints_what_the_page_shows():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "static_pylayer.py")],
                         capture_output=True, text=True, check=True).stdout
    assert out == ("[[1. 2. 3. 4. 5.]]\n"
                   "[[5.4365635 5.4365635 5.4365635 5.4365635 5.4365635]]\n"
                   "[[  2.7182817   7.389056   20.085537   54.59815   148.41316  ]]\n")


def _doc_program():
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        data = paddle.static.data(name="X", shape=[None, 5], dtype="float32")
        data.stop_gradient = False
        ret = paddle.static.nn.static_pylayer(lambda x: paddle.exp(x), [data],
                                              lambda dy: 2 * paddle.exp(dy))
        data_grad = paddle.static.gradients([ret], data)[0]
    return main, start, data, ret, data_grad


def test_fetch_by_name_and_grad_name(static):
    main, start, data, ret, data_grad = _doc_program()
    assert data_grad.name == data.grad_name == "X@GRAD"
    exe = paddle.static.Executor(paddle.CPUPlace())
    x = np.random.rand(4, 5).astype(np.float32)
    a = exe.run(main, feed={"X": x}, fetch_list=[data.name, data.grad_name, ret.name])
    b = exe.run(main, feed={"X": x}, fetch_list=[data, data_grad, ret])
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    np.testing.assert_allclose(a[1], 2 * np.e * np.ones_like(x), rtol=1e-6)
    # compiled once per signature
    assert len(main._compiled) == 2
    exe.run(main, feed={"X": x}, fetch_list=[ret])
    exe.run(main, feed={"X": x[:2]}, fetch_list=[ret])
    assert len(main._compiled) == 3
    r, = exe.run(main, feed={"X": x}, fetch_list=[ret], return_numpy=False)
    assert isinstance(r, paddle.Tensor)


def test_program_printing_and_blocks(static):
    main, start, data, ret, data_grad = _doc_program()
    text = str(main)
    assert '"pd_op.data"' in text and "pd_op.pylayer" in text and "X@GRAD" in text
    blk = main.global_block()
    assert {"X", "X@GRAD", ret.name} <= set(blk.vars)
    assert [op.type for op in blk.ops][:1] == ["pylayer"]
    assert repr(data) == ("Value(define_op_name=pd_op.data, index=0, dtype=tensor<-1x5xf32>, "
                          "stop_gradient=False)")


def test_train_net_with_pylayer_fc_cross_entropy_sgd(static):
    import paddle_compat.nn.functional as F
    rng = np.random.RandomState(0)
    xs = rng.randn(64, 4).astype(np.float32)
    ys = (xs[:, :1] + xs[:, 1:2] > 0).astype(np.int64)

    def fwd(h):
        return paddle.tanh(h)

    def bwd(dy):
        return dy * 1.0          # a straight-through gradient

    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 4], "float32")
        label = paddle.static.data("label", [None, 1], "int64")
        h = paddle.static.nn.fc(x, 16)
        h = paddle.static.nn.static_pylayer(fwd, [h], bwd)
        logits = paddle.static.nn.fc(h, 2)
        loss = paddle.mean(F.cross_entropy(logits, label))
        test_prog = main.clone(for_test=True)
        opt = getattr(getattr(paddle, "optimizer", None), "SGD", None)
        if opt is not None and hasattr(opt, "minimize"):
            opt(learning_rate=0.5).minimize(loss)
        else:                    # the hook, until paddle.optimizer.SGD exists
            paddle.static.optimizer.SGD(learning_rate=0.5).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    losses = [float(exe.run(main, feed={"x": xs, "label": ys}, fetch_list=[loss])[0])
              for _ in range(20)]
    assert losses[-1] < losses[0] * 0.7, losses
    assert all(b <= a + 1e-6 for a, b in zip(losses, losses[1:])), losses
    # the test program shares the parameters and does not train
    t1 = exe.run(test_prog, feed={"x": xs, "label": ys}, fetch_list=[loss])[0]
    t2 = exe.run(test_prog, feed={"x": xs, "label": ys}, fetch_list=[loss])[0]
    assert t1 == t2 and abs(float(t1) - losses[-1]) < 0.1
    names = {p.name for p in main.all_parameters()}
    assert names == {"fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"}
    w = np.array(paddle.static.global_scope().find_var("fc_0.w_0").get_tensor())
    assert w.shape == (4, 16)


def test_clone_for_test_drops_backward(static):
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 2], "float32")
        x.stop_gradient = False
        y = paddle.tanh(x) * 3
        (gx,) = paddle.static.gradients([y], [x])
    test = main.clone(for_test=True)
    assert "grad" not in [op.type for op in test.global_block().ops]
    exe = paddle.static.Executor()
    a = np.array([[0.1, 0.2]], np.float32)
    np.testing.assert_allclose(exe.run(test, feed={"x": a}, fetch_list=[y])[0], np.tanh(a) * 3,
                               rtol=1e-6)
    with pytest.raises(ValueError):
        exe.run(test, feed={"x": a}, fetch_list=[gx])


def test_state_restored_after_errors():
    prev_main = paddle.static.default_main_program()
    grad = torch.is_grad_enabled()
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with pytest.raises(ZeroDivisionError):
            with paddle.static.program_guard(main):
                x = paddle.static.data("x", [2], "float32")
                paddle.static.nn.static_pylayer(lambda v: 1 / 0, [x])
        assert paddle.static.default_main_program() is prev_main
        assert not paddle.static.proxy._active
        with pytest.raises(paddle.static.StaticGraphError):
            with paddle.static.program_guard(main):
                paddle.static.nn.cond(x.sum() > 0, lambda: float(x.sum()), lambda: 0.0)
        assert not paddle.static.proxy._active
        exe = paddle.static.Executor()
        with pytest.raises(ValueError):
            exe.run(main, feed={}, fetch_list=[paddle.exp(x)])
        assert torch.is_grad_enabled() == grad
        assert not paddle.in_dynamic_mode()
    finally:
        paddle.disable_static()
    assert paddle.in_dynamic_mode()
    f = paddle.jit.to_static(lambda t: t * 2 if t.sum() > 0 else t)     # data-dependent branch
    with pytest.warns(UserWarning):
        out = f(paddle.to_tensor([1.0, 2.0]))
    assert paddle.in_dynamic_mode() and out.numpy().tolist() == [2.0, 4.0]


def test_value_needed_error_names_the_op(static):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float32")
        with pytest.raises(paddle.static.StaticGraphError, match="item"):
            x.sum().item()


def test_export_to_graph_module_and_torch_export(static):
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 3], "float32")
        y = paddle.static.nn.fc(x, 2, activation="relu")
    exe = paddle.static.Executor()
    exe.run(start)
    a = np.random.rand(5, 3).astype(np.float32)
    want = exe.run(main, feed={"x": a}, fetch_list=[y])[0]
    gm = paddle.static.to_graph_module(main, ["x"], [y])
    assert isinstance(gm, torch.fx.GraphModule)
    got = gm(torch.from_numpy(a))[0]
    np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-6)
    ep = paddle.static.export(main, {"x": a}, [y])
    np.testing.assert_allclose(ep.module()(torch.from_numpy(a[:2]))[0].detach().numpy(),
                               want[:2], rtol=1e-6)


def test_dynamic_mode_static_pylayer_and_cond():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.static.nn.static_pylayer(lambda v: paddle.exp(v), [x],
                                        lambda dy: 2 * paddle.exp(dy))
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2 * np.e] * 2, rtol=1e-6)
    assert paddle.static.nn.cond(x.sum() > 0, lambda: 1, lambda: 2) == 1


def test_to_static_with_pylayer_matches_dynamic():
    from paddle_compat.autograd import PyLayer

    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            y, = ctx.saved_tensor()
            return dy * (1 - paddle.square(y)) * 3     # not the true derivative

    def f(x):
        return cus_tanh.apply(x * 2).mean()

    g = paddle.jit.to_static(f)
    data = np.random.RandomState(1).randn(2, 3).astype(np.float32)
    outs = []
    for fn in (f, g, g):
        x = paddle.to_tensor(data, stop_gradient=False)
        z = fn(x)
        z.backward()
        outs.append((z.numpy(), x.grad.numpy()))
    for z, gx in outs[1:]:
        np.testing.assert_allclose(z, outs[0][0], rtol=1e-6)
        np.testing.assert_allclose(gx, outs[0][1], rtol=1e-6)
    assert isinstance(g.graph_module, torch.fx.GraphModule)
    assert paddle.in_dynamic_mode()


def test_static_pylayer_inside_to_static_layer():
    class Net:
        def __init__(self):
            self.w = paddle.to_tensor([[1.0], [2.0]], stop_gradient=False)

        def forward(self, x):
            h = paddle.static.nn.static_pylayer(lambda v: v * 3, [paddle.matmul(x, self.w)],
                                                lambda d: d * 10)
            return h.sum()

        def __call__(self, x):
            return self.forward(x)

    net = paddle.jit.to_static(Net())
    x = paddle.to_tensor([[1.0, 1.0]], stop_gradient=False)
    out = net(x)
    out.backward()
    assert float(out) == 9.0
    np.testing.assert_allclose(net.w.grad.numpy(), [[10.0], [10.0]])
    np.testing.assert_allclose(x.grad.numpy(), [[10.0, 20.0]])


def test_double_grad(static):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3], "float32")
        x.stop_gradient = False
        y = paddle.sum(x * x * x)
        (g,) = paddle.static.gradients([y], [x])
        (gg,) = paddle.static.gradients([paddle.sum(g)], [x])
    a = np.array([1.0, 2.0, 3.0], np.float32)
    r = paddle.static.Executor().run(main, feed={"x": a}, fetch_list=[g, gg])
    np.testing.assert_allclose(r[0], 3 * a * a)
    np.testing.assert_allclose(r[1], 6 * a)


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_executor_on_gpu(static):
    main, start, data, ret, data_grad = _doc_program()
    exe = paddle.static.Executor(paddle.CUDAPlace(0))
    c = exe.run(main, feed={"X": np.ones([2, 5], np.float32)}, fetch_list=[data_grad, ret])
    np.testing.assert_allclose(c[0], 2 * np.e, rtol=1e-6)
    entry = next(iter(main._compiled.values()))
    assert entry.device.type == "cuda"
