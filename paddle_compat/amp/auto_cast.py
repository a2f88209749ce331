"""``paddle.amp.auto_cast`` and ``paddle.amp.decorate``: Paddle's mixed-precision rules.

How the rules run. Inside ``auto_cast`` a ``torch.overrides.TorchFunctionMode`` sees every torch
call our ops make and casts its floating inputs (float32/float16/bfloat16 only) as Paddle's
``GetAmpDestDtype`` decides, by the Paddle op the torch function implements (``op_lists``):

* white-list ops (matmul, linear, conv2d, einsum, flash attention ...) run in the AMP dtype;
* black-list ops (exp, log, softmax, layer_norm, reductions, losses ...) run in float32;
* the others, at O1/O2, run in float32 if any input is float32, else in the AMP dtype
  ("promote"): torch's own type promotion already does this for elementwise ops, so only the
  ops that refuse mixed dtypes (``PROMOTE``) are cast explicitly; at OD they run in float32
  and at O2 with ``use_promote=False`` in the AMP dtype (both cast explicitly).

``torch.autocast`` is not used: its op lists are fixed in C++ (no custom lists), differ between
CPU and CUDA and from Paddle's, and it has no promote rule. The mode costs a few microseconds
per op, inside ``auto_cast`` only; outside it nothing is installed.

Devices. Paddle enables AMP only where the device supports the dtype: float16 needs a CUDA GPU
of compute capability >= 7, bfloat16 one of >= 8. On CPU, real Paddle 3.3.1 warns and ignores
``auto_cast`` for both dtypes, although ``is_bfloat16_supported()`` answers True there; we follow
Paddle for float16 (warning, no effect) and its documentation for bfloat16: bfloat16 AMP runs on
CPU. ``decorate`` follows the same device rule.
"""
import contextlib
import warnings

import torch
from torch.overrides import TorchFunctionMode

from ..framework import hooks
from ..framework.place import current_device
from . import op_lists
from ..framework.place import to_torch_device
from .. import nn
from ..framework.dtype import convert_dtype
from ..framework.tensor import wrap

__all__ = ["auto_cast", "amp_guard", "autocast", "decorate", "amp_decorate",
           "is_autocast_enabled", "get_autocast_dtype", "is_float16_supported",
           "is_bfloat16_supported", "amp_global_state"]

_LOW = {"float16": torch.float16, "bfloat16": torch.bfloat16}
_AMP_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


class _GlobalState:
    """Paddle's ``amp_global_state()``: ``amp_dtype`` is the dtype of the last ``auto_cast``
    entered (never reset on exit, as in Paddle); ``GradScaler.scale`` reads it."""

    def __init__(self):
        self.amp_dtype = "float32"
        self.use_master_grad = False
        self.model_parameters = []


_global = _GlobalState()


def amp_global_state():
    return _global


_amp_state = None


def amp_state():
    """The arguments of the innermost ``auto_cast`` / ``amp_guard`` being run, as a dict
    (``enable``, ``custom_white_list``, ``custom_black_list``, ``level``, ``dtype``,
    ``use_promote``), or None outside any: Paddle's private query, which PaddleNLP and
    PPDiffusers layers branch on (``if amp_state() or x.dtype == paddle.float16``)."""
    return _amp_state


class _Current:
    level = "O0"
    dtype = "float32"


# ---------------------------------------------------------------------- device support
def _device_supports(dtype, device=None):
    dev = current_device() if device is None else device
    if dev.type == "cuda":
        major = torch.cuda.get_device_capability(dev)[0]
        return major >= (7 if dtype == "float16" else 8)
    return dtype == "bfloat16"


def _parse_device(device):
    if device is None:
        return None
    return to_torch_device(device)


def is_float16_supported(device=None):
    """Whether float16 AMP runs on ``device`` (default: the current one)."""
    return _device_supports("float16", _parse_device(device))


def is_bfloat16_supported(device=None):
    """Whether bfloat16 AMP runs on ``device`` (default: the current one)."""
    return _device_supports("bfloat16", _parse_device(device))


def _unsupported_warning(dtype):
    dev = current_device()
    if dev.type != "cuda":
        return ("amp_guard can only be enabled on CUDAPlace, XPUPlace, and CustomPlace, current "
                "place is Place(cpu), so it makes no effect.")
    major, minor = torch.cuda.get_device_capability(dev)
    name = torch.cuda.get_device_name(dev)
    if dtype == "float16":
        return ("For float16, amp only support NVIDIA GPU with Compute Capability 7.0 or higher, "
                f"current GPU is: {name}, with Compute Capability: {major}.{minor}.")
    return ("For bfloat16, amp only support NVIDIA GPU with Compute Capability 8.0 or higher and "
            f"CUDA Version 11.0 or higher, current GPU is: {name}, with Compute Capability: "
            f"{major}.{minor}, current CUDA Version is: {torch.version.cuda}.")


# ---------------------------------------------------------------------- the casting mode
# Functions that only look at, view, move or copy tensors: never cast.
_T = torch.Tensor
_PASS = {getattr(_T, n) for n in (
    "to", "type", "float", "half", "bfloat16", "double", "int", "long", "bool", "cpu", "cuda",
    "contiguous", "view", "view_as", "reshape", "reshape_as", "expand", "expand_as", "permute",
    "transpose", "t", "squeeze", "unsqueeze", "flatten", "unflatten", "narrow", "select",
    "__getitem__", "__setitem__", "copy_", "detach", "detach_", "clone", "requires_grad_",
    "size", "dim", "numel", "item", "tolist", "numpy", "stride", "storage_offset",
    "is_contiguous", "data_ptr", "element_size", "__len__", "__repr__", "__format__",
    "__bool__", "__float__", "__int__", "__index__", "register_hook", "retain_grad",
    "backward", "new_empty", "new_zeros", "new_ones", "new_full", "new_tensor", "fill_",
    "zero_", "resolve_conj", "resolve_neg", "chunk", "split", "unbind", "movedim", "__hash__",
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "eq", "ne", "lt", "le", "gt",
    "ge", "isnan", "isinf", "isfinite", "any", "all", "nonzero", "argmax", "argmin", "sort",
    "argsort", "topk")} | {torch.cat, torch.stack, torch.is_grad_enabled, torch.reshape,
                          torch.flatten, torch.squeeze, torch.unsqueeze, torch.permute,
                          torch.transpose, torch.isnan, torch.isinf, torch.isfinite, torch.where,
                          torch.empty_like, torch.zeros_like, torch.ones_like, torch.full_like}
_ACCESSORS = ("__get__", "__set__", "__delete__")   # tensor properties: .dtype, .shape, .T ...
# Ops outside both lists that refuse mixed float dtypes: promoted explicitly at O1/O2.
_PROMOTE = {torch.conv3d, torch.conv_transpose1d, torch.conv_transpose2d,
            torch.conv_transpose3d, torch.nn.functional.conv_transpose1d,
            torch.nn.functional.conv_transpose2d, torch.nn.functional.conv_transpose3d,
            torch.nn.functional.prelu, torch.mv, torch.dot, torch.inner, torch.outer,
            torch.addcmul, torch.addcdiv, torch.lerp, torch.index_add, torch.scatter_add,
            torch.nn.functional.batch_norm, torch.nn.functional.instance_norm,
            torch.kron, torch.tensordot, torch.cross, torch.linalg.cross}
_BN = {torch.nn.functional.batch_norm, torch.nn.functional.instance_norm}


def _cast_tree(x, dst):
    if isinstance(x, torch.Tensor):
        if x.dtype is not dst and x.dtype in _AMP_FLOATS:
            return x.to(dst)
        return x
    if type(x) is list or type(x) is tuple:
        return type(x)(_cast_tree(v, dst) for v in x)
    return x


def _has_fp32(args):
    for a in args:
        if isinstance(a, torch.Tensor):
            if a.dtype is torch.float32:
                return True
        elif type(a) is list or type(a) is tuple:
            if _has_fp32(a):
                return True
    return False


class _AutoCastMode(TorchFunctionMode):
    """Casts each torch call's floating inputs to the dtype Paddle's AMP rules pick."""

    def __init__(self, white, black, level, dtype, use_promote):
        super().__init__()
        self.white = set().union(*map(op_lists.torch_funcs, white)) if white else set()
        self.black = set().union(*map(op_lists.torch_funcs, black)) if black else set()
        self.white -= self.black       # a function serving both a white and a black op: float32
        self.low = _LOW[dtype]
        # the gray-op rule: 'promote' (O1/O2), 'fp32' (OD), 'low' (O2 without promote)
        self.gray = "fp32" if level == "OD" else (
            "low" if level == "O2" and not use_promote else "promote")

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in self.white:
            dst = self.low
        elif func in self.black:
            dst = torch.float32
        elif func in _PASS or getattr(func, "__name__", None) in _ACCESSORS:
            return func(*args, **kwargs)
        elif self.gray == "promote":
            if func not in _PROMOTE:
                return func(*args, **kwargs)
            # batch/instance norm: only X decides (Paddle's GetPromoteType)
            probe = args[:1] if func in _BN else args
            dst = torch.float32 if _has_fp32(probe) or _has_fp32(kwargs.values()) else self.low
            if func in _BN:           # the statistics and affine parameters stay as they are
                return func(_cast_tree(args[0], dst), *args[1:], **kwargs)
        else:
            dst = torch.float32 if self.gray == "fp32" else self.low
        args = _cast_tree(args, dst)
        if kwargs:
            kwargs = {k: _cast_tree(v, dst) for k, v in kwargs.items()}
        return func(*args, **kwargs)


# ---------------------------------------------------------------------- auto_cast
class amp_guard(contextlib.ContextDecorator):
    """Paddle's ``amp_guard`` / ``auto_cast`` context (also usable as a decorator)."""

    def __init__(self, enable=True, custom_white_list=None, custom_black_list=None, level="O1",
                 dtype="float16", use_promote=True):
        self.args = (enable, custom_white_list, custom_black_list, level, dtype, use_promote)
        self._stack = []

    def __enter__(self):
        global _amp_state
        enable, white, black, level, dtype, use_promote = self.args
        outer = _amp_state
        _amp_state = dict(zip(("enable", "custom_white_list", "custom_black_list", "level",
                               "dtype", "use_promote"), self.args))
        try:
            return self._enter(enable, white, black, level, dtype, use_promote, outer)
        except BaseException:
            _amp_state = outer
            raise

    def _enter(self, enable, white, black, level, dtype, use_promote, outer):
        level = level.upper()
        if level not in ("O0", "OD", "O1", "O2"):
            raise ValueError("level should be O0, OD, O1 or O2.")
        dtype = getattr(dtype, "name", dtype).lower()
        if enable and dtype not in ("float16", "bfloat16"):
            raise ValueError("If enable amp, dtype should be 'float16' or 'bfloat16'.")
        _global.amp_dtype = dtype
        white, black = op_lists.update_list(white, black, level, dtype)
        if enable and not _device_supports(dtype):
            warnings.warn(_unsupported_warning(dtype))
            enable = False
        if not enable:
            level, dtype = "O0", "float32"
        saved = (_Current.level, _Current.dtype)
        mode = None
        if level != "O0":
            mode = _AutoCastMode(white, black, level, dtype, use_promote)
            mode.__enter__()
        elif _Current.level != "O0":
            mode = _Disabled()          # an inner auto_cast(False) switches casting off
            mode.__enter__()
        _Current.level, _Current.dtype = level, dtype
        self._stack.append((saved, mode, outer))
        return self

    def __exit__(self, *exc):
        global _amp_state
        (level, dtype), mode, _amp_state = self._stack.pop()
        if mode is not None:
            mode.__exit__(*exc)
        _Current.level, _Current.dtype = level, dtype
        return False


class _Disabled(TorchFunctionMode):
    """Inside an enclosing auto_cast, runs torch functions as they are."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        with torch._C.DisableTorchFunction():
            return func(*args, **(kwargs or {}))


def auto_cast(enable=True, custom_white_list=None, custom_black_list=None, level="O1",
              dtype="float16", use_promote=True):
    """Run the ops inside in mixed precision (see the module docstring for the rules)."""
    return amp_guard(enable, custom_white_list, custom_black_list, level, dtype, use_promote)


def autocast(device_type=None, dtype="float16", enabled=True, cache_enabled=True):
    """torch-style spelling of ``auto_cast(enable=enabled, dtype=dtype)``."""
    return auto_cast(enable=enabled, dtype=dtype)


def is_autocast_enabled(device_type=None):
    """Whether ops are being auto-cast here."""
    return _Current.level != "O0"


def get_autocast_dtype(device_type=None):
    """The AMP dtype in force ('float16' when AMP is off, as in Paddle)."""
    return _Current.dtype if _Current.level != "O0" else "float16"


# ---------------------------------------------------------------------- decorate
def _layer_class(name):
    return getattr(nn, name, None)


def _is_instance(obj, names):
    classes = tuple(c for c in map(_layer_class, names) if isinstance(c, type))
    return bool(classes) and isinstance(obj, classes)


def _keeps_fp32(layer, dtype):
    if not getattr(layer, "_cast_to_low_precision", True):
        return True
    if _is_instance(layer, ("BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D",
                            "SyncBatchNorm")):
        return True
    return getattr(layer, "_dtype", None) == "float16" or (
        dtype == "float16" and _is_instance(layer, ("LayerNorm", "InstanceNorm1D",
                                                    "InstanceNorm2D", "InstanceNorm3D")))


def _cast_in_place(t, tdtype):
    """Recast a Parameter/Tensor's payload, keeping the Python object (optimizers hold it)."""
    old = t._t
    if old.is_floating_point() and old.dtype is not tdtype:
        t._t = old.detach().to(tdtype).requires_grad_(old.requires_grad)


def _cast_layer(layer, dtype):
    tdtype = _LOW[dtype]
    for p in getattr(layer, "_parameters", {}).values():
        if p is not None:
            _cast_in_place(p, tdtype)
    for b in getattr(layer, "_buffers", {}).values():
        if b is not None:
            _cast_in_place(b, tdtype)
    layer._dtype = dtype


def _exclude(models, excluded):
    layer_cls = _layer_class("Layer")
    message = ("excluded_layers must be either a nn.Layer instance/type or a list of nn.Layer "
               "instances/types.")
    if excluded is None:
        return
    items = excluded if isinstance(excluded, list) else [excluded]
    instances, types = [], []
    for item in items:
        if isinstance(item, type):
            types.append(item)
        elif layer_cls is None or isinstance(item, layer_cls):
            instances.append(item)
        else:
            raise TypeError(message)
    for inst in instances:
        for sub in inst.sublayers(include_self=True):
            sub._cast_to_low_precision = False
    for m in models:
        for sub in m.sublayers(include_self=True):
            if types and isinstance(sub, tuple(types)):
                sub._cast_to_low_precision = False


class _SaveDtypeHook:
    """State-dict hook of ``decorate(save_dtype=...)``: floating entries saved in that dtype."""

    def __init__(self, save_dtype):
        self.save_dtype = save_dtype

    def __call__(self, state_dict):
        tdtype = convert_dtype(self.save_dtype).torch
        for key, value in state_dict.items():
            if value._t.is_floating_point():
                cast = wrap(value._t.detach().to(tdtype))
                cast.name = value.name
                state_dict[key] = cast


def decorate(models, optimizers=None, level="O1", dtype="float16", master_weight=None,
             save_dtype=None, master_grad=False, excluded_layers=None):
    """O2: cast the models' parameters to ``dtype`` (except BatchNorm, and for float16
    LayerNorm/InstanceNorm, and ``excluded_layers``) and let the optimizers keep float32 master
    weights (``optimizer._multi_precision``); O1: return the arguments unchanged."""
    if level not in ("O1", "O2"):
        raise ValueError("level should be O1 or O2, O1 represent AMP train mode, O2 represent "
                         "Pure fp16 train mode.")
    if dtype not in ("float16", "bfloat16"):
        raise ValueError("dtype only support float16 or bfloat16.")
    unchanged = models if optimizers is None else (models, optimizers)
    if level == "O1" or not _device_supports(dtype):
        return unchanged
    layer_cls = _layer_class("Layer")
    single_model = not isinstance(models, list)
    model_list = [models] if single_model else models
    for m in model_list:
        if not hasattr(m, "sublayers") or (layer_cls is not None and not isinstance(m, layer_cls)):
            raise RuntimeError("Current train mode is pure fp16, models should be "
                               f"paddle.nn.Layer, but receive {type(m)}.")
    _exclude(model_list, excluded_layers)
    for m in model_list:
        for layer in m.sublayers(include_self=True):
            if not _keeps_fp32(layer, dtype):
                _cast_layer(layer, dtype)
    if optimizers is not None:
        single_opt = not isinstance(optimizers, list)
        opt_list = [optimizers] if single_opt else optimizers
        for opt in opt_list:
            if not (hasattr(opt, "step") and hasattr(opt, "clear_grad")):
                raise RuntimeError("Current train mode is pure fp16, optimizers should be "
                                   "paddle.optimizer.Optimizer or DygraphShardingOptimizer, but "
                                   f"receive {type(opt)}.")
            inner = getattr(opt, "_inner_opt", opt)
            if hasattr(inner, "_multi_precision"):
                inner._multi_precision = master_weight is not False
    if master_grad:
        _global.use_master_grad = True
        for m in model_list:
            _global.model_parameters.extend(m.parameters())
    if save_dtype is not None:
        if save_dtype not in ("float16", "bfloat16", "float32", "float64"):
            raise ValueError("save_dtype can only be float16 float32 or float64, but your input "
                             f"save_dtype is {save_dtype}.")
        for m in model_list:
            for layer in m.sublayers(include_self=True):
                layer.register_state_dict_hook(_SaveDtypeHook(save_dtype))
    out_models = model_list[0] if single_model else model_list
    if optimizers is None:
        return out_models
    return out_models, (opt_list[0] if single_opt else opt_list)


amp_decorate = decorate


hooks.autocast_enabled.set(is_autocast_enabled)
