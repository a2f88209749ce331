"""paddle.optimizer, paddle.optimizer.lr, paddle.regularizer and the gradient clips against
goldens recorded from Paddle 3.3.1 (tools/goldens/record_optimizer.py; the format is described
there): parameter values after each of 10 steps to 1e-6, the optimizer's state_dict (Paddle's
accumulator names, shapes, values), scheduler values and state, exception types.
"""
import copy
import json
import os

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from paddle_compat.framework.parameter import make_parameter

with open(os.path.join(os.path.dirname(__file__), "goldens", "optimizer.json")) as _f:
    GOLDEN = json.load(_f)

RTOL, ATOL = 1e-6, 1e-6


def _by_id(section):
    return {c["id"]: c for c in GOLDEN[section]}


def make_params(cid, init):
    w = make_parameter(torch.tensor(init[0], dtype=torch.float32), f"{cid}.w_0")
    b = make_parameter(torch.tensor(init[1], dtype=torch.float32), f"{cid}.b_0")
    return w, b


def run_case(case, prefix=""):
    """Replay one optimizer case; ``prefix`` renames the parameters (for re-runs)."""
    w, b = make_params(prefix + case["id"], case["init"])
    env = {"paddle": paddle, "np": np, "w": w, "b": b}
    exec(case["make"], env)
    return w, b, env["opt"], env.get("sched")


def one_step(w, b, opt, sched, gw, gb):
    loss = (w * paddle.to_tensor(np.asarray(gw, "float32"))).sum() + \
        (b * paddle.to_tensor(np.asarray(gb, "float32"))).sum()
    loss.backward()
    lr = opt.get_lr()
    opt.step()
    if sched is not None:
        sched.step()
    return lr


@pytest.mark.parametrize("cid", list(_by_id("optimizer")))
def test_optimizer_steps(cid):
    case = _by_id("optimizer")[cid]
    w, b, opt, sched = run_case(case)
    for k, (gw, gb) in enumerate(case["grads"]):
        lr = one_step(w, b, opt, sched, gw, gb)
        assert lr == pytest.approx(case["lrs"][k], rel=1e-12)
        for got, want in zip((w, b), case["params"][k]):
            np.testing.assert_allclose(got.numpy(), np.asarray(want), rtol=RTOL, atol=ATOL,
                                       err_msg=f"{cid} step {k}")
        for got, want in zip((w, b), case["param_grads"][k]):
            np.testing.assert_allclose(got.grad.numpy(), np.asarray(want), rtol=RTOL,
                                       atol=ATOL, err_msg=f"{cid} grad after step {k}")
        opt.clear_grad()
    state = opt.state_dict()
    assert list(state) == list(case["state"])
    for key, want in case["state"].items():
        if key == "LR_Scheduler":
            assert state[key] == pytest.approx(want) if not isinstance(want, dict) else \
                _approx_dict(state[key], want)
            continue
        got = state[key]
        assert got.name == key
        assert list(got.shape) == want["shape"]
        assert str(got.dtype).replace("paddle.", "") == want["dtype"]
        np.testing.assert_allclose(got.numpy(), np.asarray(want["value"]), rtol=1e-5, atol=1e-6,
                                   err_msg=key)


def _approx_dict(got, want):
    assert set(got) == set(want)
    for k, v in want.items():
        if isinstance(v, dict):
            _approx_dict(got[k], v)
        else:
            assert got[k] == pytest.approx(v, rel=1e-12), k
    return True


@pytest.mark.parametrize("cid", ["adam", "adamw_decay_fun", "momentum", "lamb", "rmsprop"])
def test_state_dict_resume(cid):
    """Stop after 5 steps, load the state into a fresh optimizer, finish: same parameters."""
    case = _by_id("optimizer")[cid]
    w, b, opt, sched = run_case(case, prefix="r1.")
    for gw, gb in case["grads"][:5]:
        one_step(w, b, opt, sched, gw, gb)
        opt.clear_grad()
    saved = copy.deepcopy({k: (v.numpy() if hasattr(v, "_t") else v)
                           for k, v in opt.state_dict().items()})
    # a fresh optimizer on fresh parameters (state loaded before its first step, as after
    # paddle.load in a new process); its accumulator names carry the new parameter names
    w2, b2, opt2, sched2 = run_case(dict(case, init=[w.numpy().tolist(), b.numpy().tolist()]),
                                    prefix="r2.")
    opt2.set_state_dict(_rename(saved, w, b, w2, b2))
    for k, (gw, gb) in enumerate(case["grads"][5:], start=5):
        one_step(w2, b2, opt2, sched2, gw, gb)
        opt2.clear_grad()
        for got, want in zip((w2, b2), case["params"][k]):
            np.testing.assert_allclose(got.numpy(), np.asarray(want), rtol=RTOL, atol=ATOL)


def _rename(saved, w, b, w2, b2):
    return {k.replace(w.name, w2.name).replace(b.name, b2.name): v for k, v in saved.items()}


def test_set_state_dict_into_live_optimizer():
    """Loading into an optimizer that already has accumulators copies the values in."""
    case = _by_id("optimizer")["adam"]
    w, b, opt, sched = run_case(case, prefix="live.")
    for gw, gb in case["grads"][:5]:
        one_step(w, b, opt, sched, gw, gb)
        opt.clear_grad()
    saved = {k: v.numpy().copy() for k, v in opt.state_dict().items()}
    params = (w.numpy().copy(), b.numpy().copy())
    for gw, gb in case["grads"][5:7]:
        one_step(w, b, opt, sched, gw, gb)
        opt.clear_grad()
    opt.set_state_dict(saved)
    with torch.no_grad():
        w._t.copy_(torch.from_numpy(params[0]))
        b._t.copy_(torch.from_numpy(params[1]))
    for k, (gw, gb) in enumerate(case["grads"][5:], start=5):
        one_step(w, b, opt, sched, gw, gb)
        opt.clear_grad()
        np.testing.assert_allclose(w.numpy(), np.asarray(case["params"][k][0]), rtol=RTOL,
                                   atol=ATOL)


@pytest.mark.parametrize("cid", list(_by_id("schedulers")))
def test_scheduler(cid):
    case = _by_id("schedulers")[cid]
    env = {"paddle": paddle, "np": np}
    exec(case["make"], env)
    sched = env["sched"]
    got = [sched()]
    for s in case["steps"]:
        if isinstance(s, dict):
            sched.step(s["metric"])
        elif s is None:
            sched.step()
        else:
            sched.step(s)
        got.append(sched())
    assert got == pytest.approx(case["lrs"], rel=1e-12, abs=1e-15)
    _approx_dict(sched.state_dict(), case["state"])


@pytest.mark.parametrize("cid", list(_by_id("clip")))
def test_clip(cid):
    case = _by_id("clip")[cid]
    env = {"paddle": paddle}
    exec(case["make"], env)
    pairs = []
    for i, (g, nc) in enumerate(zip(case["grads"], case["need_clip"])):
        p = make_parameter(torch.zeros(np.shape(g)), f"clip_{cid}_{i}", need_clip=nc)
        pairs.append((p, paddle.to_tensor(np.asarray(g, "float32"))))
    out = env["clip"](pairs)
    for (p, g), want in zip(out, case["out"]):
        np.testing.assert_allclose(g.numpy(), np.asarray(want), rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("cid", list(_by_id("errors")))
def test_errors(cid):
    case = _by_id("errors")[cid]
    w = make_parameter(torch.zeros(2), f"err_{cid}")
    if case["error"] is None:
        exec(case["code"], {"paddle": paddle, "w": w})
        return
    with pytest.raises(Exception) as info:
        exec(case["code"], {"paddle": paddle, "w": w})
    assert type(info.value).__name__ == case["error"]


# ---------------------------------------------------------------------- beyond the goldens
def _params(seed=0):
    g = torch.Generator().manual_seed(seed)
    w = make_parameter(torch.randn(4, 3, generator=g), "mp.w_0")
    return w


def test_identity_and_in_place():
    """The parameter object and its torch storage survive a step."""
    w = _params()
    t, ptr = w._t, w._t.data_ptr()
    opt = paddle.optimizer.AdamW(0.1, parameters=[w])
    (w * w).sum().backward()
    opt.step()
    assert w._t is t and w._t.data_ptr() == ptr and w._t.requires_grad


def test_clear_grad_modes():
    w = _params()
    opt = paddle.optimizer.SGD(0.1, parameters=[w])
    (w * w).sum().backward()
    opt.clear_grad()
    assert w.grad is not None and float(w.grad.abs().sum()) == 0.0
    opt.clear_grad(set_to_zero=False)
    assert w.grad is None


def test_minimize_dynamic_uses_existing_grads():
    """Paddle's dynamic minimize applies the gradients already there (no backward)."""
    w = _params()
    before = w.numpy().copy()
    opt = paddle.optimizer.SGD(0.5, parameters=[w])
    loss = (w * w).sum()
    ops, pg = opt.minimize(loss)
    assert ops == [] and pg == [] and np.array_equal(w.numpy(), before)
    loss.backward()
    ops, pg = opt.minimize(loss)
    assert len(pg) == 1 and pg[0][0] is w
    np.testing.assert_allclose(w.numpy(), before - 0.5 * 2 * before, rtol=1e-6)


def test_lr_set_and_scheduler():
    w = _params()
    opt = paddle.optimizer.Adam(0.1, parameters=[w])
    opt.set_lr(0.3)
    assert opt.get_lr() == 0.3
    s = paddle.optimizer.lr.MultiStepDecay(learning_rate=0.5, milestones=[2, 4, 6], gamma=0.8)
    opt.set_lr_scheduler(s)
    assert opt.get_lr() == 0.5
    assert opt.state_dict() == {"LR_Scheduler": {"last_epoch": 0, "last_lr": 0.5}}
    (w * w).sum().backward()
    opt.step()
    assert opt.state_dict()["LR_Scheduler"] == {"last_epoch": 0, "last_lr": 0.5}


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("kind", ["Adam", "AdamW", "Momentum", "SGD", "Lamb"])
def test_multi_precision_master_weights(kind, dtype):
    """fp16/bf16 parameters with multi_precision=True update a float32 master copy (named
    ``<param>_fp32_master_N``) exactly as a float32 parameter would, then cast to the param."""
    g = torch.Generator().manual_seed(1)
    init = torch.randn(4, 3, generator=g)
    grads = [torch.randn(4, 3, generator=g).to(dtype) for _ in range(3)]
    half = make_parameter(init.to(dtype), f"mp_{kind}_{dtype}.w_0")
    ref = make_parameter(init.to(dtype).float(), f"mp_ref_{kind}_{dtype}.w_0")
    cls = getattr(paddle.optimizer, kind)
    o1 = cls(learning_rate=0.01, parameters=[half], multi_precision=True)
    o2 = cls(learning_rate=0.01, parameters=[ref])
    for gr in grads:
        half._t.grad = gr.clone()
        ref._t.grad = gr.float()
        o1.step()
        o2.step()
    master = o1.state_dict()["master_weights"][half.name]
    assert master.dtype == paddle.float32 and master.name.startswith(half.name + "_fp32_master_")
    np.testing.assert_allclose(master.numpy(), ref.numpy(), rtol=1e-6, atol=1e-7)
    assert half._t.dtype == dtype
    torch.testing.assert_close(half._t, ref._t.to(dtype))


def test_adamw_lr_ratio_gpu_formula():
    """lr_ratio (GPU-only in Paddle 3.3.1) scales both the decay and the Adam step."""
    g = torch.Generator().manual_seed(3)
    init = torch.randn(5, generator=g)
    gr = torch.randn(5, generator=g)
    w = make_parameter(init.clone(), "ratio.w_0")
    opt = paddle.optimizer.AdamW(0.1, parameters=[w], weight_decay=0.3,
                                 lr_ratio=lambda p: 0.5)
    w._t.grad = gr.clone()
    opt.step()
    lr = 0.1 * 0.5
    p = init * (1 - lr * 0.3)
    m = 0.1 * gr
    v = 0.001 * gr * gr
    expect = p - lr * (m / (1 - 0.9)) / (torch.sqrt(v / (1 - 0.999)) + 1e-8)
    torch.testing.assert_close(w._t.detach(), expect, rtol=1e-5, atol=1e-6)


def test_momentum_rescale_grad_follows_docs():
    """Paddle 3.3.1's CPU momentum kernel ignores rescale_grad (its GPU kernel and docs apply
    it to the gradient before the L2 term); we follow the docs on every device."""
    w = make_parameter(torch.ones(3), "rescale.w_0")
    opt = paddle.optimizer.Momentum(0.1, momentum=0.9, parameters=[w], rescale_grad=0.5,
                                    weight_decay=0.1)
    w._t.grad = torch.full((3,), 2.0)
    opt.step()
    np.testing.assert_allclose(w.numpy(), 1 - 0.1 * (2.0 * 0.5 + 0.1 * 1.0), rtol=1e-6)


def test_regularizer_str_and_call():
    r1, r2 = paddle.regularizer.L1Decay(0.5), paddle.regularizer.L2Decay(0.25)
    assert str(r1) == "L1Decay, coeff=0.500000" and str(r2) == "L2Decay, coeff=0.250000"
    p = make_parameter(torch.tensor([-2.0, 0.0, 3.0]), "reg.w_0")
    np.testing.assert_allclose(r1(p, None, None).numpy(), [-0.5, 0.0, 0.5])
    np.testing.assert_allclose(r2(p, None, None).numpy(), [-0.5, 0.0, 0.75])


def test_static_minimize_sgd_adam():
    """Static mode: minimize appends the backward and the update through the hook."""
    import paddle_compat.static as static
    paddle.enable_static()
    try:
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [2, 3], "float32")
            w = static.create_parameter([3, 1], "float32", name="st.w_0",
                                        default_initializer=None)
            loss = paddle.mean(paddle.matmul(x, w) ** 2)
            opt = paddle.optimizer.Adam(0.1)
            opt.minimize(loss)
        exe = static.Executor()
        exe.run(startup)
        w0 = np.asarray(static.global_scope().find_var("st.w_0").get_tensor()).copy()
        xv = np.arange(6, dtype="float32").reshape(2, 3) / 6
        exe.run(main, feed={"x": xv}, fetch_list=[loss])
        w1 = np.asarray(static.global_scope().find_var("st.w_0").get_tensor())
    finally:
        paddle.disable_static()
    g = 2 * xv.T @ (xv @ w0) / 2
    lr_t = 0.1 * np.sqrt(1 - 0.999) / (1 - 0.9)
    expect = w0 - lr_t * (0.1 * g) / (np.sqrt(0.001 * g * g) + 1e-8 * np.sqrt(1 - 0.999))
    np.testing.assert_allclose(w1, expect, rtol=1e-5, atol=1e-6)
