"""Ahead-of-time compiled predictors: a loaded model file run as an AOTInductor package.

``Config.enable_memory_optim()`` with ``switch_ir_optim`` on (Paddle's default) asks for the
optimised predictor, and ``static.CompiledProgram(program, build_strategy)`` with
``build_cinn_pass`` for a program from ``load_inference_model``; here either is the model's
traced graph (``to_static`` of the loaded ``TranslatedLayer``) exported with ``torch.export``
and compiled by AOTInductor (``INDUCTOR_CONFIGS``) into a C++ package for the input shapes of
the first run. The package is cached under ``~/.cache/paddle_compat/aot``
(``PADDLE_COMPAT_AOT_CACHE`` overrides; ``package_path`` gives the key), so a second process
loads it with the C++ loader, neither tracing nor importing inductor. Inputs of another
shape, a graph that cannot be exported or compiled, or a model that draws random numbers run
eagerly, the last two with a warning that says why. See jit/COMPILED.md.
"""
import hashlib
import os
import time
import warnings

import torch

from ..framework.tensor import wrap
from ..jit import StaticFunction
from ..static.mode import mode_guard

__all__ = ["wanted", "AotRunner", "cache_root", "package_path", "INDUCTOR_CONFIGS"]

#: inductor settings of the packages: ``freezing`` folds the weights into the graph as
#: constants (batch norm folded into convolutions, oneDNN weights prepacked), and
#: ``max_autotune`` with the C++ GEMM template lets small matrix products be generated inline
#: (timed against ATen's at compile time, the faster kept) instead of calling ATen per product
INDUCTOR_CONFIGS = {"freezing": True, "max_autotune": True,
                    "max_autotune_gemm_backends": "CPP,ATEN"}


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


def package_path(files, sig):
    """Where the package of the model ``files`` for the input signature ``sig`` is cached:
    keyed by the files' SHA-256, the signature, the thread count (inductor writes 1-thread
    kernels without OpenMP), the inductor settings and torch's version."""
    h = _file_digest(files)
    h.update(repr((sig, torch.get_num_threads(), sorted(INDUCTOR_CONFIGS.items()),
                   torch.__version__)).encode())
    return os.path.join(cache_root(), h.hexdigest()[:32] + ".pt2")


def _without_onednn(run):
    """``run`` with ATen's oneDNN kernels switched off for the call (restored after)."""
    def run_flat(tensors):
        was = torch._C._get_mkldnn_enabled()
        torch._C._set_mkldnn_enabled(False)
        try:
            return run(tensors)
        finally:
            torch._C._set_mkldnn_enabled(was)
    return run_flat


def _faster_without_onednn(run, tensors, calls=20):
    """Whether the package runs at least 10% faster with oneDNN off (best of 3 rounds)."""
    if not torch._C._get_mkldnn_enabled():
        return False

    def best(fn):
        ts = []
        for _ in range(3):
            t = time.perf_counter()
            for _ in range(calls):
                fn(list(tensors))
            ts.append(time.perf_counter() - t)
        return min(ts)
    off = _without_onednn(run)
    best(run), best(off)                    # warm both
    return best(off) < 0.9 * best(run)


class AotRunner:
    """The compiled form of one loaded model for one input signature (shapes and dtypes of
    contiguous CPU tensors). ``__call__(tensors)`` gives the model's outputs as a list of
    torch tensors in fetch order, or ``None`` for "not for these inputs: run eagerly".

    After the first successful call, ``run_flat`` is the package's C++ runner itself
    (``list of tensors -> list of tensors``, no Python in between): ``Predictor.run`` calls
    it directly on its input buffers when they hold the compiled signature."""

    def __init__(self, layer, files, mkldnn=True):
        self._layer = layer
        self._files = files
        self._mkldnn = mkldnn       # Config.enable_mkldnn(): oneDNN allowed where faster
        self.mkldnn_off = None      # whether the package runs with oneDNN switched off
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
        sig = tuple((tuple(t.shape), t.dtype) for t in tensors)
        if any(t.device.type != "cpu" for t in tensors):
            raise RuntimeError("the compiled predictor takes CPU inputs only")
        tensors = [t.contiguous() for t in tensors]
        path = package_path(self._files, sig)
        self.cached = os.path.isfile(path)
        if not self.cached:
            # a package exists only for a signature the model accepted when it was traced,
            # so a cache hit needs no trace (nor inductor's import)
            self._compile(tensors, path)
        run = torch._C._aoti.AOTIModelPackageLoader(path, "model", False, 1, -1).run
        outs = run(list(tensors))
        ins = {t.untyped_storage().data_ptr() for t in tensors}
        self.aliases_inputs = any(o.untyped_storage().data_ptr() in ins for o in outs)
        # ATen's oneDNN convolution creates its primitive per call, which dominates small
        # inputs: off when Config.disable_mkldnn() asks, or when it is faster (timed here)
        self.mkldnn_off = not self._mkldnn or _faster_without_onednn(run, tensors)
        self.sig = sig
        self.run_flat = _without_onednn(run) if self.mkldnn_off else run

    def _compile(self, tensors, path):
        """Trace the loaded model on ``tensors``, export the graph and write its AOTInductor
        package to ``path``."""
        import torch._inductor
        sf = StaticFunction(self._layer.forward, layer=self._layer)
        with torch.no_grad(), mode_guard(False):
            sf(*[wrap(t) for t in tensors])
        traced = [tr for tr in sf._cache.values() if hasattr(tr, "gm")]
        if len(traced) != 1:
            raise RuntimeError("the model could not be traced to one graph (it draws random "
                               "numbers or changes its state)")
        tr = traced[0]
        if tr.out_pos != list(range(len(tr.out_leaves))):
            raise RuntimeError("the model returns values that are not tensors")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with torch.no_grad():
            ep = torch.export.export(tr.gm, tuple(tensors), strict=False)
        tmp = f"{path}.{os.getpid()}.tmp.pt2"
        torch._inductor.aoti_compile_and_package(ep, package_path=tmp,
                                                 inductor_configs=dict(INDUCTOR_CONFIGS))
        os.replace(tmp, path)
