"""``paddle.static.nn.static_pylayer``: the module, with ``StaticPyLayerBlock``, the block-level
form of ``static_pylayer`` (Paddle's old-IR builder behind it).

``StaticPyLayerBlock(inputs)`` gives two ``with mgr.block(is_backward_block=...)`` blocks:

* the forward block: ops written inside it (on the inputs) become the layer's forward
  sub-graph; ``mgr.fwd_outputs`` names the Variables it produces. After the block those
  Variables hold the layer's outputs in the enclosing program.
* the backward block: ops written inside it become the layer's backward sub-graph (the
  gradients of the outputs are its arguments); ``mgr.var_old_to_new[name] = grad_name`` says
  that the Variable ``name`` of the block is the gradient of the input whose gradient variable
  is ``grad_name`` (``x.name + core.grad_var_suffix()``). Inputs given no gradient get none.

A later ``append_backward``/``gradients`` takes the input gradients from the backward block, as
with ``static_pylayer(forward_fn, inputs, backward_fn)``.
"""
import contextlib
import operator
import sys

from torch.fx import Graph, GraphModule

from ..framework.tensor import Tensor
from . import nn as _nn
from .proxy import StaticGraphError, StaticProxy, StaticTracer, pop_tracer, push_tracer
from .nn import static_pylayer

__all__ = ["StaticPyLayerBlock", "static_pylayer"]

_GRAD_SUFFIX = "@GRAD"


class StaticPyLayerBlock:
    """The forward and backward blocks of one static PyLayer over ``inputs`` (Variables)."""

    def __init__(self, inputs, name=None, pylayer_context=None):
        if not isinstance(inputs, (list, tuple)) or \
                not all(isinstance(v, Tensor) for v in inputs):
            raise TypeError("StaticPyLayerBlock: inputs must be a list of Variables")
        self.inputs = list(inputs)
        self.name = name
        self.context = pylayer_context
        self.fwd_outputs = []
        self.var_old_to_new = {}
        self._fwd = None            # (sub-graph pieces, the layer's node) after the forward block
        self._info = None

    @contextlib.contextmanager
    def block(self, is_backward_block):
        """A block recording the forward ops (``is_backward_block=False``, first) or the
        backward ops (``True``, after the forward block)."""
        if is_backward_block:
            if self._info is None:
                raise ValueError("StaticPyLayerBlock: the forward block must come before the "
                                 "backward block")
            with self._backward_block():
                yield self
        else:
            if self._info is not None:
                raise ValueError("StaticPyLayerBlock: the forward block was already built")
            with self._forward_block():
                yield self

    # -- forward: the inputs become the sub-graph's arguments while the block runs
    @contextlib.contextmanager
    def _forward_block(self):
        first = next((v._t for v in self.inputs if isinstance(v._t, StaticProxy)), None)
        parent = _nn._current_tracer(first.tracer if first is not None else None)
        in_proxies = [_nn._as_proxy(parent, v) for v in self.inputs]
        sub = StaticTracer(Graph(), owner=None, parent=parent)
        saved = [v._t for v in self.inputs]
        for i, (v, p) in enumerate(zip(self.inputs, in_proxies)):
            v._t = sub.placeholder(f"arg{i}", p.node.meta["pv"], rg=p.node.meta.get("rg", False),
                                   var_name=p.node.meta.get("var_name"))
        push_tracer(sub)
        try:
            yield
        finally:
            pop_tracer(sub)
            for v, t in zip(self.inputs, saved):
                v._t = t
        outs = [v for v in self.fwd_outputs if isinstance(v, Tensor)]
        if not outs:
            raise ValueError("StaticPyLayerBlock: set mgr.fwd_outputs in the forward block")
        nodes = [sub.create_arg(v._t) for v in outs]
        sub.graph.output(tuple(nodes))
        gm = GraphModule(_nn._root(sub.attrs), sub.graph)
        pvs = [n.meta["pv"] for n in nodes]
        prefix = parent.unique_var_name(self.name or "pylayer")
        box = _nn._BackwardBox(None)
        fwd_node = parent.attr_node(f"_{prefix}_forward", gm)
        box_node = parent.attr_node(f"_{prefix}_backward", box)
        caps = list(sub.capture_order)
        rg = any(p.node.meta.get("rg") for p in in_proxies)
        pv = (tuple(p[0] for p in pvs), tuple(p[1] for p in pvs))
        info = {"sub": _nn.SubGraph(gm, None, list(outs), list(range(len(outs))), pvs,
                                    [n.meta.get("rg", False) for n in nodes], caps),
                "box": box, "inputs": in_proxies, "parent": parent, "built": True}
        node = parent.record("call_function", _nn._run_static_pylayer,
                             (fwd_node, box_node, len(in_proxies), *in_proxies, *caps), {},
                             pv=pv, rg=rg, var_name=None,
                             meta={"pylayer": info, "needs_grad": True, "op_type": "pylayer"})
        for k, (v, p) in enumerate(zip(outs, pvs)):
            o = parent.record("call_function", operator.getitem, (node, k), {}, pv=p,
                              rg=rg and p[0].dtype.is_floating_point,
                              var_name=f"{prefix}.tmp_{k}")
            v._t = o
        self._info = info

    # -- backward: the gradients of the outputs are the sub-graph's arguments
    @contextlib.contextmanager
    def _backward_block(self):
        info = self._info
        body = _caller_frame()
        sub = StaticTracer(Graph(), owner=None, parent=info["parent"])
        for i, pv in enumerate(info["sub"].pvs):
            sub.placeholder(f"grad{i}", pv)
        push_tracer(sub)
        try:
            yield
        finally:
            pop_tracer(sub)
        by_name = {}
        for n in sub.graph.nodes:
            name = n.meta.get("holds") or n.meta.get("var_name")
            if name is not None:
                by_name[name] = n
        # Variables the block made without recording an op (a constant from fill_constant):
        # found by name among the block's local Variables
        wanted = set(self.var_old_to_new) - set(by_name)
        for v in list(body.f_locals.values()) if body is not None and wanted else ():
            name = getattr(v, "_name", None) if isinstance(v, Tensor) else None
            if name in wanted:
                by_name[name] = sub.create_arg(v._t)
        grad_of = {new: old for old, new in self.var_old_to_new.items()}
        outs, order = [], []
        for v, p in zip(self.inputs, info["inputs"]):
            old = grad_of.get(_var_name(v, p) + _GRAD_SUFFIX)
            if old is None:
                order.append(None)
                continue
            if old not in by_name:
                raise ValueError(f"StaticPyLayerBlock: the backward block has no Variable "
                                 f"named {old!r} (var_old_to_new)")
            order.append(len(outs))
            outs.append(by_name[old])
        sub.graph.output(tuple(outs))
        _inline_constant_captures(sub, info["parent"])
        info["box"].gm = _nn._Reorder(GraphModule(_nn._root(sub.attrs), sub.graph), order)
        info["parent"].version += 1


def _inline_constant_captures(sub, parent):
    """Copy into ``sub`` the ops of the enclosing graph that its captures come from, when they
    need no fed value (a ``fill_constant`` recorded in the program): the backward sub-graph then
    runs on the output gradients alone. A capture of a fed or computed Variable is an error."""
    copies = {}

    def copy(node):
        if node in copies:
            return copies[node]
        if node.op == "placeholder":
            raise StaticGraphError(
                "StaticPyLayerBlock: the backward block may only use the gradients and "
                f"constants (it uses '{node.meta.get('var_name', node.name)}' of the enclosing "
                "program)")
        for a in node.all_input_nodes:
            copy(a)
        if node.op == "get_attr":
            sub.attrs[node.target] = parent.attrs[node.target]
        with sub.graph.inserting_before(_first_op(sub.graph)):
            new = sub.graph.node_copy(node, lambda n: copies[n])
        new.meta.update(node.meta)
        copies[node] = new
        return new

    for outer in list(sub.capture_order):
        local = sub.captures.pop(outer.node)
        local.node.replace_all_uses_with(copy(outer.node))
        sub.graph.erase_node(local.node)
    sub.capture_order.clear()


def _first_op(graph):
    return next(n for n in graph.nodes if n.op != "placeholder")


def _caller_frame():
    """The frame running the ``with mgr.block(...)`` body (outside contextlib and this file)."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename in (__file__, contextlib.__file__):
        f = f.f_back
    return f


def _var_name(v, proxy):
    return proxy.node.meta.get("var_name") or getattr(v, "name", None) or ""
