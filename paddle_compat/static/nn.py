"""``paddle.static.nn``: ``static_pylayer``, ``cond``, ``case``, ``fc``.

Sub-graphs: ``static_pylayer``'s ``forward_fn``/``backward_fn`` and ``cond``'s branches are
traced into their own ``torch.fx`` graphs (``trace_subgraph``) and kept as GraphModules on the
enclosing graph's root (``get_attr`` nodes). Variables of the enclosing graph that a function
uses are lifted into extra inputs (captures), so branches and layers may close over them, and
sub-graphs nest (a ``cond`` inside a ``static_pylayer``).

``static_pylayer`` records one node running ``_StaticPyLayerFunction`` (a
``torch.autograd.Function``) whose forward calls the forward sub-graph and whose backward calls
the backward sub-graph. As in Paddle 3.3.1, ``backward_fn`` is traced when a backward pass
(``gradients``/``append_backward``) first reaches the layer, which is also where the count
check raises; the outputs come back flattened (one Variable, or a list).

In dynamic mode (Paddle asserts there; we follow the issue) ``static_pylayer`` runs
``forward_fn`` eagerly inside a ``torch.autograd.Function`` whose backward calls
``backward_fn``: a PyLayer made of the two functions.

``record_pylayer`` records a ``paddle.autograd.PyLayer`` applied to Variables; ``PyLayer.apply``
(autograd/, a lower layer) reaches it through ``framework.hooks.record_pylayer``, filled here.
"""
import math
import operator

import torch
from torch.fx import Graph, GraphModule
from torch.utils._pytree import tree_flatten, tree_unflatten

from ..framework import hooks as _hooks
from ..framework.flags import get_flags
from ..framework.tensor import Tensor, wrap
from . import mode as _mode
from .program import create_parameter, default_main_program
from .proxy import (SENTINELS, StaticGraphError, StaticProxy, StaticTracer, _active, pop_tracer,
                    push_tracer, shape_of)

#: Paddle's ``paddle.static.nn`` is a package (``paddle.static.nn.static_pylayer``, ``.common``,
#: ``.control_flow``): the import hook maps those names (compat/hook.py ALIASES)
__path__ = []

__all__ = ["static_pylayer", "cond", "case", "fc",
           # defined in static/legacy_nn.py and static/misc.py (py_func), bound here by
           # static/__init__.py (they build on this module, which cannot import them back)
           "conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose", "batch_norm",
           "layer_norm", "group_norm", "instance_norm", "prelu", "embedding",
           "sparse_embedding", "bilinear_tensor_product", "spectral_norm", "row_conv",
           "continuous_value_model", "deform_conv2d", "nce", "switch_case", "while_loop",
           "py_func",
           "sequence_conv", "sequence_expand", "sequence_first_step", "sequence_last_step",
           "sequence_pool", "sequence_softmax"]


# ---------------------------------------------------------------------- sub-graphs
class SubGraph:
    """A traced function: ``gm(*inputs, *captures) -> tuple of outputs``; ``spec`` rebuilds the
    function's output structure from the flat outputs (non-tensor leaves kept in ``leaves``)."""

    def __init__(self, gm, spec, leaves, tensor_pos, pvs, rgs, captures):
        self.gm = gm
        self.spec = spec
        self.leaves = leaves
        self.tensor_pos = tensor_pos
        self.pvs = pvs
        self.rgs = rgs
        self.captures = captures


def _root(attrs):
    root = torch.nn.Module()
    for k, v in attrs.items():
        setattr(root, k, v)
    return root


def _current_tracer(default=None):
    if _active:
        return _active[-1]
    if default is not None:
        return default
    return default_main_program().tracer


def trace_subgraph(parent, fn, arg_specs, args_structure=None):
    """Trace ``fn`` into a sub-graph of ``parent``. ``arg_specs``: one (pv, rg, name) per
    Variable argument; ``args_structure`` (a callable) rebuilds fn's positional arguments from
    the argument Variables (default: they are the arguments)."""
    sub = StaticTracer(Graph(), owner=None, parent=parent)
    vars_ = []
    for i, (pv, rg, name) in enumerate(arg_specs):
        v = wrap(sub.placeholder(f"arg{i}", pv, rg=rg, var_name=name))
        if name is not None:
            v._name = name
        vars_.append(v)
    push_tracer(sub)
    try:
        out = fn(*(args_structure(vars_) if args_structure else vars_))
        leaves, spec = tree_flatten(out)
        nodes, pos, pvs, rgs = [], [], [], []
        for i, leaf in enumerate(leaves):
            if isinstance(leaf, Tensor):
                node = sub.create_arg(leaf._t)
                nodes.append(node)
                pos.append(i)
                pvs.append(node.meta["pv"])
                rgs.append(node.meta.get("rg", False))
    finally:
        pop_tracer(sub)
    sub.graph.output(tuple(nodes))
    gm = GraphModule(_root(sub.attrs), sub.graph)
    return SubGraph(gm, spec, leaves, pos, pvs, rgs, list(sub.capture_order)), out


def _flat_variables(inputs):
    leaves, spec = tree_flatten(inputs)
    pos = [i for i, v in enumerate(leaves) if isinstance(v, Tensor)]
    return leaves, spec, pos


# ---------------------------------------------------------------------- static_pylayer
class _BackwardBox:
    """Holds the backward sub-GraphModule once it is built (it is built lazily)."""

    def __init__(self, backward_fn):
        self.backward_fn = backward_fn
        self.gm = None


class _StaticPyLayerFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fwd, box, n_in, *args):
        ctx.box = box
        ctx.n_in = n_in
        ctx.n_args = len(args)
        return tuple(fwd.forward(*args))

    @staticmethod
    def backward(ctx, *grads):
        box = ctx.box
        if box.gm is None:
            raise RuntimeError("static_pylayer: its backward was never built (no "
                               "paddle.static.gradients/append_backward reached it)")
        gi = tuple(box.gm(*grads))
        return (None, None, None) + gi + (None,) * (ctx.n_args - len(gi))


def _run_static_pylayer(fwd, box, n_in, *args):
    if box is None or box.gm is None or not torch.is_grad_enabled() or \
            not any(isinstance(a, torch.Tensor) and a.requires_grad for a in args[:n_in]):
        with torch.no_grad() if box is None else _nullctx():
            return tuple(fwd.forward(*args))
    return _StaticPyLayerFunction.apply(fwd, box, n_in, *args)


class _nullctx:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def static_pylayer(forward_fn, inputs, backward_fn=None, name=None):
    """``forward_fn(*inputs)`` as one op whose gradient is ``backward_fn(*output_grads)``.
    See the module docstring; Paddle's docs: paddle.static.nn.static_pylayer."""
    if _mode.in_dynamic_mode() and not _has_proxy(inputs):
        return _dynamic_pylayer(forward_fn, inputs, backward_fn)
    assert isinstance(inputs, list)
    if backward_fn is None:
        for v in inputs:
            if isinstance(v, Tensor) and v.stop_gradient is False:
                raise ValueError(
                    "``stop_gradient`` attr of all inputs to ``forward_fn`` are expected to be "
                    f"True, when ``backward_fn == None``, but {v.name}.stop_gradient got "
                    f"{v.stop_gradient}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"The type of 'name' in static_pylayer must be (<class 'str'>, "
                        f"<class 'NoneType'>), but received {type(name)}. ")
    if forward_fn is None or not callable(forward_fn):
        raise ValueError("`forward_fn` should be callable")
    if backward_fn is not None and not callable(backward_fn):
        raise ValueError("`backward_fn` should be callable")
    leaves, spec, pos = _flat_variables(inputs)
    first = next((leaves[i]._t for i in pos if isinstance(leaves[i]._t, StaticProxy)), None)
    parent = _current_tracer(first.tracer if first is not None else None)
    in_proxies = [_as_proxy(parent, leaves[i]) for i in pos]
    specs = [(p.node.meta["pv"], p.node.meta.get("rg", False),
              p.node.meta.get("var_name")) for p in in_proxies]

    def rebuild(vars_):
        ls = list(leaves)
        for i, v in zip(pos, vars_):
            ls[i] = v
        return tree_unflatten(ls, spec)

    sub, out = trace_subgraph(parent, forward_fn, specs, lambda vs: rebuild(vs))
    if out is None:
        return None
    prefix = parent.unique_var_name(name or "pylayer")
    fwd_node = parent.attr_node(f"_{prefix}_forward", sub.gm)
    box = _BackwardBox(backward_fn) if backward_fn is not None else None
    box_node = parent.attr_node(f"_{prefix}_backward", box)
    caps = [c for c in sub.captures]
    rg = backward_fn is not None and any(p.node.meta.get("rg") for p in in_proxies)
    pv = (tuple(p[0] for p in sub.pvs), tuple(p[1] for p in sub.pvs))
    node = parent.record("call_function", _run_static_pylayer,
                         (fwd_node, box_node, len(in_proxies), *in_proxies, *caps), {},
                         pv=pv, rg=rg, var_name=None,
                         meta={"pylayer": {"sub": sub, "box": box, "inputs": in_proxies,
                                           "parent": parent, "built": False},
                               "needs_grad": backward_fn is not None, "op_type": "pylayer"})
    outs = list(sub.leaves)
    for k, (i, p) in enumerate(zip(sub.tensor_pos, sub.pvs)):
        o = parent.record("call_function", operator.getitem, (node, k), {}, pv=p,
                          rg=rg and p[0].dtype.is_floating_point,
                          var_name=f"{prefix}.tmp_{k}")
        outs[i] = wrap(o)
    if box is not None and not get_flags("FLAGS_enable_pir_api")["FLAGS_enable_pir_api"]:
        # Paddle's legacy static graph builds the backward block with the op, so a
        # backward_fn of the wrong arity or output count fails here
        _build_pylayer_backward(node.node)
    return outs[0] if len(outs) == 1 else outs


def _as_proxy(tracer, v):
    t = v._t
    if isinstance(t, StaticProxy):
        return t
    return tracer.constant(t)


def _has_proxy(inputs):
    leaves, _ = tree_flatten(inputs)
    return any(isinstance(getattr(v, "_t", None), StaticProxy) for v in leaves)


def _build_pylayer_backward(node):
    """Trace the layer's ``backward_fn`` (once) and check its output count (Paddle's
    ValueError), when a backward pass first reaches the static_pylayer ``node``."""
    info = node.meta["pylayer"]
    if info["built"]:
        return
    box = info["box"]
    if box is None:
        info["built"] = True
        return
    sub = info["sub"]
    specs = [(pv, False, None) for pv in sub.pvs]
    bsub, _ = trace_subgraph(info["parent"], box.backward_fn, specs)
    n_grads = len([v for v in bsub.leaves if v is None or isinstance(v, Tensor)])
    n_in = len(info["inputs"])
    if n_grads != n_in:
        raise ValueError(f"The number of input grads should be equal to the number of inputs, "
                         f"but got {n_grads} and {n_in}.")
    # reorder to one output per forward input (None where backward_fn returned None)
    flat = []
    it = iter(range(len(bsub.tensor_pos)))
    for leaf in bsub.leaves:
        if isinstance(leaf, Tensor):
            flat.append(next(it))
        elif leaf is None:
            flat.append(None)
    if bsub.captures:
        raise StaticGraphError("static_pylayer: backward_fn may only use its arguments (it "
                               "uses Variables of the enclosing program)")
    box.gm = _Reorder(bsub.gm, flat)
    info["built"] = True
    info["parent"].version += 1


class _Reorder:
    """Backward sub-graph outputs laid out one per forward input (None kept)."""

    def __init__(self, gm, order):
        self.gm = gm
        self.order = order

    def __call__(self, *grads):
        outs = self.gm.forward(*grads)
        return tuple(None if k is None else outs[k] for k in self.order)


class _DynamicPyLayer(torch.autograd.Function):
    @staticmethod
    def forward(ctx, forward_fn, backward_fn, rebuild, n, *tensors):
        ctx.backward_fn = backward_fn
        ctx.n = n
        args = rebuild([wrap(t) for t in tensors])
        with _mode.mode_guard(False):
            out = forward_fn(*args)
        leaves, spec = tree_flatten(out)
        ctx.out_pos = [i for i, v in enumerate(leaves) if isinstance(v, Tensor)]
        ctx.mark_non_differentiable(*[leaves[i]._t for i in ctx.out_pos
                                      if not leaves[i]._t.is_floating_point()])
        rebuild.out = (leaves, spec)
        return tuple(leaves[i]._t for i in ctx.out_pos)

    @staticmethod
    def backward(ctx, *grads):
        if ctx.backward_fn is None:
            return (None,) * (4 + ctx.n)
        g = ctx.backward_fn(*[wrap(x) for x in grads])
        leaves, _ = tree_flatten(g)
        gs = [v for v in leaves if v is None or isinstance(v, Tensor)]
        if len(gs) != ctx.n:
            raise ValueError(f"The number of input grads should be equal to the number of "
                             f"inputs, but got {len(gs)} and {ctx.n}.")
        return (None, None, None, None) + tuple(None if v is None else v._t for v in gs)


def _dynamic_pylayer(forward_fn, inputs, backward_fn):
    if not isinstance(inputs, list):
        raise AssertionError
    if backward_fn is None:
        for v in inputs:
            if isinstance(v, Tensor) and v.stop_gradient is False:
                raise ValueError(
                    "``stop_gradient`` attr of all inputs to ``forward_fn`` are expected to be "
                    f"True, when ``backward_fn == None``, but {v.name}.stop_gradient got "
                    f"{v.stop_gradient}")
    leaves, spec, pos = _flat_variables(inputs)

    def rebuild(vs):
        ls = list(leaves)
        for i, v in zip(pos, vs):
            ls[i] = v
        return tree_unflatten(ls, spec)

    outs = _DynamicPyLayer.apply(forward_fn, backward_fn, rebuild, len(pos),
                                 *[leaves[i]._t for i in pos])
    if not hasattr(rebuild, "out"):
        return None
    oleaves, _ = rebuild.out
    if not oleaves or (len(oleaves) == 1 and oleaves[0] is None):
        return None
    res = list(oleaves)
    k = 0
    for i, v in enumerate(oleaves):
        if isinstance(v, Tensor):
            res[i] = wrap(outs[k])
            k += 1
    return res[0] if len(res) == 1 else res


# ---------------------------------------------------------------------- PyLayer in programs
class _PyLayerCall:
    """A ``PyLayer.apply`` recorded in a program: rebuilds the arguments around the run-time
    tensors and calls ``apply`` eagerly, so the layer's own backward is used."""

    def __init__(self, cls, leaves, spec, pos):
        self.cls = cls
        self.leaves = leaves
        self.spec = spec
        self.pos = pos
        self.out_spec = None

    def __call__(self, *tensors):
        ls = list(self.leaves)
        for i, t in zip(self.pos, tensors):
            ls[i] = wrap(t)
        args, kwargs = tree_unflatten(ls, self.spec)
        with _mode.mode_guard(False):
            out = self.cls.apply(*args, **kwargs)
        oleaves, ospec = tree_flatten(out)
        self.out_spec = (oleaves, ospec)
        return tuple(v._t for v in oleaves if isinstance(v, Tensor))


def _run_paddle_pylayer(call, *tensors):
    return call(*tensors)


def record_pylayer(cls, args, kwargs):
    """Record ``cls.apply(*args, **kwargs)`` (a paddle_compat PyLayer) into the program its
    Variables belong to; called by ``PyLayer.apply`` when it is given static Variables."""
    leaves, spec = tree_flatten((args, kwargs))
    pos = [i for i, v in enumerate(leaves) if isinstance(v, Tensor)]
    first = next((leaves[i]._t for i in pos if isinstance(leaves[i]._t, StaticProxy)), None)
    tracer = _current_tracer(first.tracer if first is not None else None)
    proxies = [_as_proxy(tracer, leaves[i]) for i in pos]
    call = _PyLayerCall(cls, leaves, spec, pos)
    pvs = []
    for which in (0, 1):
        metas = []
        for p in proxies:
            m = p.node.meta["pv"][which]
            metas.append(m.detach().requires_grad_(bool(p.node.meta.get("rg")))
                         if m.is_floating_point() else m)
        try:
            pvs.append(call(*metas))
        except (NotImplementedError, RuntimeError) as e:
            raise StaticGraphError(f"{cls.__name__}.apply could not be traced on meta tensors "
                                   f"in static mode: {e}") from None
    out_leaves, out_spec = call.out_spec
    pvs = tuple(tuple(t.detach() for t in pv) for pv in pvs)
    rg = any(p.node.meta.get("rg") for p in proxies)
    box = tracer.attr_node(f"_{tracer.unique_var_name('pylayer_call')}", call)
    node = tracer.record("call_function", _run_paddle_pylayer, (box, *proxies), {}, pv=pvs,
                         rg=rg, var_name=None,
                         meta={"needs_grad": True, "op_type": f"pylayer:{cls.__name__}"})
    res = list(out_leaves)
    k = 0
    prefix = tracer.unique_var_name(cls.__name__)
    for i, v in enumerate(out_leaves):
        if isinstance(v, Tensor):
            pv = (pvs[0][k], pvs[1][k])
            o = tracer.record("call_function", operator.getitem, (node, k), {}, pv=pv,
                              rg=rg and pv[0].is_floating_point(),
                              var_name=f"{prefix}.tmp_{k}")
            res[i] = wrap(o)
            k += 1
    return tree_unflatten(res, out_spec)


_hooks.record_pylayer.set(record_pylayer)


class _GradHookHandle:
    """A gradient hook recorded in a graph (``Tensor.register_hook`` on a Variable):
    ``remove()`` turns it off for the runs that follow."""

    def __init__(self, fn):
        self.fn = fn

    def remove(self):
        self.fn = None


class _ApplyGradHook(torch.autograd.Function):
    """Identity forward; backward passes the gradient through the recorded hook."""

    @staticmethod
    def forward(ctx, t, handle):
        ctx.handle = handle
        return t.view_as(t)

    @staticmethod
    def backward(ctx, g):
        fn = ctx.handle.fn
        out = None if fn is None else fn(g)
        return (g if out is None else out), None


def _run_grad_hook(handle, t):
    return _ApplyGradHook.apply(t, handle) if t.requires_grad else t


def record_grad_hook(proxy, fn):
    """Record ``fn`` (torch gradient -> torch gradient or None) as a hook on the value of
    ``proxy``: later uses of the Variable read the node's value, whose gradient goes through
    ``fn`` before it flows on. Returns (the node's value, its handle)."""
    tracer = _current_tracer(proxy.tracer)
    p = _as_proxy(tracer, wrap(proxy))
    handle = _GradHookHandle(fn)
    box = tracer.attr_node(f"_{tracer.unique_var_name('grad_hook')}", handle)
    out = tracer.record("call_function", _run_grad_hook, (box, p), {}, pv=p.node.meta["pv"],
                        rg=p.node.meta.get("rg"), var_name=p.node.meta.get("var_name"),
                        meta={"needs_grad": True, "op_type": "grad_hook"})
    return out, handle


_hooks.record_grad_hook.set(record_grad_hook)


# ---------------------------------------------------------------------- cond / case
def _run_cond(pred, true_gm, false_gm, n_true, *caps):
    if bool(pred):
        return tuple(true_gm.forward(*caps[:n_true]))
    return tuple(false_gm.forward(*caps[n_true:]))


def _merge_pv(a, b):
    """Metadata for a value that is ``a`` or ``b`` depending on a run-time branch."""
    if a[0].dtype != b[0].dtype:
        raise TypeError("Incompatible return values of true_fn and false_fn in cond: dtypes "
                        f"{a[0].dtype} and {b[0].dtype} differ")
    if a[0].shape == b[0].shape and a[1].shape == b[1].shape:
        return a
    if a[0].dim() != b[0].dim():
        raise ValueError("Incompatible return values of true_fn and false_fn in cond: ranks "
                         f"{a[0].dim()} and {b[0].dim()} differ")
    out = []
    for s in SENTINELS:
        dims = [x if (x == y and x2 == y2) else s for x, y, x2, y2 in
                zip(a[0].shape, b[0].shape, a[1].shape, b[1].shape)]
        out.append(torch.empty(dims, dtype=a[0].dtype, device="meta"))
    return tuple(out)


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """``true_fn()`` if ``pred`` else ``false_fn()``; in a program both branches are traced and
    the choice is made at run time (both may use Variables of the program)."""
    tp = getattr(pred, "_t", None)
    if not isinstance(tp, StaticProxy) and not _active:
        if bool(pred):
            return true_fn() if true_fn is not None else None
        return false_fn() if false_fn is not None else None
    if true_fn is None and false_fn is None:
        return None
    parent = _current_tracer(tp.tracer if isinstance(tp, StaticProxy) else None)
    tsub, tout = trace_subgraph(parent, true_fn or (lambda: None), [])
    fsub, fout = trace_subgraph(parent, false_fn or (lambda: None), [])
    if tout is None and fout is None:
        return None
    if tsub.spec != fsub.spec or len(tsub.pvs) != len(fsub.pvs):
        raise ValueError("Incompatible return values of true_fn and false_fn in cond: "
                         f"true_fn returns {tsub.spec}, false_fn returns {fsub.spec}")
    pvs = [_merge_pv(a, b) for a, b in zip(tsub.pvs, fsub.pvs)]
    prefix = parent.unique_var_name(name or "cond")
    tn = parent.attr_node(f"_{prefix}_true", tsub.gm)
    fn = parent.attr_node(f"_{prefix}_false", fsub.gm)
    pred_p = _as_proxy(parent, pred) if isinstance(pred, Tensor) else pred
    pv = (tuple(p[0] for p in pvs), tuple(p[1] for p in pvs))
    rgs = [a or b for a, b in zip(tsub.rgs, fsub.rgs)]
    node = parent.record("call_function", _run_cond,
                         (pred_p, tn, fn, len(tsub.captures), *tsub.captures, *fsub.captures),
                         {}, pv=pv, rg=any(rgs), var_name=None, meta={"op_type": "if"})
    outs = list(tsub.leaves)
    for k, (i, p) in enumerate(zip(tsub.tensor_pos, pvs)):
        o = parent.record("call_function", operator.getitem, (node, k), {}, pv=p, rg=rgs[k],
                          var_name=f"{prefix}.tmp_{k}")
        outs[i] = wrap(o)
    return tree_unflatten(outs, tsub.spec)


def case(pred_fn_pairs, default=None, name=None):
    """The fn of the first pair whose pred is True, else ``default`` (else the last fn)."""
    if not isinstance(pred_fn_pairs, (list, tuple)) or not pred_fn_pairs:
        raise TypeError("The type of 'pred_fn_pairs' in case must be list or tuple")
    pairs = list(pred_fn_pairs)
    if default is None:
        pairs, (_, default) = pairs[:-1], pairs[-1]
        if not pairs:
            return default()
    (pred, fn), rest = pairs[0], pairs[1:]
    if not rest:
        return cond(pred, fn, default)
    return cond(pred, fn, lambda: case(rest, default))


# ---------------------------------------------------------------------- fc
_ACTIVATIONS = {"relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid,
                "softmax": lambda t: torch.softmax(t, -1), "gelu": torch.nn.functional.gelu,
                "leaky_relu": torch.nn.functional.leaky_relu, "elu": torch.nn.functional.elu}


def fc(x, size, num_flatten_dims=1, weight_attr=None, bias_attr=None, activation=None,
       name=None):
    """A fully connected layer: ``x`` (flattened from ``num_flatten_dims``) times a weight
    ``[in, size]`` (parameter ``fc_N.w_0``, Xavier uniform), plus a bias ``fc_N.b_0`` (zeros)
    unless ``bias_attr=False``, then ``activation``. ``x`` may be a list: one weight each."""
    xs = list(x) if isinstance(x, (list, tuple)) else [x]
    if num_flatten_dims == -1:
        num_flatten_dims = len(xs[0].shape) - 1
    prog = default_main_program()
    prefix = name or prog.tracer.unique_var_name("fc")
    acc = None
    for i, xi in enumerate(xs):
        shape = xi.shape
        tail = shape[num_flatten_dims:]
        if any(d < 0 for d in tail):
            raise ValueError(f"fc: the dimensions of x from num_flatten_dims on must be known, "
                             f"got shape {list(shape)}")
        in_features = math.prod(tail)
        w = create_parameter([in_features, size], xi.dtype, name=f"{prefix}.w_{i}",
                             attr=weight_attr)
        t = xi._t
        if t.dim() != num_flatten_dims + 1:
            t = t.flatten(num_flatten_dims) if num_flatten_dims > 0 else t.reshape(1, -1)
        y = torch.matmul(t, w._t)
        acc = y if acc is None else acc + y
    if bias_attr is not False:
        b = create_parameter([size], xs[0].dtype, name=f"{prefix}.b_0",
                             attr=None if bias_attr is None else bias_attr, is_bias=True)
        acc = acc + b._t
    if activation is not None:
        fn = _ACTIVATIONS.get(activation)
        if fn is None:
            raise ValueError(f"fc: unsupported activation '{activation}'")
        acc = fn(acc)
    return wrap(acc)


_ = shape_of


def _traced_backward(tensor):
    """``Tensor.backward()`` on a Variable: a static graph holds no eager autograd pass (a
    Program gets its gradients from ``append_backward``/``Optimizer.minimize``)."""
    e = StaticGraphError("Tensor.backward() was called on a static Variable: the gradient "
                         "pass of a static graph is built by append_backward / "
                         "Optimizer.minimize, not by an eager backward()")
    e.any_input = True
    raise e


_hooks.traced_backward.set(_traced_backward)
