"""How ``Tensor.backward`` and ``paddle.grad`` run torch's autograd engine, with Paddle's errors
(a second backward through freed tensors, a tensor changed in place after it was saved), and
Paddle's ``.grad`` of a leaf that an in-place op put into a graph (``written_leaves``)."""
import re
import weakref

import torch

__all__ = ["GradCapture", "GradientCycleError", "run_backward", "backward_with_ones",
           "written_leaves", "add_backward_final_hook"]

#: Tensors that were leaves stopping gradient when an in-place op wrote into them
#: (``tensor.writable``). Paddle still fills their ``.grad`` when the write made them part of a
#: graph (``x.add_(y)`` with y needing grad): before a backward, those keep their gradient.
#: (Keyed by id: a WeakSet would compare Tensors with ``==``.)
written_leaves = weakref.WeakValueDictionary()


def _retain_written_leaves():
    for x in list(written_leaves.values()):
        t = getattr(x, "_t", None)
        if isinstance(t, torch.Tensor) and t.grad_fn is not None:
            t.retain_grad()
    written_leaves.clear()


class GradCapture:
    """``paddle.grad`` (autograd/backward.py) and static backward passes (static/backward.py)
    set ``grads`` to a dict while torch's engine runs: the gradients of leaves that torch would
    reject or cast (a PyLayer's or custom op's gradient of another shape or dtype), by ``id`` of
    the torch leaf, as (leaf, gradient). None otherwise (torch's own ``autograd.grad`` keeps
    torch's rules)."""
    grads = None


#: Callables to run once, when the next backward (or paddle.grad) has finished
_final_hooks = []


def add_backward_final_hook(hook):
    """``paddle.base.core.eager._add_backward_final_hook``: call ``hook()`` once, after the
    next backward pass (``Tensor.backward`` or ``paddle.grad``) has finished."""
    if not callable(hook):
        raise TypeError(f"_add_backward_final_hook(): the hook must be callable, but got "
                        f"{type(hook).__name__}")
    _final_hooks.append(hook)


def _run_final_hooks():
    hooks = list(_final_hooks)
    _final_hooks.clear()
    for hook in hooks:
        hook()


class GradientCycleError(SystemError):
    """A backward ran through a graph whose saved tensors were already freed."""


_VERSION_ERROR = re.compile(r"is at version (\d+); expected version (\d+)")


# torch's autograd engine, called directly where torch.autograd.backward would only add
# argument checks we have already made (None if a future torch moves it).
_engine = getattr(getattr(torch.autograd, "Variable", None), "_execution_engine", None)


def _translate_backward_error(e):
    """Re-raise torch's autograd errors as Paddle reports them."""
    msg = str(e)
    m = _VERSION_ERROR.search(msg)
    if m:
        raise RuntimeError(
            "(PermissionDenied) Tensor '' used in gradient computation has been modified by an "
            f"inplace operation. Its version is {m.group(1)} but the expected version is "
            f"{m.group(2)}. Please fix your code to void calling an inplace operator after "
            "using the Tensor which will used in gradient computation.\n  [Hint: Expected "
            "tensor_version == wrapper_version_snapshot, but received tensor_version:"
            f"{m.group(1)} != wrapper_version_snapshot:{m.group(2)}.]") from None
    if "backward through the graph a second time" in msg or "already been freed" in msg:
        raise GradientCycleError(
            "(Fatal) The saved tensors of this graph were freed by an earlier backward: you "
            "calculate backward twice for the same subgraph without setting "
            "retain_graph=True. Please set retain_graph=True in the first backward/grad "
            "call.") from None
    raise e


def run_backward(tensors, grads, retain_graph, create_graph=False, inputs=None):
    try:
        if inputs is None:
            if written_leaves:
                _retain_written_leaves()
            torch.autograd.backward(tensors, grads, retain_graph=retain_graph,
                                    create_graph=create_graph)
            res = None
        else:
            res = torch.autograd.grad(tensors, inputs, grads, retain_graph=retain_graph,
                                      create_graph=create_graph, allow_unused=True)
    except RuntimeError as e:
        _translate_backward_error(e)
    if _final_hooks:
        _run_final_hooks()
    return res


def backward_with_ones(t, retain_graph):
    """Backward from ``t`` with ones as its gradient (Paddle's default, for any shape); the
    engine is called directly, as ones of t's own shape need no validation."""
    g = torch.ones_like(t)
    if written_leaves:
        _retain_written_leaves()
    if _engine is None:
        run_backward((t,), (g,), retain_graph)
        return
    try:
        _engine.run_backward((t,), (g,), retain_graph, False, (), allow_unreachable=True,
                             accumulate_grad=True)
    except RuntimeError as e:
        _translate_backward_error(e)
    if _final_hooks:
        _run_final_hooks()
