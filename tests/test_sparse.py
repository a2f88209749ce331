"""paddle.sparse: tensors, Tensor methods, printing, ops, gradients and errors against goldens
recorded from real Paddle 3.3.1 (tools/goldens/record_sparse.py -> tests/goldens/sparse.json);
the ops Paddle has no CPU kernel for (matmul, masked_matmul, mv, addmm, pca_lowrank) and the
gradients Paddle lacks (CSR values, subtract/multiply, whose backward aborts Paddle) against
numpy."""
import json
import os

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from golden_utils import assert_same, describe

S = paddle.sparse
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "goldens",
                       "sparse.json")) as _f:
    _GOLDEN = json.load(_f)
PRELUDE = _GOLDEN["prelude"]
CASES = {c["id"]: c for c in _GOLDEN["cases"]}

# Deliberate differences: case id -> why. Each is checked to still differ (so a fix shows up)
# and what we do instead is tested below.
KNOWN = {
    "sum": "a full sum is a 1-element COO tensor: Paddle gives it 1-D indices [0] and 0-D "
           "values, which a torch COO tensor cannot hold (ours: indices [[0]], values [s])",
    "uncoalesced_to_dense": "Paddle's to_dense of an uncoalesced tensor keeps one of the "
                            "duplicates; ours sums them, as coalesce() does "
                            "(test_uncoalesced_to_dense)",
    "cast_coo_index": "torch holds COO indices as int64 only: cast(index_dtype=) of a COO "
                      "tensor keeps int64 (CSR crows/cols take it)",
    "csr_3d_sum": "Paddle's sum of a 3-D CSR tensor reports shape [B, rows] ([1, 1] for a full "
                  "sum) while its crows still hold B batches; ours keeps the rank: [B, rows, 1] "
                  "([1, 1, 1]), the same crows, cols and values (test_csr_3d_sum)",
    "transpose_flag": "Paddle's transpose of a coalesced tensor reports itself coalesced though "
                      "its entries are no longer sorted; torch's kernels trust that flag, so "
                      "ours reports False",
    "slice_grad": "Paddle 3.3.1's slice backward gives a zero gradient of the result's nnz "
                  "(not the input's); ours is the gradient (test_slice_gradient)",
    "coalesce_grad": "Paddle's coalesce cuts the gradient (stop_gradient=True, values get "
                     "none); ours passes it to the values (test_coalesce_gradient)",
    "to_dense_grad_csr": "Paddle 3.3.1 has no CSR to_dense_grad kernel; ours gives the "
                         "gradient (test_csr_gradients)",
    "to_sparse_grad_csr": "Paddle 3.3.1 has no CSR values_grad kernel; ours gives the "
                          "gradient (test_csr_gradients)",
}


def run(code):
    env = {"paddle": paddle, "np": np}
    try:
        exec(PRELUDE + code, env)
        return describe(env["out"], paddle)
    except Exception as e:  # noqa: BLE001 - the exception is the result
        builtin = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
        return {"error": builtin.__name__, "message": str(e).split("\n")[0]}


def _check(case, got):
    want = case["expected"]
    if isinstance(want, dict) and "error" in want:
        assert isinstance(got, dict) and got.get("error") == want["error"], \
            f"got {got!r}, Paddle raised {want}"
        for word in case["says"]:
            assert word in got["message"], f"{word!r} not in {got['message']!r}"
        return
    assert_same(got, want)


@pytest.mark.parametrize("cid", [c for c in CASES if c not in KNOWN])
def test_golden(cid):
    case = CASES[cid]
    _check(case, run(case["code"]))


@pytest.mark.parametrize("cid", sorted(KNOWN))
def test_known_difference(cid):
    case = CASES[cid]
    with pytest.raises(AssertionError):
        _check(case, run(case["code"]))


# ------------------------------------------------------------------ representation
def _coo(seed=0, shape=(5, 4), density=0.4, sg=True):
    rs = np.random.RandomState(seed)
    d = rs.uniform(-1, 1, shape).astype("float32") * (rs.uniform(size=shape) < density)
    return paddle.to_tensor(d).to_sparse_coo(len(shape)), d


def test_to_torch_is_zero_copy():
    x, _ = _coo()
    t = paddle.to_torch(x)
    assert t.layout is torch.sparse_coo and t is x._t
    c = x.to_sparse_csr()
    assert paddle.to_torch(c).layout is torch.sparse_csr
    back = paddle.from_torch(t)
    assert back.is_sparse_coo() and back.nnz() == x.nnz()


def test_sparse_leaf_values_gradient_and_grad():
    v = paddle.to_tensor([1., 2., 3.])
    x = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], v, [3, 3], stop_gradient=False)
    assert not v.stop_gradient and not x.stop_gradient
    y = S.sin(x)
    y.values().sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), np.cos([1., 2., 3.]), rtol=1e-6)
    assert x.grad is None                         # Paddle: the gradient is the values'


def test_sparse_tensor_marked_trainable_gets_a_sparse_grad():
    x, d = _coo(1)
    x.stop_gradient = False
    S.sin(x).to_dense().sum().backward()
    g = x.grad
    assert g is not None and g.is_sparse_coo()
    want = np.where(d != 0, np.cos(d), 0)
    np.testing.assert_allclose(g.to_dense().numpy(), want, rtol=1e-6)


def test_uneven_3d_csr_is_refused_clearly():
    with pytest.raises(NotImplementedError, match="same number of non-zeros"):
        S.sparse_csr_tensor([0, 1, 2, 0, 2, 3], [1, 0, 0, 2, 1], [1., 2, 3, 4, 5], [2, 2, 3])


# ------------------------------------------------------------------ gradients Paddle lacks
def _weights(n):
    return ((np.arange(n) % 7) - 3) / 4.0


@pytest.mark.parametrize("name,fn,dfn", [
    ("sin", np.sin, np.cos), ("tanh", np.tanh, lambda a: 1 - np.tanh(a) ** 2),
    ("square", np.square, lambda a: 2 * a), ("sqrt", np.sqrt, lambda a: 0.5 / np.sqrt(a))])
def test_csr_gradients(name, fn, dfn):
    a = np.array([0.5, 0.25, 0.75, 1.5, 0.125], dtype="float32")
    v = paddle.to_tensor(a, stop_gradient=False)
    c = S.sparse_csr_tensor([0, 2, 3, 4, 5], [1, 3, 0, 2, 1], v, [4, 4], stop_gradient=False)
    y = getattr(S, name)(c)
    np.testing.assert_allclose(y.values().numpy(), fn(a), rtol=1e-6)
    w = _weights(5)
    (y.values() * paddle.to_tensor(w.astype("float32"))).sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), w * dfn(a), rtol=1e-5, atol=1e-7)
    # to_dense and to_sparse_csr carry gradients too
    v.clear_grad()
    d = c.to_dense()
    (d * paddle.arange(16, dtype="float32").reshape([4, 4])).sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), [1, 3, 4, 10, 13])
    e = paddle.to_tensor(np.eye(3, dtype="float32") * 2, stop_gradient=False)
    cc = e.to_sparse_csr()
    (cc.values() * paddle.to_tensor([1., 2., 3.])).sum().backward()
    np.testing.assert_allclose(e.grad.numpy(), np.diag([1., 2., 3.]))


def test_coalesce_gradient():
    v = paddle.to_tensor([1., 2., 3., 4.], stop_gradient=False)
    x = S.sparse_coo_tensor([[1, 0, 1, 0], [0, 0, 0, 2]], v, [3, 3], stop_gradient=False)
    c = S.coalesce(x)
    assert c.is_coalesced() and c.indices().numpy().tolist() == [[0, 0, 1], [0, 2, 0]]
    np.testing.assert_allclose(c.values().numpy(), [2., 4., 4.])
    (c.values() * paddle.to_tensor([1., 10., 100.])).sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), [100., 1., 100., 10.])


@pytest.mark.parametrize("name,op", [("subtract", np.subtract), ("multiply", np.multiply),
                                     ("add", np.add)])
def test_binary_gradients(name, op):
    a, da = _coo(3, (4, 5), 0.5)
    b, db = _coo(4, (4, 5), 0.5)
    va, vb = a.values(), b.values()
    va.stop_gradient = vb.stop_gradient = False
    a = S.sparse_coo_tensor(a.indices(), va, [4, 5], stop_gradient=False)
    b = S.sparse_coo_tensor(b.indices(), vb, [4, 5], stop_gradient=False)
    z = getattr(S, name)(a, b)
    np.testing.assert_allclose(z.to_dense().numpy(), op(da, db), rtol=1e-6)
    z.to_dense().multiply(paddle.full([4, 5], 2.0)).sum().backward()
    ga = {"add": 2.0 + 0 * db, "subtract": 2.0 + 0 * db, "multiply": 2.0 * db}[name]
    gb = {"add": 2.0 + 0 * da, "subtract": -2.0 + 0 * da, "multiply": 2.0 * da}[name]
    ia, ib = a.indices().numpy(), b.indices().numpy()
    np.testing.assert_allclose(va.grad.numpy(), ga[ia[0], ia[1]], rtol=1e-6)
    np.testing.assert_allclose(vb.grad.numpy(), gb[ib[0], ib[1]], rtol=1e-6)


# ------------------------------------------------------------------ ops without a Paddle CPU kernel
@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_matmul_sparse_dense(layout):
    x, d = _coo(5, (6, 5), 0.4)
    if layout == "csr":
        x = x.to_sparse_csr()
    vals = x.values()
    vals.stop_gradient = False
    x = (S.sparse_coo_tensor(x.indices(), vals, [6, 5], stop_gradient=False)
         if layout == "coo" else
         S.sparse_csr_tensor(x.crows(), x.cols(), vals, [6, 5], stop_gradient=False))
    ya = np.random.RandomState(6).uniform(-1, 1, (5, 3)).astype("float32")
    y = paddle.to_tensor(ya, stop_gradient=False)
    out = S.matmul(x, y)
    assert out.is_dense() and out.shape == [6, 3]
    np.testing.assert_allclose(out.numpy(), d @ ya, rtol=1e-5, atol=1e-6)
    g = np.random.RandomState(7).uniform(-1, 1, (6, 3)).astype("float32")
    (out * paddle.to_tensor(g)).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), d.T @ g, rtol=1e-5, atol=1e-6)
    rows, cols = np.nonzero(d)               # both layouts hold row-major order here
    np.testing.assert_allclose(vals.grad.numpy(), (g @ ya.T)[rows, cols], rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(S.mv(x, paddle.to_tensor(ya[:, 0])).numpy(), d @ ya[:, 0],
                               rtol=1e-5, atol=1e-6)


def test_matmul_batched_and_sparse_sparse():
    rs = np.random.RandomState(8)
    d = rs.uniform(-1, 1, (2, 4, 5)).astype("float32") * (rs.uniform(size=(2, 4, 5)) < 0.5)
    y = rs.uniform(-1, 1, (2, 5, 3)).astype("float32")
    x = paddle.to_tensor(d).to_sparse_coo(3)
    np.testing.assert_allclose(S.matmul(x, paddle.to_tensor(y)).numpy(), d @ y, rtol=1e-5,
                               atol=1e-6)
    a, da = _coo(9, (4, 6), 0.4)
    b, db = _coo(10, (6, 3), 0.4)
    p = S.matmul(a, b)
    assert p.is_sparse_coo()
    np.testing.assert_allclose(p.to_dense().numpy(), da @ db, rtol=1e-5, atol=1e-6)
    pc = S.matmul(a.to_sparse_csr(), b.to_sparse_csr())
    assert pc.is_sparse_csr()
    np.testing.assert_allclose(pc.to_dense().numpy(), da @ db, rtol=1e-5, atol=1e-6)


def test_masked_matmul_and_addmm():
    rs = np.random.RandomState(11)
    xa = rs.uniform(-1, 1, (4, 6)).astype("float32")
    ya = rs.uniform(-1, 1, (6, 5)).astype("float32")
    mask, md = _coo(12, (4, 5), 0.5)
    x = paddle.to_tensor(xa, stop_gradient=False)
    out = S.masked_matmul(x, paddle.to_tensor(ya), mask.to_sparse_csr())
    assert out.is_sparse_csr()
    want = np.where(md != 0, xa @ ya, 0)
    np.testing.assert_allclose(out.to_dense().numpy(), want, rtol=1e-5, atol=1e-6)
    out.values().sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), (md != 0).astype("float32") @ ya.T, rtol=1e-5,
                               atol=1e-6)
    inp = rs.uniform(-1, 1, (4, 5)).astype("float32")
    sx, sd = _coo(13, (4, 6), 0.5)
    r = S.addmm(paddle.to_tensor(inp), sx, paddle.to_tensor(ya), beta=0.5, alpha=2.0)
    np.testing.assert_allclose(r.numpy(), 0.5 * inp + 2.0 * (sd @ ya), rtol=1e-5, atol=1e-6)
    b, bd = _coo(14, (6, 5), 0.5)
    rs_ = S.addmm(mask, sx, b, beta=3.0, alpha=-1.0)
    assert rs_.is_sparse_coo()
    np.testing.assert_allclose(rs_.to_dense().numpy(), 3.0 * md - sd @ bd, rtol=1e-5, atol=1e-6)


def test_pca_lowrank():
    rs = np.random.RandomState(15)
    a = (rs.uniform(-1, 1, (20, 3)) @ rs.uniform(-1, 1, (3, 8))).astype("float32")
    a[np.abs(a) < 0.2] = 0
    x = paddle.to_tensor(a).to_sparse_coo(2)
    torch.manual_seed(0)
    u, s, v = S.pca_lowrank(x, q=4)
    assert u.shape == [20, 4] and s.shape == [4] and v.shape == [8, 4]
    c = a - a.mean(0, keepdims=True)
    # the leading singular values are exact up to the sketch's accuracy
    np.testing.assert_allclose(s.numpy()[:3], np.linalg.svd(c, compute_uv=False)[:3],
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(u.numpy().T @ u.numpy(), np.eye(4), atol=1e-5)


def test_uncoalesced_to_dense():
    x = S.sparse_coo_tensor([[1, 0, 1], [0, 0, 0]], [1., 2., 3.], [3, 3])
    np.testing.assert_allclose(x.to_dense().numpy(), [[2, 0, 0], [4, 0, 0], [0, 0, 0]])


def test_slice_gradient():
    v = paddle.to_tensor([0.5, -0.25, 0.75, -0.5, 0.125], stop_gradient=False)
    x = S.sparse_coo_tensor([[0, 0, 1, 2, 3], [1, 3, 0, 2, 1]], v, [4, 4], stop_gradient=False)
    y = S.slice(x, [0, 1], [1, 0], [4, 2])
    assert y.indices().numpy().tolist() == [[0, 2], [0, 1]]
    (y.values() * paddle.to_tensor([2., 3.])).sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), [0, 0, 2, 0, 3])


def test_csr_3d_sum():
    x = S.sparse_csr_tensor([0, 1, 2, 0, 1, 2], [1, 0, 0, 2], [1., 2., 3., 4.], [2, 2, 3])
    s = S.sum(x, -1)
    assert s.shape == [2, 2, 1] and s.crows().numpy().tolist() == [0, 1, 2, 0, 1, 2]
    assert s.cols().numpy().tolist() == [0, 0, 0, 0]
    np.testing.assert_allclose(s.values().numpy(), [1., 2., 3., 4.])
    t = S.sum(x)
    assert t.shape == [1, 1, 1] and t.values().numpy().tolist() == [10.]


def test_dense_ops_take_sparse_tensors_where_torch_does():
    # Paddle 3.3.1 raises an OSError with an internal message ("Invalid dimension to be
    # accessed ...") for any dense op given a sparse tensor, and crashes on numpy(); ours runs
    # the op where torch has a sparse kernel and otherwise raises torch's error.
    x = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1., 2., 3.], [3, 3])
    y = paddle.sin(x)
    assert y.is_sparse_coo() and not y.is_dense()
    np.testing.assert_allclose(y.values().numpy(), np.sin([1., 2., 3.]), rtol=1e-6)
    with pytest.raises(TypeError, match="to_dense"):
        x.numpy()


def test_torch_autograd_reaches_the_values():
    # to_torch hands over the torch sparse tensor in the same graph: torch's own sparse
    # kernels and their gradients reach the Paddle values tensor
    v = paddle.to_tensor([1., 2., 3., 4.])
    x = S.sparse_coo_tensor([[1, 0, 1, 2], [0, 0, 2, 1]], v, [3, 3], stop_gradient=False)
    y = torch.arange(6.).reshape(3, 2)
    torch.sparse.mm(paddle.to_torch(x), y).sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), [1., 1., 9., 5.])
    c = x.to_sparse_csr()
    (paddle.to_torch(c).to_dense() * torch.arange(9.).reshape(3, 3)).sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), [4., 1., 14., 12.])


def test_every_paddle_sparse_name_exists():
    # Paddle 3.3.1's names, recorded from it by tools/names/record_names.py
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "tools", "names", "paddle_names.txt")) as f:
        names = [ln.split()[0] for ln in f if ln.startswith("paddle.sparse.")
                 and ln.split()[1] == "all" and not ln.startswith("paddle.sparse.nn")]
    assert len(names) == 37
    assert [n for n in names if not hasattr(S, n.rsplit(".", 1)[1])] == []
