"""Gradient clipping strategies optimizers apply before their update (``grad_clip=``).

``ClipGradByValue`` clamps each gradient, ``ClipGradByNorm`` rescales each gradient whose L2
norm exceeds ``clip_norm``, ``ClipGradByGlobalNorm`` rescales all gradients together by
``clip_norm / max(global_norm, clip_norm)`` (in place in dynamic mode, as Paddle does, so
``param.grad`` shows the clipped value after ``step``). Parameters with ``need_clip=False``
are left alone (and left out of the global norm).

Called directly, a strategy takes and returns a list of ``(param, grad)`` Tensors; optimizers
use ``_clip(params, grads)`` on the torch gradients (real tensors, or proxies in static mode).
"""
import torch

from ..framework.tensor import wrap

__all__ = ["ClipGradBase", "GradientClipBase", "ClipGradByValue", "ClipGradByNorm",
           "ClipGradByGlobalNorm"]

_HALF = (torch.float16, torch.bfloat16)


def _clipped(param):
    return getattr(param, "need_clip", True) is not False


class ClipGradBase:
    """Base class of the clipping strategies."""

    def __call__(self, params_grads):
        pairs = [(p, g) for p, g in params_grads if g is not None]
        grads = self._clip([p for p, _ in pairs], [g._t for _, g in pairs])
        return [(p, g if n is g._t else wrap(n)) for (p, g), n in zip(pairs, grads)]

    def _clip(self, params, grads):
        """The clipped torch gradients for ``params`` (a new list, same order)."""
        raise NotImplementedError

    def __str__(self):
        raise NotImplementedError


GradientClipBase = ClipGradBase


class ClipGradByValue(ClipGradBase):
    """Clamp every gradient element to ``[min, max]`` (``min`` defaults to ``-max``)."""

    def __init__(self, max, min=None):
        if min is None:
            if not max > 0.0:
                raise AssertionError("max must be positive when min is not given")
            min = -max
        self.max = float(max)
        self.min = float(min)

    def _clip(self, params, grads):
        return [torch.clamp(g, self.min, self.max) if _clipped(p) else g
                for p, g in zip(params, grads)]

    def __str__(self):
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"


class ClipGradByNorm(ClipGradBase):
    """Rescale each gradient ``g`` whose L2 norm exceeds ``clip_norm`` to norm ``clip_norm``."""

    def __init__(self, clip_norm):
        self.clip_norm = float(clip_norm)

    def _one(self, g):
        # Paddle's clip_by_norm: scale = 1 if |g| <= c else c / (|g| + tiny-guard)
        norm = torch.sqrt(torch.sum(g * g))
        keep = (norm <= self.clip_norm).to(g.dtype)
        guard = (norm <= 1e-30).to(g.dtype) * 1e-6
        return g * (keep + (1 - keep) * self.clip_norm / (norm + guard))

    def _clip(self, params, grads):
        return [self._one(g) if _clipped(p) else g for p, g in zip(params, grads)]

    def __str__(self):
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"


_pure_global_norm_clip = {"fp16": False, "bf16": False}


def _allow_pure_global_norm_clip(kind, args):
    if not args:
        return _pure_global_norm_clip[kind]
    assert len(args) == 1 and isinstance(args[0], bool)
    old, _pure_global_norm_clip[kind] = _pure_global_norm_clip[kind], args[0]
    return old


def _allow_pure_fp16_global_norm_clip(*args):
    """Paddle's switch (``()`` reads it, ``(bool)`` sets it and returns the old value) for
    computing a float16 global norm in float16; paddle_compat's ``ClipGradByGlobalNorm`` sums
    half-precision norms in float32 either way."""
    return _allow_pure_global_norm_clip("fp16", args)


def _allow_pure_bf16_global_norm_clip(*args):
    """The bfloat16 twin of ``_allow_pure_fp16_global_norm_clip``."""
    return _allow_pure_global_norm_clip("bf16", args)


def clip_by_norm(x, max_norm, name=None):
    """``paddle.nn.clip.clip_by_norm``: ``x`` rescaled to L2 norm ``max_norm`` when its norm
    is larger, else ``x`` (Paddle's kernel, ``ClipGradByNorm``'s rule; float16/bfloat16
    computed in float32). No gradient, as Paddle's op has none."""
    t = x._t
    wide = t.to(torch.float32) if t.dtype in _HALF else t
    out = ClipGradByNorm(max_norm)._one(wide.detach())
    return wrap(out.to(t.dtype) if out.dtype != t.dtype else out)


class ClipGradByGlobalNorm(ClipGradBase):
    """Scale all gradients by ``clip_norm / max(global_norm, clip_norm)``, where ``global_norm``
    is the L2 norm of all clipped gradients together. With ``auto_skip_clip=True`` nothing is
    touched while ``global_norm <= clip_norm``."""

    def __init__(self, clip_norm, group_name="default_group", auto_skip_clip=False):
        if not isinstance(auto_skip_clip, bool):
            raise AssertionError("auto_skip_clip must be a bool")
        self.clip_norm = float(clip_norm)
        self.group_name = group_name
        self.auto_skip_clip = auto_skip_clip

    def _global_norm(self, grads):
        """sqrt of the sum of squares, accumulated in float64 if any gradient is float64."""
        if all(isinstance(g, torch.Tensor) for g in grads):
            # dynamic mode: one foreach kernel for all the per-gradient norms
            by_dtype = {}
            for g in grads:
                by_dtype.setdefault(g.dtype, []).append(g)
            wide = torch.float64 if torch.float64 in by_dtype else torch.float32
            total = None
            for dtype, gs in by_dtype.items():
                sq = torch.stack(torch._foreach_norm(gs)).to(torch.float32 if dtype in _HALF
                                                            else dtype)
                s = torch.sum(sq * sq).to(wide)
                total = s if total is None else total + s
            return torch.sqrt(total)
        wide = torch.float64 if any(getattr(g, "dtype", None) == torch.float64
                                    for g in grads) else torch.float32
        total = None
        for g in grads:
            s = torch.sum(g * g).to(wide)
            total = s if total is None else total + s
        return torch.sqrt(total)

    def _clip(self, params, grads):
        chosen = [g for p, g in zip(params, grads) if _clipped(p)]
        if not chosen:
            return list(grads)
        norm = self._global_norm(chosen)
        limit = torch.full_like(norm, self.clip_norm)
        if self.auto_skip_clip:
            if isinstance(norm, torch.Tensor) and not bool(norm > self.clip_norm):
                return list(grads)
            scale = limit / norm
        else:
            scale = limit / torch.maximum(norm, limit)
        if isinstance(scale, torch.Tensor) and all(isinstance(g, torch.Tensor) for g in chosen):
            by_dtype = {}
            for g in chosen:
                by_dtype.setdefault(g.dtype, []).append(g)
            for dtype, gs in by_dtype.items():
                dims = [g for g in gs if g.dim() > 0]   # Paddle scales 0-d gradients out of place
                if dims:
                    torch._foreach_mul_(dims, scale.to(dtype))
            return [g * scale.to(g.dtype) if _clipped(p) and g.dim() == 0 else g
                    for p, g in zip(params, grads)]
        return [g * scale.to(g.dtype) if _clipped(p) else g for p, g in zip(params, grads)]

    def __str__(self):
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"
