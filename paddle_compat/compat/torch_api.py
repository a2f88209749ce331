"""``paddle.compat``: Paddle 3's functions with PyTorch's semantics and spelling.

``paddle.compat.min(x, 1)`` returns ``(values, indices)`` as torch does, where ``paddle.min``
reduces; ``paddle.compat.split(x, 2)`` cuts pieces *of size* 2, where ``paddle.split`` cuts
*into* 2; results come as the named tuples ``MinMaxRetType``, ``SortRetType``,
``MedianRetType``, ``SlogdetResult``. Each rejects Paddle's own keywords (``x``, ``axis`` ...)
with a ``TypeError`` that names the ``paddle.*`` function to use instead, as Paddle does.

The torch proxy switches (``enable_torch_proxy`` ...) make ``import torch`` load Paddle in real
Paddle. Here torch is the engine paddle_compat runs on, so that redirection cannot be done:
enabling it raises ``NotImplementedError``; disabling it (it is never on) does what Paddle does
when it is off.
"""
import contextlib
import functools
import warnings
from typing import NamedTuple

import torch

from ..framework import dtype as _dt
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor, wrap
from ..ops.random import seed as _paddle_seed
from ..ops.sets import unique as _paddle_unique
from ..random import default_generator as _gen

__all__ = ["equal", "slogdet", "sort", "split", "min", "max", "unique", "median", "nanmedian",
           "seed"]


class MinMaxRetType(NamedTuple):
    values: Tensor
    indices: Tensor


class SortRetType(NamedTuple):
    values: Tensor
    indices: Tensor


class MedianRetType(NamedTuple):
    values: Tensor
    indices: Tensor


class SlogdetResult(NamedTuple):
    sign: Tensor
    logabsdet: Tensor


def _forbid(kwargs, keys, api, instead):
    """Paddle's TypeError for a Paddle-style keyword given to a compat function."""
    found = sorted(k for k in keys if k in kwargs)
    if found:
        names = ", ".join(f"'{k}'" for k in found)
        raise TypeError(f"paddle.compat.{api}() received unexpected keyword argument"
                        f"{'s' if len(found) > 1 else ''} {names}. \nDid you mean to use "
                        f"{instead}() instead?")


def forbid_keywords(keys, api, instead):
    """Decorator: ``_forbid`` checked before the call (so before Python's own argument
    errors, as in Paddle)."""
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            _forbid(kwargs, keys, api, instead)
            return fn(*args, **kwargs)
        return wrapper
    return decorate


def _check_out(out, pair):
    """``out``: one Tensor, or (for results with indices) a list/tuple of two."""
    if out is None:
        return
    if not in_dynamic_mode():
        raise RuntimeError("Using `out` static graph CINN backend is currently not supported. "
                           "Directly return the tensor tuple instead.\n")
    if pair:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"Expected a list or tuple of two tensors, got {type(out)} instead.")
        if not (isinstance(out[0], Tensor) and isinstance(out[1], Tensor)):
            raise TypeError(f"Expected Tensor type in the tuple/list, got ({type(out[0])}, "
                            f"{type(out[1])}) instead.")
    elif not isinstance(out, Tensor):
        raise TypeError(f"Expected a Tensor, got {type(out)} instead.")


def _write(dst, src):
    """Put ``src``'s values into the ``out`` tensor ``dst`` (Paddle's ``assign``)."""
    dst._t = src._t.detach().clone() if src._t.requires_grad else src._t
    return dst


def _t(x, api, arg="input"):
    if isinstance(x, Tensor):
        return x._t
    raise TypeError(f"paddle.compat.{api}(): argument '{arg}' must be Tensor, but got "
                    f"{type(x).__name__}")


# ------------------------------------------------------------------------------ equal
@forbid_keywords(("x", "y"), "equal", "paddle.equal")
def equal(input, other):
    """``True`` if both tensors have the same shape and elements (after promoting to a common
    dtype); NaN is never equal. A Python bool, as torch.equal."""
    a, b = _t(input, "equal"), _t(other, "equal", "other")
    if a.dtype != b.dtype:
        common = torch.promote_types(a.dtype, b.dtype)
        a, b = a.to(common), b.to(common)
    return bool(a.shape == b.shape and torch.equal(a, b))


# ----------------------------------------------------------------------- min and max
_INTEGRAL = (torch.uint8, torch.int16, torch.int32, torch.int64)


def _dim_or_other(api, args, kwargs):
    """torch's overloads: (), (dim, keepdim=False) with an int dim, or (other) a Tensor."""
    def invalid(prefix=""):
        sig = ", ".join([type(v).__name__ for v in args]
                        + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        return TypeError(
            f"Invalid arguments for `paddle.compat.{api}`:\n{prefix}"
            f"Got: (paddle.Tensor input, {sig}), but expect one of:\n"
            f" - (input: paddle.Tensor) for reduce_{api} on all dims.\n"
            f" - (input: paddle.Tensor, other: paddle.Tensor) -> see paddle.{api}imum\n"
            f" - (input: paddle.Tensor, int dim (cannot be None), bool keepdim = False)\n")

    given = dict(zip(("dim", "keepdim"), args))
    if len(args) + len(kwargs) > 2 or len(args) > 2 or set(kwargs) - {"dim", "keepdim", "other"}:
        raise invalid()
    for k, v in kwargs.items():
        if k in given:
            raise invalid()
        given[k] = v
    if "other" in given:
        if "dim" in given or "keepdim" in given or not isinstance(given["other"], Tensor):
            raise invalid()
        return given["other"], False
    if not given:
        return None, False
    if "dim" not in given:
        raise invalid()
    dim, keepdim = given["dim"], given.get("keepdim", False)
    if dim is None or (isinstance(dim, Tensor) and "keepdim" in given):
        raise invalid()
    if not isinstance(dim, Tensor) and type(dim) is not int:
        raise invalid(f"The second input must be int or Tensor or implicit None in "
                      f"compat.{api}, but received {type(dim)}.\n")
    return dim, keepdim


def _min_max(api, input, args, out, kwargs):
    if not isinstance(input, Tensor):
        raise TypeError(f"input should be a tensor, but got an instance with type "
                        f"'{type(input).__name__}'")
    t = input._t
    if t.dtype in _INTEGRAL and not input.stop_gradient:
        raise TypeError(f"Tensors with integral type: '{_dt.from_torch_dtype(t.dtype)}' should stop "
                        "gradient.")
    dim, keepdim = _dim_or_other(api, args, kwargs)
    if dim is None:
        _check_out(out, False)
        ret = wrap(torch.amin(t) if api == "min" else torch.amax(t))
    elif isinstance(dim, Tensor):
        _check_out(out, False)
        ret = wrap(torch.minimum(t, dim._t) if api == "min" else torch.maximum(t, dim._t))
    else:
        _check_out(out, True)
        if t.dim() == 0:
            ret = MinMaxRetType(input, wrap(torch.zeros((), dtype=torch.int64, device=t.device)))
        else:
            # Paddle's CPU arg-reductions pass over NaN (an all-NaN slice gives index 0)
            key = t
            if t.is_floating_point():
                key = torch.nan_to_num(t, nan=float("inf") if api == "min" else float("-inf"),
                                       posinf=float("inf"), neginf=float("-inf"))
            idx = (torch.argmin if api == "min" else torch.argmax)(key, dim, keepdim=True)
            vals = torch.take_along_dim(t, idx, dim)
            if not keepdim:
                vals, idx = vals.squeeze(dim), idx.squeeze(dim)
            ret = MinMaxRetType(wrap(vals), wrap(idx))
    if out is not None:
        if isinstance(ret, MinMaxRetType):
            _write(out[0], ret.values)
            _write(out[1], ret.indices)
        else:
            _write(out, ret)
    return ret


@forbid_keywords(("x", "axis"), "min", "paddle.min")
def min(input, *args, out=None, **kwargs):  # noqa: A001
    """torch.min: ``min(x)`` the smallest element; ``min(x, dim, keepdim=False)`` a
    ``MinMaxRetType(values, indices)``; ``min(x, other)`` the elementwise minimum."""
    return _min_max("min", input, args, out, kwargs)


@forbid_keywords(("x", "axis"), "max", "paddle.max")
def max(input, *args, out=None, **kwargs):  # noqa: A001
    """torch.max: ``max(x)``, ``max(x, dim, keepdim=False)`` -> ``MinMaxRetType``, or
    ``max(x, other)``."""
    return _min_max("max", input, args, out, kwargs)


# ---------------------------------------------------------------------- median family
def _median(api, fn, input, dim, keepdim, out):
    t = _t(input, api)
    if dim is None:
        _check_out(out, False)
        r = wrap(fn(t))
        return _write(out, r) if out is not None else r
    _check_out(out, True)
    values, indices = fn(t, dim, keepdim)
    if fn is torch.nanmedian:      # an all-NaN slice: Paddle's index is 0
        indices = torch.where(torch.isnan(values), torch.zeros_like(indices), indices)
    r = MedianRetType(wrap(values), wrap(indices))
    if out is not None:
        return MedianRetType(_write(out[0], r.values), _write(out[1], r.indices))
    return r


@forbid_keywords(("x", "axis"), "median", "paddle.median")
def median(input, dim=None, keepdim=False, *, out=None):
    """The lower median (of all elements, or along ``dim`` as ``MedianRetType``)."""
    return _median("median", torch.median, input, dim, keepdim, out)


@forbid_keywords(("x", "axis"), "nanmedian", "paddle.nanmedian")
def nanmedian(input, dim=None, keepdim=False, *, out=None):
    """``median`` ignoring NaN (an all-NaN slice gives NaN at index 0)."""
    return _median("nanmedian", torch.nanmedian, input, dim, keepdim, out)


# ------------------------------------------------------------------------ linalg, sort
def slogdet(x, out=None):
    """``SlogdetResult(sign, logabsdet)`` of a (batch of) square matrices."""
    sign, logabs = torch.linalg.slogdet(_t(x, "slogdet", "x"))
    r = SlogdetResult(wrap(sign), wrap(logabs))
    if out is not None:
        _write(out[0], r.sign)
        _write(out[1], r.logabsdet)
    return r


@forbid_keywords(("x", "axis"), "sort", "paddle.sort")
def sort(input, dim=-1, descending=False, stable=False, out=None):
    """``SortRetType(values, indices)`` along ``dim``."""
    _check_out(out, True)
    values, indices = torch.sort(_t(input, "sort"), dim=dim, descending=descending,
                                 stable=stable)
    r = SortRetType(wrap(values), wrap(indices))
    if out is not None:
        _write(out[0], r.values)
        _write(out[1], r.indices)
    return r


# ----------------------------------------------------------------------- unique, split
@forbid_keywords(("x", "axis"), "unique", "paddle.unique")
def unique(input, sorted=True, return_inverse=False, return_counts=False,  # noqa: A002
           dim=None):
    """torch.unique's argument order: the unique values, then the inverse map and the counts
    when asked for (a tuple)."""
    return _paddle_unique(input, return_inverse=return_inverse, return_counts=return_counts,
                          axis=dim, sorted=sorted)


@forbid_keywords(("x", "num_or_sections", "axis", "name"), "split", "paddle.split")
def split(tensor, split_size_or_sections, dim=0):
    """torch.split: an int is the size of each piece (the last may be smaller), a list the
    sizes; a tuple of views."""
    t = _t(tensor, "split", "tensor")
    sizes = split_size_or_sections
    if isinstance(sizes, (list, tuple)):
        sizes = [int(s.item()) if isinstance(s, Tensor) else s for s in sizes]
        for i, s in enumerate(sizes):
            if s < 0:
                raise ValueError("paddle.compat.split expects split_sizes have only "
                                 f"non-negative entries, but got size = {s} on dim {i}")
    elif not isinstance(sizes, int):
        raise TypeError("The type of 'split_size_or_sections' in split must be int, list or "
                        f"tuple in imperative mode, but received {type(sizes)}.")
    if isinstance(dim, Tensor):
        dim = int(dim.item())
    rank = t.dim()
    if dim < -rank or dim >= rank:
        raise ValueError(f"(InvalidArgument) The dim is expected to be in range of [-{rank}, "
                         f"{rank}), but got {dim}")
    dim = dim + rank if dim < 0 else dim
    if isinstance(sizes, int):
        if sizes <= 0:
            raise AssertionError("split_size_or_sections must be greater than 0.")
        if t.shape[dim] == 0:
            return ()                       # Paddle: no pieces of an empty dim
    elif sum(sizes) != t.shape[dim]:
        raise ValueError(f"(InvalidArgument) The sum of sections ({sum(sizes)}) must equal "
                         f"the size of dim {dim} ({t.shape[dim]}).")
    return tuple(wrap(p) for p in torch.split(t, sizes, dim))


# -------------------------------------------------------------------------------- seed
def seed():
    """Seed every generator from OS entropy; returns the seed (torch.seed)."""
    s = _gen.seed()
    _paddle_seed(s)
    return s


# ------------------------------------------------------------------ torch proxy switches
_blocked = set()


def enable_torch_proxy(*, scope=None, blocked_modules=None, backend="torch", silent=False):
    """Not possible here: in Paddle it makes ``import torch`` load Paddle; paddle_compat runs
    on the real torch, which must stay what ``import torch`` gives."""
    raise NotImplementedError(
        "paddle.compat.enable_torch_proxy makes `import torch` load Paddle in real Paddle; "
        "paddle_compat runs on PyTorch itself, so `import torch` stays PyTorch. Torch code "
        "and paddle_compat code already mix directly (paddle_compat.to_torch / from_torch).")


def disable_torch_proxy():
    """The proxy is never on here: warns as Paddle does when it is not installed."""
    warnings.warn("torch compat is not installed.")


@contextlib.contextmanager
def use_torch_proxy_guard(*, enable=True, scope=None, silent=False):
    """``enable=False`` (the proxy off for a block) is what always holds here; ``enable=True``
    raises as ``enable_torch_proxy`` does."""
    if enable:
        enable_torch_proxy(scope=scope, silent=silent)
    yield


def extend_torch_proxy_blocked_modules(modules):
    """Modules the proxy must leave to the real torch (kept; the proxy never runs here)."""
    _blocked.update([modules] if isinstance(modules, str) else modules)


def paddle_triton_fun():
    raise NotImplementedError("paddle.compat.paddle_triton (Triton kernels through the torch "
                              "proxy) is not supported by paddle_compat")
