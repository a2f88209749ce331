"""The recurrent layers and the Transformer's decoder side against goldens recorded from
Paddle 3.3.1 (tools/goldens/record_rnn.py).

Each case runs its recorded code after resetting the unique-name counters (the recorder ran
each in a fresh ``unique_name.guard()``). ``init_*`` cases compare the parameters drawn after
``paddle.seed`` bit for bit; forward and gradient values compare with the "deep" float32
tolerance of golden_utils (a recurrence chains a matmul and gate nonlinearities per step) and
float64 with the float64 one. ``pdparams_lstm_load`` loads a state dict that Paddle saved
(tests/data/paddle/lstm.pdparams).
"""
import json
import os
import warnings

import numpy as np
import pytest
import torch

import paddle_compat as paddle
import paddle_compat.nn as nn
from golden_utils import assert_same, depth_of, depth_tol, describe

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "goldens", "rnn.json")) as _f:
    _DATA = json.load(_f)
PRELUDE = _DATA["prelude"]
CASES = {c["id"]: c for c in _DATA["cases"]}
PDPARAMS = os.path.join(HERE, "data", "paddle", "lstm.pdparams")

# Deliberate differences from Paddle 3.3.1, with the reason.
KNOWN = {}


def run(code):
    paddle.utils.unique_name.switch()
    env = {"paddle": paddle, "np": np, "PDPARAMS": PDPARAMS}
    exec(PRELUDE, env)
    try:
        exec(code, env)
        return describe(env["out"], paddle)
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return describe(e, paddle)


def _assert_bitwise(got, want, where="out"):
    if isinstance(want, dict) and "values" in want:
        assert got["values"] == want["values"], f"{where}: not bit-exact"
    elif isinstance(want, dict):
        for k in want:
            _assert_bitwise(got[k], want[k], f"{where}.{k}")
    elif isinstance(want, list):
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_bitwise(g, w, f"{where}[{i}]")


@pytest.mark.parametrize("cid", sorted(CASES))
def test_golden(cid):
    if cid in KNOWN:
        pytest.skip(KNOWN[cid])
    code = CASES[cid]["code"]
    want = CASES[cid]["expected"]
    got = run(code)
    assert_same(got, want, tol=depth_tol(depth_of(code)))
    if cid.startswith("init_"):
        _assert_bitwise(got, want)


# ------------------------------------------------------------------ beyond the goldens
def _x(*shape, seed=0, dtype="float32"):
    return paddle.to_tensor(np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype))


@pytest.mark.parametrize("mode", ["LSTM", "GRU", "SimpleRNN"])
@pytest.mark.parametrize("direction", ["forward", "bidirect"])
def test_fused_path_equals_cell_loop(mode, direction):
    """The fused kernel and the step-by-step loop over the same cells agree (values and
    gradients), with and without sequence_length."""
    m = getattr(nn, mode)(3, 4, num_layers=2, direction=direction)
    for seq in (None, paddle.to_tensor([5, 2, 4])):
        x1 = _x(3, 5, 3)
        x1.stop_gradient = False
        x2 = _x(3, 5, 3)
        x2.stop_gradient = False
        zeros = tuple(paddle.zeros([2 * m.num_directions, 3, 4])
                      for _ in range(m.state_components))
        y1, s1 = m(x1, None, seq)
        y2, s2 = m._stepwise(x2, zeros, seq, zero_padded=True)
        np.testing.assert_allclose(y1.numpy(), y2.numpy(), rtol=1e-5, atol=1e-6)
        for a, b in zip(s1 if isinstance(s1, tuple) else [s1],
                        s2 if isinstance(s2, tuple) else [s2]):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
        y1.sum().backward()
        g1 = x1.grad.numpy().copy()
        m.clear_gradients()
        y2.sum().backward()
        np.testing.assert_allclose(g1, x2.grad.numpy(), rtol=1e-5, atol=1e-6)
        m.clear_gradients()


def test_lstm_matches_torch_lstm_with_shared_weights():
    """Gate order i, f, g, o: copying the parameters into torch.nn.LSTM gives the same
    outputs."""
    m = nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    ref = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True)
    with torch.no_grad():
        for name, p in ref.named_parameters():
            p.copy_(getattr(m, name)._t)
    x = _x(2, 5, 3)
    y, (h, c) = m(x)
    ry, (rh, rc) = ref(x._t)
    np.testing.assert_allclose(y.numpy(), ry.detach().numpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(c.numpy(), rc.detach().numpy(), rtol=1e-6, atol=1e-6)


def test_gru_cell_reset_after_formula():
    c = nn.GRUCell(3, 2)
    x, h = _x(4, 3), _x(4, 2, seed=1)
    xg = x._t @ c.weight_ih._t.t() + c.bias_ih._t
    hg = h._t @ c.weight_hh._t.t() + c.bias_hh._t
    (xr, xz, xc), (hr, hz, hc) = xg.chunk(3, -1), hg.chunk(3, -1)
    r, z = torch.sigmoid(xr + hr), torch.sigmoid(xz + hz)
    cand = torch.tanh(xc + r * hc)
    want = (h._t - cand) * z + cand
    got, _ = c(x, h)
    np.testing.assert_allclose(got.numpy(), want.detach().numpy(), rtol=1e-6, atol=1e-6)


def test_dropout_between_layers_only_in_training():
    paddle.seed(1)
    m = nn.GRU(3, 4, num_layers=3, dropout=0.5)
    x = _x(2, 5, 3)
    a, _ = m(x)
    b, _ = m(x)
    assert not np.allclose(a.numpy(), b.numpy())
    m.eval()
    c, _ = m(x)
    d, _ = m(x)
    np.testing.assert_array_equal(c.numpy(), d.numpy())
    m1 = nn.GRU(3, 4, num_layers=1, dropout=0.5)    # one layer: nothing to drop
    e, _ = m1(x)
    f, _ = m1(x)
    np.testing.assert_array_equal(e.numpy(), f.numpy())


def test_dropout_with_sequence_length_zeroes_padding():
    m = nn.LSTM(3, 4, num_layers=2, dropout=0.3, direction="bidirect")
    y, (h, c) = m(_x(3, 5, 3), sequence_length=paddle.to_tensor([5, 2, 4]))
    assert np.all(y.numpy()[1, 2:] == 0) and np.all(y.numpy()[2, 4:] == 0)
    assert h.shape == [4, 3, 4] and c.shape == [4, 3, 4]


def test_state_dict_roundtrip_between_layers():
    a = nn.GRU(3, 4, num_layers=2, direction="bidirect")
    b = nn.GRU(3, 4, num_layers=2, direction="bidirect")
    missing, unexpected = b.set_state_dict(a.state_dict())
    assert missing == [] and unexpected == []
    x = _x(2, 5, 3)
    np.testing.assert_array_equal(a(x)[0].numpy(), b(x)[0].numpy())
    only_top = {k: v for k, v in a.state_dict().items() if "." not in k}
    c = nn.GRU(3, 4, num_layers=2, direction="bidirect")
    with warnings.catch_warnings():      # the nested keys are reported missing, as in Paddle
        warnings.simplefilter("ignore")
        c.set_state_dict(only_top)       # the flat names alone are enough: shared parameters
    np.testing.assert_array_equal(a(x)[0].numpy(), c(x)[0].numpy())


def test_custom_cell_in_rnn():
    class Acc(nn.RNNCellBase):
        def forward(self, x, h):
            h = h + x
            return h * 2, h

        @property
        def state_shape(self):
            return (3,)

    m = nn.RNN(Acc())
    x = paddle.ones([2, 4, 3])
    y, h = m(x)
    np.testing.assert_array_equal(h.numpy(), np.full([2, 3], 4.0, "float32"))
    np.testing.assert_array_equal(y.numpy()[0, :, 0], [2.0, 4.0, 6.0, 8.0])


def test_transformer_decoder_layer_state_dict_keys():
    m = nn.TransformerDecoderLayer(8, 2, 16)
    keys = list(m.state_dict().keys())
    assert keys[:2] == ["self_attn.q_proj.weight", "self_attn.q_proj.bias"]
    assert "cross_attn.out_proj.weight" in keys and "norm3.bias" in keys


def test_backward_in_eval_mode_and_no_grad():
    m = nn.LSTM(3, 4, num_layers=2)
    x = _x(2, 5, 3)
    x.stop_gradient = False
    y, _ = m(x)
    y.sum().backward()
    g_train = x.grad.numpy().copy()
    x.clear_gradient()
    m.eval()
    y, _ = m(x)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), g_train, rtol=1e-6, atol=1e-7)
    with paddle.no_grad():
        y, (h, c) = m(x)
    assert y.stop_gradient and h.stop_gradient


def test_projected_lstm_cell_default_states():
    """Paddle 3.3.1's LSTMCell.state_shape swaps h and c when proj_size > 0, so calling a
    projected cell without states fails there (matmul shape error); we give h ``proj_size``
    columns and c ``hidden_size``, the shapes the cell computes."""
    c = nn.LSTMCell(3, 4, proj_size=2)
    assert c.state_shape == ((2,), (4,))
    y, (h, cell) = c(_x(5, 3))
    assert y.shape == [5, 2] and h.shape == [5, 2] and cell.shape == [5, 4]
