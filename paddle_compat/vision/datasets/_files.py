"""What the image-set datasets share: finding a dataset file in Paddle's cache (never
downloading it), reading CIFAR's pickled batches without running untrusted pickle code, and
reading the numeric matrices of MATLAB 5 ``.mat`` files without scipy."""
import io
import os
import pickle
import struct
import zlib

import numpy as np

from ...utils.download import get_path_from_url

#: Paddle's cache folder for dataset files (``paddle.dataset.common.DATA_HOME``)
DATA_HOME = os.path.join(os.path.expanduser("~"), ".cache", "paddle", "dataset")


def check_exists_and_download(path, url, md5, module_name, download=True):
    """``path`` when it exists; else the cached copy of ``url`` under
    ``DATA_HOME/module_name`` (which must be there: paddle_compat does not download, and the
    RuntimeError says where to put the file)."""
    if path and os.path.exists(path):
        return path
    if download:
        return get_path_from_url(url, os.path.join(DATA_HOME, module_name), md5,
                                 decompress=False)
    raise ValueError(f"{path} not exists and auto download disabled")


# ---------------------------------------------------------------- restricted unpickling
def _frombuffer(buf, dtype, shape, order):
    if isinstance(dtype, _CheckedDtype):
        dtype = dtype.dtype
    arr = np.frombuffer(bytes(buf), dtype=_plain_dtype(dtype))
    return arr.reshape(shape, order=order).copy()


def _plain_dtype(*args):
    dt = np.dtype(*args[:1]) if args else np.dtype("u1")
    if dt.hasobject or dt.kind not in "biuf":
        raise pickle.UnpicklingError(f"refusing numpy dtype {dt!r} in a dataset pickle")
    return dt


class _PlainDtype:
    """Stands for ``numpy.dtype`` while unpickling: plain numeric dtypes only."""

    def __new__(cls, obj, align=False, copy=False):
        return _CheckedDtype(_plain_dtype(obj))


class _CheckedDtype:
    """A dtype under construction: pickle's BUILD step may only set byte order and the like,
    never fields or object members."""

    def __init__(self, dt):
        self.dtype = dt

    def __setstate__(self, state):
        if not isinstance(state, tuple) or len(state) < 2:
            raise pickle.UnpicklingError("bad numpy dtype state in a dataset pickle")
        if any(s is not None for s in state[2:5]):  # subarray, names, fields
            raise pickle.UnpicklingError("refusing structured numpy dtype in a dataset pickle")
        order = state[1]
        if order in ("<", ">", "=", "|"):
            self.dtype = self.dtype.newbyteorder("=" if order == "|" else order)


class SafeUnpickler(pickle.Unpickler):
    """Unpickles only what CIFAR's batches hold: dicts, lists, tuples, bytes, str, numbers and
    plain numeric numpy arrays. Any other global (a function, a class, ``os.system`` ...) is
    refused with ``pickle.UnpicklingError`` before anything runs."""

    _ALLOWED = {
        ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
        ("numpy", "ndarray"), ("numpy", "dtype"),
        ("numpy.core.numeric", "_frombuffer"), ("numpy._core.numeric", "_frombuffer"),
        ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"),
        ("_codecs", "encode"),  # how Python 3 writes bytes at protocol 2
    }

    def find_class(self, module, name):
        if (module, name) not in self._ALLOWED:
            raise pickle.UnpicklingError(
                f"refusing to load {module}.{name}: a dataset pickle may only hold plain data "
                "(dicts, lists, bytes, numbers, numeric numpy arrays)")
        if name == "_reconstruct":
            return _SafeReconstruct
        if name == "ndarray":
            return _NDARRAY
        if name == "dtype":
            return _PlainDtype
        if name == "encode":
            return _latin1_bytes
        if name == "scalar":
            return _scalar
        return _frombuffer


def _scalar(dtype, raw):
    """A numpy scalar (``numpy.int64(3)`` ...) from its dtype and raw bytes."""
    if isinstance(dtype, _CheckedDtype):
        dtype = dtype.dtype
    if isinstance(raw, str):
        raw = raw.encode("latin1")
    if not isinstance(dtype, np.dtype) or not isinstance(raw, bytes):
        raise pickle.UnpicklingError("bad numpy scalar in a dataset pickle")
    dt = _plain_dtype(dtype)
    if len(raw) != dt.itemsize:
        raise pickle.UnpicklingError("bad numpy scalar in a dataset pickle")
    return np.frombuffer(raw, dtype=dt)[0]


def _latin1_bytes(text, encoding="utf-8"):
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise pickle.UnpicklingError("bad bytes record in a dataset pickle")
    return text.encode("latin1")


class _NdarrayMarker:
    """Stands for ``numpy.ndarray`` while unpickling: only ``_reconstruct``'s first argument,
    never callable."""


_NDARRAY = _NdarrayMarker()


class _SafeReconstruct:
    """``numpy.core.multiarray._reconstruct(ndarray, shape, typecode)`` followed by BUILD with
    ``(version, shape, dtype, is_fortran, raw bytes)``: made into a real array only once the
    state is checked."""

    def __new__(cls, klass, shape, typecode):
        if klass is not _NDARRAY:
            raise pickle.UnpicklingError("only numpy.ndarray may be rebuilt")
        self = object.__new__(cls)
        self.array = None
        return self

    def __setstate__(self, state):
        if not isinstance(state, tuple) or len(state) != 5:
            raise pickle.UnpicklingError("bad numpy array state in a dataset pickle")
        _version, shape, dt, fortran, raw = state
        if isinstance(dt, _CheckedDtype):
            dt = dt.dtype
        if not isinstance(dt, np.dtype):
            raise pickle.UnpicklingError("bad numpy dtype in a dataset pickle")
        dt = _plain_dtype(dt)
        if isinstance(raw, str):  # a Python 2 str read with encoding='latin1'
            raw = raw.encode("latin1")
        if not isinstance(raw, (bytes, bytearray)):
            raise pickle.UnpicklingError("numpy array data must be raw bytes")
        shape = tuple(int(s) for s in shape)
        arr = np.frombuffer(bytes(raw), dtype=dt, count=int(np.prod(shape, dtype=np.int64)))
        self.array = arr.reshape(shape, order="F" if fortran else "C").copy()


def _unwrap(obj):
    """Replace the rebuilt-array stand-ins by their arrays, recursively."""
    if isinstance(obj, _SafeReconstruct):
        if obj.array is None:
            raise pickle.UnpicklingError("numpy array without data in a dataset pickle")
        return obj.array
    if isinstance(obj, _CheckedDtype):
        return obj.dtype
    if isinstance(obj, dict):
        return {k: _unwrap(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_unwrap(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_unwrap(v) for v in obj)
    return obj


def safe_load_pickle(fileobj, encoding="bytes"):
    """Load a data-only pickle (see ``SafeUnpickler``)."""
    return _unwrap(SafeUnpickler(fileobj, encoding=encoding).load())


# ---------------------------------------------------------------- MATLAB 5 .mat files
_MI = {1: "i1", 2: "u1", 3: "i2", 4: "u2", 5: "i4", 6: "u4", 7: "f4", 9: "f8", 12: "i8", 13: "u8"}
_MX = {6: "f8", 7: "f4", 8: "i1", 9: "u1", 10: "i2", 11: "u2", 12: "i4", 13: "u4", 14: "i8",
       15: "u8"}
_MI_MATRIX, _MI_COMPRESSED = 14, 15


class _MatUnsupported(Exception):
    pass


def _elements(buf, endian):
    """(type, payload) of each data element in ``buf``."""
    pos = 0
    while pos + 8 <= len(buf):
        first, second = struct.unpack_from(endian + "II", buf, pos)
        if first >> 16:  # small data element: size and type packed in the first word
            size, mtype = first >> 16, first & 0xFFFF
            yield mtype, buf[pos + 4: pos + 4 + size]
            pos += 8
            continue
        mtype, size = first, second
        yield mtype, buf[pos + 8: pos + 8 + size]
        pos += 8 + size
        if mtype != _MI_COMPRESSED:
            pos += (-size) % 8


def _numeric(mtype, payload, endian):
    if mtype not in _MI:
        raise _MatUnsupported(f"data type {mtype}")
    return np.frombuffer(payload, dtype=np.dtype(_MI[mtype]).newbyteorder(endian))


def _matrix(payload, endian):
    parts = list(_elements(payload, endian))
    if len(parts) < 4:
        raise _MatUnsupported("short matrix element")
    flags = _numeric(*parts[0], endian)
    mclass = int(flags[0]) & 0xFF
    complex_ = bool(int(flags[0]) & 0x800)
    if mclass not in _MX or complex_:
        raise _MatUnsupported(f"array class {mclass}")
    dims = [int(d) for d in _numeric(*parts[1], endian)]
    name = bytes(parts[2][1]).decode("latin1")
    real = _numeric(*parts[3], endian).astype(_MX[mclass])
    return name, real.reshape(dims, order="F")


def _read_mat5(data):
    if len(data) < 128:
        raise _MatUnsupported("not a MATLAB 5 file")
    version, mark = data[124:126], data[126:128]
    endian = {b"IM": "<", b"MI": ">"}.get(mark)
    if endian is None:
        raise _MatUnsupported("not a MATLAB 5 file")
    if struct.unpack(endian + "H", version)[0] != 0x0100:
        raise _MatUnsupported("MATLAB 7.3 (HDF5) file")
    out = {}
    for mtype, payload in _elements(data[128:], endian):
        if mtype == _MI_COMPRESSED:
            inner = zlib.decompress(payload)
            mtype, payload = next(_elements(inner, endian))
        if mtype != _MI_MATRIX:
            raise _MatUnsupported(f"top-level data type {mtype}")
        name, value = _matrix(payload, endian)
        out[name] = value
    return out


def loadmat(path):
    """{name: 2-D (or n-D) numpy array} of the numeric variables of a MATLAB 5 ``.mat`` file,
    with MATLAB's shapes and each variable's class dtype, as ``scipy.io.loadmat`` gives them.
    Files holding other things (cells, structs, sparse or complex matrices, MATLAB 7.3 HDF5)
    go to scipy.io when it is installed."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return _read_mat5(data)
    except (_MatUnsupported, struct.error, zlib.error, ValueError) as e:
        try:
            from scipy import io as scio  # optional: only for .mat content we do not parse
        except ImportError:
            raise ImportError(f"{path}: this .mat file holds {e}, which paddle_compat does not "
                              "read itself; install scipy (pip install scipy) to read it") from None
        return scio.loadmat(io.BytesIO(data))
