"""``paddle.decomposition``: Paddle rewrites a program's composite operators into primitive ones
(its decomposition rules) while forward prim is enabled (``core._set_prim_forward_enabled``).
Here ``static.decompose`` lowers the composite ops it has rules for
(meshgrid, stack, softmax, tile, roll, unbind, index_select, lerp) in the program's graph; the
Variables of the lowered ops' results stay valid, so ``decompose`` returns the values it was
given, which now hold what the decomposed program computes."""
from ...static import decompose as _decompose

__all__ = ["decompose"]


def decompose(program, src_vars, blacklist=frozenset(), whitelist=frozenset(), start_index=0,
              end_index=-1):
    """Under forward prim, lower ``program``'s composite ops (all of them, or those of ``whitelist``, never those of
    ``blacklist``); the values of ``src_vars`` after decomposition: the same Variables here."""
    if not isinstance(src_vars, (list, tuple)):
        raise TypeError(f"decompose takes a list of the program's values, got "
                        f"{type(src_vars).__name__}")
    graph, tracer = getattr(program, "graph", None), getattr(program, "tracer", None)
    if graph is not None and tracer is not None and _decompose.forward_enabled():
        _decompose.lower(graph, tracer, set(blacklist), set(whitelist))
    return list(src_vars)
