"""``paddle.nn.Layer``, the layers, the initializers and ``nn.utils`` against goldens recorded
from Paddle 3.3.1 (tools/goldens/record_nn_layers.py).

Every case runs its recorded code with paddle_compat after resetting the unique-name counters
(the recorder ran each case in a fresh ``unique_name.guard()``), so layer and parameter names
compare exactly. ``init_*`` cases compare initial values bit for bit: with the same
``paddle.seed`` the initializers draw Paddle's CPU stream (uniform, gaussian, truncated
gaussian). Layers compare by their repr (what ``print`` shows).
"""
import copy
import json
import os

import numpy as np
import pytest
import torch

import paddle_compat as paddle
import paddle_compat.nn as nn
from golden_utils import assert_same, depth_of, depth_tol, describe

GOLDENS = os.path.join(os.path.dirname(__file__), "goldens", "nn_layers.json")
with open(GOLDENS) as _f:
    _DATA = json.load(_f)
PRELUDE = _DATA["prelude"]
CASES = {c["id"]: c for c in _DATA["cases"]}

# Orthogonal goes through a QR factorisation (LAPACK in both, but not the same calls), so its
# values agree to rounding only.
_NOT_BITWISE = {"init_orthogonal"}

# Attention and encoder stacks chain several matmuls, softmax and layer norms (and the
# orthogonal initialiser a QR factorisation): their float32 results differ in the last digits
# between CPUs (an AMD machine's BLAS kernels differ from an Intel one's), so a case whose code
# names such a construct (golden_utils.DEEP_MARKERS) compares with the "deep" tolerance.


def _fresh_names():
    paddle.utils.unique_name.switch()


def run(code):
    _fresh_names()
    env = {"paddle": paddle, "np": np}
    exec(PRELUDE, env)
    try:
        exec(code, env)
        return describe(env["out"], paddle)
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return describe(e, paddle)


def _assert_bitwise(got, want, where="out"):
    if isinstance(want, dict) and "values" in want:
        assert got["values"] == want["values"], f"{where}: not bit-exact"
    elif isinstance(want, list):
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_bitwise(g, w, f"{where}[{i}]")


@pytest.mark.parametrize("cid", sorted(CASES))
def test_golden(cid):
    want = CASES[cid]["expected"]
    got = run(CASES[cid]["code"])
    assert_same(got, want, tol=depth_tol(depth_of(CASES[cid]["code"])))
    if cid.startswith("init_") and cid not in _NOT_BITWISE:
        _assert_bitwise(got, want)


# ------------------------------------------------------------------ beyond the goldens
def test_call_has_no_hook_overhead_path():
    m = nn.Linear(2, 2)
    assert not m._forward_pre_hooks and not m._forward_post_hooks
    x = paddle.ones([1, 2])
    np.testing.assert_allclose(m(x).numpy(), (x @ m.weight + m.bias).numpy())


def test_hook_with_kwargs_and_always_call():
    m = nn.Linear(2, 2)
    seen = []
    m.register_forward_pre_hook(lambda layer, args, kwargs: (args, kwargs), with_kwargs=True)
    m.register_forward_post_hook(lambda layer, i, o: seen.append("always"), always_call=True)
    with pytest.raises(Exception):
        m(paddle.ones([1, 3]))
    assert seen == ["always"]


def test_parameters_identity_survives_to_and_astype():
    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1D(3))
    ids = [id(p) for p in m.parameters()]
    m.to(dtype="float64")
    assert [id(p) for p in m.parameters()] == ids
    assert all(p.dtype == paddle.float64 for p in m.parameters())
    assert not m[0].weight.stop_gradient and m[1]._mean.stop_gradient
    y = m(paddle.ones([4, 2], dtype="float64"))
    y.sum().backward()
    assert m[0].weight.grad.dtype == paddle.float64


def test_deepcopy_keeps_names_and_values():
    m = nn.Linear(2, 3)
    c = copy.deepcopy(m)
    assert c.weight.name == m.weight.name and c.weight is not m.weight
    np.testing.assert_array_equal(c.weight.numpy(), m.weight.numpy())
    assert c.full_name() == m.full_name()


def test_load_state_dict_strict_raises():
    m = nn.Linear(2, 2)
    with pytest.raises(RuntimeError, match="Missing key"):
        m.load_state_dict({"weight": m.weight})
    res = m.load_state_dict({"weight": m.weight, "bias": m.bias})
    assert res.missing_keys == [] and res.unexpected_keys == []


def test_layerlist_delete_and_add():
    ll = nn.LayerList([nn.Linear(1, 1), nn.ReLU(), nn.Tanh()])
    del ll[0]
    assert [type(x).__name__ for x in ll] == ["ReLU", "Tanh"]
    assert list(ll._sub_layers) == ["0", "1"]
    both = ll + nn.LayerList([nn.GELU()])
    assert len(both) == 3 and type(both[-1]).__name__ == "GELU"


def test_rmsnorm_matches_formula():
    m = nn.RMSNorm(4)
    x = paddle.to_tensor(np.arange(8, dtype="float32").reshape(2, 4))
    t = x._t
    want = t / torch.sqrt((t * t).mean(-1, keepdim=True) + 1e-5)
    np.testing.assert_allclose(m(x).numpy(), want.numpy(), rtol=1e-6)
    assert [n for n, _ in m.named_parameters()] == ["weight"]


def test_truncated_normal_stays_in_bounds_and_matches_moments():
    paddle.seed(0)
    p = paddle.create_parameter([20000], "float32",
                                default_initializer=nn.initializer.TruncatedNormal(1.0, 2.0))
    v = p.numpy()
    assert v.min() >= -2.0 and v.max() <= 2.0
    assert abs(v.mean() - 0.287) < 0.03     # mean of N(1, 2) truncated to [-2, 2]


def test_encoder_copies_get_new_parameters():
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 3)
    names = [p.name for p in enc.parameters()]
    assert len(names) == len(set(names)) == 3 * 16


def test_astype_casts_parameters_as_documented():
    """Paddle 3.3.1's ``Layer.astype`` leaves the parameters' dtype unchanged (it calls the
    out-of-place ``param._to`` and drops the result), against its own docstring, whose example
    shows the parameters cast to int8. We follow the docs."""
    m = nn.Linear(2, 2, weight_attr=nn.initializer.Constant(1.5),
                  bias_attr=nn.initializer.Constant(2.5))
    m.astype("int8")
    assert m.weight.dtype == paddle.int8 and m.bias.dtype == paddle.int8
    assert m.weight.numpy().tolist() == [[1, 1], [1, 1]] and m.bias.numpy().tolist() == [2, 2]
    assert repr(m) == "Linear(in_features=2, out_features=2, dtype=paddle.int8)"
