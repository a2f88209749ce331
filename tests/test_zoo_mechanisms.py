"""Training-loop mechanisms model-zoo code depends on (issue 21), each as a class of behaviour:

* ``paddle.jit.to_static``: every guard (sublayer training flags, dtypes, shapes, Python
  arguments) retraces or reuses the right graph; compared with eager execution;
* ``Layer.eval()`` / ``train()`` with overridden ``train``/``eval``; extreme-logit losses;
  activation gradients at their kinks; pooling edges; fluid-era parameter attributes; the
  fused layers: against goldens of Paddle 3.3.1 (tools/goldens/record_zoo_mech.py);
* ``paddle.utils.download`` without network.

Guard cost (``test_guard_cost_is_small`` prints it with -s), measured on the 2-core AMD EPYC
dev machine under load (torch 2.13): the guard key adds about 1 us plus 0.1 us per guarded
layer to a to_static call (21 layers: ~5 us of a ~500 us call; 101 layers: ~14 us of 2.4 ms).
"""
import copy
import hashlib
import json
import os
import time
import warnings

import numpy as np
import pytest

import paddle_compat as paddle
from golden_utils import assert_same, depth_tol, run_case

nn = paddle.nn
F = paddle.nn.functional

GOLDENS = json.load(open(os.path.join(os.path.dirname(__file__), "goldens", "zoo_mech.json")))
PRELUDE = GOLDENS["prelude"]
CASES = {c["id"]: c for c in GOLDENS["cases"]}


# ---------------------------------------------------------------------- goldens
def _run(code):
    with paddle.utils.unique_name.guard():
        return run_case(PRELUDE + "\n" + code, paddle)


#: deliberate differences, each with its measured size and reason (tested at that tolerance)
KNOWN = {
    # Paddle's float64 lp_pool gradient is computed through float32 internals we do not
    # reproduce; our gradient is within 2.4e-7 (relative 1.3e-7) of it
    "pool_lp1d_len3_k2_float64": {"float64": (1e-6, 1e-6)},
    "pool_lp2d_1x8_k2_float64": {"float64": (1e-6, 1e-6)},
    "pool_lp2d_3x5_k2_ceil_float64": {"float64": (1e-6, 1e-6)},
}


@pytest.mark.parametrize("cid", sorted(CASES))
def test_golden(cid):
    c = CASES[cid]
    got = _run(c["code"])
    tol = depth_tol("op")
    tol.update(KNOWN.get(cid, {}))
    assert_same(got, c["expected"], cid, tol=tol)


def _golden_values(cid, k):
    return np.array(CASES[cid]["expected"][k]["values"], dtype=np.float64)


def _gelu_exact(xs):
    """gelu's documented erf form and its derivative at the float32 points ``xs``, in float64
    through erfc (no cancellation): the values every CPU must give, to float32 rounding."""
    import math
    x = xs.astype(np.float64)
    phi_c = np.array([math.erfc(-v / math.sqrt(2.0)) / 2 for v in x])
    dens = np.exp(-x * x / 2) / math.sqrt(2 * math.pi)
    return x * phi_c, phi_c + x * dens


def _ulps32(got, want):
    """|got - want| in float32 ulps of ``want``."""
    return np.abs(got - want) / np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)


def test_gelu_float32_tails_exact():
    """The float32 gelu forms in their negative tail, where 1 + tanh / erf cancels. The tanh
    form is Paddle's bit for bit (Eigen's fast tanh reproduced). The erf form is held to the
    documented formula's exact value within the erf kernel's error, on every CPU and
    ATEN_CPU_CAPABILITY (not to any one CPU's value): Paddle's
    own value carries its MKL erf's last bits (gelu(-4) = -1.2671947e-4 where the formula
    gives -1.2668477e-4; torch's fused kernel gives -1.26685e-4 on AVX2, -1.26481e-4 on
    AVX-512), so Paddle is held only to 1e-6 absolute there."""
    xs = np.array([-10., -8., -6., -5., -4.5, -4., -3.5, -3., -2., -1.5, -1., -0.5, 0.5, 2., 3.,
                   4., 5.], "float32")
    for cid, approx in (("gelu_tanh_tail_f32", True), ("gelu_tail_f32", False)):
        x = paddle.to_tensor(xs)
        x.stop_gradient = False
        y = F.gelu(x, approximate=approx)
        g = paddle.grad(y.sum(), x)[0].numpy().astype(np.float64)
        y = y.numpy().astype(np.float64)
        gold = np.isin(xs, np.array([-10., -8., -6., -5., -4.5, -4., -3.5, -3., -2., -0.5, 0.5, 2.,
                                     3., 4., 5.], "float32"))
        want, want_g = _golden_values(cid, 0), _golden_values(cid, 1)
        tail = np.abs(xs[gold]) > 1.5
        if approx:
            np.testing.assert_array_equal(y[gold][tail], want[tail])
            # the derivative: 12 of 15 points exact, the rest within 3.6e-7 (Paddle's grad
            # kernel rounds a step differently; not reproduced)
            np.testing.assert_allclose(g[gold], want_g, rtol=0, atol=4e-7)
            np.testing.assert_allclose(y[gold][~tail], want[~tail], rtol=1e-6)
        else:
            exact, exact_g = _gelu_exact(xs)
            # every CPU's erf kernel (torch's AVX2 / AVX-512 / default, Paddle's MKL) is within
            # a few 1e-7 absolute of erf (torch's AVX-512 kernel on an AMD EPYC: 3.5e-7 at
            # 3 / sqrt(2)), which 1 + erf exposes: held to the exact value within
            # |x| / 2 * 4e-7 (+ 2 ulps); the derivative within 2e-7 (+ 4 ulps of its larger term)
            ax = np.abs(xs.astype(np.float64))
            bound = ax / 2 * 4e-7 + 2 * np.spacing(np.abs(exact).astype(np.float32))
            assert (np.abs(y - exact) <= bound).all(), (y, exact)
            scale = np.maximum(np.abs(exact_g), ax * np.exp(-ax ** 2 / 2)).astype(np.float32)
            assert (np.abs(g - exact_g) <= 2e-7 + 4 * np.spacing(scale)).all(), (g, exact_g)
            # Paddle (MKL erf) against ours (any CPU): both kernels' errors, |x| / 2 * 2 * 2.5e-7
            np.testing.assert_allclose(y[gold], want, rtol=1e-6, atol=1e-6)
            np.testing.assert_allclose(g[gold], want_g, rtol=2e-6, atol=4e-7)


def test_cross_entropy_clip_example():
    # the example: Paddle clips x - max at -64
    x = paddle.to_tensor([[200., 0., -10.]])
    assert float(F.cross_entropy(x, paddle.to_tensor([1]))) == 64.0
    assert float(F.cross_entropy(x, paddle.to_tensor([0]))) == 0.0


def test_gelu_float32_tail_examples():
    x = paddle.to_tensor(np.array([-4.0], "float32"))
    # the documented formula's value -1.26684967e-4 within the erf kernel's error (|x| / 2 *
    # 2.5e-7; Paddle's MKL erf gives -1.2671947e-4, torch's AVX-512 kernel -1.26481e-4)
    np.testing.assert_allclose(F.gelu(x).numpy(), [-1.26684967e-4], rtol=0, atol=5e-7)
    np.testing.assert_allclose(F.gelu(x, approximate=True).numpy(), [-7.0452690e-5], rtol=2e-7)


# ---------------------------------------------------------------------- to_static guards
class _Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 6)
        self.bn = nn.BatchNorm1D(6)
        self.drop = nn.Dropout(0.5)
        self.head = nn.Linear(6, 3)

    def forward(self, x, scale=1.0):
        return self.head(self.drop(F.relu(self.bn(self.lin(x))))) * scale


def _pair(seed=3):
    paddle.seed(seed)
    eager = _Net()
    static = copy.deepcopy(eager)
    return eager, paddle.jit.to_static(static)


def _same(a, b, rtol=1e-6):
    np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=rtol, atol=1e-6)


def _state(layer):
    return [p.numpy().copy() for p in layer.parameters()]


def _check_states(a, b):
    for x, y in zip(_state(a), _state(b)):
        np.testing.assert_allclose(x, y, rtol=1e-6, atol=1e-7)


@pytest.fixture(autouse=False)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_to_static_follows_train_eval(quiet):
    eager, static = _pair()
    x = paddle.randn([8, 4])
    for step, mode in enumerate(["train", "train", "eval", "eval", "train", "eval"]):
        getattr(eager, mode)()
        getattr(static, mode)()
        paddle.seed(100 + step)
        a = eager(x)
        paddle.seed(100 + step)
        b = static(x)
        _same(a, b)
        _check_states(eager, static)         # running statistics follow eager exactly
    cache = static.forward._cache
    kinds = sorted(type(v).__name__ for v in cache.values())
    assert kinds == ["_Traced", "_Traced"], kinds  # a graph per mode (dropout draws at run time)


def test_to_static_random_outside_dropout_runs_eagerly(quiet):
    """A forward that draws random numbers through ops the graph cannot replay (drop-path's
    paddle.rand) runs in dynamic mode, with eager's numbers."""
    class DropPath(nn.Layer):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            if not self.training:
                return self.lin(x)
            keep = 0.5 + paddle.rand([x.shape[0], 1])
            return self.lin(x) / 0.5 * paddle.floor(keep)

    paddle.seed(0)
    eager = DropPath()
    static = paddle.jit.to_static(copy.deepcopy(eager))
    x = paddle.randn([6, 4])
    for step in range(3):
        paddle.seed(step)
        a = eager(x)
        paddle.seed(step)
        _same(a, static(x))
    assert [type(v).__name__ for v in static.forward._cache.values()] == ["object"]
    eager.eval()
    static.eval()
    _same(eager(x), static(x))


def test_to_static_batch_norm_training_is_a_graph(quiet):
    """Batch norm in training updates its running statistics inside the graph (no eager
    fallback): three steps follow eager mode (the statistics to an ulp)."""
    class C(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(3, 4, 3)
            self.bn = nn.BatchNorm2D(4)

        def forward(self, x):
            return F.relu(self.bn(self.conv(x)))

    paddle.seed(0)
    eager = C()
    static = paddle.jit.to_static(copy.deepcopy(eager))
    x = paddle.randn([2, 3, 6, 6])
    for _ in range(3):
        _same(eager(x), static(x))
        _check_states(eager, static)
    assert [type(v).__name__ for v in static.forward._cache.values()] == ["_Traced"]


def test_to_static_only_a_sublayer_switches(quiet):
    eager, static = _pair()
    x = paddle.randn([8, 4])
    eager.eval()
    static.eval()
    inference = eager(x).numpy()
    _same(eager(x), static(x))
    eager.drop.train()
    static.drop.train()
    paddle.seed(7)
    a = eager(x)
    paddle.seed(7)
    b = static(x)
    _same(a, b)
    assert not np.allclose(a.numpy(), inference)          # the dropout is active again
    eager.drop.eval()
    static.drop.eval()
    _same(eager(x), static(x))


def test_to_static_dtype_batch_and_python_args(quiet):
    eager, static = _pair()
    eager.eval()
    static.eval()
    x = paddle.randn([8, 4])
    _same(eager(x), static(x))
    _same(eager(x[:3]), static(x[:3]))                 # batch size 3: a new trace
    _same(eager(x, 2.0), static(x, 2.0))               # a Python argument is guarded
    _same(eager(x, scale=0.5), static(x, scale=0.5))
    e64, s64 = copy.deepcopy(eager), copy.deepcopy(static)
    e64.to(dtype="float64")
    s64.to(dtype="float64")
    x64 = x.astype("float64")
    _same(e64(x64), s64(x64), rtol=1e-12)
    assert s64(x64).dtype == paddle.float64
    n_graphs = sum(type(v).__name__ == "_Traced" for v in static.forward._cache.values())
    assert n_graphs == 4


_GLOBAL_NET = None


def test_to_static_plain_function_guards_the_layers_it_uses(quiet):
    global _GLOBAL_NET
    eager, _ = _pair()
    _GLOBAL_NET = copy.deepcopy(eager)
    local = copy.deepcopy(eager)

    @paddle.jit.to_static
    def via_global(x):
        return _GLOBAL_NET(x)

    @paddle.jit.to_static
    def via_closure(x):
        return local(x)

    x = paddle.randn([8, 4])
    for m in (eager, _GLOBAL_NET, local):
        m.eval()
    _same(eager(x), via_global(x))
    _same(eager(x), via_closure(x))
    for m in (eager, _GLOBAL_NET, local):
        m.train()
    for f in (via_global, via_closure):
        paddle.seed(11)
        a = eager(x)
        paddle.seed(11)
        _same(a, f(x))
    assert len(via_global._layers) == 5 and len(via_closure._layers) == 5


def test_to_static_layer_argument_modes_guarded(quiet):
    eager, _ = _pair()
    other = copy.deepcopy(eager)

    @paddle.jit.to_static
    def run(model, x):
        return model(x)

    x = paddle.randn([8, 4])
    eager.eval()
    other.eval()
    _same(eager(x), run(other, x))
    eager.train()
    other.train()
    paddle.seed(5)
    a = eager(x)
    paddle.seed(5)
    _same(a, run(other, x))


def test_to_static_numpy_argument_by_value(quiet):
    calls = []

    @paddle.jit.to_static
    def f(x, w):
        calls.append(1)
        return x * paddle.to_tensor(w)

    x = paddle.ones([2])
    assert f(x, np.array([1.0, 2.0], "float32")).numpy().tolist() == [1.0, 2.0]
    assert f(x, np.array([3.0, 4.0], "float32")).numpy().tolist() == [3.0, 4.0]
    n = len(calls)
    f(x, np.array([3.0, 4.0], "float32"))
    assert len(calls) == n                              # same content: the cached graph


def test_to_static_decorated_method_follows_mode(quiet):
    class M(nn.Layer):
        def __init__(self):
            super().__init__()
            self.bn = nn.BatchNorm1D(3)

        @paddle.jit.to_static
        def forward(self, x):
            return self.bn(x)

    paddle.seed(0)
    m = M()
    ref = copy.deepcopy(m)
    x = paddle.randn([5, 3]) * 3 + 1
    for mode in ["train", "eval", "train", "eval"]:
        getattr(m, mode)()
        getattr(ref, mode)()
        _same(m(x), ref.bn(x))
        _check_states(m, ref)


def test_to_static_training_backward_matches_eager(quiet):
    eager, static = _pair()
    x = paddle.randn([8, 4])
    oe = paddle.optimizer.SGD(0.1, parameters=eager.parameters())
    os_ = paddle.optimizer.SGD(0.1, parameters=static.parameters())
    for step in range(3):
        for m, o in ((eager, oe), (static, os_)):
            m.train()
            paddle.seed(step)
            loss = m(x).pow(2).mean()
            loss.backward()
            o.step()
            o.clear_grad()
            m.eval()
        _same(eager(x), static(x))
        _check_states(eager, static)


def test_guard_cost_is_small(quiet):
    """The guard key adds a few microseconds per call (printed with -s)."""
    m = nn.Sequential(*[nn.Linear(4, 4) for _ in range(20)])
    m.eval()
    sm = paddle.jit.to_static(m)
    x = paddle.randn([2, 4])
    sm(x)
    f = sm.forward
    leaves = [x]
    from torch.utils._pytree import tree_flatten
    leaves, spec = tree_flatten(((x,), {}))
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        f._guard_key(leaves, spec)
    per = (time.perf_counter() - t0) / n * 1e6
    t0 = time.perf_counter()
    for _ in range(n):
        f._key(leaves)
    base = (time.perf_counter() - t0) / n * 1e6
    print(f"guard key: {per:.2f} us (21 layers), tensor part alone {base:.2f} us")
    assert per < 60            # generous: shared CI machines; measured ~3 us here


# ---------------------------------------------------------------------- Layer.eval
def test_eval_does_not_call_train_override():
    seen = []

    class A(nn.Layer):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(2, 2)

        def train(self, mode=True):
            seen.append(mode)
            super().train(mode)
            self.lin.eval()                      # an override that would undo eval's work
            self.training = True
            return self

    a = A()
    a.eval()
    assert (a.training, a.lin.training, seen) == (False, False, [])


# ---------------------------------------------------------------------- download
def test_download_finds_cached_file(tmp_path, monkeypatch):
    from paddle_compat.utils import download
    home = tmp_path / "weights"
    monkeypatch.setattr(download, "WEIGHTS_HOME", str(home))
    data = b"weights"
    md5 = hashlib.md5(data).hexdigest()
    home.mkdir()
    (home / "w.pdparams").write_bytes(data)
    url = "https://paddle-hapi.bj.bcebos.com/models/w.pdparams"
    assert download.get_weights_path_from_url(url) == str(home / "w.pdparams")
    assert download.get_weights_path_from_url(url, md5) == str(home / "w.pdparams")
    other = tmp_path / "other"
    other.mkdir()
    (other / "w.pdparams").write_bytes(data)
    assert download.get_path_from_url(url, str(other), md5) == str(other / "w.pdparams")
    assert download.is_url(url) and not download.is_url("/tmp/x")
    assert download.WEIGHTS_HOME == str(home)


def test_download_default_cache_is_paddles():
    from paddle_compat.utils import download
    assert download.WEIGHTS_HOME == os.path.expanduser("~/.cache/paddle/hapi/weights")


def test_download_missing_file_says_where_to_put_it(tmp_path, monkeypatch):
    from paddle_compat.utils import download
    monkeypatch.setattr(download, "WEIGHTS_HOME", str(tmp_path / "weights"))
    url = "https://paddle-hapi.bj.bcebos.com/models/resnet18.pdparams"
    t0 = time.perf_counter()
    with pytest.raises(RuntimeError) as e:
        download.get_weights_path_from_url(url)
    assert time.perf_counter() - t0 < 1.0               # no network attempt, no hang
    msg = str(e.value)
    assert url in msg and str(tmp_path / "weights" / "resnet18.pdparams") in msg


def test_download_md5_mismatch(tmp_path):
    from paddle_compat.utils import download
    (tmp_path / "a.pdparams").write_bytes(b"broken")
    with pytest.raises(RuntimeError, match="md5"):
        download.get_path_from_url("https://x.org/a.pdparams", str(tmp_path), "0" * 32)


def test_download_unpacks_cached_archive(tmp_path):
    import tarfile
    from paddle_compat.utils import download
    src = tmp_path / "src" / "model"
    src.mkdir(parents=True)
    (src / "inference.pdmodel").write_bytes(b"m")
    cache = tmp_path / "cache"
    cache.mkdir()
    with tarfile.open(cache / "model.tar", "w") as tf:
        tf.add(src, arcname="model")
    got = download.get_path_from_url("https://x.org/model.tar", str(cache))
    assert got == str(cache / "model")
    assert (cache / "model" / "inference.pdmodel").read_bytes() == b"m"


def test_download_via_paddle_utils():
    from paddle_compat.utils import download
    assert paddle.utils.download is download


# ---------------------------------------------------------------------- fused layers
def _fill(layer, seed=0):
    rng = np.random.default_rng(seed)
    for _, p in layer.named_parameters():
        p.set_value(rng.uniform(-0.5, 0.5, p.shape).astype("float32"))
    return layer


def test_fused_layers_compute_with_the_functional_forms():
    inn = paddle.incubate.nn
    IF = inn.functional
    x = paddle.to_tensor(np.random.default_rng(1).uniform(-1, 1, [2, 3, 8]).astype("float32"))
    lin = _fill(inn.FusedLinear(8, 6))
    _same(lin(x), paddle.matmul(x, lin.weight) + lin.bias)
    lin_t = _fill(inn.FusedLinear(8, 6, transpose_weight=True))
    _same(lin_t(x), paddle.matmul(x, lin_t.weight, transpose_y=True) + lin_t.bias)

    mha = _fill(inn.FusedMultiHeadAttention(8, 2, dropout_rate=0.0, attn_dropout_rate=0.0))
    mha.eval()
    want = IF.fused_multi_head_attention(
        x, mha.qkv_weight, mha.linear_weight, pre_layer_norm=False, ln_scale=mha.ln_scale,
        ln_bias=mha.ln_bias, qkv_bias=mha.qkv_bias, linear_bias=mha.linear_bias,
        dropout_rate=0.0, attn_dropout_rate=0.0, training=False)
    _same(mha(x), want)

    ffn = _fill(inn.FusedFeedForward(8, 16, dropout_rate=0.0))
    ffn.eval()
    want = IF.fused_feedforward(x, ffn._linear1_weight, ffn._linear2_weight, ffn._linear1_bias,
                                ffn._linear2_bias, None, None, ffn._ln2_scale, ffn._ln2_bias,
                                0.0, 0.0, activation="relu", pre_layer_norm=False,
                                training=False)
    _same(ffn(x), want)

    enc = _fill(inn.FusedTransformerEncoderLayer(8, 2, 16, dropout_rate=0.0))
    enc.eval()
    _same(enc(x), enc.ffn(enc.fused_attn(x)))

    bdr = _fill(inn.FusedBiasDropoutResidualLayerNorm(8, dropout_rate=0.0))
    bdr.eval()
    y = x * 0.5
    want = F.layer_norm(x + bdr.linear_bias + y, [8], bdr.ln_scale, bdr.ln_bias, 1e-5)
    _same(bdr(x, y), want, rtol=1e-5)

    assert isinstance(enc, nn.Layer) and issubclass(inn.FusedLinear, nn.Layer)


def test_fused_layers_train_and_backward():
    inn = paddle.incubate.nn
    enc = inn.FusedTransformerEncoderLayer(8, 2, 16, dropout_rate=0.1)
    x = paddle.randn([2, 3, 8])
    enc(x).mean().backward()
    assert all(p.grad is not None for p in enc.parameters())
