"""Lowering a static Program's composite ops to primitive ones (``primapi.to_prim``).

A Program's ops are the torch calls recorded on its Variables; a few of them are composite in
Paddle (it has a decomposition rule for them): ``meshgrid``, ``stack``, ``softmax``, ``tile``,
``roll``, ``unbind``, ``index_select``, ``lerp``. ``lower(graph, tracer, ...)`` replaces each
such op by the ops of its rule (reshape, expand, unsqueeze, concat, narrow, exp, amax, sum,
divide, split, squeeze, gather, subtract, multiply, add), recorded in its place, so the op no
longer appears in the program and the values are those of the rule. An op whose rule needs a
dimension that is unknown when the program is built stays as it is.

The nodes that held the op's results (the op itself, or the ``getitem`` nodes of its several
outputs) are kept, and become the last op of the rule: the Variables built on them keep their
names and stay valid.
"""
import operator

import torch
from torch.fx import map_arg

from .proxy import StaticProxy, shape_of

__all__ = ["lower", "RULES", "set_forward_enabled", "forward_enabled"]

_state = {"fwd": False}


def set_forward_enabled(value):
    """Paddle's forward prim switch (``core._set_prim_forward_enabled``): while it is on,
    ``to_static`` lowers the programs it traces and ``primapi.to_prim`` lowers programs."""
    _state["fwd"] = bool(value)


def forward_enabled():
    return _state["fwd"]


def _known(shape):
    return shape is not None and all(d >= 0 for d in shape)


def _meshgrid(xs, shapes, indexing="ij"):
    xs = list(xs)
    if len(xs) == 1 and isinstance(xs[0], (list, tuple)):
        xs = list(xs[0])
    sizes = [max(1, int(torch.Size(s).numel())) if s else 1 for s in shapes]
    if indexing == "xy" and len(xs) >= 2:
        order = [1, 0] + list(range(2, len(xs)))
    else:
        order = list(range(len(xs)))
    full = [sizes[k] for k in order]
    outs = []
    for i, x in enumerate(xs):
        view = [1] * len(xs)
        view[order.index(i)] = -1
        outs.append(x.reshape(view).expand(full))
    return outs


def _stack(xs, dim=0):
    rank = len(shape_of(xs[0].node)) + 1
    dim = dim + rank if dim < 0 else dim
    return torch.cat([x.unsqueeze(dim) for x in xs], dim)


def _softmax(x, dim, dtype=None):
    if dtype is not None:
        x = x.to(dtype)
    e = torch.exp(x - torch.amax(x, dim, keepdim=True))
    return e / torch.sum(e, dim, keepdim=True)


def _tile(x, reps):
    reps = [int(r) for r in reps]
    shape = shape_of(x.node)
    if len(reps) < len(shape):
        reps = [1] * (len(shape) - len(reps)) + reps
    if len(reps) > len(shape):
        x = x.reshape([1] * (len(reps) - len(shape)) + list(shape))
    for d, r in enumerate(reps):
        if r != 1:
            x = torch.cat([x] * r, d)
    return x


def _roll(x, shifts, dims=None):
    shape = shape_of(x.node)
    if dims is None or (isinstance(dims, (list, tuple)) and not dims):
        flat = _roll(x.reshape([-1]), shifts if isinstance(shifts, int) else shifts[0], 0)
        return flat.reshape(list(shape))
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = [dims] if isinstance(dims, int) else list(dims)
    for s, d in zip(shifts, dims):
        size = shape[d]
        s %= size if size else 1
        if s:
            x = torch.cat([x.narrow(d, size - s, s), x.narrow(d, 0, size - s)], d)
    return x


def _unbind(x, dim=0):
    rank = len(shape_of(x.node))
    dim = dim + rank if dim < 0 else dim
    return [p.squeeze(dim) for p in torch.split(x, 1, dim)]


def _index_select(x, dim, index):
    """Paddle's rule: a gather along ``dim`` (here torch's gather, by an index expanded over the
    other dimensions)."""
    shape = list(shape_of(x.node))
    dim = dim + len(shape) if dim < 0 else dim
    view = [1] * len(shape)
    view[dim] = -1
    size = list(shape)
    size[dim] = shape_of(index.node)[0]
    return torch.gather(x, dim, index.reshape(view).expand(size))


_LOW = (torch.float16, torch.bfloat16)


def _lerp(x, y, weight):
    """Paddle's rule: x + w * (y - x) where |w| < 0.5, else y - (y - x) * (1 - w), in float32 for
    the half-precision dtypes."""
    low = x.dtype if x.dtype in _LOW else None
    if low is not None:
        x, y = x.to(torch.float32), y.to(torch.float32)
        if isinstance(weight, StaticProxy):
            weight = weight.to(torch.float32)
    diff = y - x
    if isinstance(weight, StaticProxy):
        out = torch.where(weight.abs() < 0.5, x + weight * diff, y - diff * (1 - weight))
    else:
        out = x + weight * diff if abs(weight) < 0.5 else y - diff * (1 - weight)
    return out.to(low) if low is not None else out


#: (recorded target, Paddle's op type) -> (rule, whether it returns several outputs)
RULES = {
    torch.meshgrid: ("meshgrid", _meshgrid, True),
    torch.stack: ("stack", _stack, False),
    torch.softmax: ("softmax", _softmax, False),
    torch.nn.functional.softmax: ("softmax", _softmax, False),
    "tile": ("tile", _tile, False),
    torch.tile: ("tile", _tile, False),
    torch.roll: ("roll", _roll, False),
    "unbind": ("unbind", _unbind, True),
    torch.unbind: ("unbind", _unbind, True),
    torch.index_select: ("index_select", _index_select, False),
    "index_select": ("index_select", _index_select, False),
    torch.lerp: ("lerp", _lerp, False),
}


def _target_key(node):
    if node.op == "call_method":
        return node.target
    return node.target if node.op == "call_function" else None


def _become(old, new):
    """``old`` (kept, with its users and metadata) becomes the op of ``new`` (then dropped)."""
    old.op, old.target = new.op, new.target
    old.args, old.kwargs = new.args, new.kwargs
    new.graph.erase_node(new)


def lower(graph, tracer, blacklist=(), whitelist=()):
    """Replace each composite op of ``graph`` (``RULES``; only those in ``whitelist`` when it
    is given, none in ``blacklist``) by its rule's ops. Returns how many were lowered."""
    count = 0
    for node in list(graph.nodes):
        try:
            entry = RULES.get(_target_key(node))
        except TypeError:           # an unhashable target
            entry = None
        if entry is None:
            continue
        op_type, rule, multi = entry
        if op_type in blacklist or (whitelist and op_type not in whitelist):
            continue
        inputs = node.all_input_nodes
        if not all(_known(shape_of(a)) for a in inputs if "pv" in a.meta and
                   isinstance(a.meta["pv"][0], torch.Tensor)):
            continue
        args = map_arg(node.args, lambda a: StaticProxy(a, tracer))
        kwargs = map_arg(node.kwargs, lambda a: StaticProxy(a, tracer))
        if multi:
            users = [u for u in node.users if u.target is operator.getitem]
            if len(users) != len(node.users):
                continue
        before = set(graph.nodes)
        with graph.inserting_before(node):
            if op_type == "meshgrid":
                xs = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
                out = rule(xs, [shape_of(x.node) for x in xs], **kwargs)
            else:
                out = rule(*args, **kwargs)
            # a result that is an input as it is (tile by ones) is copied
            out = [o.clone() if o.node in before else o for o in out] if multi else (
                out.clone() if out.node in before else out)
        if multi:
            for u in users:
                _become(u, out[u.args[1]].node)
            graph.erase_node(node)
        else:
            _become(node, out.node)
        count += 1
    if count:
        tracer.version += 1
    return count
