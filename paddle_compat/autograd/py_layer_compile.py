"""PyLayers under ``torch.compile``: the second torch Function ``apply`` uses while dynamo traces.

Dynamo traces an autograd.Function by running its forward and backward on its own ctx object
(not our backward node class), rejects most side effects in backward and cannot see the
per-call ``_Call`` (``py_layer``). So while compiling, ``apply`` goes through a second Function per layer, made
once with the first: the layer's ctx is ``_TracedContext``, a thin Paddle-API view of whatever
ctx torch or dynamo passes, keeping every attribute on that ctx; forward returns the output
tensors (plus a constant describing the output structure) instead of filling a ``_Call``. The
same Function also runs correctly outside dynamo (after a graph break, dynamo runs it eagerly).

What it does not model (Paddle identity rules that make no sense inside a compiled graph):
outputs are new Tensors (an input returned unchanged comes back as a new Tensor, as with
``mark_not_inplace``; no leaf check), the gradients' stop_gradient flags, and under dynamo
``set_materialize_grads(False)`` (missing output gradients reach ``backward`` as zeros).
"""
import torch

from ..framework.tensor import Tensor
from ..framework.tensor import wrap as _wrap
from .py_layer_context import PyLayerContext, _flatten_saved, _rebuild_saved
from .py_layer_grads import _bad_grad, _check_grads, _flatten_outputs, _group, _wrap_args

_TorchTensor = torch.Tensor


class _TracedContext(PyLayerContext):
    """The ``ctx`` a PyLayer sees under ``torch.compile``: Paddle's ctx methods over torch's (or
    dynamo's) ctx ``_c``, on which all attributes live so that ``backward`` sees them."""

    __slots__ = ("_c",)

    def __init__(self, c):
        object.__setattr__(self, "_c", c)

    def __setattr__(self, name, value):
        setattr(self._c, name, value)

    def __getattr__(self, name):
        if name[:2] == "__" or name == "_c":
            raise AttributeError(name)
        return getattr(self._c, name)

    def __delattr__(self, name):
        delattr(self._c, name)

    def save_for_backward(self, *tensors):
        flat, spec = _flatten_saved(tensors)
        c = self._c
        c.save_for_backward(*flat)
        c._pl_saved = spec

    def saved_tensor(self):
        c = self._c
        spec = getattr(c, "_pl_saved", None)
        if spec is None:
            return None
        ts = c.saved_tensors
        if spec is True:
            return tuple(_wrap(t) for t in ts)
        return _rebuild_saved(spec, ts)

    def mark_not_inplace(self, *args):
        pass                                    # outputs are always new tensors here

    def mark_non_differentiable(self, *args):
        self._c.mark_non_differentiable(*[x._t if isinstance(x, Tensor) else x for x in args])

    def set_materialize_grads(self, value):
        # FunctionCtx.set_materialize_grads, spelt so that dynamo traces it
        self._c.materialize_grads = bool(value)

    def set_grad_in_dtype_consistent(self, flag):
        pass                                    # gradients come in their output's dtype


def _make_traced_function(layer):
    class _Traced(torch.autograd.Function):
        @staticmethod
        def forward(ctx, info, *tensors):
            return _traced_forward(layer, ctx, info)

        @staticmethod
        def backward(ctx, *grads):
            return _traced_backward(layer, ctx, grads)

    name = layer.__name__
    _Traced.__name__ = name
    _Traced.__qualname__ = getattr(layer, "__qualname__", name)
    _Traced.__module__ = layer.__module__
    _Traced._pl_layer = layer
    return _Traced


def _traced_apply(cls, args, kwargs, flat, in_slots, raw):
    in_slots = (-1,) * len(flat) if in_slots is None else tuple(in_slots)
    res = cls._pl_traced.apply((args, kwargs, raw, in_slots), *flat)
    if isinstance(res, _TorchTensor):
        return res if raw else _wrap(res)
    return _from_template(res[-1], res, raw)


def _traced_forward(layer, ctx, info):
    args, kwargs, raw, in_slots = info
    if raw:
        args, kwargs = _wrap_args(args, kwargs)
    out = layer.forward(_TracedContext(ctx), *args, **kwargs)
    ctx._pl_in = in_slots
    if type(out) is Tensor:
        ctx._pl_oslots = None
        return out._t
    flat, slots = _flatten_outputs(layer, out)
    ctx._pl_oslots = slots if slots is not None else (-1,)
    return (*flat, _template(out))


def _template(out):
    """A constant describing ``out``'s structure: (is_list, items), items being None for a
    Tensor, (value,) for another object, or (is_list, items) for a list/tuple."""
    if type(out) is tuple or type(out) is list:
        return (type(out) is list, tuple(_template(o) if type(o) is tuple or type(o) is list
                                         else None if isinstance(o, Tensor) else (o,)
                                         for o in out))
    return None


def _from_template(tpl, res, raw):
    if tpl is None:
        return res[0] if raw else _wrap(res[0])
    k = 0
    items = []
    for it in tpl[1]:
        if it is None:
            items.append(res[k] if raw else _wrap(res[k]))
            k += 1
        elif len(it) == 1:
            items.append(it[0])
        else:
            seq = []
            for v in it[1]:
                if v is None:
                    seq.append(res[k] if raw else _wrap(res[k]))
                    k += 1
                else:
                    seq.append(v[0])
            items.append(seq if it[0] else tuple(seq))
    return items if tpl[0] else tuple(items)


def _traced_backward(layer, ctx, grads):
    slots = ctx._pl_oslots
    if slots is None:
        gw = [None if g is None else _wrap(g) for g in grads]
    else:
        gw = _group([None if g is None else _wrap(g) for g in grads[:-1]], slots)
    res = layer.backward(_TracedContext(ctx), *gw)
    return _check_grads(layer, ctx.needs_input_grad, ctx._pl_in, res, _traced_grad)


def _traced_grad(layer, g):
    if isinstance(g, Tensor):
        return g._t
    if isinstance(g, _TorchTensor):
        return g
    raise _bad_grad(layer, g)
