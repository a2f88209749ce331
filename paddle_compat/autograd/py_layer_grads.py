"""What crosses a PyLayer's torch Function, by Paddle's rules: ``forward``'s outputs and the
gradients into and out of ``backward``.

``_flatten_outputs``: forward's outputs as torch tensors plus their slots (a list/tuple output is
one slot); ``_backward``: the Function's backward -- wraps the incoming gradients (materialized
zeros that stop gradient, grouped per slot, in their own dtype where asked), calls the layer's
``backward``, and turns its result into torch's gradients with Paddle's count/type checks and
error messages (``_check_grads``), marking the gradients made without grad as Paddle reports them.
"""
import torch

from ..framework.autograd_engine import GradCapture as _Capture
from ..framework.autograd_engine import GradientCycleError
from ..framework.tensor import Tensor, _new
from ..framework.tensor import wrap as _wrap
from . import py_layer_context as _context
from .py_layer_context import _SavedTensorError

_TorchTensor = torch.Tensor
_will_execute = torch._C._will_engine_execute_node


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


def _wrap_args(args, kwargs):
    """Raw torch tensors in the arguments become Tensors (mixed torch code)."""
    def conv(a):
        if isinstance(a, _TorchTensor):
            return _wrap(a)
        if type(a) is list or type(a) is tuple:
            return type(a)(_wrap(v) if isinstance(v, _TorchTensor) else v for v in a)
        return a
    return tuple(conv(a) for a in args), {k: conv(v) for k, v in kwargs.items()}


def _backward(layer, ctx, grads):
    d = ctx.__dict__
    meta = d.get("_pl_meta")
    if meta is None:
        gw = [None if g is None else _wrap_grad(g) for g in grads]
    else:
        # materialized here so that the zeros report stop_gradient=True, as in Paddle
        gw = [_wrap_grad(g) if g is not None else
              _wrap(torch.zeros(m[0], dtype=m[1], device=m[2])) for g, m in zip(grads, meta)]
    ints = d.get("_pl_int")
    if ints is not None:                # integer outputs: their gradients in their dtype
        for i, dt in ints:
            g = gw[i]
            if g is not None:
                ng = _wrap(g._t.to(dt))
                if g._sgf:              # materialized zeros stay stop_gradient=True
                    ng._sgf = True
                gw[i] = ng
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
    sg = d.get("_pl_sg_inputs")
    if sg is not None:                  # inputs that stopped gradient in forward
        needs = list(needs)
        for k in sg:
            needs[k + 1] = False
    in_slots = d.get("_pl_in")
    if in_slots is None:                # only top-level tensor arguments
        in_slots = (-1,) * (len(needs) - 1)
    out = _check_grads(layer, needs, in_slots, res, _grad_tensor)
    fresh = d.get("_pl_fresh")
    if fresh is not None:               # input leaves that had no gradient at forward
        del ctx._pl_fresh
        for k, t in fresh:
            g = out[k + 1]
            if g is None:
                continue
            if (g.dtype is not t.dtype or not g.is_same_size(t)) and "_pl_raw" not in d \
                    and _paddle_leaf_grad(ctx, k, t, g):
                out = out[:k + 1] + (None,) + out[k + 2:]   # torch gets none for it
                continue
            if t.grad is None and (
                    getattr(g, "_paddle_stop_gradient", False) or g.dtype is not t.dtype):
                # made without grad, or cast to the input's dtype: Paddle's .grad stops gradient
                _mark_first_grad(t)
    if _context._any_keep_dtype:
        for k in range(1, len(out)):
            if out[k] is not None:
                _stash_dtype(ctx, k - 1, out[k])
    return out


def _paddle_leaf_grad(ctx, k, leaf, g):
    """Paddle's rule for a gradient ``g`` of the input leaf ``leaf`` (the ``k``-th tensor input)
    that torch would reject (another shape) or cast (another dtype). ``backward`` stores one of
    another shape as the leaf's .grad as it is (a [5] or [] .grad of a [2, 3] leaf), and one of
    another dtype as it is where the leaf was made from data (``to_tensor``; a leaf made by an op,
    or a Parameter, gets it cast to its dtype, as torch does): ``_store_paddle_grad``.
    ``paddle.grad`` returns it as it is (``_Capture``). True where torch gets None for it.

    Only leaves without a gradient at forward are looked at (``_pl_fresh``: free on the common
    path); a leaf holding a gradient already raises for another shape, in torch as in Paddle."""
    node = ctx.next_functions[k][0]
    try:
        run = _will_execute(node)
    except RuntimeError:                # torch.autograd.grad: gradients are captured there
        cap = _Capture.grads
        if cap is None:
            return False
        prev = cap.get(id(leaf))
        cap[id(leaf)] = (leaf, g if prev is None else _sum_grads(prev[1], g))
        return True
    if not run:
        return False                    # backward(inputs=...) leaving this leaf out
    if g.dtype is not leaf.dtype and not getattr(leaf, "_paddle_from_data", False):
        if g.is_same_size(leaf):
            return False                # torch casts it to the leaf's dtype, as Paddle does
        g = g.to(leaf.dtype)            # another shape: Paddle casts it and keeps the shape
        g._paddle_stop_gradient = True
    _store_paddle_grad(leaf, g)
    return True


def _store_paddle_grad(leaf, g):
    """Accumulate ``g`` (another shape, or dtype, than torch allows) into the .grad Paddle shows
    for ``leaf``: kept beside torch's (``leaf._paddle_grad``, read by ``Tensor.grad``). As in
    Paddle, gradients of different shapes cannot be summed (RuntimeError), nor integer ones
    (NotImplementedError); the sum keeps the first gradient's dtype and stop_gradient."""
    prev = leaf.grad
    if prev is not None:                # torch's own .grad (an earlier backward)
        leaf.grad = _sum_grads(prev, g)     # same shape: the leaf's shape and dtype
        return
    prev = getattr(leaf, "_paddle_grad", None)
    leaf._paddle_grad = g if prev is None else _sum_grads(prev, g)
    if not getattr(leaf, "_paddle_grad_hooked", False):
        leaf._paddle_grad_hooked = True
        leaf.register_post_accumulate_grad_hook(_merge_torch_grad)


def _merge_torch_grad(leaf):
    """torch accumulated a gradient into ``leaf.grad`` while Paddle's odd one is kept: one sum,
    in Paddle's .grad."""
    prev = getattr(leaf, "_paddle_grad", None)
    g = leaf.grad
    if prev is not None and g is not None:
        s = _sum_grads(prev, g)
        leaf.grad = None
        leaf._paddle_grad = s


def _sum_grads(prev, g):
    if not prev.is_same_size(g):
        raise RuntimeError(f"(PreconditionNotMet) Cannot accumulate a gradient of shape "
                           f"{list(g.shape)} into the gradient of shape {list(prev.shape)} this "
                           "tensor already has: a PyLayer's backward returned a gradient whose "
                           "shape is not its input's.")
    if not (prev.is_floating_point() or prev.is_complex()) or \
            not (g.is_floating_point() or g.is_complex()):
        bad = prev.dtype if not (prev.is_floating_point() or prev.is_complex()) else g.dtype
        raise NotImplementedError(f"(Unimplemented) Gradients of data type "
                                  f"{str(bad).replace('torch.', '')} cannot be accumulated: a "
                                  "PyLayer's backward returned an integer gradient for a tensor "
                                  "that has a gradient already.")
    s = prev + g.to(prev.dtype)
    if getattr(prev, "_paddle_stop_gradient", False):
        s._paddle_stop_gradient = True
    return s


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


_PassThrough = (_SavedTensorError, GradientCycleError)


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
