"""``paddle.incubate.autograd.primapi``: Paddle's lowering of static programs to primitive
operators (``to_prim``) and its gradient functions over them. paddle_compat's programs are run
as built (there is no separate primitive operator set), so ``to_prim`` leaves them as they are;
``grad`` and ``forward_grad`` are the static-program gradients."""
from ...static.backward import gradients
from ..missing import UnsupportedAPIError

__all__ = ["to_prim", "grad", "forward_grad"]


def to_prim(blocks, blacklist=frozenset(), whitelist=frozenset(), start_idx=-1,
            backward_length=-1):
    """Lower ``blocks`` to primitive operators: nothing to do on paddle_compat's programs."""
    return None


def grad(outputs, inputs, grad_outputs=None):
    """Reverse-mode gradients of ``outputs`` w.r.t. ``inputs`` in the program being built."""
    res = gradients(outputs, inputs, grad_outputs)
    return res[0] if not isinstance(inputs, (list, tuple)) else res


def forward_grad(outputs, inputs, grad_inputs=None):
    """Forward-mode gradients: not available on static programs here."""
    raise UnsupportedAPIError("paddle.incubate.autograd.primapi.forward_grad",
                              "use paddle.incubate.autograd.jvp in dynamic mode")
