"""Custom C++ ops as Python functions: Paddle's calling rules on top of an extension's kernels.

An extension built by ``load``/``setup`` carries a registry of ops (``binding.cc``). For each
forward op this module builds:

* ``OpDef``: what ``PD_BUILD_OP`` declared (inputs with their Vec/Optional markers, outputs,
  attributes with types and defaults, the in-place map) and the grad / double-grad ops;
* a ``torch.library`` op ``torch.ops.<extension>.<op>`` (and ``<op>_grad``...), with a fake
  kernel from InferShape/InferDtype, so torch code and ``torch.compile(fullgraph=True)`` can
  call it; its autograd is the registered grad op;
* the Paddle-facing function: positional/keyword inputs and attributes, attribute type checks,
  in-place outputs that *are* their inputs, ``None`` for absent optional inputs, lists for
  vector inputs. With no gradient to record it calls the kernel directly (no dispatcher on the
  way); otherwise it goes through one ``torch.autograd.Function`` per op whose backward runs the
  grad op (and, with ``create_graph``, the double-grad op the same way). In static mode the
  torch.library op is recorded into the Program like any other op; an in-place op records its
  out-of-place twin (``FunctionalLevel``) and rebinds the Variables it wrote.

Given raw ``torch.Tensor`` inputs, the function calls the torch.library op and returns torch
tensors, so it drops into torch code (and into ``torch.compile``) unchanged.
"""
import keyword
import re

import torch

from ...autograd.py_layer_grads import _paddle_leaf_grad
from ...framework import mode as _mode
from ...framework.tensor import Tensor, _new, wrap, writable
from ...static.proxy import rebind as _rebind


__all__ = ["OpDef", "CustomOpError", "build_ops"]

GRAD = "@GRAD"
VECTOR = "@VECTOR"
OPTIONAL = "@OPTIONAL"
NEW = "@NEW"


class CustomOpError(RuntimeError):
    """A custom op that cannot be used as declared (missing kernel or grad op, bad declaration)."""


# ---------------------------------------------------------------------- attributes
def _int(v):
    return type(v) is int or (isinstance(v, int) and not isinstance(v, bool))


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _list_of(check):
    return lambda v: isinstance(v, (list, tuple)) and all(check(x) for x in v)


#: C++ attribute type -> (torch schema type, Python check, converter, Paddle's name in errors)
ATTR_TYPES = {
    "bool": ("bool", lambda v: isinstance(v, bool), bool),
    "int": ("int", _int, int),
    "int64_t": ("int", _int, int),
    "float": ("float", _num, float),
    "double": ("float", _num, float),
    "std::string": ("str", lambda v: isinstance(v, str), str),
    "std::vector<int>": ("int[]", _list_of(_int), lambda v: [int(x) for x in v]),
    "std::vector<int64_t>": ("int[]", _list_of(_int), lambda v: [int(x) for x in v]),
    "std::vector<float>": ("float[]", _list_of(_num), lambda v: [float(x) for x in v]),
    "std::vector<double>": ("float[]", _list_of(_num), lambda v: [float(x) for x in v]),
    "std::vector<std::string>": ("str[]", _list_of(lambda x: isinstance(x, str)), list),
    "std::vector<bool>": ("bool[]", _list_of(lambda x: isinstance(x, bool)), list),
}

_ATTR_RE = re.compile(r"^\s*([A-Za-z_]\w*)\s*:\s*([^=]+?)\s*(?:=\s*(.+?))?\s*$")


class Attr:
    """One declared attribute: ``"name: type"`` (optionally ``= default``)."""

    __slots__ = ("name", "ctype", "schema", "check", "convert", "default", "has_default")

    def __init__(self, op, decl):
        m = _ATTR_RE.match(decl)
        ctype = re.sub(r"\s+", "", m.group(2)) if m else None
        if m is None or ctype not in ATTR_TYPES:
            raise CustomOpError(
                f"custom op '{op}': attribute declaration {decl!r} is not supported; write "
                f"\"name: type\" with type one of {', '.join(ATTR_TYPES)}")
        self.name = m.group(1)
        self.ctype = ctype
        self.schema, self.check, self.convert = ATTR_TYPES[ctype]
        self.has_default = m.group(3) is not None
        self.default = _parse_default(op, self, m.group(3)) if self.has_default else None

    def value(self, op, v):
        if isinstance(v, Tensor) or isinstance(v, torch.Tensor):
            if v.numel() == 1 and self.schema in ("int", "float", "bool"):
                v = v.item()
        if not self.check(v):
            raise TypeError(
                f"custom op '{op}': attribute '{self.name}' must be {self.ctype}, "
                f"got {type(v).__name__} {v!r}")
        return self.convert(v)


def _parse_default(op, attr, text):
    text = text.strip()
    try:
        if attr.ctype == "bool":
            v = {"true": True, "false": False}[text]
        elif attr.ctype == "std::string":
            v = text.strip('"')
        elif attr.ctype.startswith("std::vector"):
            inner = text.strip("{}[] ")
            items = [s.strip() for s in inner.split(",") if s.strip()]
            v = [_scalar_default(x) for x in items]
        else:
            v = _scalar_default(text)
        return attr.convert(v)
    except Exception:
        raise CustomOpError(f"custom op '{op}': cannot read the default {text!r} of attribute "
                            f"'{attr.name}'") from None


def _scalar_default(text):
    t = text.rstrip("fF") if re.match(r"^[-+0-9.eE]+[fF]$", text) else text
    if t in ("true", "false"):
        return t == "true"
    if t.startswith('"'):
        return t.strip('"')
    return float(t) if any(c in t for c in ".eE") else int(t)


# ---------------------------------------------------------------------- op declarations
class Port:
    """One declared input or output: its Paddle name and its Vec/Optional markers."""

    __slots__ = ("name", "base", "vector", "optional", "pyname")

    def __init__(self, name):
        self.name = name
        self.vector = VECTOR in name
        self.optional = name.endswith(OPTIONAL)
        self.base = name.replace(OPTIONAL, "").replace(VECTOR, "")
        py = re.sub(r"\W", "_", self.base.replace(GRAD, "_grad")).lower() or "x"
        if keyword.iskeyword(py) or py[0].isdigit():
            py = "in_" + py
        self.pyname = py

    def __repr__(self):
        return self.name


class Level:
    """One of the op's levels (forward, grad, double grad) as the extension declared it."""

    def __init__(self, ext, index, info):
        name, level, inputs, outputs, attrs, inplace, has_kernel, has_shape, has_dtype = info
        self.ext = ext
        self.index = index                 # position in the extension's registry
        self.level = level
        self.name = name if level == 0 else name + "_grad" * level
        self.inputs = [Port(n) for n in inputs]
        self.outputs = [Port(n) for n in outputs]
        self.attrs = [Attr(name, a) for a in attrs]
        self.inplace = list(inplace)       # [(input name, output name)]
        self.has_kernel = has_kernel
        self.has_infer_shape = has_shape
        self.has_infer_dtype = has_dtype
        in_names = [p.name for p in self.inputs]
        out_names = [p.name for p in self.outputs]
        self.inplace_out = {}              # output position -> input position
        for i, o in self.inplace:
            if i not in in_names or o not in out_names:
                raise CustomOpError(f"custom op '{name}': SetInplaceMap names {i!r} -> {o!r}, "
                                    f"but its inputs are {in_names} and outputs {out_names}")
            self.inplace_out[out_names.index(o)] = in_names.index(i)
        #: positions of the outputs the torch.library op returns (the in-place ones it mutates)
        self.returned = [o for o in range(len(self.outputs)) if o not in self.inplace_out]
        #: output position -> input position, for outputs returned as fresh copies of an input
        #: (``FunctionalLevel``); returned outputs given to torch as a list of 0 or 1 tensors
        self.copies = {}
        self.boxed = frozenset()
        if not has_kernel:
            raise CustomOpError(f"custom op '{self.name}' has no kernel: call "
                                f".SetKernelFn(PD_KERNEL(...)) in its PD_BUILD_OP")

    def run(self, tensors, attrs):
        """The kernel on torch tensors (lists for vectors, None for absent optionals); one value
        per declared output, in-place outputs being their input tensors."""
        outs = self.ext.run(self.index, tensors, attrs)
        for o, i in self.inplace_out.items():
            outs[o] = tensors[i]
        for v in outs:              # (`None in outs` would compare tensors with ==)
            if v is None:
                self._check_outputs(outs)
                break
        return outs

    def _check_outputs(self, outs):
        missing = [p.name for o, (p, v) in enumerate(zip(self.outputs, outs))
                   if v is None and not p.optional and o not in self.inplace_out]
        if missing:
            raise CustomOpError(
                f"custom op '{self.name}': its kernel returned no tensor for output(s) "
                f"{', '.join(missing)}; it declares {len(self.outputs)} output(s) "
                f"({', '.join(p.name for p in self.outputs)}) and must return one per output")

    # -- shapes and dtypes (for fake tensors, static mode)
    def infer(self, tensors, attrs):
        """(shapes, dtypes) of the outputs that are not in-place, from InferShape/InferDtype
        or Paddle's default (each output like the first input)."""
        n_out = len(self.outputs)
        first = next((t for t in tensors if isinstance(t, torch.Tensor)), None)
        if first is None:
            first = next((t[0] for t in tensors if isinstance(t, (list, tuple)) and t), None)
        if self.has_infer_shape:
            shapes = [None if t is None else
                      ([list(x.shape) for x in t] if isinstance(t, (list, tuple)) else list(t.shape))
                      for t in tensors]
            shapes = self.ext.infer_shape(self.index, shapes, attrs)
        else:       # Paddle's default: every output shaped like the first input
            if first is None:
                raise CustomOpError(f"custom op '{self.name}' needs SetInferShapeFn: it has "
                                    f"no tensor input to take the output shape from")
            shapes = [list(first.shape)] * n_out
        if self.has_infer_dtype:
            dtypes = [None if t is None else ([x.dtype for x in t] if isinstance(t, (list, tuple))
                                              else t.dtype) for t in tensors]
            dtypes = self.ext.infer_dtype(self.index, dtypes, attrs)
        else:
            dtypes = [first.dtype] * n_out
        n_new = n_out - len(self.inplace_out) - len(self.copies)
        for what, got in (("InferShapeFn", shapes), ("InferDtypeFn", dtypes)):
            if len(got) < n_new:
                raise CustomOpError(
                    f"custom op '{self.name}': its {what} returned {len(got)} result(s) for "
                    f"{n_out} output(s) ({', '.join(p.name for p in self.outputs)})")
        return shapes, dtypes


class FunctionalLevel(Level):
    """An in-place forward level as a function, which is what a static Program records: the
    kernel writes into copies of its in-place inputs, and every output is returned (an optional
    in-place output as a list of zero or one tensors: a torch op cannot return None)."""

    def __init__(self, base):
        self.__dict__.update(base.__dict__)
        self.base = base
        self.name = base.name + "_functional"
        self.copies = dict(base.inplace_out)
        self.inplace_out = {}
        self.returned = list(range(len(self.outputs)))
        self.boxed = frozenset(o for o in self.copies
                               if self.outputs[o].optional and not self.outputs[o].vector)

    def run(self, tensors, attrs):
        tensors = list(tensors)
        for i in self.copies.values():
            tensors[i] = _own(tensors[i])
        return self.base.run(tensors, attrs)


class OpDef:
    """A forward op and its grad / double-grad levels, with its torch.library registration."""

    def __init__(self, namespace, levels):
        self.levels = levels               # [forward, grad?, double grad?]
        self.forward = levels[0]
        #: the out-of-place twin of an in-place forward (static mode records it)
        self.functional = FunctionalLevel(self.forward) if self.forward.inplace_out else None
        self.name = self.forward.name
        self.namespace = namespace
        self.qualname = f"{namespace}::{self.name}"

    # -- torch.library
    def schema_for(self, level):
        args = []
        for i, p in enumerate(level.inputs):
            mutated = i in level.inplace_out.values()
            alias = f"(a{i}!)" if mutated else ""
            t = f"Tensor{alias}[]" if p.vector else f"Tensor{alias}"
            if p.optional:
                t += "?"
            args.append(f"{t} {_schema_name(p.base, i)}")
        for a in level.attrs:
            args.append(f"{a.schema} {a.name}")
        rets = ["Tensor[]" if level.outputs[o].vector or o in level.boxed else "Tensor"
                for o in level.returned]
        ret = rets[0] if len(rets) == 1 else "(" + ", ".join(rets) + ")"
        return f"({', '.join(args)}) -> {ret}"

    def register(self, lib):
        for level in self.levels + ([self.functional] if self.functional else []):
            _register_level(self, level, lib)


def _schema_name(base, i):
    n = re.sub(r"\W", "_", base).lower().strip("_") or "x"
    if keyword.iskeyword(n) or n in ("self", "out", "name") or n[0].isdigit():
        n = f"in{i}_{n}"
    return n


def _register_level(op, level, lib):
    lib.define(level.name + op.schema_for(level))
    qual = f"{op.namespace}::{level.name}"
    n_in = len(level.inputs)

    def kernel(*args):
        tensors = list(args[:n_in])
        outs = level.run(tensors, list(args[n_in:]))
        # a torch op may not return an alias of an input: such outputs are copied
        ptrs = {x.untyped_storage().data_ptr() for x in _flatten(tensors)}
        outs = [_unalias(v, ptrs) for v in outs]
        return _torch_returns(level, outs)

    def fake(*args):
        tensors, attrs = list(args[:n_in]), list(args[n_in:])
        shapes, dtypes = level.infer(tensors, attrs)
        device = _device_of(tensors)
        outs = []
        for o, p in enumerate(level.outputs):
            if o in level.inplace_out:
                outs.append(None)
                continue
            if o in level.copies:
                t = tensors[level.copies[o]]
                outs.append(None if t is None else [torch.empty_like(x) for x in t]
                            if isinstance(t, list) else torch.empty_like(t))
                continue
            shape = shapes[o] if o < len(shapes) else shapes[0]
            dtype = dtypes[o] if o < len(dtypes) else dtypes[0]
            outs.append(torch.empty([max(d, 0) for d in shape], dtype=dtype, device=device))
        return _torch_returns(level, outs)

    lib.impl(level.name, kernel, "CompositeExplicitAutograd")
    torch.library.register_fake(qual, fake, lib=lib)
    nxt = op.levels[level.level + 1] if level.level + 1 < len(op.levels) else None
    if level.inplace_out:
        return                  # mutating ops: gradients through the Paddle-facing function only
    if nxt is None:
        def no_grad_backward(ctx, *grads):
            raise CustomOpError(_no_grad_message(level))
        torch.library.register_autograd(qual, no_grad_backward, lib=lib)
        return

    def setup_context(ctx, inputs, output):
        outs = output if isinstance(output, tuple) else (output,)
        ins = list(inputs[:n_in])
        if level.copies:            # the grad op reads an in-place input as written
            full = _unbox(level, list(outs))
            for o, i in level.copies.items():
                if ins[i] is not None:
                    ins[i] = full[o]
        ctx.level_inputs = ins
        ctx.level_attrs = inputs[n_in:]
        ctx.level_outputs = outs

    def backward(ctx, *grads):
        grads = list(grads)
        full_outs = _unbox(level, _expand_outputs(level, list(ctx.level_outputs),
                                                  ctx.level_inputs))
        full_grads = _unbox(level, _expand_outputs(level, grads, None))
        args = _grad_inputs(level, nxt, list(ctx.level_inputs), full_outs, full_grads)
        attrs = _grad_attrs(level, nxt, list(ctx.level_attrs))
        for i in nxt.inplace_out.values():
            args[i] = _own(args[i])
        res = getattr(getattr(torch.ops, op.namespace), nxt.name)(*args, *attrs)
        res = _returned_list(nxt, res)
        res = _expand_outputs(nxt, res, args)
        # torch wants one gradient per input, shaped as the input (a list for a vector)
        grads = [None if x is None else ([None] * len(x) if g is None else list(g))
                 if isinstance(x, (list, tuple)) else g
                 for g, x in zip(_input_grads(level, nxt, res), ctx.level_inputs)]
        _keep_op_grads(ctx, grads)
        return tuple(grads) + (None,) * len(level.attrs)

    torch.library.register_autograd(qual, backward, setup_context=setup_context, lib=lib)


def _multi_return(level):
    return len(level.returned) != 1


def _returned_list(level, res):
    """What a level's torch op returned, as a list (one value per returned output)."""
    if not level.returned:
        return []
    return list(res) if _multi_return(level) else [res]


def _torch_returns(level, outs):
    rets = []
    for o in level.returned:
        v = outs[o]
        if o in level.boxed:
            v = [] if v is None else [v]
        elif v is None and level.outputs[o].vector:
            v = []
        rets.append(v)
    if not rets:
        return None             # an op whose outputs are all in place returns nothing
    return rets[0] if len(rets) == 1 else tuple(rets)


def _unbox(level, values):
    """Per output, the values of ``boxed`` outputs taken out of their lists."""
    if not level.boxed:
        return values
    return [(v[0] if v else None) if o in level.boxed else v for o, v in enumerate(values)]


def _expand_outputs(level, values, inputs):
    """Per declared output: the returned values, with in-place outputs taken from inputs."""
    it = iter(values)
    full = []
    for o in range(len(level.outputs)):
        if o in level.inplace_out:
            full.append(inputs[level.inplace_out[o]] if inputs is not None else None)
        else:
            full.append(next(it, None))
    return full


def _device_of(tensors):
    for t in tensors:
        if isinstance(t, torch.Tensor):
            return t.device
        if isinstance(t, (list, tuple)) and t:
            return t[0].device
    return torch.device("cpu")


def _no_grad_message(level):
    return (f"custom op '{level.name}' has no grad op: its inputs require gradients but no "
            f"PD_BUILD_GRAD_OP({level.name if level.level == 0 else level.name}) was built; "
            f"register one, or set stop_gradient=True on its inputs")


# ---------------------------------------------------------------------- grad plumbing
def _grad_inputs(level, nxt, inputs, outputs, out_grads):
    """The next level's inputs, by name: this level's inputs, outputs, and outputs' grads."""
    by_name = {}
    for p, v in zip(level.inputs, inputs):
        by_name[p.name] = v
        by_name[p.base] = v
    for p, v, g in zip(level.outputs, outputs, out_grads):
        by_name[p.name] = v
        by_name[p.base] = v
        if g is None and v is not None:
            g = [torch.zeros_like(x) for x in v] if isinstance(v, (list, tuple)) else \
                torch.zeros_like(v)
        by_name[p.name + GRAD] = g
        by_name[p.base + GRAD] = g
    args = []
    for p in nxt.inputs:
        key = p.name.replace(OPTIONAL, "")
        if key not in by_name and p.base not in by_name:
            if p.optional:
                args.append(None)
                continue
            raise CustomOpError(f"custom op '{nxt.name}': input {p.name!r} is none of "
                                f"'{level.name}''s inputs, outputs or their gradients")
        args.append(by_name.get(key, by_name.get(p.base)))
    return args


def _grad_attrs(level, nxt, attrs):
    by_name = {a.name: v for a, v in zip(level.attrs, attrs)}
    out = []
    for a in nxt.attrs:
        if a.name in by_name:
            out.append(by_name[a.name])
        elif a.has_default:
            out.append(a.default)
        else:
            raise CustomOpError(f"custom op '{nxt.name}': attribute '{a.name}' is not an "
                                f"attribute of '{level.name}'")
    return out


def _unalias(v, ptrs):
    if isinstance(v, list):
        return [_unalias(x, ptrs) for x in v]
    if isinstance(v, torch.Tensor) and v.untyped_storage().data_ptr() in ptrs:
        return v.clone()
    return v


def _own(v):
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return [x.clone(memory_format=torch.contiguous_format) for x in v]
    return v.clone(memory_format=torch.contiguous_format)


def _input_grads(level, nxt, full):
    """Gradients for this level's inputs from the next level's outputs (one per declared
    output, None where absent)."""
    by_name = {}
    for p, v in zip(nxt.outputs, full):
        name = p.name.replace(OPTIONAL, "")
        if name.endswith(GRAD + NEW):       # paddle::New(paddle::Grad("Out")): Out's gradient
            by_name[name[:-len(GRAD + NEW)]] = v
        elif name.endswith(GRAD):
            by_name[name[:-len(GRAD)]] = v
            by_name[p.base[:-len(GRAD)] if p.base.endswith(GRAD) else p.base] = v
    grads = []
    for p in level.inputs:
        g = by_name.get(p.name.replace(OPTIONAL, ""), by_name.get(p.base))
        if p.vector and g is not None:
            g = list(g)
        grads.append(g)
    return grads


# ---------------------------------------------------------------------- the Paddle function
def _function_class(op):
    """One torch.autograd.Function for the op's forward level (Paddle eager with gradients)."""
    fwd = op.forward
    nxt = op.levels[1] if len(op.levels) > 1 else None

    class CustomOpFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, layout, attrs, *flat):
            tensors = _unflatten(layout, flat)
            outs = fwd.run(tensors, attrs)
            dirty = []
            for o, i in fwd.inplace_out.items():
                if tensors[i] is not None:
                    dirty.extend(tensors[i] if isinstance(tensors[i], list) else [tensors[i]])
            if dirty:
                ctx.mark_dirty(*dirty)
            ctx.layout = layout
            ctx.attrs = attrs
            ctx.out_layout = [-2 if v is None else (len(v) if isinstance(v, list) else -1)
                              for v in outs]
            flat_out = _flatten(outs)
            ctx.save_for_backward(*flat, *flat_out)
            ctx.n_flat = len(flat)
            # input leaves with no gradient yet: a grad op may give them one of another dtype,
            # which Paddle keeps (see _keep_paddle_grads)
            ctx.fresh = [(j, t) for j, t in enumerate(flat)
                         if t.requires_grad and t.is_leaf and t.grad is None]
            return tuple(flat_out)

        @staticmethod
        def backward(ctx, *grads):
            if nxt is None:
                raise CustomOpError(_no_grad_message(fwd))
            saved = ctx.saved_tensors
            inputs = _unflatten(ctx.layout, saved[:ctx.n_flat])
            outs = _unflatten(ctx.out_layout, saved[ctx.n_flat:])
            ograds = _unflatten(ctx.out_layout, grads)
            args = _grad_inputs(fwd, nxt, inputs, outs, ograds)
            attrs = _grad_attrs(fwd, nxt, ctx.attrs)
            for i in nxt.inplace_out.values():      # the grad op writes into these: own copies
                args[i] = _own(args[i])
            if torch.is_grad_enabled() and len(op.levels) > 2:
                res = getattr(getattr(torch.ops, op.namespace), nxt.name)(*args, *attrs)
                res = _returned_list(nxt, res)
                res = _expand_outputs(nxt, res, args)
            else:
                res = nxt.run(args, attrs)
            in_grads = _input_grads(fwd, nxt, res)
            flat = []
            for g, n in zip(in_grads, ctx.layout):
                if n < 0:
                    flat.append(g)
                elif n > 0:
                    flat.extend(g if g is not None else [None] * n)
            if ctx.fresh:
                _keep_paddle_grads(ctx, flat)
            return (None, None) + tuple(flat)

    CustomOpFunction.__name__ = CustomOpFunction.__qualname__ = f"{op.name}_backward_fn"
    return CustomOpFunction


def _keep_op_grads(ctx, grads):
    """``_keep_paddle_grads`` for the torch.library op (torch tensors, static Programs, whose
    gradients ``static.backward`` takes with torch.autograd.grad and captures): its tensor
    inputs, one autograd edge each. Ops with vector inputs keep torch's rule."""
    ins = ctx.level_inputs
    if any(isinstance(x, (list, tuple)) for x in ins):
        return
    edge = 0
    for k, x in enumerate(ins):
        if x is None:
            continue
        g = grads[k]
        if g is not None and x.requires_grad and x.is_leaf \
                and (g.dtype is not x.dtype or not g.is_same_size(x)) \
                and _paddle_leaf_grad(ctx, edge, x, g):
            grads[k] = None
        edge += 1


def _keep_paddle_grads(ctx, flat):
    """A grad op's gradient of another dtype (or shape) than its input leaf: Paddle keeps it as
    the leaf's .grad as it is (custom_cast's float64 gradient of a float32 input), where torch
    would cast it. The PyLayer rule does the same (``py_layer_grads._paddle_leaf_grad``); torch
    then gets no gradient for that input."""
    for j, leaf in ctx.fresh:
        g = flat[j]
        if g is not None and (g.dtype is not leaf.dtype or not g.is_same_size(leaf)) \
                and _paddle_leaf_grad(ctx, j, leaf, g):
            flat[j] = None


def _flatten(values):
    flat = []
    for v in values:
        if isinstance(v, list):
            flat.extend(v)
        elif v is not None:
            flat.append(v)
    return flat


def _unflatten(layout, flat):
    out, k = [], 0
    for n in layout:
        if n == -1:
            out.append(flat[k])
            k += 1
        elif n == -2:
            out.append(None)
        else:
            out.append(list(flat[k:k + n]))
            k += n
    return out


def make_function(op):
    """The Paddle-facing Python function of a forward op."""
    fwd = op.forward
    ports = fwd.inputs
    attrs = fwd.attrs
    names = [p.pyname for p in ports] + [a.name for a in attrs]
    n_in = len(ports)
    fn_class = _function_class(op)
    torch_op = getattr(getattr(torch.ops, op.namespace), op.name)
    single = len(fwd.outputs) == 1

    def call(*args, **kwargs):
        if kwargs or len(args) != len(names):
            args = _bind(op.name, names, ports, attrs, args, kwargs)
        raw = list(args[:n_in])
        attr_vals = [a.value(op.name, v) for a, v in zip(attrs, args[n_in:])]
        tensors = []
        torch_in = False
        for p, x in zip(ports, raw):
            if x is None:
                if not p.optional:
                    raise TypeError(f"custom op '{op.name}': input '{p.pyname}' is required, "
                                    f"got None")
                tensors.append(None)
            elif p.vector:
                if not isinstance(x, (list, tuple)):
                    raise TypeError(f"custom op '{op.name}': input '{p.pyname}' is a vector "
                                    f"input and takes a list of Tensors, got {type(x).__name__}")
                tensors.append([_payload(op, p, t) for t in x])
                torch_in = torch_in or any(type(t) is not Tensor for t in x)
            else:
                tensors.append(_payload(op, p, x))
                torch_in = torch_in or type(x) is not Tensor
        if torch_in:
            return torch_op(*tensors, *attr_vals)
        static = _mode.in_static_mode() or _has_proxy(tensors)
        if static:
            if fwd.inplace_out:
                return _static_inplace(op, tensors, attr_vals, raw, single)
            res = torch_op(*tensors, *attr_vals)
            if _multi_return(fwd):      # one recorded node per output
                res = [res[k] for k in range(len(fwd.returned))]
            else:
                res = [res]
            outs = _expand_outputs(fwd, res, None)
            return _wrap_outputs(fwd, outs, raw, single)
        for i in fwd.inplace_out.values():      # Paddle's in-place rules for what is written
            for v in (raw[i] if isinstance(raw[i], (list, tuple)) else (raw[i],)):
                if type(v) is Tensor:
                    writable(v)
        needs_grad = torch.is_grad_enabled() and any(
            (t.requires_grad if isinstance(t, torch.Tensor) else
             any(x.requires_grad for x in t) if isinstance(t, list) else False)
            for t in tensors)
        if not needs_grad:
            outs = fwd.run(tensors, attr_vals)
        else:
            layout = [-2 if t is None else (len(t) if isinstance(t, list) else -1)
                      for t in tensors]
            flat = fn_class.apply(layout, attr_vals, *_flatten(tensors))
            outs = _regroup_outputs(fwd, tensors, flat)
            for o, i in fwd.inplace_out.items():
                x = raw[i]
                if isinstance(x, Tensor):
                    x._t = outs[o]      # the input object now carries the op's grad node
        return _wrap_outputs(fwd, outs, raw, single)

    fn = call
    if not any(p.vector or p.optional for p in ports) and not fwd.inplace_out and single:
        fn = _fast_function(fwd, call, n_in, len(names), attrs)
    fn.__name__ = fn.__qualname__ = op.name
    fn.__doc__ = (f"Custom op {op.name}({', '.join(names)}): inputs "
                  f"{[p.name for p in ports]}, outputs {[p.name for p in fwd.outputs]}, "
                  f"attributes {[a.name + ': ' + a.ctype for a in attrs]}.")
    return fn


def _static_inplace(op, tensors, attr_vals, raw, single):
    """An in-place op in a static Program: the out-of-place twin is recorded, and each in-place
    input Variable is rebound to what the op wrote (a later op, a fetch of the Variable or of
    its name sees the new value), as Paddle's in-place variables share their name."""
    fn = op.functional
    res = getattr(getattr(torch.ops, op.namespace), fn.name)(*tensors, *attr_vals)
    outs = []
    for o, p in enumerate(fn.outputs):
        v = res[o] if _multi_return(fn) else res
        if o in fn.copies:          # the written input: one value per tensor it holds
            t = tensors[fn.copies[o]]
            if t is None:
                v = None
            elif isinstance(t, list):
                v = [v[k] for k in range(len(t))]
            elif o in fn.boxed:
                v = v[0]
        outs.append(v)
    for o, i in fn.copies.items():
        x = raw[i]
        if outs[o] is None:
            continue
        for var, proxy in (zip(x, outs[o]) if isinstance(x, (list, tuple)) else ((x, outs[o]),)):
            if isinstance(var, Tensor):
                _rebind(var, proxy)
    return _wrap_outputs(op.forward, outs, raw, single)


def _fast_function(fwd, call, n_in, n_args, attrs):
    """The common case without a frame to spare: plain tensor inputs needing no gradient, one
    output, eager mode. Anything else goes to ``call``."""
    run = fwd.ext.run
    index = fwd.index
    name = fwd.name
    mode = _mode
    torch_tensor = torch.Tensor

    def fast(*args, **kwargs):
        if kwargs or len(args) != n_args or mode._static:
            return call(*args, **kwargs)
        ts = []
        for x in args[:n_in]:
            if type(x) is not Tensor:
                return call(*args)
            t = x._t
            if type(t) is not torch_tensor or t.requires_grad:
                return call(*args)
            ts.append(t)
        out = run(index, ts, [a.value(name, v) for a, v in zip(attrs, args[n_in:])]
                  if attrs else [])[0]
        if out is None:
            fwd._check_outputs([None])
        o = _new(Tensor)
        o._t = out
        return o

    return fast


def _regroup_outputs(fwd, tensors, flat):
    """Per declared output from the Function's flat outputs (vector outputs' lengths are known
    only after the kernel ran, so the kernel's own result shape is reconstructed here)."""
    flat = list(flat)
    outs, k = [], 0
    for o, p in enumerate(fwd.outputs):
        if o in fwd.inplace_out:
            t = tensors[fwd.inplace_out[o]]
            n = len(t) if isinstance(t, list) else (0 if t is None else 1)
            outs.append(flat[k:k + n] if isinstance(t, list) else (flat[k] if n else None))
            k += n
        elif p.vector:
            # a vector output takes what the single outputs after it leave
            rest_single = sum(1 for q in fwd.outputs[o + 1:] if not q.vector)
            n = len(flat) - k - rest_single
            outs.append(flat[k:k + n])
            k += n
        else:
            outs.append(flat[k] if k < len(flat) else None)
            k += 1
    return outs


def _payload(op, port, x):
    if type(x) is Tensor:
        return x._t
    if isinstance(x, torch.Tensor):
        return x
    raise TypeError(f"custom op '{op.name}': input '{port.pyname}' must be a Tensor, got "
                    f"{type(x).__name__}")


def _has_proxy(tensors):
    for t in tensors:
        if isinstance(t, list):
            if any(isinstance(x, torch.fx.Proxy) for x in t):
                return True
        elif isinstance(t, torch.fx.Proxy):
            return True
    return False


def _wrap_outputs(fwd, outs, raw, single):
    res = []
    for o, v in enumerate(outs):
        if o in fwd.inplace_out:
            res.append(raw[fwd.inplace_out[o]])
        elif isinstance(v, list):
            res.append([wrap(t) for t in v])
        else:
            res.append(None if v is None else wrap(v))
    return res[0] if single else res


def _bind(opname, names, ports, attrs, args, kwargs):
    if len(args) > len(names):
        raise TypeError(f"custom op '{opname}' takes {len(names)} arguments ({', '.join(names)}), "
                        f"got {len(args)}")
    vals = list(args) + [_MISSING] * (len(names) - len(args))
    for k, v in kwargs.items():
        if k not in names:
            raise TypeError(f"custom op '{opname}' got an unexpected keyword argument '{k}'; "
                            f"its arguments are {', '.join(names)}")
        i = names.index(k)
        if vals[i] is not _MISSING:
            raise TypeError(f"custom op '{opname}' got multiple values for argument '{k}'")
        vals[i] = v
    n_in = len(ports)
    for i, v in enumerate(vals):
        if v is _MISSING:
            if i < n_in:
                if ports[i].optional:
                    vals[i] = None
                    continue
            else:
                a = attrs[i - n_in]
                if a.has_default:
                    vals[i] = a.default
                    continue
            raise TypeError(f"custom op '{opname}' missing required argument '{names[i]}'")
    return vals


_MISSING = object()


# ---------------------------------------------------------------------- entry
#: every custom op built in this process, by name (the last build of a name wins): what
#: ``paddle.base.core.eager._run_custom_op`` runs
LOADED_OPS = {}


def build_ops(ext, namespace):
    """OpDefs and Paddle functions for every forward op of the extension module ``ext``,
    registered under ``torch.ops.<namespace>``. Returns {op name: function}."""
    groups = {}
    for index, info in enumerate(ext.ops()):
        level = Level(ext, index, info)
        groups.setdefault(info[0], {})
        if info[1] in groups[info[0]]:
            raise CustomOpError(f"custom op '{info[0]}' is built twice in this extension")
        groups[info[0]][info[1]] = level
    lib = torch.library.Library(namespace, "FRAGMENT")
    functions = {}
    for name, levels in groups.items():
        if 0 not in levels:
            raise CustomOpError(f"custom op '{name}': a grad op was built but no "
                                f"PD_BUILD_OP({name})")
        chain = [levels[0]]
        for k in (1, 2):
            if k not in levels:
                break
            chain.append(levels[k])
        op = OpDef(namespace, chain)
        op.register(lib)
        functions[name] = make_function(op)
    LOADED_OPS.update(functions)
    return functions, lib
