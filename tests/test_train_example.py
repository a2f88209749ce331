"""examples/train_custom_op.py (PyLayer activation, AdamW + weight decay, LinearWarmup around
CosineAnnealingDecay, ClipGradByGlobalNorm, paddle.save/load of model and optimizer at step
10) reproduces real Paddle 3.3.1's 20 losses (tests/goldens/train.json, recorded by
tools/goldens/record_train.py from the same file) to 1e-5 relative."""
import json
import os
import runpy

import numpy as np
import pytest

import paddle_compat as paddle

HERE = os.path.dirname(__file__)
EXAMPLE = os.path.join(HERE, "..", "examples", "train_custom_op.py")
with open(os.path.join(HERE, "goldens", "train.json")) as _f:
    GOLDEN = json.load(_f)


@pytest.fixture(scope="module")
def example():
    return runpy.run_path(EXAMPLE, run_name="paddle_example")


def test_initial_state_matches_golden(example):
    for k, v in example["initial_state"]().items():
        np.testing.assert_array_equal(v, np.asarray(GOLDEN["initial_state"][k], "float32"))


def test_losses_match_paddle(example):
    losses = example["main"]("cpu", verbose=False)
    assert len(losses) == 20
    np.testing.assert_allclose(losses, GOLDEN["losses"], rtol=1e-5)


@pytest.mark.cuda
def test_losses_match_paddle_on_gpu(example):
    losses = example["main"]("gpu", verbose=False)
    np.testing.assert_allclose(losses, GOLDEN["losses"], rtol=1e-4)
    paddle.set_device("cpu")
