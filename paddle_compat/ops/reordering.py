"""Repeating and reordering elements: tile (and torch's repeat), repeat_interleave, flip,
reverse, rot90, roll; and diff, the differences of neighbours along an axis.
"""
import torch

from ..framework.tensor import Tensor, wrap
from .common import finish, not_tensor
from .manip_common import _int_list, _invalid, _out_of_range, _tensor
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


# ---------------------------------------------------------------------- repeat
@op(method=True)
def tile(x, repeat_times, name=None):
    t = _tensor(x, "tile")
    try:
        return wrap(t.tile(_int_list(repeat_times)))
    except RuntimeError as e:
        raise _invalid(e) from None


@op(method=True, export=False)
def repeat(input, *repeats, **kwargs):
    """``tile(input, repeats)`` (Tensor.repeat; the repeats as one sequence (or ``repeats=``)
    or separate ints)."""
    if "repeats" in kwargs:
        repeats = (kwargs.pop("repeats"),)
    if kwargs:
        raise TypeError(f"repeat() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if len(repeats) == 1:
        repeats = repeats[0]
        if isinstance(repeats, int):
            repeats = [repeats]
    return tile(input, repeats)


@op(method=True)
def repeat_interleave(x, repeats, axis=None, name=None, *, output_size=None):
    t = _tensor(x, "repeat_interleave")
    if isinstance(repeats, Tensor):
        r = repeats._t
        try:        # torch broadcasts one repeat count, Paddle wants one per element
            n = t.numel() if axis is None else t.shape[axis]
        except IndexError as e:
            raise _out_of_range(e) from None
        if r.numel() != n and n != -1:         # -1: a static dimension known at run time
            raise ValueError("(InvalidArgument) The length of Input(RepeatsTensor) must be the "
                             "same as length of Input(X) in axis. But received: "
                             f"[{r.numel()}], required: [{n}].")
        if not (isinstance(r, torch.Tensor) and isinstance(t, torch.Tensor)):
            # a static Variable: repeated when the program runs, that axis reads -1
            dims = [-1] if axis is None else list(x.shape)
            if axis is not None:
                dims[axis] = -1
            anchor = r if not isinstance(r, torch.Tensor) else t
            return wrap(anchor.record_dims(torch.repeat_interleave, (t, r, axis), {}, dims,
                                           t.dtype))
    else:
        r = repeats
        if r <= 0:
            raise ValueError("(InvalidArgument) repeats should be larger than zero")
    try:
        return wrap(torch.repeat_interleave(t, r, axis, output_size=output_size))
    except IndexError as e:
        raise _out_of_range(e) from None
    except RuntimeError as e:
        raise _invalid(e) from None


# ---------------------------------------------------------------------- reorder
@op(method=True)
def flip(x, axis, name=None):
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("flip", "x", 0, x) from None
    try:
        return wrap(t.flip(axis if type(axis) is not int else (axis,)))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


@op(method=True)
def reverse(x, axis, name=None):
    """x flipped along ``axis`` (an int or a list; an empty list copies)."""
    t = _tensor(x, "reverse")
    axes = _int_list(axis)
    return wrap(t.flip(axes) if axes else t.clone())


@op(method=True)
def rot90(x, k=1, axes=[0, 1], name=None):
    """x rotated by 90 degrees k times in the plane of ``axes``, from the first toward the
    second."""
    t = _tensor(x, "rot90")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError(f"expected total rotation axes == 2, but got axes = {len(axes)}")
    if t.dim() < 2:
        raise ValueError(f"expected total dims >= 2, but got total dims = {t.dim()}")
    nd = t.dim()
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == nd:
        raise ValueError(f"expected rotation axes to be different, but got axis0 = {axes[0]}, "
                         f"and axis1 = {axes[1]}")
    for i in (0, 1):
        if not -nd <= axes[i] < nd:
            raise ValueError(f"Rotation axis{i} out of range, axis{i} = {axes[i]}")
    return wrap(torch.rot90(t, k, axes))


@op(method=True)
def roll(x, shifts, axis=None, name=None):
    """Shift elements along ``axis`` (the flattened tensor when None), wrapping around."""
    t = _tensor(x, "roll")
    s = _int_list(shifts) if not isinstance(shifts, int) else shifts
    try:
        if axis is None:
            return wrap(torch.roll(t, s))
        return wrap(torch.roll(t, s, axis if isinstance(axis, int) else _int_list(axis)))
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


@op(method=True)
def diff(x, n=1, axis=-1, prepend=None, append=None, name=None, *, out=None):
    """n-th forward difference along ``axis`` (bool tensors: logical xor)."""
    t = _tensor(x, "diff")
    if n < 1:
        raise ValueError(f"(InvalidArgument) diff(): n must be a positive integer, but got {n}")
    if t.dim() == 0:
        raise IndexError("(OutOfRange) diff(): the input must be at least 1-D, but got 0-D")
    p = None if prepend is None else _tensor(prepend, "diff", "prepend", 4)
    a = None if append is None else _tensor(append, "diff", "append", 5)
    try:
        r = torch.diff(t, n, axis, p, a)
    except IndexError as e:
        raise _out_of_range(e) from None
    except RuntimeError as e:
        raise _invalid(e) from None
    return finish(wrap(r), out)
