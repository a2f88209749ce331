"""Tracing a Layer (or a ``to_static`` function) into the static program that model files are
written from: its InputSpecs (Paddle's rules for unnamed and nested specs), its parameters by
tensor identity, and ``trace_to_pir`` (the PIR document and parameters ``paddle.jit.save``
writes). ``trace_to_pir(..., writer=, emit=)`` lets another writer (the Paddle 2.x ProgramDesc
of ``static.program_desc_writer``) take the same ops.
"""
import inspect

import torch

from ..framework import hooks as _hooks
from ..framework.dtype import from_torch_dtype, to_torch_dtype
from ..framework.tensor import Tensor
from ..static import io as _sio
from ..static import mode as _mode
from ..static.input_spec import InputSpec
from ..static.program import Program, program_guard
from .layers_utils import flatten, is_sequence, pack_sequence_as

__all__ = ["trace_to_pir"]


def _last_call_specs(sf):
    """InputSpecs of the Tensors of the last call a to_static function traced (Paddle saves
    that program when no input_spec is given: concrete shapes, inputs named
    ``_jst.K.ARG.0``), or None."""
    cache = getattr(sf, "_cache", None) or {}
    traced = [k for k, v in cache.items() if hasattr(v, "gm") and isinstance(k, tuple) and
              len(k) == 4]
    if not traced:
        return None
    names = _arg_names(getattr(sf, "_fn", sf))
    out = []
    for leaf in traced[-1][1]:
        if isinstance(leaf, tuple) and len(leaf) == 4 and isinstance(leaf[1], torch.dtype):
            k = len(out)
            arg = names[k] if k < len(names) else f"arg{k}"
            out.append(InputSpec(list(leaf[0]), from_torch_dtype(leaf[1]), f"_jst.{k}.{arg}.0"))
    return out


def _arg_names(fn):
    try:
        return [p.name for p in inspect.signature(fn).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return []


def _spec_leaf(s, name, k):
    """One InputSpec of ``input_spec`` entry ``k``: a Tensor's shape and dtype, an unnamed
    spec named ``name`` (Paddle names it as the argument)."""
    if isinstance(s, Tensor):
        s = InputSpec(list(s.shape), s.dtype, getattr(s, "name", None))
    if not isinstance(s, InputSpec):
        raise NotImplementedError(f"paddle.jit.save: input_spec entry {k} holds "
                                  f"{type(s).__name__}; only InputSpec and Tensor (or "
                                  "lists/dicts of them) are supported")
    return s if s.name else InputSpec(s.shape, s.dtype, name, s.stop_gradient)


def _specs(fn_owner, input_spec, fn):
    """``(flat InputSpecs, the entries as given)``: an entry may be a list/tuple/dict of specs
    (a forward taking a dict of tensors); the program's feeds are their leaves in Paddle's
    flatten order (dict values by sorted key)."""
    if input_spec is None:
        sf = getattr(fn_owner, "forward", fn_owner)
        input_spec = getattr(sf, "_input_spec", None) or _last_call_specs(sf)
    if input_spec is None:
        raise ValueError("No valid transformed program for function: forward, input_spec: "
                         "None. Please specific `input_spec` in `@paddle.jit.to_static` or in "
                         "paddle.jit.save (a list of InputSpec or Tensors)")
    out, names = [], _arg_names(fn)
    for k, s in enumerate(input_spec):
        arg = names[k] if k < len(names) else f"input_{k}"
        if is_sequence(s):
            out.extend(_spec_leaf(leaf, f"{arg}_{j}", k) for j, leaf in enumerate(flatten(s)))
        else:
            out.append(_spec_leaf(s, arg, k))
    return out, list(input_spec)


def _function_of(layer):
    """(the Python function to trace, the Layers whose tensors are its parameters)."""
    fwd = getattr(layer, "forward", None)
    if _hooks.is_layer(layer):
        return getattr(fwd, "dygraph_function", fwd), [layer]
    fn = getattr(layer, "dygraph_function", layer)
    owner = getattr(fn, "__self__", None)
    if owner is not None and _hooks.is_layer(owner):
        return fn, [owner]
    # a to_static function: the Layers it reaches (closure, globals), as its guards list them
    guarded = getattr(layer, "_guarded_layers", None)
    return fn, list(guarded()) if guarded is not None else []


def _parameters(layers):
    """id(torch tensor) -> (name, trainable, tensor) for the Layers' parameters/buffers."""
    found = {}
    for root in layers:
        for p in list(root.parameters()) + list(root.buffers()):
            found.setdefault(id(p._t), (p.name, not p.stop_gradient, p._t))
    return found


def trace_to_pir(layer, input_spec=None, where=None, writer=None, emit=None):
    """The PIR document and ``{name: array}`` parameters ``save`` writes for ``layer``; with
    ``writer`` (a ``static.io.ProgramWriter`` alike) and ``emit`` (more fx target -> emitter
    entries), that writer's document."""
    fn, layers = _function_of(layer)
    specs, entries = _specs(layer, input_spec, fn)
    where = where or f"paddle.jit.save({type(layers[0] if layers else layer).__name__})"
    prog = Program()
    names = []
    with _mode.mode_guard(True), program_guard(prog, Program()):
        args = []
        for k, s in enumerate(specs):
            name = s.name or f"input_{k}"
            names.append(name)
            args.append(prog.add_input(name, list(s.shape), to_torch_dtype(s.dtype)))
        feeds_of = iter(args)
        args = [pack_sequence_as(e, [next(feeds_of) for _ in flatten(e)]) if is_sequence(e)
                else next(feeds_of) for e in entries]
        out = fn(*args)
    outs = flatten(out)                       # nested lists/dicts of Tensors: their leaves
    if not all(isinstance(o, Tensor) for o in outs):
        raise NotImplementedError(f"{where}: forward must return Tensors (a Tensor or a "
                                  "list/tuple/dict of them) to be saved")
    fetch = [prog.value_node(o) for o in outs]
    keep = _sio._ancestors(fetch)            # what the outputs need, nothing else
    nodes = [n for n in prog.graph.nodes if n in keep]
    feeds = []
    for name, s in zip(names, specs):
        feeds.append((prog.node_by_name(name), name, bool(getattr(s, "stop_gradient", False))))
    known = _parameters(layers)
    consts = [0]

    def resolve(n):
        if n.op == "placeholder":
            raise NotImplementedError(f"{where}: a static persistable {n.meta.get('var_name')}")
        t = prog.attribute(n.target)
        hit = known.get(id(t))
        if hit is not None:
            return hit[0], hit[2], hit[1]
        base = t._base
        if base is not None and id(base) in known and t.dim() == 2 and base.dim() == 2 and \
                t.shape == base.shape[::-1] and t.stride() == base.stride()[::-1]:
            hit = known[id(base)]
            return hit[0], hit[2], hit[1], "T"
        if base is not None and id(base) in known and t.shape == base.shape:
            hit = known[id(base)]
            return hit[0], hit[2], hit[1]
        consts[0] += 1
        return f"constant_folding_{consts[0] - 1}", t, False

    creation = [v[0] for v in known.values()]
    return _sio.program_to_pir(nodes, feeds, fetch, resolve, where, creation, writer,
                                emit)
