"""``Executor``: runs a Program's fx graph; ``Scope``: where persistable values live.

``Executor.run(program, feed, fetch_list)`` compiles once per (program version, feed names,
fetch targets): it keeps the nodes the fetches and the side effects (parameter updates,
startup initialisers) need, lays out the placeholders as ``(*feeds, *persistables)``, moves
constants to the executor's device, and builds a ``torch.fx.GraphModule``. Later calls with the
same signature only look the entry up, convert the feeds (``torch.from_numpy``, no copy on CPU),
call the GraphModule and turn the fetches into numpy arrays.

Gradients (``static.gradients``/``append_backward``) are ``torch.autograd.grad`` calls inside
the graph, so a program with gradients runs its forward under ``torch.enable_grad()`` with the
fed Variables that do not stop gradient and the trainable parameters requiring grad; a program
without gradients runs under ``torch.no_grad()``.

The Executor reads a Program only through its public interface (``Program``'s docstring) and
the nodes' metadata. ``cpu_places``/``cuda_places`` list the places an Executor may run on.
"""
import numpy as np
import torch
from torch.fx import Graph, GraphModule
from torch.utils._pytree import tree_map

from ..framework import dtype as _dt
from ..framework.place import CPUPlace, CUDAPlace, Place, current_device, to_torch_device
from ..framework.tensor import Tensor, wrap
from .backward import _grad_runtime
from .nn import _run_cond, _run_paddle_pylayer, _run_static_pylayer
from .program import Program, _init_value, default_main_program
from .proxy import StaticProxy

__all__ = ["Executor", "Scope", "DenseTensor", "SelectedRows", "global_scope", "scope_guard", "cpu_places", "cuda_places"]


class _TensorData:
    """The methods of Paddle's ``DenseTensor`` (``LoDTensor``) over one torch tensor, which
    ``_get()``/``_put(t)`` read and write: numpy conversion, ``set``, ``shape()``, element
    access by flat index (what numeric gradient checks poke), LoD bookkeeping."""

    _lod = ()

    def __array__(self, dtype=None, copy=None):
        a = wrap(self._get()).numpy()
        return a if dtype is None else a.astype(dtype)

    def shape(self):
        return list(self._get().shape)

    def _dtype(self):
        return _dt.from_torch_dtype(self._get().dtype)

    def _is_initialized(self):
        return self._peek() is not None

    def set(self, value, place=None):
        old = self._peek()
        t = _from_numpy(np.array(value, copy=True, order="C"))     # row-major, as Paddle's
        if old is not None:
            t = t.to(dtype=old.dtype, device=old.device)
            with torch.no_grad():
                if old.shape == t.shape:
                    old.copy_(t)
                    return
            t.requires_grad_(old.requires_grad)
        elif place is not None:
            t = t.to(to_torch_device(place))
        self._put(t)

    def _get_dims(self):
        """The dims (a list; those of a tensor holding no value yet are ``[0]``)."""
        t = self._peek()
        return [0] if t is None else list(t.shape)

    def _set_dims(self, dims):
        """Declare the dims before ``set`` (the value ``set`` brings decides them here)."""
        if any(int(d) < 0 for d in dims):
            raise ValueError(f"(InvalidArgument) dims must not be negative, got {list(dims)}")

    def _element(self, i):
        t = self._get()
        n = t.numel()
        if not 0 <= i < n:
            raise IndexError(f"(OutOfRange) element {i} of a tensor of {n} elements")
        flat = _flat_numpy(t)
        return t.reshape(-1)[i].item() if flat is None else flat[i].item()

    def _set_element(self, i, v):
        t = self._get()
        n = t.numel()
        if not 0 <= i < n:
            raise IndexError(f"(OutOfRange) element {i} of a tensor of {n} elements")
        if not t.is_contiguous():       # (a tensor put there by other means)
            t = t.contiguous()
            self._put(t)
        flat = _flat_numpy(t)
        if flat is not None:
            flat[i] = v
            return
        with torch.no_grad():
            t.view(-1)[i] = v

    _get_float_element = _get_double_element = _element
    _get_complex64_element = _get_complex128_element = _element
    _set_float_element = _set_double_element = _set_element
    _set_complex64_element = _set_complex128_element = _set_element

    def set_recursive_sequence_lengths(self, lengths):
        self._lod = tuple(tuple(int(v) for v in level) for level in lengths)

    def recursive_sequence_lengths(self):
        return [list(level) for level in self._lod]

    def lod(self):
        out = []
        for level in self._lod:
            offs = [0]
            for v in level:
                offs.append(offs[-1] + v)
            out.append(offs)
        return out

    def _numel(self):
        return self._get().numel()


def _flat_numpy(t):
    """A flat numpy view of a contiguous CPU tensor's memory (numeric gradients poke one
    element at a time: a numpy element costs far less than a torch one), or None."""
    if t.device.type != "cpu" or t.dtype in _BITS or not t.is_contiguous():
        return None
    try:
        return t.detach().numpy().reshape(-1)
    except TypeError:               # a dtype numpy lacks (complex32)
        return None


class _ScopeTensor(_TensorData):
    """What ``scope.find_var(name).get_tensor()`` returns: array-like, settable."""

    def __init__(self, scope, name):
        self._scope = scope
        self._name = name

    def _peek(self):
        return self._scope._vars.get(self._name)

    def _get(self):
        t = self._scope._vars.get(self._name)
        if t is None:
            raise RuntimeError(f"(PreconditionNotMet) the tensor of variable '{self._name}' "
                               "holds no value yet")
        return t

    def _put(self, t):
        self._scope._vars[self._name] = t


def _from_numpy(a):
    """The torch tensor of a numpy array as Paddle's tensors take it: uint16 is bfloat16's
    bits."""
    t = torch.as_tensor(a)
    return t.view(torch.bfloat16) if t.dtype is torch.uint16 else t


def _to_numpy(t):
    """A fetched torch tensor as numpy (bfloat16 and float8 as their bits, as Paddle)."""
    return wrap(t).numpy() if t.dtype in _BITS else t.numpy()


_BITS = (torch.bfloat16, torch.float8_e4m3fn, torch.float8_e5m2)


class DenseTensor(_TensorData):
    """Paddle's ``core.DenseTensor`` (``LoDTensor``): a tensor value to ``set`` from numpy and
    feed to ``Executor.run``. Not a Tensor: an op given one raises as Paddle's do (its value is
    ``_value``, not the ``_t`` Tensors carry)."""

    def __init__(self, value=None):
        self._value = None if value is None else _from_numpy(np.asarray(value))

    def _peek(self):
        return self._value

    def _get(self):
        if self._value is None:
            raise RuntimeError("(PreconditionNotMet) the DenseTensor holds no value yet: call "
                               "set() first")
        return self._value

    def _put(self, t):
        self._value = t


def create_lod_tensor(data, recursive_seq_lens, place):
    """Paddle's ``base.create_lod_tensor``: a DenseTensor on ``place`` holding ``data`` (a numpy
    array, a DenseTensor, or a list of sequences, concatenated as a column) with the
    length-based LoD ``recursive_seq_lens``."""
    if isinstance(data, _TensorData):
        return create_lod_tensor(np.array(data), recursive_seq_lens, place)
    if isinstance(data, list):
        lens = [len(seq) for seq in data]
        if [lens] != [list(level) for level in recursive_seq_lens]:
            raise AssertionError("data and recursive_seq_lens do not match")
        arr = np.array([v for seq in data for v in seq])
        data = arr.reshape((*arr.shape, 1))
    elif not isinstance(data, np.ndarray):
        raise TypeError("data should be either a DenseTensor, a Numpy array or a list")
    out = DenseTensor()
    out.set(data, place)
    out.set_recursive_sequence_lengths(recursive_seq_lens)
    return out


class SelectedRows:
    """Paddle's ``core.SelectedRows``: some rows of a dense ``[height, ...]`` tensor -- the row
    indices (``rows()``, repeats allowed: they add up), ``height()`` and the value tensor
    (``get_tensor()``, one slice per row). Sparse gradients (embedding lookups) take this form;
    the operators that read one are in ``static.selected_rows``."""

    def __init__(self, rows=(), height=0):
        self._rows = [int(r) for r in rows]
        self._height = int(height)
        self._value = None

    def rows(self):
        return list(self._rows)

    def set_rows(self, rows):
        self._rows = [int(r) for r in rows]

    def height(self):
        return self._height

    def set_height(self, height):
        self._height = int(height)

    def numel(self):
        return 0 if self._value is None else self._value.numel()

    def sync_index(self):
        """Build the row -> position index (``static.selected_rows`` looks rows up as it
        goes: nothing to build)."""

    def get_tensor(self):
        return _RowsValue(self)

    def __repr__(self):
        shape = None if self._value is None else list(self._value.shape)
        return f"SelectedRows(rows={self._rows}, height={self._height}, value shape={shape})"


class _RowsValue(_TensorData):
    """The value tensor of a SelectedRows, settable as a DenseTensor."""

    def __init__(self, rows):
        self._sr = rows

    def _peek(self):
        return self._sr._value

    def _get(self):
        if self._sr._value is None:
            raise RuntimeError("(PreconditionNotMet) the value of the SelectedRows holds no "
                               "tensor yet")
        return self._sr._value

    def _put(self, t):
        self._sr._value = t


class _ScopeVar:
    def __init__(self, scope, name):
        self._scope = scope
        self._name = name

    def get_tensor(self):
        if self._name in self._scope._rows:
            raise RuntimeError(f"(InvalidArgument) variable '{self._name}' holds SelectedRows, "
                               "not a DenseTensor: call get_selected_rows()")
        return _ScopeTensor(self._scope, self._name)

    def get_selected_rows(self):
        """The SelectedRows this variable holds (the variable becomes one when it is new)."""
        scope, name = self._scope, self._name
        sr = scope._rows.get(name)
        if sr is None:
            if name in scope._vars:
                raise RuntimeError(f"(InvalidArgument) variable '{name}' holds a DenseTensor, "
                                   "not SelectedRows")
            sr = scope._rows[name] = SelectedRows()
        return sr


class Scope:
    """Persistable values (parameters, optimizer state) by name, shared across runs."""

    def __init__(self):
        self._vars = {}
        self._declared = set()
        self._rows = {}         # the variables holding SelectedRows, by name

    def find_var(self, name):
        """The variable ``name`` (None when neither created by ``var`` nor holding a value)."""
        return _ScopeVar(self, name) if name in self._vars or name in self._declared else None

    def var(self, name):
        """The variable ``name``, created (holding no value yet) when it is new."""
        self._declared.add(name)
        return _ScopeVar(self, name)

    def local_var_names(self):
        return list(self._vars) + list(self._rows)

    def drop_kids(self):
        pass


class _G:
    scope = Scope()


def global_scope():
    """The Scope ``Executor.run`` uses unless given another one."""
    return _G.scope


class scope_guard:
    """``with paddle.static.scope_guard(scope):`` make ``scope`` the global scope inside."""

    def __init__(self, scope):
        self._scope = scope

    def __enter__(self):
        self._prev = _G.scope
        _G.scope = self._scope

    def __exit__(self, *exc):
        _G.scope = self._prev
        return False


# ---------------------------------------------------------------------- compiling
def _force_requires_grad(t):
    """A non-leaf Variable made to require grad (``y.stop_gradient = False``): at run time it
    becomes a leaf requiring grad, as in Paddle's static graph."""
    if t.requires_grad or not (t.is_floating_point() or t.is_complex()):
        return t
    return t.detach().requires_grad_(True)


def _needed(graph, fetch_nodes):
    keep = set()
    stack = list(fetch_nodes)
    for n in graph.nodes:
        if n.meta.get("side_effect") or (n.op == "call_method" and isinstance(n.target, str)
                                          and n.target.endswith("_")):
            stack.append(n)
    while stack:
        n = stack.pop()
        if n in keep:
            continue
        keep.add(n)
        stack.extend(n.all_input_nodes)
    return keep


def _as_dtype(t, dtype):
    return t if t.dtype is dtype else t.to(dtype)


def build_graph_module(program, feed_names, fetch_nodes, device, bake_scope=None):
    """The GraphModule ``(*feeds, *persistables) -> (*fetches, *persistable outputs)`` and the
    layout: (feed placeholder nodes, persistable names, persistable-output names and flags).
    With ``bake_scope``, persistables become attributes holding the Scope's tensors instead."""
    g = program.graph
    keep = _needed(g, fetch_nodes)
    ng = Graph()
    env = {}
    feed_nodes = []
    used = set()

    def arg_name(name):
        # a Python argument name of its own: two Paddle names may spell the same one
        # (``x.tmp_0@GRAD`` and ``x_tmp_0_GRAD``)
        base = out = _pyname(name)
        k = 1
        while out in used:
            out = f"{base}_{k}"
            k += 1
        used.add(out)
        return out

    fed = {}
    for name in feed_names:
        n = program.node_by_name(name)
        ph = ng.placeholder(arg_name(name))
        if n is not None and n.op == "placeholder":
            # a fed persistable takes the fed value (the run also writes it to the scope)
            env[n] = ph
            feed_nodes.append(n)
            fed[name] = ph
        else:
            feed_nodes.append(None)
    root = torch.nn.Module()
    persist = []
    again = []              # a later static.data of a fed name (another dtype or shape)
    for n in g.nodes:
        if n.op != "placeholder" or n not in keep or n in env:
            continue
        name = n.meta.get("var_name")
        if name in fed and n.meta.get("feed"):
            again.append(n)
        elif n.meta.get("persistable"):
            if bake_scope is not None:
                t = bake_scope._vars.get(name)
                if t is None:
                    raise RuntimeError(f"persistable '{name}' is not in the scope: run the "
                                       "startup program first")
                attr = "p_" + _pyname(name)
                setattr(root, attr, torch.nn.Parameter(t, requires_grad=t.requires_grad)
                        if t.is_floating_point() else t)
                env[n] = ng.get_attr(attr)
            else:
                env[n] = ng.placeholder(arg_name(name))
                persist.append(name)
                if n.meta.get("rg"):     # gradients are taken w.r.t. this scope value
                    env[n] = ng.call_function(_force_requires_grad, (env[n],))
        else:
            raise ValueError(f"(InvalidArgument) The feed variable '{name}' is needed by the "
                             f"fetched results but is not given: add it to feed={{'{name}': "
                             "...}")
    for n in again:         # the same fed value, in this declaration's dtype
        env[n] = ng.call_function(_as_dtype, (fed[n.meta["var_name"]], n.meta["pv"][0].dtype))
    persist_out = []
    for n in g.nodes:
        if n not in keep or n.op in ("placeholder", "output"):
            continue
        if n.op == "get_attr":
            v = program.attribute(n.target)
            if isinstance(v, torch.Tensor) and v.device != device and not v.requires_grad:
                v = v.to(device)
            setattr(root, n.target, v)
            env[n] = ng.get_attr(n.target)
        else:
            env[n] = ng.node_copy(n, lambda a: env[a])
            if n.target is _init_value:
                a = list(env[n].args)
                a[3] = device
                env[n].args = tuple(a)
            elif device.type != "cpu":
                env[n].args = tree_map(_dev(device), env[n].args)
                env[n].kwargs = tree_map(_dev(device), env[n].kwargs)
        if n.meta.get("force_rg"):
            env[n] = ng.call_function(_force_requires_grad, (env[n],))
        if "persist_out" in n.meta:
            persist_out.append((n.meta["persist_out"], n.meta.get("trainable", False), env[n]))
    outs = [env[f] for f in fetch_nodes] + [p[2] for p in persist_out]
    ng.output(tuple(outs))
    gm = GraphModule(root, ng)
    return gm, feed_nodes, persist, [(p[0], p[1]) for p in persist_out]


def _dev(device):
    def f(a):
        if isinstance(a, torch.device) and a.type == "cpu":
            return device
        return a
    return f


def _pyname(name):
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in str(name))
    return out if out and not out[0].isdigit() else "v_" + out


def _feed_converter(node, device):
    """A function turning a fed value into the torch tensor for ``node``: no copy for a numpy
    array of the declared dtype on CPU; other dtypes are cast. Like Paddle 3.3.1 (PIR) the
    shape is not checked against the declared one (the ops check what they need)."""
    tdtype = node.meta["pv"][0].dtype
    rg = node.meta.get("rg", False)
    on_cpu = device.type == "cpu"
    from_numpy = torch.from_numpy
    ndarray = np.ndarray

    def conv(v):
        if type(v) is ndarray:
            try:
                t = from_numpy(v)
            except (TypeError, ValueError):
                t = torch.as_tensor(np.ascontiguousarray(v))
        elif isinstance(v, Tensor):
            t = v._t.detach()
        elif isinstance(v, torch.Tensor):
            t = v.detach()
        elif isinstance(v, _TensorData):
            t = v._get().detach()
        else:
            t = torch.as_tensor(np.asarray(v))
        if t.dtype is not tdtype:
            # numpy's uint16 fed to a bfloat16 Variable is its bits (Paddle's convention)
            t = t.view(tdtype) if t.dtype is torch.uint16 and tdtype is torch.bfloat16 \
                else t.to(tdtype)
        if not on_cpu:
            t = t.to(device, non_blocking=True)
        if rg:
            t = t.requires_grad_(True) if t.is_leaf and not t.requires_grad else \
                t.detach().requires_grad_(True)
        return t
    return conv


class _Compiled:
    """One compiled (program, feed names, fetch targets): call it with the feed dict."""

    __slots__ = ("gm", "fn", "feed_names", "convs", "persist", "persist_out", "grad", "n_fetch",
                 "device", "to_numpy", "flat", "flat_ok", "fed_persist", "copy_feeds")

    def __call__(self, feed, scope, return_numpy):
        svars = scope._vars
        args = [c(feed[n]) for n, c in zip(self.feed_names, self.convs)]
        if self.copy_feeds:     # an in-place op (x.scale_()) must not write the caller's array
            args = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        for i in self.fed_persist:          # Paddle's feed writes a persistable into the scope
            name = self.feed_names[i]
            old = svars.get(name)
            v = args[i].detach().clone()
            svars[name] = v.requires_grad_(True) if old is not None and old.requires_grad \
                and (v.is_floating_point() or v.is_complex()) else v
        for p in self.persist:
            try:
                args.append(svars[p])
            except KeyError:
                raise RuntimeError(f"(NotFound) persistable variable '{p}' is not initialised in "
                                   "the scope: run the startup program first") from None
        if self.flat_ok:
            key = tuple([a.shape for a in args])
            fn = self.flat.get(key)
            if fn is None:
                fn = self._flatten(args, key)
            if fn is not None:
                with torch.no_grad():
                    outs = fn(*args)
            else:
                with torch.enable_grad():
                    outs = self.fn(*args)
        else:
            with torch.set_grad_enabled(self.grad):
                outs = self.fn(*args)
        if self.persist_out:
            vals = outs[self.n_fetch:]
            for (name, trainable), v in zip(self.persist_out, vals):
                v = v.detach()
                if trainable and (v.is_floating_point() or v.is_complex()):
                    v.requires_grad_(True)
                svars[name] = v
            outs = outs[:self.n_fetch]
        if not return_numpy:
            return [None if o is None else wrap(o.detach()) for o in outs]
        if self.device.type == "cpu":
            return [None if o is None else _to_numpy(o.detach()) for o in outs]
        return [None if o is None else _to_numpy(o.detach().cpu()) for o in outs]


    def _flatten(self, args, key):
        """Forward + backward as one graph of aten ops (``make_fx``): no autograd at run time.
        Traced once per feed shape (sizes are baked in); after 8 shapes, autograd it is."""
        if len(self.flat) >= 8:
            self.flat_ok = False
            return None
        from torch.fx.experimental.proxy_tensor import make_fx
        gm = self.gm
        try:
            traced = make_fx(lambda *a: gm.forward(*a), tracing_mode="real")(*args)
        except Exception:                   # noqa: BLE001 - keep the autograd path
            self.flat_ok = False
            return None
        fn = traced.forward
        self.flat[key] = fn
        return fn


def _flattenable(graph):
    """Whether forward+backward may be traced into one aten graph: gradients present and no
    run-time Python decisions or side effects (cond, PyLayer.apply, initialisers, updates)."""
    grad = False
    for n in graph.nodes:
        if n.op == "call_function":
            if n.target is _grad_runtime:
                grad = True
            elif n.target in (_run_cond, _run_paddle_pylayer, _init_value,
                              _force_requires_grad) or getattr(
                                  n.target, "__name__", "") == "_write_persistable" or \
                    n.meta.get("no_flatten"):
                return False
        elif n.op == "call_method" and isinstance(n.target, str) and n.target.endswith("_"):
            return False
    return grad


def _has_grad_nodes(graph):
    for n in graph.nodes:
        if n.target is _grad_runtime:
            return True
        if n.target is _run_static_pylayer and n.meta.get("needs_grad"):
            return True
    return False


class _ProgramCache:
    def __init__(self, executor):
        self._executor = executor

    def get_pir_program_and_executor(self, program, feed=None, fetch_list=None,
                                     feed_var_name="feed", fetch_var_name="fetch", place=None,
                                     scope=None, plan=None):
        return program, self._executor, None


class Executor:
    """Runs Programs on a place (CPU by default, ``paddle.CUDAPlace(0)`` for the GPU).

    Example::

        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup_program)
        loss_value, = exe.run(main_program, feed={"x": x_np}, fetch_list=[loss])
    """

    def __init__(self, place=None):
        self.place = place
        if place is None:
            self._device = current_device()
        elif isinstance(place, (Place, str, torch.device)):
            self._device = to_torch_device(place)
        else:
            self._device = torch.device("cpu")

    def close(self):
        pass

    def _check_fetch_list(self, fetch_list):
        """The fetch targets of ``fetch_list`` as one flat list (nested lists and tuples
        flattened, in order), as ``run`` reads them."""
        out = []

        def walk(v):
            if isinstance(v, (list, tuple)):
                for x in v:
                    walk(x)
            elif v is not None:
                out.append(v)
        walk(fetch_list)
        return out

    @property
    def _executor_cache(self):
        """Paddle's cache of the programs an Executor ran, with fetch operators added: here a
        program runs as built, so the program ``get_pir_program_and_executor`` gives back is
        the one given."""
        return _ProgramCache(self)

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name="feed",
            fetch_var_name="fetch", scope=None, return_numpy=True, use_program_cache=False,
            use_prune=False):
        """Run ``program`` (default: the default main program) with ``feed`` (name -> array)
        and return the values of ``fetch_list`` (Variables or names) as numpy arrays."""
        if program is None:
            program = default_main_program()
        if feed is None:
            feed = {}
        if fetch_list is None:
            fetch_list = ()
        elif not isinstance(fetch_list, (list, tuple)):
            fetch_list = (fetch_list,)
        else:
            for f in fetch_list:
                if isinstance(f, (list, tuple)):
                    fetch_list = _flat_fetch_list(fetch_list)
                    break
        if scope is None:
            scope = _G.scope
        fkey = []
        for f in fetch_list:
            if f.__class__ is str:
                fkey.append(f)
            else:
                t = getattr(f, "_t", None)
                fkey.append(t.node if isinstance(t, StaticProxy) else id(f))
        signature = (tuple(feed), tuple(fkey), self._device)
        try:
            c = program.compiled(signature)
        except AttributeError:                  # not a Program: refused below
            c = None
        if c is None:
            if not isinstance(program, Program):
                inner = getattr(program, "_program", None)      # a CompiledProgram
                if not isinstance(inner, Program):
                    raise TypeError("Executor.run(program=...) must be a paddle.static.Program,"
                                    f" but got {type(program).__name__}") from None
                program = inner
            c = self._compile(program, tuple(feed), fetch_list)
            program.remember_compiled(signature, c)
        return c(feed, scope, return_numpy)

    def _compile(self, program, feed_names, fetch_list):
        fetch_nodes = []
        eager = {}
        for i, f in enumerate(fetch_list):
            t = getattr(f, "_t", None)
            if isinstance(t, torch.Tensor):              # an eager Tensor: fetch its value
                eager[i] = t
                fetch_nodes.append(None)
            else:
                fetch_nodes.append(program.fetch_node(f))
        real = [n for n in fetch_nodes if n is not None]
        gm, feed_nodes, persist, persist_out = build_graph_module(
            program, feed_names, real, self._device)
        c = _Compiled()
        c.gm = gm
        c.fn = gm.forward
        c.flat = {}
        c.flat_ok = _flattenable(gm.graph) and not persist_out
        c.feed_names = feed_names
        c.copy_feeds = any(n.op == "call_method" and isinstance(n.target, str)
                           and n.target.endswith("_") for n in gm.graph.nodes)
        c.fed_persist = [i for i, n in enumerate(feed_nodes)
                         if n is not None and n.meta.get("persistable")]
        c.convs = [(_feed_converter(n, self._device) if n is not None else _ignore)
                   for n in feed_nodes]
        c.persist = persist
        c.persist_out = persist_out
        c.grad = _has_grad_nodes(gm.graph)
        c.n_fetch = len(real)
        c.device = self._device
        if eager:
            inner = c

            def with_eager(feed, scope, return_numpy, _inner=inner):
                vals = iter(_inner(feed, scope, return_numpy))
                out = []
                for i in range(len(fetch_nodes)):
                    if i in eager:
                        out.append(eager[i].detach().cpu().numpy() if return_numpy
                                   else wrap(eager[i]))
                    else:
                        out.append(next(vals))
                return out
            return with_eager
        return c


def _flat_fetch_list(fetch_list):
    """Paddle's ``fetch_list`` may group targets in lists or tuples one level deep (a layer
    returning a list): they are fetched in order and come back as one flat list, as in
    Paddle 3.3.1. Deeper nesting is refused, as Paddle refuses it."""
    out = []
    for f in fetch_list:
        if isinstance(f, (list, tuple)):
            for g in f:
                if isinstance(g, (list, tuple)):
                    raise TypeError(f"{g!r} should be Variable, Operator or str")
                out.append(g)
        else:
            out.append(f)
    return out


def _ignore(v):
    return None


def cpu_places(device_count=None):
    """``device_count`` (default 1) CPU places."""
    return [CPUPlace()] * (device_count or 1)


def cuda_places(device_ids=None):
    """The CUDA places ``device_ids`` (default: every visible GPU)."""
    ids = device_ids if device_ids is not None else range(torch.cuda.device_count())
    return [CUDAPlace(i) for i in ids]
