"""Paddle's LoDTensor stream (a ``.pdiparams`` file, a ``save_vars`` file): reading it.

Each tensor: ``uint32`` version (0), ``uint64`` LoD level count and per level a ``uint64`` byte
size and that many bytes, ``uint32`` tensor version (0), ``int32`` size of a ``TensorDesc``
protobuf message (field 1: the VarType data type code as a varint, field 2: the dims as int64
varints), then the raw little-endian data. Read with ``struct``, numpy and a small varint
reader: nothing in a file is executed. Model-file readers (``jit``) and static mode's file API
(``static.io``) both use it.
"""
import struct

import numpy as np
import torch

__all__ = ["VARTYPE", "ModelFileError", "read_tensors", "read_pdiparams", "varint",
           "signed64"]

# Paddle's VarType data types (framework.proto) as numpy dtypes
VARTYPE = {0: np.bool_, 1: np.int16, 2: np.int32, 3: np.int64, 4: np.float16, 5: np.float32,
           6: np.float64, 20: np.uint8, 21: np.int8, 22: "bfloat16", 23: np.complex64,
           24: np.complex128}
_MAX_DIMS = 16
_MAX_NUMEL = 1 << 34


class ModelFileError(ValueError):
    """A model file that cannot be read: what is wrong and in which file."""


class _Reader:
    def __init__(self, data, path):
        self.data, self.pos, self.path = data, 0, path

    def take(self, n, what):
        if n < 0 or self.pos + n > len(self.data):
            raise ModelFileError(f"{self.path}: truncated: needed {n} bytes for {what} at byte "
                                 f"{self.pos}, the file has {len(self.data)}")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def unpack(self, fmt, what):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt), what))[0]


def varint(buf, i, path):
    shift = out = 0
    while True:
        if i >= len(buf):
            raise ModelFileError(f"{path}: a TensorDesc ends inside a varint")
        b = buf[i]
        i += 1
        out |= (b & 0x7F) << shift
        if not b & 0x80:
            return out, i
        shift += 7
        if shift > 63:
            raise ModelFileError(f"{path}: a TensorDesc has a varint longer than 10 bytes")


def signed64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _tensor_desc(buf, path):
    """(data type, dims) from a serialized ``TensorDesc`` message."""
    dtype, dims, i = None, [], 0
    while i < len(buf):
        key, i = varint(buf, i, path)
        field, wire = key >> 3, key & 7
        if wire == 0:
            v, i = varint(buf, i, path)
            if field == 1:
                dtype = v
            elif field == 2:
                dims.append(signed64(v))
        elif wire == 2:
            n, i = varint(buf, i, path)
            if i + n > len(buf):
                raise ModelFileError(f"{path}: a TensorDesc field runs past its message")
            if field == 2:               # packed dims
                end, j = i + n, i
                while j < end:
                    v, j = varint(buf, j, path)
                    dims.append(signed64(v))
            i += n
        elif wire == 5:
            i += 4
        elif wire == 1:
            i += 8
        else:
            raise ModelFileError(f"{path}: a TensorDesc has a field of wire type {wire}")
    if dtype is None:
        raise ModelFileError(f"{path}: a TensorDesc has no data type")
    return dtype, dims


def read_pdiparams(path, count=None):
    """The tensors of a combined ``.pdiparams`` file, in file order, as numpy arrays
    (bfloat16 as a torch tensor). ``count``: how many the file must hold exactly."""
    with open(path, "rb") as f:
        return read_tensors(f.read(), path, count)


def read_tensors(data, path, count=None):
    """The tensors of LoDTensor streams one after the other (the bytes of a ``.pdiparams``, a
    ``save_vars`` file; ``path`` names them in errors)."""
    r = _Reader(data, path)
    out = []
    while r.pos < len(r.data) and (count is None or len(out) < count):
        k = len(out)
        what = f"tensor {k}"
        version = r.unpack("<I", what + "'s version")
        if version != 0:
            raise ModelFileError(f"{path}: {what} has version {version}, only 0 is known")
        lod_levels = r.unpack("<Q", what + "'s LoD level count")
        if lod_levels > 64:
            raise ModelFileError(f"{path}: {what} claims {lod_levels} LoD levels")
        for _ in range(lod_levels):
            r.take(r.unpack("<Q", what + "'s LoD size"), what + "'s LoD")
        tversion = r.unpack("<I", what + "'s tensor version")
        if tversion != 0:
            raise ModelFileError(f"{path}: {what} has tensor version {tversion}, only 0 is known")
        dsize = r.unpack("<i", what + "'s TensorDesc size")
        code, dims = _tensor_desc(r.take(dsize, what + "'s TensorDesc"), path)
        if code not in VARTYPE:
            raise ModelFileError(f"{path}: {what} has unknown data type code {code}")
        if len(dims) > _MAX_DIMS or any(d < 0 for d in dims):
            raise ModelFileError(f"{path}: {what} has invalid dims {dims}")
        numel = int(np.prod(dims, dtype=np.int64)) if dims else 1
        if numel > _MAX_NUMEL:
            raise ModelFileError(f"{path}: {what} claims {numel} elements")
        dt = VARTYPE[code]
        if dt == "bfloat16":
            raw = r.take(numel * 2, what + "'s data")
            arr = torch.frombuffer(bytearray(raw), dtype=torch.bfloat16).reshape(dims) \
                if numel else torch.zeros(dims, dtype=torch.bfloat16)
        else:
            dt = np.dtype(dt).newbyteorder("<")
            raw = r.take(numel * dt.itemsize, what + "'s data")
            arr = np.frombuffer(raw, dtype=dt).reshape(dims).astype(dt.newbyteorder("="))
        out.append(arr)
    if count is not None and len(out) != count:
        raise ModelFileError(f"{path}: holds {len(out)} tensors, the program has {count} "
                             "parameters")
    if r.pos != len(r.data):
        raise ModelFileError(f"{path}: {len(r.data) - r.pos} bytes left after the last tensor")
    return out
