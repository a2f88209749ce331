"""``paddle.MmapStorage``: a file's first ``nbytes`` bytes mapped into memory, sliced into
Tensors without reading the file.

The mapping is copy-on-write (numpy's ``memmap`` mode ``'c'``, as Paddle's): writes into a
slice are seen by the other slices of the same storage, never by the file, and pages nobody
wrote follow later changes of the file.

``get_slice(dtype, start, stop, step)`` follows what Paddle 3.3.1 does, which is not what its
docstring says: ``start`` is a *byte* offset into the mapping and the slice holds
``(stop - start) // step`` consecutive elements of ``dtype`` from there (``step`` does not
stride). With ``start=0`` (the documented use: ``get_slice(dtype, 0, n)`` gives the first n
elements) the two readings agree. Where Paddle reads past the mapping or crashes (a slice
beyond ``nbytes``, a negative ``start``) this raises ValueError; an empty or negative length
gives an empty Tensor.
"""
import os

import numpy as np
import torch

from . import dtype as _dt
from .tensor import wrap

__all__ = ["MmapStorage"]


class MmapStorage:
    """``MmapStorage(filename, nbytes)``: map ``nbytes`` bytes of ``filename`` (the whole file
    when ``nbytes <= 0``); RuntimeError when the file cannot be opened or is shorter."""

    def __init__(self, filename, nbytes):
        try:
            size = os.path.getsize(filename)
            with open(filename, "rb"):
                pass
        except OSError:
            raise RuntimeError(f"(Unavailable) unable to open file <{filename}> in read-only "
                               "mode.") from None
        nbytes = int(nbytes)
        if nbytes > size:
            raise RuntimeError(f"(Unavailable) file <{filename}> size <{size}> is smaller than "
                               f"the required mapping size <{nbytes}>")
        self.filename = filename
        self.nbytes = size if nbytes <= 0 else nbytes
        self._map = np.memmap(filename, dtype=np.uint8, mode="c", shape=(self.nbytes,)) \
            if self.nbytes else np.zeros(0, np.uint8)
        self._bytes = torch.from_numpy(self._map)

    def get_slice(self, dtype="uint8", start=0, stop=-1, step=1):
        """``(stop - start) // step`` elements of ``dtype`` beginning at byte ``start``."""
        tdtype = _dt.convert_dtype(dtype).torch
        start, stop, step = int(start), int(stop), int(step)
        if step <= 0:
            raise ValueError(f"MmapStorage.get_slice(): step must be positive, got {step}")
        count = max((stop - start) // step, 0)
        item = torch.empty((), dtype=tdtype).element_size()
        if start < 0 or start + count * item > self.nbytes:
            raise ValueError(f"MmapStorage.get_slice(): {count} elements of {item} bytes from "
                             f"byte {start} go past the {self.nbytes} mapped bytes")
        raw = self._bytes[start:start + count * item]
        if start % item:                 # unaligned: torch views only aligned storage
            raw = raw.clone()
        return wrap(raw.view(tdtype))
