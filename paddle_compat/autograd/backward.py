"""``paddle.grad`` and ``paddle.autograd.backward`` over torch autograd.

Paddle differences handled here: ``grad_outputs`` default to ones of any shape (not only
scalars), an input that does not reach the outputs is a ValueError unless ``allow_unused``,
``no_grad_vars`` blocks gradients through the given intermediates, and a backward through freed
saved tensors raises instead of crashing.
"""
import torch

from ..framework.autograd_engine import run_backward
from ..framework.tensor import Tensor, wrap
from .py_layer_grads import _Capture, _sum_grads

__all__ = ["grad", "backward"]


def _as_list(x, what):
    if isinstance(x, Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            if not isinstance(v, Tensor) and v is not None:
                raise TypeError(f"{what}[{i}] must be a Tensor, but received {type(v).__name__}")
        return list(x)
    raise TypeError(f"{what} must be a Tensor or a list of Tensors, but received "
                    f"{type(x).__name__}")


def _seed(o, create_graph):
    """The default gradient of an output: ones; differentiable in a create_graph pass, as
    Paddle's is, so that the gradient of ``x + 1`` (the seed passed through) is too."""
    t = o._t
    if create_graph and (t.is_floating_point() or t.is_complex()):
        return torch.ones_like(t, requires_grad=True)
    return torch.ones_like(t)


def _grads_for(outputs, grad_outputs, create_graph=False):
    if grad_outputs is None:
        return [_seed(o, create_graph) for o in outputs]
    gs = _as_list(grad_outputs, "grad_outputs")
    if len(gs) != len(outputs):
        raise ValueError(f"The length of grad_outputs ({len(gs)}) must be equal to the length of "
                         f"outputs ({len(outputs)})")
    return [_seed(o, create_graph) if g is None else _one_element_as(g._t, o._t)
            for o, g in zip(outputs, gs)]


def _one_element_as(g, o):
    """A one-element gradient for a one-element output of another rank ([1] for a 0-D
    result, as Paddle accepts) takes the output's shape, differentiably."""
    if g.shape != o.shape and g.numel() == 1 and o.numel() == 1:
        return g.reshape(o.shape)
    return g


def _grad_args(outputs, inputs, grad_outputs, no_grad_vars, create_graph):
    """``paddle.grad``'s argument checks, Paddle's AssertionErrors and messages: the lists of
    outputs, inputs, grad_outputs (None entries allowed) and no_grad_vars (a set too)."""
    def tensors(v, name):
        assert v is not None, f"{name} should not be None"
        if isinstance(v, (list, tuple)):
            assert len(v) > 0, f"{name} cannot be empty"
            for e in v:
                assert isinstance(e, Tensor), f"Elements of {name} must be Tensor"
            return list(v)
        assert isinstance(v, Tensor), f"{name} must be Tensor or list of Tensor"
        return [v]
    outs, ins = tensors(outputs, "outputs"), tensors(inputs, "inputs")
    if grad_outputs is not None:
        gs = grad_outputs if isinstance(grad_outputs, (list, tuple)) else [grad_outputs]
        for g in gs:
            assert g is None or isinstance(g, Tensor), \
                "grad_outputs must be None, a Variable or a list containing None or Variables"
        assert len(gs) == len(outs), "The length of grad_outputs must be equal to outputs"
    if no_grad_vars is None:
        no_grad_vars = []
    elif isinstance(no_grad_vars, Tensor):
        no_grad_vars = [no_grad_vars]
    elif isinstance(no_grad_vars, (list, tuple, set)):
        no_grad_vars = list(no_grad_vars)
        for v in no_grad_vars:
            assert isinstance(v, Tensor), "no_grad_vars can only contains Tensor"
    else:
        raise AssertionError("no_grad_vars must be None, Tensor or list/tuple/set of Tensors")
    assert isinstance(create_graph, bool), "create_graph must be True or False"
    return outs, ins, no_grad_vars


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False, no_grad_vars=None, *,
         dump_backward_graph_path=None):
    """Gradients of ``outputs`` with respect to ``inputs``, as a list of Tensors (or None)."""
    if dump_backward_graph_path is not None:
        raise NotImplementedError("paddle.grad(): dump_backward_graph_path (Paddle's dump of "
                                  "its backward graph) is not supported by paddle_compat")
    outs, ins, no_grad_vars = _grad_args(outputs, inputs, grad_outputs, no_grad_vars,
                                         create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    grads = _grads_for(outs, grad_outputs, create_graph)
    for i, x in enumerate(ins):
        if not x._t.requires_grad:
            if allow_unused:
                continue
            raise ValueError(f"(InvalidArgument) The {i}-th input does not appear in the backward "
                             "graph. Please check the input tensor or set allow_unused=True to get "
                             "None result.")
    handles = []
    for v in no_grad_vars:
        if v._t.requires_grad:
            handles.append(v._t.register_hook(torch.zeros_like))
    live = [x._t for x in ins if x._t.requires_grad]
    used = [o._t for o in outs if o._t.requires_grad]
    captured = _Capture.grads
    _Capture.grads = {}
    try:
        if live and used:
            res = run_backward(used, [g for o, g in zip(outs, grads) if o._t.requires_grad],
                                retain_graph, create_graph, inputs=live)
        else:
            res = [None] * len(live)
    finally:
        captured, _Capture.grads = _Capture.grads, captured
        for h in handles:
            h.remove()
    if captured:
        res = _with_captured(live, list(res), captured)
    it = iter(res)
    result = []
    for i, x in enumerate(ins):
        g = next(it) if x._t.requires_grad else None
        if g is None and not allow_unused:
            raise ValueError(f"(InvalidArgument) The {i}-th input does not appear in the backward "
                             "graph. Please check the input tensor or set allow_unused=True to get "
                             "None result.")
        result.append(None if g is None else wrap(g))
    return result


def _with_captured(live, res, captured):
    """A PyLayer's gradients for input leaves that torch would reject or cast (another shape or
    dtype, py_layer_grads._Capture): Paddle returns them as they are."""
    for j, t in enumerate(live):
        c = captured.get(id(t))
        if c is not None and c[0] is t:
            res[j] = c[1] if res[j] is None else _sum_grads(c[1], res[j])
    return res


def backward(tensors, grad_tensors=None, retain_graph=False):
    """Accumulate gradients of several tensors into their leaves in one pass."""
    ts = _as_list(tensors, "tensors")
    gs = _grads_for(ts, grad_tensors)
    pairs = [(t._t, g) for t, g in zip(ts, gs) if t._t.requires_grad]
    if pairs:
        run_backward([p[0] for p in pairs], [p[1] for p in pairs], retain_graph)
