"""``paddle.distributed.stream``: the collectives with Paddle's stream arguments.

Each takes ``sync_op`` and ``use_calc_stream`` (run on the calculation stream: on CUDA that is
torch's current stream, which is where torch.distributed's NCCL work is ordered anyway; on
CPU there are no streams) and otherwise does what the plain collective does. Where Paddle's
stream variant also accepts one tensor in place of a list (``all_gather``, ``reduce_scatter``,
``alltoall``, ``scatter``, ``gather``), the tensor is the list concatenated along axis 0.
"""
import torch

from ..framework.tensor import wrap
from . import collective as c
from .collective import ReduceOp

__all__ = ["all_gather", "all_reduce", "alltoall", "alltoall_single", "broadcast", "reduce",
           "reduce_scatter", "recv", "scatter", "gather", "send"]


def _check(sync_op, use_calc_stream, api):
    if use_calc_stream and not sync_op:
        raise RuntimeError(f"paddle.distributed.stream.{api}: use_calc_stream can only be "
                           "True in sync op behavior.")


def _chunks(x, n, api, arg):
    t = c._t(x, api, arg)
    if t.shape[0] % n:
        raise ValueError(f"paddle.distributed.stream.{api}(): the first dimension of {arg} "
                         f"({t.shape[0]}) must be divisible by the group size {n}")
    return [wrap(p) for p in torch.chunk(t, n)]


def _is_list(x):
    return isinstance(x, (list, tuple))


def all_reduce(tensor, op=ReduceOp.SUM, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream, "all_reduce")
    return c.all_reduce(tensor, op, group, sync_op)


def reduce(tensor, dst=0, op=ReduceOp.SUM, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream, "reduce")
    return c.reduce(tensor, dst, op, group, sync_op)


def broadcast(tensor, src, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream, "broadcast")
    return c.broadcast(tensor, src, group, sync_op)


def all_gather(tensor_or_tensor_list, tensor, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream, "all_gather")
    if _is_list(tensor_or_tensor_list):
        return c.all_gather(tensor_or_tensor_list, tensor, group, sync_op)
    n = c._get_group(group).nranks
    return c.all_gather(_chunks(tensor_or_tensor_list, n, "all_gather", "tensor_or_tensor_list"),
                        tensor, group, sync_op)


def reduce_scatter(tensor, tensor_or_tensor_list, op=ReduceOp.SUM, group=None, sync_op=True,
                   use_calc_stream=False):
    _check(sync_op, use_calc_stream, "reduce_scatter")
    ins = tensor_or_tensor_list
    if not _is_list(ins):
        ins = _chunks(ins, c._get_group(group).nranks, "reduce_scatter", "tensor_or_tensor_list")
    return c.reduce_scatter(tensor, ins, op, group, sync_op)


def alltoall(out_tensor_or_tensor_list, in_tensor_or_tensor_list, group=None, sync_op=True,
             use_calc_stream=False):
    _check(sync_op, use_calc_stream, "alltoall")
    outs, ins = out_tensor_or_tensor_list, in_tensor_or_tensor_list
    if not _is_list(ins):
        return c.alltoall_single(outs, ins, None, None, group, sync_op)
    if not _is_list(outs):
        outs = _chunks(outs, c._get_group(group).nranks, "alltoall",
                       "out_tensor_or_tensor_list")
    return c.alltoall(outs, ins, group, sync_op)


def alltoall_single(out_tensor, in_tensor, out_split_sizes=None, in_split_sizes=None,
                    group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream, "alltoall_single")
    return c.alltoall_single(out_tensor, in_tensor, in_split_sizes, out_split_sizes, group,
                             sync_op)


def scatter(tensor, tensor_or_tensor_list=None, src=0, group=None, sync_op=True,
            use_calc_stream=False):
    _check(sync_op, use_calc_stream, "scatter")
    ins = tensor_or_tensor_list
    if ins is not None and not _is_list(ins):
        ins = _chunks(ins, c._get_group(group).nranks, "scatter", "tensor_or_tensor_list")
    return c.scatter(tensor, ins, src, group, sync_op)


def gather(tensor, gather_list=None, dst=0, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream, "gather")
    return c.gather(tensor, gather_list, dst, group, sync_op)


def send(tensor, dst=0, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream, "send")
    return c.send(tensor, dst, group, sync_op)


def recv(tensor, src=0, group=None, sync_op=True, use_calc_stream=False):
    _check(sync_op, use_calc_stream, "recv")
    return c.recv(tensor, src, group, sync_op)
