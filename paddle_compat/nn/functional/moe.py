"""Mixture-of-experts token routing of ``paddle.nn.functional``: ``moe_permute`` groups the
tokens by expert, ``moe_unpermute`` brings them back (GPU-only kernels in Paddle; written
here with torch gathers, differentiable in the hidden states and the probabilities).

The layout, as Paddle's docs describe it: expert e owns a block of the permuted buffer of
``tokens_per_expert[e]`` rows rounded up to a multiple of ``padding_alignment``, blocks in
expert order; inside a block the tokens routed to e come in token order (deterministic), the
rest of the block is zero padding (probability 0, expert index -1).
``zipped_expertwise_rowmap[t, e]`` is token t's row in expert e's block (-1: not routed).
"""
import torch

from ...framework.tensor import wrap

__all__ = ["moe_permute", "moe_unpermute"]


def moe_permute(hidden_states, scale, expert_routemap_topk, expert_prob_topk, num_experts,
                tokens_per_expert, padding_alignment, do_gather=True, using_ue8m0_scale=False,
                return_expert_indices=False, override_buffer_size=-1, name=None):
    """Tokens [seq, dim] copied once per routed expert into the per-expert blocks. Returns
    ``(hidden_states_unzipped [rows, dim], zipped_expertwise_rowmap [seq, num_experts] int32,
    token_prob_unzipped [rows] float32, scale_unzipped [rows, scale_cols] or an empty float32
    tensor without ``scale``)`` and, with ``return_expert_indices``, each row's expert (int32,
    -1 for padding). ``do_gather=False`` leaves the rows zero."""
    x, route, prob = hidden_states._t, expert_routemap_topk._t.long(), expert_prob_topk._t
    seq, topk = route.shape
    counts = torch.bincount(route[route >= 0], minlength=num_experts)[:num_experts]
    want = torch.as_tensor(list(tokens_per_expert), dtype=torch.int64)
    if want.numel() != num_experts or not torch.equal(counts.cpu(), want):
        raise ValueError(f"moe_permute: tokens_per_expert {list(tokens_per_expert)} does not "
                         f"match the routing map (counts {counts.tolist()})")
    align = int(padding_alignment)
    if align <= 0 or align & (align - 1):
        raise ValueError(f"moe_permute: padding_alignment must be a power of 2, got {align}")
    blocks = (want + align - 1) // align * align
    starts = torch.cumsum(blocks, 0) - blocks
    rows = int(blocks.sum())
    if override_buffer_size >= 0:
        if override_buffer_size < rows:
            raise ValueError(f"moe_permute: override_buffer_size {override_buffer_size} is "
                             f"smaller than the {rows} rows needed")
        rows = int(override_buffer_size)
    # one entry per (token, expert) pair, in expert-major then token order
    tok = torch.arange(seq, device=route.device).repeat_interleave(topk)
    exp = route.reshape(-1)
    slot = torch.arange(topk, device=route.device).repeat(seq)
    sel = exp >= 0
    tok, exp, slot = tok[sel], exp[sel], slot[sel]
    order = torch.argsort(exp * seq + tok, stable=True)
    tok, exp, slot = tok[order], exp[order], slot[order]
    first = torch.cumsum(counts, 0) - counts                 # index of each expert's first pair
    pos = torch.arange(tok.numel(), device=route.device) - first.to(route.device)[exp]
    row = starts.to(route.device)[exp] + pos
    rowmap = torch.full((seq, num_experts), -1, dtype=torch.int32, device=route.device)
    rowmap[tok, exp] = row.to(torch.int32)
    out = x.new_zeros((rows,) + tuple(x.shape[1:]))
    if do_gather:
        out = out.index_put((row,), x[tok])
    probs = prob.new_zeros(rows).index_put((row,), prob[tok, slot])
    if scale is not None:
        s = scale._t
        scale_out = s.new_zeros((rows,) + tuple(s.shape[1:])).index_put((row,), s[tok])
    else:
        scale_out = torch.zeros(0, dtype=torch.float32, device=x.device)
    res = (wrap(out), wrap(rowmap), wrap(probs), wrap(scale_out))
    if return_expert_indices:
        idx = torch.full((rows,), -1, dtype=torch.int32, device=route.device)
        idx[row] = exp.to(torch.int32)
        res += (wrap(idx),)
    return res


def moe_unpermute(hidden_states_unzipped, zipped_expertwise_rowmap, expert_routemap_topk,
                  token_prob_unzipped, total_zipped_tokens, num_experts,
                  using_mix_precision=True, using_weighted_combine=False, name=None):
    """The inverse of ``moe_permute``: token t is the sum of its rows over the experts it was
    routed to (weighted by their probabilities with ``using_weighted_combine``; accumulated
    in float32 with ``using_mix_precision``), and its top-k probabilities are read back from
    ``token_prob_unzipped`` (0 where the route is -1). Returns ``(tokens [total_zipped_tokens,
    dim], probs [total_zipped_tokens, topk] float32)``."""
    x = hidden_states_unzipped._t
    rowmap = zipped_expertwise_rowmap._t.long()[:total_zipped_tokens, :num_experts]
    route = expert_routemap_topk._t.long()[:total_zipped_tokens]
    prob = token_prob_unzipped._t.reshape(-1)
    valid = rowmap >= 0
    rows = rowmap.clamp(min=0)
    acc = torch.float32 if using_mix_precision and x.dtype in (torch.float16,
                                                                torch.bfloat16) else x.dtype
    parts = x[rows].to(acc)                                   # [seq, experts, dim...]
    w = valid.to(acc)
    if using_weighted_combine:
        w = w * prob[rows].to(acc)
    w = w.reshape(w.shape + (1,) * (parts.dim() - 2))
    tokens = (parts * w).sum(1).to(x.dtype)
    routed = route >= 0
    own = torch.gather(rowmap, 1, route.clamp(min=0))
    probs = torch.where(routed & (own >= 0), prob[own.clamp(min=0)], prob.new_zeros(()))
    return wrap(tokens), wrap(probs.to(torch.float32))
