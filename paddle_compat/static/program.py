"""``Program``: a Paddle static program as a ``torch.fx.Graph``.

A Program owns one fx Graph and the ``StaticTracer`` that records into it. Its Variables are
``paddle_compat.Tensor`` objects whose payload is a ``StaticProxy`` (``static.proxy``):

* ``static.data(name, shape, dtype)`` adds a ``placeholder`` node fed by ``Executor.run``;
* parameters and other persistable variables (``create_parameter``, ``create_global_var``)
  are placeholders too, filled from the Scope at run time; their initial values are computed
  by nodes of the *startup* program, whose results ``Executor.run`` stores in the Scope;
* every op of the op library records ``call_function``/``call_method`` nodes;
* real tensors an op meets (constants, creation ops' results) become ``get_attr`` nodes.

``Program.clone(for_test=True)`` drops the backward and optimizer nodes; ``print(program)``
lists the variables and ops.

What the rest of the package may use of a Program (the Executor, backward passes, optimizers'
``minimize``, ``jit.to_static``) is its public interface, listed in the class docstring:
``graph``, ``version``, ``node_by_name``, ``value_of``, ``fetch_node``, ``value_node``,
``attribute``,
``add_input``, ``role_guard``, ``assign_persistable``, ``compiled``/``remember_compiled``.
Everything with a leading underscore is the Program's own.
"""
import contextlib
import math
import operator

import torch
from torch.fx import Graph

from ..framework import dtype as _dt
from ..framework.tensor import Tensor, wrap
from ..ops import assign as _assign
from ..ops.random import uniform
from . import fluid_ops as _fluid_ops
from . import mode as _mode
from .proxy import SENTINELS, StaticProxy, StaticTracer
from .proxy import _py_name as _py
from .variable import type_str

__all__ = ["Program", "Block", "Operator", "Variable", "program_guard", "default_main_program",
           "default_startup_program", "data", "create_parameter", "create_global_var",
           "name_scope", "layer_parameter"]

#: a static Variable is a Tensor whose payload is a StaticProxy
Variable = Tensor


class Program:
    """A static program: a ``torch.fx.Graph`` of Paddle ops plus its tracer.

    Example::

        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4], "float32")
            y = paddle.static.nn.fc(x, 3)

    Beyond Paddle's API, the interface the Executor, backward passes, optimizers and
    ``jit.to_static`` build on:

    * ``graph``: the ``torch.fx.Graph``; its nodes' ``meta`` say what each value is
      (``static.proxy``); ``tracer``: the ``StaticTracer`` recording into it;
    * ``version``: changes whenever a node is recorded or renamed;
    * ``node_by_name(name)``, ``fetch_node(target)``: the node of a variable name, or of a
      ``fetch_list``/feed target; ``value_node(value)``: the node for a value a traced function
      returned (a real tensor becomes a constant);
    * ``value_of(name)``: the node of a variable's current value, after ops that wrote into
      it in place (``proxy.rebind``: a custom op's SetInplaceMap);
    * ``attribute(target)``: what a ``get_attr`` node refers to (a constant, a sub-graph);
    * ``add_input(name, shape, dtype)``: a fed Variable (``static.data``, ``jit.to_static``);
    * ``role_guard(role)``, ``assign_persistable(var, value)``: tag appended nodes
      ("backward", "optimize"), write a persistable (optimizers' updates);
    * ``compiled(signature)`` / ``remember_compiled(signature, entry)``: the Executor's cache of
      what it compiled for this program, valid for the current ``version``.
    """

    def __init__(self):
        self.graph = Graph()
        self.tracer = StaticTracer(self.graph, owner=self)
        self.random_seed = 0
        self._compiled = {}
        self._names = self._held = None
        self._names_version = -1
        self._is_test = False

    # -- identity
    @property
    def version(self):
        """A number that changes whenever a node is recorded (or a variable renamed)."""
        return self.tracer.version

    def __repr__(self):
        return self.to_string()

    __str__ = __repr__

    # -- structure
    def global_block(self):
        # one Block object per Program, as Paddle's (``param.block is x.block``)
        b = self.__dict__.get("_global_block")
        if b is None:
            b = self.__dict__["_global_block"] = Block(self, 0)
        return b

    def current_block(self):
        return self.global_block()

    def block(self, index):
        if index != 0:
            raise IndexError("a paddle_compat Program has one block (sub-graphs are nodes)")
        return self.global_block()

    @property
    def blocks(self):
        return [Block(self, 0)]

    @property
    def num_blocks(self):
        return 1

    def list_vars(self):
        return list(self.global_block().vars.values())

    def all_parameters(self):
        return self.global_block().all_parameters()

    # -- finding nodes
    def node_by_name(self, name):
        """The node whose Paddle variable name is ``name`` (or None): where the variable was
        defined (a fed variable's placeholder)."""
        self._index()
        return self._names.get(name)

    def value_of(self, name):
        """The node holding variable ``name``'s current value: the last op that wrote into it
        in place (``proxy.rebind``), else where it was defined (or None)."""
        self._index()
        n = self._held.get(name)
        return n if n is not None else self._names.get(name)

    def _index(self):
        if self._names_version != self.tracer.version:
            names, held = {}, {}
            for n in self.graph.nodes:
                vn = n.meta.get("var_name")
                if vn is not None and vn not in names:
                    names[vn] = n
                hn = n.meta.get("holds")
                if hn is not None:
                    held[hn] = n
            self._names, self._held = names, held
            self._names_version = self.tracer.version

    def fetch_node(self, v):
        """The node of this program for a fetch/feed target (a Variable or a name);
        ValueError when it is not in the program, TypeError for anything else."""
        if isinstance(v, str):
            n = self.value_of(v)
            if n is None:
                raise ValueError(f"(NotFound) Variable '{v}' is not found in the program; "
                                 f"known variables: {sorted(self._names)[:20]}")
            return n
        t = getattr(v, "_t", v)
        if isinstance(t, StaticProxy):
            if t.node.graph is self.graph:
                return t.node
            n = self.node_by_name(t.node.meta.get("var_name"))
            if n is not None:
                return n
            raise ValueError(f"Variable '{t.node.meta.get('var_name')}' is not in this program")
        raise TypeError(f"fetch_list items must be Variables or names, but got {type(v).__name__}")

    def value_node(self, value):
        """The node holding ``value`` (a Variable, its payload, or a real tensor, which is
        recorded as a constant): what a traced function's output becomes."""
        return self.tracer.create_arg(getattr(value, "_t", value))

    def attribute(self, target):
        """What the ``get_attr`` node ``target`` refers to (a constant tensor, a sub-graph)."""
        return self.tracer.attrs[target]

    # -- the Executor's cache
    def compiled(self, signature):
        """What an Executor compiled for ``signature`` (its feed names, fetch targets and
        device) at this program's current version, or None."""
        return self._compiled.get((self.tracer.version, signature))

    def remember_compiled(self, signature, entry):
        """Keep ``entry`` for ``compiled(signature)`` (the oldest versions' entries are dropped
        when many pile up)."""
        if len(self._compiled) > 64:
            self._compiled.clear()
        self._compiled[(self.tracer.version, signature)] = entry

    # -- building
    def _variable(self, proxy, name=None):
        v = wrap(proxy)
        if name is not None:
            v._name = name
        return v

    def add_input(self, name, shape, dtype, requires_grad=False, meta=None):
        """A Variable fed at run time: a placeholder named ``name`` of ``shape`` (``-1`` for an
        unknown dimension) and torch ``dtype``; ``meta`` adds to the node's metadata."""
        p = self.tracer.placeholder(name, _meta_pair(shape, dtype), rg=requires_grad,
                                    var_name=name, meta=meta)
        return self._variable(p, name)

    @contextlib.contextmanager
    def role_guard(self, role):
        """Nodes recorded inside are tagged ``role`` ("backward", "optimize"), so that
        ``clone(for_test=True)`` drops them."""
        prev = self.tracer.role
        self.tracer.role = role
        try:
            yield
        finally:
            self.tracer.role = prev

    def assign_persistable(self, var, value):
        """Record ``var <- value`` for a persistable Variable (a parameter, an optimizer
        accumulator): at run time the Scope's tensor is overwritten in place (no grad).
        This is the hook optimizers' ``minimize`` appends parameter updates with."""
        pn = self.fetch_node(var)
        if not pn.meta.get("persistable"):
            raise ValueError(f"assign_persistable: '{pn.meta.get('var_name')}' is not persistable")
        p = StaticProxy(pn, self.tracer)
        val = getattr(value, "_t", value)
        self.tracer.record("call_function", _write_persistable, (p, val), {},
                           pv=(None, None), rg=False, var_name=None,
                           meta={"side_effect": True, "role": self.tracer.role or "optimize"})

    # -- copies
    def clone(self, for_test=False):
        """A copy of this program; ``for_test=True`` drops backward and optimizer nodes."""
        p = Program()
        env = {}
        drop = set()
        for n in self.graph.nodes:
            if for_test and (n.meta.get("role") in ("backward", "optimize") or
                             any(a in drop for a in n.all_input_nodes)):
                drop.add(n)
                continue
            env[n] = p.graph.node_copy(n, lambda a: env[a])
            env[n].meta = dict(n.meta)
        p.tracer.attrs = dict(self.tracer.attrs)
        p.tracer._const_ids = dict(self.tracer._const_ids)
        p.tracer.counters = dict(self.tracer.counters)
        p.tracer.version = self.tracer.version + 1
        p.random_seed = self.random_seed
        p._is_test = for_test
        if for_test:               # constants map to the copied nodes
            p.tracer._const_ids = {k: (t, env[n]) for k, (t, n) in self.tracer._const_ids.items()
                                   if n in env}
        return p

    def __deepcopy__(self, memo):
        return self.clone()

    # -- printing
    def to_string(self, throw_on_error=False, with_details=False):
        lines = ["{ // block_idx:0  parent_idx:-1"]
        for n in self.graph.nodes:
            line = _format_node(n)
            if line:
                lines.append("    " + line)
        lines.append("}")
        return "\n".join(lines)


def _write_persistable(dst, value):
    with torch.no_grad():
        dst.copy_(value)


def _vname(a):
    if hasattr(a, "meta") and a.op == "call_function" and a.target is operator.getitem and \
            hasattr(a.args[0], "meta") and "var_name" not in a.meta:
        return _vname(a.args[0])
    if hasattr(a, "meta"):
        return "%" + str(a.meta.get("var_name", a.name))
    return repr(a)


def _format_node(n):
    if n.op == "output":
        return None
    out = "%" + str(n.meta.get("var_name", n.name))
    ty = type_str(n)
    sg = "true" if not n.meta.get("rg") else "false"
    if n.op == "placeholder":
        kind = "parameter" if n.meta.get("parameter") else (
            "persistable" if n.meta.get("persistable") else "data")
        return f'({out}) = "pd_op.{kind}" () {{name:"{n.meta.get("var_name")}",stop_gradient:[{sg}]}} : () -> {ty}'
    if n.op == "get_attr":
        if n.meta.get("const"):
            return f'({out}) = "pd_op.constant" () {{stop_gradient:[{sg}]}} : () -> {ty}'
        return None
    if n.target is operator.getitem and n.args and hasattr(n.args[0], "meta") and \
            isinstance(n.args[0].meta.get("pv", (None,))[0], tuple):
        return None                      # shown as an output of the op producing the tuple
    name = n.meta.get("op_type") or (n.target if n.op == "call_method"
                                     else getattr(n.target, "__name__", str(n.target)))
    if not ty and isinstance((n.meta.get("pv") or (None,))[0], tuple):
        outs_ = [u for u in n.users if u.target is operator.getitem]
        out = ", ".join("%" + str(u.meta.get("var_name", u.name)) for u in outs_)
        ty = ", ".join(type_str(u) for u in outs_)
    ins = []
    for a in n.all_input_nodes:
        if a.op == "get_attr" and not a.meta.get("const"):
            continue
        ins.append(_vname(a))
    attrs = [f"{k}:{v!r}" for k, v in n.kwargs.items() if not hasattr(v, "meta")]
    consts = [repr(a) for a in n.args if not hasattr(a, "meta") and not isinstance(a, (list, tuple))]
    if consts:
        attrs.insert(0, "args:[" + ",".join(consts) + "]")
    attrs.append(f"stop_gradient:[{sg}]")
    outs = f"({out})" if ty else "()"
    return (f'{outs} = "pd_op.{name}" ({", ".join(ins)}) {{{",".join(attrs)}}}'
            + (f" : -> {ty}" if ty else ""))


class Operator:
    """An op of a Block: a view of one fx node."""

    def __init__(self, node):
        self.node = node

    @property
    def type(self):
        n = self.node
        return n.meta.get("op_type") or (n.target if n.op == "call_method"
                                         else getattr(n.target, "__name__", str(n.target)))

    def name(self):
        return self.type

    @property
    def input_arg_names(self):
        return [a.meta.get("var_name", a.name) for a in self.node.all_input_nodes
                if "var_name" in a.meta]

    @property
    def output_arg_names(self):
        vn = self.node.meta.get("var_name")
        return [vn] if vn else []

    def __repr__(self):
        return _format_node(self.node) or f"Operator({self.type})"


class Block:
    """The (single) block of a Program: its Variables and ops."""

    parent_idx = -1             # the global block has no parent (fluid's attributes)
    forward_block_idx = -1

    def __init__(self, program, idx):
        self.program = program
        self.idx = idx

    @property
    def vars(self):
        out = {}
        for n in self.program.graph.nodes:
            vn = n.meta.get("var_name")
            if vn is not None and vn not in out and isinstance(n.meta["pv"][0], torch.Tensor):
                out[vn] = _node_variable(self.program, n)
        return out

    def var(self, name):
        n = self.program.node_by_name(name)
        if n is None:
            raise ValueError(f"var {name} is not in this block")
        return _node_variable(self.program, n)

    def has_var(self, name):
        return self.program.node_by_name(name) is not None

    @property
    def ops(self):
        return [Operator(n) for n in self.program.graph.nodes
                if n.op in ("call_function", "call_method")]

    def all_parameters(self):
        """The parameters, newest first (the order Paddle 3.3.1 lists them in)."""
        return [_node_variable(self.program, n) for n in reversed(self.program.graph.nodes)
                if n.meta.get("parameter")]

    def create_parameter(self, *args, **kwargs):
        return create_parameter(*args, **kwargs)

    def create_var(self, name=None, shape=None, dtype=None, persistable=False,
                   stop_gradient=False, **kwargs):
        """A Variable declared by name, shape and dtype (``py_func``'s outputs, ``append_op``'s
        inputs and outputs): fed like ``static.data`` unless an op writes it first. As in
        Paddle it does not stop gradients unless told (an integer one always does)."""
        if name is None:
            name = self.program.tracer.unique_var_name("_generated_var")
        else:
            old = self.program.node_by_name(name)
            if old is not None:         # as in Paddle, a name the block holds is that variable
                v = _node_variable(self.program, old)
                if persistable:
                    v.persistable = True
                return v
        tdtype = _dt.default_float().torch if dtype is None else _dt.convert_dtype(dtype).torch
        rg = not stop_gradient and (tdtype.is_floating_point or tdtype.is_complex)
        meta = {"feed": True, "declared_shape": _shape_list(shape or [])}
        if persistable:     # read from the Scope the program runs in (scope.var(name)...set)
            meta.update(persistable=True, parameter=False, trainable=False)
        v = self.program.add_input(name, _shape_list(shape or []), tdtype,
                                   requires_grad=rg and not persistable, meta=meta)
        return v

    @property
    def desc(self):
        """Paddle's ``BlockDesc`` (what ``op.desc.infer_shape(block.desc)`` is given)."""
        return self

    def append_op(self, type=None, inputs=None, outputs=None, attrs=None, **kwargs):
        """Record an operator of Paddle's op type ``type`` (``static.fluid_ops``' registry)
        on ``inputs`` ({slot: Variable or list}); each Variable of ``outputs`` (declared with
        ``create_var``) then holds the op's result of its slot. Returns the op
        (``fluid_ops.AppendedOp``). An unknown type or slot is a ValueError naming it."""
        if not isinstance(type, str):
            raise ValueError(f"append_op needs the operator type as a string (type=...), got "
                             f"{type!r}")
        _, _, out_slots = _fluid_ops.lookup(type)
        known_out = dict(_fluid_ops.slots(out_slots))
        for slot in outputs or {}:
            if slot not in known_out:
                raise ValueError(f"(InvalidArgument) Operator {type} has no output slot "
                                 f"'{slot}' (its outputs: {', '.join(known_out)})")
        ins = {k: self._slot_value(v) for k, v in (inputs or {}).items()}
        with program_guard(self.program):
            got = _fluid_ops.run(type, ins, dict(attrs or {}), training=not self.program._is_test)
        for slot, declared in (outputs or {}).items():
            val = got.get(slot)
            if val is None:
                continue
            dvars = declared if isinstance(declared, (list, tuple)) else [declared]
            vals = val if isinstance(val, list) else [val]
            if len(dvars) != len(vals):
                raise ValueError(f"(InvalidArgument) Operator {type} gives {len(vals)} outputs "
                                 f"in slot '{slot}', but {len(dvars)} variables are declared")
            for var, v in zip(dvars, vals):
                self._bind_output(var, v)
        return _fluid_ops.AppendedOp(
            type, {k: _fluid_ops.names_of(v) for k, v in (inputs or {}).items()},
            {k: _fluid_ops.names_of(v) for k, v in (outputs or {}).items()}, dict(attrs or {}))

    def _slot_value(self, v):
        if isinstance(v, (list, tuple)):
            return [self._slot_value(x) for x in v]
        return self.var(v) if isinstance(v, str) else v

    def _bind_output(self, var, value):
        """Make the declared Variable ``var`` (a name or Variable) the op result ``value``: the
        result's node takes its name and the unused declaration is dropped."""
        name = var if isinstance(var, str) else var.name
        proxy = value._t
        node = getattr(proxy, "node", None)
        if node is None:                            # known when building (numel), or made by
            # a creation op (randperm): held as a constant
            proxy = self.program.tracer.constant(proxy).clone()
            node = proxy.node
        elif node.op == "placeholder" or node.meta.get("declared_output"):
            with program_guard(self.program):       # a result that is another variable
                proxy = _assign(value)._t
            node = proxy.node
        old = self.program.node_by_name(name)
        node.meta["var_name"] = name
        node.meta["declared_output"] = True
        if old is not None and old is not node and old.op == "placeholder" and not old.users:
            self.program.graph.erase_node(old)
        if not isinstance(var, str):
            var._t = proxy
        self.program.tracer.version += 1

    def __repr__(self):
        return self.program.to_string()


def _node_variable(program, n):
    v = wrap(StaticProxy(n, program.tracer))
    v._name = n.meta.get("var_name")
    if n.meta.get("persistable"):
        v._persistable = True
    return v


# ---------------------------------------------------------------------- default programs
class _Defaults:
    main = Program()
    startup = Program()
    #: ``random_seed`` of Paddle's legacy (old-IR) default programs, which its dygraph
    #: initializers read; paddle_compat's one IR keeps it apart (see ``legacy_program_seed``)
    legacy_seed = 0


def legacy_program_seed(seed=None):
    """The ``random_seed`` of Paddle's legacy default main program (set with ``seed``, e.g. by
    ``paddle.framework.random._manual_program_seed`` inside ``OldIrGuard``). Paddle's
    initializers draw a dygraph parameter with it when it is non-zero (a private engine seeded
    with it: equal shapes get equal values), not with the PIR program's seed."""
    if seed is not None:
        _Defaults.legacy_seed = int(seed)
    return _Defaults.legacy_seed


def default_main_program():
    """The program that ``static.data``, parameters and creation ops go to."""
    return _Defaults.main


def default_startup_program():
    """The program that initialises the parameters of the default main program."""
    return _Defaults.startup


@contextlib.contextmanager
def program_guard(main_program, startup_program=None):
    """Make ``main_program`` (and ``startup_program``) the defaults inside the block; the
    previous defaults come back on exit, also after an exception."""
    if not isinstance(main_program, Program):
        raise TypeError("The type of main_program must be paddle.static.Program, but received "
                        f"{type(main_program).__name__}")
    if startup_program is not None and not isinstance(startup_program, Program):
        raise TypeError("The type of startup_program must be paddle.static.Program, but "
                        f"received {type(startup_program).__name__}")
    prev = (_Defaults.main, _Defaults.startup)
    _Defaults.main = main_program
    if startup_program is not None:
        _Defaults.startup = startup_program
    try:
        yield
    finally:
        _Defaults.main, _Defaults.startup = prev


@contextlib.contextmanager
def name_scope(prefix=None):
    yield


# ---------------------------------------------------------------------- Variables
def _meta_pair(shape, tdtype):
    """Meta tensors for a declared shape, unknown dims set to each sentinel."""
    out = []
    for s in SENTINELS:
        dims = [s if (d is None or d < 0) else int(d) for d in shape]
        out.append(torch.empty(dims, dtype=tdtype, device="meta"))
    return tuple(out)


def _shape_list(shape):
    if isinstance(shape, int):
        return [shape]
    out = []
    for d in shape:
        out.append(-1 if d is None else int(d))
    return out


def data(name, shape, dtype=None, lod_level=0):
    """A Variable fed at run time (``feed={name: array}``); ``-1``/``None`` dims are resolved
    from the fed array. It stops gradient unless you set ``stop_gradient = False``."""
    if not isinstance(name, str):
        raise TypeError(f"The type of 'name' in data must be str, but received "
                        f"{type(name).__name__}")
    shape = _shape_list(shape)
    tdtype = _dt.default_float().torch if dtype is None else _dt.convert_dtype(dtype).torch
    prog = default_main_program()
    old = prog.node_by_name(name)
    if old is not None and old.op == "placeholder" and old.meta.get("declared_shape") == shape \
            and old.meta["pv"][0].dtype is tdtype:
        return _node_variable(prog, old)
    # as Paddle, declaring the name again with another dtype or shape gives a new Variable (of
    # that dtype and shape) fed from the same name
    return prog.add_input(name, shape, tdtype, meta={"feed": True, "declared_shape": shape})


# ---------------------------------------------------------------------- parameters
def _initializer_call(init, shape, tdtype, device):
    """Run an initializer at startup: our internal ones take (shape, dtype, device); Paddle-
    style ones (``paddle.nn.initializer.*``) are called on an eager Tensor they fill."""
    if hasattr(init, "_static_init"):
        return init._static_init(shape, tdtype, device)
    t = wrap(torch.zeros(shape, dtype=tdtype, device=device))
    with _mode.mode_guard(False):
        out = init(t)
    return (out if isinstance(out, Tensor) else t)._t


class _Constant:
    def __init__(self, value=0.0):
        self.value = value

    def _static_init(self, shape, tdtype, device):
        return torch.full(shape, self.value, dtype=tdtype, device=device)


class _XavierUniform:
    """Paddle's default weight initializer (Xavier/Glorot uniform), drawn with
    ``paddle.uniform`` so that ``paddle.seed`` governs it."""

    def _static_init(self, shape, tdtype, device):
        fan_in = shape[0] if shape else 1
        fan_out = shape[1] if len(shape) > 1 else shape[0]
        if len(shape) > 2:
            rf = math.prod(shape[2:])
            fan_in, fan_out = shape[1] * rf, shape[0] * rf
        limit = math.sqrt(6.0 / float(fan_in + fan_out))
        try:
            with _mode.mode_guard(False):
                return uniform(list(shape), dtype=_dt.from_torch_dtype(tdtype).name,
                               min=-limit, max=limit)._t.to(device)
        except (TypeError, AttributeError):
            return torch.empty(shape, dtype=tdtype, device=device).uniform_(-limit, limit)


def _init_value(init, shape, tdtype, device):
    return _initializer_call(init, list(shape), tdtype, device)


def _persistable(name, shape, tdtype, init, trainable, parameter, main=None, startup=None):
    main = main or default_main_program()
    startup = startup or default_startup_program()
    if main.node_by_name(name) is not None:
        raise ValueError(f"variable '{name}' already exists in the program")
    pv = _meta_pair(shape, tdtype)
    p = main.tracer.placeholder(name, pv, rg=bool(trainable), var_name=name,
                                meta={"persistable": True, "parameter": parameter,
                                      "trainable": bool(trainable)})
    if init is not None:
        sp = startup.tracer
        if startup.node_by_name(name) is None:
            box = sp.attr_node(f"_init_{_py(name)}", init)
            sp.record("call_function", _init_value, (box, tuple(shape), tdtype, None), {},
                      pv=pv, rg=False, var_name=name,
                      meta={"persist_out": name, "trainable": bool(trainable),
                            "side_effect": True, "op_type": "init"})
    v = main._variable(p, name)
    v._persistable = True
    return v


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False,
                     default_initializer=None):
    """A trainable parameter: a persistable Variable of the main program, initialised by the
    startup program (default: zeros for a bias, Xavier uniform otherwise)."""
    shape = _shape_list(shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"create_parameter: every dimension must be known, got {shape}")
    tdtype = _dt.convert_dtype(dtype).torch
    init, trainable = None, True
    if attr is not None and attr is not False:
        name = getattr(attr, "name", None) or name
        init = getattr(attr, "initializer", None)
        trainable = getattr(attr, "trainable", True)
    if init is None:
        init = default_initializer or (_Constant(0.0) if is_bias else _XavierUniform())
    if name is None:
        name = default_main_program().tracer.unique_var_name("create_parameter") + ".w_0"
    return _persistable(name, shape, tdtype, init, trainable, parameter=True)


def layer_parameter(name, shape, tdtype, init, trainable):
    """The node of an ``nn.Layer`` parameter created while static mode is on: a parameter of
    the default main program initialised by ``init`` in the default startup program, as
    Paddle's static ``Layer.create_parameter`` makes it (so ``append_backward`` and
    ``minimize`` find it). A name the program already holds as a parameter is that parameter
    (Paddle shares parameters by ``ParamAttr`` name). Returns the StaticProxy."""
    main = default_main_program()
    n = main.node_by_name(name)
    if n is not None and n.meta.get("parameter"):
        return StaticProxy(n, main.tracer)
    p = _persistable(name, _shape_list(shape), tdtype, init, trainable, parameter=True)._t
    p.node.meta["layer_parameter"] = True
    return p


def create_global_var(shape, value, dtype, persistable=False, force_cpu=False, name=None):
    """A Variable filled with ``value`` by the startup program; persistable ones keep their
    value in the Scope across runs (optimizer accumulators, learning rates)."""
    shape = _shape_list(shape)
    tdtype = _dt.convert_dtype(dtype).torch
    if name is None:
        name = default_main_program().tracer.unique_var_name("global_var") + ".tmp_0"
    v = _persistable(name, shape, tdtype, _Constant(value), False, parameter=False)
    if not persistable:
        v._t.node.meta["persistable"] = True     # still lives in the scope (set by startup)
    return v

