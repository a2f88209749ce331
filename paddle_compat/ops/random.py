"""Seeded random tensors: ``seed``, ``randn``, ``rand``, ``uniform``, ``normal``, ``randint``,
``randperm``, ``bernoulli``, ``multinomial`` and the RNG state.

On CPU the numbers come from ``paddle_compat.random``'s engine, value for value the stream real
Paddle draws (one mt19937_64 shared by all ops). On CUDA, where Paddle uses a generator of its
own that we do not reproduce, torch's CUDA generator is used, seeded by the same ``seed``.
"""
import numpy as np
import torch

from ..framework import dtype as _dt
from ..framework.place import current_device
from ..framework.tensor import Tensor, wrap
from ..random import default_generator as _gen
from ..random import distributions as _dist
from .common import shape_arg, tensor_arg

__all__ = ["seed", "get_rng_state", "set_rng_state", "get_cuda_rng_state",
           "set_cuda_rng_state", "randn", "rand", "uniform", "normal", "standard_normal",
           "randint", "randperm", "bernoulli", "multinomial", "randint_like", "rand_like",
           "randn_like", "poisson"]


def seed(seed):
    """Seed every generator (the CPU stream, and torch's CUDA generators)."""
    seed = int(seed)
    _gen.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed % (1 << 64))
    return _gen


def get_rng_state(device=None):
    """Snapshots of the generator states (a list, as in Paddle)."""
    if device is not None and "gpu" in str(device):
        return get_cuda_rng_state()
    return [_gen.get_state()]


def set_rng_state(state_list, device=None):
    """Restore states taken by ``get_rng_state``."""
    if device is not None and "gpu" in str(device):
        return set_cuda_rng_state(state_list)
    _gen.set_state(state_list[0])


def get_cuda_rng_state():
    return [torch.cuda.get_rng_state(i) for i in range(torch.cuda.device_count())] \
        if torch.cuda.is_available() else []


def set_cuda_rng_state(state_list):
    for i, s in enumerate(state_list):
        torch.cuda.set_rng_state(s, i)


def _float_dtype(dtype, api):
    d = _dt.default_float() if dtype is None else _dt.convert_dtype(dtype)
    if not d.is_floating_point:          # Paddle: no kernel for that dtype
        raise RuntimeError(f"(NotFound) {api}(): random floats can not be drawn as {d.name}; "
                           "dtype must be one of float16, bfloat16, float32, float64")
    return d


def _on_cuda():
    return current_device().type == "cuda"


def _out(array, d):
    t = torch.from_numpy(np.ascontiguousarray(array))
    if t.dtype is not d.torch:
        t = t.to(d.torch)
    dev = current_device()
    return wrap(t if dev.type == "cpu" else t.to(dev))


def randn(shape, dtype=None, name=None):
    """Standard normal values."""
    d = _float_dtype(dtype, "randn")
    shp = shape_arg(shape, "randn")
    if _on_cuda():
        return wrap(torch.randn(shp, dtype=d.torch, device=current_device()))
    return _out(_dist.randn(_gen, shp, d.name), d)


standard_normal = randn


def rand(shape, dtype=None, name=None):
    """Uniform values in [0, 1)."""
    return uniform(shape, dtype, 0.0, 1.0, api="rand")


def uniform(shape, dtype=None, min=0.0, max=1.0, seed=0, name=None, api="uniform"):
    """Uniform values in [min, max) (Paddle 3 defaults: [0, 1)); a non-zero ``seed`` uses a
    private generator and leaves the global stream untouched."""
    d = _float_dtype(dtype, api)
    shp = shape_arg(shape, api)
    lo, hi = float(_item(min)), float(_item(max))
    if _on_cuda():
        return wrap(torch.empty(shp, dtype=d.torch, device=current_device()).uniform_(lo, hi))
    return _out(_dist.uniform(_gen, shp, d.name, lo, hi, seed=int(seed)), d)


def _item(v):
    return v._t.item() if isinstance(v, Tensor) else v


def normal(mean=0.0, std=1.0, shape=None, name=None):
    """Normal values; ``mean``/``std`` may be floats or Tensors (then they give the shape)."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        src = mean if isinstance(mean, Tensor) else std
        d = _dt.from_torch_dtype(src._t.dtype)
        if _on_cuda():
            m = mean._t if isinstance(mean, Tensor) else mean
            s = std._t if isinstance(std, Tensor) else std
            return wrap(torch.randn_like(src._t.detach()) * s + m)
        arr = lambda v: v._t.detach().cpu().numpy() if isinstance(v, Tensor) else float(v)
        return _out(_dist.normal_tensor(_gen, arr(mean), arr(std)), d)
    d = _dt.default_float()
    shp = shape_arg(shape if shape is not None else [1], "normal")
    if _on_cuda():
        return wrap(torch.empty(shp, dtype=d.torch, device=current_device()).normal_(mean, std))
    return _out(_dist.normal(_gen, shp, d.name, float(mean), float(std)), d)


def randint(low=0, high=None, shape=[1], dtype=None, name=None):
    """Integers in [low, high) (int64 by default); ``randint(n)`` draws from [0, n)."""
    if high is None:
        low, high = 0, low
    low, high = int(_item(low)), int(_item(high))
    if high <= low:
        raise ValueError(f"randint(): high ({high}) must be larger than low ({low})")
    d = _dt.int64 if dtype is None else _dt.convert_dtype(dtype)
    shp = shape_arg(shape, "randint")
    if _on_cuda():
        return wrap(torch.randint(low, high, shp, dtype=d.torch, device=current_device()))
    return _out(_dist.randint(_gen, low, high, shp, d.name), d)


def randint_like(x, low=0, high=None, dtype=None, name=None):
    """randint drawn as int64 (as Paddle does), then cast to ``dtype`` or x's dtype."""
    t = tensor_arg(x, "randint_like")
    d = _dt.convert_dtype(dtype) if dtype is not None else _dt.from_torch_dtype(t.dtype)
    return randint(low, high, list(t.shape)).astype(d)


def rand_like(x, dtype=None, name=None):
    t = tensor_arg(x, "rand_like")
    return rand(list(t.shape), dtype or _dt.from_torch_dtype(t.dtype))


def randn_like(x, dtype=None, name=None):
    t = tensor_arg(x, "randn_like")
    return randn(list(t.shape), dtype or _dt.from_torch_dtype(t.dtype))


def randperm(n, dtype="int64", name=None):
    """A random permutation of 0..n-1."""
    d = _dt.convert_dtype(dtype)
    if _on_cuda():
        return wrap(torch.randperm(int(n), dtype=d.torch, device=current_device()))
    return _out(_dist.randperm(_gen, int(n), d.name), d)


def bernoulli(x, p=None, name=None):
    """0/1 draws with probabilities ``x`` (same shape and dtype as x)."""
    t = tensor_arg(x, "bernoulli")
    if t.dtype not in (torch.float32, torch.float64):
        raise TypeError(f"bernoulli(): x must be float32 or float64, but received "
                        f"{_dt.from_torch_dtype(t.dtype).name}")
    if _on_cuda():
        return wrap(torch.bernoulli(t.detach()))
    return _out(_dist.bernoulli(_gen, t.detach().numpy()), _dt.from_torch_dtype(t.dtype))


def multinomial(x, num_samples=1, replacement=False, name=None):
    """Indices drawn from the categorical distributions in the rows of ``x`` (int64)."""
    t = tensor_arg(x, "multinomial")
    if _on_cuda():
        return wrap(torch.multinomial(t.detach(), num_samples, replacement))
    if t.dtype not in (torch.float32, torch.float64):
        raise TypeError(f"multinomial(): x must be float32 or float64, but received "
                        f"{_dt.from_torch_dtype(t.dtype).name}")
    return _out(_dist.multinomial(_gen, t.detach().cpu().numpy(), int(num_samples),
                                  bool(replacement)), _dt.int64)


def poisson(x, name=None):
    """Poisson draws with rates ``x`` (torch's generator; not Paddle's stream)."""
    return wrap(torch.poisson(tensor_arg(x, "poisson").detach()))
