"""paddle.amp against Paddle 3.3.1 goldens (tests/goldens/amp_io.json, "amp") and Paddle's
documented AMP rules (paddle/fluid/eager/amp_utils.h: white -> low precision, black -> float32,
others promote), which CPU Paddle cannot show because it ignores auto_cast."""
import contextlib
import io
import json
import os
import warnings

import numpy as np
import pytest
import torch

import paddle_compat as paddle
import paddle_compat.amp
from paddle_compat.framework.parameter import make_parameter

amp = paddle_compat.amp
F = paddle.nn.functional
GS = __import__("sys").modules["paddle_compat.amp.grad_scaler"]
AC = __import__("sys").modules["paddle_compat.amp.auto_cast"]
G = json.load(open(os.path.join(os.path.dirname(__file__), "goldens", "amp_io.json")))["amp"]


def caught(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e)]
    return None


def test_supported_on_cpu():
    s = G["supported"]
    assert amp.is_float16_supported() is s["float16"] is False
    assert amp.is_bfloat16_supported() is s["bfloat16"] is True
    assert amp.is_float16_supported("cpu") is s["float16_cpu"]
    assert amp.is_bfloat16_supported("cpu") is s["bfloat16_cpu"]


def test_float16_on_cpu_is_ignored_as_in_paddle():
    g = G["cpu"]["float16"]
    x = paddle.ones([2, 2])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with amp.auto_cast(dtype="float16"):
            got = {"matmul": str((x @ x).dtype), "exp": str(paddle.exp(x).dtype),
                   "add": str((x + x).dtype), "linear": str(F.linear(x, x).dtype),
                   "enabled": amp.is_autocast_enabled(), "dtype": amp.get_autocast_dtype()}
    got["warnings"] = [str(m.message) for m in w]
    assert got == g
    assert amp.is_autocast_enabled() is G["cpu"]["enabled_outside"]
    assert amp.get_autocast_dtype() == G["cpu"]["dtype_outside"]


def test_bfloat16_on_cpu_follows_the_docs_not_cpu_paddle():
    # CPU Paddle 3.3.1 warns and leaves everything float32 although is_bfloat16_supported()
    # is True on CPU; we apply the documented O1 rules there.
    assert G["cpu"]["bfloat16"]["matmul"] == "paddle.float32"
    x = paddle.ones([2, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with amp.auto_cast(dtype="bfloat16"):
            assert (x @ x).dtype == paddle.bfloat16
            assert F.linear(x, x).dtype == paddle.bfloat16
            assert paddle.exp(x).dtype == paddle.float32
            assert (x + x).dtype == paddle.float32
            assert amp.is_autocast_enabled() and amp.get_autocast_dtype() == "bfloat16"


@pytest.mark.parametrize("case", G["update_list"], ids=lambda c: f"{c['level']}-{c['dtype']}")
def test_custom_list_arithmetic(case):
    w, b = amp._update_list(case["white"], case["black"], case["level"], case["dtype"])
    assert sorted(w) == case["out_white"] and sorted(b) == case["out_black"]


def test_argument_errors():
    g = G["errors"]
    lin = make_parameter(torch.ones(2, 2), "w")
    assert caught(lambda: amp.auto_cast(level="O3").__enter__()) == g["level"]
    assert caught(lambda: amp.auto_cast(dtype="float32").__enter__()) == g["dtype"]
    assert caught(lambda: amp.auto_cast(custom_white_list=["exp"],
                                        custom_black_list=["exp"]).__enter__()) == g["overlap"]
    assert caught(lambda: amp.decorate(lin, level="O3")) == g["decorate_level"]
    assert caught(lambda: amp.decorate(lin, level="O2", dtype="float32")) == g["decorate_dtype"]


# ---------------------------------------------------------------------- the rules (bf16 on CPU)
def _ops(x, y, lowp):
    """Paddle op name -> result dtype for a few ops of each kind."""
    return {"matmul": paddle.matmul(x, y) if x.dtype == y.dtype else x @ y,
            "linear": F.linear(x, y), "exp": paddle.exp(x), "softmax": F.softmax(x),
            "sum": x.sum(), "mean": x.mean(), "layer_norm": F.layer_norm(x, [2]),
            "relu": F.relu(x), "add_fp32": x + paddle.ones([2, 2]), "add_low": lowp + lowp,
            "tanh_low": paddle.tanh(lowp), "add_mixed": lowp + x}


L, H = "bfloat16", "float32"
RULES = {  # (level, use_promote): expected dtype per op, from GetAmpDestDtype
    ("O1", True): dict(matmul=L, linear=L, exp=H, softmax=H, sum=H, mean=H, layer_norm=H,
                       relu=H, add_fp32=H, add_low=L, tanh_low=L, add_mixed=H),
    ("O2", True): dict(matmul=L, linear=L, exp=H, softmax=H, sum=H, mean=H, layer_norm=H,
                       relu=H, add_fp32=H, add_low=L, tanh_low=L, add_mixed=H),
    ("O2", False): dict(matmul=L, linear=L, exp=L, softmax=L, sum=L, mean=L, layer_norm=L,
                        relu=L, add_fp32=L, add_low=L, tanh_low=L, add_mixed=L),
    ("OD", True): dict(matmul=L, linear=L, exp=H, softmax=H, sum=H, mean=H, layer_norm=H,
                       relu=H, add_fp32=H, add_low=H, tanh_low=H, add_mixed=H),
}


@pytest.mark.parametrize("level,promote", list(RULES))
def test_rules(level, promote):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    lowp = x.astype("bfloat16")
    with amp.auto_cast(level=level, dtype="bfloat16", use_promote=promote):
        got = {k: v.dtype.name for k, v in _ops(x, x, lowp).items()}
    assert got == RULES[(level, promote)]
    # O2 at the default promote: the fp32 exp result matches float32 arithmetic
    with amp.auto_cast(level=level, dtype="bfloat16", use_promote=promote):
        e = paddle.exp(x)
    if RULES[(level, promote)]["exp"] == H:
        np.testing.assert_allclose(e.numpy(), np.exp(x.numpy()), rtol=1e-6)


def test_custom_lists_map_paddle_op_names():
    x = paddle.ones([2, 2])
    with amp.auto_cast(dtype="bfloat16", custom_white_list=["exp", "elementwise_add"],
                       custom_black_list=["matmul_v2", "linear_v2"]):
        assert paddle.exp(x).dtype == paddle.bfloat16
        assert (x + x).dtype == paddle.bfloat16
        assert F.linear(x, x).dtype == paddle.float32
        assert (x @ x).dtype == paddle.float32


def test_nesting_and_backward():
    x = paddle.ones([2, 3])
    w = make_parameter(torch.ones(3, 2), "w")
    with amp.auto_cast(dtype="bfloat16"):
        y = F.linear(x, w)
        with amp.auto_cast(enable=False):
            assert F.linear(x, w).dtype == paddle.float32
            assert not amp.is_autocast_enabled()
        assert F.linear(x, w).dtype == paddle.bfloat16
        loss = y.astype("float32").sum()
    loss.backward()
    assert w.grad.dtype == paddle.float32 and w.grad.shape == [3, 2]
    np.testing.assert_allclose(w.grad.numpy(), np.full([3, 2], 2.0))
    assert not amp.is_autocast_enabled()


def test_auto_cast_as_decorator():
    @amp.auto_cast(dtype="bfloat16")
    def f(x):
        return x @ x
    assert f(paddle.ones([2, 2])).dtype == paddle.bfloat16


def test_paddle_matmul_mixed_dtypes_under_auto_cast():
    x = paddle.ones([2, 2])
    with amp.auto_cast(dtype="bfloat16"):
        assert paddle.matmul(x.astype("bfloat16"), x).dtype == paddle.bfloat16


# ---------------------------------------------------------------------- decorate
def _model():
    return paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.LayerNorm(2),
                                paddle.nn.BatchNorm1D(2), paddle.nn.Linear(2, 2))


def test_decorate_o2_bfloat16_casts_parameters_in_place():
    model = _model()
    opt = paddle.optimizer.SGD(parameters=model.parameters())
    w = model[0].weight
    assert amp.decorate(model, opt, level="O1") == (model, opt)
    m2, o2 = amp.decorate(model, opt, level="O2", dtype="bfloat16", save_dtype="float32")
    assert m2 is model and o2 is opt and opt._multi_precision is True
    assert model[0].weight is w and w.dtype == paddle.bfloat16 and not w.stop_gradient
    # bfloat16 casts LayerNorm too; BatchNorm (weight, bias, mean, variance) stays float32
    assert [p.dtype.name for p in model.parameters()] == \
        ["bfloat16"] * 4 + ["float32"] * 4 + ["bfloat16"] * 2
    assert all(v.dtype == paddle.float32 for v in model.state_dict().values())
    with amp.auto_cast(level="O2", dtype="bfloat16"):
        out = model[3](model[0](paddle.ones([3, 2])))
    assert out.dtype == paddle.bfloat16
    # CPU Paddle 3.3.1 leaves them float32 (it ignores AMP on CPU); we follow the docs for bf16
    assert G["cpu"]["decorate_O2_bf16"] == ["paddle.float32"] * 4


def test_decorate_float16_keeps_norms_and_excluded_layers():
    model = _model()
    layer_cls = type(model[3])
    AC_supports = AC._device_supports
    try:
        AC._device_supports = lambda dtype, device=None: True      # as on a GPU
        opt = paddle.optimizer.SGD(parameters=model.parameters())
        opt._multi_precision = True
        amp.decorate(model, opt, level="O2", dtype="float16", master_weight=False,
                     excluded_layers=[model[3]])
    finally:
        AC._device_supports = AC_supports
    assert opt._multi_precision is False
    assert [p.dtype.name for p in model.parameters()] == ["float16"] * 2 + ["float32"] * 8
    assert layer_cls is paddle.nn.Linear


def test_decorate_float16_on_cpu_is_a_no_op():
    model = _model()
    assert amp.decorate(model, level="O2", dtype="float16") is model
    assert all(p.dtype == paddle.float32 for p in model.parameters())


# ---------------------------------------------------------------------- GradScaler
class _SGD:
    """Stand-in for paddle.optimizer.SGD: skips its update when found_inf is set (Paddle's
    Optimizer._apply_optimize), exposing Paddle's auxiliary-variable hooks."""

    def __init__(self, params, lr=0.01):
        self._parameter_list = params
        self.lr = lr
        self._aux = {}

    def _set_auxiliary_var(self, key, val):
        self._aux[key] = val

    def _get_auxiliary_var(self, key):
        return self._aux.get(key)

    def step(self):
        found = self._aux.get("found_inf")
        if found:
            self._aux["found_inf"] = True
            return
        if found is not None:
            self._aux["found_inf"] = False
        with torch.no_grad():
            for p in self._parameter_list:
                if p._t.grad is not None:
                    p._t.sub_(self.lr * p._t.grad)

    def minimize(self, loss):
        self.step()
        return [], []

    def clear_grad(self):
        for p in self._parameter_list:
            p._t.grad = None


@pytest.fixture
def gpu_like(monkeypatch):
    """The scaler's place check answered as on a GPU (as the recorder did for Paddle), after an
    auto_cast(dtype='float16') would have set the AMP dtype."""
    monkeypatch.setattr(GS, "_place_supports_scaling", lambda: True)
    monkeypatch.setattr(amp.auto_cast.__globals__["_global"], "amp_dtype", "float16")


STEP_X = {"ok": [1.0, 2.0, 3.0], "inf": [1.0, float("inf"), 3.0],
          "nan": [float("nan"), 2.0, 3.0]}


def _same(a, b):
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64),
                               rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("seq", G["scaler"], ids=lambda s: s["mode"] + str(s["kw"]))
def test_loss_scale_sequence(gpu_like, seq):
    scaler = amp.GradScaler(**seq["kw"])
    w = make_parameter(torch.full([3], 0.5), "w")
    opt = _SGD([w])
    for step in seq["steps"]:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            scaled = scaler.scale((w * paddle.to_tensor(STEP_X[step["kind"]])).sum())
            scaled.backward()
            if seq["mode"] == "minimize":
                scaler.minimize(opt, scaled)
            elif seq["mode"] == "unscale_step":
                scaler.unscale_(opt)
                _same(w.grad.numpy(), step["grad"])
                scaler.step(opt)
                scaler.update()
            else:
                scaler.step(opt)
                scaler.update()
        sd = scaler.state_dict()
        assert scaled.shape == [1]
        _same(scaled.numpy(), step["scaled_loss"])
        _same(w.numpy(), step["w"])
        _same(scaler._scale.numpy(), step["scale"])
        assert (sd["incr_count"], sd["decr_count"]) == (step["incr_count"], step["decr_count"])
        assert bool(scaler._found_inf) is step["found_inf"]
        assert buf.getvalue() == step["printed"]
        opt.clear_grad()
    sd = scaler.state_dict()
    assert sd.pop("scale").tolist() == seq["state_dict"].pop("scale")
    assert sd == seq["state_dict"]
    assert scaler.is_enable() is seq["enabled"]
    assert scaler.is_use_dynamic_loss_scaling() is seq["dynamic"]


def test_loss_scale_sequence_with_paddle_sgd(gpu_like):
    seq = G["scaler"][0]
    scaler = amp.GradScaler(**seq["kw"])
    w = make_parameter(torch.full([3], 0.5), "w")
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=[w])
    with contextlib.redirect_stdout(io.StringIO()):
        for step in seq["steps"]:
            scaler.scale((w * paddle.to_tensor(STEP_X[step["kind"]])).sum()).backward()
            scaler.step(opt)
            scaler.update()
            _same(w.numpy(), step["w"])
            _same(scaler._scale.numpy(), step["scale"])
            opt.clear_grad()


def test_scaler_api_and_errors(gpu_like):
    g = G["scaler_api"]
    s = amp.GradScaler()
    assert [s.get_init_loss_scaling(), s.get_incr_ratio(), s.get_decr_ratio(),
            s.get_incr_every_n_steps(), s.get_decr_every_n_nan_or_inf(), s.is_enable(),
            s.is_use_dynamic_loss_scaling()] == [g["init"], g["incr_ratio"], g["decr_ratio"],
                                                 g["incr_every"], g["decr_every"], g["enable"],
                                                 g["dynamic"]]
    s.set_init_loss_scaling(100.0)
    assert [s.get_init_loss_scaling(), s._scale.numpy().tolist()] == g["after_set_init"]
    assert caught(lambda: s.set_incr_ratio(0.5)) == g["bad_incr"]
    assert caught(lambda: s.set_decr_ratio(2.0)) == g["bad_decr"]
    w = make_parameter(torch.ones(2), "w")
    opt = _SGD([w])
    s = amp.GradScaler(init_loss_scaling=4.0)
    s.scale((w * 2).sum()).backward()
    s.unscale_(opt)
    assert caught(lambda: s.unscale_(opt)) == g["unscale_twice"]
    s.step(opt)
    assert caught(lambda: s.step(opt)) == g["step_twice"]
    assert caught(lambda: s.unscale_(opt)) == g["unscale_after_step"]
    s.update()
    assert caught(lambda: amp.GradScaler().load_state_dict({})) == g["load_empty"]
    # state_dict round trip
    s.set_incr_every_n_steps(7)
    s2 = amp.GradScaler()
    s2.load_state_dict(s.state_dict())
    assert s2.get_incr_every_n_steps() == 7 and s2.get_init_loss_scaling() == 4.0


def test_scaler_switches_off_for_bfloat16(gpu_like, monkeypatch):
    g = G["scaler_api"]["bf16_scale"]
    monkeypatch.setattr(amp.auto_cast.__globals__["_global"], "amp_dtype", "bfloat16")
    s = amp.GradScaler()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = s.scale(paddle.to_tensor(2.0))
    assert [out.numpy().tolist(), s.is_enable(), s.is_use_dynamic_loss_scaling(),
            s.get_init_loss_scaling(), [str(m.message) for m in w]] == \
        [g["out"], g["enable"], g["dynamic"], g["init"], g["warnings"]]


def test_scaler_is_off_on_cpu_as_in_paddle():
    g = G["scaler_api"]["cpu"]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s = amp.GradScaler()
    assert s.is_enable() is g["enable"] is False and s.state_dict() == g["state_dict"]
    assert [str(m.message) for m in w] == g["warnings"]
    assert s.scale(paddle.to_tensor(3.0)).numpy().tolist() == g["scale"]


def test_paddle_crashes_printing_the_decrease_with_numpy_2_4():
    # Paddle 3.3.1's _update does float(shape-[1] tensor), a TypeError under numpy 2.4; its
    # docs describe a decrease with a message, which is what we do (see the sequences above).
    assert G["update_crash_numpy24"][0] == "TypeError"
