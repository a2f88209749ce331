"""paddle.sparse.nn against goldens recorded from real Paddle 3.3.1
(tools/goldens/record_sparse_nn.py -> tests/goldens/sparse_nn.json): sparse convolutions
(regular and submanifold, 2-d and 3-d), max pooling, activations, softmax, batch norm, the
layers' parameters and reprs, bad input; values and gradients. ``attention``, which Paddle has
only on CUDA, is checked against a dense numpy reference, and the rulebook kernels against a
dense torch convolution."""
import json
import math
import os

import numpy as np
import pytest
import torch

import paddle_compat as paddle
import paddle_compat.sparse as sp
import paddle_compat.sparse.nn as snn
import paddle_compat.sparse.nn.functional as SF
from paddle_compat.sparse.nn.functional import _rulebook

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "goldens", "sparse_nn.json")) as f:
    GOLD = json.load(f)
CASES = {c["name"]: c for c in GOLD["cases"]}
# float32: one op's tolerance for the outputs (a sparse conv sums up to 27 x C_in products,
# in another order than Paddle's kernel), the gradients' tier for gradients
TOL = {"float32": (1e-5, 1e-5), "float64": (1e-12, 1e-12)}
GTOL = {"float32": (1e-4, 1e-5), "float64": (1e-11, 1e-12)}


def _np(spec_values, shape, dtype):
    return np.array(spec_values, dtype=dtype).reshape(shape)


def build_x(spec):
    dt = spec["dtype"]
    vals = paddle.to_tensor(_np(spec["values"], spec["values_shape"], dt))
    if spec["format"] == "coo":
        x = sp.sparse_coo_tensor(paddle.to_tensor(np.array(spec["indices"], dtype=np.int64)),
                                 vals, spec["shape"])
    else:
        x = sp.sparse_csr_tensor(paddle.to_tensor(np.array(spec["crows"], dtype=np.int64)),
                                 paddle.to_tensor(np.array(spec["cols"], dtype=np.int64)),
                                 vals, spec["shape"])
    x.stop_gradient = False
    return x


def dense(spec, grad=True):
    t = paddle.to_tensor(_np(spec["values"], spec["shape"], spec["dtype"]))
    t.stop_gradient = not grad
    return t


def cotangent(y, values):
    v = paddle.to_tensor(np.array(values, dtype=str(y.dtype).replace("paddle.", ""))
                         .reshape(y.values().shape))
    if y.is_sparse_coo():
        return sp.sparse_coo_tensor(y.indices(), v, y.shape)
    return sp.sparse_csr_tensor(y.crows(), y.cols(), v, y.shape)


def close(got, want, dtype, tol=TOL, what=""):
    rt, at = tol[dtype]
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64).reshape(-1),
                               np.asarray(want, dtype=np.float64).reshape(-1),
                               rtol=rt, atol=at, err_msg=what)


def check_out(y, want):
    assert list(y.shape) == want["shape"]
    assert str(y.dtype).replace("paddle.", "") == want["dtype"]
    if want["format"] == "coo":
        assert y.is_sparse_coo()
        np.testing.assert_array_equal(y.indices().numpy(), np.array(want["indices"]))
    else:
        assert y.is_sparse_csr()
        np.testing.assert_array_equal(y.crows().numpy(), np.array(want["crows"]))
        np.testing.assert_array_equal(y.cols().numpy(), np.array(want["cols"]))
    assert list(y.values().shape) == want["values_shape"]
    close(y.values().numpy(), want["values"], want["dtype"], what="values")


def grad_values(x):
    g = x.grad
    assert g is not None
    return g.values().numpy()


# ------------------------------------------------------------------ convolutions, pooling
# Deliberate differences from Paddle 3.3.1
KNOWN = {
    # A submanifold convolution with a dilation: Paddle centres the kernel with padding k // 2
    # whatever the dilation, computes a smaller grid ([1, 4, 4, 4] from [1, 6, 6, 6]) and
    # returns sites that are not the input's, against what a submanifold convolution is (its
    # docs: the output keeps the input's sites). Ours keeps the input's sites and shape, the
    # dilated kernel centred on each (checked against a dense convolution below).
    "subm3d_dil2": "subm with dilation",
    "subm2d_dil2": "subm with dilation",
}
CONV = [n for n, c in CASES.items() if "conv" in c["op"] and n not in KNOWN]
POOL = [n for n, c in CASES.items() if c["op"] == "max_pool3d"]


@pytest.mark.parametrize("name", CONV)
def test_conv_golden(name):
    c = CASES[name]
    x = build_x(c["x"])
    w = dense(c["weight"])
    b = dense(c["bias"]) if "bias" in c else None
    y = getattr(SF, c["op"])(x, w, b, **c["args"])
    check_out(y, c["out"])
    y.backward(cotangent(y, c["cot"]))
    dt = c["x"]["dtype"]
    close(grad_values(x), c["grads"]["x"], dt, GTOL, "grad x")
    close(w.grad.numpy(), c["grads"]["weight"], dt, GTOL, "grad weight")
    if b is not None:
        close(b.grad.numpy(), c["grads"]["bias"], dt, GTOL, "grad bias")


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_difference_subm_dilation(name):
    c = CASES[name]
    assert c["out"]["shape"] != c["x"]["shape"][:-1] + [c["out"]["shape"][-1]]  # Paddle's
    x = build_x(c["x"])
    w = dense(c["weight"])
    y = getattr(SF, c["op"])(x, w, None, **c["args"])
    assert list(y.shape) == c["x"]["shape"][:-1] + [w.shape[-1]]
    np.testing.assert_array_equal(y.indices().numpy(), x.indices().numpy())
    nd = len(w.shape) - 2
    d = c["args"]["dilation"]
    ref = _dense_conv_reference(torch.tensor(c["x"]["indices"]), x.values()._t.detach(),
                                c["x"]["shape"][1:-1], w._t.detach(), [1] * nd, [d] * nd,
                                [d] * nd, True)
    torch.testing.assert_close(y.values()._t.detach(), ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", [n for n in CONV if CASES[n]["op"].startswith("subm")])
def test_igemm_is_the_same_computation(name):
    c = CASES[name]
    x = build_x(c["x"])
    w = dense(c["weight"])
    b = dense(c["bias"]) if "bias" in c else None
    args = {k: v for k, v in c["args"].items() if k != "key"}
    y = getattr(SF, c["op"] + "_igemm")(x, w, b, **args)
    check_out(y, c["out"])


@pytest.mark.parametrize("name", POOL)
def test_max_pool3d_golden(name):
    c = CASES[name]
    x = build_x(c["x"])
    y = SF.max_pool3d(x, **c["args"])
    check_out(y, c["out"])
    y.backward(cotangent(y, c["cot"]))
    close(grad_values(x), c["grads"]["x"], "float32", GTOL, "grad x")


def test_max_pool3d_layer():
    c = CASES["maxpool_k3_s2_p1"]
    y = snn.MaxPool3D(**c["args"])(build_x(c["x"]))
    check_out(y, c["out"])


# ------------------------------------------------------------------ activations, softmax
UNARY = [n for n, c in CASES.items() if c["op"] in ("relu", "relu6", "leaky_relu", "softmax")
         or c["op"] in ("layer:ReLU", "layer:ReLU6", "layer:LeakyReLU", "layer:Softmax")]


@pytest.mark.parametrize("name", UNARY)
def test_unary_golden(name):
    c = CASES[name]
    x = build_x(c["x"])
    if c["op"].startswith("layer:"):
        y = getattr(snn, c["op"][6:])(**c["args"])(x)
    else:
        y = getattr(SF, c["op"])(x, **c["args"])
    check_out(y, c["out"])
    y.backward(cotangent(y, c["cot"]))
    close(grad_values(x), c["grads"]["x"], c["x"]["dtype"], GTOL, "grad x")


# ------------------------------------------------------------------ batch norm
BN = [n for n, c in CASES.items() if c["op"] in ("layer:BatchNorm", "layer:SyncBatchNorm")]


@pytest.mark.parametrize("name", BN)
def test_batch_norm_golden(name):
    c = CASES[name]
    x = build_x(c["x"])
    bn = getattr(snn, c["op"][6:])(3, **c["args"])
    bn.weight.set_value(paddle.to_tensor(np.array(c["params"]["weight"], dtype=np.float32)))
    bn.bias.set_value(paddle.to_tensor(np.array(c["params"]["bias"], dtype=np.float32)))
    if not c["train"]:
        bn.eval()
    for _ in range(c["steps"] - 1):
        bn(x)
    y = bn(x)
    check_out(y, c["out"])
    y.backward(cotangent(y, c["cot"]))
    close(grad_values(x), c["grads"]["x"], "float32", GTOL, "grad x")
    close(bn.weight.grad.numpy(), c["grads"]["weight"], "float32", GTOL, "grad weight")
    close(bn.bias.grad.numpy(), c["grads"]["bias"], "float32", GTOL, "grad bias")
    close(bn._mean.numpy(), c["extra"]["mean"], "float32", what="running mean")
    close(bn._variance.numpy(), c["extra"]["variance"], "float32", what="running variance")
    assert [[k, list(v.shape)] for k, v in bn.state_dict().items()] == c["extra"]["state_dict"]


# ------------------------------------------------------------------ layers
@pytest.mark.parametrize("case", GOLD["layers"], ids=[c["code"] for c in GOLD["layers"]])
def test_layer_parameters_and_repr(case):
    paddle.seed(2026)
    m = eval(case["code"], {"snn": snn})
    assert repr(m) == case["repr"]
    got = [(n, list(p.shape), bool(p.stop_gradient)) for n, p in m.named_parameters()]
    assert got == [tuple(p[:3]) for p in case["params"]]
    assert [[k, list(v.shape)] for k, v in m.state_dict().items()] == case["state_dict"]
    for (n, p), want in zip(m.named_parameters(), case["params"]):
        a = p.numpy().astype(np.float64)
        if want[4] == 0.0:          # constant initialisers: exact
            assert a.sum() == want[3], n
        else:                       # Normal(0, sqrt(2 / fan_in)): the same distribution
            assert abs(a.std() - want[4]) < 0.35 * want[4], n
            assert abs(a.mean()) < 4 * want[4] / math.sqrt(a.size), n


def test_conv_layer_runs_its_functional():
    c = CASES["subm3d_k3_p1"]
    x = build_x(c["x"])
    layer = snn.SubmConv3D(3, 4, 3, padding=1, key="layer_test")
    layer.weight.set_value(dense(c["weight"], grad=False))
    layer.bias.set_value(dense(c["bias"], grad=False))
    check_out(layer(x), c["out"])
    layer2 = snn.SubmConv3D(3, 4, 3, padding=1, backend="igemm")
    layer2.weight.set_value(dense(c["weight"], grad=False))
    layer2.bias.set_value(dense(c["bias"], grad=False))
    check_out(layer2(x), c["out"])
    c = CASES["conv2d_k3_p1_s2"]
    layer = snn.Conv2D(3, 4, 3, padding=1, stride=2)
    layer.weight.set_value(dense(c["weight"], grad=False))
    layer.bias.set_value(dense(c["bias"], grad=False))
    check_out(layer(build_x(c["x"])), c["out"])


# ------------------------------------------------------------------ bad input
ERRORS = [n for n, c in CASES.items() if c["op"] == "error"]


@pytest.mark.parametrize("name", ERRORS)
def test_bad_input_raises_paddles_exception(name):
    c = CASES[name]
    rng = np.random.default_rng(0)
    idx = np.array([[0, 0, 1, 1, 1], [0, 1, 2, 0, 2], [1, 2, 0, 0, 1], [2, 0, 1, 1, 2]])
    vals = rng.standard_normal((5, 2)).astype(np.float32)
    x = sp.sparse_coo_tensor(paddle.to_tensor(idx), paddle.to_tensor(vals), [2, 3, 3, 3, 2])
    w = paddle.to_tensor(rng.standard_normal((3, 3, 3, 2, 4)).astype(np.float32))
    exc = {"ValueError": ValueError, "NotImplementedError": NotImplementedError,
           "AssertionError": AssertionError}[c["error"]["type"]]
    with pytest.raises(exc) as info:
        eval(c["code"], {"SF": SF, "snn": snn, "sp": sp, "paddle": paddle, "x": x, "w": w,
                         "idx": idx, "vals": vals})
    assert type(info.value) is exc


def test_bad_weight_names_it():
    x = build_x(CASES["conv3d_k3_p1"]["x"])
    with pytest.raises(ValueError, match="weight"):      # C_in 3 expected (Paddle checks none)
        SF.conv3d(x, paddle.randn([3, 3, 3, 2, 4]))
    with pytest.raises(ValueError, match="weight"):
        SF.subm_conv3d(x, [1, 2])
    with pytest.raises(ValueError, match="'x'"):
        SF.conv3d([1, 2], paddle.randn([3, 3, 3, 3, 4]))
    with pytest.raises(ValueError, match="padding"):
        SF.conv3d(x, paddle.randn([3, 3, 3, 3, 4]), padding="FULL")
    with pytest.raises(AssertionError, match="SparseCooTensor"):   # Paddle asserts too
        SF.max_pool3d(x.to_dense(), 2)
    with pytest.raises(NotImplementedError, match="'input'"):
        snn.BatchNorm(3)(x.to_dense())


# ------------------------------------------------------------------ the rulebook kernels
def _dense_conv_reference(idx, vals, spatial, w, stride, pad, dil, subm):
    """A dense torch conv over the scattered input, read at the expected output sites."""
    nd = len(spatial)
    batch = int(idx[0].max()) + 1
    cin = w.shape[-2]
    grid = torch.zeros((batch, *spatial, cin), dtype=vals.dtype)
    grid[tuple(idx)] = vals
    conv = torch.nn.functional.conv3d if nd == 3 else torch.nn.functional.conv2d
    inp = grid.movedim(-1, 1)
    kern = w.permute(nd + 1, nd, *range(nd))                  # [out, in, k...]
    if subm:
        k = w.shape[:nd]
        # output at every input site p: sum_k x[p - pad + k * dil] W[k]
        hi = [dil[i] * (k[i] - 1) - pad[i] for i in range(nd)]
        padded = torch.nn.functional.pad(inp, [a for i in reversed(range(nd))
                                               for a in (max(pad[i], 0), max(hi[i], 0))])
        out = conv(padded, kern, stride=1, dilation=dil).movedim(1, -1)
        return out[tuple(idx)]
    out = conv(inp, kern, stride=stride, padding=pad, dilation=dil).movedim(1, -1)
    return out


@pytest.mark.parametrize("subm", [False, True])
@pytest.mark.parametrize("nd", [2, 3])
def test_rulebook_matches_dense_convolution(subm, nd):
    g = torch.Generator().manual_seed(7 + nd + subm)
    spatial = [7, 6, 5][:nd]
    cells = math.prod(spatial)
    idx = []
    for b in range(2):
        flat = torch.randperm(cells, generator=g)[:cells // 3].sort().values
        coords = torch.stack(torch.unravel_index(flat, spatial), 0)
        idx.append(torch.cat([torch.full((1, flat.numel()), b), coords], 0))
    idx = torch.cat(idx, 1)
    vals = torch.randn(idx.shape[1], 3, dtype=torch.float64, generator=g)
    w = torch.randn(*([3] * nd), 3, 4, dtype=torch.float64, generator=g)
    for stride, pad, dil in [([1] * nd, [1] * nd, [1] * nd), ([2] * nd, [0] * nd, [1] * nd),
                             ([1] * nd, [2] * nd, [2] * nd)]:
        if subm and stride[0] != 1:
            continue
        rb = _rulebook.build_rulebook(idx, spatial, [3] * nd, stride, pad, dil, subm)
        got = _rulebook.sparse_conv(vals, w, rb)
        ref = _dense_conv_reference(idx, vals, spatial, w, stride, pad, dil, subm)
        if subm:
            torch.testing.assert_close(got, ref, rtol=1e-12, atol=1e-12)
            assert torch.equal(rb.out_indices, idx)
        else:
            assert list(ref.shape[1:-1]) == list(rb.out_spatial)
            torch.testing.assert_close(got, ref[tuple(rb.out_indices)], rtol=1e-12, atol=1e-12)
            # every other site of the dense result is one no active input reaches: zero
            mask = torch.ones(ref.shape[:-1], dtype=torch.bool)
            mask[tuple(rb.out_indices)] = False
            assert float(ref[mask].abs().max()) == 0.0 if mask.any() else True


def test_rulebook_gradients_match_autograd():
    g = torch.Generator().manual_seed(3)
    idx = torch.tensor([[0, 0, 0, 0, 1, 1], [0, 1, 1, 2, 0, 2], [1, 1, 2, 0, 0, 2],
                        [0, 2, 1, 1, 1, 0]])
    vals = torch.randn(6, 2, dtype=torch.float64, generator=g, requires_grad=True)
    w = torch.randn(3, 3, 3, 2, 3, dtype=torch.float64, generator=g, requires_grad=True)
    for subm in (False, True):
        rb = _rulebook.build_rulebook(idx, [3, 3, 3], [3, 3, 3], [1, 1, 1], [1, 1, 1],
                                      [1, 1, 1], subm)
        torch.autograd.gradcheck(lambda v, k: _rulebook.sparse_conv(v, k, rb), (vals, w))
        torch.autograd.gradcheck(lambda v: _rulebook.sparse_max_pool(v, rb), (vals,))


def test_key_shares_the_rulebook_only_for_the_same_sites():
    c = CASES["subm3d_k3_p1"]
    x = build_x(c["x"])
    w = dense(c["weight"], grad=False)
    _rulebook._CACHE.pop("share", None)
    y1 = SF.subm_conv3d(x, w, padding=1, key="share")
    rb = _rulebook._CACHE["share"]
    y2 = SF.subm_conv3d(SF.relu(y1), paddle.randn([3, 3, 3, 4, 4]), padding=1, key="share")
    assert _rulebook._CACHE["share"] is rb                  # same sites: reused
    np.testing.assert_array_equal(y2.indices().numpy(), x.indices().numpy())
    other = build_x(CASES["subm3d_k3_p0"]["x"])
    y3 = SF.subm_conv3d(other, w, padding=1, key="share")   # other sites: rebuilt
    assert _rulebook._CACHE["share"] is not rb
    want = SF.subm_conv3d(other, w, padding=1)
    np.testing.assert_array_equal(y3.values().numpy(), want.values().numpy())


# ------------------------------------------------------------------ attention (no CPU kernel)
def _attention_reference(q, k, v, mask_dense, kp, am):
    b, h, s, d = q.shape
    score = np.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(d)
    keep = mask_dense.reshape(b, h, s, s) != 0
    if kp is not None:
        keep = keep & (kp[:, None, None, :] != 0)
    if am is not None:
        keep = keep & (am[None, None] != 0)
    score = np.where(keep, score, -np.inf)
    e = np.exp(score - score.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    return np.einsum("bhij,bhjd->bhid", p, v)


@pytest.mark.parametrize("masks", ["none", "key_padding", "both"])
def test_attention_against_numpy(masks):
    rng = np.random.default_rng(5)
    b, h, s, d = 2, 2, 6, 4
    q, k, v = (rng.standard_normal((b, h, s, d)) for _ in range(3))
    layout = (rng.random((s, s)) < 0.6) | np.eye(s, dtype=bool)
    mask_dense = np.broadcast_to(layout, (b * h, s, s)).astype(np.float64)
    kp = np.ones((b, s)) if masks == "none" else (rng.random((b, s)) < 0.8).astype(np.float64)
    kp[:, 0] = 1
    am = np.tril(np.ones((s, s))) if masks == "both" else None
    want = _attention_reference(q, k, v, mask_dense, None if masks == "none" else kp, am)
    tq, tk, tv = (paddle.to_tensor(a, stop_gradient=False) for a in (q, k, v))
    sm = paddle.to_tensor(mask_dense).to_sparse_csr()
    got = SF.attention(tq, tk, tv, sm, None if masks == "none" else paddle.to_tensor(kp),
                       None if am is None else paddle.to_tensor(am))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    # gradients: against autograd through the dense reference written in torch
    got.backward(paddle.ones_like(got))
    Q, K, V = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    score = Q @ K.transpose(-1, -2) / math.sqrt(d)
    keep = torch.tensor(mask_dense.reshape(b, h, s, s) != 0)
    if masks != "none":
        keep = keep & torch.tensor(kp[:, None, None, :] != 0)
    if am is not None:
        keep = keep & torch.tensor(am != 0)
    ref = torch.softmax(score.masked_fill(~keep, float("-inf")), -1) @ V
    ref.sum().backward()
    for mine, theirs in ((tq, Q), (tk, K), (tv, V)):
        np.testing.assert_allclose(mine.grad.numpy(), theirs.grad.numpy(), rtol=1e-10,
                                   atol=1e-12)


def test_attention_bad_shapes():
    q = paddle.randn([1, 2, 4, 8])
    with pytest.raises(ValueError, match="sparse_mask"):
        SF.attention(q, q, q, paddle.ones([3, 4, 4]).to_sparse_csr())
    with pytest.raises(ValueError, match="key_padding_mask"):
        SF.attention(q, q, q, paddle.ones([2, 4, 4]).to_sparse_csr(), paddle.ones([1, 3]))
    with pytest.raises(ValueError, match="4D"):
        SF.attention(q[0], q, q, paddle.ones([2, 4, 4]).to_sparse_csr())


def test_public_names():
    # the paddle.sparse.nn names of Paddle 3.3.1's API surface
    want = ["BatchNorm", "Conv2D", "Conv3D", "LeakyReLU", "MaxPool3D", "ReLU", "ReLU6",
            "Softmax", "SubmConv2D", "SubmConv3D", "SyncBatchNorm", "functional.attention",
            "functional.conv2d", "functional.conv3d", "functional.leaky_relu",
            "functional.max_pool3d", "functional.relu", "functional.relu6",
            "functional.softmax", "functional.subm_conv2d", "functional.subm_conv2d_igemm",
            "functional.subm_conv3d", "functional.subm_conv3d_igemm"]
    for n in want:
        obj = snn
        for part in n.split("."):
            obj = getattr(obj, part)
        assert callable(obj), n
    assert paddle.sparse.nn is snn


def test_subm_keeps_the_input_order():
    c = CASES["subm3d_k3_p1"]
    xs = c["x"]
    perm = np.random.default_rng(1).permutation(len(xs["indices"][0]))
    idx = np.array(xs["indices"])[:, perm]
    vals = _np(xs["values"], xs["values_shape"], np.float32)[perm]
    x = sp.sparse_coo_tensor(paddle.to_tensor(idx), paddle.to_tensor(vals), xs["shape"])
    y = SF.subm_conv3d(x, dense(c["weight"], grad=False), dense(c["bias"], grad=False),
                       padding=1)
    np.testing.assert_array_equal(y.indices().numpy(), idx)
    want = _np(c["out"]["values"], c["out"]["values_shape"], np.float32)[perm]
    close(y.values().numpy(), want, "float32")


def test_point_cloud_example_matches_paddle():
    """examples/sparse_point_cloud.py (SubmConv3D + BatchNorm + ReLU twice with a shared
    rulebook key, a strided Conv3D, 8 Adam steps) reproduces real Paddle's losses, recorded
    from the same file; a float32 composition trained for steps: the deep tolerance."""
    import runpy
    ex = runpy.run_path(os.path.join(HERE, "..", "examples", "sparse_point_cloud.py"),
                        run_name="paddle_example")
    losses = ex["main"]("cpu", verbose=False)
    np.testing.assert_allclose(losses, GOLD["example_losses"], rtol=1e-4)
    assert losses[-1] < 0.5 * losses[0]


def test_maxpool3d_return_mask_is_ignored_as_in_paddle():
    # Paddle 3.3.1 keeps the argument and returns the pooled tensor (its kernel makes no mask)
    dense = paddle.to_tensor(np.arange(4 * 4 * 4 * 2, dtype="float32").reshape(1, 4, 4, 4, 2)
                             ) - 60.0
    x = dense.to_sparse_coo(4)
    a = paddle.sparse.nn.MaxPool3D(2, return_mask=True)(x)
    b = paddle.sparse.nn.MaxPool3D(2)(x)
    assert a.shape == [1, 2, 2, 2, 2]
    np.testing.assert_array_equal(a.to_dense().numpy(), b.to_dense().numpy())
