"""The model-zoo debugging tools (tools/model_zoo/trace.py, gradtrace.py) on the one setup that
needs no extracted sources (paddle.vision's LeNet with the weights Paddle saved): the float64
mode evaluates the same float32 weights and data in float64, the gradient dump reproduces the
runner's losses, the half-ulp jitter moves the loss by rounding only."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ZOO = os.path.join(ROOT, "tools", "model_zoo")
GOLDEN = os.path.join(ROOT, "tests", "goldens", "model_zoo", "LeNet_vision.json")
ENV = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONWARNINGS="ignore")


def ours(script, *args):
    subprocess.run([sys.executable, "-m", "paddle_compat", os.path.join(ZOO, script), *args],
                   env=ENV, check=True, capture_output=True, cwd=ROOT)


@pytest.fixture(scope="module")
def golden():
    with open(GOLDEN) as f:
        return json.load(f)


def test_trace_float64_is_the_float32_network_in_float64(tmp_path, golden):
    f32, f64 = tmp_path / "f32.npz", tmp_path / "f64.npz"
    ours("trace.py", "LeNet_vision", str(f32))
    ours("trace.py", "LeNet_vision", str(f64), "--float64")
    a, b = np.load(f32), np.load(f64)
    assert a.files == b.files and len(a.files) > 5
    assert b["9999:loss"].dtype == np.float64 and a["9999:loss"].dtype == np.float32
    want = golden["losses"][0]          # Paddle's float32 first-step loss
    assert float(a["9999:loss"]) == pytest.approx(want, rel=2e-6)
    # the same weights (Paddle's .pdparams) and data: float32 rounding apart, not more
    assert float(b["9999:loss"]) == pytest.approx(want, rel=2e-6)
    assert float(b["9999:loss"]) != float(a["9999:loss"])


def test_gradtrace_follows_the_runner_and_jitter_is_rounding_sized(tmp_path, golden):
    plain, jit = tmp_path / "g.npz", tmp_path / "j.npz"
    ours("gradtrace.py", "LeNet_vision", str(plain), "--steps", "2")
    ours("gradtrace.py", "LeNet_vision", str(jit), "--steps", "2", "--jitter", "6e-8",
         "--seed", "1")
    g, j = np.load(plain), np.load(jit)
    for step in (0, 1):
        assert float(g[f"s{step}:loss"]) == pytest.approx(golden["losses"][step], rel=2e-5)
        assert float(j[f"s{step}:loss"]) == pytest.approx(float(g[f"s{step}:loss"]), rel=1e-5)
    grads = [k for k in g.files if k.startswith("s0:") and not k.endswith("loss")]
    assert len(grads) == 10                             # LeNet: 5 weights, 5 biases
    jittered = [k for k in grads if not np.array_equal(g[k], j[k])]
    assert jittered, "the jitter changed no gradient"
    for k in grads:
        assert np.abs(g[k] - j[k]).max() <= 1e-4 * np.abs(g[k]).max(), k
