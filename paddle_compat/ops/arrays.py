"""Paddle's tensor arrays (``paddle.tensor.create_array``, ``array_write``, ``array_read``,
``array_length``; Paddle's ``DenseTensorArray``).

In dygraph an array is a plain Python list, as in Paddle. While a static program is built it is
a ``TensorArray`` (a list of the Variables written, of one dtype): the writes' indices must be
known then (ints, or tensors made by creation ops such as ``fill_constant``, which the program
holds as constants), and ``paddle.stack`` of it reports the stacked axis as -1, as Paddle does
for an array whose length is known only at run time.
"""
import torch

from ..framework import dtype as _dt
from ..framework import mode as _mode
from ..framework.tensor import Tensor, wrap

__all__ = []


class TensorArray(list):
    """A tensor array of a static program: the Variables written, in order; ``dtype`` the
    dtype it was created with."""

    def __init__(self, dtype, items=()):
        super().__init__(items)
        self.dtype = _dt.convert_dtype(dtype)

    @property
    def shape(self):
        return [0]

    def __repr__(self):
        return f"TensorArray(dtype={self.dtype.name}, length={len(self)})"


def _index(i, api):
    """The concrete index of ``array_write``/``array_read``: an int, or a one-element
    integer tensor."""
    if isinstance(i, Tensor):
        if not isinstance(i._t, torch.Tensor):
            i._t.item()             # a Variable: StaticGraphError naming what was asked
        return int(i._t.reshape(-1)[0].item())
    if _mode.in_dynamic_mode():
        raise AssertionError(f"The index 'i' in {api} must be Variable in dygraph mode")
    return int(i)


def create_array(dtype, initialized_list=None):
    """An empty tensor array of ``dtype`` (holding ``initialized_list``'s tensors when given):
    a list in dygraph, a ``TensorArray`` in a static program."""
    items = list(initialized_list or [])
    for v in items:
        if not isinstance(v, Tensor):
            raise TypeError(f"All values in `initialized_list` should be Variable, but "
                            f"received {type(v)}.")
    return items if _mode.in_dynamic_mode() else TensorArray(dtype, items)


def array_write(x, i, array=None):
    """Write ``x`` at index ``i`` of ``array`` (a new array when None): index ``len(array)``
    appends; returns the array."""
    if not isinstance(x, Tensor):
        raise TypeError(f"The type of 'x' in array_write must be Tensor, but received "
                        f"{type(x).__name__}")
    k = _index(i, "array_write")
    if array is None:
        array = create_array(_dt.from_torch_dtype(x._t.dtype))
    if k > len(array) or k < 0:
        raise AssertionError("The index 'i' should not be greater than the length of 'array' "
                             "in dygraph mode")
    if k == len(array):
        array.append(x)
    else:
        array[k] = x
    return array


def array_read(array, i):
    """The tensor at index ``i`` of ``array``."""
    return array[_index(i, "array_read")]


def array_length(array):
    """The number of tensors in ``array``: an int in dygraph, an int64 tensor of shape [1]
    in a static program."""
    if _mode.in_dynamic_mode():
        return len(array)
    return wrap(torch.tensor([len(array)], dtype=torch.int64))


def unknown_length(stacked, axis):
    """``paddle.stack`` of a static TensorArray: the stacked axis reads -1 (its length is
    known at run time in Paddle)."""
    t = stacked._t
    if isinstance(t, torch.Tensor):     # every item a constant of the program: the program's
        tracer = stacked.block.program.tracer       # Variable holding their stack
        stacked = wrap(tracer.record("call_function", torch.clone, (t,), {}))
    node = stacked._t.node
    a, b = node.meta["pv"]
    shape = list(b.shape)
    shape[axis % len(shape)] += 1
    node.meta["pv"] = (a, torch.empty(shape, dtype=b.dtype, device=b.device))
    return stacked
