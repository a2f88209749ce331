"""The autograd-aware communication of tensor (model) parallelism on torch payloads: identity
forward / all-reduce backward, all-reduce forward / identity backward, split and gather on the
last axis. A group of one rank (or outside a job) makes every one of them the identity."""
import torch
import torch.distributed as dist


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
