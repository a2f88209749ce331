"""to_static's compiled backend (``backend="CINN"`` -> torch.compile, jit/compiled.py).

One inductor compile (the fixture's training graph, its backward and its eval graph); the other
tests check our side of the compile (graph rewriting, guards, fallbacks, warnings) with
torch.compile's ``aot_eager`` backend, which runs the same dynamo + AOTAutograd path without a
C++ build. The compiled predictor (AOTInductor) is tested in test_inference_aot.py.
"""
import warnings

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from paddle_compat.jit import compiled as _compiled
from paddle_compat.optimizer import compiled_step as _step


def _mlp(dropout=0.3):
    paddle.seed(0)
    return paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.BatchNorm1D(16),
                                paddle.nn.ReLU(), paddle.nn.Dropout(dropout),
                                paddle.nn.Linear(16, 4))


def _train_loop(model, steps=3, clip=False, sched=False):
    """Three Momentum steps on fixed data (seeded dropout); the losses, the BN running mean
    and the eval output afterwards. (Not Adam: the first Linear's bias gets a gradient of
    rounding noise through batch norm, which Adam's normalisation blows up to full steps.)"""
    lr = paddle.optimizer.lr.StepDecay(0.01, step_size=1, gamma=0.5) if sched else 0.01
    opt = paddle.optimizer.Momentum(lr, parameters=model.parameters(),
                                grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5) if clip else None)
    paddle.seed(1)
    x = paddle.randn([6, 8])
    y = paddle.randn([6, 4])
    losses = []
    for _ in range(steps):
        loss = paddle.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        if sched:
            lr.step()
        losses.append(float(loss))
    model.eval()
    ev = model(x).numpy()
    model.train()
    return losses, model[1]._mean.numpy().copy(), ev


@pytest.fixture(scope="module")
def inductor_run():
    """Eager and to_static(backend="CINN") (inductor) runs of the same training loop."""
    eager = _train_loop(_mlp())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = paddle.jit.to_static(_mlp(), backend="CINN")
        return eager, _train_loop(model), model


@pytest.fixture
def aot_eager(monkeypatch):
    monkeypatch.setattr(_compiled, "TORCH_BACKEND", "aot_eager")
    monkeypatch.setattr(_step, "TORCH_BACKEND", "aot_eager")


def test_inductor_training_matches_eager(inductor_run):
    (le, me, ee), (lc, mc, ec), model = inductor_run
    np.testing.assert_allclose(lc, le, rtol=1e-5, atol=1e-6)       # dropout draws: same bits
    np.testing.assert_allclose(mc, me, rtol=1e-5, atol=1e-6)       # BN running stats updated
    np.testing.assert_allclose(ec, ee, rtol=1e-5, atol=1e-6)       # eval() switched graphs
    graphs = [tr.gm for tr in model.forward._cache.values()]
    assert len(graphs) == 2 and all(isinstance(g, _compiled.CompiledGraph) for g in graphs)
    assert all(g.compile_s is not None for g in graphs)
    assert model[0].weight.__dict__.get("_compiled_step")      # marked: the update compiled


def _compiled_updates():
    import torch
    return torch._dynamo.utils.counters["stats"]["unique_graphs"]


def _nesterov_loop(model, steps=3):
    """Nesterov Momentum steps with global-norm clipping and a StepDecay LR on seeded data;
    the optimizer and the unique graphs dynamo had made after the first step."""
    lr = paddle.optimizer.lr.StepDecay(0.01, step_size=1, gamma=0.5)
    opt = paddle.optimizer.Momentum(lr, parameters=model.parameters(), use_nesterov=True,
                                    grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
    paddle.seed(1)
    x, y = paddle.randn([6, 8]), paddle.randn([6, 4])
    first = None
    for _ in range(steps):
        paddle.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        opt.clear_grad()
        lr.step()
        first = _compiled_updates() if first is None else first
    return opt, first


def test_optimizer_update_compiled(aot_eager):
    """Momentum over a to_static(CINN) network: the update runs as one compiled graph, with
    clipping and an LR scheduler as in eager (the LR is a tensor input: no recompile)."""
    model = paddle.jit.to_static(_mlp(), backend="CINN")
    opt, first = _nesterov_loop(model)
    assert _compiled_updates() == first                   # the LR changed, the graph did not
    comp = opt._compiled_update
    assert comp.failed is None and len(comp.graphs) == 1
    eager = _mlp()
    opt_e, _ = _nesterov_loop(eager)
    assert "_compiled_update" not in opt_e.__dict__       # unmarked parameters: eager loop
    for a, b in zip(model.parameters(), eager.parameters()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    # Adam (its rule rounds 1 - beta unlike its eager update) keeps the eager loop
    adam = paddle.optimizer.Adam(0.01, parameters=model.parameters())
    paddle.nn.functional.mse_loss(model(paddle.ones([6, 8])), paddle.zeros([6, 4])).backward()
    adam.step()
    assert "_compiled_update" not in adam.__dict__


def test_optimizer_update_compile_failure(aot_eager, monkeypatch):
    def refuse(gm, example_inputs):
        raise RuntimeError("no compiler for the test")
    monkeypatch.setattr(_step, "TORCH_BACKEND", refuse)
    from paddle_compat.framework.parameter import mark_compiled
    model = _mlp()                       # eager forward; parameters marked as to_static does
    mark_compiled(model.parameters())
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
    w0 = model[0].weight.numpy().copy()
    paddle.nn.functional.mse_loss(model(paddle.ones([4, 8])), paddle.zeros([4, 4])).backward()
    g = model[0].weight.grad.numpy().copy()
    with pytest.warns(UserWarning, match="compiled update of SGD failed and runs eagerly from "
                                         "now on: .*no compiler for the test"):
        opt.step()
    np.testing.assert_allclose(model[0].weight.numpy(), w0 - 0.1 * g, rtol=1e-6, atol=1e-7)


def test_graph_compile_failure_runs_uncompiled(monkeypatch):
    """A compile that fails (here the backend raises, as inductor does without a working C++
    compiler) warns once with the reason, and the traced graph runs uncompiled: eager's
    values and gradients, then and on later calls."""
    def refuse(gm, example_inputs):
        raise RuntimeError("no C++ compiler for the test")
    monkeypatch.setattr(_compiled, "TORCH_BACKEND", refuse)
    monkeypatch.setattr(_compiled, "_backend", lambda: refuse)
    eager, model = _mlp(0.0), paddle.jit.to_static(_mlp(0.0), backend="CINN")
    x = paddle.randn([6, 8])
    with pytest.warns(UserWarning, match="could not be compiled .*RuntimeError: no C\\+\\+ "
                                         "compiler for the test.* runs its traced graph "
                                         "uncompiled"):
        out = model(x)
    want = eager(x)
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=1e-6, atol=1e-7)
    out.sum().backward()
    want.sum().backward()
    np.testing.assert_allclose(model[0].weight.grad.numpy(), eager[0].weight.grad.numpy(),
                               rtol=1e-6, atol=1e-7)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # no second warning
        np.testing.assert_allclose(model(x).numpy(), want.numpy(), rtol=1e-6, atol=1e-7)
    g = next(tr.gm for tr in model.forward._cache.values())
    assert g.choice == "eager" and g.run is g.gm


def test_backend_argument():
    assert _compiled.wants_compiler("CINN") and _compiled.wants_compiler("cinn")
    assert not _compiled.wants_compiler(None) and not _compiled.wants_compiler("PCC")
    bs = paddle.static.BuildStrategy()
    assert not _compiled.wants_compiler(None, bs)
    bs.build_cinn_pass = True
    assert _compiled.wants_compiler(None, bs)
    with pytest.raises(ValueError, match="Unknown backend XLA. Only support 'CINN' or None"):
        paddle.jit.to_static(lambda x: x, backend="XLA")
    # backend=None keeps the uncompiled fx graph
    sf = paddle.jit.to_static(lambda x: x * 2)
    sf(paddle.ones([2]))
    assert not any(isinstance(tr.gm, _compiled.CompiledGraph) for tr in sf._cache.values())


def test_dropout_node_rewritten_in_order():
    model = _mlp()
    model.add_sublayer("drop2", paddle.nn.Dropout(0.5))
    sf = paddle.jit.to_static(model)
    sf(paddle.ones([3, 8]))
    gm = sf.forward.graph_module
    new = _compiled._rewrite_rng(gm)
    masks = [n for n in new.graph.nodes if n.target is _compiled._keep_mask_op()]
    assert len(masks) == 2
    assert masks[0].args[3] is None and masks[1].args[3] is masks[0]
    # each mask is drawn as uint8 and read by dropout as it is (through a float32 compare,
    # which inductor vectorises; a bool or uint8 mask it loads element by element)
    from paddle_compat.nn.functional.common import dropout_apply_op
    for m in masks:
        readers = [u for u in m.users if u.target is not _compiled._keep_mask_op()]
        assert [u.target for u in readers] == [dropout_apply_op()]
    assert _compiled._keep_mask_op()([2, 3], 0.5, torch.device("cpu"), None).dtype == torch.uint8
    # another reader of the mask is given it as bool
    g = torch.fx.Graph()
    x = g.placeholder("x")
    mask = g.call_function(_compiled._keep_mask, ((2, 3), 0.5, torch.device("cpu")))
    g.output(g.call_function(torch.where, (mask, x, 0.0)))
    other = _compiled._rewrite_rng(torch.fx.GraphModule(torch.nn.Module(), g))
    (where,) = [n for n in other.graph.nodes if n.target is torch.where]
    assert where.args[0].target is torch.ne and where.args[0].args[0].args[1] == torch.float32
    assert other(torch.ones(2, 3)).shape == (2, 3)
    # the traced graph itself is left as it was (jit.save and users read it)
    assert not any(n.target is _compiled._keep_mask_op() for n in gm.graph.nodes)
    paddle.seed(5)
    a = gm(paddle.ones([3, 8])._t)
    paddle.seed(5)
    b = new(paddle.ones([3, 8])._t)
    np.testing.assert_array_equal(a[0].detach().numpy(), b[0].detach().numpy())


def _step_function(model, compiled, clip=None):
    """A training step as a function (forward, backward, SGD's update), to_static where
    ``compiled``."""
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters(), grad_clip=clip)

    def step(x, y):
        loss = paddle.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return paddle.jit.to_static(step, backend="CINN") if compiled else step


def test_training_step_function(aot_eager):
    """A to_static function doing forward, backward and the optimizer step: eager around the
    Layers, whose forward and backward run compiled; eager's losses."""
    def losses(compiled):
        model = _mlp()
        step = _step_function(model, compiled, paddle.nn.ClipGradByNorm(0.1))
        paddle.seed(2)
        x, y = paddle.randn([5, 8]), paddle.randn([5, 4])
        out = [float(step(x, y)) for _ in range(3)]
        return out, step, model

    want, _, _ = losses(False)
    with pytest.warns(UserWarning, match="Layers it calls compiled: Tensor.backward"):
        got, step, model = losses(True)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    inner = step._layer_fns[id(model)]
    assert any(isinstance(tr.gm, _compiled.CompiledGraph) for tr in inner._cache.values())
    assert "forward" not in model.__dict__          # the model is left as it was


def test_training_step_function_warns_and_traces_once(aot_eager, monkeypatch):
    """A to_static step calling backward falls back once for all inputs: new batch sizes
    neither trace it again nor repeat the warning (which catch_warnings in our own tracing
    would otherwise let through again), and keep eager's losses."""
    import paddle_compat.jit as jit
    traced = []
    real = jit.StaticFunction._trace
    monkeypatch.setattr(jit.StaticFunction, "_trace",
                        lambda self, *a: traced.append(self._fn.__name__) or real(self, *a))

    def run(compiled):
        step = _step_function(_mlp(0.0), compiled)
        paddle.seed(2)
        return [float(step(paddle.randn([n, 8]), paddle.randn([n, 4]))) for n in (5, 3, 5, 4)]

    want = run(False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = run(True)
    fallbacks = [w for w in caught if "could not be traced" in str(w.message)]
    assert len(fallbacks) == 1 and "Tensor.backward" in str(fallbacks[0].message)
    assert traced.count("step") == 1            # the model's forward: one trace per shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_schedulers_clipping_amp(aot_eager):
    """Gradient clipping and an LR scheduler around a compiled layer, and auto_cast inside."""
    want = _train_loop(_mlp(), clip=True, sched=True)
    got = _train_loop(paddle.jit.to_static(_mlp(), backend="CINN"), clip=True, sched=True)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    model = _mlp(0.0)
    model.eval()
    x = paddle.randn([4, 8])
    with paddle.amp.auto_cast(level="O1", dtype="bfloat16"):
        want = model(x)
    sf = paddle.jit.to_static(model, backend="CINN")
    with paddle.amp.auto_cast(level="O1", dtype="bfloat16"), \
            pytest.warns(UserWarning, match="uncompiled under paddle.amp.auto_cast"):
        got = sf(x)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.astype("float32").numpy(), want.astype("float32").numpy(),
                               rtol=1e-2, atol=1e-2)


def test_stop_gradient_and_compile_bound(aot_eager, monkeypatch):
    monkeypatch.setattr(_compiled, "MAX_COMPILES", 1)
    lin = paddle.nn.Linear(3, 2)
    sf = paddle.jit.to_static(lin, backend="CINN")
    x = paddle.ones([2, 3])
    x.stop_gradient = False
    sf(x).sum().backward()
    assert x.grad is not None and lin.weight.grad is not None
    lin.clear_gradients()
    for p in lin.parameters():
        p.stop_gradient = True
    # x without gradient is a new signature, over the bound of 1: the traced graph, uncompiled
    with pytest.warns(UserWarning, match="compiled for 1 input signatures"):
        out = sf(paddle.ones([4, 3]))
    assert not any(isinstance(tr.gm, _compiled.CompiledGraph)
                   for k, tr in sf.forward._cache.items() if k[1][0][0] == (4, 3))
    np.testing.assert_allclose(out.numpy(), lin(paddle.ones([4, 3])).numpy(), rtol=1e-6)
    assert out.stop_gradient


def test_graph_break_named(aot_eager):
    import torch

    def opaque(t):
        torch._dynamo.graph_break()
        return t + 1
    g = torch.fx.Graph()
    x = g.placeholder("x")
    y = g.call_function(opaque, (g.call_function(torch.sin, (x,)),))
    g.output(g.call_function(torch.cos, (y,)))
    gm = torch.fx.GraphModule(torch.nn.Module(), g)
    cg = _compiled.compile_graph(gm, "my_fn")
    with pytest.warns(UserWarning, match=r"my_fn compiled with \d+ graph break\(s\).*graph_break"):
        out = cg(torch.ones(2))
    np.testing.assert_allclose(out.numpy(), np.cos(np.sin(1.0) + 1) * np.ones(2), rtol=1e-6)


def _spin(fn, seconds):
    """``fn`` made slower by ``seconds`` of process CPU time (what the choice times)."""
    import time

    def slow(*args):
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass
        return fn(*args)
    return slow


@pytest.mark.parametrize("slow", ["compiled", "eager"])
def test_timed_choice_keeps_the_faster(aot_eager, monkeypatch, slow):
    """After compiling, a graph times its calls uncompiled and compiled in turns and keeps the
    faster: never slower than eager."""
    import torch
    monkeypatch.setattr(_compiled, "TRIAL_PAIRS", 2)
    g = torch.fx.Graph()
    x = g.placeholder("x")
    g.output(g.call_function(torch.sin, (x,)))
    cg = _compiled.compile_graph(torch.fx.GraphModule(torch.nn.Module(), g), "my_fn")
    cg(torch.ones(2))                                   # compiles
    if slow == "compiled":
        cg.fn = _spin(cg.fn, 0.02)
    else:
        cg.gm = _spin(cg.gm, 0.02)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        outs = [cg(torch.full((2,), float(i))) for i in range(6)]
    for i, o in enumerate(outs):                        # both variants compute the same
        np.testing.assert_allclose(o.numpy(), np.sin(float(i)) * np.ones(2), rtol=1e-6)
    fast = "eager" if slow == "compiled" else "compiled"
    assert cg.choice == fast and cg.run is (cg.gm if fast == "eager" else cg.fn)
    assert (cg.trial_ms[0] > cg.trial_ms[1]) == (fast == "compiled")
    named = [str(m.message) for m in w if "ran faster uncompiled" in str(m.message)]
    assert len(named) == (fast == "eager") and all("my_fn" in m for m in named)


def test_timed_choice_tries_nchw_variant_of_conv_graphs(aot_eager, monkeypatch):
    """A graph with convolutions has a third candidate, compiled with NCHW activations
    (inductor's ``layout_optimization`` off), kept where it is the fastest."""
    import torch
    monkeypatch.setattr(_compiled, "TRIAL_PAIRS", 2)
    net = paddle.nn.Sequential(paddle.nn.Conv2D(2, 3, 3), paddle.nn.ReLU())
    static = paddle.jit.to_static(net, full_graph=True)
    x = paddle.randn([1, 2, 5, 5])
    static(x)
    gm = static.forward.graph_module
    assert _compiled._has_convolution(gm)
    lin = torch.fx.symbolic_trace(torch.nn.Linear(2, 2))
    assert not _compiled._has_convolution(lin)
    # under inductor the variant is made (compiled lazily: nothing is built here)
    monkeypatch.setattr(_compiled, "TORCH_BACKEND", "inductor")
    assert _compiled.compile_graph(gm, "conv").alt is not None
    assert _compiled.compile_graph(lin, "lin").alt is None
    monkeypatch.setattr(_compiled, "TORCH_BACKEND", "aot_eager")
    cg = _compiled.compile_graph(gm, "conv_fn")
    assert cg.alt is None                               # aot_eager: no inductor setting
    cg.alt = torch.compile(torch.fx.GraphModule(gm, gm.graph), backend="aot_eager")
    cg.fn, cg.gm = _spin(cg.fn, 0.02), _spin(cg.gm, 0.02)
    t = x._t
    cg(t)                                               # compiles
    outs = [cg(t) for _ in range(7)]
    want = gm(t)
    for o in outs:
        torch.testing.assert_close(o, want)
    assert cg.choice == "compiled-nchw" and cg.run is cg.alt and len(cg.trial_ms) == 3
    assert cg.trial_ms[2] < min(cg.trial_ms[:2])


def test_view_constants_become_graph_views(aot_eager):
    """A static linear on a 3-D input reads ``weight.t()``, a view made when it was traced;
    the compiled graph reads the weight itself and transposes it as a node, so after an
    optimizer step its gradient reaches the weight without an ``AsStridedBackward`` (a zero
    fill and a strided copy per weight and step), and the values and gradients are eager's."""
    import torch
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 6), paddle.nn.ReLU(), paddle.nn.Linear(6, 3))
    eager = paddle.nn.Sequential(paddle.nn.Linear(4, 6), paddle.nn.ReLU(),
                                 paddle.nn.Linear(6, 3))
    eager.set_state_dict(net.state_dict())
    static = paddle.jit.to_static(net, backend="CINN")
    x = paddle.randn([2, 5, 4])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        static(x).sum().backward()
        # an optimizer step writes the weights in place: a view taken before it (the traced
        # weight.t()) then replays as AsStridedBackward
        for m in (net, eager):
            opt = paddle.optimizer.SGD(0.1, parameters=m.parameters())
            if m is eager:
                m(x).sum().backward()
            opt.step()
            opt.clear_grad()
        out = static(x)
    gm = static.forward.graph_module
    views = [n for n in gm.graph.nodes if n.op == "get_attr" and
             getattr(gm, n.target)._base is not None]
    assert len(views) == 2                              # the two weight.t()
    base = torch.ones(2, 3)
    assert _compiled._plain_view(base.t()) and _compiled._plain_view(base[:, 1:])
    assert not _compiled._plain_view(base)                          # not a view
    assert not _compiled._plain_view(base.view(torch.int32))        # another dtype
    assert not _compiled._plain_view(torch.ones(2, dtype=torch.complex64)[:1].conj())
    lifted = _compiled.lift_views(gm)
    assert not [n for n in lifted.graph.nodes if n.op == "get_attr" and
                getattr(lifted, n.target)._base is not None]
    assert sum(n.target is torch.t for n in lifted.graph.nodes) == 2
    # the bases are buffers, as the graph's other tensors: torch.export (the compiled
    # predictor's path) takes them without its "not properly registered" warning
    bases = {n.target for n in lifted.graph.nodes if n.op == "get_attr"} - \
        {n.target for n in gm.graph.nodes if n.op == "get_attr"}
    assert len(bases) == 2 and bases <= dict(lifted.named_buffers()).keys()
    with warnings.catch_warnings(record=True) as caught, torch.no_grad():
        warnings.simplefilter("always")
        torch.export.export(lifted, (x._t,), strict=False)
    assert not [w for w in caught if "registered" in str(w.message)]
    _reaches_weights_as_eager(out, net, eager, x)


def _reaches_weights_as_eager(out, net, eager, x):
    """``out`` (``net``'s graph on ``x``) reaches the weights without an
    ``AsStridedBackward`` node, with ``eager``'s value and gradients."""
    import torch
    kinds, seen, todo = set(), set(), [out._t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and id(fn) not in seen:
            seen.add(id(fn))
            kinds.add(type(fn).__name__)
            todo.extend(f for f, _ in fn.next_functions)
    assert "AsStridedBackward0" not in kinds and "AccumulateGrad" in kinds
    want = eager(x)
    torch.testing.assert_close(out._t, want._t, rtol=1e-6, atol=1e-6)
    out.sum().backward()
    want.sum().backward()
    for p, q in zip(net.parameters(), eager.parameters()):
        torch.testing.assert_close(p.grad._t, q.grad._t, rtol=1e-6, atol=1e-6)


def test_uncompiled_to_static_reads_weights_not_stale_views():
    """The same for plain ``to_static`` (no compiler): after an optimizer step the graph's
    output reaches the weights without ``AsStridedBackward``, with eager's gradients."""
    paddle.seed(0)
    net = paddle.nn.Linear(4, 3)
    eager = paddle.nn.Linear(4, 3)
    eager.set_state_dict(net.state_dict())
    static = paddle.jit.to_static(net)
    x = paddle.randn([2, 5, 4])
    for m in (static, eager):
        opt = paddle.optimizer.SGD(0.1, parameters=m.parameters())
        m(x).sum().backward()
        opt.step()
        opt.clear_grad()
    _reaches_weights_as_eager(static(x), net, eager, x)


def test_frozen_variant_of_inference_graph(monkeypatch):
    """A graph with convolutions first called with gradients off also tries inductor's
    freezing compile (weights compiled in: batch norm folded, oneDNN weights prepacked). Kept,
    it runs only while those weights are unchanged: calls with gradients on go to the next
    fastest candidate, and after ``set_value`` the graph gives the new weights' result."""
    import torch
    monkeypatch.setattr(_compiled, "TRIAL_PAIRS", 2)
    # in process (the package route, for weights no backward has reached, is tested below)
    monkeypatch.setattr(_compiled, "_aot_able", lambda gm, tensors: False)
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Conv2D(2, 4, 3), paddle.nn.BatchNorm2D(4),
                               paddle.nn.ReLU())
    net.eval()
    static = paddle.jit.to_static(net, backend="CINN")
    x = paddle.randn([2, 2, 6, 6])
    with paddle.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        static(x)                                       # compiles
        (cg,) = [tr.gm for tr in static.forward._cache.values()]
        assert isinstance(cg.frozen, _compiled._Frozen) and cg.alt is not None
        assert cg.frozen.gm is None                     # not a package
        cg.gm, cg.fn, cg.alt = (_spin(f, 0.02) for f in (cg.gm, cg.fn, cg.alt))
        outs = [static(x) for _ in range(10)]          # 4 candidates x 2 rounds, then chosen
        (want,) = cg.frozen.fallback(x._t)              # the compiled graph, unfrozen
        for o in outs:
            torch.testing.assert_close(o._t, want, rtol=1e-5, atol=1e-5)
        assert cg.choice == "compiled-frozen" and cg.run is cg.frozen
        assert cg.trial_ms[3] < min(cg.trial_ms[:3])
        assert cg.frozen.fn is not None
    out = static(x)                                     # gradients on: not the frozen code
    assert not out.stop_gradient
    torch.testing.assert_close(out._t.detach(), want, rtol=1e-5, atol=1e-5)
    assert cg.frozen.fn is not None
    w = net[0].weight
    w.set_value(w.numpy() * 2)
    with paddle.no_grad():
        after = static(x)
    assert cg.frozen.fn is None                         # the frozen copy went stale: dropped
    torch.testing.assert_close(after._t, _eager_forward(net, x), rtol=1e-5, atol=1e-5)
    assert not torch.allclose(after._t, want)


def test_frozen_package_of_inference_process(monkeypatch, tmp_path):
    """Weights no backward has reached (an inference process) are frozen into an
    AOTInductor package (a real compile) cached by their bytes: kept where fastest, it gives
    eager's result, calls with gradients on go to the next fastest candidate, a change of the
    weights drops it, and a second to_static of the same weights (a second process's) loads
    the package instead of compiling it."""
    import torch
    monkeypatch.setattr(_compiled, "TRIAL_PAIRS", 2)
    monkeypatch.setenv("PADDLE_COMPAT_AOT_CACHE", str(tmp_path))

    def build():
        paddle.seed(0)
        net = paddle.nn.Sequential(paddle.nn.Conv2D(2, 4, 3), paddle.nn.BatchNorm2D(4),
                                   paddle.nn.ReLU())
        net.eval()
        return net, paddle.jit.to_static(net, backend="CINN")

    x = paddle.randn([2, 2, 6, 6])
    net, static = build()
    with paddle.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        static(x)                                       # compiles
        (cg,) = [tr.gm for tr in static.forward._cache.values()]
        assert cg.frozen.gm is not None                 # to be a package
        cg.gm, cg.fn, cg.alt = (_spin(f, 0.02) for f in (cg.gm, cg.fn, cg.alt))
        warnings.simplefilter("error", FutureWarning)
        outs = [static(x) for _ in range(10)]          # 4 candidates x 2 rounds, then chosen
    assert cg.choice == "compiled-frozen" and cg.frozen.sig is not None
    for o in outs:
        torch.testing.assert_close(o._t, _eager_forward(net, x), rtol=1e-5, atol=1e-5)
    (package,) = tmp_path.glob("frozen-*.pt2")
    out = static(x)                                     # gradients on: not the package
    assert not out.stop_gradient
    torch.testing.assert_close(out._t.detach(), _eager_forward(net, x), rtol=1e-5, atol=1e-5)
    w = net[0].weight
    w.set_value(w.numpy() * 2)
    with paddle.no_grad():
        after = static(x)
    assert cg.frozen.fn is None                         # its weights changed: dropped
    torch.testing.assert_close(after._t, _eager_forward(net, x), rtol=1e-5, atol=1e-5)
    # a second to_static of the same weights (a second process's): the recorded choice runs
    # at once, its package from the cache; nothing exported, compiled or timed
    _second_process(monkeypatch)
    net2, static2 = build()
    with paddle.no_grad():
        out2 = static2(x)
    (cg2,) = [tr.gm for tr in static2.forward._cache.values()]
    assert cg2.choice == "compiled-frozen" and cg2.run is cg2.frozen and cg2.trial_ms == \
        cg.trial_ms and cg2.frozen.sig is not None
    torch.testing.assert_close(out2._t, _eager_forward(net2, x), rtol=1e-5, atol=1e-5)
    assert list(tmp_path.glob("frozen-*.pt2")) == [package]
    out2 = static2(x)                                   # gradients on: its fallback compiles
    assert not out2.stop_gradient


def _second_process(monkeypatch):
    """What a second process, whose packages and timed choices are cached, must not do:
    export, compile or time a graph."""
    import torch

    def no(what):
        def fail(*a, **k):
            raise AssertionError(f"{what} again: the cached package and choice were not used")
        return fail
    monkeypatch.setattr(torch.export, "export", no("exported"))
    monkeypatch.setattr(_compiled.CompiledGraph, "_trial", no("timed"))


def test_timed_choice_replayed_by_next_process(monkeypatch, tmp_path):
    """Every graph's timed choice is recorded (a training graph's too, keyed with the
    gradient mode of its first call): the same graph in a second process runs it from its
    first call, compiling and timing nothing; a recorded "eager" warns as the trial did."""
    import torch
    from paddle_compat.jit import aot
    monkeypatch.setattr(_compiled, "TRIAL_PAIRS", 2)
    monkeypatch.setattr(_compiled, "TORCH_BACKEND", "inductor")
    monkeypatch.setattr(_compiled, "_backend", lambda: "aot_eager")
    monkeypatch.setenv("PADDLE_COMPAT_AOT_CACHE", str(tmp_path))

    def graph():
        torch.manual_seed(0)
        return torch.fx.symbolic_trace(torch.nn.Linear(3, 2))

    x = torch.ones(4, 3)
    cg = _compiled.compile_graph(graph(), "my_fn")
    cg(x).sum().backward()                              # gradients on: compiles
    cg.fn = _spin(cg.fn, 0.02)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = [cg(x) for _ in range(5)][-1]
    assert cg.choice == "eager"
    (rec,) = tmp_path.glob("choice-*.json")
    assert aot.read_choice(str(rec)) == {"choice": "eager", "fallback": "eager",
                                         "trial_ms": list(cg.trial_ms)}

    def compiled_again(gm, example_inputs):
        raise AssertionError("compiled again: the recorded choice was not used")
    monkeypatch.setattr(_compiled, "_backend", lambda: compiled_again)
    _second_process(monkeypatch)
    cg2 = _compiled.compile_graph(graph(), "my_fn")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = cg2(x)
    assert cg2.choice == "eager" and cg2.run is cg2.gm and cg2.trial_ms == cg.trial_ms
    assert [str(m.message) for m in w if "ran faster uncompiled" in str(m.message)] == [
        f"to_static(backend='CINN'): my_fn ran faster uncompiled ({cg.trial_ms[0]:.3g} ms "
        f"per call against {cg.trial_ms[1]:.3g} ms compiled) and keeps its traced graph "
        "uncompiled"]
    torch.testing.assert_close(out, want)
    out.sum().backward()
    # the record is the training graph's: a first call with gradients off times its own
    cg3 = _compiled.compile_graph(graph(), "my_fn")
    with torch.no_grad():
        assert not cg3._replay((x,))
    assert cg3._record != cg2._record and cg3.choice is None


def test_replayed_choice_reports_graph_breaks(monkeypatch, tmp_path):
    """A graph running a recorded compiled choice names its graph breaks as the first
    process's compile did."""
    import torch
    monkeypatch.setattr(_compiled, "TRIAL_PAIRS", 2)
    monkeypatch.setattr(_compiled, "TORCH_BACKEND", "inductor")
    monkeypatch.setattr(_compiled, "_backend", lambda: "aot_eager")
    monkeypatch.setenv("PADDLE_COMPAT_AOT_CACHE", str(tmp_path))

    def opaque(t):
        torch._dynamo.graph_break()
        return t + 1

    def graph():
        g = torch.fx.Graph()
        g.output(g.call_function(torch.cos, (g.call_function(opaque, (g.placeholder("x"),)),)))
        return torch.fx.GraphModule(torch.nn.Module(), g)

    x = torch.ones(2)
    cg = _compiled.compile_graph(graph(), "my_fn")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cg(x)
        cg.gm = _spin(cg.gm, 0.02)
        for _ in range(5):
            cg(x)
    assert cg.choice == "compiled"
    _second_process(monkeypatch)
    cg2 = _compiled.compile_graph(graph(), "my_fn")
    with pytest.warns(UserWarning, match=r"my_fn compiled with \d+ graph break\(s\).*graph_break"):
        out = cg2(x)
    assert cg2.choice == "compiled" and cg2.run is cg2.fn
    np.testing.assert_allclose(out.numpy(), np.cos(2.0) * np.ones(2), rtol=1e-6)


def test_choice_records_read_only_when_whole(tmp_path):
    """A recorded choice is read back only as written: anything else in the file (cut short,
    other types) reads as no record, and the graph times its candidates again."""
    from paddle_compat.jit import aot
    path = str(tmp_path / "choice-x.json")
    rec = {"choice": "compiled-aot", "fallback": "compiled", "trial_ms": [1.0, 2.5, 0.5]}
    aot.write_record(path, rec)
    assert aot.read_choice(path) == rec
    assert aot.read_choice(str(tmp_path / "none.json")) is None
    for text in ['{"choice": "compiled-aot", "fallb', '[1, 2]',
                 '{"choice": 1, "fallback": "compiled", "trial_ms": []}',
                 '{"choice": "compiled-aot", "fallback": "compiled", "trial_ms": ["x"]}']:
        (tmp_path / "choice-x.json").write_text(text)
        assert aot.read_choice(path) is None


def test_cache_pruned_least_recently_used(monkeypatch, tmp_path):
    """The package cache keeps ``CACHE_BYTES`` of packages and choice records, the least
    recently used deleted first; loading a package or reading a record marks it used, and
    files the cache did not name are never deleted."""
    import os
    from paddle_compat.jit import aot
    monkeypatch.setenv("PADDLE_COMPAT_AOT_CACHE", str(tmp_path))
    h = "0123456789abcdef" * 2
    names = [f"frozen-{h}.pt2", f"graph-{h}.pt2", f"{h}.pt2", f"choice-{h}.json",
             "model.pt2", "notes.json"]
    for k, name in enumerate(names):
        (tmp_path / name).write_bytes(b"x" * 100)
        os.utime(tmp_path / name, (1000 + k, 1000 + k))
    rec = {"choice": "eager", "fallback": "eager", "trial_ms": [1.0, 2.0]}
    aot.write_record(str(tmp_path / f"choice-{h}.json"), rec)
    os.utime(tmp_path / f"choice-{h}.json", (500, 500))
    assert aot.read_choice(str(tmp_path / f"choice-{h}.json")) == rec   # read: just used
    os.utime(tmp_path / f"frozen-{h}.pt2", (2000, 2000))   # the most recently used package
    aot.prune_cache(keep_bytes=250)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"choice-{h}.json", f"frozen-{h}.pt2", "model.pt2", "notes.json"])
    assert aot.CACHE_BYTES == 4 << 30


def test_frozen_code_runs_only_on_unchanged_weights():
    """``_Frozen`` gives a call to its frozen code only with gradients off and while every
    tensor of the graph keeps its storage and version, and no version-keeping write
    (``set_value``) happened since its first call; otherwise to its fallback, for good."""
    import torch
    lin = torch.fx.symbolic_trace(torch.nn.Linear(2, 2))
    calls = []
    fz = _compiled._Frozen(lin, lambda x: calls.append("fallback"))
    assert len(fz.tensors) == 2                         # weight and bias
    fz.fn = lambda x: calls.append("frozen")
    x = torch.ones(1, 2)
    with torch.no_grad():
        fz(x)
        fz(x)
    fz(x)                                               # gradients on
    with torch.no_grad():
        fz(x)
        lin.weight.mul_(2)                              # an in-place write: a new version
        fz(x)
        fz(x)
    assert calls == ["frozen", "frozen", "fallback", "frozen", "fallback", "fallback"]
    assert fz.fn is None
    fz = _compiled._Frozen(lin, lambda x: calls.append("fallback"))
    fz.fn = lambda x: calls.append("frozen")
    with torch.no_grad():
        fz(x)
        paddle.to_tensor([1.0]).set_value(np.array([2.0], "float32"))   # any quiet write
        fz(x)
    assert calls[-2:] == ["frozen", "fallback"] and fz.fn is None
    fz = _compiled._Frozen(lin, lambda x: calls.append("fallback"))

    def fails(x):
        raise RuntimeError("no freezing for this graph")
    fz.fn = fails
    with torch.no_grad(), pytest.warns(UserWarning, match="frozen variant failed.*no freezing"):
        fz(x)                                           # its compiling call fails: dropped
    assert calls[-1] == "fallback" and fz.fn is None


def test_frozen_variant_only_for_plain_tensors_within_the_cap(monkeypatch):
    """No frozen variant for a graph over ``FROZEN_MAX_BYTES`` of tensors (it would hold a
    second copy) or reading a tensor subclass (a distributed parameter)."""
    import torch

    class Sub(torch.Tensor):
        pass
    small = (torch.ones(4), torch.nn.Parameter(torch.ones(2)))
    assert _compiled._freezable(small)
    assert not _compiled._freezable(small + (torch.ones(2).as_subclass(Sub),))
    monkeypatch.setattr(_compiled, "FROZEN_MAX_BYTES", 16)
    assert not _compiled._freezable(small)


def test_aot_variant_of_inference_graph(monkeypatch, tmp_path):
    """A graph without convolutions first called with gradients off also tries an
    AOTInductor package of itself (a real compile), its weights bound by reference: kept
    where fastest, it follows optimizer steps and ``set_value``, calls with gradients on or
    other strides go to the next fastest candidate, and another to_static of the same network
    (a second process's) loads the cached package instead of compiling."""
    import torch
    monkeypatch.setattr(_compiled, "TRIAL_PAIRS", 2)
    monkeypatch.setenv("PADDLE_COMPAT_AOT_CACHE", str(tmp_path))

    def build(seed):
        paddle.seed(seed)
        net = paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.ReLU(),
                                   paddle.nn.Linear(16, 4))
        net.eval()
        return net, paddle.jit.to_static(net, backend="CINN")

    def chosen(static, x):
        with paddle.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            static(x)                                   # compiles
            (cg,) = [tr.gm for tr in static.forward._cache.values()]
            assert isinstance(cg.aot, _compiled._Aot) and cg.frozen is None and cg.alt is None
            cg.gm, cg.fn = _spin(cg.gm, 0.02), _spin(cg.fn, 0.02)
            # torch's deprecation notices inside export/AOTInductor do not stop the build
            warnings.simplefilter("error", FutureWarning)
            warnings.simplefilter("error", DeprecationWarning)
            outs = [static(x) for _ in range(8)]       # 3 candidates x 2 rounds, then chosen
        assert cg.choice == "compiled-aot" and cg.run is cg.aot
        assert cg.trial_ms[2] < min(cg.trial_ms[:2])
        return cg, outs

    net, static = build(0)
    x = paddle.randn([3, 8])
    cg, outs = chosen(static, x)
    for o in outs:
        torch.testing.assert_close(o._t, _eager_forward(net, x), rtol=1e-5, atol=1e-5)
    out = static(x)                                     # gradients on: the compiled graph
    assert not out.stop_gradient
    out.sum().backward()
    paddle.optimizer.SGD(0.5, parameters=net.parameters()).step()   # in place
    net[2].bias.set_value(net[2].bias.numpy() + 1)                  # a quiet write
    with paddle.no_grad():
        after = static(x)
        odd = static(paddle.randn([8, 3]).t())          # other strides: not the package's
    assert cg.aot.fn is not None
    torch.testing.assert_close(after._t, _eager_forward(net, x), rtol=1e-5, atol=1e-5)
    assert not torch.allclose(after._t, outs[0]._t)
    assert tuple(odd.shape) == (3, 4)
    # a second to_static of the network, other weights (a second process's): the recorded
    # choice runs at once, its package from the cache, bound to these weights
    net2, static2 = build(1)
    _second_process(monkeypatch)
    with paddle.no_grad():
        out2 = static2(x)
    (cg2,) = [tr.gm for tr in static2.forward._cache.values()]
    assert cg2.choice == "compiled-aot" and cg2.run is cg2.aot and cg2.frozen is None
    torch.testing.assert_close(out2._t, _eager_forward(net2, x), rtol=1e-5, atol=1e-5)
    assert len(list(tmp_path.glob("graph-*.pt2"))) == 1
    assert len(list(tmp_path.glob("choice-*.json"))) == 1


def test_aot_variant_guards_its_signature_and_storage():
    """``_Aot`` runs its package only with gradients off, on inputs of the signature it was
    built for, and while the graph's tensors keep their storage (the package reads that
    memory); new storage drops it for good."""
    import torch
    lin = torch.fx.symbolic_trace(torch.nn.Linear(2, 2))
    calls = []

    class Built(_compiled._Aot):
        __slots__ = ()

        def _build(self, x):                            # what it sets up, without a compile
            self.sig = (_compiled._layout(x),)
            self.fn = lambda x: calls.append("aot")
            return self.fn(x)
    av = Built(lin, lambda x: calls.append("fallback"))
    assert len(av.tensors) == 2
    x = torch.ones(1, 2)
    with torch.no_grad():
        av(x)
        av(x)
        av(torch.ones(2, 1).t())                        # another signature (strides)
    av(x)                                               # gradients on
    with torch.no_grad():
        lin.weight.mul_(2)                              # in place: the package follows it
        av(x)
        lin.weight.data = torch.zeros(2, 2)             # new storage
        av(x)
        av(x)
    assert calls == ["aot", "aot", "fallback", "fallback", "aot", "fallback", "fallback"]
    assert av.fn is None


def test_aot_variant_only_for_graphs_it_can_run():
    """No ahead-of-time variant for a graph that returns an input or one of its tensors (the
    package would return copies), draws dropout masks, or reads non-CPU or subclass tensors."""
    import torch
    lin = torch.fx.symbolic_trace(torch.nn.Linear(2, 2))
    assert _compiled._aot_able(lin, _compiled._graph_tensors(lin))

    class Passthrough(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.ones(2))

        def forward(self, x):
            return x, self.w, x + self.w
    gm = torch.fx.symbolic_trace(Passthrough())
    assert not _compiled._aot_able(gm, _compiled._graph_tensors(gm))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        static = paddle.jit.to_static(_mlp(0.5))
        static(paddle.randn([4, 8]))                    # training: a dropout mask node
    (tr,) = static.forward._cache.values()
    assert not _compiled._aot_able(tr.gm, _compiled._graph_tensors(tr.gm))

    class Sub(torch.Tensor):
        pass
    assert not _compiled._aot_able(lin, (lin.weight.detach().as_subclass(Sub),))


def test_graph_package_key():
    """The ahead-of-time package of a graph is keyed by its code, its tensors' layouts (not
    their values: they are bound at load), the input signature and the thread count."""
    import os
    from paddle_compat.jit import aot
    meta = [((2, 2), (2, 1), "float32", "cpu")]
    sig = (((1, 2), (2, 1), "float32", "cpu"),)
    p = aot.graph_package_path("code", meta, sig, 1)
    assert p == aot.graph_package_path("code", meta, sig, 1)
    assert len({p, aot.graph_package_path("other", meta, sig, 1),
                aot.graph_package_path("code", [((2, 2), (1, 2), "float32", "cpu")], sig, 1),
                aot.graph_package_path("code", meta, (((3, 2), (2, 1), "float32", "cpu"),), 1),
                aot.graph_package_path("code", meta, sig, 2)}) == 5
    # a frozen package: keyed by the tensors' bytes as well
    frozen = aot.graph_package_path("code", meta, sig, 1, "digest")
    assert os.path.basename(frozen).startswith("frozen-") and frozen != p
    assert frozen != aot.graph_package_path("code", meta, sig, 1, "other")


def _eager_forward(net, x):
    """``net(x)`` run eagerly (without its to_static forward), as a torch tensor."""
    with paddle.no_grad():
        return type(net).forward(net, x)._t


def test_inductor_keeps_relu_backward_whole(inductor_run):
    """Our inductor backend's table keeps ReLU's backward as one ATen op (no bool mask saved
    for it) and the rest of inductor's decompositions (ReLU6's backward among them)."""
    import torch
    from torch._inductor.decomposition import select_decomp_table
    table = _compiled._decompositions()
    assert torch.ops.aten.threshold_backward.default not in table
    assert torch.ops.aten.hardtanh_backward.default in table
    op = torch.ops.aten.threshold_backward.default
    drop = torch.ops.paddle_compat.dropout_apply.default
    assert set(select_decomp_table()) - set(table) == {op}
    assert set(table) - set(select_decomp_table()) == {drop}   # dropout's forward, fused
    assert callable(_compiled._backend()) if _compiled.TORCH_BACKEND == "inductor" else True
    with _compiled._inductor_table():           # what our compiles see ...
        assert op not in select_decomp_table() and drop in select_decomp_table()
    assert op in select_decomp_table() and drop not in select_decomp_table()  # ... and others


def test_model_fit_on_to_static_network(aot_eager):
    def run(compiled):
        net = _mlp(0.0)
        if compiled:
            net = paddle.jit.to_static(net, backend="CINN")
        model = paddle.Model(net)
        model.prepare(paddle.optimizer.SGD(0.05, parameters=net.parameters()),
                      paddle.nn.MSELoss())
        paddle.seed(3)
        x, y = paddle.randn([6, 8]), paddle.randn([6, 4])
        return [float(model.train_batch([x], [y])[0]) for _ in range(3)]
    np.testing.assert_allclose(run(True), run(False), rtol=1e-5, atol=1e-6)


def test_cache_dir_is_ours_unless_the_user_set_one(monkeypatch, tmp_path):
    """Importing torch._dynamo (our static trace does, before any compile) writes torch's
    default into TORCHINDUCTOR_CACHE_DIR; the compile cache still goes under
    XDG_CACHE_HOME/paddle_compat/inductor, where it persists. A directory the user set
    wins."""
    import os
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", default_cache_dir())
    ours = os.path.join(str(tmp_path), "paddle_compat", "inductor")
    assert _compiled.cache_dir() == ours
    assert os.environ["TORCHINDUCTOR_CACHE_DIR"] == ours     # what inductor reads
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "mine"))
    assert _compiled.cache_dir() == str(tmp_path / "mine")
    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR")
    assert _compiled.cache_dir() == ours


@pytest.fixture
def isa_record(monkeypatch, tmp_path):
    """``isa_probe_patch`` on a fresh compile cache (its in-process memo cleared before and
    after)."""
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path))
    _compiled.isa_probe_patch.cache_clear()
    yield tmp_path
    _compiled.isa_probe_patch.cache_clear()


@pytest.mark.skipif(__import__("platform").machine() not in ("x86_64", "AMD64"),
                    reason="the record is kept for x86 CPUs only")
def test_vector_isa_probe_recorded_once_per_machine(isa_record, monkeypatch):
    """The first process probes the vector ISAs as inductor does and records the outcome;
    a later one reads the record instead (no probe: the check that would run it raises
    here), and both compile under the same setting. A failed probe, or the user's own
    setting, leaves inductor's probing as it is."""
    from torch._inductor import config
    from torch._inductor import cpu_vec_isa
    assert _compiled.isa_probe_patch() == {"cpp.vec_isa_ok": True}   # this machine passes
    records = list(isa_record.glob("vec-isa-*.json"))
    assert len(records) == 1 and records[0].read_text() == "true"

    def no_probe(self, code):
        raise AssertionError("probed again")
    monkeypatch.setattr(cpu_vec_isa.VecISA, "check_build", no_probe)
    _compiled.isa_probe_patch.cache_clear()
    assert _compiled.isa_probe_patch() == {"cpp.vec_isa_ok": True}
    records[0].write_text("false")                     # a probe that failed an ISA
    _compiled.isa_probe_patch.cache_clear()
    assert _compiled.isa_probe_patch() == {}
    records[0].unlink()
    _compiled.isa_probe_patch.cache_clear()
    with config.patch({"cpp.vec_isa_ok": False}):
        assert _compiled.isa_probe_patch() == {}
