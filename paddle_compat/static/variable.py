"""How a static Variable prints.

``Variable`` is ``Tensor`` itself: a Tensor whose ``_t`` is a ``StaticProxy``; ``Tensor.__repr__``
hands such tensors to ``variable_repr``.
"""

__all__ = ["variable_repr"]


def variable_repr(v):
    """Paddle 3.3.1's repr of a static Value: ``Value(define_op_name=pd_op.exp, index=0,
    dtype=tensor<-1x5xf32>, stop_gradient=False)``."""
    from .program import _type_str
    n = orig = v._t.node
    if n.op == "placeholder":
        op = "pd_op.parameter" if n.meta.get("parameter") else "pd_op.data"
    else:
        if n.target is __import__("operator").getitem and hasattr(n.args[0], "meta"):
            n = n.args[0]
        op = "pd_op." + str(n.meta.get("op_type") or (n.target if n.op == "call_method" else
                                                     getattr(n.target, "__name__", "op")))
    return (f"Value(define_op_name={op}, index=0, dtype={_type_str(orig)}, "
            f"stop_gradient={v.stop_gradient})")
