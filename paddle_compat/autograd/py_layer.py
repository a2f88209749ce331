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
so a ported PyLayer works inside torch code like any ``autograd.Function``.
"""
import re

import torch
from torch.autograd.function import BackwardCFunction, FunctionCtx

from ..framework.tensor import GradientCycleError, Tensor

__all__ = ["PyLayer", "PyLayerContext", "once_differentiable"]

_new = object.__new__
_TorchTensor = torch.Tensor
_c_apply = torch._C._FunctionBase.__dict__["apply"]
_functorch_active = torch._C._are_functorch_transforms_active
_is_grad_enabled = torch.is_grad_enabled
_save = FunctionCtx.save_for_backward
_mark_nd = FunctionCtx.mark_non_differentiable
_mark_dirty = FunctionCtx.mark_dirty
_set_mat = FunctionCtx.set_materialize_grads
try:
    _is_compiling = torch.compiler.is_compiling
except AttributeError:                      # pragma: no cover
    def _is_compiling():
        return False
_increment_version = torch._C._increment_version


def _wrap(t):
    o = _new(Tensor)
    o._t = t
    return o


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
        ``backward``. Call it at most once, in ``forward``; a later call replaces the first."""
        self._pl_container = tensors

    def saved_tensor(self):
        """The objects given to ``save_for_backward`` as a tuple, or None if nothing was saved.

        Tensors saved by a PyLayer are freed when its backward ends (unless ``retain_graph``);
        reading them after they were modified in place raises Paddle's version error."""
        spec = getattr(self, "_pl_saved", None)
        if spec is None:
            return getattr(self, "_pl_container", None)
        try:
            ts = self.saved_tensors
        except RuntimeError as e:
            raise _translate_saved_error(e) from None
        if spec is True:
            return tuple(map(_wrap, ts))
        return _rebuild_saved(spec, ts)

    def mark_not_inplace(self, *args):
        """Outputs of ``forward`` that are these inputs become new tensors (the inputs keep
        their own autograd identity; gradients still reach them)."""
        self._pl_not_inplace = args

    def mark_non_differentiable(self, *args):
        """These outputs stop gradient; their gradients reach ``backward`` as zeros (or None
        with ``set_materialize_grads(False)``)."""
        self._pl_non_diff = args

    def set_materialize_grads(self, value):
        """True (default): missing output gradients reach ``backward`` as zeros of the output's
        shape and dtype; False: as None."""
        self._pl_materialize = bool(value)

    def set_grad_in_dtype_consistent(self, flag):
        """True (default): gradients reach ``backward`` in their output's dtype; False: in the
        dtype the following layer produced them."""
        self._pl_dtype_consistent = bool(flag)


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


def _save_container(ctx, container):
    """Hand the saved Tensors to torch (so they are freed after backward and version-checked)
    and remember the container's shape without holding any Tensor."""
    flat = []
    plain = True
    for o in container:
        if type(o) is not Tensor:
            plain = False
            break
        flat.append(o._t)
    if plain:
        _save(ctx, *flat)
        ctx._pl_saved = True
        return
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
    _save(ctx, *flat)
    ctx._pl_saved = tuple(spec)


# ---------------------------------------------------------------------- the torch Function
def _make_function(layer):
    name = layer.__name__

    class _Function(torch.autograd.Function):
        @staticmethod
        def forward(ctx, box, *tensors):
            return _forward(layer, ctx, box, tensors)

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


def _forward(layer, ctx, box, tensors):
    """The Function's forward: call the layer's forward on the original arguments, check and
    flatten its outputs to torch tensors, apply the ctx options."""
    args, kwargs, raw = box[0], box[1], box[2]
    if raw:
        args, kwargs = _wrap_args(args, kwargs)
    out = layer.forward(ctx, *args, **kwargs) if kwargs else layer.forward(ctx, *args)

    if type(out) is Tensor:                          # the common case: one Tensor out
        t = out._t
        flat = (t,)
        slots = None
    else:
        flat, slots = _flatten_outputs(layer, out)
    box[3] = out
    box[4] = slots

    d = ctx.__dict__
    if d:
        _apply_options(layer, ctx, d, box, tensors, flat)
    ctx._pl_in = box[6]
    if len(flat) > 1 and box[7] and box[4] is not None and d.get("_pl_materialize", True):
        # Several outputs: missing gradients are materialized here, so that the zeros report
        # stop_gradient=True as in Paddle.
        _set_mat(ctx, False)
        ctx._pl_meta = tuple((t.shape, t.dtype, t.device) for t in flat)
    if box[7]:
        fresh = None
        for k, t in enumerate(tensors):
            if t.is_leaf and t.requires_grad and t.grad is None:
                if fresh is None:
                    fresh = []
                fresh.append((k, t))
        if fresh is not None:
            ctx._pl_fresh = fresh
    if slots is not None:
        for n in slots:
            if n >= 0:
                ctx._pl_oslots = slots
                break
    # an input returned unchanged: modified in place (unless marked not inplace)
    if tensors:
        for t in flat:
            for i in tensors:
                if t is i:
                    _inplace_output(layer, ctx, box, t)
                    break
    return flat[0] if slots is None else flat


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


def _apply_options(layer, ctx, d, box, tensors, flat):
    # The user's objects are dropped from ctx once handed to torch: holding the outputs there
    # would make a reference cycle through the graph node.
    container = d.pop("_pl_container", None)
    if container is not None:
        _save_container(ctx, container)
    nd = d.pop("_pl_non_diff", None)
    if nd:
        _mark_nd(ctx, *[x._t if isinstance(x, Tensor) else x for x in nd])
    if not d.get("_pl_materialize", True):
        _set_mat(ctx, False)
    if d.get("_pl_dtype_consistent", True) is False:
        global _any_keep_dtype
        _any_keep_dtype = True
        ctx._pl_keep_dtype = True
    ni = d.pop("_pl_not_inplace", None)
    if ni:
        box[5] = [x._t if isinstance(x, Tensor) else x for x in ni]


def _inplace_output(layer, ctx, box, t):
    not_inplace = box[5]
    if not_inplace is not None:
        for x in not_inplace:
            if x is t:
                return                    # torch returns a new tensor (a view) for it
    if box[7]:                            # a grad node will be recorded
        if t.requires_grad and t.is_leaf:
            raise ValueError(f"(InvalidArgument) {layer.__name__} : Leaf Var "
                             f"({_leaf_name(box, t)}) that doesn't stop gradient can't use "
                             "inplace strategy.")
        _increment_version(t)
    _mark_dirty(ctx, t)
    if box[8] is None:
        box[8] = []
    box[8].append(t)


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
    out = _check_grads(layer, ctx, d, res)
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


def _check_grads(layer, ctx, d, res):
    in_slots = d["_pl_in"]              # per input slot: -1 plain tensor, n: list of n tensors
    needs = ctx.needs_input_grad        # (box, *tensors)
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
                    out.append(_grad_tensor(layer, g))
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
                    out.append(None if v is None or not needs[k + j] else _grad_tensor(layer, v))
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
    raise ValueError(f"(InvalidArgument) GradNodePyLayer_{layer.__name__} : We can only support "
                     f"Tensor or None for backward output, , but got {_type_name(g)}, please "
                     "check your PyLayer code and make it fits")


def _none_expected(layer, i):
    return ValueError(f"(InvalidArgument) GradNodePyLayer_{layer.__name__}'s backward function "
                      f"should return None at {i} position, because it's forward Tensor's "
                      "stopgradient is true.")


def _empty(layer, i):
    return ValueError(f"(InvalidArgument) GradNodePyLayer_{layer.__name__}'s backward function "
                      f"should not return empty at {i} position.")


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

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._pl_function = _make_function(cls)

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
        fn = cls._pl_function
        if fn is None:
            raise NotImplementedError("You must implement the forward function for PyLayer.")
        # Collect the torch tensors and the input slots (Paddle: tensors at the top level, in
        # lists/tuples one level down, and keyword values).
        flat = []
        in_slots = []
        raw = False
        wrapped = False
        for a in (args if not kwargs else (*args, *kwargs.values())):
            ta = type(a)
            if ta is Tensor:
                flat.append(a._t)
                in_slots.append(-1)
                wrapped = True
            elif ta is list or ta is tuple:
                n = 0
                for v in a:
                    if type(v) is Tensor:
                        flat.append(v._t)
                        wrapped = True
                        n += 1
                    elif isinstance(v, _TorchTensor):
                        flat.append(v)
                        raw = True
                        n += 1
                if n:
                    in_slots.append(n)
            elif isinstance(a, _TorchTensor):
                flat.append(a)
                in_slots.append(-1)
                raw = True
            elif isinstance(a, Tensor):
                flat.append(a._t)
                in_slots.append(-1)
                wrapped = True
        raw = raw and not wrapped
        for t in flat:                            # static graph / to_static: record one node
            if not isinstance(t, _TorchTensor):   # that calls apply() at run time
                from ..static.nn import record_pylayer
                return record_pylayer(cls, args, kwargs)
        record = False
        if _is_grad_enabled():
            for t in flat:
                if t.requires_grad:
                    record = True
                    break
        # box: args, kwargs, raw, out, out slots, not-inplace, in slots, record
        # box: ..., in slots, record, outputs that were inputs modified in place
        box = [args, kwargs, raw, None, None, None, in_slots, record, None]
        if _is_compiling() or _functorch_active():
            res = fn.apply(box, *flat)
        else:
            res = _c_apply.__get__(None, fn)(box, *flat)
        out = box[3]
        if box[4] is None:
            if type(out) is Tensor:
                if raw:
                    return res
                if out._t is res:
                    return out
                if box[8] is None:
                    return _wrap(res)      # a not-inplace output: a new Tensor
            res = (res,)
            out = (out,)
            return _rebuild_outputs(out, res, raw, box)[0]
        return _rebuild_outputs(out, res, raw, box)


def _rebuild_outputs(out, res, raw, box):
    """Put the torch Function's outputs back into the forward's output structure: the same
    Tensors, except outputs that torch had to make anew (inputs marked not inplace)."""
    it = iter(res)
    inplace = box[8] or ()

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
