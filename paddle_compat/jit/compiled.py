"""The compiled backend of ``to_static``: a traced graph handed to torch's inductor.

``to_static(fn, backend="CINN")`` (or a ``BuildStrategy`` with ``build_cinn_pass = True``) asks
Paddle for its compiler; here that is ``torch.compile`` with the inductor backend, applied to
the fx GraphModule that ``to_static`` traces anyway (plain torch ops, so dynamo sees no Paddle
wrapper). Called with gradients on, AOTAutograd compiles the backward too, so a plain training
loop over a ``to_static`` layer runs forward and backward compiled.

What this module adds to the GraphModule before compiling:

* dropout's mask node (``nn.functional.common._keep_mask``, which draws from Paddle's CPU
  engine) becomes the custom op ``paddle_compat::keep_mask``: opaque to inductor, called at run
  time in eager's order (each mask takes the previous one as an ordering token), so compiled
  dropout draws the same bits as eager under the same seed;
* graph breaks are reported by name: after the first compiled call, dynamo's break reasons that
  call added are given in one warning (the op or Python construct dynamo could not take);
* never slower than eager: after the compiling call, the next calls run in turns the traced
  graph uncompiled and compiled (a graph with convolutions also compiled with NCHW
  activations: inductor's channels_last choice loses on some networks; and, called with
  gradients off, compiled with its weights frozen in, or for a graph without convolutions
  compiled ahead of time by AOTInductor, its weights bound by reference and the package
  cached across processes), each timed (``_trial_clock``: process
  CPU time at one thread, wall time at more) from its start to the graph's next call (so a
  training call's backward, which AOTAutograd compiles with it, and the rest of the user's
  loop are counted), and the graph keeps the fastest (``TIMED_CHOICE``);
* (``lift_views``, applied by to_static to every graph it runs, compiled or not: constants
  that are views, a static linear's ``weight.t()``, become views taken in the graph.)

The compile cache (inductor's FX graph cache and AOTAutograd's) lives under
``~/.cache/paddle_compat/inductor`` unless ``TORCHINDUCTOR_CACHE_DIR`` is set, so a second
process compiling the same graph reuses the first one's kernels.
"""
import contextlib
import copy
import functools
import hashlib
import os
import shutil
import statistics
import time
import warnings
from typing import Optional

import torch

from ..framework import threads as _threads
from ..framework.tensor import quiet_writes
from ..nn.functional.common import _keep_mask, dropout_apply_op, dropout_keep

__all__ = ["wants_compiler", "compile_graph", "cache_dir", "lift_views", "MAX_COMPILES"]

#: torch.compile's backend for to_static graphs (tests set "aot_eager" to check our side of
#: the compile without a C++ build)
TORCH_BACKEND = "inductor"

#: after its compiling call, a graph runs ``TRIAL_PAIRS`` rounds of calls, one call per
#: candidate (uncompiled, compiled, and for a graph with convolutions compiled with NCHW
#: activations) in turns (the first round not counted), and keeps the fastest; False keeps
#: the compiled graph
TIMED_CHOICE = True
TRIAL_PAIRS = 5

#: compiled graphs per ``to_static`` function (one per guard key: shape, dtype, modes); later
#: keys run the traced graph uncompiled, with one warning
MAX_COMPILES = 8


def wants_compiler(backend, build_strategy=None):
    """Whether ``to_static``'s arguments ask for the compiler: ``backend="CINN"`` (any case) or
    a build strategy with ``build_cinn_pass`` on. ``None`` and ``"PCC"`` (which Paddle runs on
    its PHI kernels where PCC is missing) do not; anything else is Paddle's ValueError."""
    if build_strategy is not None and getattr(build_strategy, "build_cinn_pass", False):
        return True
    if backend is None:
        return False
    if not isinstance(backend, str):
        backend = getattr(backend, "name", backend)
    if isinstance(backend, str) and backend.upper() == "CINN":
        return True
    if isinstance(backend, str) and backend.upper() in ("PCC", "PHI"):
        return False
    raise ValueError(f"Unknown backend {backend}. Only support 'CINN' or None for PHI.")


def cache_dir():
    """Where inductor keeps its compiled graphs for us (``TORCHINDUCTOR_CACHE_DIR`` wins,
    unless it is torch's default: importing ``torch._dynamo``, which our static trace and any
    torch code may do first, writes that default into the variable)."""
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir
    d = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    if d and os.path.abspath(d) != os.path.abspath(default_cache_dir()):
        return d
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    d = os.path.join(base, "paddle_compat", "inductor")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = d
    return d


_OP = []


def _keep_mask_op():
    """``paddle_compat::keep_mask(shape, p, device, after)``: dropout's keep mask drawn from
    Paddle's engine, as uint8 (1 kept, 0 dropped; ``_rewrite_rng`` says why); ``after`` (the
    previous mask of the graph, unused) orders the draws as eager makes them. Registered on
    first use (registering inspects the caller's module, which must not run while the package
    is still importing)."""
    if _OP:
        return _OP[0]

    @torch.library.custom_op("paddle_compat::keep_mask", mutates_args=())
    def keep_mask(shape: list[int], p: float, device: torch.device,
                  after: Optional[torch.Tensor]) -> torch.Tensor:
        return _keep_mask(tuple(shape), p, device).view(torch.uint8)

    @keep_mask.register_fake
    def _(shape, p, device, after):
        return torch.empty(shape, dtype=torch.uint8, device=device)

    _OP.append(torch.ops.paddle_compat.keep_mask.default)
    return _OP[0]


def _copy(gm):
    """``gm`` with its own graph and code object (so its own dynamo cache entries), sharing
    its tensors."""
    return torch.fx.GraphModule(gm, copy.deepcopy(gm.graph))


def _rewrite_rng(gm):
    """Dropout mask nodes -> ``paddle_compat::keep_mask`` calls chained in graph order, the
    mask as uint8, read as ``mask.to(float32) != 0`` (``dropout_keep`` does so for dropout
    itself; another reader is given that bool). Inductor's CPU code turns a bool or uint8
    tensor into a vector mask element by element, while a float32 compare is one vector
    instruction: a ReLU + dropout of 8x32x512 took 136 us with the bool mask, 35 us this way
    (34 without any mask), and the mask stays 1 byte an element where the backward keeps
    it."""
    if not any(n.op == "call_function" and n.target is _keep_mask for n in gm.graph.nodes):
        return gm
    gm = _copy(gm)
    op = _keep_mask_op()
    prev = None
    for node in list(gm.graph.nodes):
        if node.op == "call_function" and node.target is _keep_mask:
            shape, p, device = node.args
            node.target = op
            node.args = (list(shape), float(p), device, prev)
            prev = node
            # dropout itself (``dropout_apply``) reads the uint8 mask as it is; any other
            # reader gets it as bool
            others = [u for u in node.users if u.target not in (op, dropout_apply_op())]
            if not others:
                continue
            with gm.graph.inserting_after(node):
                as_float = gm.graph.call_method("to", (node, torch.float32))
            with gm.graph.inserting_after(as_float):
                keep = gm.graph.call_function(torch.ne, (as_float, 0))
            for user in others:
                user.replace_input_with(node, keep)
    gm.graph.lint()
    gm.recompile()
    return gm


def _attr_tensors(gm):
    """(node, tensor) of each ``get_attr`` node of ``gm`` that reads a tensor (the traced
    graph's parameters and buffers), in graph order."""
    out = []
    for node in gm.graph.nodes:
        if node.op == "get_attr":
            obj = gm
            for part in node.target.split("."):
                obj = getattr(obj, part)
            if isinstance(obj, torch.Tensor):
                out.append((node, obj))
    return out


def _graph_tensors(gm):
    """The tensors ``gm`` reads, in graph order."""
    return tuple(t for _, t in _attr_tensors(gm))


def _plain_view(t):
    """Whether ``t`` is a strided view of another tensor that ``as_strided`` of that tensor
    gives back exactly: the same dtype and device, no conjugate or negative bit."""
    b = t._base
    return b is not None and t.layout == torch.strided and b.layout == torch.strided and \
        t.dtype == b.dtype and t.device == b.device and not (t.is_conj() or t.is_neg()) and \
        not (b.is_conj() or b.is_neg())


def lift_views(gm):
    """Constants that are views of a tensor (``weight.t()`` that a static linear takes, made
    when it was traced) -> the viewed tensor as the constant and the view as a graph node.
    Passed as a view, AOTAutograd regenerated it with ``as_strided`` on every call, and its
    gradient went through an ``AsStridedBackward`` node: a zero-filled tensor of the base's
    size and a strided copy per weight and step (12 in the Transformer encoder's step); in
    the graph, the transpose folds into the matrix product and its backward."""
    views = [(node, t) for node, t in _attr_tensors(gm) if _plain_view(t)]
    if not views:
        return gm
    gm = _copy(gm)
    nodes = {n.name: n for n in gm.graph.nodes}
    for k, (old, t) in enumerate(views):
        node, base = nodes[old.name], t._base
        name = f"_view_base_{k}"
        # a buffer, as the traced graph's other tensors (a plain attribute that requires
        # grad made torch.export warn that it is "not properly registered")
        gm.register_buffer(name, base, persistent=False)
        with gm.graph.inserting_before(node):
            b = gm.graph.create_node("get_attr", name)
            if t.dim() == 2 and base.dim() == 2 and base.is_contiguous() and \
                    t.shape == base.shape[::-1] and t.stride() == base.stride()[::-1] and \
                    t.storage_offset() == base.storage_offset():
                v = gm.graph.call_function(torch.t, (b,))
            else:
                v = gm.graph.call_function(torch.as_strided, (b, tuple(t.shape), t.stride(),
                                                              t.storage_offset()))
        node.replace_all_uses_with(v)
        gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm


def _break_reasons():
    from torch._dynamo.utils import counters
    return dict(counters["graph_break"])


#: tags our inductor compiles in the FX graph / AOTAutograd cache keys (those keys do not see
#: the decomposition table): change it when ``_kept_whole`` or ``_our_decompositions`` changes
_CACHE_TAG = "paddle_compat-inductor-4"


def _kept_whole():
    """The ops inductor decomposes that our compiles keep whole: ``threshold_backward``
    (ReLU's backward). Decomposed, AOTAutograd saved a bool ``output <= 0`` mask for it,
    whose store and load inductor's CPU code does slowly with AVX-512 vectors (a ReLU +
    dropout of 8x32x512 took 1.45 ms compiled against 0.17 ms eager); kept whole, the ReLU
    output is saved and ATen's vectorised kernel runs the backward. Measured in one process,
    1 thread: the Transformer encoder's compiled training step 18.0 -> 14.4 ms (uncompiled
    15.9), ResNet-18's unchanged (128 vs 133 ms). ``hardtanh_backward`` (ReLU6) stays
    decomposed: MobileNetV2 lost fusion without it (60.2 -> 71.6 ms)."""
    return (torch.ops.aten.threshold_backward.default,)


def _our_decompositions():
    """The ops inductor takes apart in our compiles besides its own: dropout's forward
    (``paddle_compat::dropout_apply``) as its ``where``, fused with its neighbours (its
    backward is the op's registered formula, which AOTAutograd traces); and
    ``aten.convolution_backward`` where ATen is slow and inductor's code is not
    (jit/conv_grads.py: a depthwise convolution's backward, MobileNetV2's training step 66.3 ->
    51.0 ms at 1 thread; a dense one's on maps smaller than its kernel, ResNet-18's 151.6 ->
    137.9 ms), any other call going to inductor's own entry."""
    from torch._inductor import decomposition
    from . import conv_grads
    conv = torch.ops.aten.convolution_backward.default
    before = decomposition.decompositions.get(conv)
    before = getattr(before, "replaces", before)        # ours already in: what it replaced
    return {dropout_apply_op(): dropout_keep, conv: conv_grads.convolution_backward(before)}


def _decompositions():
    """inductor's decomposition table as our compiles see it (without ``_kept_whole``, with
    ``_our_decompositions``)."""
    from torch._inductor.decomposition import select_decomp_table
    table = {k: v for k, v in select_decomp_table().items() if k not in _kept_whole()}
    table.update(_our_decompositions())
    return table


@contextlib.contextmanager
def _inductor_table():
    """inductor's own decomposition table without ``_kept_whole`` for the compile inside, the
    ops kept whole lowered as ATen calls; restored after it, so other compiles in the process
    (a user's own ``torch.compile``) keep inductor's table. Both dicts are edited: the module's
    ``decompositions`` and the table ``select_decomp_table`` returns (a cached copy). (Passing
    a table to ``compile_fx`` instead puts it in the FX graph cache key, which cannot hash its
    C++ functions: every compile bypassed the cache. The fallback is registered explicitly:
    an implicit one for an op that has a decomposition is an error where ``CI`` is set.)"""
    from torch._inductor import decomposition, lowering
    for op in _kept_whole():
        if op not in lowering.lowerings:
            lowering.make_fallback(op, override_decomp=True)
    tables = [decomposition.decompositions]
    selected = decomposition.select_decomp_table()
    if all(selected is not t for t in tables):
        tables.append(selected)
    ours = _our_decompositions()
    touched = set(_kept_whole()) | set(ours)
    saved = [{op: t[op] for op in touched if op in t} for t in tables]
    for t in tables:
        for op in _kept_whole():
            t.pop(op, None)
        t.update(ours)
    try:
        yield
    finally:
        for t, before in zip(tables, saved):
            for op in touched:
                t.pop(op, None)
            t.update(before)


@functools.cache
def isa_probe_patch():
    """``{"cpp.vec_isa_ok": True}`` where this machine is known to build and load code for
    every vector ISA its CPU reports, else ``{}``. Inductor proves that per process by
    compiling a test library per ISA and loading each in a new Python process (about 1.4 s
    of every process's first compile here); the result is recorded in the compile cache,
    keyed by the CPU's flags, the C++ compiler and torch, so a later process skips the
    probe (the CPU's flags still pick the ISAs). Our compiles run under the patch in the
    first process too, so their cache keys are the same in every process."""
    import json
    import platform

    from torch._inductor import config
    from torch._inductor import cpu_vec_isa as isa
    if platform.machine() not in ("x86_64", "AMD64") or config.cpp.vec_isa_ok is not None:
        return {}                           # other CPUs, or the user's own setting: as torch
    try:
        from torch._inductor.cpp_builder import get_cpp_compiler
        compiler = get_cpp_compiler()
        flags = sorted(isa.x86_isa_checker())
    except Exception:       # noqa: BLE001  (no compiler found: torch probes as usual)
        return {}
    from . import aot
    compiler = os.path.realpath(shutil.which(compiler) or compiler)
    h = hashlib.sha256(repr((flags, compiler, torch.__version__)).encode())
    path = os.path.join(cache_dir(), f"vec-isa-{h.hexdigest()[:32]}.json")
    try:
        with open(path, encoding="utf-8") as f:
            ok = json.load(f) is True
    except (OSError, ValueError):
        with config.patch({"cpp.vec_isa_ok": True}):
            claimed = [str(i) for i in isa.valid_vec_isa_list.__wrapped__()]
        ok = [str(i) for i in isa.valid_vec_isa_list()] == claimed     # probed here
        aot.write_record(path, ok)          # (a read-only cache: probed again next time)
    return {"cpp.vec_isa_ok": True} if ok else {}


def _inductor(config_patches=None):
    """torch.compile's backend for our graphs: inductor (``compile_fx``) with
    ``_inductor_table`` and ``config_patches`` (inductor settings), cached under
    ``_CACHE_TAG``."""
    def inductor(gm, example_inputs):
        from torch._inductor.compile_fx import compile_fx
        from . import aot
        aot.quiet_torch_internals()
        with torch.compiler.config.patch(cache_key_tag=_CACHE_TAG), _inductor_table():
            return compile_fx(gm, example_inputs,
                              config_patches=dict(isa_probe_patch(), **(config_patches or {})))
    return inductor


def _backend():
    return _inductor() if TORCH_BACKEND == "inductor" else TORCH_BACKEND


def _has_convolution(gm):
    """Whether the traced graph calls a convolution (inductor's layout choice applies)."""
    return any(n.op in ("call_function", "call_method") and
               "conv" in getattr(n.target, "__name__", str(n.target))
               for n in gm.graph.nodes)


#: a graph with convolutions also tries this compiled variant in its timed choice: inductor
#: gives every convolution channels_last activations on CPU (``layout_optimization``), which
#: on an AVX-512 core (AMD EPYC) runs MobileNetV2's training step 1.4x faster than NCHW and
#: ResNet-18's 1.2x slower; the variant keeps NCHW. (An inductor setting: other backends have
#: no variant.)
LAYOUT_VARIANT = {"layout_optimization": False}

#: an inference graph (first called with gradients off) with convolutions also tries this
#: compiled variant: inductor's ``freezing`` takes the graph's tensors as constants, folds
#: batch norm into the convolutions and prepacks their weights for oneDNN (ResNet-18's eval
#: forward, 1 thread: 1.3x the uncompiled graph, where the unfrozen compile gained nothing).
#: Its code holds copies of the weights, so it runs only while they are unchanged (``_Frozen``)
FROZEN_VARIANT = {"freezing": True, "freezing_discard_parameters": False}

#: a graph whose tensors take more bytes than this has no frozen variant (it would hold a
#: second copy of them)
FROZEN_MAX_BYTES = 1 << 30


def _plain(t):
    """Whether ``t`` is a plain tensor or parameter (not a distributed or other subclass)."""
    return type(t) in (torch.Tensor, torch.nn.Parameter)


def _freezable(tensors):
    """Whether a graph reading ``tensors`` gets a frozen variant: plain tensors (``_plain``)
    of ``FROZEN_MAX_BYTES`` at most in all."""
    return all(map(_plain, tensors)) and sum(t.nbytes for t in tensors) <= FROZEN_MAX_BYTES


class _Inference:
    """A candidate for calls with gradients off (it records no backward): any other call runs
    ``fallback``. Its first call builds it (``_build``: a failure warns and drops it, that
    call running ``fallback``); a later call runs ``fn`` where ``_ok`` accepts the call, else
    ``fallback``. ``_ok`` accepts inputs of the signature ``sig`` it was built for (any,
    where None), and drops it for good (``fn`` None) once ``_state`` differs from the first
    call's (``stamp``)."""

    __slots__ = ("fn", "tensors", "stamp", "fallback", "sig")
    #: what the warning of a failed build calls it
    KIND = "variant"

    def __init__(self, gm, fallback):
        self.tensors = _graph_tensors(gm)
        self.stamp = self.sig = None
        self.fallback = fallback

    def __call__(self, *args):
        if self.fn is None or torch.is_grad_enabled():
            return self.fallback(*args)
        if self.stamp is None:
            self.stamp = self._state()
            try:
                return self._build(*args)
            except Exception as e:          # noqa: BLE001  (any failure of the compile)
                self.fn = None
                warnings.warn(f"to_static(backend='CINN'): the graph's {self.KIND} failed "
                              f"({type(e).__name__}: {str(e).strip()[:200]}) and is not used")
                return self.fallback(*args)
        if not self._ok(args):
            return self.fallback(*args)
        return self.fn(*args)

    def _ok(self, args):
        if self.sig is not None and tuple(map(_layout, args)) != self.sig:
            return False                        # not the signature it was built for
        if self._state() != self.stamp:
            self.fn = None                      # stale: it would read old values or memory
        return self.fn is not None


class _Frozen(_Inference):
    """A graph compiled with ``FROZEN_VARIANT``: its tensors' values are compiled in, so it
    may run only while they hold the values it was compiled with. Each call checks the
    storage and the version counter (bumped by in-place writes: an optimizer step) of every
    tensor, and the count of writes that keep the version (``set_value``,
    ``set_state_dict``: ``framework.tensor.quiet_writes``), against the first call's; after
    any change it is dropped for good. dynamo freezes only what it traces under inductor's
    ``freezing`` setting, so the first (compiling) call runs under it.

    With ``package`` (a graph whose weights no backward has reached in this process: an
    inference process, whose next run loads the same weights), the frozen graph is an
    AOTInductor package instead (``_package``), cached across processes by the weights'
    bytes as well, and run by its C++ runner on the first call's input signature (another
    goes to ``fallback``); where it cannot be built, the in-process freezing compile runs."""

    __slots__ = ("gm",)
    KIND = "frozen variant"

    def __init__(self, gm, fallback, package=False):
        super().__init__(gm, fallback)
        self.fn = torch.compile(gm, backend=_inductor(FROZEN_VARIANT), dynamic=False)
        self.gm = gm if package else None

    def _state(self):
        return quiet_writes(), [(t.untyped_storage().data_ptr(), t._version)
                                for t in self.tensors]

    def _build(self, *args):
        if self.gm is not None:
            try:
                loader, _, self.sig = _package(self.gm, args, frozen=True)
            except Exception:       # noqa: BLE001  (not exportable, ...: freeze in process)
                pass
            else:
                self.fn = _runner(loader)
                return self.fn(*args)
            finally:
                self.gm = None
        from torch._inductor import config
        with config.patch(FROZEN_VARIANT):
            return self.fn(*args)


def _bound_graph(gm):
    """``gm``'s graph on a new root whose buffers ``c0``, ``c1``, ... are the tensors it reads
    (detached; each once, in graph order), and those buffers by name: the ahead-of-time
    package is exported from it, so its constants have those names and a cached package is
    bound to this graph's tensors by them."""
    graph = copy.deepcopy(gm.graph)
    nodes = {n.name: n for n in graph.nodes}
    root, names = torch.nn.Module(), {}
    for node, t in _attr_tensors(gm):
        name = names.get(id(t))
        if name is None:
            name = names[id(t)] = f"c{len(names)}"
            root.register_buffer(name, t.detach())
        nodes[node.name].target = name
    return torch.fx.GraphModule(root, graph), dict(root.named_buffers())


def _layout(t):
    return tuple(t.shape), t.stride(), t.dtype, t.device.type


def _aot_able(gm, tensors):
    """Whether a graph gets an ahead-of-time variant: CPU plain tensors, no dropout mask, and
    every output a computed tensor (neither an input nor one of its tensors, which the
    package would return as copies)."""
    if not all(_plain(t) and t.device.type == "cpu" for t in tensors):
        return False
    out = next(n for n in reversed(gm.graph.nodes) if n.op == "output")
    leaves = torch.fx.node.map_aggregate(out.args[0], lambda a: a)
    leaves = leaves if isinstance(leaves, (list, tuple)) else (leaves,)
    return all(isinstance(a, torch.fx.Node) and a.op not in ("placeholder", "get_attr")
               for a in leaves) and \
        not any(n.op == "call_function" and n.target is _keep_mask for n in gm.graph.nodes)


def _digest(tensors):
    """SHA-256 of the bytes of ``tensors``, in order (their layouts are keyed apart)."""
    h = hashlib.sha256()
    for t in tensors:
        h.update(t.detach().contiguous().reshape(-1).view(torch.uint8).numpy())
    return h.hexdigest()


def _package(gm, args, frozen=False):
    """The AOTInductor package of ``gm`` called on ``args`` (jit/aot.py): its C++ loader, the
    graph's tensors by their names in it (``_bound_graph``) and the input signature. Loaded
    from the cache (``aot.graph_package_path``) where there, else exported and compiled into
    it: with the tensors bound at load (``aot.GRAPH_CONFIGS``), or ``frozen`` in
    (``aot.FROZEN_CONFIGS``, keyed by their bytes too)."""
    from . import aot
    bound, tensors = _bound_graph(gm)
    threads = torch.get_num_threads()
    sig = tuple(map(_layout, args))
    path = aot.graph_package_path(bound.code, [_layout(t) for t in tensors.values()], sig,
                                  threads, _digest(tensors.values()) if frozen else None)
    # torch's own deprecation notices from inside export and AOTInductor are not the
    # user's to act on (and under -W error they would stop the build)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if not os.path.isfile(path):
            with torch.no_grad():
                ep = torch.export.export(bound, tuple(args), strict=False)
            configs = aot.FROZEN_CONFIGS if frozen else aot.GRAPH_CONFIGS
            aot.write_package(ep, path, dict(configs, **{"cpp.threads": threads}))
        return aot.load_package(path), tensors, sig


def _runner(loader):
    """A package's C++ runner called as the graph is (tensors as arguments)."""
    run = loader.run
    return lambda *args: run(list(args))


class _Aot(_Inference):
    """The graph compiled ahead of time by AOTInductor (jit/aot.py) into a C++ package with
    its tensors bound by reference (``_bound_graph``): it reads the graph's own weights, so it
    follows every write to them, and is called through the package's C++ runner, without
    inductor's Python wrapper or dynamo's guards (the Transformer encoder's eval forward, 1
    thread: 2.7 ms against 3.3 ms compiled). The package is cached under ``aot.cache_root()``
    keyed by the graph (``aot.graph_package_path``), so a second process loads it instead of
    compiling. A call runs it where its inputs have the first call's shapes, strides and
    dtypes and the graph's tensors their storage (the package reads that memory); a tensor
    with new storage drops it for good."""

    __slots__ = ("gm",)
    KIND = "ahead-of-time variant"

    def __init__(self, gm, fallback):
        super().__init__(gm, fallback)
        self.gm = gm
        self.fn = self._build                   # not None: the first call builds it

    def _state(self):
        return [t.data_ptr() for t in self.tensors]

    def _build(self, *args):
        loader, tensors, self.sig = _package(self.gm, args)
        self.gm = None
        # every constant of the package is one of the graph's tensors, bound by reference
        names = loader.get_constant_fqns()
        if not set(names) <= set(tensors):
            raise RuntimeError("the package holds constants that are not the graph's tensors: "
                               f"{sorted(set(names) - set(tensors))[:5]}")
        loader.load_constants({n: tensors[n] for n in names}, False, True, True)
        self.fn = _runner(loader)
        return self.fn(*args)


class CompiledGraph:
    """A GraphModule under ``torch.compile`` (inductor). Its first call compiles and warns
    with the graph breaks dynamo reported for it; then (``TIMED_CHOICE``) the next calls go in
    turns to the candidates: the traced graph uncompiled (``gm``: eager's kernels, eager's
    arithmetic), compiled (``fn``) and, for a graph with convolutions, compiled with NCHW
    activations (``alt``, ``LAYOUT_VARIANT``) and, where the first call had gradients off,
    compiled with its weights frozen in (``frozen``, ``FROZEN_VARIANT``; runs only while they
    are unchanged: ``_Frozen``) or, without convolutions, compiled ahead of time (``aot``,
    ``_Aot``; both for calls with gradients off only), the variants compiled on their first
    trial call; each call
    timed from its start to the next call of this graph, ``TRIAL_PAIRS`` rounds (the first not
    counted: one-time costs such as a compile or the lazily compiled backward); the fastest by
    median runs from then on: ``choice`` (one of ``CHOICES``) and ``trial_ms`` (the medians of
    the candidates tried, in that order) tell which and why."""

    __slots__ = ("fn", "gm", "alt", "frozen", "aot", "name", "compile_s", "run", "choice",
                 "trial_ms", "_periods", "_prev", "_t0", "_rewritten", "_clock", "_record")

    #: the candidates' names, in trial order
    CHOICES = ("eager", "compiled", "compiled-nchw", "compiled-frozen", "compiled-aot")

    def __init__(self, gm, name):
        cache_dir()
        _threads.hold()          # a thread-count change would recompile (dynamo guards it)
        rewritten = _rewrite_rng(gm)
        self.fn = torch.compile(rewritten, backend=_backend(), dynamic=False)
        self.alt = self.frozen = self.aot = None
        self._rewritten = None
        if TIMED_CHOICE and TORCH_BACKEND == "inductor" and _has_convolution(gm):
            self._rewritten = rewritten
            self.alt = torch.compile(_copy(rewritten), backend=_inductor(LAYOUT_VARIANT),
                                     dynamic=False)
        self.gm = gm
        self.name = name
        self.compile_s = None
        self.run = self._first
        self.choice = None
        self.trial_ms = None
        self._periods = None
        self._prev = None
        self._t0 = 0.0
        self._record = None

    def __call__(self, *args):
        return self.run(*args)

    def _first(self, *args):
        self._inference_candidates()
        replayed = self._replay(args)
        before = _break_reasons()
        t0 = time.perf_counter()
        try:
            out = (self.run if replayed else self.fn)(*args)
        except torch._dynamo.exc.BackendCompilerFailed as e:
            return self._uncompiled(e, args)
        self.compile_s = time.perf_counter() - t0
        after = _break_reasons()
        new = {k: v - before.get(k, 0) for k, v in after.items() if v > before.get(k, 0)}
        if new:
            lines = "; ".join(_short_reason(k) for k in new)
            warnings.warn(f"to_static(backend='CINN'): {self.name} compiled with "
                          f"{sum(new.values())} graph break(s), which run in Python between "
                          f"compiled pieces: {lines}")
        if replayed:
            return out
        self._rewritten = None
        if TIMED_CHOICE:
            self.run = self._trial
            self._periods = tuple([] for _ in self._candidates())
            self._clock = _trial_clock()
        else:
            self.run, self.choice = self.fn, "compiled"
        return out

    def _uncompiled(self, error, args):
        """The compile failed (no working C++ compiler, an op inductor cannot take): one
        warning that says why, and the traced graph runs uncompiled from now on."""
        cause = getattr(error, "inner_exception", None) or error
        first = (str(cause).strip().splitlines() or [""])[0][:200]
        warnings.warn(f"to_static(backend='CINN'): {self.name} could not be compiled "
                      f"({type(cause).__name__}: {first}) and runs its traced graph uncompiled")
        self.fn = self.run = self.gm
        self.alt = self.frozen = self.aot = self._rewritten = None
        self.choice = "eager"
        return self.gm(*args)

    def _inference_candidates(self):
        """For a graph first called with gradients off (inductor, timed choice): with
        convolutions the frozen variant, without the ahead-of-time one, where the graph
        allows (each built on its first call)."""
        if TIMED_CHOICE and TORCH_BACKEND == "inductor" and not torch.is_grad_enabled():
            if self._rewritten is not None:
                tensors = _graph_tensors(self._rewritten)
                if _freezable(tensors):
                    # weights no backward has reached (an inference process): a package,
                    # which the next process loads
                    package = _aot_able(self.gm, tensors) and \
                        not any(t.is_leaf and t.grad is not None for t in tensors)
                    self.frozen = _Frozen(_copy(self._rewritten), self.fn, package)
            elif _aot_able(self.gm, _graph_tensors(self.gm)):
                self.aot = _Aot(self.gm, self.fn)

    def _replay(self, args):
        """A graph whose timed choice an earlier process recorded (``_choose``,
        ``aot.choice_path``: the same graph, input signature, gradient mode, thread count and
        code): its choice runs from the first call (compiling there, or loading its package),
        without compiling or timing the other candidates; a package's fallback (for calls
        with gradients on) compiles when first called. True where it applies."""
        if not (TIMED_CHOICE and TORCH_BACKEND == "inductor"):
            return False
        from . import aot
        self._record = aot.choice_path(
            self.gm.code, (torch.is_grad_enabled(),) + tuple(map(_layout, args)),
            torch.get_num_threads())
        rec = aot.read_choice(self._record)
        if rec is None:
            return False
        cands = dict(self._candidates())
        run, fallback = cands.get(rec["choice"]), cands.get(rec["fallback"])
        if run is None or fallback is None or isinstance(fallback, _Inference) or \
                len(rec["trial_ms"]) != len(cands):
            return False                            # not this graph's candidates: timed
        if isinstance(run, _Inference):
            run.fallback = fallback
        self.choice, self.run, self.trial_ms = rec["choice"], run, tuple(rec["trial_ms"])
        self._keep_only({rec["choice"], rec["fallback"]})
        self._rewritten = None
        if self.choice == "eager":
            self._warn_uncompiled(self.trial_ms[0], min(self.trial_ms[1:]))
        return True

    def _keep_only(self, kept):
        """Drop the variants not named in ``kept`` (their compiled code can go)."""
        if "compiled-nchw" not in kept:
            self.alt = None
        if "compiled-frozen" not in kept:
            self.frozen = None
        if "compiled-aot" not in kept:
            self.aot = None

    def _warn_uncompiled(self, eager_ms, compiled_ms):
        warnings.warn(f"to_static(backend='CINN'): {self.name} ran faster uncompiled "
                      f"({eager_ms:.3g} ms per call against {compiled_ms:.3g} ms "
                      "compiled) and keeps its traced graph uncompiled")

    def _candidates(self):
        """(name, callable) of each candidate, in trial order."""
        return [(n, f) for n, f in zip(self.CHOICES, (self.gm, self.fn, self.alt, self.frozen,
                                                      self.aot)) if f is not None]

    def _trial(self, *args):
        now = self._clock()
        periods = self._periods
        if self._prev is not None:
            periods[self._prev].append(now - self._t0)
        done = sum(map(len, periods))
        if done >= len(periods) * max(TRIAL_PAIRS, 1):
            return self._choose()(*args)
        self._prev = done % len(periods)            # uncompiled first, then the compiled ones
        self._t0 = self._clock()
        return self._candidates()[self._prev][1](*args)

    def _choose(self):
        cands = self._candidates()
        medians = [statistics.median(p[1:] if len(p) > 1 else p) for p in self._periods]
        self.trial_ms = tuple(m * 1e3 for m in medians)
        usable = [k for k, (n, f) in enumerate(cands)
                  if not isinstance(f, _Inference) or f.fn is not None]  # not dropped
        order = sorted(usable, key=medians.__getitem__)
        best = order[0]
        if best == 0 and medians[1] <= medians[0]:
            best = 1                                # a tie keeps the compiled graph
        self.choice, self.run = cands[best]
        if best == 0:
            self._warn_uncompiled(medians[0] * 1e3,
                                  min(medians[k] for k in usable if k) * 1e3)
        fallback = self.choice
        if isinstance(self.run, _Inference):
            # for calls with gradients on (and, frozen, once its weights change): the next
            # fastest that runs any call
            fallback, self.run.fallback = cands[next(k for k in order
                                                     if not isinstance(cands[k][1], _Inference))]
        if self._record is not None:
            from . import aot                       # the next process runs it at once
            aot.write_record(self._record, {"choice": self.choice, "fallback": fallback,
                                            "trial_ms": list(self.trial_ms)})
        self._keep_only({self.choice, fallback})
        self._periods = None
        return self.run


def _trial_clock():
    """What the timed choice measures: process CPU time at one thread (on a busy machine the
    wall clock counts other processes' turns), wall time at more (CPU time would count every
    thread's work and its spinning at each kernel's barrier, not how long the call took)."""
    return time.process_time if torch.get_num_threads() == 1 else time.perf_counter


def _short_reason(reason):
    first = str(reason).strip().splitlines()[0]
    return first[:300]


def compile_graph(gm, name):
    """``gm`` (a traced to_static graph) compiled with inductor; see ``CompiledGraph``."""
    return CompiledGraph(gm, name)
