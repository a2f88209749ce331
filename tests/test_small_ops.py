"""Small convolutions and bmm written out for the compiled predictor (jit/small_ops.py): the
same values as ``F.conv2d`` over strides, padding, dilation, groups and dtypes, and as
``torch.bmm``; a model file's exported graph (what AOTInductor compiles) keeps no small
convolution or bmm and still gives Paddle's recorded outputs; a large convolution or bmm and a
transposed convolution stay ATen's."""
import json
import os

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import paddle_compat as paddle
from paddle_compat.jit import aot as _aot
from paddle_compat.jit import small_ops

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "model_files")

CASES = [  # x shape, w shape, bias, stride, padding, dilation, groups
    ((2, 3, 8, 8), (4, 3, 3, 3), True, 1, 1, 1, 1),
    ((2, 3, 9, 9), (4, 3, 3, 3), False, 2, 1, 1, 1),
    ((1, 4, 7, 7), (8, 2, 3, 3), True, 1, 2, 2, 2),
    ((1, 6, 5, 5), (6, 1, 3, 3), True, 1, 1, 1, 6),         # depthwise
    ((2, 6, 5, 5), (12, 6, 1, 1), True, 1, 0, 1, 1),        # pointwise
    ((1, 2, 6, 7), (3, 2, 2, 3), True, (2, 1), (0, 1), (1, 2), 1),
    ((1, 5, 4, 4), (5, 5, 5, 5), False, 3, 2, 1, 1),        # window wider than the input
]


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("case", CASES)
def test_direct_conv2d_equals_conv2d(case, dtype):
    xs, ws, bias, s, p, d, g = case
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(xs, dtype=dtype, generator=gen)
    w = torch.randn(ws, dtype=dtype, generator=gen)
    b = torch.randn(ws[0], dtype=dtype, generator=gen) if bias else None
    want = F.conv2d(x, w, b, s, p, d, g)
    got = small_ops.direct_conv2d(x, w, b, s, p, d, g)
    assert got.shape == want.shape
    tol = 1e-12 if dtype == torch.float64 else 1e-5
    torch.testing.assert_close(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_direct_bmm_equals_bmm(dtype):
    gen = torch.Generator().manual_seed(0)
    for shape in [(1, 1, 1, 1), (4, 5, 4, 5), (3, 2, 7, 1), (2, 6, 3, 6)]:
        b, n, k, m = shape
        a = torch.randn(b, n, k, dtype=dtype, generator=gen)
        c = torch.randn(b, k, m, dtype=dtype, generator=gen)
        tol = 1e-12 if dtype == torch.float64 else 1e-5
        torch.testing.assert_close(small_ops.direct_bmm(a, c), torch.bmm(a, c), rtol=tol,
                                   atol=tol)


class _Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.small = torch.nn.Parameter(torch.randn(4, 3, 3, 3))
        self.big = torch.nn.Parameter(torch.randn(64, 3, 3, 3))
        self.up = torch.nn.Parameter(torch.randn(3, 2, 2, 2))

    def forward(self, x, y):
        return (F.conv2d(x, self.small, None, 1, 1).sum()
                + F.conv2d(y, self.big, None, 1, 1).sum()            # 8x64x32x32x27 MACs
                + F.conv2d(x, self.small, None, 1, "same").sum()
                + F.conv_transpose2d(x, self.up, None, 2).sum())


def _conv_nodes(ep):
    return [n for n in ep.graph.nodes
            if n.op == "call_function" and "conv" in str(n.target)]


def _bmm_nodes(ep):
    return [n for n in ep.graph.nodes
            if n.op == "call_function" and n.target is torch.ops.aten.bmm.default]


class _Attn(torch.nn.Module):
    def forward(self, q, k, big):
        return (q @ k.transpose(-1, -2)).softmax(-1).sum() + (big @ big.transpose(1, 2)).sum()


def test_only_small_bmm_is_written_out():
    q, k, big = torch.randn(2, 2, 5, 4), torch.randn(2, 2, 5, 4), torch.randn(4, 32, 64)
    ep = torch.export.export(_Attn(), (q, k, big)).run_decompositions(
        small_ops.decompositions())
    left = _bmm_nodes(ep)
    assert [tuple(n.args[0].meta["val"].shape) for n in left] == [(4, 32, 64)]
    torch.testing.assert_close(ep.module()(q, k, big), _Attn()(q, k, big), rtol=1e-5,
                               atol=1e-3)


def test_only_small_opsolutions_are_written_out():
    net = _Net()
    x, y = torch.randn(2, 3, 8, 8), torch.randn(8, 3, 32, 32)
    ep = torch.export.export(net, (x, y))
    assert len(_conv_nodes(ep)) == 4
    out = ep.run_decompositions(small_ops.decompositions())
    left = _conv_nodes(out)
    # the big one and the transposed one stay ATen convolutions ("same" padding comes as
    # explicit padding from conv2d.padding's own decomposition and is written out)
    shapes = sorted(tuple(n.args[1].meta["val"].shape) for n in left)
    assert shapes == [(3, 2, 2, 2), (64, 3, 3, 3)]
    torch.testing.assert_close(out.module()(x, y), net(x, y), rtol=1e-5, atol=1e-2)


@pytest.mark.parametrize("name", ["cnn", "mobile"])
def test_model_file_export_has_no_small_opsolution(name):
    """What AOTInductor compiles for a model file (AotRunner._export): no convolution left,
    Paddle 3.3.1's recorded eval outputs."""
    with open(os.path.join(DATA, "expected", name + ".json")) as f:
        gold = json.load(f)
    xs = [torch.from_numpy(np.asarray(d["data"], d["dtype"]).reshape(d["shape"]))
          for d in gold["inputs"]]
    layer = paddle.jit.load(os.path.join(DATA, name))
    runner = _aot.AotRunner(layer, (), paddle.jit.StaticFunction)
    ep = runner._export(xs)
    assert _conv_nodes(ep) == [] and _bmm_nodes(ep) == []
    want = np.asarray(gold["eval_output"][0]["data"])
    got = ep.module()(*xs)
    got = got[0] if isinstance(got, (tuple, list)) else got
    np.testing.assert_allclose(got.detach().numpy().reshape(-1), want.reshape(-1),
                               rtol=1e-4, atol=1e-5)


def test_cache_key_names_the_rewrite(monkeypatch):
    files = (os.path.join(DATA, "mlp.json"), os.path.join(DATA, "mlp.pdiparams"))
    sig = (((3, 6), torch.float32),)
    before = _aot.package_path(files, sig, 1)
    monkeypatch.setattr(small_ops, "MAX_CONV_MACS", small_ops.MAX_CONV_MACS * 2)
    second = _aot.package_path(files, sig, 1)
    assert second != before
    monkeypatch.setattr(small_ops, "MAX_BMM_MACS", small_ops.MAX_BMM_MACS * 2)
    assert _aot.package_path(files, sig, 1) not in (before, second)
