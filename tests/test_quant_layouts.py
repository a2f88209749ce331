"""``paddle.nn.quant.weight_quantize`` with an explicit ``arch``: the stored int8/int4 bytes
and the scales, against Paddle 3.3.1's CPU kernel (tests/goldens/quant_layouts.json, written
by tools/goldens/record_quant_layouts.py), and ``weight_only_linear`` reading those layouts
back."""
import builtins
import json
from pathlib import Path

import numpy as np
import pytest
import torch

import paddle_compat as paddle

ROOT = Path(__file__).resolve().parents[1]
CASES = json.loads((ROOT / "tests" / "goldens" / "quant_layouts.json").read_text())["cases"]


def weight(dtype, shape, seed, special=""):
    """The recorder's inputs (tools/goldens/record_quant_layouts.py), exact in ``dtype``."""
    rng = np.random.default_rng(seed)
    den = 1024 if dtype == "float16" else 256
    w = rng.integers(-den + 1, den, size=shape).astype(np.float64) / den
    if "zero" in special:
        w[:, 1] = 0.0
        w[:, 2] = -0.0
        w[0, 3] = -0.0
    if "nan" in special:
        w[5, 4] = np.nan
        w[0, 6] = np.nan
    return w


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_weight_quantize_matches_paddle(case):
    x = paddle.to_tensor(weight(case["dtype"], case["shape"], case["seed"], case["special"]))
    x = x.astype(case["dtype"])
    if "error" in case:
        with pytest.raises(getattr(builtins, case["error"])):
            paddle.nn.quant.weight_quantize(x, algo=case["algo"], arch=case["arch"])
        return
    q, s = paddle.nn.quant.weight_quantize(x, algo=case["algo"], arch=case["arch"])
    assert q.dtype == paddle.int8 and list(q.shape) == case["q_shape"]
    assert q.numpy().view(np.uint8).tobytes().hex() == case["q"]
    assert str(s.dtype).replace("paddle.", "") == case["scale_dtype"]
    want = np.array([float(v) for v in case["scale"]], dtype=np.float32)
    got = s.astype("float32").numpy()
    # bit for bit (so -0.0 counts), NaN as NaN
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))


@pytest.mark.parametrize("algo,dtype", [("weight_only_int8", "int8"),
                                        ("weight_only_int4", "int4")])
@pytest.mark.parametrize("arch", [70, 75, 80, 90])
def test_weight_only_linear_reads_the_arch_layout(algo, dtype, arch):
    w = weight("float16", (128, 48), 7)
    q, s = paddle.nn.quant.weight_quantize(paddle.to_tensor(w).astype("float16"), algo=algo,
                                           arch=arch)
    # the quantised values, from the formula (scale in float16, round half away from zero)
    bound = 127 if dtype == "int8" else 7
    sc = s.astype("float32").numpy()
    v = w.astype(np.float32) / sc
    qv = np.clip(np.sign(v) * np.floor(np.abs(v).astype(np.float64) + 0.5), -bound, bound)
    x = np.random.default_rng(3).uniform(-1, 1, (5, 128)).astype(np.float32)
    out = paddle.nn.quant.weight_only_linear(paddle.to_tensor(x), q, weight_scale=s,
                                             weight_dtype=dtype, arch=arch)
    want = x @ (qv * sc).astype(np.float32)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-5)


def test_without_arch_the_plain_layout_stays():
    w = torch.randn(32, 16)
    q, s = paddle.nn.quant.weight_quantize(paddle.to_tensor(w.numpy()))
    assert list(q.shape) == [16, 32]
    with pytest.raises(NotImplementedError, match="algo"):
        paddle.nn.quant.weight_quantize(paddle.to_tensor(w.numpy()), algo="weight_only_int4")
    with pytest.raises(NotImplementedError, match="multiple of 64"):
        paddle.nn.quant.weight_quantize(paddle.to_tensor(w.numpy()), arch=80)
