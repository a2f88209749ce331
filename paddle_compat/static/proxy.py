"""``StaticProxy``: the payload of a static Variable, and the tracer that records its ops.

A static Variable is an ordinary ``paddle_compat.Tensor`` whose ``_t`` is a ``StaticProxy`` (a
``torch.fx.Proxy``) instead of a ``torch.Tensor``. The op library therefore needs no static
code path: ``wrap(torch.exp(x._t))`` records an ``exp`` node when ``x._t`` is a proxy.

Every recorded node carries its output's metadata in ``node.meta``:

* ``"pv"``: the output computed twice on ``device='meta'`` tensors, once with every unknown
  dimension (``-1``/``None`` in ``static.data``) set to ``SENTINELS[0]`` and once to
  ``SENTINELS[1]``. A dimension that comes out the same both times is known; one that differs
  depends on an unknown input dimension and is reported as ``-1`` (as Paddle reports it). This
  is exact for any op whose meta kernel exists, with no symbolic-shape machinery.
* ``"rg"``: whether the value requires grad (Paddle: ``not stop_gradient``).
* ``"var_name"``: the Paddle variable name (``X``, ``exp_0.tmp_0``, ``X@GRAD``, ``fc_0.w_0``).

The proxy answers ``shape``, ``dtype``, ``device``, ``requires_grad``, ``is_leaf``, ``dim()``,
``numel()``, ``size()``, ``requires_grad_()``, ``is_floating_point()`` ... from that metadata
without recording anything, so the ``Tensor`` class works unchanged on Variables. Anything that
needs a value (``item()``, ``bool()``, ``tolist()``, ``numpy()``) raises ``StaticGraphError``
naming the Paddle op that asked for it.

While a sub-graph is traced (``static_pylayer``, ``cond``), ops are recorded into the innermost
active tracer; a Variable of an enclosing graph used there is lifted into a placeholder of the
sub-graph (a *capture*) and passed in by the enclosing node.

Example::

    >>> import paddle_compat as paddle
    >>> paddle.enable_static()
    >>> x = paddle.static.data("x", [None, 3], "float32")
    >>> y = paddle.exp(x).sum(axis=1)
    >>> y.shape, type(y._t).__name__
    (paddle.Size([-1]), 'StaticProxy')
"""
import operator
import sys

import torch
import torch.fx
from torch.fx import Proxy
from torch.fx.proxy import TracerBase
from torch.utils._pytree import tree_flatten, tree_map

__all__ = ["StaticProxy", "StaticTracer", "StaticGraphError", "SENTINELS", "rebind"]

SENTINELS = (9973, 10007)
_META = torch.device("meta")
_CPU = torch.device("cpu")
_FLOATING = frozenset([torch.float16, torch.bfloat16, torch.float32, torch.float64,
                       torch.complex64, torch.complex128])
_NO_GRAD_TARGETS = frozenset(["detach", "requires_grad_", "argmax", "argmin", "argsort"])
#: torch functions whose result takes only the shape of their Tensor argument: no gradient
#: flows through them to it, so at run time a result that requires grad is a leaf
_NO_GRAD_FUNCTIONS = frozenset([torch.zeros_like, torch.ones_like, torch.full_like,
                                torch.empty_like, torch.rand_like, torch.randn_like,
                                torch.randint_like])

#: tracers of the sub-graphs being traced right now, innermost last
_active = []


class StaticGraphError(RuntimeError):
    """An op needed a concrete value (or a known dimension) while a static Program was built.
    ``any_input``: no other input would trace either (to_static stops tracing the function)."""

    any_input = False


def _paddle_api_name():
    """The outermost paddle_compat op on the stack (for error messages), or None."""
    f = sys._getframe(1)
    found = None
    while f is not None:
        mod = f.f_globals.get("__name__", "")
        if mod.startswith(("paddle_compat.ops", "paddle_compat.framework", "paddle_compat.nn")):
            found = f.f_code.co_name
        f = f.f_back
    return found


def _api_name_arg():
    """The ``name=`` string given to the outermost paddle_compat op on the stack, or None:
    Paddle names that op's output ``<name>.tmp_<k>`` (``paddle.real(x, name="r")``)."""
    f = sys._getframe(2)
    found = None
    while f is not None:
        if f.f_globals.get("__name__", "").startswith(_API_MODULES):
            v = f.f_locals.get("name")
            found = v if isinstance(v, str) and v else found
        f = f.f_back
    return found


_API_MODULES = ("paddle_compat.ops", "paddle_compat.framework", "paddle_compat.nn",
                "paddle_compat.linalg", "paddle_compat.fft", "paddle_compat.signal",
                "paddle_compat.geometric", "paddle_compat.special")


def _value_error(what, cause=None):
    api = _paddle_api_name()
    where = f"paddle.{api}" if api and not api.startswith("_") else what
    msg = (f"{where}: needs a concrete value ({what}), but in static graph mode a Variable has "
           "none until Executor.run. Compute it inside the program with ops, use "
           "paddle.static.nn.cond for data-dependent branches, or run in dynamic mode.")
    if cause is not None:
        msg += f" ({type(cause).__name__}: {cause})"
    return StaticGraphError(msg)


def _op_name(kind, target):
    if kind == "call_method":
        return target
    name = getattr(target, "__name__", None) or type(target).__name__
    return name.strip("_") or "op"


# ---------------------------------------------------------------------- metadata helpers
def _meta_like(t):
    """A meta tensor with t's shape, stride and dtype (for real tensors met while tracing)."""
    return torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device=_META)


def _to_meta(which):
    def conv(a):
        if isinstance(a, Proxy):
            return a.node.meta["pv"][which]
        if isinstance(a, torch.Tensor):
            return a if a.device.type == "meta" else _meta_like(a)
        if isinstance(a, torch.device):
            return _META
        return a
    return conv


def _unknown(shape, which):
    """A meta tensor shape whose every dimension reads -1 (unknown until run): ``shape`` for
    one sentinel run, each dimension one larger for the other."""
    return list(shape) if which == 0 else [s + 1 for s in shape]


def _bincount_meta(which, t, weights=None, minlength=0):
    """torch.bincount on meta tensors: its length (the largest value + 1, at least
    ``minlength``) is known only when the program runs (-1)."""
    dtype = torch.int64 if weights is None else weights.dtype
    return torch.empty(_unknown([max(int(minlength), 1)], which), dtype=dtype, device=_META)


def _masked_select_meta(which, t, mask):
    """torch.masked_select on meta tensors: a 1-d tensor whose length (the True entries of
    the broadcast mask) is known only when the program runs (-1)."""
    n = torch.broadcast_shapes(t.shape, mask.shape).numel()
    return torch.empty(_unknown([max(n, 1)], which), dtype=t.dtype, device=_META)


def _lstsq_meta(which, a, b, rcond=None, *, driver=None):
    """torch.linalg.lstsq's outputs on meta tensors (torch has no meta kernel for it), with
    Paddle's static shapes: the residuals of 'gelsd'/'gelss' exist only for full-rank inputs,
    so Paddle gives them the static shape [-1] (rank unknown too) until the program runs."""
    batch, (m, n), k = list(a.shape[:-2]), a.shape[-2:], b.shape[-1]
    driver = driver or "gelsy"

    def empty(shape, dtype=a.dtype):
        return torch.empty(shape, dtype=dtype, device=_META)
    sol = empty(batch + [n, k])
    if driver == "gels":
        res = empty(batch + [k] if m > n else [0])
    elif driver in ("gelsd", "gelss") and m > n:
        res = empty(_unknown([0], which))
    else:
        res = empty([0])
    rank = empty([0] if driver == "gels" else batch, torch.int64)
    real = a.real.dtype if a.is_complex() else a.dtype
    sv = empty(batch + [min(m, n)] if driver in ("gelsd", "gelss") else [0], real)
    return sol, res, rank, sv


def _unique_meta(which, t, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """torch.unique / unique_consecutive on meta tensors: how many values remain is known only
    when the program runs, so that dimension of the values and the counts is unknown (-1);
    the inverse map has one entry per input slice along ``dim``."""
    src = t.reshape(-1) if dim is None else t
    d = 0 if dim is None else dim % max(src.dim(), 1)
    n = src.shape[d] if src.dim() else 1
    kept = n if which == 0 else n + 1
    shape = list(src.shape)
    if shape:
        shape[d] = kept
    out = [torch.empty(shape, dtype=t.dtype, device=_META)]
    if return_inverse:
        inv = [n] if dim is not None else list(t.shape)
        out.append(torch.empty(inv, dtype=torch.int64, device=_META))
    if return_counts:
        out.append(torch.empty([kept], dtype=torch.int64, device=_META))
    return out[0] if len(out) == 1 else tuple(out)


#: torch functions without a meta kernel: their output metadata, (which sentinel, *args)
_META_FNS = {torch.bincount: _bincount_meta, torch.linalg.lstsq: _lstsq_meta,
             torch.masked_select: _masked_select_meta, torch.unique: _unique_meta,
             torch.unique_consecutive: _unique_meta}


def _run_meta(kind, target, args, kwargs):
    """The op's output on meta tensors, for both sentinel sizes: (out_a, out_b)."""
    outs = []
    meta_fn = _META_FNS.get(target) if kind == "call_function" else None
    for which in (0, 1):
        conv = _to_meta(which)
        margs = tree_map(conv, args)
        mkw = tree_map(conv, kwargs)
        if "device" in mkw and mkw["device"] is not None:
            mkw["device"] = _META
        try:
            with torch.no_grad():
                if meta_fn is not None:
                    out = meta_fn(which, *margs, **mkw)
                elif kind == "call_method":
                    out = getattr(margs[0], target)(*margs[1:], **mkw)
                else:
                    out = target(*margs, **mkw)
        except StaticGraphError:
            raise
        except Exception as e:
            if "meta" in str(e) or isinstance(e, NotImplementedError):
                raise _value_error(_op_name(kind, target), e) from None
            raise
        outs.append(out)
    return outs[0], outs[1]


def _has_tensor(v):
    leaves, _ = tree_flatten(v)
    return any(isinstance(x, torch.Tensor) for x in leaves)


def _known(a, b):
    """A value that must be the same for every unknown dimension (an int computed from shapes)."""
    if type(a) is type(b) and a == b:
        return a
    raise StaticGraphError("this value depends on a dimension that is unknown (-1) until "
                           "Executor.run; give static.data a concrete shape or compute it with "
                           "ops (paddle.shape) instead")


def shape_of(node):
    """Paddle's shape of a node's output: known dims, -1 for unknown ones."""
    a, b = node.meta["pv"]
    return [x if x == y else -1 for x, y in zip(a.shape, b.shape)]


def _sentinel_dims(dims, which):
    """A meta shape for Paddle's static shape ``dims`` in sentinel run ``which``: each unknown
    (-1) dim the sentinel; once their product would overflow torch's sizes (many unknown
    dims), the further ones 2 and 3 (they still differ between the two runs)."""
    out, n = [], 1
    for d in dims:
        if d < 0:
            d = SENTINELS[which]
            if n * d > 1 << 60:
                d = 2 + which
        out.append(d)
        n *= max(d, 1)
    return out


# ---------------------------------------------------------------------- the tracer
class StaticTracer(TracerBase):
    """Records ops on ``StaticProxy`` values into ``graph``; ``owner`` is the Program (or the
    sub-graph) being built, ``parent`` the tracer of the enclosing graph for sub-graphs.
    ``attrs`` holds what ``get_attr`` nodes refer to (constants, sub-GraphModules)."""

    def __init__(self, graph, owner=None, parent=None):
        self.graph = graph
        self.owner = owner
        self.parent = parent
        self.attrs = {}
        self._const_ids = {}
        self.captures = {}          # outer node -> local placeholder proxy
        self.capture_order = []     # outer proxies, in placeholder order
        self.version = 0
        self.counters = {}
        self.role = None            # "backward" / "optimize" while those are appended
        self.scope = None
        self.module_stack = {}
        self.node_name_to_scope = {}
        self.record_stack_traces = False
        self.check_mutable_operations = False
        self.trace_asserts = False
        self.proxy_buckets = {}

    # -- names
    def unique_var_name(self, prefix):
        n = self.counters.get(prefix, 0)
        self.counters[prefix] = n + 1
        return f"{prefix}_{n}"

    # -- recording
    def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None,
                     proxy_factory_fn=None):
        tracer = _active[-1] if _active else self
        return tracer.record(kind, target, args, kwargs)

    def record(self, kind, target, args, kwargs, pv=None, rg=None, var_name=None, meta=None):
        """Record one node; its metadata is computed on meta tensors unless ``pv`` is given.
        Returns a StaticProxy, or the plain value when the op returns a non-tensor that does not
        depend on unknown dimensions (``x.size(1)``)."""
        if pv is None:
            pv = _run_meta(kind, target, args, kwargs)
            if not _has_tensor(pv[0]):
                return _known(*pv)
        if rg is None:
            rg = False
            if not (kind == "call_method" and target in _NO_GRAD_TARGETS) and \
                    target is not torch.Tensor.detach:
                for a in tree_flatten((args, kwargs))[0]:
                    if isinstance(a, Proxy):
                        if a.node.meta.get("rg"):
                            rg = True
                            break
                    elif isinstance(a, torch.Tensor) and a.requires_grad:
                        rg = True
                        break
                if rg and isinstance(pv[0], torch.Tensor) and pv[0].dtype not in _FLOATING:
                    rg = False
        nargs = self.create_arg(args)
        nkwargs = self.create_arg(kwargs)
        opname = _op_name(kind, target)
        node = self.graph.create_node(kind, target, nargs, nkwargs, name=opname)
        node.meta["pv"] = pv
        node.meta["rg"] = rg
        if rg and kind == "call_function" and target in _NO_GRAD_FUNCTIONS:
            # Paddle: not stop_gradient (from x), and a gradient source of its own
            node.meta["force_rg"] = True
        if self.role is not None:
            node.meta["role"] = self.role
        if meta:
            node.meta.update(meta)
        if var_name is None and isinstance(pv[0], torch.Tensor):
            given = _api_name_arg()
            if given is not None:
                n = self.counters.get((given, "tmp"), 0)
                self.counters[(given, "tmp")] = n + 1
                var_name = f"{given}.tmp_{n}"
            else:
                var_name = self.unique_var_name(opname) + ".tmp_0"
        if var_name is not None:
            node.meta["var_name"] = var_name
        self.version += 1
        return StaticProxy(node, self)

    def placeholder(self, name, pv, rg=False, var_name=None, meta=None):
        """A placeholder node (a fed Variable, a parameter, a capture)."""
        before = None
        for n in self.graph.nodes:
            if n.op != "placeholder":
                before = n
                break
        if before is not None:
            with self.graph.inserting_before(before):
                node = self.graph.create_node("placeholder", name, (), {}, name=_py_name(name))
        else:
            node = self.graph.create_node("placeholder", name, (), {}, name=_py_name(name))
        node.meta["pv"] = pv
        node.meta["rg"] = rg
        node.meta["var_name"] = var_name or name
        if meta:
            node.meta.update(meta)
        self.version += 1
        return StaticProxy(node, self)

    def create_arg(self, a):
        if isinstance(a, torch.fx.Node):
            return a
        if isinstance(a, Proxy):
            if a.tracer is self or a.node.graph is self.graph:
                return a.node
            return self.lift(a).node
        if isinstance(a, torch.Tensor):
            return self.constant(a).node
        t = getattr(a, "_t", None)          # a paddle_compat Tensor inside an argument
        if t is not None and (isinstance(t, (torch.Tensor, Proxy))):
            return self.create_arg(t)
        return super().create_arg(a)

    def constant(self, t):
        """A ``get_attr`` node for a real tensor used by the graph (kept by reference)."""
        key = id(t)
        hit = self._const_ids.get(key)
        if hit is not None and hit[0] is t:
            return StaticProxy(hit[1], self)
        name = f"_tensor_constant{len(self._const_ids)}"
        self.attrs[name] = t
        node = self.graph.create_node("get_attr", name, (), {}, name=name)
        m = t if t.device.type == "meta" else _meta_like(t)
        node.meta["pv"] = (m, m)
        node.meta["rg"] = bool(t.requires_grad)
        # the tensor and its node share one Paddle name (``x.grad_name`` of a tensor made by a
        # creation op under program_guard names the gradient appended for this node)
        name = getattr(t, "_static_name", None)
        if name is None:
            name = self.unique_var_name("constant") + ".tmp_0"
            try:
                t._static_name = name
            except (AttributeError, RuntimeError):
                pass
        node.meta["var_name"] = name
        node.meta["const"] = True
        self._const_ids[key] = (t, node)
        self.version += 1
        return StaticProxy(node, self)

    def constant_node(self, t):
        """The ``get_attr`` node already made for the real tensor ``t`` (or None)."""
        hit = self._const_ids.get(id(t))
        return hit[1] if hit is not None and hit[0] is t else None

    def attr_node(self, name, value):
        """A ``get_attr`` node for a sub-GraphModule (or anything else kept on the root)."""
        self.attrs[name] = value
        node = self.graph.create_node("get_attr", name, (), {}, name=name)
        node.meta["pv"] = (None, None)
        node.meta["rg"] = False
        return node

    def lift(self, p):
        """The local placeholder standing for ``p``, a proxy of an enclosing graph."""
        hit = self.captures.get(p.node)
        if hit is not None:
            return hit
        if self.parent is None:
            owner = getattr(p.tracer, "owner", None)
            raise StaticGraphError(
                f"Variable '{p.node.meta.get('var_name', p.node.name)}' belongs to another "
                f"Program ({owner!r}); build each Program from its own Variables")
        outer = p if (p.tracer is self.parent or p.node.graph is self.parent.graph) \
            else self.parent.lift(p)
        local = self.placeholder(f"capture_{len(self.capture_order)}", p.node.meta["pv"],
                                 rg=p.node.meta.get("rg", False),
                                 var_name=p.node.meta.get("var_name"))
        self.captures[p.node] = local
        self.capture_order.append(outer)
        return local

    def to_bool(self, obj):
        raise _value_error("bool")

    def iter(self, obj):
        raise _value_error("iteration over an unknown length")


def _py_name(name):
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in str(name))
    if not out or out[0].isdigit():
        out = "v_" + out
    return out


# ---------------------------------------------------------------------- the proxy
class _Method:
    """A bound tensor method of a StaticProxy; calling it records a ``call_method`` node."""

    __slots__ = ("proxy", "name")

    def __init__(self, proxy, name):
        self.proxy = proxy
        self.name = name

    def __call__(self, *args, **kwargs):
        p = self.proxy
        return p.tracer.create_proxy("call_method", self.name, (p,) + args, kwargs)


class StaticProxy(Proxy):
    """An fx Proxy whose node carries shape/dtype/grad metadata (see the module docstring)."""

    def __init__(self, node, tracer):
        self.node = node
        self.tracer = tracer

    def __repr__(self):
        return f"StaticProxy({self.node.meta.get('var_name', self.node.name)})"

    # -- metadata, answered without recording
    @property
    def _m(self):
        return self.node.meta["pv"][0]

    @property
    def shape(self):
        return torch.Size(shape_of(self.node))

    def size(self, dim=None):
        s = shape_of(self.node)
        return torch.Size(s) if dim is None else s[dim]

    @property
    def ndim(self):
        return self._m.dim()

    def dim(self):
        return self._m.dim()

    ndimension = dim

    def numel(self):
        n = 1
        for d in shape_of(self.node):
            if d < 0:
                return -1
            n *= d
        return n

    nelement = numel

    @property
    def dtype(self):
        return self._m.dtype

    @property
    def device(self):
        return _CPU

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False

    @property
    def layout(self):
        return torch.strided

    @property
    def is_sparse(self):
        return False

    def is_floating_point(self):
        return self._m.is_floating_point()

    def is_complex(self):
        return self._m.is_complex()

    def element_size(self):
        return self._m.element_size()

    def is_contiguous(self, memory_format=None):
        return True

    @property
    def requires_grad(self):
        return self.node.meta.get("rg", False)

    @requires_grad.setter
    def requires_grad(self, value):
        self.requires_grad_(value)

    def _set_persistable(self, value):
        """``var.persistable = True`` on a fed Variable (``static.data``, ``create_var``): as in
        Paddle its value then lives in the Scope, where runs read it (a feed writes it)."""
        n = self.node
        if value and n.op == "placeholder" and not n.meta.get("persistable"):
            n.meta["persistable"] = True
            self.tracer.version += 1

    def requires_grad_(self, requires_grad=True):
        meta = self.node.meta
        if requires_grad and not meta.get("rg") and \
                self.node.op not in ("placeholder", "get_attr"):
            meta["force_rg"] = True     # a non-leaf made to require grad: done at run time
        meta["rg"] = bool(requires_grad)
        if not requires_grad:
            meta.pop("force_rg", None)
        return self

    @property
    def is_leaf(self):
        n = self.node
        return n.op in ("placeholder", "get_attr") or not n.meta.get("rg", False) \
            or n.meta.get("force_rg", False)

    @property
    def grad_fn(self):
        return None

    @property
    def grad(self):
        return None

    def detach(self):
        return self.tracer.create_proxy("call_method", "detach", (self,), {})

    # -- a 1-d integer Variable used as a shape (``paddle.full(shape_var, ...)``)
    def record_shaped(self, target, args, kwargs, dtype, parts=None):
        """Record ``target(*args, **kwargs)``, whose output has ``dtype`` and the shape this
        1-d Variable holds at run time (or ``parts``: ints and 0-d Variables, this one among
        them): as in Paddle, the values of ``paddle.shape(x)`` of known dimensions and the
        ints are known, a 0-d Variable's and anything else is -1; a shape Variable of unknown
        length gives one dimension of -1."""
        pair = []
        for which in (0, 1):
            dims = []
            for p in (parts if parts is not None else [self]):
                if not isinstance(p, Proxy):
                    dims.append(int(p))
                    continue
                pv = p.node.meta["pv"][which]
                if parts is None and -1 in shape_of(p.node):
                    dims.append(SENTINELS[which])   # its length unknown too: Paddle's [-1]
                elif pv.device.type == "meta" or parts is not None:
                    dims.extend([SENTINELS[which]] * max(int(pv.numel()), 1))
                else:
                    dims.extend(int(v) for v in pv.reshape(-1).tolist())
            pair.append(torch.empty(dims, dtype=dtype, device=_META))
        tracer = _active[-1] if _active else self.tracer
        return tracer.record("call_function", target, args, kwargs, pv=tuple(pair))

    # -- an op drawing values at run time (rrelu's noise): no meta kernel, this one's metadata
    def record_like(self, target, args, kwargs=None):
        """Record ``target(*args, **kwargs)``, whose output has this value's shape and dtype
        and needs no gradient (its values are known only when the program runs)."""
        tracer = _active[-1] if _active else self.tracer
        return tracer.record("call_function", target, args, kwargs or {},
                             pv=tuple(self.node.meta["pv"]), rg=False)

    # -- an op whose output size depends on values (one_hot's depth Variable, segment ids)
    def record_dims(self, target, args, kwargs, dims, dtype):
        """Record ``target(*args, **kwargs)``, whose output has torch ``dtype`` and Paddle's
        static shape ``dims`` (-1 for a dimension known only when the program runs)."""
        pair = tuple(torch.empty(_sentinel_dims(dims, which), dtype=dtype, device=_META)
                     for which in (0, 1))
        tracer = _active[-1] if _active else self.tracer
        return tracer.record("call_function", target, args, kwargs or {}, pv=pair)

    # -- the Paddle name of this value
    @property
    def _static_name(self):
        return self.node.meta.get("var_name")

    @_static_name.setter
    def _static_name(self, value):
        self.node.meta["var_name"] = value
        self.tracer.version += 1

    # -- values: not available while building
    def item(self, *args):
        raise _value_error("item")

    def tolist(self):
        raise _value_error("tolist")

    def numpy(self, *args, **kwargs):
        raise _value_error("numpy")

    def __bool__(self):
        raise _value_error("bool")

    def __int__(self):
        raise _value_error("int")

    def __float__(self):
        raise _value_error("float")

    def __index__(self):
        raise _value_error("index")

    def __len__(self):
        m = self._m
        if isinstance(m, (tuple, list)):        # an op's several outputs (unbind, split)
            return len(m)
        s = shape_of(self.node)
        if not s:
            raise TypeError("len() of a 0-d tensor")
        if s[0] < 0:
            raise _value_error("len of an unknown dimension")
        return s[0]

    def __iter__(self):
        m = self._m
        if isinstance(m, (tuple, list)):
            n = len(m)
        else:
            n = len(self)
        return (self[i] for i in range(n))

    def __getattr__(self, k):
        if k.startswith("__") or k in ("node", "tracer"):
            raise AttributeError(k)
        pv = self.node.meta.get("pv")
        if pv is None:
            raise AttributeError(k)
        try:
            v = getattr(pv[0], k)
        except AttributeError:
            raise AttributeError(f"a static Variable has no attribute '{k}'") from None
        if callable(v) and not isinstance(v, torch.Tensor):
            return _Method(self, k)
        if _has_tensor(v):
            return self.tracer.create_proxy("call_function", getattr, (self, k), {})
        return _known(v, getattr(pv[1], k))

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        tracer = None
        for a in tree_flatten((args, kwargs))[0]:
            if isinstance(a, StaticProxy):
                tracer = a.tracer
                break
        if tracer is None:                      # pragma: no cover
            return func(*args, **kwargs)
        if func is torch.Tensor.detach:
            return tracer.create_proxy("call_method", "detach", args, kwargs)
        if torch.overrides.is_tensor_method_or_property(func):
            return tracer.create_proxy("call_method", func.__name__, args, kwargs)
        return tracer.create_proxy("call_function", func, args, kwargs)


def rebind(var, proxy):
    """An op wrote into the Variable ``var`` in place, giving ``proxy``: ``var`` now holds that
    value, and its name fetches it (``Program.value_of``); feeding the name still feeds the
    original placeholder."""
    name = var.name
    var._t = proxy
    proxy.node.meta["holds"] = name
    proxy.tracer.version += 1


def push_tracer(tracer):
    _active.append(tracer)


def pop_tracer(tracer):
    if _active and _active[-1] is tracer:
        _active.pop()
    elif tracer in _active:                     # pragma: no cover - unbalanced after an error
        _active.remove(tracer)


_ = operator  # operator.getitem nodes come from fx's magic methods
