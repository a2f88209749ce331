"""``paddle.jit.to_static``: trace a function (or a Layer's ``forward``) into a static graph.

How: the function is traced with our static machinery (``paddle_compat.static``) into a
``torch.fx`` graph, once per input signature (shapes, dtypes, stop_gradient of the Tensor
arguments and the values of the other arguments); later calls run the cached GraphModule on
the real tensors. The graph runs under the caller's grad mode with ordinary torch ops, so the
results join the caller's autograd graph and ``backward()`` works as in dynamic mode; a PyLayer
inside is recorded as one node that calls ``PyLayer.apply`` at run time, so its own backward is
used and the numbers are exactly dynamic mode's.

Why fx tracing and not ``torch.compile``: dynamo would have to see through the Tensor wrapper
and the PyLayer's Python-level autograd.Function, its first call costs seconds and inductor
needs a C++ toolchain on CPU; fx tracing reuses the one op library that static mode already
records with, costs milliseconds, and its GraphModule is plain torch code the user can inspect
(``StaticFunction.graph_module``) or hand to ``torch.compile`` / ``torch.export`` themselves.
A function whose Python control flow depends on tensor values cannot be traced: it then runs
eagerly (dynamic mode), with a warning, as Paddle falls back to dygraph. ``backend="CINN"``
(Paddle's compiler switch) hands each traced graph to ``torch.compile`` (``compiled.py``,
``COMPILED.md``).

Guards: a trace is specialised on everything it read, so a cached graph is reused only when
all of it is the same again; the key of a call is one tuple of

* the shape, dtype, stop_gradient and device of every Tensor argument (a new batch size or
  dtype traces again: every dimension is guarded, also those an ``InputSpec`` leaves as
  ``None``, since a trace bakes the sizes it saw into ``reshape`` and friends);
* the values of the Python (non-Tensor) arguments (numpy arrays by content);
* the ``training`` flag of the Layer and of every one of its sublayers (``eval()`` after
  the first call switches dropout and batch norm to their inference graph, ``train()`` back);
* whether ``paddle.amp.auto_cast`` is active.

Building the key adds about 1 us plus 0.1 us per guarded layer to a call (measured on the
2-core dev machine under load; a 101-layer model: ~14 us of a 2.4 ms call). The Layers of a
plain function are found in its closure and the globals its code names; a Layer passed as an
argument is keyed by its modes too.

Dropout draws its mask inside the graph (a node that calls the CPU engine on every run, in
eager's order: the same numbers under the same seed) and batch norm updates its running
statistics inside the graph, so a training step with them stays a graph. A trace that draws
random numbers any other way (drop-path's ``paddle.rand``) or changes a Layer's tensors outside
the graph could not be replayed: its random values and state changes would be frozen into the
graph. Such a trace is detected (the CPU generator's state, torch's, and the version counters
of the Layer's tensors are compared around the trace), undone (generators and non-trainable
tensors restored), and that guard key then runs in dynamic mode, with eager's numbers.
"""
import functools
import operator
import types as _types
import warnings

import numpy as np
import torch
from torch.utils._pytree import tree_flatten, tree_unflatten

from ..framework import hooks as _hooks
from . import compiled as _compiled
from ..framework.parameter import mark_compiled
from ..framework.tensor import Tensor, wrap
from ..random import default_generator as _cpu_generator
from ..static import decompose as _decompose
from ..static import mode as _mode
from ..static.backward import build_pylayer_backwards as _build_pylayer_backwards
from ..static.executor import build_graph_module as _build_graph_module
from ..static.program import Program, program_guard
from ..static.proxy import StaticGraphError, StaticProxy

__all__ = ["to_static", "not_to_static", "StaticFunction", "ignore_module", "enable_to_static"]

_ENABLED = [True]


def enable_to_static(enable_to_static_bool):
    """Globally turn ``to_static`` on/off (off: decorated functions run eagerly)."""
    _ENABLED[0] = bool(enable_to_static_bool)


def ignore_module(modules):
    pass


def not_to_static(func=None):
    return func


class _Traced:
    __slots__ = ("gm", "program", "out_leaves", "out_spec", "out_pos", "tensor_pos")


_training = operator.attrgetter("training")
_EAGER = object()            # cache entry: this guard key runs in dynamic mode
_ANY_CALL = object()          # in a StaticFunction's fallback set: every call does


def _leaf_key(v):
    if isinstance(v, Tensor):
        t = v._t
        return (tuple(t.shape), t.dtype, t.requires_grad, t.device)
    if isinstance(v, np.ndarray):
        return ("np", v.dtype.str, v.shape, v.tobytes())
    if _hooks.is_layer(v):           # a Layer argument: its modes are part of the key
        return ("layer", id(v), tuple(map(_training, v.sublayers(include_self=True))))
    try:
        hash(v)
    except TypeError:
        return ("id", id(v))
    return ("c", type(v), v)


def _layers_used_by(fn):
    """Layers a plain function can reach without arguments: its closure cells and the
    globals its code names."""
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return []
    found = []
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            v = cell.cell_contents
        except ValueError:
            continue
        if _hooks.is_layer(v):
            found.append(v)
    g = getattr(fn, "__globals__", {})
    for name in code.co_names:
        v = g.get(name)
        if v is not None and _hooks.is_layer(v):
            found.append(v)
    return found


class StaticFunction:
    """A function traced to a static graph per guard key (see the module docstring); call it
    like the function. ``layer`` is the Layer whose ``forward`` it is (its sublayers' training
    flags are guarded), found from a bound method when not given."""

    def __init__(self, function, input_spec=None, layer=None, backend=None, build_strategy=None,
                 **kwargs):
        self._fn = function
        self._input_spec = input_spec
        # backend="CINN" (Paddle's compiler switch): traced graphs go through torch's inductor
        self._compiler = _compiled.wants_compiler(backend, build_strategy)
        self._compiled = [0]         # graphs compiled so far (shared with bound copies)
        self._layer_fns = {}         # compiled forwards of the layers a fallen-back function uses
        # full_graph=True is Paddle's AST translation, where in_to_static_mode() (a.k.a.
        # in_declarative_mode) is True while tracing; its default SOT mode leaves it False
        self._full_graph = bool(kwargs.get("full_graph", False))
        self._cache = {}
        # guard keys that run in dynamic mode (their trace failed); _ANY_CALL: every call
        self._fallback = set()
        self._warned = set()         # the fallback warnings given (each once per function)
        if layer is None:
            owner = getattr(function, "__self__", None)
            if owner is not None and _hooks.is_layer(owner):
                layer = owner
        self._layer = layer
        if self._compiler and layer is not None:
            mark_compiled(layer.parameters())      # their optimizer update runs compiled too
        # a loaded model file (jit.load) compiled for inference: its AOTInductor package
        # (jit/aot.py, the predictor's), used in eval mode with gradients off
        self._aot = aot.AotRunner(layer, layer._files, StaticFunction) if self._compiler and \
            getattr(layer, "_files", None) else None
        # the package holds the weights of the files: it answers while the layer's tensors
        # are those (same tensors, no in-place op since: training steps, zero_ ...);
        # set_value, which as Paddle's leaves the inplace version alone, is not seen
        self._aot_weights = [(p, p._t, p._t._version) for p in layer.parameters()] \
            if self._aot is not None else None
        self._layers = None          # the layers whose flags are guarded, listed on first call
        functools.update_wrapper(self, function)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        hit = self._cache.get(("__boundfn__", id(obj)))
        if hit is not None and hit._fn.__self__ is obj:
            return hit
        bound = StaticFunction(self._fn.__get__(obj, objtype), self._input_spec)
        bound._compiler = self._compiler
        bound._compiled = self._compiled
        bound._cache = self._cache.setdefault(("__bound__", id(obj)), {})
        bound._cache.clear()
        bound._fallback = self._fallback
        bound._warned = self._warned
        self._cache[("__boundfn__", id(obj))] = bound
        return bound

    @property
    def dygraph_function(self):
        return self._fn

    def rollback(self):
        return self._fn

    def _key(self, leaves):
        return tuple(map(_leaf_key, leaves))

    def _guarded_layers(self):
        """The Layer and its sublayers; for a plain function, the Layers it reaches through
        its closure and the globals its code names (``model`` in ``def step(x): return
        model(x)``), with their sublayers."""
        roots = [self._layer] if self._layer is not None else _layers_used_by(self._fn)
        out, seen = [], set()
        for root in roots:
            for layer in root.sublayers(include_self=True):
                if id(layer) not in seen:
                    seen.add(id(layer))
                    out.append(layer)
        return tuple(out)

    def _guard_key(self, leaves, spec):
        layers = self._layers
        if layers is None:
            layers = self._layers = self._guarded_layers()
        modes = tuple(map(_training, layers)) if layers else ()
        return (spec, tuple(map(_leaf_key, leaves)), modes, _hooks.autocast_enabled())

    def __call__(self, *args, **kwargs):
        if not _ENABLED[0] or not _mode.in_dynamic_mode():
            return self._fn(*args, **kwargs)
        if self._aot is not None and not kwargs and not torch.is_grad_enabled() and \
                not self._layer.training and all(isinstance(a, Tensor) for a in args):
            if not all(p._t is t and t._version == v for p, t, v in self._aot_weights):
                self._aot = None        # weights changed since the load: the traced graph
                return self(*args)
            outs = self._aot([a._t for a in args])
            if outs is not None:         # None: not this signature, run as traced below
                outs = [wrap(o) for o in outs]
                return outs[0] if len(outs) == 1 else outs
        leaves, spec = tree_flatten((args, kwargs))
        key = self._guard_key(leaves, spec)
        tr = self._cache.get(key)
        if tr is None:
            if key in self._fallback or _ANY_CALL in self._fallback:
                return self._run_dynamic(args, kwargs)
            try:
                tr = self._trace(leaves, spec)
            except StaticGraphError as e:
                how = "in dynamic mode"
                if self._compiler and self._layer is None:
                    how += " with the forward and backward of the Layers it calls compiled"
                msg = (f"to_static: {getattr(self._fn, '__name__', 'function')} could not be "
                       f"traced to a static graph and runs {how}: {e}")
                if msg not in self._warned:     # once: not again for each new input shape
                    self._warned.add(msg)
                    warnings.warn(msg)
                # a failure no input can avoid (an eager backward) is not traced again
                self._fallback.add(_ANY_CALL if e.any_input else key)
                return self._run_dynamic(args, kwargs)
            self._cache[key] = tr
        if tr is _EAGER:
            return self._fn(*args, **kwargs)
        outs = tr.gm(*[leaves[i]._t for i in tr.tensor_pos])
        res = list(tr.out_leaves)
        for i, o in zip(tr.out_pos, outs):
            res[i] = wrap(o)
        return tree_unflatten(res, tr.out_spec)

    def get_concrete_program(self, *args, **kwargs):
        """Paddle's ``(ConcreteProgram, PartialProgramLayer)`` of a call with these arguments:
        here two views of the one traced graph. ``forward_program`` is the traced Program;
        ``backward_program`` is an empty Program, as the backward of the graph is torch's
        autograd of its ops, recorded as no ops. StaticGraphError when the call cannot be
        traced to one graph."""
        leaves, spec = tree_flatten((args, kwargs))
        key = self._guard_key(leaves, spec)
        tr = self._cache.get(key)
        if tr is None:
            tr = self._trace(leaves, spec)
            self._cache[key] = tr
        if tr is _EAGER:
            raise StaticGraphError(f"to_static: {getattr(self._fn, '__name__', 'function')} "
                                   "runs eagerly (it draws random numbers or changes its "
                                   "Layer's tensors), so it has no concrete program")
        cp = _ConcreteProgram(tr.program)
        return cp, cp

    @property
    def program_cache(self):
        """The traced graphs by call signature (``program_cache.clear()`` drops them)."""
        return self._cache

    def _run_dynamic(self, args, kwargs):
        """A call that cannot be one graph (a whole training step: ``loss.backward()``,
        ``opt.step()``): eager, except that with the compiler each Layer the function reaches
        (closure, globals) runs its ``forward`` as a compiled ``to_static`` graph for the call,
        so forward and backward are compiled and the rest (optimizer, clipping, schedulers)
        runs as written."""
        if not self._compiler or self._layer is not None:
            return self._fn(*args, **kwargs)
        patched = []
        try:
            for layer in _layers_used_by(self._fn):
                fwd = layer.__dict__.get("forward")
                if isinstance(fwd, StaticFunction):
                    continue
                sf = self._layer_fns.get(id(layer))
                if sf is None or sf._layer is not layer:
                    sf = StaticFunction(layer.forward, layer=layer, backend="CINN")
                    self._layer_fns[id(layer)] = sf
                patched.append((layer, fwd))
                layer.__dict__["forward"] = sf
            return self._fn(*args, **kwargs)
        finally:
            for layer, fwd in patched:
                if fwd is None:
                    del layer.__dict__["forward"]
                else:
                    layer.__dict__["forward"] = fwd

    def _state_tensors(self):
        """The Layer's torch tensors: parameters and buffers (batch norm's running statistics
        are parameters that stop gradient in Paddle)."""
        layer = self._layer
        if layer is None:
            return []
        return [t._t for t in list(layer.parameters()) + list(layer.buffers())]

    def _trace(self, leaves, spec):
        """Trace, or return ``_EAGER`` where the trace drew random numbers or changed the
        Layer's tensors outside the graph (then everything it changed is put back: the state
        (non-trainable tensors) from copies taken before the trace)."""
        cpu_state = _cpu_generator.get_state()
        torch_state = torch.get_rng_state()
        state = self._state_tensors()
        versions = [t._version for t in state]
        saved = {i: t.detach().clone() for i, t in enumerate(state) if not t.requires_grad}
        try:
            tr = self._trace_graph(leaves, spec)
        finally:
            changed = [i for i, t in enumerate(state) if t._version != versions[i]]
            drew = _cpu_generator.get_state() != cpu_state or \
                not torch.equal(torch.get_rng_state(), torch_state)
            if changed or drew:
                _cpu_generator.set_state(cpu_state)
                torch.set_rng_state(torch_state)
                with torch.no_grad():
                    for i in changed:
                        if i in saved:
                            state[i].copy_(saved[i])
                lost = [i for i in changed if i not in saved]
                if lost:
                    warnings.warn(f"to_static: {getattr(self._fn, '__name__', 'function')} "
                                  f"changed {len(lost)} trainable parameter(s) in place while "
                                  "it was traced; that change was not undone")
        if changed or drew:
            return _EAGER
        return tr

    def _trace_graph(self, leaves, spec):
        prog = Program()
        tensor_pos = [i for i, v in enumerate(leaves) if isinstance(v, Tensor)]
        vleaves = list(leaves)
        trace_mode = _mode.to_static_guard() if self._full_graph else _mode.mode_guard(True)
        with trace_mode, program_guard(prog, Program()):
            for k, i in enumerate(tensor_pos):
                t = leaves[i]._t
                vleaves[i] = prog.add_input(f"input_{k}", list(t.shape), t.dtype,
                                            requires_grad=bool(t.requires_grad))
            a, kw = tree_unflatten(vleaves, spec)
            out = self._fn(*a, **kw)
            if _decompose.forward_enabled():            # Paddle's forward prim switch
                _decompose.lower(prog.graph, prog.tracer)
        out_leaves, out_spec = tree_flatten(out)
        out_pos, nodes = [], []
        for i, v in enumerate(out_leaves):
            if isinstance(v, Tensor):
                out_pos.append(i)
                nodes.append(prog.value_node(v))
        _build_pylayer_backwards(prog)          # eager backward() may reach every layer
        names = tuple(f"input_{k}" for k in range(len(tensor_pos)))
        gm, _, persist, _ = _build_graph_module(prog, names, nodes, torch.device("cpu"))
        if persist:
            raise StaticGraphError("to_static: static parameters are not supported here")
        tr = _Traced()
        self.graph_module = gm
        # the graph that runs reads a view constant (a static linear's weight.t()) as a view
        # taken in the graph: no AsStridedBackward after an optimizer step
        gm = _compiled.lift_views(gm)
        if self._compiler:
            name = getattr(self._fn, "__qualname__", "function")
            if _hooks.autocast_enabled():
                # auto_cast casts through a torch function mode around the graph, which dynamo
                # cannot compile (it fails in its own guards): this key keeps the fx graph
                warnings.warn(f"to_static(backend='CINN'): {name} runs its traced graph "
                              "uncompiled under paddle.amp.auto_cast")
            elif self._compiled[0] < _compiled.MAX_COMPILES:
                self._compiled[0] += 1
                gm = _compiled.compile_graph(gm, name)
            elif self._compiled[0] == _compiled.MAX_COMPILES:
                self._compiled[0] += 1
                warnings.warn(f"to_static(backend='CINN'): {name} was compiled for "
                              f"{_compiled.MAX_COMPILES} input signatures (shapes, dtypes, "
                              "train/eval); new ones run the traced graph uncompiled")
        tr.gm = gm
        tr.program = prog
        tr.out_leaves = [None if isinstance(v, Tensor) else v for v in out_leaves]
        tr.out_spec = out_spec
        tr.out_pos = out_pos
        tr.tensor_pos = tensor_pos
        return tr


class _ConcreteProgram:
    """The programs of one traced call (Paddle's ``ConcreteProgram`` and
    ``PartialProgramLayer`` attributes): ``main_program`` / ``forward_program`` the traced
    graph, ``backward_program`` empty (autograd differentiates the graph's ops)."""

    def __init__(self, program):
        self.main_program = self.forward_program = program
        self.backward_program = Program()
        self.startup_program = Program()


def to_static(function=None, input_spec=None, build_strategy=None, backend=None,
              full_graph=False, **kwargs):
    """Decorate a function (or pass a Layer) to run it as a traced static graph;
    ``backend="CINN"`` compiles the graphs with torch's inductor (``jit/COMPILED.md``)."""
    _compiled.wants_compiler(backend, build_strategy)        # Paddle's error for a bad backend
    def decorate(fn):
        if isinstance(fn, StaticFunction):
            return fn
        if hasattr(fn, "forward") and not isinstance(fn, type) and not callable(
                getattr(fn, "__func__", None)) and hasattr(fn, "__dict__") and \
                not isinstance(fn, functools.partial) and not _is_plain_function(fn):
            fn.forward = StaticFunction(fn.forward, input_spec,
                                        layer=fn if _hooks.is_layer(fn) else None,
                                        full_graph=full_graph, backend=backend,
                                        build_strategy=build_strategy)
            return fn
        return StaticFunction(fn, input_spec, full_graph=full_graph, backend=backend,
                              build_strategy=build_strategy)

    if function is None:
        return decorate
    return decorate(function)


def _is_plain_function(fn):
    return isinstance(fn, (_types.FunctionType, _types.MethodType, _types.BuiltinFunctionType))


_ = StaticProxy

from .translated import TranslatedLayer, load  # noqa: E402  (model files: translated.py)
from . import program_desc  # noqa: E402,F401  (Paddle 2.x .pdmodel files for load)
from . import aot  # noqa: E402  (loaded models as AOTInductor packages: aot.py)

__all__ += ["load", "TranslatedLayer"]
from .save import json_to_pdmodel, save, set_code_level, set_verbosity  # noqa: E402

__all__ += ["save", "json_to_pdmodel", "set_code_level", "set_verbosity"]
