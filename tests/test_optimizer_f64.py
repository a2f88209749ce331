"""Every optimizer of paddle.optimizer on float64 parameters against goldens recorded from Paddle
3.3.1 (tools/goldens/record_optimizer_f64.py): the parameters after each step and the final
state_dict agree to 1e-15 relative, which only holds when each constant has Paddle's precision
(the learning rate and Adam's betas/epsilon in float64, the kernels' float32 attributes such as
momentum, rho, epsilon, Lamb's betas, AdamW's coefficient rounded to float32 first) and each
product, quotient and square root is rounded where Paddle's kernel rounds it. Measured here: 46 of
the 49 float64 cases are bit-identical to Paddle, the other three (a global-norm clip, Lamb's two
norms: reductions) within 2 ulps; with the old float32 learning rate every case was off by
1e-10..1e-7. The same cases on float32 parameters hold at the optimizer tests' usual 1e-6;
``mixed`` covers a Linear built under ``set_default_dtype('float64')`` and one optimizer over
float32 and float64 parameters (the learning rate takes the first parameter's dtype).
"""
import json
import os
import re

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from paddle_compat.framework.parameter import make_parameter

with open(os.path.join(os.path.dirname(__file__), "goldens", "optimizer_f64.json")) as _f:
    GOLDEN = json.load(_f)

# float64: elementwise kernels with exact semantics (a global-norm clip or Lamb's norms add a
# reduction, whose summation order may differ by an ulp); float32: as tests/test_optimizer.py
TOL = {"float64": (1e-15, 1e-16), "float32": (1e-6, 1e-6)}
_TORCH = {"float64": torch.float64, "float32": torch.float32}

# paddle.nn is loaded before paddle.optimizer (see tests/test_optimizer_more.py)
paddle.nn.ClipGradByGlobalNorm  # noqa: B018


def _cases(section):
    return {c["id"]: c for c in GOLDEN[section]}


def _start(case, section):
    if section == "mixed":
        env = {"paddle": paddle, "np": np, "w": None, "b": None}
        exec(case["make"], env)
        w, b = env["w"], env["b"]
        with torch.no_grad():
            for p, init in zip((w, b), case["init"]):
                p._t.copy_(torch.tensor(init, dtype=p._t.dtype))
        return w, b, env
    w, b = (make_parameter(torch.tensor(init, dtype=_TORCH[d]), name)
            for init, d, name in zip(case["init"], case["dtypes"], case["names"]))
    env = {"paddle": paddle, "np": np, "w": w, "b": b}
    exec(case["make"], env)
    return w, b, env


def _run(case, section):
    w, b, env = _start(case, section)
    opt, sched = env["opt"], env.get("sched")
    assert [str(p.dtype).replace("paddle.", "") for p in (w, b)] == case["dtypes"]
    names = dict(zip(case["names"], (w.name, b.name)))
    for k, grads in enumerate(case["grads"]):
        loss = sum((p * paddle.to_tensor(np.asarray(g, d))).sum()
                   for p, g, d in zip((w, b), grads, case["dtypes"]))
        loss.backward()
        assert opt.get_lr() == pytest.approx(case["lrs"][k], rel=1e-15)
        opt.step()
        if sched is not None:
            sched.step()
        for p, want, d in zip((w, b), case["params"][k], case["dtypes"]):
            rtol, atol = TOL[d]
            np.testing.assert_allclose(p.numpy(), np.asarray(want), rtol=rtol, atol=atol,
                                       err_msg=f"{case['id']} {p.name} step {k}")
        opt.clear_grad()
    state = opt.state_dict()
    want_keys = []
    for key in case["state"]:
        for old, new in names.items():
            key = key.replace(old, new)
        want_keys.append(key)
    if section == "mixed":       # a Linear's parameter names depend on what ran before
        assert [_uncounted(k) for k in state] == [_uncounted(k) for k in want_keys]
        want_keys = list(state)
    else:
        assert list(state) == want_keys
    for key, want in zip(want_keys, case["state"].values()):
        if key == "LR_Scheduler":
            _same_nested(state[key], want)
            continue
        got = state[key]
        assert list(got.shape) == want["shape"], key
        assert str(got.dtype).replace("paddle.", "") == want["dtype"], key
        rtol, atol = TOL.get(want["dtype"], (0, 0))
        np.testing.assert_allclose(got.numpy(), np.asarray(want["value"]), rtol=rtol, atol=atol,
                                   err_msg=key)


def _uncounted(key):
    return re.sub(r"_\d+$", "", key)


def _same_nested(got, want):
    if isinstance(want, dict):
        assert set(got) == set(want)
        for k, v in want.items():
            _same_nested(got[k], v)
    else:
        assert got == pytest.approx(want, rel=1e-15), (got, want)


@pytest.mark.parametrize("cid", list(_cases("float64")))
def test_float64(cid):
    _run(_cases("float64")[cid], "float64")


@pytest.mark.parametrize("cid", list(_cases("float32")))
def test_float32(cid):
    _run(_cases("float32")[cid], "float32")


@pytest.mark.parametrize("cid", list(_cases("mixed")))
def test_mixed(cid):
    try:
        _run(_cases("mixed")[cid], "mixed")
    finally:
        paddle.set_default_dtype("float32")


def test_float64_is_not_float32_rounded():
    """The float64 goldens are not within reach of a float32 learning rate: SGD's first step
    moves by exactly 0.1 * g in float64."""
    case = _cases("float64")["sgd"]
    w0, g0 = np.asarray(case["init"][0]), np.asarray(case["grads"][0][0])
    np.testing.assert_array_equal(np.asarray(case["params"][0][0]), w0 - 0.1 * g0)
    assert not np.array_equal(np.asarray(case["params"][0][0]),
                              w0 - float(np.float32(0.1)) * g0)


STATIC = {"sgd": "paddle.optimizer.SGD(0.1)",
          "momentum_nesterov_l2": "paddle.optimizer.Momentum(0.05, momentum=0.8, "
                                  "use_nesterov=True, weight_decay=0.01)",
          "adam": "paddle.optimizer.Adam(0.1)", "adamw": "paddle.optimizer.AdamW(0.1)",
          "adagrad": "paddle.optimizer.Adagrad(0.1)", "rmsprop": "paddle.optimizer.RMSProp(0.01)",
          "nadam": "paddle.optimizer.NAdam()", "radam": "paddle.optimizer.RAdam(0.01)",
          "rprop": "paddle.optimizer.Rprop(0.01)"}


@pytest.mark.parametrize("cid", list(STATIC))
def test_static_minimize_float64(cid):
    """Static mode's ``minimize`` (the optimizers' functional rules) on a float64 parameter
    follows the same trajectory as the golden's ``w`` (each of these updates is elementwise,
    so ``w`` alone moves as it does beside ``b``)."""
    case = _cases("float64")[cid]
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            g = paddle.static.data("g", [4, 3], "float64")
            w = paddle.static.create_parameter(
                [4, 3], "float64", name=f"static64_{cid}.w_0",
                default_initializer=paddle.nn.initializer.Assign(np.asarray(case["init"][0])))
            eval(STATIC[cid]).minimize((w * g).sum())
        exe = paddle.static.Executor()
        exe.run(startup)
        for k, grads in enumerate(case["grads"]):
            exe.run(main, feed={"g": np.asarray(grads[0])})
            got = np.asarray(paddle.static.global_scope().find_var(w.name).get_tensor())
            np.testing.assert_allclose(got, np.asarray(case["params"][k][0]), rtol=1e-15,
                                       atol=1e-16, err_msg=f"{cid} step {k}")
    finally:
        paddle.disable_static()
