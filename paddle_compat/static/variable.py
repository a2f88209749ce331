"""How a static Variable prints: ``variable_repr`` and the type string of a node's value.

``Variable`` is ``Tensor`` itself: a Tensor whose ``_t`` is a ``StaticProxy``. ``Tensor.__repr__``
(framework/) hands such tensors to ``hooks.static_repr``, which this module fills when
``paddle_compat.static`` is imported (a Variable cannot exist before that).
"""
import operator

import torch

from ..framework import dtype as _dt
from ..framework import hooks
from .proxy import shape_of

__all__ = ["variable_repr", "type_str"]

_SHORT = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
          "int64": "i64", "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "ui8",
          "bool": "b", "complex64": "c64", "complex128": "c128"}


def type_str(node):
    """Paddle's type of a node's value, ``tensor<-1x5xf32>`` ("" for a non-tensor value)."""
    pv = node.meta.get("pv")
    if pv is None or not isinstance(pv[0], torch.Tensor):
        return ""
    dims = "x".join(str(d) for d in shape_of(node))
    name = _dt.from_torch_dtype(pv[0].dtype).name
    short = _SHORT.get(name, name)
    return f"tensor<{dims + 'x' if dims else ''}{short}>"


def variable_repr(v):
    """Paddle 3.3.1's repr of a static Value: ``Value(define_op_name=pd_op.exp, index=0,
    dtype=tensor<-1x5xf32>, stop_gradient=False)``."""
    n = orig = v._t.node
    if n.op == "placeholder":
        op = "pd_op.parameter" if n.meta.get("parameter") else "pd_op.data"
    else:
        if n.target is operator.getitem and hasattr(n.args[0], "meta"):
            n = n.args[0]
        op = "pd_op." + str(n.meta.get("op_type") or (n.target if n.op == "call_method" else
                                                     getattr(n.target, "__name__", "op")))
    return (f"Value(define_op_name={op}, index=0, dtype={type_str(orig)}, "
            f"stop_gradient={v.stop_gradient})")


hooks.static_repr.set(variable_repr)
