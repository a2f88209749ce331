"""paddle.vision.models against real Paddle 3.3.1 (goldens from
tools/goldens/record_vision_models.py, which stores each case's code with its result).

Every architecture: state_dict keys and shapes as Paddle has them (so Paddle checkpoints load
unchanged), the seeded initial weights (each entry's sum, float64: the weights are drawn
bit-exactly), an eval-mode forward (deep float32 tolerance); LeNet loading a .pdparams file
saved by Paddle; three SGD steps of ResNet-18 and MobileNetV2; constructor signatures, errors,
re-exports, and ``pretrained=True`` reading Paddle's local cache without downloading.
"""
import json
import os

import numpy as np
import pytest

import paddle_compat as paddle
import paddle_compat.vision  # noqa: F401  (binds paddle.vision)
from paddle_compat.utils import download
from paddle_compat.vision.models import resnet as resnet_mod

from golden_utils import DEPTH_TOL

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "goldens", "vision_models.json")) as f:
    G = json.load(f)
CASES = G["cases"]
ARCH = sorted(k for k, v in CASES.items() if isinstance(v["result"], dict) and "params" in v["result"])
RTOL, ATOL = DEPTH_TOL["deep"]
# the relative tolerance of the training losses (issue 17)
LOSS_RTOL = 1e-4


def run(code, extra=None):
    env = {"paddle": paddle, "np": np}
    exec(G["prelude"], env)
    env.update(extra or {})
    exec(code, env)
    return env["out"]


def _close_stats(got, want, where):
    assert got["shape"] == want["shape"], f"{where}: shape {got['shape']} != {want['shape']}"
    key = "values" if "values" in want else "samples"
    np.testing.assert_allclose(got[key], want[key], rtol=RTOL, atol=ATOL, err_msg=where)
    # a sum may cancel: measure its error against the absolute sum
    assert abs(got["sum"] - want["sum"]) <= RTOL * want["abs"] + ATOL, \
        f"{where}: sum {got['sum']} != {want['sum']}"
    assert abs(got["abs"] - want["abs"]) <= RTOL * want["abs"] + ATOL, \
        f"{where}: abs sum {got['abs']} != {want['abs']}"


def test_golden_covers_every_family():
    fams = ("lenet", "resnet", "resnext", "vgg", "mobilenet_v1", "mobilenet_v2", "mobilenet_v3_small",
            "mobilenet_v3_large", "alexnet", "squeezenet", "shufflenet", "densenet", "googlenet",
            "inception")
    for fam in fams:
        assert any(c.startswith(fam) for c in ARCH), fam


@pytest.mark.parametrize("cid", ARCH)
def test_architecture_matches_paddle(cid):
    case = CASES[cid]
    got, want = run(case["code"]), case["result"]
    # state_dict keys and shapes in Paddle's order
    assert [p[:2] for p in got["params"]] == [p[:2] for p in want["params"]]
    # the seeded initial weights: drawn bit-exactly, so their float64 sums agree closely
    for g, w in zip(got["params"], want["params"]):
        assert abs(g[2] - w[2]) <= 1e-9 * w[3] + 1e-12, f"{cid}: {w[0]} sum {g[2]} != {w[2]}"
        assert abs(g[3] - w[3]) <= 1e-9 * w[3] + 1e-12, f"{cid}: {w[0]} |sum| {g[3]} != {w[3]}"
    outs_w = want["out"] if isinstance(want["out"], list) else [want["out"]]
    outs_g = got["out"] if isinstance(got["out"], list) else [got["out"]]
    assert len(outs_g) == len(outs_w)
    for i, (g, w) in enumerate(zip(outs_g, outs_w)):
        _close_stats(g, w, f"{cid} out[{i}]")


def test_lenet_loads_paddle_pdparams():
    case = G["lenet_pdparams"]
    path = os.path.join(HERE, "goldens", "vision_lenet.pdparams")
    got = run(case["code"], {"PATH": path})
    want = case["result"]
    for g, w in zip(got["params"], want["params"]):
        assert g[:2] == w[:2]
        assert abs(g[2] - w[2]) <= 1e-9 * w[3] + 1e-12, w[0]
    _close_stats(got["out"], want["out"], "lenet_pdparams")
    # the checkpoint's keys are exactly the model's: set_state_dict reports nothing missing
    m = paddle.vision.models.LeNet()
    missing, unexpected = m.set_state_dict(paddle.load(path))
    assert list(missing) == [] and list(unexpected) == []


@pytest.mark.parametrize("cid", ["train_resnet18", "train_mobilenet_v2_frozen_bn"])
def test_three_sgd_steps_match_paddle(cid):
    got, want = run(CASES[cid]["code"]), CASES[cid]["result"]
    np.testing.assert_allclose(got, want, rtol=LOSS_RTOL, atol=0)
    assert want[0] != want[-1]                       # the steps did change the weights


def test_mobilenet_v2_train_mode_first_step():
    # MobileNetV2 trained from its random init with batch statistics is chaotic in Paddle
    # itself: an input change of 1e-6 relative moves its later losses by percents (measured),
    # so only the first step (train-mode batch norm, the seeded dropout draw) is compared.
    got, want = run(CASES["train_mobilenet_v2"]["code"]), CASES["train_mobilenet_v2"]["result"]
    np.testing.assert_allclose(got[0], want[0], rtol=LOSS_RTOL, atol=0)


def test_signatures_match_paddle():
    assert run(CASES["signatures"]["code"]) == CASES["signatures"]["result"]


def test_errors_match_paddle():
    assert run(CASES["errors"]["code"]) == CASES["errors"]["result"]


def test_intermediate_layer_getter():
    got, want = run(CASES["intermediate_layers"]["code"]), CASES["intermediate_layers"]["result"]
    assert got[-1] == want[-1]
    for g, w in zip(got[:-1], want[:-1]):
        assert g[:2] == w[:2]
        assert g[2] == pytest.approx(w[2], rel=RTOL)


def test_vision_reexports():
    assert run(CASES["vision_reexport"]["code"]) == CASES["vision_reexport"]["result"]
    assert paddle.vision.resnet18 is paddle.vision.models.resnet18
    assert len(paddle.vision.models.__all__) == 51


def test_pretrained_missing_file_says_where_to_put_it(tmp_path, monkeypatch):
    monkeypatch.setattr(download, "WEIGHTS_HOME", str(tmp_path))
    with pytest.raises(RuntimeError) as exc:
        paddle.vision.models.resnet18(pretrained=True)
    msg = str(exc.value)
    assert str(tmp_path / "resnet18.pdparams") in msg
    assert "https://paddle-hapi.bj.bcebos.com/models/resnet18.pdparams" in msg


def test_pretrained_reads_the_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(download, "WEIGHTS_HOME", str(tmp_path))
    paddle.seed(5)
    src = paddle.vision.models.resnet18(num_classes=3)
    paddle.save(src.state_dict(), str(tmp_path / "resnet18.pdparams"))
    # a file whose md5 is not Paddle's is refused, naming the path
    with pytest.raises(RuntimeError, match="md5"):
        paddle.vision.models.resnet18(pretrained=True, num_classes=3)
    url = resnet_mod.model_urls["resnet18"][0]
    monkeypatch.setitem(resnet_mod.model_urls, "resnet18", (url, None))
    paddle.seed(6)
    m = paddle.vision.models.resnet18(pretrained=True, num_classes=3)
    for (k, a), (k2, b) in zip(src.state_dict().items(), m.state_dict().items()):
        assert k == k2
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_pretrained_without_weights_for_the_arch():
    with pytest.raises(AssertionError, match="pretrained=False"):
        paddle.vision.models.vgg11(pretrained=True)
