"""``paddle.distributed.split``: the static-graph model-parallel linear / embedding op.

As in Paddle 3.3.1, it checks its arguments first (AssertionError with Paddle's messages),
then refuses dynamic mode with a ValueError pointing at the model-parallel layers. In a
static program, ``num_partitions=1`` builds the plain layer (``static.nn.fc`` without its
flattening, or an embedding lookup) with ``weight_attr`` / ``bias_attr``; splitting the
weight over several ranks of a static program (Paddle's c_allreduce / c_concat ops under
``fleet.init``) is not supported and raises NotImplementedError naming it.
"""
from .. import nn, static
from ..framework import mode
from ..framework.param_attr import ParamAttr

__all__ = ["split"]


def split(x, size, operation, axis=0, num_partitions=1, gather_out=True, weight_attr=None,
          bias_attr=None, name=None):
    """Model-parallel ``linear`` (``x @ W + b``, ``W`` of shape ``size``) or ``embedding``
    (a table of ``size``) with the weight split ``num_partitions`` ways along ``axis``."""
    assert isinstance(size, (list, tuple)), (
        "The type of size for paddle.distributed.split must be list or tuple.")
    assert len(size) == 2, "Number of elements in size of paddle.distributed.split must be two."
    assert isinstance(operation, str), (
        "The type of operation for paddle.distributed.split must be str.")
    supported = ["linear", "embedding"]
    assert operation in supported, (
        f"The operation for paddle.distributed.split must be one of {supported}.")
    if not mode.in_static_mode():
        raise ValueError("paddle.distributed.split cannot be used in dynamic graph mode, please "
                         "use ParallelEmbedding, ParallelRowLinear, ParallelColumnLinear "
                         "instead.")
    if operation == "embedding":
        assert axis == 0, ("We only support to split the weight of embedding along the first "
                           "axis now.")
        assert size[0] % num_partitions == 0, (
            "The length of the vocabulary must be divisible by num_partitions but received "
            f"vocabulary={size[0]} num_partitions={num_partitions}")
    elif axis not in (0, 1):
        raise ValueError(f"The value of axis must be 0 or 1, but the value given is {axis}.")
    if num_partitions != 1:
        raise NotImplementedError(
            "paddle.distributed.split with num_partitions > 1 (a weight split over the ranks "
            "of a static program) is not supported by paddle_compat; in dynamic mode use "
            "paddle.distributed.fleet.meta_parallel's VocabParallelEmbedding / "
            "ColumnParallelLinear / RowParallelLinear")
    weight_attr, bias_attr = _attr(weight_attr), _attr(bias_attr)
    if operation == "embedding":
        return static.nn.embedding(x, size=list(size), param_attr=weight_attr)
    w = static.create_parameter(list(size), dtype=x.dtype, attr=weight_attr)
    out = nn.functional.linear(x, w)
    if bias_attr is not False:
        b = static.create_parameter([size[1]], dtype=x.dtype, attr=bias_attr, is_bias=True)
        out = out + b
    return out


def _attr(attr):
    """An initializer given as the attribute means ParamAttr(initializer=it), as in Paddle."""
    if isinstance(attr, nn.initializer.Initializer):
        return ParamAttr(initializer=attr)
    return attr
