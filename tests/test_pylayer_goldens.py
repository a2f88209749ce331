"""Every case of test_pylayer_cases.py on paddle_compat against real Paddle's recording
(tests/goldens/pylayer.json, written by tools/goldens/record_pylayer.py)."""
import json
import math
import os

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from test_pylayer_cases import CASES, DEVIATIONS, normalize_error

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "goldens", "pylayer.json")) as f:
    GOLDEN = json.load(f)["cases"]


def encode(v):
    if isinstance(v, paddle.Tensor):
        return {"tensor": v.numpy().tolist(), "dtype": str(v.dtype).replace("paddle.", ""),
                "shape": list(v.shape), "stop_gradient": bool(v.stop_gradient)}
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return repr(v)


def same(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return (a.keys() == b.keys() and a["dtype"] == b["dtype"] and a["shape"] == b["shape"]
                and a["stop_gradient"] == b["stop_gradient"]
                and np.allclose(np.asarray(a["tensor"], dtype=float),
                                np.asarray(b["tensor"], dtype=float), rtol=1e-6, atol=1e-7))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-6)
    return a == b


def run_case(name):
    record = {"values": []}

    def rec(label, value):
        record["values"].append([label, encode(value)])
    grad_mode = torch.is_grad_enabled()
    try:
        CASES[name](paddle, rec)
    except Exception as e:      # noqa: BLE001
        record["error"] = list(normalize_error(e))
    assert torch.is_grad_enabled() == grad_mode, "a case left grad mode changed"
    return record


@pytest.mark.parametrize("name", sorted(set(CASES) - set(DEVIATIONS)))
def test_case_matches_paddle(name):
    gold = GOLDEN[name]
    assert "crash" not in gold
    got = run_case(name)
    assert got.get("error") == gold.get("error")
    assert [v[0] for v in got["values"]] == [v[0] for v in gold["values"]]
    for (label, a), (_, b) in zip(got["values"], gold["values"]):
        assert same(a, b), f"{label}: ours {a} != paddle {b}"


def test_every_case_was_recorded():
    assert set(CASES) <= set(GOLDEN)
