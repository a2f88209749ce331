"""``paddle.base.backward``: the static graph's backward builders."""
from ....static.backward import append_backward, gradients

__all__ = ["append_backward", "gradients", "_append_grad_suffix_", "_strip_grad_suffix_",
           "_as_list"]

_GRAD = "@GRAD"


def _append_grad_suffix_(name):
    """The name of ``name``'s gradient variable: ``x`` -> ``x@GRAD``."""
    return name + _GRAD


def _strip_grad_suffix_(name):
    """The forward variable a gradient name belongs to: ``x@GRAD`` and ``x@GRAD@RENAME@0``
    -> ``x``; any other name unchanged."""
    at = name.find(_GRAD)
    return name if at == -1 else name[:at]


def _as_list(x):
    """``x`` as a list: None -> [], a list or tuple -> its items, anything else -> [x]."""
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]
