"""``paddle.distributed.fleet.utils.sequence_parallel_utils``: sequence parallelism, the
activations of a tensor-parallel block split on their first (sequence) axis over the
model-parallel group.

``scatter`` / ``all_gather`` / ``reduce_scatter`` work on axis 0 over the model-parallel group
of ``fleet.init``'s hybrid group; the PyLayers pair them as forward and backward
(``ScatterOp``: scatter / all-gather, ``GatherOp``: all-gather / scatter, ``AllGatherOp``:
all-gather / reduce-scatter, ``ReduceScatterOp``: reduce-scatter / all-gather). With a group
of one rank each is the identity (a copy). Parameters replicated over the group but fed by
split activations (LayerNorm weights, a row-parallel bias) are marked with
``mark_as_sequence_parallel_parameter``; ``register_sequence_parallel_allreduce_hooks`` sums
their gradients over the group after ``accumulation_steps`` backwards.
"""
import torch

from ....autograd import PyLayer, no_grad
from ....framework.tensor import wrap
from ....nn import functional as F
from ....nn.initializer import Constant
from ....nn.layer.layers import Layer
from ... import collective as _c
from ...env import is_initialized
from .._state import get_hcg
from ..meta_parallel.random import get_rng_state_tracker

__all__ = []


def _mp_group():
    hcg = get_hcg()
    if hcg is None:
        raise RuntimeError("sequence parallelism needs the hybrid communicate group: call "
                           "paddle.distributed.fleet.init(is_collective=True, strategy=...) "
                           "first")
    return hcg.get_model_parallel_group()


def _check_divisible(n, parallelism):
    assert n % parallelism == 0, (f"Input sequence length {n} can't be divided exactly by "
                                  f"sequence parallelism {parallelism}")


def scatter(input):
    """This rank's block of ``input``'s first axis (``[s, ...] -> [s / n, ...]``)."""
    group = _mp_group()
    n, rank = group.nranks, max(group.rank, 0)
    seq = input.shape[0]
    _check_divisible(seq, n)
    step = seq // n
    return wrap(input._t[step * rank:step * (rank + 1)].clone())


def all_gather(input):
    """The ranks' blocks concatenated on the first axis (``[s / n, ...] -> [s, ...]``)."""
    group = _mp_group()
    if group.nranks <= 1:
        return wrap(input._t.clone())
    parts = []
    _c.all_gather(parts, wrap(input._t.contiguous()), group=group)
    return wrap(torch.cat([p._t for p in parts], dim=0))


def reduce_scatter(input):
    """The ranks' ``input`` summed, this rank's block of the first axis kept."""
    group = _mp_group()
    n = group.nranks
    _check_divisible(input.shape[0], n)
    if n <= 1:
        return wrap(input._t.clone())
    parts = [wrap(p.contiguous()) for p in input._t.chunk(n, dim=0)]
    out = wrap(torch.empty_like(parts[0]._t))
    _c.reduce_scatter(out, parts, op=_c.ReduceOp.SUM, group=group)
    return out


def _pair(name, fwd, bwd, doc):
    """A PyLayer running ``fwd`` forward and ``bwd`` on the gradient."""
    return type(name, (PyLayer,), {
        "__doc__": doc, "__module__": __name__,
        "forward": staticmethod(lambda ctx, input: fwd(input)),
        "backward": staticmethod(lambda ctx, grad: bwd(grad))})


ScatterOp = _pair("ScatterOp", scatter, all_gather,
                  "``[s, b, h] -> [s / n, b, h]``; the gradient is all-gathered.")
GatherOp = _pair("GatherOp", all_gather, scatter,
                 "``[s / n, b, h] -> [s, b, h]``; the gradient is scattered.")
AllGatherOp = _pair("AllGatherOp", all_gather, reduce_scatter,
                    "``[s / n, b, h] -> [s, b, h]``; the gradient is reduce-scattered.")
ReduceScatterOp = _pair("ReduceScatterOp", reduce_scatter, all_gather,
                        "``[s, b, h]`` summed over the ranks ``-> [s / n, b, h]``; the "
                        "gradient is all-gathered.")


def mark_as_sequence_parallel_parameter(parameter):
    """Mark ``parameter`` as replicated over the group but fed by split activations."""
    parameter.sequence_parallel = True


def is_sequence_parallel_parameter(parameter):
    return getattr(parameter, "sequence_parallel", False)


def _allreduce_grads(params, group):
    with no_grad():
        for p in params:
            g = getattr(p, "main_grad", None)
            g = p.grad if g is None else g
            if g is not None:
                _c.all_reduce(g, op=_c.ReduceOp.SUM, group=group)


def create_fused_allreduce_gradient_hook(parameter_list, accumulation_steps):
    """One hook for all of ``parameter_list``: after every parameter's gradient of
    ``accumulation_steps`` backwards has arrived, their gradients are summed over the group."""
    group = _mp_group()
    step = [0]
    total = accumulation_steps * len(parameter_list)

    def hook(*_):
        step[0] += 1
        if step[0] == total:
            step[0] = 0
            _allreduce_grads(parameter_list, group)
    return hook


def create_non_fused_allreduce_gradient_hook(param, accumulation_steps):
    """A hook summing ``param``'s gradient over the group every ``accumulation_steps``."""
    group = _mp_group()
    step = [0]

    def hook(*_):
        step[0] += 1
        if step[0] % accumulation_steps == 0:
            _allreduce_grads([param], group)
    return hook


def register_sequence_parallel_allreduce_hooks(model, accumulation_steps,
                                               fuse_sequence_parallel_allreduce):
    """Sum the gradients of ``model``'s sequence-parallel parameters over the model-parallel
    group (nothing outside a job or with one model-parallel rank)."""
    if accumulation_steps <= 0 or not is_initialized():
        return
    if _mp_group().nranks <= 1:
        return
    params = [p for p in model.parameters()
              if is_sequence_parallel_parameter(p) and not p.stop_gradient]
    if fuse_sequence_parallel_allreduce:
        hook = create_fused_allreduce_gradient_hook(params, accumulation_steps)
        for p in params:
            p._register_backward_hook(hook)
    else:
        for p in params:
            p._register_backward_hook(create_non_fused_allreduce_gradient_hook(
                p, accumulation_steps))


def is_fused_matmul_bias_supported():
    """Whether a fused matmul+bias kernel exists (CUDA builds of Paddle): False here."""
    return False


def is_fused_linear_param_grad_add_supported():
    """Whether ``fused_linear_param_grad_add`` exists (CUDA builds of Paddle): False here."""
    return False


def _sp_group(mp_group):
    return _mp_group() if mp_group is None else mp_group


def _weight(layer, shape, attr, is_mp):
    if is_mp:
        with get_rng_state_tracker().rng_state():
            return layer.create_parameter(shape, attr=attr, dtype=layer._dtype, is_bias=False)
    return layer.create_parameter(shape, attr=attr, dtype=layer._dtype, is_bias=False)


def _no_fused(fuse_matmul_bias, cls):
    if fuse_matmul_bias:
        raise NotImplementedError(f"You set fuse_matmul_bias=True in {cls}, however, the "
                                  "paddle you are using not support this operation. Please "
                                  "set fuse_matmul_bias=False or use paddle compiled with cuda "
                                  "11.6 or higher.")


class ColumnSequenceParallelLinear(Layer):
    """A column-parallel linear whose input is split on the sequence axis: the input is
    all-gathered (``[s / n, b, h] -> [s, b, h]``) and multiplied by this rank's columns
    (``[in, out / n]``); needs more than one model-parallel rank, as in Paddle."""

    def __init__(self, in_features, out_features, weight_attr=None, has_bias=None,
                 gather_output=True, fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__()
        self.model_parallel_group = _sp_group(mp_group)
        self.world_size = self.model_parallel_group.nranks
        assert self.world_size > 1, \
            "tensor parallel degree must be greater than 1 in sequence parallel"
        self._name = name
        self.is_mp = True
        assert gather_output is False, "If sequence_parallel is True, gather_output is False"
        self.gather_output = gather_output
        assert out_features % self.world_size == 0, (
            f"Number of column of the weight for linear ({out_features}) must be divisible by "
            f"model parallel size ({self.world_size})")
        self.output_size_per_partition = out_features // self.world_size
        self._weight_attr = weight_attr
        self.weight = _weight(self, [in_features, self.output_size_per_partition], weight_attr,
                              True)
        self.weight.is_distributed = True
        self.weight.split_axis = 1
        if has_bias:
            self.bias = self.create_parameter([self.output_size_per_partition],
                                              dtype=self._dtype, is_bias=True)
            self.bias.is_distributed = True
            self.bias.split_axis = 0
        else:
            self.bias = None
        _no_fused(fuse_matmul_bias, "ColumnSequenceParallelLinear")
        self.fuse_matmul_bias = False

    def forward(self, x):
        return F.linear(AllGatherOp.apply(x), self.weight, self.bias, name=self._name)


class RowSequenceParallelLinear(Layer):
    """A row-parallel linear whose output is split on the sequence axis: this rank's rows
    (``[in / n, out]``) multiply the parallel input, the partial products are reduce-scattered
    (``[s, b, out] -> [s / n, b, out]``), then the bias (a sequence-parallel parameter) is
    added. With one rank it is a plain linear."""

    def __init__(self, in_features, out_features, weight_attr=None, has_bias=True,
                 input_is_parallel=False, fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        assert input_is_parallel is True, \
            "If sequence_parallel is True, input_is_parallel should be true."
        self.input_is_parallel = input_is_parallel
        self._weight_attr = weight_attr
        self._name = name
        self.model_parallel_group = _sp_group(mp_group)
        self.world_size = self.model_parallel_group.nranks
        self.rank = self.model_parallel_group.rank
        self.is_mp = self.world_size > 1
        assert in_features % self.world_size == 0, (
            f"Number of row of the weight for linear ({in_features}) must be divisible by "
            f"model parallel size ({self.world_size})")
        self.input_size_per_partition = in_features // self.world_size
        self.weight = _weight(self, [self.input_size_per_partition, out_features], weight_attr,
                              self.is_mp)
        self.weight.is_distributed = self.is_mp
        if self.is_mp:
            self.weight.split_axis = 0
        if has_bias:
            self.bias = self.create_parameter([out_features], attr=Constant(0.0),
                                              dtype=self._dtype, is_bias=True)
            if self.is_mp:
                mark_as_sequence_parallel_parameter(self.bias)
        else:
            self.bias = None
        _no_fused(fuse_matmul_bias, "RowParallelLinear")
        self.mp_scale = None

    def forward(self, x):
        if not self.is_mp:
            return F.linear(x, self.weight, self.bias, name=self._name)
        out = ReduceScatterOp.apply(F.linear(x, self.weight, None, name=self._name))
        return out if self.bias is None else out + self.bias
