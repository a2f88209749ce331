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
eagerly (dynamic mode), with a warning, as Paddle falls back to dygraph.
"""
import functools
import types as _types
import warnings

import torch
from torch.utils._pytree import tree_flatten, tree_unflatten

from ..framework.tensor import Tensor, wrap
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
    __slots__ = ("gm", "out_leaves", "out_spec", "out_pos", "tensor_pos")


class StaticFunction:
    """A function traced to a static graph per input signature; call it like the function."""

    def __init__(self, function, input_spec=None, **kwargs):
        self._fn = function
        self._input_spec = input_spec
        self._cache = {}
        self._fallback = set()
        functools.update_wrapper(self, function)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        bound = StaticFunction(self._fn.__get__(obj, objtype), self._input_spec)
        bound._cache = self._cache.setdefault(("__bound__", id(obj)), {})
        return bound

    @property
    def dygraph_function(self):
        return self._fn

    def rollback(self):
        return self._fn

    def _key(self, leaves):
        key = []
        for v in leaves:
            if isinstance(v, Tensor):
                t = v._t
                key.append((tuple(t.shape), t.dtype, t.requires_grad, t.device))
            else:
                try:
                    hash(v)
                    key.append(("c", type(v), v))
                except TypeError:
                    key.append(("id", id(v)))
        return tuple(key)

    def __call__(self, *args, **kwargs):
        if not _ENABLED[0] or not _mode.in_dynamic_mode():
            return self._fn(*args, **kwargs)
        leaves, spec = tree_flatten((args, kwargs))
        key = (spec, self._key(leaves))
        tr = self._cache.get(key)
        if tr is None:
            if key in self._fallback:
                return self._fn(*args, **kwargs)
            try:
                tr = self._trace(leaves, spec)
            except StaticGraphError as e:
                warnings.warn(f"to_static: {getattr(self._fn, '__name__', 'function')} could not "
                              f"be traced to a static graph and runs in dynamic mode: {e}")
                self._fallback.add(key)
                return self._fn(*args, **kwargs)
            self._cache[key] = tr
        outs = tr.gm(*[leaves[i]._t for i in tr.tensor_pos])
        res = list(tr.out_leaves)
        for i, o in zip(tr.out_pos, outs):
            res[i] = wrap(o)
        return tree_unflatten(res, tr.out_spec)

    def _trace(self, leaves, spec):
        prog = Program()
        tensor_pos = [i for i, v in enumerate(leaves) if isinstance(v, Tensor)]
        vleaves = list(leaves)
        with _mode.mode_guard(True), program_guard(prog, Program()):
            for k, i in enumerate(tensor_pos):
                t = leaves[i]._t
                vleaves[i] = prog.add_input(f"input_{k}", list(t.shape), t.dtype,
                                            requires_grad=bool(t.requires_grad))
            a, kw = tree_unflatten(vleaves, spec)
            out = self._fn(*a, **kw)
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
        tr.gm = gm
        tr.out_leaves = [None if isinstance(v, Tensor) else v for v in out_leaves]
        tr.out_spec = out_spec
        tr.out_pos = out_pos
        tr.tensor_pos = tensor_pos
        self.graph_module = gm
        return tr


def to_static(function=None, input_spec=None, build_strategy=None, backend=None,
              full_graph=False, **kwargs):
    """Decorate a function (or pass a Layer) to run it as a traced static graph."""
    def decorate(fn):
        if isinstance(fn, StaticFunction):
            return fn
        if hasattr(fn, "forward") and not isinstance(fn, type) and not callable(
                getattr(fn, "__func__", None)) and hasattr(fn, "__dict__") and \
                not isinstance(fn, functools.partial) and not _is_plain_function(fn):
            fn.forward = StaticFunction(fn.forward, input_spec)
            return fn
        return StaticFunction(fn, input_spec)

    if function is None:
        return decorate
    return decorate(function)


def _is_plain_function(fn):
    return isinstance(fn, (_types.FunctionType, _types.MethodType, _types.BuiltinFunctionType))


_ = StaticProxy
