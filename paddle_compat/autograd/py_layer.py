"""``paddle.autograd.PyLayer``: Paddle's custom operators, built on ``torch.autograd.Function``.

Each ``PyLayer`` subclass gets one ``torch.autograd.Function`` subclass, made once when the
class is defined. ``apply`` hands the Function the torch tensors found in the arguments (top
level, one level inside lists/tuples, keyword values: Paddle's rule) plus the call's state (a
``_Call``) holding the original arguments, so the user's ``forward`` sees exactly the objects it
was given. The torch ``ctx`` *is* the ``PyLayerContext``: the Function's backward node class mixes
``PyLayerContext`` in (named ``<Layer>_backward`` as in Paddle), so attributes set in ``forward``
are there in ``backward`` and nothing else holds the context alive (no reference cycles).

Paddle rules adapted here (see tests/test_pylayer*.py and tests/goldens/pylayer.json):

* ``forward`` and ``backward`` run with grad mode off, except ``backward`` under
  ``create_graph=True`` (double backward works when backward uses differentiable ops).
* outputs: a Tensor, or a list/tuple holding at least one Tensor (else ``ValueError``); other
  items are passed through. A list/tuple inside the outputs is one slot: ``backward`` gets a list
  of gradients for it (Paddle 3.3.1 crashes there).
* ``backward`` returns one gradient per tensor slot of the inputs (a list/tuple argument is one
  slot taking a list of gradients), as a Tensor or a tuple; a top-level list is read as a tuple
  too (Paddle's docs), unless the only slot is itself a list argument. ``None`` is allowed for
  any slot and required for slots that stop gradient (``ValueError`` otherwise).
* a gradient for an input leaf with another shape than the leaf's (a [5], [1, 3] or [] one for
  a [2, 3] leaf) becomes its .grad as it is, and one with another dtype too where the leaf was
  made from data (``to_tensor``; a leaf made by an op, or a Parameter, gets it cast); gradients
  of different shapes do not add up (RuntimeError), integer ones neither (NotImplementedError);
  ``paddle.grad`` returns them as they are (``py_layer_grads._paddle_leaf_grad``). For an input
  made by an op, torch's shape check stays (Paddle hands such a gradient to the op's grad
  kernel unchecked), and so it does for raw torch tensors.
* integer/bool outputs take part in autograd as in Paddle (stop_gradient=False): torch gets a
  float64 carrier in their place (``_int_carriers``), ``apply`` hands out the integer tensor
  joined to it (``framework.int_grad``: casting it back to float carries the gradient), and
  ``backward`` receives their gradients in their own dtype (truncated, as Paddle's are).
* an input returned unchanged and marked non-differentiable now stops gradient (the caller's
  Tensor too) and ``backward`` must return None for it; an input leaf returned unchanged
  otherwise raises, whether or not it stops gradient (Paddle 3.3.1).
* an input returned unchanged is modified in place: ``apply`` returns the same Python object,
  now carrying this layer's node (``ValueError`` for a leaf that needs grad); after
  ``mark_not_inplace(x)`` the output is a new tensor and gradients still reach ``x`` (as the docs
  say; Paddle 3.3.1 drops them).
* exceptions inside ``backward`` become ``OSError("(External) ...")`` naming the layer, like
  Paddle; a second backward without ``retain_graph`` raises instead of crashing.

Beyond Paddle: called with raw ``torch.Tensor`` arguments, ``apply`` returns raw torch tensors,
so a ported PyLayer works inside torch code like any ``autograd.Function``; and a function that
calls PyLayers compiles with ``torch.compile(fullgraph=True)`` (``py_layer_compile``: the second
Function used while dynamo traces, and what it does not model).

The forward path is kept lean (it is timed against a raw autograd.Function in
bench/bench_pylayer.py): torch's C ``apply`` is called directly, ``save_for_backward`` hands the
tensors to torch at once, the ctx options are set on torch's ctx as they are called, and the ctx
gets a ``__dict__`` only when something needs one.

Given static Variables (``paddle.static`` or ``jit.to_static`` tracing), ``apply`` records one
graph node through ``framework.hooks.record_pylayer``, which ``paddle_compat.static`` fills when
it is imported (a Variable cannot exist before).

The parts: ``py_layer_context`` (``PyLayerContext``, saved tensors), ``py_layer_grads`` (forward's
outputs and backward's gradients, by Paddle's rules), ``py_layer_compile`` (under
``torch.compile``); this module makes the Functions and runs ``apply``.
"""
import torch
from torch.autograd.function import FunctionCtx

from ..framework import hooks
from ..framework.tensor import Tensor
from ..framework.int_grad import make_payload as _make_payload
from ..framework.tensor import wrap as _wrap
from .py_layer_compile import _make_traced_function, _traced_apply
from .py_layer_context import PyLayerContext
from .py_layer_grads import _backward, _flatten_outputs, _wrap_args

__all__ = ["PyLayer", "PyLayerContext", "once_differentiable"]

_TorchTensor = torch.Tensor
_c_apply = torch._C._FunctionBase.__dict__["apply"]
_functorch_active = torch._C._are_functorch_transforms_active
_is_grad_enabled = torch.is_grad_enabled
_mark_dirty = FunctionCtx.mark_dirty
try:
    _is_compiling = torch.compiler.is_compiling
except AttributeError:                      # pragma: no cover
    def _is_compiling():
        return False
#: the dtypes torch differentiates; outputs of other dtypes get a carrier (``_int_carriers``)
_DIFF = frozenset((torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
                   torch.complex128))


# ---------------------------------------------------------------------- the torch Function
class _Call:
    """The state of one ``PyLayer.apply`` call: ``apply`` passes it through torch's ``apply`` to
    the Function's ``forward``, which fills in the outputs, and reads it back afterwards.

    Set by ``apply`` (field by field: no ``__init__`` frame on the hot path):

    * ``args``, ``kwargs``: the arguments as given (forward sees exactly these objects);
    * ``raw``: only raw torch tensors were given (forward sees Tensors; results are raw);
    * ``in_slots``: None while every input slot is one tensor, else one entry per slot: -1 for
      a tensor, n for a list/tuple holding n tensors;
    * ``record``: torch records a grad node (grad mode is on and a tensor input needs grad);
    * ``inplace``: None; ``forward`` makes it the list of the input torch tensors it returned
      (modified in place).

    Set by ``forward``: ``out``, what the layer's forward returned.
    """

    __slots__ = ("args", "kwargs", "raw", "in_slots", "record", "inplace", "out")


def _make_function(layer):
    name = layer.__name__

    class _Function(torch.autograd.Function):
        @staticmethod
        def forward(ctx, call, *tensors):
            # Call the layer's forward on the original arguments (``call``: a ``_Call``);
            # flatten its outputs to torch tensors.
            if call.raw:
                args, kwargs = _wrap_args(call.args, call.kwargs)
                out = layer.forward(ctx, *args, **kwargs)
            else:
                kwargs = call.kwargs
                out = (layer.forward(ctx, *call.args, **kwargs) if kwargs
                       else layer.forward(ctx, *call.args))
            call.out = out
            if type(out) is Tensor and (not call.record or out._t.dtype in _DIFF):
                t = out._t                           # the common case: one Tensor out
                if call.record:
                    if call.in_slots is not None:
                        ctx._pl_in = call.in_slots
                    if call.raw:
                        ctx._pl_raw = True      # torch's rules for the gradients of leaves
                    for i in tensors:
                        if i.is_leaf and i.requires_grad and i.grad is None:
                            _note_fresh_leaves(ctx, tensors)
                            break
                for k, i in enumerate(tensors):
                    if t is i:
                        _inplace_output(layer, ctx, call, t, k)
                        break
                return t
            flat, slots = _flatten_outputs(layer, out)
            if call.record:
                if not call.raw:
                    flat = _int_carriers(ctx, flat, tensors)
                else:
                    ctx._pl_raw = True
                if call.in_slots is not None:
                    ctx._pl_in = call.in_slots
                _note_fresh_leaves(ctx, tensors)
                if slots is not None:
                    for n in slots:
                        if n >= 0:
                            ctx._pl_oslots = slots
                            break
                    if len(flat) > 1 and ctx.__dict__.get("_pl_materialize", True):
                        # Several outputs: missing gradients are materialized in backward, so
                        # that the zeros report stop_gradient=True as in Paddle.
                        ctx.materialize_grads = False
                        ctx._pl_meta = tuple((t.shape, t.dtype, t.device) for t in flat)
            # an input returned unchanged: modified in place (unless marked not inplace)
            if tensors:
                for t in flat:
                    for k, i in enumerate(tensors):
                        if t is i:
                            _inplace_output(layer, ctx, call, t, k)
                            break
            return flat[0] if slots is None else flat

        @staticmethod
        def backward(ctx, *grads):
            return _backward(layer, ctx, grads)

    _Function.__name__ = name
    _Function.__qualname__ = getattr(layer, "__qualname__", name)
    _Function.__module__ = layer.__module__
    torch_ctx = _Function._backward_cls
    ctx_cls = type(name + "_backward", (PyLayerContext, torch_ctx), {"_forward_cls": _Function})
    ctx_cls._autograd_function_id = torch_ctx._autograd_function_id
    ctx_cls.__module__ = layer.__module__
    _Function._backward_cls = ctx_cls
    _Function._pl_layer = layer
    return _Function


def _int_carriers(ctx, flat, inputs):
    """Integer/bool outputs take part in autograd as in Paddle: torch gets a float64 copy (the
    carrier) in their place; ``apply`` hands out the integer tensor joined to it
    (``framework.int_grad``) and ``backward`` receives their gradients in their own dtype."""
    ints = None
    orig = flat
    for i, t in enumerate(flat):
        if t.dtype not in _DIFF:
            nd = ctx.non_differentiable
            if (nd is not None and any(t is n for n in nd)) or any(t is i for i in inputs):
                continue
            if ints is None:
                ints = []
                flat = list(flat)
            ints.append((i, t.dtype))
            flat[i] = t.to(torch.float64)
    if ints is None:
        return flat
    ctx._pl_int = tuple(ints)
    # saved_tensor() marks these integer outputs as not stopping gradient
    ctx._pl_int_keys = frozenset((t.data_ptr(), t.dtype, tuple(t.shape))
                                 for t in (orig[i] for i, _ in ints))
    return tuple(flat)


def _note_fresh_leaves(ctx, tensors):
    """Remember the input leaves that have no gradient yet (see ``_mark_first_grad``)."""
    fresh = None
    for k, t in enumerate(tensors):
        if t.is_leaf and t.requires_grad and t.grad is None:
            if fresh is None:
                fresh = []
            fresh.append((k, t))
    if fresh is not None:
        ctx._pl_fresh = fresh


def _inplace_output(layer, ctx, call, t, k):
    """Forward returned its ``k``-th input tensor ``t``: it is modified in place (Paddle)."""
    d = ctx.__dict__
    not_inplace = d.get("_pl_not_inplace")
    if not_inplace is not None and id(t) in not_inplace:
        return                            # torch returns a new tensor (a view) for it
    if call.record:                       # a grad node will be recorded
        nd = ctx.non_differentiable
        if nd is not None and any(t is n for n in nd):
            _inplace_non_differentiable(ctx, call, t, k)
            return
        if t.is_leaf:                     # Paddle: the output does not stop gradient
            raise ValueError(f"(InvalidArgument) {layer.__name__} : Leaf Var "
                             f"({_leaf_name(call, t)}) that doesn't stop gradient can't use "
                             "inplace strategy.")
    _mark_dirty(ctx, t)       # torch bumps the version once, as Paddle's one inplace write
    if call.inplace is None:
        call.inplace = []
    call.inplace.append(t)


def _inplace_non_differentiable(ctx, call, t, k):
    """Paddle: an input returned unchanged and marked non-differentiable now stops gradient
    (the caller's Tensor object too), and backward must give None for it."""
    for a in _iter_tensor_args(call.args, call.kwargs):
        if isinstance(a, Tensor) and a._t is t:
            a.stop_gradient = True
            t = a._t
    d = ctx.__dict__
    sg = d.get("_pl_sg_inputs")
    ctx._pl_sg_inputs = (k,) if sg is None else sg + (k,)
    key = (t.data_ptr(), t.dtype, tuple(t.shape))        # saved_tensor() reports it stopped
    ctx._pl_sg_keys = d.get("_pl_sg_keys", frozenset()) | {key}
    if call.inplace is None:
        call.inplace = []
    call.inplace.append(t)                # apply hands back the same Tensor object


def _leaf_name(call, t):
    for a in _iter_tensor_args(call.args, call.kwargs):
        if isinstance(a, Tensor) and a._t is t:
            return getattr(a, "_name", "")
    return ""


def _iter_tensor_args(args, kwargs):
    for a in (*args, *kwargs.values()):
        if type(a) is list or type(a) is tuple:
            yield from a
        else:
            yield a


# ---------------------------------------------------------------------- the public class
class PyLayer(PyLayerContext):
    """Base class of Paddle's Python custom operators.

    Subclass it with static ``forward(ctx, *args, **kwargs)`` and ``backward(ctx, *grads)`` and
    call ``apply(*args, **kwargs)``::

        class cus_tanh(paddle.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x):
                y = paddle.tanh(x)
                ctx.save_for_backward(y)
                return y

            @staticmethod
            def backward(ctx, dy):
                y, = ctx.saved_tensor()
                return dy * (1 - paddle.square(y))

        z = cus_tanh.apply(x)
    """

    _pl_function = None
    _pl_traced = None
    _pl_capply = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fn = cls._pl_function = _make_function(cls)
        cls._pl_capply = _c_apply.__get__(None, fn)    # torch's C apply, bound once
        cls._pl_traced = _make_traced_function(cls)

    @staticmethod
    def forward(ctx, *args, **kwargs):
        """Compute the outputs (a Tensor or a list/tuple holding at least one Tensor)."""
        raise NotImplementedError("You must implement the forward function for PyLayer.")

    @staticmethod
    def backward(ctx, *args):
        """Return the gradients of the tensor inputs, given those of the tensor outputs."""
        raise NotImplementedError("You must implement the backward function for PyLayer.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run the layer: ``forward(ctx, *args, **kwargs)``, recording ``backward`` for the
        gradients when a tensor input needs them."""
        capply = cls._pl_capply
        if capply is None:
            raise NotImplementedError("You must implement the forward function for PyLayer.")
        # Collect the torch tensors and the input slots (Paddle: tensors at the top level, in
        # lists/tuples one level down, and keyword values). in_slots stays None while every
        # slot is one tensor (the common case); else -1 per tensor, n per list of n tensors.
        in_slots = None
        raw = False
        if not kwargs and len(args) == 1 and type(args[0]) is Tensor:   # the common case
            flat = [args[0]._t]
        else:
            flat = []
            wrapped = False
            for a in (args if not kwargs else (*args, *kwargs.values())):
                ta = type(a)
                if ta is Tensor:
                    flat.append(a._t)
                    wrapped = True
                    if in_slots is not None:
                        in_slots.append(-1)
                elif ta is list or ta is tuple:
                    n = len(flat)
                    for v in a:
                        if type(v) is Tensor:
                            flat.append(v._t)
                            wrapped = True
                        elif isinstance(v, _TorchTensor):
                            flat.append(v)
                            raw = True
                    if len(flat) > n:
                        if in_slots is None:
                            in_slots = [-1] * n
                        in_slots.append(len(flat) - n)
                elif isinstance(a, _TorchTensor):
                    flat.append(a)
                    raw = True
                    if in_slots is not None:
                        in_slots.append(-1)
                elif isinstance(a, Tensor):
                    flat.append(a._t)
                    wrapped = True
                    if in_slots is not None:
                        in_slots.append(-1)
            if raw and wrapped:
                raw = False
        record = False
        grad = _is_grad_enabled()
        for t in flat:
            if type(t) is not _TorchTensor and not isinstance(t, _TorchTensor):
                # static graph / to_static: record one node that calls apply() at run time
                return hooks.record_pylayer(cls, args, kwargs)
            if grad and t.requires_grad:
                record = True
        if _is_compiling():
            return _traced_apply(cls, args, kwargs, flat, in_slots, raw)
        call = _Call()
        call.args = args
        call.kwargs = kwargs
        call.raw = raw
        call.in_slots = in_slots
        call.record = record
        call.inplace = None
        if _functorch_active():
            res = cls._pl_function.apply(call, *flat)
        else:
            res = capply(call, *flat)
        out = call.out
        if type(out) is Tensor:                 # the common case: one Tensor out
            if raw:
                return res
            if out._t is res:
                return out
            if res.dtype is not out._t.dtype:    # an integer output and its carrier
                return _int_output(out._t, res)
            if call.inplace is None:
                return _wrap(res)               # a not-inplace output: a new Tensor
            return _rebuild_outputs((out,), (res,), raw, call.inplace)[0]
        if isinstance(out, Tensor):             # a Tensor subclass (a Parameter)
            return _rebuild_outputs((out,), (res,), raw, call.inplace)[0]
        return _rebuild_outputs(out, res, raw, call.inplace)


def _rebuild_outputs(out, res, raw, inplace):
    """Put the torch Function's outputs back into the forward's output structure: the same
    Tensors, except outputs that torch had to make anew (inputs marked not inplace).
    ``inplace``: the input torch tensors forward returned (or None)."""
    it = iter(res)
    inplace = inplace or ()

    def one(o):
        r = next(it)
        if raw:
            return r
        t = o._t
        if t is r:
            return o
        if t.dtype is not r.dtype:              # an integer output and its carrier
            return _int_output(t, r)
        for i in inplace:
            if i is t:
                # modified in place without a grad node: Paddle hands back the input as it is
                return o
        return _wrap(r)

    items = []
    for o in out:
        if isinstance(o, Tensor):
            items.append(one(o))
        elif type(o) is list or type(o) is tuple:
            seq = [one(v) if isinstance(v, Tensor) else v for v in o]
            items.append(seq if type(o) is list else tuple(seq))
        else:
            items.append(o)
    if type(out) is list:
        return items
    return tuple(items)


def _int_output(t, carrier):
    o = _wrap(_make_payload(t, carrier))
    o._sgf = True
    return o


def once_differentiable(backward):
    """Run ``backward`` without recording gradients (its result cannot be differentiated)."""
    def wrapper(ctx, *args):
        with torch.no_grad():
            return backward(ctx, *args)
    return wrapper
