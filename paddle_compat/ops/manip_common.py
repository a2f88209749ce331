"""Argument and error helpers shared by the shape and layout op modules (reshaping, joining,
slicing, gather_scatter, matrices, reordering, sets).

Paddle raises ``ValueError`` where torch raises ``RuntimeError``/``IndexError`` for bad shapes
and axes (``_invalid`` converts), accepts 1-element Tensors for axes (``_int``, ``_int_list``)
and refuses lists of tensors of mixed dtypes (``_same_dtype``).
"""
import torch
from torch.utils._pytree import tree_map

from ..framework import dtype as _dt
from ..framework.tensor import Tensor, wrap, writable
from .common import at_run_time, not_tensor, static_payload


def _invalid(e):
    """Paddle's ValueError for a shape/axis error torch reported as RuntimeError/IndexError."""
    msg = str(e)
    if msg.startswith("Dimension out of range"):        # name the argument, as Paddle does
        msg = "Attr(axis) is out of range: " + msg
    return ValueError(f"(InvalidArgument) {msg}")


def _out_of_range(e):
    """Paddle's IndexError for an axis out of range (its kernels' OutOfRange errors)."""
    return IndexError(f"(OutOfRange) {e}")


def _tensor(x, api, arg="x", pos=0):
    if type(x) is Tensor:
        return x._t
    if isinstance(x, Tensor):
        return x._t
    raise not_tensor(api, arg, pos, x)


def _int(v):
    """A Python int from an int or a 1-element Tensor (Paddle accepts both for axes)."""
    return int(v._t.item()) if isinstance(v, Tensor) else v


def _int_list(v):
    """A list of ints from an int, a list/tuple of ints or Tensors, or a Tensor."""
    if isinstance(v, Tensor):
        return [int(i) for i in v._t.reshape(-1).tolist()]
    if isinstance(v, (list, tuple)):
        return [_int(i) for i in v]
    return [v]


def _same_dtype(ts, api):
    dt = ts[0].dtype
    for i, s in enumerate(ts):
        if s.dtype is not dt:
            raise ValueError(f"(InvalidArgument) {api}(): the data_type of input tensor in list "
                             f"isn't consistent, the first tensor is "
                             f"{_dt.from_torch_dtype(dt).name}, but {i}th tensor is "
                             f"{_dt.from_torch_dtype(s.dtype).name}.")
    return ts


def _tensors(xs, api):
    if isinstance(xs, Tensor):
        return list(xs._t.unbind(0))
    return _same_dtype([_tensor(v, api, "x", 0) for v in xs], api)


def _inplace(x, t):
    """Rebind x to the (view) result t: Paddle's in-place shape ops. On a static Variable the
    result is a new Variable and x keeps its value, as in Paddle's static mode."""
    writable(x)
    if not isinstance(x._t, torch.Tensor):
        return wrap(t)
    x._t = t
    return x


# ---------------------------------------------------------------------- values known at run time
def _static_payload(*vals):
    """The payload of the first static Variable among ``vals`` (Tensors, or lists/tuples that
    hold them), or None: Paddle's static graph takes shapes, axes, starts and sections as
    Variables (ShapeTensor, AxesTensor(List), StartsTensor(List)...) and reads their values
    only when the program runs."""
    return static_payload(vals)


_RUNNERS = {}


def _runner(api):
    """The function a static program calls for ``api`` when it runs: ``api`` itself, eagerly,
    on the values its Variables hold then (tensors given back as Tensors)."""
    fn = _RUNNERS.get(api)
    if fn is None:
        def fn(part, args, kwargs):
            args, kwargs = tree_map(lambda v: wrap(v) if isinstance(v, torch.Tensor) else v,
                                    (args, kwargs))
            out = api(*args, **kwargs)
            return (out if part is None else out[part])._t
        fn.__name__ = fn.__qualname__ = getattr(api, "__name__", "op")
        _RUNNERS[api] = fn
    return fn


def _at_run_time(api, args, kwargs, dims, dtype, part=None):
    """Record ``api(*args, **kwargs)`` into the static program of the Variables among its
    arguments (see ``_static_payload``): the program calls ``api`` eagerly when it runs, with
    the values its Variables hold then. ``dims`` is Paddle's static shape of the output (-1
    where it is known only then), ``dtype`` its torch dtype; ``part`` picks one output of an
    api that gives several."""
    return at_run_time(_runner(api), (part, tuple(args), kwargs), dims, dtype)
