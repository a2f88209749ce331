"""``paddle.distributed.fleet.utils.hybrid_parallel_util``: the gradient and parameter
synchronisation helpers that trainers call by hand (PaddleDetection's, PaddleScience's and
PaddleNLP's ``Trainer`` import ``fused_allreduce_gradients`` at module top).

Gradients are averaged over the data-parallel group (the whole job without a hybrid
communicate group); parameters are broadcast from the group's first rank. A group of one rank
(or a single process outside a job) leaves everything as it is.
"""
from ....autograd import no_grad
from ... import collective as _c
from ...env import get_world_size

__all__ = ["fused_allreduce_gradients", "broadcast_dp_parameters", "broadcast_mp_parameters",
           "broadcast_sharding_parameters", "obtain_optimizer_parameters_list"]


def _dp_group(hcg):
    return None if hcg is None else hcg.get_data_parallel_group()


def fused_allreduce_gradients(parameter_list, hcg):
    """Average the gradients of ``parameter_list`` (the trainable ones that have one) over the
    data-parallel group of ``hcg`` (the whole job when ``hcg`` is None)."""
    group = _dp_group(hcg)
    nranks = group.nranks if group is not None else get_world_size()
    if nranks <= 1:
        return
    with no_grad():
        for p in parameter_list:
            if p.stop_gradient or p.grad is None:
                continue
            g = p.grad
            g.scale_(1.0 / nranks)
            _c.all_reduce(g, group=group)


def _broadcast_parameters(model, group, src_rank):
    if group is None or group.nranks <= 1:
        return
    with no_grad():
        for p in list(model.parameters()) + list(model.buffers()):
            _c.broadcast(p, src=src_rank, group=group)


def broadcast_dp_parameters(model, hcg):
    """Every data-parallel rank takes the parameters of the group's first rank."""
    _broadcast_parameters(model, hcg.get_data_parallel_group(),
                          hcg.get_data_parallel_group_src_rank())


def broadcast_mp_parameters(model, hcg):
    """Every model-parallel rank takes the (replicated) parameters of the group's first rank."""
    _broadcast_parameters(model, hcg.get_model_parallel_group(),
                          hcg.get_model_parallel_group_src_rank())


def broadcast_sharding_parameters(model, hcg):
    """Every sharding rank takes the parameters of the group's first rank."""
    _broadcast_parameters(model, hcg.get_sharding_parallel_group(),
                          hcg.get_sharding_parallel_group_src_rank())


def obtain_optimizer_parameters_list(optimizer):
    """The parameters an optimizer updates, across its parameter groups."""
    groups = getattr(optimizer, "_param_groups", None)
    if groups and isinstance(groups[0], dict):
        return [p for g in groups for p in g["params"]]
    return list(optimizer._parameter_list)
