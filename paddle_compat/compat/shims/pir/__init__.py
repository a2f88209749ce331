"""``paddle.pir``: the names of Paddle's PIR that code reads outside a program (its dtype
tables, ``paddle.pir.core``)."""
import torch

from ....framework.tensor import Tensor
from . import core
from .core import datatype_to_vartype, vartype_to_datatype

__all__ = ["core", "vartype_to_datatype", "datatype_to_vartype"]


class _ValueMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and isinstance(obj._t, torch.fx.Proxy)


class Value(metaclass=_ValueMeta):
    """``paddle.pir.Value``: a value of a static program. paddle_compat's program values are
    Tensors whose payload is a graph proxy, so ``isinstance(x, paddle.pir.Value)`` holds for
    those (``paddle.static.data`` outputs and what ops make of them), not for eager Tensors,
    as in Paddle."""

    def __new__(cls, *args, **kwargs):
        raise TypeError("paddle.pir.Value: No constructor defined; values are made by ops in "
                        "a static program")


__all__ += ["Value"]
