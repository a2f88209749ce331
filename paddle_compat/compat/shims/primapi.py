"""``paddle.incubate.autograd.primapi``: Paddle's lowering of static programs to primitive
operators (``to_prim``: ``static.decompose`` lowers the composite ops it has rules for) and its
gradient functions over them (``grad`` and ``forward_grad`` are the static-program
gradients)."""
from ...static import decompose as _decompose
from ...static.backward import gradients
from ..missing import UnsupportedAPIError

__all__ = ["to_prim", "grad", "forward_grad"]


def to_prim(blocks, blacklist=frozenset(), whitelist=frozenset(), start_idx=-1,
            backward_length=-1):
    """Lower the composite ops of ``blocks``' programs (``static.decompose``: meshgrid,
    stack, softmax, tile, roll, unbind, index_select, lerp) to primitive ones, when forward
    prim is enabled (``core._set_prim_forward_enabled``) as in Paddle; ``blacklist``/``whitelist`` name op
    types to leave / the only ones to lower."""
    if not _decompose.forward_enabled():
        return None
    blocks = blocks if isinstance(blocks, (list, tuple)) else [blocks]
    done = []
    for b in blocks:
        prog = getattr(b, "program", b)
        if any(p is prog for p in done):
            continue
        done.append(prog)
        _decompose.lower(prog.graph, prog.tracer, set(blacklist), set(whitelist))
    return None


def grad(outputs, inputs, grad_outputs=None):
    """Reverse-mode gradients of ``outputs`` w.r.t. ``inputs`` in the program being built."""
    res = gradients(outputs, inputs, grad_outputs)
    return res[0] if not isinstance(inputs, (list, tuple)) else res


def forward_grad(outputs, inputs, grad_inputs=None):
    """Forward-mode gradients: not available on static programs here."""
    raise UnsupportedAPIError("paddle.incubate.autograd.primapi.forward_grad",
                              "use paddle.incubate.autograd.jvp in dynamic mode")
