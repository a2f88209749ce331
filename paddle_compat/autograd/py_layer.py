"""``paddle.autograd.PyLayer``: Paddle's custom operators, built on ``torch.autograd.Function``.

Each ``PyLayer`` subclass gets one ``torch.autograd.Function`` subclass, made once when the
class is defined. ``apply`` hands the Function the torch tensors found in the arguments (top
level, one level inside lists/tuples, keyword values: Paddle's rule) plus a small per-call box
holding the original arguments, so the user's ``forward`` sees exactly the objects it was given.
The torch ``ctx`` *is* the ``PyLayerContext``: the Function's backward node class mixes
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
* an input returned unchanged is modified in place: ``apply`` returns the same Python object,
  now carrying this layer's node (``ValueError`` for a leaf that needs grad); after
  ``mark_not_inplace(x)`` the output is a new tensor and gradients still reach ``x`` (as the docs
  say; Paddle 3.3.1 drops them).
* exceptions inside ``backward`` become ``OSError("(External) ...")`` naming the layer, like
  Paddle; a second backward without ``retain_graph`` raises instead of crashing.

Beyond Paddle: called with raw ``torch.Tensor`` arguments, ``apply`` returns raw torch tensors,
so a ported PyLayer works inside torch code like any ``autograd.Function``; and a function that
calls PyLayers compiles with ``torch.compile(fullgraph=True)`` (see "under torch.compile" below
for the second Function used while dynamo traces, and what it does not model).

The forward path is kept lean (it is timed against a raw autograd.Function in
bench/bench_pylayer.py): torch's C ``apply`` is called directly, ``save_for_backward`` hands the
tensors to torch at once, the ctx options are set on torch's ctx as they are called, and the ctx
gets a ``__dict__`` only when something needs one.
"""
import re

import torch
from torch.autograd.function import FunctionCtx

from ..framework.tensor import GradientCycleError, Tensor
from ..framework.tensor import wrap as _wrap

__all__ = ["PyLayer", "PyLayerContext", "once_differentiable"]

_new = object.__new__
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
_increment_version = torch._C._increment_version


def _wrap_grad(t):
    """A Tensor for an incoming gradient: Paddle's gradients do not stop gradient, except the
    ones a PyLayer's backward made without grad (they carry ``_paddle_stop_gradient``)."""
    o = _new(Tensor)
    o._t = t
    if not getattr(t, "_paddle_stop_gradient", False):
        o._sgf = True
    return o


def _type_name(obj):
    tp = type(obj)
    if tp.__module__ == "builtins":
        return tp.__qualname__
    if tp is Tensor:
        return "paddle.Tensor"
    return f"{tp.__module__}.{tp.__qualname__}"


class PyLayerContext:
    """The ``ctx`` a PyLayer's ``forward`` and ``backward`` receive.

    Use it to pass tensors (``save_for_backward`` / ``saved_tensor``) and any other objects (plain
    attributes, ``ctx.func = f``) from ``forward`` to ``backward``, and to set the layer's
    options: ``mark_non_differentiable``, ``mark_not_inplace``, ``set_materialize_grads``,
    ``set_grad_in_dtype_consistent``. Inside a PyLayer it is torch's ctx of the backward node.
    """

    def save_for_backward(self, *tensors):
        """Keep ``tensors`` (Tensors, lists/tuples of Tensors, None, other objects) for
        ``backward``. Call it at most once, in ``forward``; a later call replaces the first.

        The torch tensors go to torch right away (freed after backward, version-checked); the
        ctx keeps only the container's shape, never the Tensor objects (no reference cycle
        through the graph node)."""
        if len(tensors) == 1 and type(tensors[0]) is Tensor:     # the common case
            self.to_save = (tensors[0]._t,)
            if getattr(self, "_pl_saved", None) is not None:   # a second call replaces
                del self._pl_saved                           # the first
            return
        flat, spec = _flatten_saved(tensors)
        self.to_save = tuple(flat)
        if spec is True and flat:
            if getattr(self, "_pl_saved", None) is not None:
                del self._pl_saved
        else:
            self._pl_saved = () if spec is True else spec

    def saved_tensor(self):
        """The objects given to ``save_for_backward`` as a tuple, or None if nothing was saved.

        Tensors saved by a PyLayer are freed when its backward ends (unless ``retain_graph``);
        reading them after they were modified in place raises Paddle's version error."""
        try:
            ts = self.saved_tensors
        except RuntimeError as e:
            raise _translate_saved_error(e) from None
        # only Tensors were saved unless a spec says how to rebuild the container
        spec = getattr(self, "_pl_saved", None)
        if spec is None:
            return tuple(map(_wrap, ts)) if ts else None
        return _rebuild_saved(spec, ts)

    def mark_not_inplace(self, *args):
        """Outputs of ``forward`` that are these inputs become new tensors (the inputs keep
        their own autograd identity; gradients still reach them)."""
        self._pl_not_inplace = tuple(id(x._t) if isinstance(x, Tensor) else id(x) for x in args)

    def mark_non_differentiable(self, *args):
        """These outputs stop gradient; their gradients reach ``backward`` as zeros (or None
        with ``set_materialize_grads(False)``)."""
        self.non_differentiable = tuple(x._t if isinstance(x, Tensor) else x for x in args)

    def set_materialize_grads(self, value):
        """True (default): missing output gradients reach ``backward`` as zeros of the output's
        shape and dtype; False: as None."""
        value = bool(value)
        self._pl_materialize = value
        self.materialize_grads = value

    def set_grad_in_dtype_consistent(self, flag):
        """True (default): gradients reach ``backward`` in their output's dtype; False: in the
        dtype the following layer produced them."""
        global _any_keep_dtype
        if flag:
            self.__dict__.pop("_pl_keep_dtype", None)
        else:
            _any_keep_dtype = True
            self._pl_keep_dtype = True


_VERSION_RE = re.compile(r"is at version (\d+); expected version (\d+)")


def _translate_saved_error(e):
    msg = str(e)
    m = _VERSION_RE.search(msg)
    if m:
        return _SavedTensorError(
            "(PermissionDenied) Tensor '' used in gradient computation has been modified by an "
            f"inplace operation. Its version is {m.group(1)} but the expected version is "
            f"{m.group(2)}. Please fix your code to void calling an inplace operator after "
            "using the Tensor which will used in gradient computation.")
    if "backward through the graph a second time" in msg or "already been freed" in msg:
        return GradientCycleError(
            "(Fatal) The saved tensors of this PyLayer were freed by an earlier backward: you "
            "calculate backward twice for the same subgraph without setting retain_graph=True. "
            "Please set retain_graph=True in the first backward/grad call.")
    return e


def _rebuild_saved(spec, ts):
    out = []
    for kind, v in spec:
        if kind == 0:
            out.append(_wrap(ts[v]))
        elif kind == 1:
            out.append(v)
        else:
            seq_type, items = v
            out.append(seq_type(_wrap(ts[j]) if k == 0 else j for k, j in items))
    return tuple(out)


def _flatten_saved(container):
    """The torch tensors in ``container`` (one level into lists/tuples) and how to rebuild it:
    True when it is only Tensors, else one ``(kind, value)`` per item (see ``_rebuild_saved``)."""
    flat = []
    for o in container:
        if type(o) is not Tensor:
            break
        flat.append(o._t)
    else:
        return flat, True
    flat = []
    spec = []
    for o in container:
        if isinstance(o, Tensor):
            spec.append((0, len(flat)))
            flat.append(o._t)
        elif isinstance(o, _TorchTensor):
            spec.append((0, len(flat)))
            flat.append(o)
        elif type(o) is list or type(o) is tuple:
            items = []
            for v in o:
                if isinstance(v, (Tensor, _TorchTensor)):
                    items.append((0, len(flat)))
                    flat.append(v._t if isinstance(v, Tensor) else v)
                else:
                    items.append((1, v))
            spec.append((2, (type(o), tuple(items))))
        else:
            spec.append((1, o))
    return flat, tuple(spec)


# ---------------------------------------------------------------------- the torch Function
def _make_function(layer):
    name = layer.__name__

    class _Function(torch.autograd.Function):
        @staticmethod
        def forward(ctx, box, *tensors):
            # Call the layer's forward on the original arguments; flatten its outputs to torch
            # tensors. box: args, kwargs, raw, out, out slots, in slots, record, in-place outs.
            if box[2]:
                args, kwargs = _wrap_args(box[0], box[1])
                out = layer.forward(ctx, *args, **kwargs)
            else:
                kwargs = box[1]
                out = (layer.forward(ctx, *box[0], **kwargs) if kwargs
                       else layer.forward(ctx, *box[0]))
            box[3] = out
            if type(out) is Tensor:                  # the common case: one Tensor out
                t = out._t
                if box[6]:
                    if box[5] is not None:
                        ctx._pl_in = box[5]
                    for i in tensors:
                        if i.is_leaf and i.requires_grad and i.grad is None:
                            _note_fresh_leaves(ctx, tensors)
                            break
                for i in tensors:
                    if t is i:
                        _inplace_output(layer, ctx, box, t)
                        break
                return t
            flat, slots = _flatten_outputs(layer, out)
            box[4] = slots
            if box[6]:
                if box[5] is not None:
                    ctx._pl_in = box[5]
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
                    for i in tensors:
                        if t is i:
                            _inplace_output(layer, ctx, box, t)
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


def _flatten_outputs(layer, out):
    if type(out) is tuple or type(out) is list:
        items = out
    elif isinstance(out, Tensor):
        return (out._t,), None
    else:
        items = (out,)
    flat = []
    slots = []
    for o in items:
        if isinstance(o, Tensor):
            flat.append(o._t)
            slots.append(-1)
        elif type(o) is list or type(o) is tuple:
            n = 0
            for v in o:
                if isinstance(v, Tensor):
                    flat.append(v._t)
                    n += 1
            if n:
                slots.append(n)
    if not flat:
        raise ValueError(f"(InvalidArgument) {layer.__name__} : At least one output of "
                         "`PyLayer.forward` is a `Tensor`.")
    return tuple(flat), tuple(slots)


def _inplace_output(layer, ctx, box, t):
    not_inplace = ctx.__dict__.get("_pl_not_inplace")
    if not_inplace is not None and id(t) in not_inplace:
        return                            # torch returns a new tensor (a view) for it
    if box[6]:                            # a grad node will be recorded
        if t.requires_grad and t.is_leaf:
            raise ValueError(f"(InvalidArgument) {layer.__name__} : Leaf Var "
                             f"({_leaf_name(box, t)}) that doesn't stop gradient can't use "
                             "inplace strategy.")
        _increment_version(t)
    _mark_dirty(ctx, t)
    if box[7] is None:
        box[7] = []
    box[7].append(t)


def _leaf_name(box, t):
    for a in _iter_tensor_args(box[0], box[1]):
        if isinstance(a, Tensor) and a._t is t:
            return getattr(a, "_name", "")
    return ""


def _iter_tensor_args(args, kwargs):
    for a in (*args, *kwargs.values()):
        if type(a) is list or type(a) is tuple:
            yield from a
        else:
            yield a


def _wrap_args(args, kwargs):
    """Raw torch tensors in the arguments become Tensors (mixed torch code)."""
    def conv(a):
        if isinstance(a, _TorchTensor):
            return _wrap(a)
        if type(a) is list or type(a) is tuple:
            return type(a)(_wrap(v) if isinstance(v, _TorchTensor) else v for v in a)
        return a
    return tuple(conv(a) for a in args), {k: conv(v) for k, v in kwargs.items()}


# ---------------------------------------------------------------------- backward
def _backward(layer, ctx, grads):
    d = ctx.__dict__
    meta = d.get("_pl_meta")
    if meta is None:
        gw = [None if g is None else _wrap_grad(g) for g in grads]
    else:
        # materialized here so that the zeros report stop_gradient=True, as in Paddle
        gw = [_wrap_grad(g) if g is not None else
              _wrap(torch.zeros(m[0], dtype=m[1], device=m[2])) for g, m in zip(grads, meta)]
    slots = d.get("_pl_oslots")
    if slots is not None:
        gw = _group(gw, slots)
    if d.get("_pl_keep_dtype"):
        gw = _restore_dtypes(ctx, gw)
    try:
        res = layer.backward(ctx, *gw)
    except _PassThrough:
        raise
    except Exception as e:
        raise OSError(f"(External) \n{{\n    ===== Error message in backward of "
                      f"GradNodePyLayer_{layer.__name__} =====\n    {type(e).__name__}: {e}\n}}"
                      ) from e
    needs = ctx.needs_input_grad
    in_slots = d.get("_pl_in")
    if in_slots is None:                # only top-level tensor arguments
        in_slots = (-1,) * (len(needs) - 1)
    out = _check_grads(layer, needs, in_slots, res, _grad_tensor)
    fresh = d.get("_pl_fresh")
    if fresh is not None:
        del ctx._pl_fresh
        for k, t in fresh:
            g = out[k + 1]
            if g is not None and getattr(g, "_paddle_stop_gradient", False) and t.grad is None:
                _mark_first_grad(t)
    if _any_keep_dtype:
        for k in range(1, len(out)):
            if out[k] is not None:
                _stash_dtype(ctx, k - 1, out[k])
    return out


def _mark_first_grad(leaf):
    """Paddle: a leaf's .grad that a PyLayer's backward made (without grad) reports
    stop_gradient=True. Mark the gradient once torch has accumulated it."""
    handle = None

    def hook(p):
        g = p.grad
        if g is not None:
            g._paddle_stop_gradient = True
        handle.remove()

    handle = leaf.register_post_accumulate_grad_hook(hook)


class _SavedTensorError(RuntimeError):
    """Paddle's version error for a saved tensor modified in place (not wrapped in OSError)."""


_PassThrough = (_SavedTensorError, GradientCycleError)
_any_keep_dtype = False


def _restore_dtypes(ctx, gw):
    """set_grad_in_dtype_consistent(False): give back the gradients in the dtype the following
    PyLayer produced them (torch casts them to the output's dtype on the way)."""
    pending = ctx.__dict__.pop("_pl_pending", None)
    if pending:
        gw = list(gw)
        for i, g in pending.items():
            gw[i] = _wrap_grad(g)
    return gw


def _stash_dtype(ctx, k, g):
    """Remember ``g`` (for the ``k``-th tensor input) in the dtype it was returned, when the
    input comes from a PyLayer that keeps incoming dtypes."""
    try:
        node, nr = ctx.next_functions[k]
    except (IndexError, RuntimeError):
        return
    if node is not None and getattr(node, "_pl_keep_dtype", False):
        pending = node.__dict__.setdefault("_pl_pending", {})
        prev = pending.get(nr)
        pending[nr] = g if prev is None else prev + g


def _group(gw, slots):
    out = []
    i = 0
    for n in slots:
        if n < 0:
            out.append(gw[i])
            i += 1
        else:
            out.append(gw[i:i + n])
            i += n
    return out


def _check_grads(layer, needs, in_slots, res, convert):
    """The torch Function's gradients (None first, for its non-tensor argument) from what the
    layer's backward returned. ``needs``: the Function's ``needs_input_grad``; ``in_slots``: per
    input slot -1 (a tensor) or n (a list/tuple of n tensors); ``convert(layer, g)``: a torch
    tensor from one returned gradient."""
    if type(res) is tuple:
        pass
    elif type(res) is list and not (len(in_slots) == 1 and in_slots[0] >= 0):
        res = tuple(res)
    else:
        res = (res,)
    nres = len(res)
    if nres > len(in_slots):
        raise ValueError(f"(InvalidArgument) GradNodePyLayer_{layer.__name__} : The number of "
                         f"outputs of `PyLayer.backward` should be {len(in_slots)}, but received "
                         f"{nres}.")
    out = [None]
    k = 1
    for i, n in enumerate(in_slots):
        if n < 0:
            need = needs[k]
            if i < nres:
                g = res[i]
                if g is None:
                    out.append(None)
                elif not need:
                    raise _none_expected(layer, i)
                else:
                    out.append(convert(layer, g))
            elif need:
                raise _empty(layer, i)
            else:
                out.append(None)
            k += 1
        else:
            need = any(needs[k:k + n])
            if i < nres and res[i] is not None:
                g = res[i]
                if not need:
                    raise _none_expected(layer, i)
                if type(g) is not list and type(g) is not tuple:
                    g = (g,)
                if len(g) != n:
                    raise ValueError(
                        f"(InvalidArgument) GradNodePyLayer_{layer.__name__} : The {i}-th output "
                        f"of `PyLayer.backward` should hold {n} gradients (one per Tensor in the "
                        f"{i}-th input), but received {len(g)}.")
                for j, v in enumerate(g):
                    out.append(None if v is None or not needs[k + j] else convert(layer, v))
            elif i >= nres and need:
                raise _empty(layer, i)
            else:
                out.extend([None] * n)
            k += n
    return tuple(out)


def _grad_tensor(layer, g):
    if type(g) is Tensor:
        t = g._t
        if not t.requires_grad and not getattr(g, "_sgf", False):
            # made without grad inside backward: Paddle reports such a .grad stop_gradient=True
            try:
                t._paddle_stop_gradient = True
            except Exception:             # pragma: no cover - e.g. a Proxy
                pass
        return t
    if isinstance(g, _TorchTensor):
        return g
    if isinstance(g, Tensor):
        return g._t
    raise _bad_grad(layer, g)


def _bad_grad(layer, g):
    return ValueError(f"(InvalidArgument) GradNodePyLayer_{layer.__name__} : We can only "
                      f"support Tensor or None for backward output, , but got {_type_name(g)}, "
                      "please check your PyLayer code and make it fits")


def _none_expected(layer, i):
    return ValueError(f"(InvalidArgument) GradNodePyLayer_{layer.__name__}'s backward function "
                      f"should return None at {i} position, because it's forward Tensor's "
                      "stopgradient is true.")


def _empty(layer, i):
    return ValueError(f"(InvalidArgument) GradNodePyLayer_{layer.__name__}'s backward function "
                      f"should not return empty at {i} position.")


# ---------------------------------------------------------------------- under torch.compile
# Dynamo traces an autograd.Function by running its forward and backward on its own ctx object
# (not our backward node class), rejects most side effects in backward and cannot see the
# per-call box. So while compiling, ``apply`` goes through a second Function per layer, made
# once with the first: the layer's ctx is ``_TracedContext``, a thin Paddle-API view of whatever
# ctx torch or dynamo passes, keeping every attribute on that ctx; forward returns the output
# tensors (plus a constant describing the output structure) instead of filling a box. The
# same Function also runs correctly outside dynamo (after a graph break, dynamo runs it eagerly).
#
# What it does not model (Paddle identity rules that make no sense inside a compiled graph):
# outputs are new Tensors (an input returned unchanged comes back as a new Tensor, as with
# ``mark_not_inplace``; no leaf check), the gradients' stop_gradient flags, and under dynamo
# ``set_materialize_grads(False)`` (missing output gradients reach ``backward`` as zeros).

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
            scan = ()
        else:
            flat = []
            scan = args if not kwargs else (*args, *kwargs.values())
        wrapped = False
        for a in scan:
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
                from ..static.nn import record_pylayer
                return record_pylayer(cls, args, kwargs)
            if grad and t.requires_grad:
                record = True
        if _is_compiling():
            return _traced_apply(cls, args, kwargs, flat, in_slots, raw)
        # box: args, kwargs, raw, out, out slots, in slots, record, inputs modified in place
        box = [args, kwargs, raw, None, None, in_slots, record, None]
        if _functorch_active():
            res = cls._pl_function.apply(box, *flat)
        else:
            res = capply(box, *flat)
        out = box[3]
        if box[4] is None:
            if type(out) is Tensor:
                if raw:
                    return res
                if out._t is res:
                    return out
                if box[7] is None:
                    return _wrap(res)      # a not-inplace output: a new Tensor
            return _rebuild_outputs((out,), (res,), raw, box)[0]
        return _rebuild_outputs(out, res, raw, box)


def _rebuild_outputs(out, res, raw, box):
    """Put the torch Function's outputs back into the forward's output structure: the same
    Tensors, except outputs that torch had to make anew (inputs marked not inplace)."""
    it = iter(res)
    inplace = box[7] or ()

    def one(o):
        r = next(it)
        if raw:
            return r
        t = o._t
        if t is r:
            return o
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


def once_differentiable(backward):
    """Run ``backward`` without recording gradients (its result cannot be differentiated)."""
    def wrapper(ctx, *args):
        with torch.no_grad():
            return backward(ctx, *args)
    return wrapper
