"""``paddle.base.DataFeeder``: a reader's samples -> the ``feed`` dict of ``Executor.run``.

``DataFeeder(feed_list, place, program=None)`` remembers each fed Variable's name, shape and
dtype. ``feed_list`` holds Variables; names of Variables in ``program`` (default: the main
program) only with ``FLAGS_enable_pir_api`` off, as in Paddle, whose PIR mode refuses them.
``feed(iterable)`` takes samples, each a tuple with one slot per Variable, and gives
``{name: array}``: per Variable the slots stacked into one numpy array of its dtype and,
where the rank differs, reshaped to its shape (one ``-1``/``None`` dimension is the batch).
As in Paddle 3.3.1 (its PIR path), nested lists/tuples in a slot are flattened first.
"""
import numpy as np

from ..framework import dtype as _dt
from ..framework.flags import get_flags
from ..framework.tensor import Tensor
from .program import default_main_program

__all__ = ["DataFeeder"]


def _flatten_into(out, data):
    if isinstance(data, (list, tuple)):
        for item in data:
            _flatten_into(out, item)
    else:
        out.append(data)


class DataFeeder:
    """Turns mini-batches of samples into feed dicts; see the module docstring."""

    def __init__(self, feed_list, place, program=None):
        self.place = place
        program = default_main_program() if program is None else program
        self.feed_names, self.feed_shapes, self.feed_dtypes = [], [], []
        for var in feed_list:
            if isinstance(var, str):
                if get_flags("FLAGS_enable_pir_api")["FLAGS_enable_pir_api"]:
                    raise ValueError("In PIR Mode, Not supported string input yet")
                var = program.global_block().var(var)
            if not isinstance(var, Tensor):
                raise TypeError("Feed list should contain a list of variable")
            self.feed_names.append(var.name)
            self.feed_shapes.append([-1 if s is None else int(s) for s in var.shape])
            self.feed_dtypes.append(_dt.convert_dtype(var.dtype).name)

    def _convert(self, slots, shape, dtype):
        np_dtype = np.float32 if dtype == "bfloat16" else np.dtype(dtype)
        arr = np.array(slots, dtype=np_dtype)
        if sum(s < 0 for s in shape) <= 1 and arr.ndim != len(shape):
            try:
                arr = arr.reshape(shape)
            except ValueError:
                raise ValueError(f"Reshape error. What is defined in data layer is {shape}, "
                                 f"but receive {list(arr.shape)}") from None
        return arr

    def feed(self, iterable):
        """``{name: numpy array}`` for ``Executor.run(feed=...)`` from an iterable of samples."""
        columns = [[] for _ in self.feed_names]
        for sample in iterable:
            if len(sample) != len(columns):
                raise AssertionError(f"The number of fields in data ({len(sample)}) does not "
                                     f"match len(feed_list) ({len(columns)})")
            for column, slot in zip(columns, sample):
                _flatten_into(column, slot)
        return {name: self._convert(col, shape, dtype) for name, col, shape, dtype
                in zip(self.feed_names, columns, self.feed_shapes, self.feed_dtypes)}
