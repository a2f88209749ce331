"""Weight reparameterisations of ``paddle.nn.utils``: ``weight_norm`` / ``remove_weight_norm``
and ``spectral_norm`` (also ``paddle.nn.spectral_norm``), as forward pre-hooks on a layer.

The names and bookkeeping are Paddle's: weight norm replaces the parameter ``weight`` by
``weight_v`` (the direction) and ``weight_g`` (the magnitude, one value per slice along ``dim``;
``dim=None`` or ``-1``: one value for the whole tensor); spectral norm moves it to
``weight_orig`` and keeps the power-iteration vectors as buffers ``weight_u`` / ``weight_v``.
In both, ``layer.weight`` becomes a plain (non-persistable) tensor recomputed before every
forward. The arithmetic follows Paddle's formulas, epsilons included: g starts as
``sqrt(sum(w**2) + 1e-12)`` per slice, the weight is ``g * v / max(||v||, 1e-12)`` (whole
tensor: ``v / (||v|| + 1e-12)``); spectral norm's iteration runs in training mode only, writes
u and v back and uses ``F.normalize``'s ``max(||x||, eps)``.
"""
import torch

from ..framework.tensor import Tensor, wrap
from ..ops.random import normal
from .layer.conv import Conv1DTranspose, Conv2DTranspose, Conv3DTranspose
from .layer.common import Linear

__all__ = ["weight_norm", "remove_weight_norm", "spectral_norm"]


def _slices_first(t, dim):
    """``t`` as a matrix with axis ``dim``'s slices as rows."""
    return (t.movedim(dim, 0) if dim else t).reshape(t.shape[dim], -1)


def _norm_except_dim(t, dim):
    if dim == -1:
        return torch.sqrt((t * t).sum() + 1e-12)
    m = _slices_first(t, dim)
    return torch.sqrt((m * m).sum(1) + 1e-12)


def _weight_norm(v, g, dim):
    if dim == -1:
        return v / (torch.linalg.vector_norm(v) + 1e-12) * g
    m = _slices_first(v, dim)
    unit = m / torch.linalg.vector_norm(m, dim=1, keepdim=True).clamp_min(1e-12)
    moved = list(v.shape)
    moved.insert(0, moved.pop(dim))
    unit = unit.reshape(moved).movedim(0, dim) if dim else unit.reshape(v.shape)
    shape = [1] * v.dim()
    shape[dim] = -1
    return unit * g.reshape(shape)


class WeightNorm:
    """The forward pre-hook of ``weight_norm``: sets ``layer.<name>`` from ``_g`` and ``_v``."""

    def __init__(self, name, dim):
        self.name, self.dim = name, -1 if dim is None else dim

    def compute_weight(self, layer):
        g = getattr(layer, self.name + "_g")
        v = getattr(layer, self.name + "_v")
        return wrap(_weight_norm(v._t, g._t, self.dim))

    @staticmethod
    def apply(layer, name, dim):
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError("Cannot register two weight_norm hooks on the same "
                                   f"parameter {name}")
        dim = -1 if dim is None else dim
        rank = len(layer._parameters[name].shape)
        assert -rank <= dim < rank, \
            "dim must set between [-R, R), R means the dimension of weight."
        if dim != -1:
            dim = (dim + rank) % rank
        fn = WeightNorm(name, dim)
        w = getattr(layer, name)
        del layer._parameters[name]
        g0 = _norm_except_dim(w._t.detach(), dim)
        v = layer.create_parameter(list(w.shape), dtype=w.dtype)
        layer.add_parameter(name + "_v", v)
        g = layer.create_parameter(list(g0.shape) or [1], dtype=w.dtype)
        layer.add_parameter(name + "_g", g)
        with torch.no_grad():
            v._t.copy_(w._t)
            g._t.data = g0.clone()      # 0-d for the whole-tensor norm, as in Paddle
        setattr(layer, name, fn.compute_weight(layer))
        layer.register_forward_pre_hook(fn)
        return fn

    def remove(self, layer):
        w_val = self.compute_weight(layer)
        delattr(layer, self.name)
        del layer._parameters[self.name + "_g"]
        del layer._parameters[self.name + "_v"]
        w = layer.create_parameter(list(w_val.shape), dtype=w_val.dtype)
        layer.add_parameter(self.name, w)
        with torch.no_grad():
            w._t.copy_(w_val._t)

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer))


def weight_norm(layer, name="weight", dim=0):
    """Reparameterise ``layer.<name>`` as ``g * v / ||v||`` (norms over every axis but
    ``dim``; ``dim=None``: over all), adding the parameters ``<name>_g`` and ``<name>_v``.
    Returns ``layer``."""
    WeightNorm.apply(layer, name, dim)
    return layer


def remove_weight_norm(layer, name="weight"):
    """Undo ``weight_norm``: ``<name>`` is a parameter again, holding the current weight."""
    for k, hook in layer._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(layer)
            del layer._forward_pre_hooks[k]
            return layer
    raise ValueError(f"weight_norm of '{name}' not found in {layer}")


def _normalize(t, eps):
    return t / torch.linalg.vector_norm(t).clamp_min(eps)


class SpectralNorm:
    """The forward pre-hook of ``spectral_norm``: ``layer.<name> = <name>_orig / sigma``."""

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.name, self.dim = name, dim
        self.n_power_iterations, self.eps = n_power_iterations, eps

    def reshape_weight_to_matrix(self, weight):
        t = weight._t if isinstance(weight, Tensor) else weight
        return _slices_first(t, self.dim)

    def compute_weight(self, layer, do_power_iteration):
        weight = getattr(layer, self.name + "_orig")
        u = getattr(layer, self.name + "_u")._t
        v = getattr(layer, self.name + "_v")._t
        mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with torch.no_grad():
                m = mat.detach()
                for _ in range(self.n_power_iterations):
                    v.copy_(_normalize(m.t() @ u, self.eps))
                    u.copy_(_normalize(m @ v, self.eps))
                u, v = u.clone(), v.clone()
        sigma = torch.dot(u, mat @ v)
        return wrap(weight._t / sigma)

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer, layer.training))

    @staticmethod
    def apply(layer, name, n_power_iterations, dim, eps):
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError("Cannot register two spectral_norm hooks on the same "
                                   f"parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = layer._parameters[name]
        h, w = fn.reshape_weight_to_matrix(weight).shape
        # Paddle creates u and v as parameters (drawing their initializer) and then overwrites
        # them with normal draws: the same draws keep a seeded program's stream in step
        vecs = []
        for n in (h, w):
            p = layer.create_parameter([n])
            with torch.no_grad():
                p._t.copy_(normal(0.0, 1.0, shape=[n])._t)
                vecs.append(wrap(_normalize(p._t.detach(), fn.eps)))
        del layer._parameters[name]
        layer.add_parameter(name + "_orig", weight)
        setattr(layer, name, wrap(weight._t * 1.0))
        layer.register_buffer(name + "_u", vecs[0])
        layer.register_buffer(name + "_v", vecs[1])
        layer.register_forward_pre_hook(fn)
        return fn


def spectral_norm(layer, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divide ``layer.<name>`` by its largest singular value (power iteration, one step per
    training forward) with the weight seen as a matrix with axis ``dim`` first (default 1 for
    Linear and transposed convolutions, else 0). Returns ``layer``."""
    if dim is None:
        dim = 1 if isinstance(layer, (Conv1DTranspose, Conv2DTranspose, Conv3DTranspose,
                                      Linear)) else 0
    SpectralNorm.apply(layer, name, n_power_iterations, dim, eps)
    return layer
