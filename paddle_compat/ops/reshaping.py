"""Shape changes and views: the same elements seen with another shape.

``reshape``/``view`` (Paddle's 0 keeps the input's dim), ``flatten``/``unflatten``/``ravel``,
``squeeze``/``unsqueeze`` (a list of axes is applied one after another), ``transpose(perm)``
and torch's ``permute``/``swapaxes``, ``moveaxis``, ``expand``/``broadcast_*``, ``atleast_nd``,
the strided views (``as_strided``, ``unfold``, ``set_``), the shape queries (``shape``,
``numel``, ``rank``, ``tolist``) and the whole-tensor methods ``clone``, ``fill_``.
"""
import numpy as np
import torch

from ..framework import dtype as _dt
from ..framework import mode as _mode
from ..framework.tensor import Tensor, wrap, writable
from .common import not_tensor, shape_arg
from .creation import to_tensor
from .manip_common import (_at_run_time, _inplace, _int, _int_list, _invalid, _static_payload,
                          _tensor, _tensors)
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


# ---------------------------------------------------------------------- reshape family
def _reshape_shape(t, shape):
    """Paddle's target shape: ints, Tensors, 0 copies the input dim at that position."""
    shape = list(shape_arg(shape, "reshape"))
    for i, d in enumerate(shape):
        if d == 0:
            shape[i] = t.shape[i]
    return shape


def _static_dims(t, shape, keep):
    """Paddle's static shape of an op on ``t`` to ``shape``, which holds Variables: a 1-d
    Variable gives that many unknown (-1) dims; in a list a Variable gives -1, an int ``keep``
    (reshape's 0, expand's -1) the input's dim there, any other int itself."""
    if isinstance(shape, Tensor):
        n = list(shape.shape)
        return [-1] * (n[0] if n and n[0] > 0 else 1)
    have = list(t.shape)
    lead = len(shape) - len(have)
    out = []
    for i, d in enumerate(shape):
        if isinstance(d, Tensor):
            out.append(-1)
        elif d == keep and keep is not None:
            j = i if keep == 0 else i - lead
            out.append(have[j] if 0 <= j < len(have) else -1)
        else:
            out.append(int(d))
    return out


@op(method=True, fast=("x_ints nonzero", torch.reshape))
def reshape(x, shape, *more, name=None):
    """Reshape to ``shape`` (list/tuple/Tensor; -1 inferred, 0 keeps the input's dim).
    As a method it also takes the dims as separate arguments: ``x.reshape(2, 3)``."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("reshape", "x", 0, x) from None
    if more:
        shape = (shape,) + more
    if _mode._static:
        anchor = _static_payload(shape)
        if anchor is not None:          # the shape is known when the program runs
            return _at_run_time(reshape, (x, shape), {}, _static_dims(t, shape, 0),
                                t.dtype)
    if (type(shape) is not list and type(shape) is not tuple) or 0 in shape:
        shape = _reshape_shape(t, shape)
    try:
        return wrap(torch.reshape(t, shape))      # torch.reshape parses faster than t.reshape
    except (RuntimeError, TypeError) as e:
        if isinstance(e, TypeError):
            return wrap(torch.reshape(t, _reshape_shape(t, shape)))
        raise _invalid(e) from None


@op(method=True)
def reshape_(x, shape, *more, name=None):
    return _inplace(x, reshape(x, shape, *more)._t)


@op(method=True, fast=("x", torch.flatten))
def flatten(x, start_axis=0, stop_axis=-1, name=None):
    """Merge axes start_axis..stop_axis into one (a 0-d x gives shape [1])."""
    if start_axis == 0 and stop_axis == -1 and type(x) is Tensor:
        return wrap(torch.flatten(x._t))        # hot path: all axes (a 0-d x gives [1] too)
    if not isinstance(x, Tensor):
        raise ValueError("The input x should be a Tensor")
    t = _tensor(x, "flatten")
    nd = max(t.dim(), 1)
    if (start_axis % nd) > (stop_axis % nd):
        raise ValueError("The stop_axis should be larger than stat_axis")
    try:
        return wrap(t.flatten(start_axis, stop_axis))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


@op(method=True)
def flatten_(x, start_axis=0, stop_axis=-1, name=None):
    return _inplace(x, flatten(x, start_axis, stop_axis)._t)


@op(method=True)
def ravel(input):
    """``flatten(input)``."""
    return flatten(input)


@op(method=True)
def unflatten(x, axis, shape, name=None):
    t = _tensor(x, "unflatten")
    try:
        return wrap(t.unflatten(_int(axis), shape_arg(shape, "unflatten")))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


@op(method=True, fast=("x x_int", torch.squeeze))
def squeeze(x, axis=None, name=None):
    """Drop size-1 axes (all, or those in ``axis``; axes of other sizes are left alone)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("squeeze", "x", 0, x) from None
    if axis is not None and _mode._static and not isinstance(t, torch.Tensor):
        # Paddle's static graph drops an unknown (-1) dim it is asked to squeeze
        dims = list(t.shape)
        axes = [a % len(dims) for a in _int_list(axis)] if dims else []
        if any(dims[a] == -1 for a in axes):
            return _at_run_time(squeeze, (x, axis), {},
                                [d for i, d in enumerate(dims) if i not in axes or d not in
                                 (1, -1)], t.dtype)
    try:                                        # torch.squeeze parses faster than t.squeeze
        if axis is None or (type(axis) in (list, tuple) and not axis):     # [] squeezes all
            return wrap(torch.squeeze(t))
        if type(axis) is int:
            return wrap(torch.squeeze(t, axis))
        return wrap(t.squeeze(tuple(_int_list(axis))))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


@op(method=True)
def squeeze_(x, axis=None, name=None):
    return _inplace(x, squeeze(x, axis)._t)


@op(method=True, fast=("x_int", torch.unsqueeze))
def unsqueeze(x, axis, name=None):
    """Insert size-1 axes; a list of axes is applied one after another, each negative axis
    counted against the rank reached so far (Paddle's rule)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("unsqueeze", "x", 0, x) from None
    if _mode._static and type(axis) is not int:
        anchor = _static_payload(axis)
        if anchor is not None:          # the axes are known when the program runs
            n = len(axis) if isinstance(axis, (list, tuple)) else _static_dims(t, axis, None)
            return _at_run_time(unsqueeze, (x, axis), {},
                                [-1] * (t.dim() + (n if isinstance(n, int) else len(n))),
                                t.dtype)
    try:
        if type(axis) is int:                   # torch.unsqueeze parses faster than the method
            return wrap(torch.unsqueeze(t, axis))
        for a in _int_list(axis):
            t = t.unsqueeze(a)
        return wrap(t)
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


@op(method=True)
def unsqueeze_(x, axis, name=None):
    return _inplace(x, unsqueeze(x, axis)._t)


# ---------------------------------------------------------------------- axis order
@op(method=True, fast=("x_ints", torch.permute))
def transpose(x, perm, name=None):
    """Permute the axes by ``perm`` (its length must equal x.ndim)."""
    try:
        return wrap(torch.permute(x._t, perm))
    except AttributeError:
        raise not_tensor("transpose", "x", 0, x) from None
    except (RuntimeError, IndexError, TypeError) as e:
        if isinstance(e, TypeError):
            p = _int_list(perm) if isinstance(perm, (list, tuple, Tensor)) else None
            if p is None or not all(type(v) is int for v in p):
                raise TypeError("(InvalidType) transpose(): argument 'perm' (position 1) must be "
                                f"list of int, but got {type(perm).__name__}") from None
            return transpose(x, p)
        raise _invalid(e) from None


@op(method=True)
def permute(input, *dims, **kwargs):
    """``transpose(input, dims)``; the dims given as one sequence (or ``dims=``) or as ints."""
    if "dims" in kwargs:
        dims = (kwargs.pop("dims"),)
    if kwargs:
        raise TypeError(f"permute() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if not dims:
        raise TypeError("permute() missing 1 required positional argument: 'dims'")
    if len(dims) == 1 and isinstance(dims[0], (list, tuple, Tensor)):
        dims = dims[0]
    return transpose(input, list(dims) if isinstance(dims, tuple) else dims)


@op(method=True)
def swapaxes(x, perm, *dims, name=None):
    """Paddle 3.3.1's alias of ``transpose(x, perm)``, which also takes torch's
    ``swapaxes(x, dim0, dim1)``."""
    if isinstance(perm, int) and len(dims) == 1 and isinstance(dims[0], int):
        t = _tensor(x, "transpose")
        try:
            return wrap(t.transpose(perm, dims[0]))
        except (RuntimeError, IndexError) as e:
            raise _invalid(e) from None
    return transpose(x, perm)


op(swapaxes, name="swapdims", method=True)


@op(method=True)
def moveaxis(x, source, destination, name=None):
    t = x._t
    try:
        if t.dim():
            return wrap(torch.movedim(t, source, destination))
    except (RuntimeError, IndexError) as e:
        _check_moveaxis(t.dim(), source, destination)
        raise _invalid(e) from None
    _check_moveaxis(0, source, destination)            # 0-d: only moveaxis(x, [], [])
    return wrap(torch.movedim(t, source, destination))


def _check_moveaxis(ndim, source, destination):
    """Paddle's checks of moveaxis's arguments, in its order and with its exception types."""
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise AssertionError("'source' must have the same number with 'destination'")
    for name, axes in (("source", src), ("destination", dst)):
        if len(axes) != len(set(axes)):
            raise ValueError(f"Each element of '{name}' must be unique!")
    for a in src + dst:
        if not -ndim <= a < ndim:
            raise AssertionError(f"'source' must be in the range of [-{ndim}, {ndim})")


# ---------------------------------------------------------------------- broadcasting
@op(method=True, fast=("x_ints", torch.broadcast_to))
def expand(x, shape, name=None):
    """Broadcast x to ``shape`` (-1 keeps a dim)."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("expand", "x", 0, x) from None
    if _mode._static:
        anchor = _static_payload(shape)
        if anchor is not None:          # the shape is known when the program runs
            return _at_run_time(expand, (x, shape), {}, _static_dims(t, shape, -1),
                                t.dtype)
    if type(shape) is not list and type(shape) is not tuple:
        if isinstance(shape, np.ndarray):           # Paddle takes a numpy array of ints too
            shape = shape.tolist()
        shape = shape_arg(shape, "expand")
    try:                                # torch.broadcast_to(t, s) is t.expand(s), parsed faster
        return wrap(torch.broadcast_to(t, shape))
    except (RuntimeError, TypeError) as e:
        if isinstance(e, TypeError):
            return wrap(t.expand(shape_arg(shape, "expand")))
        raise _invalid(e) from None


op(expand, name="broadcast_to", method=True)


@op(method=True)
def expand_as(x, y, name=None):
    try:
        return wrap(_tensor(x, "expand_as").expand_as(_tensor(y, "expand_as", "y", 1)))
    except RuntimeError as e:
        raise _invalid(e) from None


@op(method=True)
def broadcast_shape(x_shape, y_shape):
    """The broadcast of two shapes, as a list."""
    try:
        return list(torch.broadcast_shapes(tuple(x_shape), tuple(y_shape)))
    except RuntimeError as e:
        raise _invalid(e) from None


@op(method=True)
def broadcast_shapes(*shapes):
    """The broadcast of any number of shapes, as a list."""
    if not shapes:
        return []
    cur = list(shapes[0])
    for s in shapes[1:]:
        cur = broadcast_shape(cur, s)
    return cur


_BROADCAST_DTYPES = ("bool", "complex128", "complex64", "float16", "float32", "float64",
                     "int32", "int64")


@op(method=True)
def broadcast_tensors(input, name=None):
    if _mode.in_static_mode() and not isinstance(input, Tensor):
        # Paddle's static checks: TypeErrors for mixed or unsupported dtypes
        names = [_dt.from_torch_dtype(v._t.dtype).name for v in input if isinstance(v, Tensor)]
        if len(set(names)) > 1:
            raise TypeError("(InvalidType) All the Values in the input must have the same "
                            "data type.")
        bad = [n for n in names if n not in _BROADCAST_DTYPES + ("bfloat16",)]
        if bad:
            raise TypeError(f"(InvalidType) Check data type error for op: broadcast_tensors, "
                            f"input: input, input.dtype: {bad[0]}, and expected_dtype: "
                            f"{', '.join(_BROADCAST_DTYPES)}, ")
    ts = _tensors(input, "broadcast_tensors")
    if ts and _dt.from_torch_dtype(ts[0].dtype).name not in _BROADCAST_DTYPES + ("bfloat16",):
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_dt.from_torch_dtype(ts[0].dtype).name}) of kernel "
                           f"`broadcast_tensors` is not registered.")
    try:
        return [wrap(t) for t in torch.broadcast_tensors(*ts)]
    except RuntimeError as e:
        raise _invalid(e) from None


@op(method=True)
def atleast_1d(*inputs, name=None):
    return _atleast(inputs, torch.atleast_1d)


@op(method=True)
def atleast_2d(*inputs, name=None):
    return _atleast(inputs, torch.atleast_2d)


@op(method=True)
def atleast_3d(*inputs, name=None):
    return _atleast(inputs, torch.atleast_3d)


def _atleast(inputs, fn):
    """One input gives one Tensor, several give a list (Paddle's rule); one list or tuple that
    holds a Tensor is the inputs; anything else is made a Tensor as ``to_tensor`` does."""
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)) \
            and any(isinstance(v, Tensor) for v in inputs[0]):
        inputs = inputs[0]
    out = [wrap(fn(v._t if isinstance(v, Tensor) else to_tensor(v)._t)) for v in inputs]
    return out[0] if len(out) == 1 else out


# ---------------------------------------------------------------------- views
def _byte_offset(t, offset, esize, api):
    if offset % esize:
        raise NotImplementedError(f"{api}(): an offset of {offset} bytes that is not a multiple "
                                  f"of the element size ({esize}) is not supported")
    return offset // esize


@op(method=True)
def as_strided(x, shape, stride, offset=0, name=None):
    """A view of x's memory with the given shape, strides (in elements) and ``offset`` (in
    bytes, from the start of the memory x views, as Paddle counts it)."""
    t = _tensor(x, "as_strided")
    off = _byte_offset(t, offset, t.element_size(), "as_strided")
    return wrap(torch.as_strided(t, shape_arg(shape, "as_strided"),
                                 shape_arg(stride, "as_strided", 2), off))


@op(method=True)
def view(x, shape_or_dtype, name=None):
    """A view of x with another shape (-1 infers one dim) or another dtype (the bytes
    reinterpreted; the last dim scales with the element size)."""
    t = _tensor(x, "view")
    if isinstance(shape_or_dtype, (list, tuple, Tensor)):
        try:
            return wrap(t.view(shape_or_dtype))       # a list of ints: straight to torch
        except (TypeError, RuntimeError):
            pass
        shp = shape_arg(shape_or_dtype, "view")
        try:
            return wrap(t.view(shp))
        except RuntimeError as e:
            if 0 in shp:
                raise RuntimeError(f"(Unavailable) {e}") from None
            raise ValueError("(InvalidArgument) The 'shape' in ReshapeOp is invalid. The input "
                             f"tensor X'size must be equal to the capacity of 'shape'. But "
                             f"received X's shape = {list(t.shape)}, 'shape' is {list(shp)}.") \
                from None
    return wrap(t.view(_dt.convert_dtype(shape_or_dtype).torch))


@op(method=True)
def view_as(x, other, name=None):
    """``view(x, other.shape)``."""
    return view(x, list(_tensor(other, "view_as", "other", 1).shape))


@op(method=True)
def unfold(x, axis, size, step, name=None):
    """A view with every window of ``size`` elements along ``axis``, ``step`` apart, in a new
    last dim."""
    t = _tensor(x, "unfold")
    n = t.shape[axis] if t.dim() else 1
    if size > n:
        raise ValueError(f"(InvalidArgument) paddle.unfold size({size}) must be less than "
                         f"shape[axis]({n}).")
    if step <= 0:
        raise ValueError("(InvalidArgument) paddle.unfold step must be greater than 0")
    return wrap(t.unfold(axis, size, step))


@op(method=True, export=False)
def set_(x, source=None, shape=None, stride=None, offset=0, name=None):
    """Make x a view of ``source``'s memory (an empty tensor when None) with ``shape``,
    ``stride`` (elements) and ``offset`` (bytes from the start of that memory); x keeps its
    dtype, so a source of another dtype is reinterpreted, as in Paddle."""
    t = writable(x)
    if source is None:
        with torch.no_grad():
            t.set_(torch.empty(0, dtype=t.dtype, device=t.device))
        return x
    s = _tensor(source, "set_", "source", 1)
    shp = list(s.shape) if shape is None else list(shape_arg(shape, "set_"))
    if stride is None:
        stride, acc = [], 1
        for d in reversed(shp):
            stride.insert(0, acc)
            acc *= d
    with torch.no_grad():
        t.set_(s.untyped_storage(), _byte_offset(t, offset, t.element_size(), "set_"), shp,
               list(stride))
    return x


# ---------------------------------------------------------------------- the tensor as a whole
@op
def shape(input):
    """The shape as a 1-d int64 Tensor."""
    t = _tensor(input, "shape", "input")
    if not isinstance(t, torch.Tensor):         # a static Variable: its shape at run time
        out = torch._shape_as_tensor(t)
        # what is known before running (-1 for unknown dimensions), for
        # utils.try_get_constant_shape_from_tensor
        out.__dict__["_constant_shape"] = list(input.shape)
        return wrap(out)
    return wrap(torch.tensor(t.shape, dtype=torch.int64))


@op
def numel(x, name=None):
    """The element count as a 0-d int64 Tensor."""
    return wrap(torch.tensor(_tensor(x, "numel").numel(), dtype=torch.int64))


@op(method=True)
def rank(input):
    """The number of dimensions as a 0-d int32 tensor."""
    t = _tensor(input, "rank", "input")
    return wrap(torch.tensor(t.dim(), dtype=torch.int32))


@op
def tolist(x):
    """The elements as (nested) Python lists."""
    return _tensor(x, "tolist").tolist()


@op
def clone(x, name=None):
    try:
        return wrap(x._t.clone())
    except AttributeError:
        raise not_tensor("clone", "x", 0, x) from None


@op(method=True, export=False)
def fill_(x, value):
    """Fill x with the number ``value`` in place."""
    if not isinstance(value, (int, float)):
        raise TypeError(f"The type of 'value'  must be int or float, but received "
                        f"{type(value)}.")
    writable(x).fill_(value)
    return x


# Tensor.is_coalesced / Tensor.coalesce (and the other sparse methods) are registered by
# paddle_compat/sparse/tensor.py, bound lazily (_LAZY_METHODS in paddle_compat/__init__.py).
