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


@pytest.mark.parametrize("cid,code", CASES, ids=[c[0] for c in CASES])
def test_case(cid, code):
    grad_mode = torch.is_grad_enabled()
    default = paddle.get_default_dtype()
    got = run_case(code, paddle)
    assert_same(got, GOLDEN[cid], cid)
    # no case, failing or not, leaves global state behind
    assert torch.is_grad_enabled() == grad_mode
    assert paddle.get_default_dtype() == default
