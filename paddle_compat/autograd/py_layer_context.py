"""``PyLayerContext``: what a PyLayer's ``forward`` hands to its ``backward``.

Saved tensors (``save_for_backward``/``saved_tensor``: the torch tensors go to torch at once, the
ctx keeps only how to rebuild the container) and the layer's options (``mark_non_differentiable``,
``mark_not_inplace``, ``set_materialize_grads``, ``set_grad_in_dtype_consistent``), set on torch's
ctx as they are called. ``py_layer`` mixes the class into each layer's torch backward node, so
the ctx *is* that node.
"""
import re

import torch

from ..framework.autograd_engine import GradientCycleError
from ..framework.tensor import Tensor
from ..framework.tensor import wrap as _wrap

__all__ = ["PyLayerContext"]

_TorchTensor = torch.Tensor

#: set once any ctx called ``set_grad_in_dtype_consistent(False)``: only then does a backward
#: pass look for gradients to hand on in their own dtype (``py_layer_grads``)
_any_keep_dtype = False


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
            if not ts:
                return None
            out = tuple(map(_wrap, ts))
        else:
            out = _rebuild_saved(spec, ts)
        d = self.__dict__
        keys = d.get("_pl_int_keys")
        if keys is not None:
            _mark_saved(out, keys, True)
        keys = d.get("_pl_sg_keys")
        if keys is not None:
            _mark_saved(out, keys, False)
        return out

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
            "using the Tensor which will used in gradient computation.\n  [Hint: Expected "
            "tensor_version == wrapper_version_snapshot, but received tensor_version:"
            f"{m.group(1)} != wrapper_version_snapshot:{m.group(2)}.]")
    if "backward through the graph a second time" in msg or "already been freed" in msg:
        return GradientCycleError(
            "(Fatal) The saved tensors of this PyLayer were freed by an earlier backward: you "
            "calculate backward twice for the same subgraph without setting retain_graph=True. "
            "Please set retain_graph=True in the first backward/grad call.")
    return e


def _mark_saved(items, keys, keep):
    """Set stop_gradient of the saved Tensors named by ``keys`` ((data_ptr, dtype, shape), as
    ``py_layer`` noted them) as Paddle reports it: ``keep`` (integer outputs, which take part in
    autograd) does not stop gradient; else (inputs returned and marked non-differentiable) do."""
    for o in items:
        if type(o) is list or type(o) is tuple:
            _mark_saved(o, keys, keep)
        elif isinstance(o, Tensor):
            t = o._t
            if (t.data_ptr(), t.dtype, tuple(t.shape)) in keys:
                if keep:
                    o._sgf = True
                else:
                    o.stop_gradient = True


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


class _SavedTensorError(RuntimeError):
    """Paddle's version error for a saved tensor modified in place (not wrapped in OSError)."""
