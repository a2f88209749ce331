"""The fluid-era names Paddle 3.3.1 keeps (nn.initializer.*Initializer, optimizer.lr.*_decay)
against goldens recorded from it (tools/goldens/record_legacy_names.py)."""
import json
import os

import numpy as np
import pytest

import paddle_compat as paddle
from legacy_scenarios import SCENARIOS

GOLD = json.load(open(os.path.join(os.path.dirname(__file__), "goldens",
                                   "legacy_names.json")))["cases"]
DIAG = [0, 4, 8]        # UniformInitializer(diag_num=3, diag_step=4): the entries it sets


@pytest.fixture(scope="module")
def got():
    return {name: fn(paddle) for name, fn in SCENARIOS.items()}


@pytest.mark.parametrize("case", sorted(GOLD["initializers"]))
def test_initializers(got, case):
    want, have = GOLD["initializers"][case], got["initializers"][case]
    if case == "uniform_diag":
        # Paddle's docs: diag_num entries diag_step apart are set to diag_val; its dynamic mode
        # ignores them (the other entries are the same draws)
        assert [have[i] for i in DIAG] == [9.0] * 3
        have = [v for i, v in enumerate(have) if i not in DIAG]
        want = [v for i, v in enumerate(want) if i not in DIAG]
    np.testing.assert_allclose(have, want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("case", sorted(GOLD["lr_functions"]))
def test_lr_functions(got, case):
    want, have = GOLD["lr_functions"][case], got["lr_functions"][case]
    if isinstance(want, list):
        assert have[0] == want[0]
        np.testing.assert_allclose(have[1], want[1], rtol=1e-12)
    else:
        assert have == want


def test_lr_functions_refuse_static_mode_clearly():
    paddle.enable_static()
    try:
        with pytest.raises(NotImplementedError, match="exponential_decay in static mode"):
            paddle.optimizer.lr.exponential_decay(0.1, 10, 0.9)
    finally:
        paddle.disable_static()
    assert paddle.in_dynamic_mode()
