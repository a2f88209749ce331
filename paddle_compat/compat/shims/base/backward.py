"""``paddle.base.backward``: the static graph's backward builders."""
import re
from collections.abc import Sequence

from ....static.backward import append_backward, gradients
from .core import grad_var_suffix

__all__ = ["append_backward", "gradients", "calc_gradient"]

_GRAD_END = re.compile(re.escape(grad_var_suffix()) + "+@|" + re.escape(grad_var_suffix()) + "$")


def _strip_grad_suffix_(name):
    """The forward variable's name behind a gradient variable's name: cut at the first
    ``@GRAD`` followed by ``@`` or ending the name (``y@GRAD@RENAME@1`` -> ``y``, while
    ``z@GRAD_slice_0@GRAD`` -> ``z@GRAD_slice_0``), then drop the ``grad/`` name scopes in front
    (``grad/grad/z@GRAD`` -> ``z``)."""
    m = _GRAD_END.search(name)
    stem = name[:m.start()] if m else name
    scope = name.rfind("grad/")          # Paddle measures the scopes on the whole name
    return stem[scope + len("grad/"):] if scope != -1 else stem


def calc_gradient(targets, inputs, target_gradients=None, no_grad_set=None):
    """The gradients of ``targets`` w.r.t. ``inputs`` appended to their program, as
    ``gradients`` does: a list for a list of inputs, as Paddle 3.3.1 returns it; one input
    Variable gives its gradient alone (Paddle's legacy-IR form)."""
    grads = gradients(targets, inputs, target_gradients, no_grad_set)
    return grads if isinstance(inputs, Sequence) else grads[0]


def _append_grad_suffix_(name):
    """The gradient variable's name of the variable ``name`` (``x`` -> ``x@GRAD``)."""
    return name + grad_var_suffix()


def _as_list(x):
    """``x`` as a list: [] for None, the items of a sequence, else ``[x]``."""
    if x is None:
        return []
    return list(x) if isinstance(x, Sequence) else [x]
