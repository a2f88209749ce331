"""Float64 precision against real Paddle 3.3.1 (tests/goldens/float64.json, recorded by
tools/goldens/record_float64.py): creation ops fed Python floats, Python-scalar operands,
``__setitem__``, the float64 default dtype, and every op with scalar float attributes, on float64
inputs.

Paddle carries a Python float at double precision into float64 tensors, except where its kernel
takes the attribute as a C++ ``float`` (elu's alpha, pow's factor, hardsigmoid's slope ...):
there a float64 computation sees float32(0.1). Both are reproduced, so the values agree to 1e-14
relative (scaled by the largest value of the tensor, for entries near zero); a path that went
through float32 where Paddle does not, or the other way round, is off by ~1e-9.
"""
import json
import math
import os

import numpy as np
import pytest

import paddle_compat as paddle
import paddle_compat.nn.functional as F
from golden_utils import describe

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "goldens", "float64.json")) as f:
    _GOLDEN = json.load(f)
PRELUDE = _GOLDEN["prelude"]
CASES = _GOLDEN["cases"]
RTOL = 1e-14


def _floats(values):
    """Recorded values as a numpy array (complex as [re, im] pairs; non-finite as their repr)."""
    return np.array([complex(*v) if isinstance(v, list) else float(v) for v in values])


def assert_same(got, want, where):
    """Structure, dtypes and shapes exactly; float values within RTOL of the value, or of the
    tensor's largest magnitude; everything else equal."""
    if isinstance(want, dict) and "values" in want:
        assert isinstance(got, dict) and "values" in got, f"{where}: got {got!r}"
        for k in ("dtype", "ndarray", "shape", "stop_gradient"):
            assert got.get(k) == want.get(k), f"{where}.{k}: got {got.get(k)!r}, want {want.get(k)!r}"
        dt = want.get("dtype") or want.get("ndarray")
        if dt.startswith(("float", "complex", "bfloat")):
            g, w = _floats(got["values"]), _floats(want["values"])
            scale = np.abs(w[np.isfinite(w)]).max(initial=0.0)
            np.testing.assert_allclose(g, w, rtol=RTOL, atol=RTOL * scale, equal_nan=True,
                                       err_msg=where)
        else:
            assert got["values"] == want["values"], f"{where}: got {got['values']}"
    elif isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{where}: got {got!r}, want {want!r}"
        for k in want:
            assert_same(got[k], want[k], f"{where}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: got {got!r}"
        for i, (a, b) in enumerate(zip(got, want)):
            assert_same(a, b, f"{where}[{i}]")
    elif isinstance(want, float):
        assert isinstance(got, float) and math.isclose(got, want, rel_tol=RTOL), \
            f"{where}: got {got!r}, want {want!r}"
    else:
        assert got == want, f"{where}: got {got!r}, want {want!r}"


def run(code):
    env = {"paddle": paddle, "F": F, "np": np}
    exec(PRELUDE, env)
    try:
        exec(code, env)
        return describe(env["out"], paddle)
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return describe(e, paddle)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_float64(case):
    got = run(case["code"])
    assert paddle.get_default_dtype() == "float32"
    assert_same(got, case["expected"], case["id"])


def test_table_covers_attribute_ops():
    """The table names each creation op and each op with scalar float attributes."""
    ids = {c["id"].split("[")[0] for c in CASES}
    for name in ("to_tensor", "full", "full_like", "arange", "linspace", "logspace", "assign",
                 "Tensor.fill_", "Tensor.fill_diagonal_", "where", "scale", "clip", "pow",
                 "lerp", "addmm", "stanh", "logit", "F.elu", "F.celu", "F.leaky_relu",
                 "F.selu", "F.hardsigmoid", "F.hardtanh", "F.hardshrink", "F.softshrink",
                 "F.thresholded_relu", "F.softplus", "F.mish", "F.gelu", "F.rrelu"):
        assert name in ids, name
    assert len(CASES) >= 200
