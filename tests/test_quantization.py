"""``paddle.quantization`` and the quantisation layers of ``paddle.nn.quant`` against Paddle
3.3.1 (tests/goldens/quantization.json, written by tools/goldens/record_quantization.py from
the cases in tests/quantization_cases.py), plus what has no CPU oracle: ``llm_int8_linear``,
``apply_per_channel_scale``, the ``quanter`` decorator, and the deliberate differences."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import paddle_compat as paddle

sys.path.insert(0, str(Path(__file__).resolve().parent))
import golden_utils  # noqa: E402
import quantization_cases  # noqa: E402

GOLDEN = json.loads((Path(__file__).resolve().parent / "goldens" / "quantization.json")
                    .read_text())
# the models stack a conv / linear on fake-quantised values: float32 compositions
MODEL_CASES = {"qat_train_and_grads", "qat_convert", "ptq_absmax", "qat_config_overrides",
               "qat_layer_config_and_leaf", "imperative_qat", "imperative_ptq",
               "quant_layers_wrappers"}
# Paddle reports stop_gradient=True on a gradient that reached a leaf through its legacy
# moving_average_abs_max_scale op (QuantStub, the wrappers of ImperativeQuantAware); ours
# are ordinary gradients (False). The values are compared all the same.
GRAD_FLAG_CASES = {"quant_stub", "imperative_qat"}


def _drop_flags(d):
    if isinstance(d, dict):
        return {k: _drop_flags(v) for k, v in d.items() if k != "stop_gradient"}
    if isinstance(d, list):
        return [_drop_flags(v) for v in d]
    return d


def run(code):
    env = {"paddle": paddle, "np": np}
    try:
        exec(quantization_cases.PREAMBLE, env)
        exec(code, env)
        return golden_utils.describe(env["out"], paddle)
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return golden_utils.describe(e, paddle)


@pytest.mark.parametrize("name", [n for n in GOLDEN if n not in quantization_cases.KNOWN])
def test_matches_paddle(name):
    case = GOLDEN[name]
    assert case["code"] == quantization_cases.CASES[name], "re-record the goldens"
    want = dict(case["out"]) if isinstance(case["out"], dict) else case["out"]
    if isinstance(want, dict):
        want.pop("message", None)
    tol = golden_utils.depth_tol("deep" if name in MODEL_CASES else "op")
    got = run(case["code"])
    if name in GRAD_FLAG_CASES:
        got, want = _drop_flags(got), _drop_flags(want)
    golden_utils.assert_same(got, want, name, tol)


def test_known_differences_are_recorded():
    for name, reason in quantization_cases.KNOWN.items():
        assert "error" in GOLDEN[name]["out"], (name, reason)


def test_qat_convert_works_where_paddle_crashes():
    # Paddle 3.3.1: TypeError (its quanter's zero_points() is None); its docs convert
    got = run(quantization_cases.CASES["qat_convert_unpatched"])
    assert got == GOLDEN["qat_convert"]["out"][0]


def test_hist_quantizer_threshold():
    # Paddle 3.3.1's cal_thresholds fails under NumPy 2 (float() of a 1-element array);
    # its formula: the bin where the normalised cumulative histogram reaches hist_percent,
    # (index - 0.5) * bin width
    got = run(quantization_cases.CASES["quantizers_hist_thresholds"])
    x = np.abs(np.linspace(-3, 3, 100).astype("float32"))
    hist = np.histogram(x, range=(0, float(x.max())), bins=1024)[0].astype(np.float32)
    cdf = np.cumsum(hist / hist.sum(dtype=np.float64))
    idx = int(np.nonzero(cdf >= 0.99)[0][0])
    assert got == [pytest.approx((idx - 0.5) * float(x.max()) / 1024, rel=1e-12)]
    # and from the histograms Paddle built from the recorded data
    for (_, hist, _, pct), kw in zip(
            [[c[0], c[1], c[2], c[3]] for c in GOLDEN["quantizers_hist"]["out"]],
            ({}, {"bins": 256, "upsample_bins": 8})):
        q = paddle.quantization.HistQuantizer(**kw)
        r = np.random.RandomState(230)
        for sc in (1.0, 0.5, 3.0, 2.0):
            a = (r.standard_t(4, size=(64, 32)) * sc).astype("float32")
            q.sample_data(None, (paddle.to_tensor(a), paddle.to_tensor(np.zeros(3, "float32"))))
        q.cal_thresholds()
        h = np.array(hist["values"], dtype=np.float64)
        cdf = np.cumsum(h / h.sum())
        idx = int(np.nonzero(cdf >= pct)[0][0])
        assert q.thresholds[0] == pytest.approx((idx - 0.5) * q.abs_max_vals[0] / h.size,
                                                rel=1e-12)
        assert q.thresholds[1] == 0.0


def test_fake_quant_rounds_half_away_and_passes_gradient_through():
    from paddle_compat.quantization.quanters import FakeQuanterWithAbsMaxObserver
    layer = FakeQuanterWithAbsMaxObserver()._instance(None)
    layer._scale.set_value(paddle.to_tensor([127.0]))
    layer.eval()
    x = paddle.to_tensor([0.5, -0.5, 1.5, -2.5, 500.0], stop_gradient=False)
    y = layer(x)
    np.testing.assert_array_equal(y.numpy(), [1.0, -1.0, 2.0, -3.0, 127.0])
    (y * paddle.to_tensor([1.0, 2, 3, 4, 5])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 2, 3, 4, 5])


@paddle.quantization.quanter("HalfQuanter")
class HalfQuanterLayer(paddle.quantization.BaseQuanter):
    """A user quanter declared with the decorator: multiplies by ``factor``."""

    def __init__(self, layer, factor=0.5):
        super().__init__()
        self.factor = factor

    def forward(self, input):
        return input * self.factor

    def scales(self):
        return paddle.to_tensor([self.factor])

    def zero_points(self):
        return paddle.to_tensor([0.0])

    def quant_axis(self):
        return -1

    def bit_length(self):
        return 8


def test_quanter_decorator_declares_a_factory():
    paddle.seed(7)
    factory = HalfQuanter(factor=0.25)  # noqa: F821 - declared by the decorator
    assert str(factory) == "HalfQuanter(factor=0.25)"
    assert isinstance(factory, paddle.quantization.factory.QuanterFactory)
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 2))
    qm = paddle.quantization.QAT(paddle.quantization.QuantConfig(activation=factory,
                                                                 weight=None)).quantize(net)
    assert type(qm[0].activation_quanter) is HalfQuanterLayer
    x = paddle.ones([1, 2])
    np.testing.assert_allclose(qm(x).numpy(), net[0](x * 0.25).numpy(), rtol=1e-6)


def test_save_quantized_model_is_refused():
    with pytest.raises(NotImplementedError, match="save_quantized_model"):
        paddle.quantization.ImperativePTQ().save_quantized_model(paddle.nn.ReLU(), "/tmp/x")
    with pytest.raises(NotImplementedError, match="save_quantized_model"):
        paddle.quantization.ImperativeQuantAware().save_quantized_model(paddle.nn.ReLU(), "x")
    with pytest.raises(NotImplementedError, match="GroupWiseWeightObserver"):
        paddle.quantization.observers.GroupWiseWeightObserver()


def test_apply_per_channel_scale():
    # no CPU kernel in Paddle 3.3.1; the GPU kernel scales the last axis
    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    s = paddle.to_tensor([1.0, 0.5, 2.0])
    np.testing.assert_array_equal(paddle.nn.quant.apply_per_channel_scale(x, s).numpy(),
                                  [[0, 0.5, 4], [3, 2, 10]])


@pytest.mark.parametrize("threshold", [6.0, 1.5, 100.0])
def test_llm_int8_linear(threshold):
    # no CPU kernel in Paddle 3.3.1: the LLM.int8() decomposition, checked against float
    rng = np.random.default_rng(0)
    w = rng.standard_normal((5, 8)).astype("float32")
    x = rng.standard_normal((2, 3, 8)).astype("float32")
    x[0, 1, 2] = 7.0                          # an outlier feature
    scale = np.abs(w).max(1) / 127
    q = np.round(w / scale[:, None]).astype("int8")
    b = rng.standard_normal(5).astype("float32")
    got = paddle.nn.quant.llm_int8_linear(paddle.to_tensor(x), paddle.to_tensor(q),
                                          paddle.to_tensor(b), paddle.to_tensor(scale),
                                          threshold=threshold)
    assert got.shape == [2, 3, 5] and got.dtype == paddle.float32
    wd = q.astype(np.float64) * scale[:, None]
    ref = x.astype(np.float64) @ wd.T + b
    np.testing.assert_allclose(got.numpy(), ref, rtol=0, atol=0.2)     # int8 rounding of x
    # the outlier columns are exact: the rest carry x's int8 rounding only
    cols = np.abs(x.reshape(-1, 8)).max(0) >= threshold
    xk = x.reshape(-1, 8)[:, ~cols].astype(np.float64)
    row = np.abs(xk).max(1) / 127
    qx = np.round(xk / row[:, None])
    ref2 = (x.reshape(-1, 8)[:, cols].astype(np.float64) @ wd[:, cols].T
            + (qx @ q[:, ~cols].T.astype(np.float64)) * row[:, None] * scale[None, :] + b)
    np.testing.assert_allclose(got.numpy().reshape(-1, 5), ref2, rtol=1e-6, atol=1e-6)


@pytest.mark.cuda
@pytest.mark.parametrize("name", ["qat_train_and_grads", "ptq_absmax", "imperative_qat",
                                  "quant_layers_fake_quant"])
def test_on_cuda_as_on_cpu(name):
    code = quantization_cases.CASES[name]
    want = run(code)
    paddle.set_device("gpu")
    try:
        got = run(code)
    finally:
        paddle.set_device("cpu")
    got, want = _drop_flags(got), _drop_flags(want)
    golden_utils.assert_same(got, want, name, golden_utils.depth_tol("deep"))
