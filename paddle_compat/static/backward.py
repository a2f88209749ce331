"""``gradients`` and ``append_backward``: backward passes appended to a Program.

A backward pass is one node calling ``torch.autograd.grad`` on the forward values at run time
(``_grad_runtime``), followed by one ``getitem`` node per gradient, named ``<var>@GRAD`` as
Paddle names them. So every op's gradient is torch's, a ``static_pylayer`` contributes its own
``backward_fn`` (its node is a ``torch.autograd.Function``), and a gradient of a gradient works
(the earlier pass is switched to ``create_graph=True`` when a later pass reaches through it).

Inputs that the targets do not depend on, or that stop gradient, get ``None`` (as in Paddle).
"""
import operator

import torch

from ..framework.autograd_engine import GradCapture
from ..framework.tensor import Tensor, wrap
from .nn import _build_pylayer_backward
from .proxy import StaticProxy, _active

__all__ = ["gradients", "append_backward", "build_pylayer_backwards"]


def _grad_runtime(targets, inputs, grad_outputs, create_graph=False):
    ts, gs = [], []
    for t, g in zip(targets, grad_outputs):
        if t.requires_grad:
            ts.append(t)
            gs.append(torch.ones_like(t) if g is None else g)
    res = [None] * len(inputs)
    idx = [k for k, x in enumerate(inputs) if x.requires_grad]
    if ts and idx:
        # gradients of another dtype/shape than their leaf that a PyLayer or custom op gives
        # are kept as they are (captured, as paddle.grad does): x@GRAD of custom_cast(x,
        # 'float64') is float64 in Paddle
        captured, GradCapture.grads = GradCapture.grads, {}
        try:
            r = torch.autograd.grad(ts, [inputs[k] for k in idx], gs, retain_graph=True,
                                    create_graph=create_graph, allow_unused=True)
        finally:
            captured, GradCapture.grads = GradCapture.grads, captured
        for k, v in zip(idx, r):
            c = captured.get(id(inputs[k]))
            if c is not None and c[0] is inputs[k]:
                v = c[1] if v is None else c[1] + v.to(c[1].dtype)
            res[k] = v
    return tuple(torch.zeros_like(x) if v is None else v for x, v in zip(inputs, res))


def _as_list(v, what):
    if isinstance(v, (list, tuple)):
        return list(v)
    if isinstance(v, Tensor):
        return [v]
    raise TypeError(f"{what} must be a Variable or a list of Variables, but got "
                    f"{type(v).__name__}")


def _proxy(v, what, tracer=None, record=False):
    """The StaticProxy of Variable ``v``. A real Tensor (made by a creation op under
    ``program_guard``, as ``paddle.full``'s result, which Paddle makes a Variable of the
    program) stands for the constant node ``tracer``'s graph made of it (with ``record``, one
    is made if the graph has none yet: a gradient seed no op has used)."""
    t = getattr(v, "_t", None)
    if isinstance(t, StaticProxy):
        return t
    if tracer is not None and isinstance(t, torch.Tensor):
        node = tracer.constant_node(t)
        if node is None and record:
            node = tracer.create_arg(t)
        if node is not None:
            if t.requires_grad and not node.meta.get("rg"):
                node.meta["rg"] = True      # stop_gradient=False set after the op used it
            return StaticProxy(node, tracer)
    raise TypeError(f"{what} must be static Variables (built under paddle.enable_static()) of "
                    f"the program, but got {type(v).__name__}")


def _ancestors(nodes):
    seen = set()
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        stack.extend(n.all_input_nodes)
    return seen


def _prepare_backward(anc):
    """Build what the backward through ``anc`` needs: static_pylayer backward sub-graphs
    (Paddle builds them here too, and raises its count errors here) and ``create_graph`` on
    earlier backward passes that this one differentiates through."""
    for n in anc:
        if "pylayer" in n.meta:
            _build_pylayer_backward(n)
        elif n.target is _grad_runtime and not n.kwargs.get("create_graph"):
            n.kwargs = {**n.kwargs, "create_graph": True}


def build_pylayer_backwards(program):
    """Build the backward sub-graph of every ``static_pylayer`` in ``program`` now, as a backward
    pass reaching them would (``jit.to_static``: an eager ``backward()`` may reach any)."""
    for n in list(program.graph.nodes):
        if "pylayer" in n.meta:
            _build_pylayer_backward(n)


def _unique_grad_name(program_tracer, graph, base):
    names = {n.meta.get("var_name") for n in graph.nodes}
    if base not in names:
        return base
    k = 1
    while f"{base}@RENAME@{k}" in names:
        k += 1
    return f"{base}@RENAME@{k}"


def _meta_value(n, env):
    """Node ``n``'s value replayed on ``meta`` tensors (its inputs' values in ``env``)."""
    if n.op in ("placeholder", "get_attr"):
        v = n.meta["pv"][0]
        if not isinstance(v, torch.Tensor):
            raise TypeError("not a tensor")
        v = v.detach()
        return v.requires_grad_(True) if n.meta.get("rg") and (
            v.is_floating_point() or v.is_complex()) else v
    args, kwargs = torch.fx.node.map_arg((n.args, n.kwargs), lambda a: env[a])
    if n.op == "call_function":
        if n.target is _grad_runtime:
            kwargs = {**kwargs, "create_graph": True}
        return n.target(*args, **kwargs)
    if n.op == "call_method":
        return getattr(args[0], n.target)(*args[1:], **kwargs)
    raise TypeError(n.op)


def _reachable_through_backward(tnodes, inodes, target_grads, anc, live):
    """Of ``live`` (indices of ``inodes`` in the input list), those the targets depend on.
    A target reached through an earlier backward pass may not depend on an input that is its
    ancestor in the graph (the gradient of a linear op does not depend on the op's input): as
    Paddle gives no gradient there (None), the dependencies are found by replaying the graph
    on ``meta`` tensors with torch's autograd. Where the replay cannot run, all stay live."""
    wanted = set(inodes)
    env = {}
    try:
        with torch.enable_grad():
            for n in tnodes[0].graph.nodes:
                if n not in anc:
                    continue
                v = _meta_value(n, env)
                if (n in wanted or n.meta.get("force_rg")) and isinstance(v, torch.Tensor) \
                        and not v.requires_grad and (v.is_floating_point() or v.is_complex()):
                    v = v.detach().requires_grad_(True)
                env[n] = v
            ts, gs = [], []
            for t, g in zip(tnodes, target_grads):
                tv = env[t]
                if tv.requires_grad:
                    ts.append(tv)
                    gv = env.get(getattr(g, "node", None)) if g is not None else None
                    gs.append(torch.ones_like(tv) if gv is None else gv)
            xs = [env[n] for n in inodes]
            idx = [j for j, x in enumerate(xs) if x.requires_grad]
            if not ts or not idx:
                return live
            r = torch.autograd.grad(ts, [xs[j] for j in idx], gs, allow_unused=True)
    except Exception:                   # noqa: BLE001 - an op without a meta replay
        return live
    dead = {idx[j] for j, g in enumerate(r) if g is None}
    return [k for j, k in enumerate(live) if j not in dead]


def _append_grad(tracer, targets, inputs, target_grads):
    """Record the backward node; returns one Variable (or None) per input."""
    tnodes = [t.node for t in targets]
    anc = _ancestors(tnodes)
    _prepare_backward(anc)
    live = [k for k, p in enumerate(inputs) if p.node in anc and p.node.meta.get("rg")]
    if live and any(n.target is _grad_runtime for n in anc):
        live = _reachable_through_backward(tnodes, [inputs[k].node for k in live], target_grads,
                                           anc, live)
    out = [None] * len(inputs)
    if not live:
        return out
    lin = [inputs[k] for k in live]
    g = tracer.record("call_function", _grad_runtime,
                      (tuple(targets), tuple(lin), tuple(target_grads)), {"create_graph": False},
                      pv=(tuple(p.node.meta["pv"][0] for p in lin),
                          tuple(p.node.meta["pv"][1] for p in lin)),
                      rg=False, var_name=None, meta={"role": "backward", "op_type": "grad"})
    for j, k in enumerate(live):
        p = inputs[k]
        base = (p.node.meta.get("var_name") or p.node.name) + "@GRAD"
        name = _unique_grad_name(tracer, tracer.graph, base)
        gp = tracer.record("call_function", operator.getitem, (g, j), {},
                           pv=p.node.meta["pv"], rg=True, var_name=name,
                           meta={"role": "backward", "op_type": "grad_out"})
        v = wrap(gp)
        v._name = name
        out[k] = v
    return out


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """Append the backward of ``targets`` w.r.t. ``inputs``; returns one gradient Variable per
    input (None where the targets do not depend on it). ``target_gradients`` default to ones."""
    tl = _as_list(targets, "targets")
    il = _as_list(inputs, "inputs")
    tps = [_proxy(t, "targets") for t in tl]
    ips = [_proxy(x, "inputs", tps[0].tracer) for x in il]
    if target_gradients is None:
        tgs = [None] * len(tps)
    else:
        tg = _as_list(target_gradients, "target_gradients")
        if len(tg) != len(tps):
            raise ValueError("Should have the same number of target_gradients as targets")
        tgs = [None if g is None else _proxy(g, "target_gradients", tps[0].tracer, True)
               for g in tg]
    if no_grad_set:
        skip = {getattr(v, "name", v) for v in no_grad_set}
        ips_eff = [None if (x.name in skip) else p for x, p in zip(il, ips)]
    else:
        ips_eff = ips
    tracer = _active[-1] if _active else tps[0].tracer
    keep = [p for p in ips_eff if p is not None]
    res = iter(_append_grad(tracer, tps, keep, tgs))
    return [None if p is None else next(res) for p in ips_eff]


def _append_variable_grads(lp, anc, params):
    """Paddle's append_backward also makes the gradient of every other variable on the way to
    the loss (``X@GRAD`` of a data input with stop_gradient=False, ``out@GRAD`` of an op's
    output), fetchable by name. They are one separate backward node: the Executor keeps only
    what a fetch needs, so a run that fetches none of them does not compute them."""
    skip = {"backward", "optimize"}
    extra = [n for n in lp.node.graph.nodes
             if n in anc and n not in params and n.meta.get("rg") and n.meta.get("var_name")
             and n.op in ("placeholder", "call_function", "call_method", "get_attr")
             and not n.meta.get("persistable") and n.meta.get("role") not in skip
             and "pv" in n.meta]
    if extra:
        _append_grad(lp.tracer, [lp], [StaticProxy(n, lp.tracer) for n in extra], [None])


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None,
                    checkpoints=None, distop_context=None):
    """Append the backward of ``loss`` w.r.t. the trainable parameters (or
    ``parameter_list``); returns ``[(parameter, gradient), ...]`` for those ``loss`` depends
    on."""
    lp = _proxy(loss, "loss")
    program = lp.tracer.owner
    graph = lp.node.graph
    given = {}                  # node -> the object the caller named it by
    if parameter_list is not None:
        nodes = []
        for p in parameter_list:
            n = _named_node(program, lp.tracer, p)
            nodes.append(n)
            if not isinstance(p, str):
                given.setdefault(n, p)
    else:
        nodes = [n for n in reversed(graph.nodes) if n.meta.get("parameter") and
                 n.meta.get("trainable") and n.meta.get("rg")]     # Paddle's order: newest first
    if no_grad_set:
        skip = {getattr(v, "name", v) for v in no_grad_set}
        nodes = [n for n in nodes if n.meta.get("var_name") not in skip]
    anc = _ancestors([lp.node])
    nodes = [n for n in nodes if n in anc and n.meta.get("rg")]
    _append_variable_grads(lp, anc, set(nodes))
    if not nodes:
        return []
    ps = [StaticProxy(n, lp.tracer) for n in nodes]
    grads = _append_grad(lp.tracer, [lp], ps, [None])
    out = []
    for n, p, g in zip(nodes, ps, grads):
        v = given.get(n)
        if v is None:
            v = wrap(p)
            v._name = n.meta.get("var_name")
            v._persistable = bool(n.meta.get("persistable"))
        out.append((v, g))
    return out


def _named_node(program, tracer, p):
    """The node of ``append_backward``'s ``parameter_list`` entry ``p``: a name, a Variable of
    the loss's program (a parameter, or any variable with stop_gradient=False, as Paddle
    accepts), or a real Tensor the program uses as a constant."""
    if isinstance(p, str):
        n = program.node_by_name(p)
        if n is None:
            raise ValueError(f"parameter '{p}' is not in the loss's program")
        return n
    try:
        n = _proxy(p, "parameter_list", tracer).node
    except TypeError:
        n = None
    if n is None or n.graph is not program.graph:
        raise ValueError(f"parameter '{getattr(p, 'name', p)}' is not in the loss's program")
    return n

