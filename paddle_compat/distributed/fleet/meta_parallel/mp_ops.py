"""The autograd-aware communication of tensor (model) parallelism on torch payloads: identity
forward / all-reduce backward, all-reduce forward / identity backward, split and gather on the
last axis. A group of one rank (or outside a job) makes every one of them the identity."""
import torch
import torch.distributed as dist

from ....framework.tensor import wrap
from ...collective import ReduceOp, get_group


def _pg(group):
    return None if group is None or group.nranks <= 1 else group.process_group


class _Identity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, pg):
        ctx.pg = pg
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        g = g.contiguous().clone()
        dist.all_reduce(g, group=ctx.pg)
        return g, None


class _AllReduce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, pg):
        y = x.contiguous().clone()
        dist.all_reduce(y, group=pg)
        return y

    @staticmethod
    def backward(ctx, g):
        return g, None


def _gather_last(x, pg):
    n = dist.get_world_size(pg)
    parts = [torch.empty_like(x) for _ in range(n)]
    dist.all_gather(parts, x.contiguous(), group=pg)
    return torch.cat(parts, dim=-1)


def _split_last(x, pg):
    n, r = dist.get_world_size(pg), dist.get_rank(pg)
    return x.chunk(n, dim=-1)[r].contiguous()


class _Gather(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, pg):
        ctx.pg = pg
        return _gather_last(x, pg)

    @staticmethod
    def backward(ctx, g):
        return _split_last(g, ctx.pg), None


class _Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, pg):
        ctx.pg = pg
        return _split_last(x, pg)

    @staticmethod
    def backward(ctx, g):
        return _gather_last(g.contiguous(), ctx.pg), None


def identity_fwd_allreduce_bwd(t, group):
    pg = _pg(group)
    return t if pg is None else _Identity.apply(t, pg)


def allreduce_fwd_identity_bwd(t, group):
    pg = _pg(group)
    return t if pg is None else _AllReduce.apply(t, pg)


def gather_last(t, group):
    pg = _pg(group)
    return t if pg is None else _Gather.apply(t, pg)


def split_last(t, group):
    pg = _pg(group)
    return t if pg is None else _Split.apply(t, pg)


def allreduce_nograd(t, group, op=dist.ReduceOp.SUM):
    pg = _pg(group)
    if pg is not None:
        dist.all_reduce(t, op=op, group=pg)
    return t


# ---------------------------------------------------------------------- Paddle's private names
# ``paddle.distributed.collective._c_identity`` ... (Paddle defines them in
# ``fleet/layers/mpu/mp_ops.py``): model-parallel code of PaddleNLP, PaddleX and PPDiffusers
# calls them directly. ``group=None`` is the whole job, which must have been started (Paddle's
# AssertionError otherwise).
def _job_group(group):
    if group is not None:
        return group
    g = get_group(0)
    assert g is not None, ("Call paddle.distributed.init_parallel_env first to initialize the "
                           "distributed environment.")
    return g


def _c_identity(tensor, group=None, skip_c_identity_dynamic=False):
    """Identity forward, all-reduce (sum) of the gradient backward."""
    return wrap(identity_fwd_allreduce_bwd(tensor._t, _job_group(group)))


def _mp_allreduce(tensor, op=ReduceOp.SUM, group=None, use_calc_stream=True,
                  use_model_parallel=True, skip_c_identity_dynamic=False):
    """All-reduce (sum) forward, identity backward."""
    if op != ReduceOp.SUM:
        raise NotImplementedError("paddle.distributed.collective._mp_allreduce: only "
                                  "ReduceOp.SUM is supported by paddle_compat yet")
    return wrap(allreduce_fwd_identity_bwd(tensor._t, _job_group(group)))


def _c_concat(tensor, group=None):
    """The ranks' tensors concatenated on the last axis (gradient: this rank's slice)."""
    return wrap(gather_last(tensor._t, _job_group(group)))


def _c_split(tensor, group=None):
    """This rank's slice of the last axis (gradient: the slices gathered)."""
    return wrap(split_last(tensor._t, _job_group(group)))


def _c_lookup_table(table, index, start_index=0, vocab_size=-1, name=None):
    """The rows ``index - start_index`` of this rank's vocabulary shard ``table``; ids outside
    the shard give zero rows (the other ranks' shards hold them)."""
    w, ids = table._t, index._t
    local = ids - start_index
    inside = (local >= 0) & (local < w.shape[0])
    rows = torch.nn.functional.embedding(torch.where(inside, local, torch.zeros_like(local)), w)
    return wrap(rows * inside.unsqueeze(-1).to(rows.dtype))


def _c_softmax_with_cross_entropy(logits, label, group=None, return_softmax=False,
                                  ignore_index=-100):
    """Softmax cross entropy over a vocabulary split on the last axis across ``group``'s
    ranks (this rank holds ``logits`` [..., V / n], the columns ``rank * V / n`` onwards);
    ``label`` [...] or [..., 1] holds global class ids. Returns ``loss`` [..., 1] (0 where the
    label is ``ignore_index``) and, with ``return_softmax``, this rank's slice of the global
    softmax. Outside a job (or ``group`` of one rank) it is plain softmax cross entropy."""
    if group is not None and not group.is_member():
        return None
    if group is None:
        group = get_group(0)
    nranks = 1 if group is None else group.nranks
    rank = 0 if group is None or nranks <= 1 else dist.get_rank(group.process_group)
    x, lab = logits._t, label._t
    if x.dim() - 1 != lab.dim() and x.dim() != lab.dim():
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims "
                         f"(got input_dims{x.dim()}, label_dims{lab.dim()})")
    if x.dim() - 1 == lab.dim():
        lab = lab.unsqueeze(-1)
    if lab.shape[-1] < 1 or lab.shape[-1] > x.shape[-1] * nranks:
        raise ValueError(f"Expected label_shape[-1] >= 1 and label_shape[-1] <= input_shape[-1] "
                         f"* nranks (got label_shape[-1] = {lab.shape[-1]}, input_shape[-1] = "
                         f"{x.shape[-1]})")
    width = x.shape[-1]
    with torch.no_grad():
        gmax = allreduce_nograd(x.amax(-1, keepdim=True).clone(), group, dist.ReduceOp.MAX)
    shifted = x - gmax
    total = allreduce_fwd_identity_bwd(shifted.exp().sum(-1, keepdim=True), group)
    local = lab.long() - rank * width
    inside = (local >= 0) & (local < width)
    picked = shifted.gather(-1, torch.where(inside, local, torch.zeros_like(local)))
    picked = allreduce_fwd_identity_bwd(picked * inside.to(picked.dtype), group)
    loss = torch.log(total) - picked
    loss = loss.masked_fill(lab == ignore_index, 0.0)
    if not return_softmax:
        return wrap(loss)
    return wrap(loss), wrap(shifted.exp() / total)
