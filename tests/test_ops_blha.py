"""``paddle.incubate.nn.functional.block_multihead_attention`` (the paged-KV-cache inference
attention) against goldens recorded from Paddle 3.3.1 (tools/goldens/record_ops_blha.py; the
case format and runner are those of test_ops_nn2.py).

Paddle 3.3.1 registers the op for CUDA only, so every golden comes from ``blha_ref``, the
naive composition of Paddle CPU ops written from what the CUDA kernel does (``ref``). The
direct tests below check what the goldens cannot: the caller's cache Tensors are updated in
place, prefill + decode steps reproduce plain causal attention, the unsupported arguments
raise NotImplementedError, bad layouts raise ValueError, and CUDA agrees with the CPU.
"""
import math

import pytest
import torch

import paddle_compat as paddle
import paddle_compat.incubate.nn.functional as IF
from test_ops_nn2 import run_case
import op_goldens as og

CASES = og.load_cases("ops_blha.json")


@og.each_case(CASES)
def test_golden(case):
    run_case(case)


# ---------------------------------------------------------------------- helpers
def _t(a):
    return paddle.to_tensor(torch.as_tensor(a))


def _i32(values):
    return _t(torch.tensor(values, dtype=torch.int32))


def layout(this_time, max_seq_len):
    """padding_offsets, cum_offsets, cu_seqlens_q, cu_seqlens_k as Paddle's
    get_padding_offset builds them."""
    cum, pad, cu = [], [], [0]
    for n in this_time:
        cum.append(len(cum) * max_seq_len - cu[-1])
        pad += [cum[-1]] * n
        cu.append(cu[-1] + n)
    return _i32(pad), _i32(cum), _i32(cu), _i32(cu)


def step(qkv, kc, vc, enc, dec, table, block_size, **kw):
    """One call for sequences with these encoder / decoder lengths."""
    this = [e if e > 0 else (1 if d > 0 else 0) for e, d in zip(enc, dec)]
    msl = max(max(this), 1)
    return IF.block_multihead_attention(_t(qkv), kc, vc, _i32(enc), _i32(dec), _i32(this),
                                        *layout(this, msl), _i32(table), max_seq_len=msl,
                                        block_size=block_size, **kw)


def causal_attention(x, heads, kv_heads, head):
    """Plain softmax attention of one whole sequence x [n, (H + 2 kvH) * D], causal."""
    n = x.shape[0]
    x = x.double().reshape(n, heads + 2 * kv_heads, head).transpose(0, 1)
    q, k, v = x[:heads], x[heads:heads + kv_heads], x[heads + kv_heads:]
    k = k.repeat_interleave(heads // kv_heads, 0)
    v = v.repeat_interleave(heads // kv_heads, 0)
    s = q @ k.transpose(1, 2) / math.sqrt(head)
    s = s + torch.triu(torch.full((n, n), -math.inf, dtype=torch.float64), 1)
    return (torch.softmax(s, -1) @ v).transpose(0, 1).reshape(n, heads * head)


SMALL = dict(heads=4, kv_heads=2, head=8, block_size=4)


def small_call(enc=(3,), dec=(0,), n_blocks=6, dtype=torch.float32, **kw):
    h, kvh, d, bs = SMALL["heads"], SMALL["kv_heads"], SMALL["head"], SMALL["block_size"]
    this = [e if e > 0 else (1 if x > 0 else 0) for e, x in zip(enc, dec)]
    qkv = torch.randn(sum(this), (h + 2 * kvh) * d).to(dtype)
    kc = _t(torch.zeros(n_blocks, kvh, bs, d, dtype=dtype))
    vc = _t(torch.zeros(n_blocks, kvh, bs, d, dtype=dtype))
    table = [[i * 2, i * 2 + 1] for i in range(len(enc))]
    return step(qkv, kc, vc, list(enc), list(dec), table, kw.pop("block_size", bs), **kw)


# ---------------------------------------------------------------------- behaviour
def test_caches_and_qkv_are_updated_in_place():
    torch.manual_seed(0)
    qkv = torch.randn(5, 64)
    kc_t, vc_t = torch.zeros(4, 2, 4, 8), torch.zeros(4, 2, 4, 8)
    kc, vc, x = _t(kc_t), _t(vc_t), _t(qkv.clone())
    bias = torch.randn(64)
    pad, cum, cq, ck = layout([5], 5)
    out, qkv_out, kc_out, vc_out = IF.block_multihead_attention(
        x, kc, vc, _i32([5]), _i32([0]), _i32([5]), pad, cum, cq, ck, _i32([[2, 0]]),
        qkv_bias=_t(bias), max_seq_len=5, block_size=4)
    assert kc_out is kc and vc_out is vc and qkv_out is x
    assert kc._t is kc_t and vc._t is vc_t            # the caller's torch storage too
    torch.testing.assert_close(x._t, qkv + bias)     # the kernel writes the bias into qkv
    k = (qkv + bias)[:, 32:48].reshape(5, 2, 8)
    torch.testing.assert_close(kc_t[2].transpose(0, 1), k[:4])
    torch.testing.assert_close(kc_t[0, :, 0], k[4])
    assert not kc_t[[1, 3]].any() and not kc_t[0, :, 1:].any()
    assert out.dtype == paddle.float32 and list(out.shape) == [5, 32]


@pytest.mark.parametrize("heads,kv_heads,block_size", [(2, 2, 4), (4, 2, 2), (4, 1, 8)])
def test_decode_after_prefill_is_causal_attention(heads, kv_heads, block_size):
    """Prefill then decode steps, mixed in one batch, give plain causal attention over each
    whole sequence."""
    torch.manual_seed(heads * 10 + block_size)
    head, lens, extra = 8, [6, 3, 9], [3, 5, 2]
    width = (heads + 2 * kv_heads) * head
    seqs = [torch.randn(n + e, width, dtype=torch.float64).float() for n, e in zip(lens, extra)]
    blocks = [-(-(n + e) // block_size) for n, e in zip(lens, extra)]
    ids = torch.randperm(sum(blocks) + 1).tolist()
    table = [[ids.pop() for _ in range(b)] + [-1] * (max(blocks) - b) for b in blocks]
    kc = _t(torch.zeros(sum(blocks) + 1, kv_heads, block_size, head))
    vc = _t(torch.zeros(sum(blocks) + 1, kv_heads, block_size, head))
    got = [[] for _ in seqs]
    # step 0: sequence 0 and 2 prefill; sequence 1 waits (this_time 0)
    out = step(torch.cat([seqs[0][:lens[0]], seqs[2][:lens[2]]]), kc, vc, [lens[0], 0, lens[2]],
               [0, 0, 0], table, block_size)[0]._t
    got[0].append(out[:lens[0]])
    got[2].append(out[lens[0]:])
    # step 1: sequence 1 prefills while 0 and 2 decode
    out = step(torch.cat([seqs[0][lens[0]:lens[0] + 1], seqs[1][:lens[1]],
                          seqs[2][lens[2]:lens[2] + 1]]), kc, vc, [0, lens[1], 0],
               [lens[0], 0, lens[2]], table, block_size)[0]._t
    got[0].append(out[:1])
    got[1].append(out[1:1 + lens[1]])
    got[2].append(out[1 + lens[1]:])
    pos = [lens[0] + 1, lens[1], lens[2] + 1]
    while any(p < n + e for p, n, e in zip(pos, lens, extra)):
        live = [p < n + e for p, n, e in zip(pos, lens, extra)]
        x = torch.cat([seqs[b][pos[b]:pos[b] + 1] for b in range(3) if live[b]])
        out = step(x, kc, vc, [0, 0, 0], [p if a else 0 for p, a in zip(pos, live)], table,
                   block_size)[0]._t
        i = 0
        for b in range(3):
            if live[b]:
                got[b].append(out[i:i + 1])
                i += 1
                pos[b] += 1
    for b, x in enumerate(seqs):
        want = causal_attention(x, heads, kv_heads, head).float()
        torch.testing.assert_close(torch.cat(got[b]), want, rtol=1e-5, atol=1e-5)


def test_rope_prefill_then_decode_is_rotated_causal_attention():
    """With the standard table (and rope_theta for decode) the prefill and decode RoPE agree:
    the decode step equals causal attention over the rotated sequence."""
    torch.manual_seed(1)
    heads, head, n = 2, 8, 5
    x = torch.randn(n + 1, 6 * head)
    inv = 10000.0 ** (-torch.arange(0, head, 2, dtype=torch.float32) / head)
    ang = torch.arange(8, dtype=torch.float32)[:, None] * inv
    rope = torch.stack([ang.cos(), ang.sin()]).reshape(2, 1, 8, 1, head // 2)
    kc, vc = _t(torch.zeros(3, heads, 4, head)), _t(torch.zeros(3, heads, 4, head))
    step(x[:n].clone(), kc, vc, [n], [0], [[1, 2]], 4, rope_emb=_t(rope))
    out = step(x[n:].clone(), kc, vc, [0], [n], [[1, 2]], 4, rope_emb=_t(rope))[0]._t
    r = x.reshape(n + 1, 6, head).clone()
    a, b = r[:, :4, 0::2], r[:, :4, 1::2]
    c, s = ang.cos()[:n + 1, None], ang.sin()[:n + 1, None]
    r[:, :4] = torch.stack([a * c - b * s, b * c + a * s], -1).flatten(-2)
    want = causal_attention(r.reshape(n + 1, -1), heads, heads, head).float()
    torch.testing.assert_close(out[0], want[n], rtol=1e-5, atol=1e-5)


def test_int8_output_dtype_and_rounding():
    out = small_call(out_scale=1.0)[0]
    assert out.dtype == paddle.int8 and list(out.shape) == [3, 32]
    assert out._t.abs().max() <= 127


def test_stopped_sequences_write_nothing():
    torch.manual_seed(2)
    kc0 = torch.randn(4, 2, 4, 8)
    kc, vc = _t(kc0.clone()), _t(kc0.clone())
    qkv = torch.randn(1, 48)
    step(qkv, kc, vc, [0, 0], [0, 3], [[0, 1], [2, 3]], 4)   # sequence 0 is stopped
    changed = (kc._t != kc0).any(-1).any(1)
    assert changed.nonzero().tolist() == [[2, 3]]            # block 2 slot 3: position 3


# ---------------------------------------------------------------------- unsupported / errors
@pytest.mark.parametrize("arg", ["cache_k_quant_scales", "cache_v_quant_scales",
                                 "cache_k_dequant_scales", "cache_v_dequant_scales"])
def test_int8_cache_is_not_supported(arg):
    with pytest.raises(NotImplementedError, match=f"block_multihead_attention: {arg}"):
        small_call(**{arg: _t(torch.ones(2))})


@pytest.mark.parametrize("kw,match", [
    (dict(use_dynamic_cachekv_quant=True), "use_dynamic_cachekv_quant"),
    (dict(out_scale=1.0, quant_max_bound=448.0, quant_min_bound=-448.0), "quant_max_bound=448"),
])
def test_unsupported_arguments(kw, match):
    with pytest.raises(NotImplementedError, match=f"block_multihead_attention: .*{match}"):
        small_call(**kw)


def test_uint8_cache_is_not_supported():
    kc = _t(torch.zeros(4, 2, 4, 8, dtype=torch.uint8))
    with pytest.raises(NotImplementedError, match="int8 key_cache"):
        step(torch.randn(3, 64), kc, kc, [3], [0], [[0, 1]], 4)


def test_float64_is_not_supported():
    with pytest.raises(NotImplementedError, match="block_multihead_attention: qkv of dtype "
                                                  "float64"):
        small_call(dtype=torch.float64)


def test_pre_cache_with_gqa_is_not_supported():
    pk = _t(torch.zeros(1, 2, 3, 8))
    with pytest.raises(NotImplementedError, match="pre_key_cache with GQA"):
        small_call(pre_key_cache=pk, pre_value_cache=pk)


def test_neox_rope_with_pre_cache_is_not_supported():
    kc = _t(torch.zeros(4, 2, 4, 8))
    pk = _t(torch.zeros(1, 2, 2, 8))
    with pytest.raises(NotImplementedError, match="use_neox_style=True and a pre_key_cache"):
        step(torch.randn(3, 48), kc, kc, [3], [0], [[0, 1]], 4, pre_key_cache=pk,
             pre_value_cache=pk, rope_emb=_t(torch.zeros(2, 1, 8, 1, 8)), use_neox_style=True)


def test_batched_rope_table_is_not_supported():
    with pytest.raises(NotImplementedError, match="rope_emb with a batch dimension"):
        small_call(enc=(3, 2), dec=(0, 0), rope_emb=_t(torch.zeros(2, 2, 8, 1, 4)))


def test_static_mode_is_not_supported():
    proxy = torch.fx.Proxy(torch.fx.Graph().placeholder("x"))
    x = paddle.Tensor.__new__(paddle.Tensor)
    x._t = proxy
    kc = _t(torch.zeros(4, 2, 4, 8))
    with pytest.raises(NotImplementedError, match="static graph"):
        IF.block_multihead_attention(x, kc, kc, *[_i32([1])] * 3, *layout([1], 1),
                                     _i32([[0]]), max_seq_len=1, block_size=4)


@pytest.mark.parametrize("kw,match", [
    (dict(block_size=8), "block_size 8 must equal key_cache.shape\\[2\\] 4"),
    (dict(max_seq_len=2), "max_seq_len \\(2\\) must be at least"),
    (dict(compute_dtype="fp8"), "compute_dtype must be"),
    (dict(qkv_bias=_t(torch.zeros(10))), "qkv_bias must have qkv's width 64"),
    (dict(rope_emb=_t(torch.zeros(2, 1, 8, 1, 8))), "rope_emb must be \\[2, 1, max_seq_len, "
                                                    "1, 4\\]"),
    (dict(rope_emb=_t(torch.zeros(2, 1, 2, 1, 4))), "rope_emb covers 2 positions"),
    (dict(mask=_t(torch.zeros(1, 3, 3, 3))), "mask must be \\[bsz, 1 or num_head"),
    (dict(mask=_t(torch.zeros(1, 1, 2, 2))), "mask \\[1, 1, 2, 2\\] must cover"),
    (dict(tgt_mask=_t(torch.zeros(1, 1, 2, 9))), "tgt_mask must be"),
    (dict(out_scale=1.0, quant_max_bound=100.0), "quant_max_bound must be 127.0"),
    (dict(quant_round_type=2), "quant_round_type must be 0 or 1"),
    (dict(qkv_out_scale=_t(torch.ones(64))), "qkv_out_scale dequantises an int32 qkv"),
    (dict(max_enc_len_this_time=_i32([2])), "max_enc_len_this_time is 2"),
])
def test_bad_arguments_raise_value_error(kw, match):
    call = dict(enc=(3,), dec=(0,))
    if "max_seq_len" in kw:
        this = [3]
        kc = _t(torch.zeros(6, 2, 4, 8))
        with pytest.raises(ValueError, match=match):
            IF.block_multihead_attention(_t(torch.randn(3, 64)), kc, kc, _i32([3]), _i32([0]),
                                         _i32(this), *layout(this, 3), _i32([[0, 1]]),
                                         max_seq_len=2, block_size=4)
        return
    with pytest.raises(ValueError, match=match):
        small_call(**call, **kw)


def test_bad_layouts_raise_value_error():
    kc = _t(torch.zeros(6, 2, 4, 8))
    x = _t(torch.randn(4, 64))
    pad, cum, cq, ck = layout([3, 1], 3)
    base = [x, kc, kc, _i32([3, 0]), _i32([0, 2]), _i32([3, 1]), pad, cum, cq, ck,
            _i32([[0, 1], [2, 3]])]

    def call(**changes):
        args = list(base)
        for i, v in changes.items():
            args[int(i[1:])] = v
        return IF.block_multihead_attention(*args, max_seq_len=3, block_size=4)

    call()                                                        # the good layout runs
    with pytest.raises(ValueError, match="padding_offsets .* does not match"):
        call(a6=_i32([0, 0, 0, 1]))
    with pytest.raises(ValueError, match="cum_offsets .* does not match"):
        call(a7=_i32([0, 1]))
    with pytest.raises(ValueError, match="cu_seqlens_k .* does not match"):
        call(a9=_i32([0, 3, 5]))
    with pytest.raises(ValueError, match="qkv has 4 tokens but seq_lens_this_time sums to 5"):
        call(a5=_i32([3, 2]))
    with pytest.raises(ValueError, match="sequence 1 has both"):
        call(a3=_i32([3, 1]))
    with pytest.raises(ValueError, match="sequence 1 decodes .* one token per step"):
        x5 = _t(torch.randn(5, 64))
        p5 = layout([3, 2], 3)
        IF.block_multihead_attention(x5, kc, kc, _i32([3, 0]), _i32([0, 2]), _i32([3, 2]),
                                     *p5, _i32([[0, 1], [2, 3]]), max_seq_len=3, block_size=4)
    with pytest.raises(ValueError, match="neither seq_lens_encoder nor seq_lens_decoder"):
        call(a4=_i32([0, 0]))
    with pytest.raises(ValueError, match="names block 9, but the cache has 6 blocks"):
        call(a10=_i32([[0, 1], [9, 3]]))
    with pytest.raises(ValueError, match="reaches cache position 4, beyond its 1 blocks"):
        call(a10=_i32([[0], [2]]), a4=_i32([0, 4]))


def test_a_rejected_call_leaves_the_caches_untouched():
    """The checks run before any write: a mixed batch whose tgt_mask is too short writes
    neither the prefill's nor the decode's K/V."""
    torch.manual_seed(4)
    kc0 = torch.randn(6, 2, 4, 8)
    kc, vc, x = _t(kc0.clone()), _t(kc0.clone()), torch.randn(4, 48)
    with pytest.raises(ValueError, match="tgt_mask \\[2, 1, 1, 3\\] must cover 6"):
        step(x, kc, vc, [3, 0], [0, 5], [[0, 1], [2, 3]], 4, qkv_bias=_t(torch.ones(48)),
             tgt_mask=_t(torch.zeros(2, 1, 1, 3)))
    assert torch.equal(kc._t, kc0) and torch.equal(vc._t, kc0)


def test_not_a_tensor():
    with pytest.raises(ValueError, match="argument 'qkv' \\(position 0\\) must be Tensor"):
        IF.block_multihead_attention([1.0], None, None, *[None] * 8)


# ---------------------------------------------------------------------- CUDA
@pytest.mark.cuda
def test_cuda_matches_cpu():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    torch.manual_seed(3)
    heads, kv_heads, head, bs = 4, 2, 32, 16
    width = (heads + 2 * kv_heads) * head
    inv = 10000.0 ** (-torch.arange(0, head, 2, dtype=torch.float32) / head)
    ang = torch.arange(64, dtype=torch.float32)[:, None] * inv
    rope = torch.stack([ang.cos(), ang.sin()]).reshape(2, 1, 64, 1, head // 2)
    for dt, tol in ((torch.float32, 1e-5), (torch.float16, 2e-2), (torch.bfloat16, 5e-2)):
        kc0 = torch.randn(8, kv_heads, bs, head).to(dt)
        enc, dec = [20, 0, 5], [0, 17, 0]
        qkv = torch.randn(26, width).to(dt)
        bias = torch.randn(width).to(dt) * 0.1
        table = [[0, 1, -1], [2, 3, 4], [5, -1, -1]]
        results = []
        for dev in ("cpu", "cuda"):
            kc, vc = _t(kc0.clone().to(dev)), _t(kc0.flip(0).clone().to(dev))
            args = [_t(qkv.clone().to(dev)), kc, vc] + [_t(a._t.to(dev)) for a in (
                _i32(enc), _i32(dec), _i32([20, 1, 5]), *layout([20, 1, 5], 20), _i32(table))]
            out = IF.block_multihead_attention(*args, qkv_bias=_t(bias.to(dev)),
                                               rope_emb=_t(rope.to(dev)), max_seq_len=20,
                                               block_size=bs)
            results.append([r._t.cpu().float() for r in out])
        for got, want in zip(results[1], results[0]):
            torch.testing.assert_close(got, want, rtol=tol, atol=tol)
