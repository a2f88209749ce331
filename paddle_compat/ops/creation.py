"""Creation ops: ``to_tensor``, ``zeros``/``ones``/``full``/``empty`` and their ``*_like`` forms,
``arange``, ``linspace``, ``logspace``, ``eye``, ``assign``, ``triu_indices``/``tril_indices``;
new tensors go to the current device.

Paddle's dtype inference: a Python float gives the default float dtype, an int gives int64, a
bool gives bool, a complex gives complex64 (complex128 under a float64 default); numpy arrays
and torch tensors keep their dtype, and a torch tensor is taken without a copy.
"""
import math
import re

import numpy as np
import torch
import torch.fx

from ..framework import dtype as _dt
from ..framework import mode as _mode
from ..framework.dtype import _Defaults
from ..framework.place import _Current, current_device, to_torch_device
from ..framework.tensor import Tensor, copy_whole, wrap
from .common import at_run_time, dtype_or_default, no_kernel_error as _no_kernel_error, shape_arg, \
    tensor_arg
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names

_CPU = torch.device("cpu")
_torch_default_dtype = torch.get_default_dtype


def _python_data_to_torch(data, target=None):
    """torch tensor for Python/numpy data, with Paddle's dtype inference. Python floats go
    straight to the floating ``target`` dtype where one is asked for (to_tensor(0.1,
    dtype='float64') holds the double 0.1, never float32(0.1))."""
    tp = type(data)
    if tp is float:                       # Python scalars skip numpy (faster, and traceable
        if target is None or not (target.is_floating_point or target.is_complex):  # by
            target = _dt.default_float().torch                                 # torch.compile)
        return torch.tensor(data, dtype=target)
    if tp is int:
        return torch.tensor(data, dtype=torch.int64)
    if tp is bool:
        return torch.tensor(data)
    if isinstance(data, np.ndarray) or isinstance(data, np.generic):
        arr = np.asarray(data)
        if arr.dtype == np.uint16:                     # Paddle reads uint16 arrays as bfloat16
            return torch.from_numpy(arr.astype(np.int32)).to(torch.int16).view(torch.bfloat16)
        return torch.from_numpy(arr.copy())
    if isinstance(data, (list, tuple)) and any(isinstance(v, (Tensor, torch.Tensor))
                                               for v in _flat(data)):
        data = _to_nested_numpy(data)
        return torch.from_numpy(np.asarray(data))
    arr = np.asarray(data)
    kind = arr.dtype.kind
    if kind == "f":
        if target is None or not (target.is_floating_point or target.is_complex):
            target = _dt.default_float().torch
        return torch.from_numpy(arr).to(target)
    if kind == "c":
        if target is None or not target.is_complex:
            target = torch.complex128 if _dt.default_float().torch is torch.float64 \
                else torch.complex64
        return torch.from_numpy(arr).to(target)
    if kind in "iu":
        return torch.from_numpy(arr.astype(np.int64))
    if kind == "b":
        return torch.from_numpy(arr)
    if isinstance(data, (list, tuple)):         # Paddle: data it cannot make an array of
        raise ValueError(f"(InvalidArgument) to_tensor(): failed to convert the input data to "
                         f"a regular ndarray (numpy gives {arr.dtype})")
    raise TypeError(f"to_tensor(): data must be a scalar, list, tuple, numpy.ndarray or Tensor, "
                    f"but got {type(data).__name__} ({arr.dtype})")


def _flat(data):
    for v in data:
        if isinstance(v, (list, tuple)):
            yield from _flat(v)
        else:
            yield v


def _to_nested_numpy(data):
    if isinstance(data, (list, tuple)):
        return [_to_nested_numpy(v) for v in data]
    if isinstance(data, Tensor):
        return data.numpy()
    if isinstance(data, torch.Tensor):
        return data.detach().cpu().numpy()
    return data


@op
def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    """A new Tensor from data (a torch tensor is taken without a copy)."""
    if isinstance(data, Tensor):
        t = data._t.detach().clone()
    elif isinstance(data, torch.Tensor):
        t = data
    elif dtype is None:
        t = _python_data_to_torch(data)
    else:
        t = None
    if dtype is not None:
        tdt = _dt.convert_dtype(dtype).torch
        if tdt in _dt.SATURATING:
            t = _saturated(data, t, tdt)
        else:
            t = _python_data_to_torch(data, tdt).to(tdt) if t is None else t.to(tdt)
    dev = to_torch_device(place)
    if t.device != dev:
        t = t.to(dev)
    if not isinstance(data, (Tensor, torch.Tensor)):
        # made from data: Paddle stores a PyLayer's gradient for such a leaf in the dtype
        # backward returned it, not cast (autograd/py_layer_grads.py: _paddle_leaf_grad)
        t._paddle_from_data = True
    out = wrap(t)
    if not stop_gradient:
        out.stop_gradient = False
    return out


def _saturated(data, t, tdt):
    """to_tensor's data converted to float8 / uint16 as Paddle does: a Tensor by its cast
    kernel (float8 saturates), Python or numpy data to uint16 as numpy converts it (truncated,
    wrapped); numpy has no float8, so Paddle refuses such data with numpy's TypeError."""
    if t is None:
        if tdt is not torch.uint16:
            raise TypeError(f"data type '{_dt.from_torch_dtype(tdt).name}' not understood")
        t = _python_data_to_torch(data)
    return _dt.saturating_cast(t, tdt)


def _dims(shape, api):
    """Paddle's shape argument as a list of ints, none negative (Paddle's ValueError)."""
    dims = shape_arg(shape, api)
    for i, d in enumerate(dims):
        if d < 0:
            raise ValueError("(InvalidArgument) Each value of attribute 'shape' is expected "
                             f"to be no less than 0. But received: shape[{i}] = {d}")
    return dims


def _full(shape, value, dtype, api):
    v = _static_shape(shape, "fill_constant")
    if v is not None:
        return _filled_at_run_time(*v, "full", dtype, value)
    if isinstance(value, torch.fx.Proxy):       # a Variable's value: known at run time
        dims = _dims(shape, api)
        return at_run_time(_make_filled, (dims, "full", dtype, value, current_device()), dims,
                           dtype)
    return wrap(torch.full(_dims(shape, api), value, dtype=dtype, device=current_device()))


def _static_shape(shape, op_type=None):
    """A shape known only at run time in a static program, as Paddle's static graph takes
    them: ``(payload, None)`` for a 1-d Variable, ``(a Variable's payload, parts)`` for a list
    holding 0-d Variables (``parts``: ints and payloads); None for any other shape.
    Given ``op_type``, a Variable not of an int32/int64 dtype is Paddle's TypeError."""
    t = getattr(shape, "_t", None)
    if t is not None:
        if isinstance(t, torch.Tensor):
            return None
        _shape_dtype(t, "shape", op_type)
        return t, None
    if isinstance(shape, (list, tuple)):
        parts = [getattr(d, "_t", d) for d in shape]
        proxies = [p for p in parts if isinstance(p, torch.fx.Proxy)]
        for p in proxies:
            _shape_dtype(p, "element of shape", op_type)
        if proxies:
            return proxies[0], [p if isinstance(p, torch.fx.Proxy) else int(p) for p in parts]
    return None


def _shape_dtype(payload, what, op_type):
    if op_type is not None and payload.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"The data type of '{what}' in {op_type} must be ['int32', 'int64'], "
                        f"but received {_dt.from_torch_dtype(payload.dtype).name}.")


def _make_filled(shape, kind, dtype, value=None, device=None):
    """Run time of a creation op whose shape is a tensor or a list of ints and 0-d tensors
    (``kind``: zeros, ones, empty, full)."""
    if isinstance(shape, torch.Tensor):
        dims = [int(d) for d in shape.reshape(-1).tolist()]
    else:
        dims = [int(d) for d in shape]
    for i, d in enumerate(dims):
        if d < 0:
            raise ValueError("(InvalidArgument) Each value of attribute 'shape' is expected "
                             f"to be no less than 0. But received: shape[{i}] = {d}")
    if kind == "full":
        if isinstance(value, torch.Tensor):     # a Variable's value (Paddle's ValueTensor)
            return torch.empty(dims, dtype=dtype, device=device).fill_(
                value.reshape(-1)[0].to(device))
        return torch.full(dims, value, dtype=dtype, device=device)
    return getattr(torch, kind)(dims, dtype=dtype, device=device)


def _filled_at_run_time(shape_p, parts, kind, dtype, value=None):
    """Record ``_make_filled`` into the static program of ``shape_p`` (a Variable's payload;
    ``parts``: the list it is part of, see ``_static_shape``)."""
    return wrap(shape_p.record_shaped(
        _make_filled, (shape_p if parts is None else parts, kind, dtype, value),
        {"device": current_device()}, dtype, parts))


#: the dtypes Paddle's static ``empty`` takes (no uint8)
_EMPTY_STATIC_DTYPES = ("bool", "float16", "float32", "float64", "bfloat16", "int8", "int16",
                        "int32", "int64", "complex64", "complex128", "float8_e4m3fn")


def _filled(torch_fn, api, what):
    """zeros/ones/empty: ``torch_fn(shape, dtype, device)`` with Paddle's shape and dtype
    handling, registered with its C fast path. ``static_dtypes``: the dtypes Paddle's static
    graph accepts (TypeError for another while a program is built)."""
    def create(shape, dtype=None, name=None):
        # hot path: a list of ints where torch's own default dtype and device are Paddle's;
        # torch parses ``fn(2, 3)`` ~0.5 us faster than ``fn([2, 3], dtype=.., device=..)``
        if dtype is None and type(shape) is list and shape and _Current.device == _CPU \
                and _torch_default_dtype() is _Defaults.dtype.torch:
            for d in shape:
                if type(d) is not int or d < 0:
                    break
            else:
                t = torch_fn(*shape)
                if t.is_cpu:                     # not under torch.set_default_device
                    return wrap(t)
        if api == "empty" and dtype is not None and not _mode.in_dynamic_mode():
            name = _dt.convert_dtype(dtype).name
            if name not in _EMPTY_STATIC_DTYPES:
                raise TypeError(f"The data type of 'dtype' in empty must be "
                                f"{list(_EMPTY_STATIC_DTYPES)}, but received {name}.")
        v = _static_shape(shape, "fill_constant" if api != "empty" else "empty")
        if v is not None:
            return _filled_at_run_time(*v, api, dtype_or_default(dtype))
        return wrap(torch_fn(_dims(shape, api), dtype=dtype_or_default(dtype),
                             device=current_device()))
    create.__name__ = create.__qualname__ = api
    create.__doc__ = f"A tensor of {what} (default float dtype)."
    return op(create, fast=("shape int", torch_fn))


zeros = _filled(torch.zeros, "zeros", "zeros")
ones = _filled(torch.ones, "ones", "ones")
empty = _filled(torch.empty, "empty", "uninitialised values")


_NUMBER_PREFIX = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_SPECIAL_FILL = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan, "True": 1.0, "False": 0.0}


def _str_fill_value(text):
    """Paddle's reading of a string ``fill_value`` (``full([n, n], "-inf")`` in model code):
    "inf", "-inf", "nan", "True", "False" as such, else the longest leading decimal number
    (surrounding spaces and trailing text ignored: "2.5abc" is 2.5), and 0.0 where there is
    none ("abc", "0x10"). The float64 then converts to the dtype as a C cast does."""
    v = _SPECIAL_FILL.get(text)
    if v is not None:
        return v
    m = _NUMBER_PREFIX.match(text)
    return float(m.group(0)) if m else 0.0


def _cast_fill(v, tdt):
    """A float fill value converted to an integer or bool torch dtype as Paddle's C++ cast does
    (out of range / non-finite: numpy's C conversion, the same instruction)."""
    if tdt is torch.bool:
        return bool(v != 0)         # nan is True
    npdt = _dt.from_torch_dtype(tdt).np
    if tdt.is_floating_point or tdt.is_complex:
        if np.dtype(npdt).kind != "f":          # complex, bfloat16: torch converts
            return v
        with np.errstate(all="ignore"):         # "1e40" in float32 is inf, as in Paddle
            return float(np.array([v], np.float64).astype(npdt)[0])
    with np.errstate(all="ignore"):
        return int(np.array([v], np.float64).astype(npdt)[0])


def _fill_value(fill_value):
    """A Python fill value; a static Variable's payload stays (its value is known at run
    time)."""
    if isinstance(fill_value, Tensor):
        t = fill_value._t
        return t if isinstance(t, torch.fx.Proxy) else t.item()
    if isinstance(fill_value, str):
        return _str_fill_value(fill_value)
    return fill_value


@op(fast=("shape_value", torch.full))
def full(shape, fill_value, dtype=None, name=None):
    """A tensor filled with ``fill_value``: bool for a bool value, else the default float dtype
    unless ``dtype`` says otherwise."""
    # hot path: as in zeros; torch gives a float value its default dtype
    if dtype is None and type(fill_value) is float and type(shape) is list and shape \
            and _Current.device == _CPU and _torch_default_dtype() is _Defaults.dtype.torch:
        for d in shape:
            if type(d) is not int or d < 0:
                break
        else:
            t = torch.full(shape, fill_value)
            if t.is_cpu:
                return wrap(t)
    v = _fill_value(fill_value)
    if dtype is None:
        tdt = torch.bool if isinstance(v, (bool, np.bool_)) else _dt.default_float().torch
    else:
        tdt = _dt.convert_dtype(dtype).torch
        if tdt in _dt.SATURATING:       # the value converts as a cast to float8 / uint16 does
            return wrap(_dt.saturating_cast(_full(shape, v, torch.float32, "full")._t, tdt))
        if isinstance(fill_value, str):
            v = _cast_fill(v, tdt)
    return _full(shape, v, tdt, "full")


def _like(x, api, dtype):
    t = tensor_arg(x, api, error=AttributeError)
    return t, (t.dtype if dtype is None else _dt.convert_dtype(dtype).torch)


def _filled_like(torch_fn, api, what):
    """zeros_like/ones_like/empty_like: ``torch_fn`` with x's shape, device and dtype (or
    ``dtype``), registered with its C fast path."""
    def create(x, dtype=None, name=None):
        if dtype is None and type(x) is Tensor:  # hot path: torch_fn keeps x's dtype itself
            return wrap(torch_fn(x._t))
        t, tdt = _like(x, api, dtype)
        return wrap(torch_fn(t, dtype=tdt))
    create.__name__ = create.__qualname__ = api
    create.__doc__ = f"A tensor of {what} shaped like x, of x's dtype unless ``dtype`` is given."
    return op(create, fast=("x", torch_fn))


zeros_like = _filled_like(torch.zeros_like, "zeros_like", "zeros")
ones_like = _filled_like(torch.ones_like, "ones_like", "ones")
empty_like = _filled_like(torch.empty_like, "empty_like", "uninitialised values")


@op(fast=("x_num real", torch.full_like))
def full_like(x, fill_value, dtype=None, name=None):
    # hot path: x's own dtype, which torch.full_like keeps; an int value fits any dtype as it is
    if dtype is None and type(x) is Tensor and (type(fill_value) is int or
                                                type(fill_value) is float and
                                                x._t.is_floating_point()):
        return wrap(torch.full_like(x._t, fill_value))
    t, tdt = _like(x, "full_like", dtype)
    v = _fill_value(fill_value)
    if isinstance(fill_value, str):
        v = _cast_fill(v, tdt)
    elif not (tdt.is_floating_point or tdt.is_complex) and isinstance(v, float):
        v = int(v) if np.isfinite(v) else v
    return wrap(torch.full_like(t, v, dtype=tdt))


def _num(v):
    return v._t.item() if isinstance(v, Tensor) else v


@op(fast=("int", torch.arange))
def arange(start=0, end=None, step=1, dtype=None, name=None):
    """Values from start to end by step: int64 when all bounds are ints, else default float."""
    # hot path: int bounds and step 1 give int64, torch's own dtype for them (device as in zeros)
    if dtype is None and type(start) is int and type(step) is int and step == 1 \
            and (start >= 0 if end is None else type(end) is int and end >= start) \
            and _Current.device == _CPU:
        t = torch.arange(start) if end is None else torch.arange(start, end)
        if t.is_cpu:
            return wrap(t)
    start, end, step = _num(start), _num(end), _num(step)
    if end is None:
        start, end = 0, start
    if dtype is None:
        ints = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        tdt = torch.int64 if ints else _dt.default_float().torch
    else:
        tdt = _dt.convert_dtype(dtype).torch
        if tdt not in _ARANGE_DTYPES:
            _arange_dtype_error(tdt)
    if step == 0:
        raise ValueError("arange(): step must not be 0")
    if (end - start) * step < 0:                # Paddle: empty (torch raises)
        return wrap(torch.empty(0, dtype=tdt, device=current_device()))
    return wrap(torch.arange(start, end, step, dtype=tdt, device=current_device()))


_ARANGE_DTYPES = (torch.float32, torch.float64, torch.int32, torch.int64)


def _arange_dtype_error(tdt):
    """Paddle's arange has kernels for float32/float64/int32/int64 only."""
    _no_kernel_error("arange", tdt, "float32, float64, int32, int64", "arange_tensor")


@op
def linspace(start, stop, num, dtype=None, name=None):
    """``num`` evenly spaced values from start to stop inclusive (default float dtype)."""
    tdt = dtype_or_default(dtype)
    later = _spaced_later("linspace", start, stop, num, None, tdt)
    if later is not None:
        return later
    for v, what in ((start, "start"), (stop, "stop")):
        if isinstance(v, (list, tuple, str, dict)) or v is None:
            raise TypeError(f"(InvalidType) linspace(): argument '{what}' must be int, float, "
                            f"bool or Tensor, but got {type(v).__name__}")
    if tdt not in (torch.float32, torch.float64, torch.int32, torch.int64):
        _no_kernel_error("linspace", tdt, "float32, float64, int32, int64")
    return wrap(_spaced(_num(start), _num(stop), _num(num), None, tdt, current_device()))


def _spaced(start, stop, num, base, tdt, device):
    """linspace's values (``base`` None) or logspace's; start/stop/num/base are numbers or
    1-element torch tensors (a static program's Variables when it runs)."""
    start, stop, num, base = (v.reshape(-1)[0].item() if isinstance(v, torch.Tensor) else v
                              for v in (start, stop, num, base))
    n = int(num)
    if base is None:
        if n < 0:
            raise ValueError("(InvalidArgument) The num of linspace op should be larger than "
                             f"or equal to 0, but received num is {n}")
        if tdt.is_floating_point:
            return torch.linspace(start, stop, n, dtype=tdt, device=device)
        return torch.linspace(start, stop, n, dtype=torch.float64, device=device).to(tdt)
    e = torch.linspace(float(start), float(stop), n, dtype=torch.float64, device=device)
    return torch.pow(float(base), e).to(tdt)


_SPACED_DTYPES = ("float16", "bfloat16", "float32", "float64", "int32", "int64")


def _spaced_later(api, start, stop, num, base, tdt):
    """In a static program: Paddle's checks of linspace/logspace's arguments (TypeError,
    ValueError), and the op recorded to run with the Variables among them (its length -1, as
    Paddle's); None where none is a Variable or in dynamic mode."""
    if _mode.in_dynamic_mode():
        return None
    out_name = _dt.from_torch_dtype(tdt).name
    if out_name not in _SPACED_DTYPES:
        raise TypeError(f"The data type of 'dtype' in {api} must be {list(_SPACED_DTYPES)}, "
                        f"but received {out_name}.")
    named = [("start", start), ("stop", stop)] + ([("base", base)] if base is not None else [])
    for what, v in named:
        if not isinstance(v, Tensor) and (not isinstance(v, (int, float)) or
                                          isinstance(v, bool)):
            raise TypeError(f"The type of '{what}' in {api} must be (<class 'int'>, <class "
                            f"'float'>), but received {type(v)}.")
    if isinstance(num, Tensor):
        ok = ("int32",) if api == "logspace" else ("int32", "int64")
        if num.dtype.name not in ok:
            raise TypeError(f"The data type of 'num' in {api} must be {list(ok)}, but "
                            f"received {num.dtype.name}.")
    elif not isinstance(num, int):
        raise TypeError(f"The type of 'num' in {api} must be <class 'int'>, but received "
                        f"{type(num)}.")
    names = [v.dtype.name if isinstance(v, Tensor) else out_name for _, v in named]
    if ("float64" in names and out_name in ("float32", "int32")) or \
            ("int64" in names and out_name == "int32"):
        raise ValueError(f"The dtype of start/stop{'/base' if base is not None else ''} is "
                         f"{'/'.join(names)} but the attr(dtype) of {api} is "
                         f"paddle.{out_name}, which may cause data type overflows. Please "
                         f"reset attr(dtype) of {api}.")
    return at_run_time(_spaced, (start, stop, num, base, tdt, current_device()), [-1], tdt)


@op(fast=("int", torch.eye))
def eye(num_rows, num_columns=None, dtype=None, name=None):
    """A 2-D identity-like tensor (default float dtype). The sizes are ints (or 1-element
    Tensors) >= 0 (TypeError naming the argument otherwise, as in Paddle)."""
    r = _eye_size(num_rows, "num_rows")
    c = r if num_columns is None else _eye_size(num_columns, "num_columns")
    tdt = dtype_or_default(dtype)
    if tdt not in _EYE_DTYPES:
        _no_kernel_error("eye", tdt, "complex128, complex64, float16, float32, float64, int32, "
                         "int64")
    return wrap(torch.eye(r, c, dtype=tdt, device=current_device()))


_EYE_DTYPES = (torch.float16, torch.float32, torch.float64, torch.int32, torch.int64,
               torch.complex64, torch.complex128)


def _eye_size(v, what):
    if isinstance(v, Tensor):
        return int(_num(v))
    if not isinstance(v, (int, np.integer)) or v < 0:
        raise TypeError(f"{what} should be a non-negative int.")
    return int(v)


@op(fast=("x", torch.clone))
def assign(x, output=None):
    """Copy ``x`` (a Tensor, numpy array, list or scalar) into a new tensor, or into ``output``.
    A Python float gives float64 and an int gives int64, as in Paddle; ``output`` takes over the
    dtype and shape of what is assigned (a float assigned to a float32 output makes it float64)."""
    if isinstance(x, Tensor):
        t = x._t.clone()
    elif isinstance(x, torch.Tensor):
        t = x.clone()
    else:
        arr = np.asarray(x)
        if arr.ndim == 0:                       # Paddle assigns a scalar as shape [1]
            arr = arr.reshape(1)
        if arr.dtype.kind == "i":
            arr = arr.astype(np.int64)
        t = torch.from_numpy(arr.copy()).to(current_device())
    if output is None:
        return wrap(t)
    o = output._t
    if o.dtype is t.dtype and o.shape == t.shape:
        o.copy_(t) if not o.requires_grad else copy_whole(o, t)
    else:
        output._t = t if t.device == o.device else t.to(o.device)
    return output


@op
def logspace(start, stop, num, base=10.0, dtype=None, name=None):
    """``num`` powers base**e for e evenly spaced from start to stop (default float dtype;
    integer dtypes truncate the values)."""
    tdt = dtype_or_default(dtype)
    later = _spaced_later("logspace", start, stop, num, base, tdt)
    if later is not None:
        return later
    return wrap(_spaced(_num(start), _num(stop), _num(num), _num(base), tdt,
                        current_device()))


def _tri_indices(fn, row, col, offset, dtype):
    if not isinstance(row, int) or row < 0:
        raise TypeError("row should be a non-negative int")
    tdt = _dt.convert_dtype(dtype).torch
    if tdt not in (torch.int32, torch.int64):
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_dt.from_torch_dtype(tdt).name}) of kernel `{fn.__name__}` is not "
                           "registered.")
    return wrap(fn(row, col, offset, dtype=tdt, device=current_device()))


@op
def triu_indices(row, col=None, offset=0, dtype="int64"):
    """[2, n] coordinates of the upper triangle (from diagonal ``offset``) of a row x col
    matrix, row by row."""
    return _tri_indices(torch.triu_indices, row, row if col is None else col, offset, dtype)


@op
def tril_indices(row, col=None, offset=0, dtype="int64"):
    """[2, n] coordinates of the lower triangle (up to diagonal ``offset``) of a row x col
    matrix (col defaults to row), row by row."""
    return _tri_indices(torch.tril_indices, row, row if col is None else col, offset, dtype)


@op(method=True)
def create_tensor(dtype, name=None, persistable=False):
    """``paddle.tensor.create_tensor``: an empty Tensor of ``dtype`` (Paddle's is not
    initialized; ours holds no elements) named ``name``. As a Tensor method the tensor
    itself is taken as the dtype, which is an error (ValueError), as in Paddle."""
    if isinstance(dtype, Tensor):
        raise ValueError(f"Could not convert {dtype!r} to a NumPy dtype")
    t = wrap(torch.empty(0, dtype=_dt.convert_dtype(dtype).torch))
    if name is not None:
        t.name = name
    t.persistable = bool(persistable)
    return t
