"""``paddle.incubate.nn.functional.masked_multihead_attention`` against goldens recorded from a
naive composition in Paddle 3.3.1's CPU ops (tools/goldens/record_ops_mmha.py; Paddle has the
op only as a CUDA kernel), plus what a decoding loop relies on: the in-place cache, steps
that add up to full causal attention, and clear errors."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import paddle_compat as paddle
import paddle_compat.incubate.nn.functional as IF
from test_ops_nn2 import run_case
import op_goldens as og

CASES = og.load_cases("ops_mmha.json")


@og.each_case(CASES)
def test_golden(case):
    run_case(case)


def _t(a):
    return paddle.to_tensor(a)


def _step(x, cache, **kw):
    return IF.masked_multihead_attention(_t(x), cache, **kw)


def test_cache_is_updated_in_place_and_returned():
    x, c = torch.randn(2, 6 * 8), torch.zeros(2, 2, 2, 5, 8)
    cache = _t(c)
    out, back = _step(x, cache, src_mask=_t(torch.zeros(2, 1, 1, 3)))
    assert back is cache and out.stop_gradient
    qkv = x.reshape(2, 6, 8)
    torch.testing.assert_close(c[0, :, :, 2], qkv[:, 2:4])        # the caller's tensor
    torch.testing.assert_close(c[1, :, :, 2], qkv[:, 4:6])
    assert c[:, :, :, [0, 1, 3, 4]].abs().sum() == 0


@settings(max_examples=20, deadline=None)
@given(b=st.integers(1, 3), kv=st.sampled_from([1, 2]), group=st.sampled_from([1, 2]),
       d=st.sampled_from([4, 8]), n=st.integers(1, 6), seed=st.integers(0, 2 ** 16))
def test_decoding_steps_make_causal_attention(b, kv, group, d, n, seed):
    """n single-token steps from an empty cache give, at every step, softmax attention of the
    token over all tokens so far (grouped-query heads sharing their kv head)."""
    g = torch.Generator().manual_seed(seed)
    h = kv * group
    xs = torch.randn(n, b, (h + 2 * kv) * d, generator=g, dtype=torch.float64)
    cache = _t(torch.zeros(2, b, kv, n + 1, d, dtype=torch.float64))
    for t in range(n):
        out, _ = _step(xs[t], cache, sequence_lengths=_t(torch.full((b, 1), t,
                                                                    dtype=torch.int32)))
        qkv = xs[:t + 1].reshape(t + 1, b, h + 2 * kv, d)
        q = qkv[t, :, :h]                                             # [b, h, d]
        k = qkv[:, :, h:h + kv].repeat_interleave(group, 2)           # [t+1, b, h, d]
        v = qkv[:, :, h + kv:].repeat_interleave(group, 2)
        p = torch.softmax(torch.einsum("bhd,tbhd->bht", q, k) / math.sqrt(d), -1)
        want = torch.einsum("bht,tbhd->bhd", p, v).reshape(b, h * d)
        torch.testing.assert_close(out._t, want, rtol=1e-5, atol=1e-6)


def test_negative_length_row_is_skipped():
    x, c = torch.randn(2, 24), torch.randn(2, 2, 1, 4, 8)
    before = c.clone()
    out, _ = _step(x, _t(c), sequence_lengths=_t(torch.tensor([[-1], [1]], dtype=torch.int32)))
    assert out._t[0].abs().sum() == 0 and out._t[1].abs().sum() > 0
    torch.testing.assert_close(c[:, 0], before[:, 0])
    assert not torch.equal(c[:, 1, :, 1], before[:, 1, :, 1])


def test_float_dtypes_keep_their_dtype():
    for dt in (torch.float16, torch.bfloat16, torch.float64):
        out, c = _step(torch.randn(1, 24).to(dt), _t(torch.zeros(2, 1, 1, 3, 8, dtype=dt)),
                       src_mask=_t(torch.zeros(1, 1, 1, 2, dtype=dt)))
        assert out._t.dtype == dt and c._t.dtype == dt and list(out.shape) == [1, 8]


@pytest.mark.parametrize("kw, what", [
    (dict(cache=None), "cache_kv is required"),
    (dict(cache=torch.zeros(2, 1, 1, 3)), "cache_kv must be"),
    (dict(x=torch.randn(1, 1, 24)), "x must be"),
    (dict(x=torch.randn(1, 20)), "last dimension 20"),
    (dict(cache=torch.zeros(2, 1, 1, 3, 8, dtype=torch.float64)), "cache_kv must be"),
    (dict(x=torch.randint(-5, 5, (1, 24), dtype=torch.int32)), "compute_dtype"),
    (dict(x=torch.randint(-5, 5, (1, 24), dtype=torch.int32), compute_dtype="fp32"),
     "qkv_out_scale"),
    (dict(qkv_out_scale=torch.ones(24)), "int32 x"),
    (dict(src_mask=torch.zeros(1, 1, 1, 4)), "below cache_kv's max_seq_len 3"),
    (dict(src_mask=None), "pass src_mask"),
    (dict(src_mask=None, sequence_lengths=torch.tensor([3], dtype=torch.int32)),
     "reaches 3"),
    (dict(src_mask=torch.zeros(1, 2, 1, 2)), "src_mask must be"),
    (dict(out_shift=torch.zeros(8)), "out_shift and out_smooth"),
    (dict(rotary_emb_dims=1), "rotary_tensor is required"),
    (dict(rotary_emb_dims=1, rotary_tensor=torch.zeros(8)), "cos and sin tables"),
    (dict(x=[[1.0] * 24]), "x must be a Tensor"),
])
def test_bad_input_is_a_clear_error(kw, what):
    args = dict(x=torch.randn(1, 24), cache=torch.zeros(2, 1, 1, 3, 8),
                src_mask=torch.zeros(1, 1, 1, 2))
    args.update(kw)
    x, cache = args.pop("x"), args.pop("cache")
    conv = {k: (_t(v) if isinstance(v, torch.Tensor) else v) for k, v in args.items()}
    before = None if cache is None else cache.clone()
    with pytest.raises((ValueError, TypeError), match=what):
        IF.masked_multihead_attention(_t(x) if isinstance(x, torch.Tensor) else x,
                                      None if cache is None else _t(cache), **conv)
    if cache is not None:
        assert torch.equal(cache, before)                           # nothing written


def test_cum_offsets_is_not_supported():
    with pytest.raises(NotImplementedError, match="masked_multihead_attention: cum_offsets"):
        IF.masked_multihead_attention(_t(torch.randn(1, 24)), _t(torch.zeros(2, 1, 1, 3, 8)),
                                      src_mask=_t(torch.zeros(1, 1, 1, 2)),
                                      cum_offsets=_t(torch.zeros(1, dtype=torch.int32)))


def test_doc_example_shapes():
    """The shapes of Paddle's docstring example (run there on a GPU)."""
    x = paddle.rand(shape=(2, 3 * 4 * 16), dtype="float32")
    src_mask = paddle.rand(shape=(2, 1, 1, 10), dtype="float32")
    cache_kv = paddle.rand(shape=(2, 2, 4, 64, 16), dtype="float32")
    out = IF.masked_multihead_attention(x, src_mask=src_mask, cache_kv=cache_kv)
    assert isinstance(out, tuple) and len(out) == 2 and list(out[0].shape) == [2, 64]
    assert np.isfinite(out[0].numpy()).all()


@pytest.mark.cuda
def test_cuda_matches_cpu():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    for dt in (torch.float32, torch.float16, torch.bfloat16):
        x, c = torch.randn(3, 8 * 16).to(dt), torch.randn(2, 3, 2, 9, 16).to(dt)
        lens = torch.tensor([[4], [0], [7]], dtype=torch.int32)
        rot = torch.randn(2, 3, 1, 1, 16)
        kw = dict(rotary_emb_dims=1, use_neox_rotary_style=True)
        cpu_c, gpu_c = _t(c.clone()), _t(c.cuda())
        o1, _ = IF.masked_multihead_attention(_t(x), cpu_c, sequence_lengths=_t(lens),
                                              rotary_tensor=_t(rot), **kw)
        o2, _ = IF.masked_multihead_attention(_t(x.cuda()), gpu_c,
                                              sequence_lengths=_t(lens.cuda()),
                                              rotary_tensor=_t(rot.cuda()), **kw)
        tol = 1e-5 if dt == torch.float32 else 2e-2
        torch.testing.assert_close(o2._t.cpu(), o1._t, rtol=tol, atol=tol)
        torch.testing.assert_close(gpu_c._t.cpu(), cpu_c._t, rtol=tol, atol=tol)


def test_output_quantisation_rounding_modes():
    """round type 0 rounds half to even, 1 half away from zero, then clips (the attention's
    own outputs almost never land on .5, so the rule is checked on the quantiser)."""
    from paddle_compat.incubate.nn.inference import quantise_int8 as _quantise
    v = torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5, 0.49, 200.0, -200.0]) / 127.0
    assert _quantise(v, 1.0, 0, 127.0, -127.0).tolist() == [0, 2, 2, 0, -2, 0, 127, -127]
    assert _quantise(v, 1.0, 1, 127.0, -127.0).tolist() == [1, 2, 3, -1, -3, 0, 127, -127]


@pytest.mark.parametrize("with_lens", [False, True])
def test_static_program_matches_dynamic(with_lens):
    """Paddle's own unit test runs the op in a static Program; the write into the fed cache
    and the per-row steps work there too (no data-dependent shapes)."""
    rng = np.random.default_rng(0)
    xv = rng.standard_normal((3, 48)).astype("float32")
    cv = rng.standard_normal((2, 3, 2, 6, 8)).astype("float32")
    mv = rng.standard_normal((3, 1, 1, 5)).astype("float32")
    nv = np.array([[4], [-1], [2]], "int32")
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [3, 48], "float32")
            c = paddle.static.data("c", [2, 3, 2, 6, 8], "float32")
            m = paddle.static.data("m", [3, 1, 1, 5], "float32")
            n = paddle.static.data("n", [3, 1], "int32")
            outs = IF.masked_multihead_attention(x, c, src_mask=m,
                                                 sequence_lengths=n if with_lens else None)
        feed = {"x": xv, "c": cv.copy(), "m": mv, "n": nv}
        got = paddle.static.Executor(paddle.CPUPlace()).run(main, feed=feed,
                                                            fetch_list=list(outs))
    finally:
        paddle.disable_static()
    want = IF.masked_multihead_attention(
        _t(torch.from_numpy(xv)), _t(torch.from_numpy(cv.copy())),
        src_mask=_t(torch.from_numpy(mv)),
        sequence_lengths=_t(torch.from_numpy(nv)) if with_lens else None)
    np.testing.assert_allclose(got[0], want[0].numpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(got[1], want[1].numpy(), rtol=0, atol=0)
