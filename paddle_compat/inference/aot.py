"""Ahead-of-time compiled predictors: a loaded model file run as an AOTInductor package.

``Config.enable_memory_optim()`` with ``switch_ir_optim`` on (Paddle's default) asks for the
optimised predictor; here it is the model's traced graph (``to_static`` of the loaded
``TranslatedLayer``) exported with ``torch.export`` and compiled by AOTInductor into a C++
package for the input shapes of the first ``run``. The package is cached under
``~/.cache/paddle_compat/aot`` (``PADDLE_COMPAT_AOT_CACHE`` overrides), keyed by the SHA-256
of the model and parameter files, the input shapes and dtypes, the thread count and torch's
version, so a second process loads it instead of compiling. Inputs of another shape, a graph
that cannot be exported or compiled, or a model that draws random numbers run eagerly, with a
warning that says why.
"""
import hashlib
import os
import warnings

import torch
from torch.utils._pytree import tree_unflatten

from ..framework.tensor import wrap
from ..jit import StaticFunction
from ..static.mode import mode_guard

__all__ = ["wanted", "AotRunner", "cache_root"]


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


class AotRunner:
    """The compiled form of one loaded model for one input signature; ``None`` from
    ``__call__`` means "not for these inputs: run eagerly"."""

    def __init__(self, layer, files):
        self._layer = layer
        self._files = files
        self._sig = None
        self._run = None            # the loaded package
        self._traced = None
        self.failed = None          # why the compiled path is off, or None
        self.cached = None          # whether the package came from the cache

    def __call__(self, tensors):
        if self.failed is not None:
            return None
        sig = tuple((tuple(t.shape), t.dtype) for t in tensors)
        if self._run is None:
            try:
                self._build(tensors, sig)
            except Exception as e:          # noqa: BLE001  (any export/compile failure)
                self.failed = f"{type(e).__name__}: {str(e).strip().splitlines()[0][:200]}" \
                    if str(e).strip() else type(e).__name__
                warnings.warn(f"paddle.inference: the compiled predictor (AOTInductor) is off "
                              f"for {self._files[0]}, which runs eagerly: {self.failed}")
                return None
        if sig != self._sig:
            return None
        outs = self._run(*tensors)
        tr = self._traced
        res = list(tr.out_leaves)
        for i, o in zip(tr.out_pos, outs):
            res[i] = wrap(o)
        return tree_unflatten(res, tr.out_spec)

    def _build(self, tensors, sig):
        h = _file_digest(self._files)
        h.update(repr((sig, torch.get_num_threads(), torch.__version__)).encode())
        path = os.path.join(cache_root(), h.hexdigest()[:32] + ".pt2")
        sf = StaticFunction(self._layer.forward, layer=self._layer)
        with torch.no_grad(), mode_guard(False):
            sf(*[wrap(t) for t in tensors])
        traced = [tr for tr in sf._cache.values() if hasattr(tr, "gm")]
        if len(traced) != 1:
            raise RuntimeError("the model could not be traced to one graph (it draws random "
                               "numbers or changes its state)")
        self._traced = traced[0]
        self.cached = os.path.isfile(path)
        if not self.cached:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with torch.no_grad():
                ep = torch.export.export(self._traced.gm, tuple(tensors), strict=False)
            tmp = f"{path}.{os.getpid()}.tmp.pt2"
            torch._inductor.aoti_compile_and_package(ep, package_path=tmp)
            os.replace(tmp, path)
        self._run = torch._inductor.aoti_load_package(path)
        self._sig = sig
