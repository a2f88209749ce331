"""``paddle.save`` / ``paddle.load``: Paddle's pickle format, file for file.

Paddle writes two shapes of pickle (protocol 2-4, default 4):

* a *state dict* (a dict whose values are all Tensors, or dicts holding no Tensors, such as
  ``Layer.state_dict()`` / ``Optimizer.state_dict()``) becomes a plain dict of numpy arrays plus
  ``"StructuredToParameterName@@": {key: tensor.name}``;
* anything else is pickled as it is, each Tensor written as the tuple ``(name, ndarray)``
  (pickled as a call of ``builtins.tuple``).

bfloat16 arrays are stored as uint16 (as Paddle's ``numpy()`` gives them) and read back as
bfloat16. Loading turns the arrays back into Tensors following Paddle's rules: in a state dict
the named entries; elsewhere every ``(str, ndarray)`` tuple, or, when there is none, every
ndarray. Files written here are byte-identical to Paddle's for the same objects.

Loading never runs code from the file: the unpickler accepts only builtin containers, numpy
arrays/dtypes/scalars, ``collections.OrderedDict`` and the ``eval('data', {'data': array})``
form Paddle uses for a raw DenseTensor (answered without calling ``eval``).
"""
import collections
import copyreg
import io as _io
import os
import pickle
import threading
import warnings

import numpy as np
import torch

from . import hooks
from .mode import in_dynamic_mode
from .parameter import Parameter
from .place import current_device
from .tensor import Tensor, wrap

__all__ = ["save", "load", "async_save", "clear_async_save_task_queue"]

_NAME_TABLE = "StructuredToParameterName@@"
_BIG_PARAM = "UnpackBigParamInfor@@"  # typos: disable-line  (Paddle's spelling)
_LOAD_CONFIGS = ("model_filename", "params_filename", "keep_name_table", "return_numpy",
                 "safetensors")
_SAVE_CONFIGS = ("use_binary_format", "pickle_protocol", "safetensors")


# ---------------------------------------------------------------------- tensors <-> arrays
def _to_numpy(x):
    """The C-ordered numpy copy Paddle's ``np.array(tensor.cpu())`` gives (bf16 as uint16)."""
    t = x._t.detach()
    if t.device.type != "cpu":
        t = t.cpu()
    if t.dtype is torch.bfloat16:
        t = t.view(torch.int16)
    a = t.resolve_conj().numpy()
    if not a.flags.c_contiguous:
        a = a.copy(order="C")
    return a.view(np.uint16) if a.dtype == np.int16 and x._t.dtype is torch.bfloat16 else a


def _to_tensor(a, name=None):
    """A Tensor over the unpickled array ``a`` (uint16 read as bfloat16), on the current device."""
    if a.dtype == np.uint16:
        t = torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    else:
        if not a.flags.writeable:
            a = a.copy()
        t = torch.from_numpy(a)
    dev = current_device()
    if t.device != dev:
        t = t.to(dev)
    out = wrap(t)
    if name:
        out._name = name
    return out


# ---------------------------------------------------------------------- save
def _contains(obj, cond):
    """Paddle's walk over dict/OrderedDict/list/tuple looking for ``cond``."""
    if cond(obj):
        return True
    t = type(obj)
    if t is dict or t is collections.OrderedDict:
        return any(_contains(v, cond) for v in obj.values())
    if t is list or t is tuple:
        return any(_contains(v, cond) for v in obj)
    return False


def _is_paddle_object(v):
    return isinstance(v, Tensor) or hooks.is_layer(v)


def _is_state_dict(obj):
    if not isinstance(obj, dict):
        return False
    for value in obj.values():
        if isinstance(value, dict):
            if any(_contains(v, _is_paddle_object) for v in value.values()):
                return False
        elif not isinstance(value, Tensor):
            return False
    return True


def _check_protocol(protocol):
    if not isinstance(protocol, int):
        raise ValueError(f"The 'protocol' MUST be `int`, but received {type(protocol)}")
    if protocol < 2 or protocol > 4:
        raise ValueError(f"Expected 1<'protocol'<5, but received protocol={protocol}")


def _split_big_arrays(saved, protocol):
    """Protocols 2 and 3 cannot hold an array over 1 GiB: Paddle splits such arrays into
    ``key@@.i`` slices recorded under ``UnpackBigParamInfor@@``."""
    if protocol >= 4:
        return saved
    info = {}
    for key, value in list(saved.items()):
        if isinstance(value, np.ndarray):
            most = int((2 ** 30 - 1) / value.dtype.itemsize)
            if value.size > most:
                flat = value.flatten()
                names = [f"{key}@@.{i}" for i in range(-(-value.size // most))]
                info[key] = {"OriginShape": value.shape, "slices": names}
                del saved[key]
                for i, n in enumerate(names):
                    saved[n] = flat[i * most:(i + 1) * most]
    if info:
        saved[_BIG_PARAM] = info
    return saved


def _reduce_tensor(x):
    return (tuple, ((x.name, _to_numpy(x)),))


def _refuse_layer(layer):
    raise ValueError("paddle do not support saving `paddle.nn.Layer` object.")


def _pickle_any(obj, f, protocol):
    pickler = pickle.Pickler(f, protocol)
    table = copyreg.dispatch_table.copy()
    table[Tensor] = _reduce_tensor
    table[Parameter] = _reduce_tensor
    if _contains(obj, hooks.is_layer):
        for layer_type in _layer_types(obj):
            table[layer_type] = _refuse_layer
    pickler.dispatch_table = table
    pickler.dump(obj)


def _layer_types(obj):
    found = set()

    def visit(v):
        if hooks.is_layer(v):
            found.add(type(v))
        return False

    _contains(obj, visit)
    return found


def _open(path, mode):
    if isinstance(path, str):
        return open(path, mode)
    return _Borrowed(path)


class _Borrowed:
    """A caller's buffer used as a context manager without closing it."""

    def __init__(self, buf):
        self.buf = buf

    def __enter__(self):
        return self.buf

    def __exit__(self, *exc):
        return False


def _is_buffer(path):
    return isinstance(path, (_io.BytesIO, _io.BufferedReader, _io.BufferedWriter))


def save(obj, path, protocol=4, **configs):
    """Save ``obj`` (a state dict, a Tensor, or nested lists/tuples/dicts of Tensors, numpy
    arrays and Python values) to the file ``path`` or a BytesIO, in Paddle's format."""
    if isinstance(path, str):
        if os.path.basename(path) == "":
            raise ValueError("The input path MUST be format of dirname/filename [dirname\\filename"
                             " in Windows system], but received filename is empty string.")
        dirname = os.path.dirname(path)
        if dirname and not os.path.exists(dirname):
            os.makedirs(dirname, exist_ok=True)
    elif not _is_buffer(path):
        raise ValueError("only supports saving objects to file and `BytesIO`, but got "
                         f"{type(path)}")
    for key in configs:
        if key not in _SAVE_CONFIGS:
            raise ValueError(f"The additional config ({key}) of `paddle.save` is not supported.")
    if configs.get("use_binary_format") or configs.get("safetensors"):
        raise NotImplementedError("paddle.save: use_binary_format and safetensors are not "
                                  "supported; save the pickle format (the default)")
    if configs.get("pickle_protocol") is not None:
        protocol = configs["pickle_protocol"]
    _check_protocol(protocol)
    if _is_state_dict(obj):
        if len(obj) == 0:
            import warnings
            warnings.warn("The input state dict is empty, no need to save.")
        saved, names = {}, {}
        for key, value in obj.items():
            if isinstance(value, Tensor):
                saved[key] = _to_numpy(value)
                names[key] = value.name
            else:
                saved[key] = value
        saved[_NAME_TABLE] = names
        with _open(path, "wb") as f:
            pickle.dump(_split_big_arrays(saved, protocol), f, protocol=protocol)
    else:
        with _open(path, "wb") as f:
            _pickle_any(obj, f, protocol)


# ---------------------------------------------------------------------- load
def _dense_tensor_data(expr, scope):
    """Paddle pickles a raw DenseTensor as ``eval('data', {'data': array})``."""
    if expr == "data" and isinstance(scope, dict) and isinstance(scope.get("data"), np.ndarray):
        return scope["data"]
    raise pickle.UnpicklingError("paddle.load refuses to evaluate code from a file")


_SAFE = {
    ("builtins", "tuple"): tuple, ("builtins", "list"): list, ("builtins", "dict"): dict,
    ("builtins", "set"): set, ("builtins", "frozenset"): frozenset,
    ("builtins", "complex"): complex, ("builtins", "slice"): slice,
    ("builtins", "bytearray"): bytearray, ("builtins", "eval"): _dense_tensor_data,
    ("__builtin__", "eval"): _dense_tensor_data,
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("_codecs", "encode"): __import__("codecs").encode,
    ("numpy", "ndarray"): np.ndarray, ("numpy", "dtype"): np.dtype,
    ("copyreg", "_reconstructor"): copyreg._reconstructor,
}
# the functions numpy's pickles name (numpy 2 moved them from numpy.core to numpy._core; a
# checkpoint written under either numpy names either), taken from numpy's own reducers
for _mod in ("numpy.core.multiarray", "numpy._core.multiarray"):
    _SAFE[(_mod, "_reconstruct")] = np.ndarray.__reduce__(np.zeros(0))[0]
    _SAFE[(_mod, "scalar")] = np.float32(0).__reduce__()[0]
for _name in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
              "uint16", "bool_", "complex64", "complex128"):
    _SAFE[("numpy", _name)] = getattr(np, _name)


class _Unpickler(pickle.Unpickler):
    """Only the classes a Paddle checkpoint holds; anything else is refused."""

    def find_class(self, module, name):
        try:
            return _SAFE[(module, name)]
        except KeyError:
            raise pickle.UnpicklingError(
                f"paddle.load refuses '{module}.{name}': a Paddle checkpoint holds only "
                "containers, numbers, strings and numpy arrays") from None


def _join_big_arrays(obj):
    if isinstance(obj, dict) and _BIG_PARAM in obj:
        for key, value in obj[_BIG_PARAM].items():
            obj[key] = np.concatenate([obj[p] for p in value["slices"]]).reshape(
                value["OriginShape"])
            for p in value["slices"]:
                obj.pop(p)
        obj.pop(_BIG_PARAM)
    return obj


def _is_named_array(obj):
    """A Tensor as Paddle 2.1+ pickles it outside a state dict: ``(name, ndarray)``."""
    return (isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], str)
            and isinstance(obj[1], np.ndarray))


def _is_array(obj):
    """A raw DenseTensor as Paddle pickles it: a bare ndarray."""
    return isinstance(obj, np.ndarray)


def _convert(obj, cond, fn):
    """Paddle's rebuild walk: replace what ``cond`` picks, in place for lists and dicts."""
    if cond(obj):
        return fn(obj)
    t = type(obj)
    if t is dict or t is collections.OrderedDict:
        for k in list(obj):
            obj[k] = _convert(obj[k], cond, fn)
        return obj
    if t is list:
        for i, v in enumerate(obj):
            obj[i] = _convert(v, cond, fn)
        return obj
    if t is tuple:
        return tuple(_convert(v, cond, fn) for v in obj)
    if t is set:
        return {_convert(v, cond, fn) for v in obj}
    if hasattr(obj, "__iter__") and not isinstance(obj, (str, np.ndarray, Tensor)):
        raise NotImplementedError("The iterable objects supported are tuple, list, dict, "
                                  f"OrderedDict, string. But received {type(obj)}.")
    return obj


def _to_dense_tensor(ndarray):
    """A Tensor over ``ndarray`` on the current device (Paddle's ``_to_LodTensor``: in
    paddle_compat a DenseTensor is a Tensor)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError("Type of `ndarray` should be numpy.ndarray, but received "
                        f"{type(ndarray)}.")
    return _to_tensor(ndarray)


def _ndarray_to_tensor(obj, return_numpy):
    """One loaded raw array: itself (``return_numpy``) or a Tensor."""
    return obj if return_numpy else _to_tensor(obj)


def _tuple_to_tensor(obj, return_numpy):
    """One loaded ``(name, ndarray)``: the array (``return_numpy``) or a Tensor of that name."""
    return obj[1] if return_numpy else _to_tensor(obj[1], obj[0])


def _rebuild(obj, return_numpy):
    if _contains(obj, _is_named_array):
        return _convert(obj, _is_named_array, lambda p: _tuple_to_tensor(p, return_numpy))
    return _convert(obj, _is_array, lambda a: _ndarray_to_tensor(a, return_numpy))


# Paddle's private names for the pieces above (``paddle.framework.io._parse_every_object``
# ...), which PaddleNLP's and PaddleX's loaders import; ``EagerParamBase`` is the Parameter
# class, which Paddle imports into this module and libraries patch methods onto from here
_parse_every_object = _convert
_transformed_from_varbase = _is_named_array
_transformed_from_lodtensor = _is_array
_to_LodTensor = _to_dense_tensor
EagerParamBase = Parameter


def load(path, **configs):
    """Load what ``save`` (or real Paddle's ``paddle.save``) wrote to ``path`` (a file path or
    a BytesIO). Tensors come back on the current device; ``return_numpy=True`` gives arrays."""
    if not (_is_buffer(path) or (isinstance(path, str) and os.path.isfile(path))):
        raise ValueError(f"The ``path`` ({path}) to load model not exists.")
    for key in configs:
        if key not in _LOAD_CONFIGS:
            raise ValueError(f"The additional config ({key}) of `paddle.load` is not supported.")
    return_numpy = bool(configs.get("return_numpy", False))
    with _open(path, "rb") as f:
        try:
            obj = _Unpickler(f, encoding="latin1").load()
        except pickle.UnpicklingError as e:
            if "refuses" in str(e):
                raise
            raise ValueError(f"`paddle.load` can not parse the file:{path}.") from None
    if isinstance(obj, dict):
        obj = _join_big_arrays(obj)
        if _NAME_TABLE in obj:
            for key, name in obj[_NAME_TABLE].items():
                value = obj.get(key)
                if isinstance(value, np.ndarray):
                    obj[key] = value if return_numpy else _to_tensor(value, name)
            if not configs.get("keep_name_table"):
                del obj[_NAME_TABLE]
            return obj
    return _rebuild(obj, return_numpy)


_async_tasks = []


def _snapshot(obj):
    """``obj`` with every Tensor replaced by a CPU copy taken now (pinned on CUDA machines), so
    the caller may go on changing the originals while the file is written."""
    if isinstance(obj, dict):
        return type(obj)((k, _snapshot(v)) for k, v in obj.items())
    if isinstance(obj, Tensor):             # what save keeps of a tensor: its name and values
        t = obj._t.detach().to("cpu", copy=True)
        out = wrap(t.pin_memory() if torch.cuda.is_available() else t)
        out.name = obj.name
        return out
    return obj


def async_save(obj, path, protocol=4, sync_other_task=False, **configs):
    """``paddle.async_save``: ``save`` in a background thread. ``obj`` is a Tensor or a (nested)
    state dict, whose tensors are copied when this is called; ``sync_other_task`` first waits
    for the saves still running; ``clear_async_save_task_queue()`` waits for all of them."""
    if not in_dynamic_mode():
        raise ValueError("async_save currently is not supported in static mode.")
    if configs:
        warnings.warn("configs are not supported in async mode, will be overridden by default "
                      "settings.")
    if not isinstance(obj, (dict, Tensor)):
        raise TypeError(f"currently async_save does not support this type: {type(obj)}")
    obj = _snapshot(obj)
    if sync_other_task:
        clear_async_save_task_queue()
    task = threading.Thread(target=save, args=(obj, path, protocol), daemon=False)
    task.start()
    _async_tasks.append(task)


def clear_async_save_task_queue():
    """Wait until every ``async_save`` has written its file."""
    while _async_tasks:
        task = _async_tasks.pop()
        if task.is_alive():
            task.join()
