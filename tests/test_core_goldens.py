"""The core runtime against real Paddle's goldens (tests/goldens/core.json, recorded by
tools/goldens/record_core.py from the snippets in cases_core.py)."""
import json
import os

import pytest
import torch

import paddle_compat as paddle
from cases_core import CASES
from golden_utils import assert_same, run_case

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "goldens", "core.json")))["cases"]


# cases whose golden is the CPU build's answer, and what a CUDA machine must answer instead
CUDA_DIFFERS = {
    "place.pinned": lambda: "Place(gpu_pinned)",
    "device.count": torch.cuda.device_count,
}


@pytest.mark.parametrize("cid,code", CASES, ids=[c[0] for c in CASES])
def test_case(cid, code):
    if cid in CUDA_DIFFERS and torch.cuda.is_available():
        # recorded from Paddle's CPU build; a CUDA build answers what the device has
        got = run_case(code, paddle)
        assert got == CUDA_DIFFERS[cid](), (cid, got)
        return
    grad_mode = torch.is_grad_enabled()
    default = paddle.get_default_dtype()
    got = run_case(code, paddle)
    assert_same(got, GOLDEN[cid], cid)
    # no case, failing or not, leaves global state behind
    assert torch.is_grad_enabled() == grad_mode
    assert paddle.get_default_dtype() == default
