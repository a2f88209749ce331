"""Ahead-of-time compiled loaded models: a model file run as an AOTInductor package.

``Config.enable_memory_optim()`` with ``switch_ir_optim`` on (Paddle's default) asks for the
optimised predictor, ``static.CompiledProgram(program, build_strategy)`` with
``build_cinn_pass`` for a program from ``load_inference_model``, and
``jit.to_static(jit.load(path), backend="CINN")`` for a loaded Layer called for inference
(eval mode, gradients off); here each is the model's traced graph (``to_static`` of the
loaded ``TranslatedLayer``) exported with ``torch.export`` and compiled by AOTInductor
(``INDUCTOR_CONFIGS``; small convolutions and batched matrix products written out first,
jit/small_ops.py) into a C++ package for the input shapes of the first run. With more
than one thread the 1-thread package is built too, and the fastest way to call them is timed
when they load (``AotRunner._build``). Packages are cached under
``~/.cache/paddle_compat/aot`` (``PADDLE_COMPAT_AOT_CACHE`` overrides; ``package_path``
gives the key), so a second process loads them with the C++ loader, neither tracing nor
importing inductor. Inputs of another shape, a graph that cannot be exported or compiled, or
a model that draws random numbers run eagerly, the last two with a warning that says why.
It lives in jit/ (``paddle_compat.inference.aot`` is the same module). See jit/COMPILED.md.
"""
import functools
import hashlib
import json
import os
import re
import time
import warnings

import torch

from ..framework import threads as _threads
from ..framework.tensor import wrap
from ..static.mode import mode_guard
from . import small_ops

__all__ = ["wanted", "AotRunner", "cache_root", "package_path", "graph_package_path",
           "prune_cache", "write_package", "load_package", "choice_path", "read_choice",
           "write_record", "INDUCTOR_CONFIGS",
           "GRAPH_CONFIGS", "FROZEN_CONFIGS", "CACHE_BYTES"]

#: inductor settings of the packages: ``freezing`` folds the weights into the graph as
#: constants (batch norm folded into convolutions, oneDNN weights prepacked), and
#: ``max_autotune`` with the C++ GEMM template lets small matrix products be generated inline
#: (timed against ATen's at compile time, the faster kept) instead of calling ATen per product
INDUCTOR_CONFIGS = {"freezing": True, "max_autotune": True,
                    "max_autotune_gemm_backends": "CPP,ATEN"}


#: inductor settings of a ``to_static`` graph's ahead-of-time variant (jit/compiled.py
#: ``_Aot``): the package holds no weights, the caller binds the graph's own tensors to it, so
#: every tensor stays a named constant: none written into the code (inductor inlines 1-D
#: tensors of up to 8 values, a small layer's bias) or folded into a new one
GRAPH_CONFIGS = {"aot_inductor.package_constants_in_so": False,
                 "always_keep_tensor_constants": True, "joint_graph_constant_folding": False}

#: inductor settings of a ``to_static`` graph's frozen package (jit/compiled.py ``_Frozen``,
#: in a process whose weights no backward has reached): the weights folded and prepacked into
#: the package, as ``jit.compiled.FROZEN_VARIANT`` does in process
FROZEN_CONFIGS = {"freezing": True}

#: what the cache keeps, in bytes: its packages and choice records, the least recently used
#: deleted first (``prune_cache``)
CACHE_BYTES = 4 << 30


def wanted(config):
    """Whether ``config`` asks for the compiled predictor (see the module docstring)."""
    return bool(config._ir_optim and config._memory_optim)


def cache_root():
    d = os.environ.get("PADDLE_COMPAT_AOT_CACHE")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                ".cache")
        d = os.path.join(base, "paddle_compat", "aot")
    return d


def _file_digest(paths):
    h = hashlib.sha256()
    for p in paths:
        with open(p, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    return h


def package_path(files, sig, threads=None):
    """Where the package of the model ``files`` for the input signature ``sig`` is cached:
    keyed by the files' SHA-256, the signature, the thread count it is built for (``threads``,
    torch's by default: inductor writes 1-thread kernels without OpenMP), the inductor
    settings, the graph rewrites (jit/small_ops.py), torch's version and our own
    (``source_key``)."""
    h = _file_digest(files)
    h.update(repr((sig, torch.get_num_threads() if threads is None else threads,
                   sorted(INDUCTOR_CONFIGS.items()), small_ops.key())).encode())
    return _keyed_path(h)


def graph_package_path(code, tensors, sig, threads, values=None):
    """Where the ahead-of-time package of a traced graph is cached: keyed by its ``code``,
    the (shape, stride, dtype) of the ``tensors`` it reads, the input signature ``sig``, the
    thread count, the inductor settings, torch's version and our own (``source_key``). A
    package with the tensors bound when it loads (``GRAPH_CONFIGS``) is keyed without their
    values; one with them frozen in (``FROZEN_CONFIGS``: ``values``, a digest of their bytes)
    by them as well, under the prefix ``frozen-``."""
    configs = GRAPH_CONFIGS if values is None else FROZEN_CONFIGS
    h = hashlib.sha256(code.encode())
    h.update(repr((tensors, sig, threads, sorted(configs.items()), values)).encode())
    return _keyed_path(h, "graph-" if values is None else "frozen-")


#: the names this module gives the cache's files (``_keyed_path``): nothing else there is pruned
_OURS = re.compile(r"(?:(?:graph-|frozen-)?[0-9a-f]{32}\.pt2)|(?:choice-[0-9a-f]{32}\.json)")


def prune_cache(keep_bytes=None):
    """Delete the least recently used packages and choice records beyond ``CACHE_BYTES`` in
    all (loading or reading one refreshes its time). Without it the cache would only grow:
    each version of our code keys new packages, a frozen package holds a copy of its
    weights, and a training process's weights make a new one after each change."""
    keep = CACHE_BYTES if keep_bytes is None else keep_bytes
    root = cache_root()
    try:
        names = [n for n in os.listdir(root) if _OURS.fullmatch(n)]
        files = sorted(((os.stat(os.path.join(root, n)), n) for n in names),
                       key=lambda sn: sn[0].st_mtime, reverse=True)
    except OSError:
        return
    total = 0
    for st, n in files:
        total += st.st_size
        if total > keep:
            try:
                os.remove(os.path.join(root, n))
            except OSError:
                pass


def _touch(path):
    """Mark ``path`` as just used (``prune_cache`` deletes the least recently used first)."""
    try:
        os.utime(path)
    except OSError:
        pass


def _keyed_path(h, prefix="", suffix=".pt2"):
    h.update(repr((torch.__version__, source_key())).encode())
    return os.path.join(cache_root(), prefix + h.hexdigest()[:32] + suffix)


def choice_path(code, sig, threads):
    """Where the timed choice of a graph (jit/compiled.py ``CompiledGraph``) is
    recorded, keyed as its packages are (``graph_package_path``, without the tensors)."""
    h = hashlib.sha256(code.encode())
    h.update(repr((sig, threads)).encode())
    return _keyed_path(h, "choice-", ".json")


def read_choice(path):
    """The record at ``path`` (``write_record``): a dict with the string ``choice`` and
    ``fallback`` and the list ``trial_ms``; None where there is none or it is not that."""
    try:
        with open(path, encoding="utf-8") as f:
            rec = json.load(f)
    except (OSError, ValueError):
        return None
    ok = isinstance(rec, dict) and isinstance(rec.get("choice"), str) and \
        isinstance(rec.get("fallback"), str) and isinstance(rec.get("trial_ms"), list) and \
        all(isinstance(v, (int, float)) for v in rec["trial_ms"])
    if not ok:
        return None
    _touch(path)
    return rec


def write_record(path, rec):
    """Record ``rec`` (JSON: a timed choice, a probe's outcome) at ``path`` (``_publish``); a
    cache that cannot be written is left as it is."""
    def dump(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(rec, f)
    try:
        _publish(path, dump)
    except OSError:
        pass


def _publish(path, write):
    """``write(tmp)`` to a temporary name next to ``path`` (this process's), then moved to
    ``path``: a reader never sees half a file, and two processes writing it do not collide;
    the temporary file is removed if ``write`` fails."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    root, ext = os.path.splitext(path)
    tmp = f"{root}{ext}.{os.getpid()}.tmp{ext}"
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


@functools.lru_cache(None)
def source_key():
    """paddle_compat's own code as part of the cache keys: the path, size and modification
    time of each of its Python files (a package traced and compiled by another version of
    our ops is not reused)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha256()
    for d, dirs, names in sorted(os.walk(root)):
        dirs.sort()
        for n in sorted(names):
            if n.endswith(".py"):
                st = os.stat(os.path.join(d, n))
                h.update(f"{os.path.relpath(os.path.join(d, n), root)}:{st.st_size}:"
                         f"{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


#: inductor settings every package is compiled under, where this torch has them: no tables of
#: ``max_autotune``'s timings written to stderr (a predictor's first run prints nothing)
QUIET_CONFIGS = {"autotune_num_choices_displayed": 0,
                 "max_autotune_report_choices_stats": False}


@functools.cache
def quiet_torch_internals():
    """Hide a deprecation warning torch's compiler and export give about their own code
    (their graph copies meet pytree's ``LeafSpec``, deprecated in torch's own pytree): not
    the user's to act on, and Paddle prints nothing of the kind. Only that message; set once
    a process, before our compiles and exports."""
    warnings.filterwarnings("ignore", message=r"`isinstance\(treespec, LeafSpec\)` is deprecated",
                            category=FutureWarning)


def write_package(ep, path, configs):
    """Compile the exported program ``ep`` with AOTInductor (inductor settings ``configs``,
    ``QUIET_CONFIGS``) into the package ``path`` (``_publish``), then prune the cache
    (``prune_cache``)."""
    import torch._inductor
    from torch._inductor import config
    quiet_torch_internals()
    with config.patch({k: v for k, v in QUIET_CONFIGS.items() if hasattr(config, k)}):
        _publish(path, lambda tmp: torch._inductor.aoti_compile_and_package(
            ep, package_path=tmp, inductor_configs=configs))
    prune_cache()


def load_package(path):
    """The C++ loader of the package ``path`` (``.run(list of tensors)`` runs it), marked as
    just used."""
    _touch(path)
    return torch._C._aoti.AOTIModelPackageLoader(path, "model", False, 1, -1)


def _calling(run, onednn_off, serial):
    """``run`` (a package's C++ runner) with ATen's oneDNN kernels switched off and/or torch
    at one thread for the call, both restored after it; ``run`` itself when neither."""
    if not onednn_off and not serial:
        return run
    get_mkl, set_mkl = torch._C._get_mkldnn_enabled, torch._C._set_mkldnn_enabled
    get_n, set_n = torch.get_num_threads, torch.set_num_threads

    def run_flat(tensors):
        if onednn_off:
            was = get_mkl()
            set_mkl(False)
        if serial:
            n = get_n()
            set_n(1)
        try:
            return run(tensors)
        finally:
            if serial:
                set_n(n)
            if onednn_off:
                set_mkl(was)
    return run_flat


def _fastest(candidates, tensors, rounds=3):
    """The index of the fastest of ``candidates`` (runners, cheapest first) on ``tensors``,
    by the best of ``rounds`` wall-clock rounds taken in turns; a later (dearer) candidate
    must be at least 10% faster than the best earlier one to win. On busy cores a parallel
    way can take a thousand times longer than the best: a round stops early once it has
    taken 10x the best round, and a candidate over 10x the best after two rounds is not
    timed further (one slow sample drops none). Also the seconds per call of each."""
    if len(candidates) == 1:
        return 0, [float("nan")]
    for fn in candidates:                   # warm each (first calls allocate, build)
        fn(list(tensors))
    t = time.perf_counter()
    candidates[0](list(tensors))
    calls = max(3, min(20, int(0.005 / max(time.perf_counter() - t, 1e-9))))  # ~5 ms
    best = [float("inf")] * len(candidates)
    live = list(range(len(candidates)))
    for r in range(rounds):
        for k in live:
            fn, cap = candidates[k], 10 * min(best) * calls
            t = time.perf_counter()
            done = 0
            while done < calls:
                fn(list(tensors))
                done += 1
                if time.perf_counter() - t > cap:
                    break
            best[k] = min(best[k], (time.perf_counter() - t) / done)
        if r >= 1:
            live = [k for k in live if best[k] <= 10 * min(best)]
    pick = 0
    for k in range(1, len(candidates)):
        if best[k] < 0.9 * best[pick]:
            pick = k
    return pick, best


class AotRunner:
    """The compiled form of one loaded model for one input signature (shapes and dtypes of
    contiguous CPU tensors). ``__call__(tensors)`` gives the model's outputs as a list of
    torch tensors in fetch order, or ``None`` for "not for these inputs: run eagerly".

    After the first successful call, ``run_flat`` is the package's C++ runner (``list of
    tensors -> list of tensors``; itself, or wrapped to set torch's thread count or oneDNN
    switch for the call where that way was faster): ``Predictor.run`` calls it directly on
    its input buffers when they hold the compiled signature. ``static_function`` is
    ``jit.StaticFunction``, which traces the model (passed in: the jit package imports this
    module)."""

    def __init__(self, layer, files, static_function, mkldnn=True):
        self._layer = layer
        self._static_function = static_function
        self._files = files
        self._mkldnn = mkldnn       # Config.enable_mkldnn(): oneDNN allowed where faster
        self.mkldnn_off = None      # whether the package runs with oneDNN switched off
        self.way = None             # how it runs: package_threads, threads, onednn (_build)
        self.timings = None         # seconds per call of each way timed at load
        self.sig = None             # ((shape, dtype), ...) the package was built for
        self.run_flat = None        # the package's C++ runner (AOTIModelPackageLoader.run)
        self.failed = None          # why the compiled path is off, or None
        self.cached = None          # whether the package came from the cache
        self.build_s = None         # seconds the first call spent exporting/compiling/loading
        self.aliases_inputs = False  # whether an output shares memory with an input

    def __call__(self, tensors):
        if self.failed is not None:
            return None
        if self.run_flat is None:
            t0 = time.perf_counter()
            try:
                self._build(tensors)
            except Exception as e:          # noqa: BLE001  (any export/compile failure)
                self.failed = f"{type(e).__name__}: {str(e).strip().splitlines()[0][:200]}" \
                    if str(e).strip() else type(e).__name__
                warnings.warn(f"paddle.inference: the compiled predictor (AOTInductor) is off "
                              f"for {self._files[0]}, which runs eagerly: {self.failed}")
                return None
            self.build_s = time.perf_counter() - t0
        if len(tensors) != len(self.sig) or any(
                t.shape != s or t.dtype != d or t.device.type != "cpu" or not t.is_contiguous()
                for t, (s, d) in zip(tensors, self.sig)):
            return None
        return self.run_flat(list(tensors))

    def _build(self, tensors):
        _threads.hold()             # packages are built for the thread count: keep it
        sig = tuple((tuple(t.shape), t.dtype) for t in tensors)
        if any(t.device.type != "cpu" for t in tensors):
            raise RuntimeError("the compiled predictor takes CPU inputs only")
        tensors = [t.contiguous() for t in tensors]
        # with n > 1 threads, the n-thread package and the 1-thread one (OpenMP-free kernels):
        # on a machine whose cores are busy, a parallel region waits for a descheduled thread
        threads = torch.get_num_threads()
        counts = [1, threads] if threads > 1 else [1]
        runs, ep = {}, None
        for n in counts:
            path = package_path(self._files, sig, n)
            if not os.path.isfile(path):
                # a package exists only for a signature the model accepted when it was
                # traced, so a cache hit needs no trace (nor inductor's import)
                ep = ep or self._export(tensors)
                # cpp.threads: what inductor generates for (its OpenMP pragmas)
                write_package(ep, path, dict(INDUCTOR_CONFIGS, **{"cpp.threads": n}))
            runs[n] = load_package(path).run
        # the ways to call them, cheapest first: the 1-thread package with torch at 1 thread
        # for the call, the same with ATen's kernels at n threads, the n-thread package; each
        # with ATen's oneDNN kernels on and off (oneDNN builds its convolution primitive per
        # call, which dominates small inputs). Config.disable_mkldnn(): off only.
        onednn = [False, True] if self._mkldnn and torch._C._get_mkldnn_enabled() else [True]
        ways = [(n, serial, off) for n, serial in ([(1, True), (1, False), (threads, False)]
                                                   if threads > 1 else [(1, False)])
                for off in onednn]
        pick, secs = _fastest([_calling(runs[n], off, serial) for n, serial, off in ways],
                              tensors)
        n, serial, off = ways[pick]
        self.way = {"package_threads": n, "threads": 1 if serial else threads,
                    "onednn": not off}
        self.timings = {(w[0], 1 if w[1] else threads, not w[2]): s
                        for w, s in zip(ways, secs)}
        self.mkldnn_off = off
        run = _calling(runs[n], off, serial)
        outs = run(list(tensors))
        ins = {t.untyped_storage().data_ptr() for t in tensors}
        self.aliases_inputs = any(o.untyped_storage().data_ptr() in ins for o in outs)
        self.cached = ep is None
        self.sig = sig
        self.run_flat = run

    def _export(self, tensors):
        """The loaded model traced on ``tensors`` and exported (``torch.export``)."""
        quiet_torch_internals()
        # the class's forward: to_static(layer, backend="CINN") puts its own in the instance
        forward = type(self._layer).forward.__get__(self._layer)
        sf = self._static_function(forward, layer=self._layer)
        with torch.no_grad(), mode_guard(False):
            sf(*[wrap(t) for t in tensors])
        traced = [tr for tr in sf._cache.values() if hasattr(tr, "gm")]
        if len(traced) != 1:
            raise RuntimeError("the model could not be traced to one graph (it draws random "
                               "numbers or changes its state)")
        tr = traced[0]
        if tr.out_pos != list(range(len(tr.out_leaves))):
            raise RuntimeError("the model returns values that are not tensors")
        with torch.no_grad():
            ep = torch.export.export(tr.gm, tuple(tensors), strict=False)
            # small convolutions and bmm written out for inductor (no ATen call for them)
            return ep.run_decompositions(small_ops.decompositions())
