"""``paddle.base.core``: the build queries scripts branch on, answered for torch's build; the
default generators, device memory statistics and ``VarDesc.VarType``."""
import enum
import types

import torch

from ....framework.place import (CPUPlace, CUDAPinnedPlace, CUDAPlace, CustomPlace, IPUPlace,
                                Place, XPUPinnedPlace, XPUPlace, is_compiled_with_cuda)
from ....random import default_generator
from ....random.engine import Generator  # the class of paddle.Generator()'s generators
from ....framework.dtype import DType as DataType
from ....framework.flags import _FLAGS, get_flags, set_flags
from ....static import decompose as _decompose
from ....static.executor import DenseTensor, Scope, SelectedRows
from . import operators as _operators
from .operators import (Operator, get_all_op_protos, get_attrtibute_type, get_op_extra_attrs,
                        has_grad_op_maker, has_infer_inplace, op_support_gpu)
from . import _eager as eager  # paddle.base.core.eager
from .program_desc_view import AttrType, ProgramDesc
from ..static_quantization import Graph
from .var_desc import VarDesc

__all__ = ["is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
           "is_compiled_with_custom_device", "is_compiled_with_distribute",
           "get_cuda_device_count", "Place", "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace",
           "XPUPinnedPlace", "IPUPlace", "CustomPlace",
           "is_compiled_with_onednn", "is_compiled_with_mkldnn", "get_all_device_type", "eager",
           "_set_prim_backward_enabled", "_set_prim_forward_enabled", "_set_prim_all_enabled",
           "_is_bwd_prim_enabled", "_is_fwd_prim_enabled", "_is_all_prim_enabled", "Generator",
           "default_cpu_generator", "default_cuda_generator", "default_custom_device_generator",
           "get_custom_device_count", "device_memory_stat_current_value",
           "device_memory_stat_peak_value", "VarDesc", "grad_var_suffix",
           "set_prim_eager_enabled", "_is_eager_prim_enabled", "AttrType", "ProgramDesc",
           "op_proto_and_checker_maker", "Graph"]


def is_compiled_with_rocm():
    return torch.version.hip is not None


def is_compiled_with_xpu():
    return False


def is_compiled_with_custom_device(device_type=None):
    return False


def is_compiled_with_distribute():
    return torch.distributed.is_available()


def get_cuda_device_count():
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def is_compiled_with_onednn():
    """Whether the build uses oneDNN on CPU: torch's does where ``torch.backends.mkldnn`` is
    available."""
    return torch.backends.mkldnn.is_available()


is_compiled_with_mkldnn = is_compiled_with_onednn


def get_all_device_type():
    """The custom-device plugin types registered (Paddle's PluggableDevice): none."""
    return []


def grad_var_suffix():
    """The suffix of a gradient variable's name in a static Program (``x`` -> ``x@GRAD``)."""
    return "@GRAD"



# Paddle's switches that decompose ops into primitive ops for the forward / backward pass (its
# compiler's input). paddle_compat's gradients are torch's either way; the forward switch makes
# to_static and primapi.to_prim lower the composite ops static.decompose has rules for.
_prim = {"fwd": False, "bwd": False, "eager": False}


def _prim_flag(value):
    if not isinstance(value, bool):
        raise AssertionError(f"value should be bool, but got {type(value)}")
    return value


def _set_prim_forward_enabled(value):
    _prim["fwd"] = _prim_flag(value)
    _decompose.set_forward_enabled(value)


def _set_prim_backward_enabled(value):
    _prim["bwd"] = _prim_flag(value)


def _set_prim_all_enabled(value):
    _prim["fwd"] = _prim["bwd"] = _prim_flag(value)
    _decompose.set_forward_enabled(value)


def _is_fwd_prim_enabled():
    return _prim["fwd"]


def _is_bwd_prim_enabled():
    return _prim["bwd"]


def _is_all_prim_enabled():
    return _prim["fwd"] and _prim["bwd"]


def set_prim_eager_enabled(value):
    """Paddle's switch that runs eager ops' backward as primitive ops (ppsci turns it on for
    higher-order derivatives): recorded only, torch's gradients are the same either way."""
    _prim["eager"] = _prim_flag(value)


def _is_eager_prim_enabled():
    return _prim.get("eager", False)


# ------------------------------------------------------------------ generators and devices
def default_cpu_generator():
    """The CPU generator every random op draws from (``paddle.seed`` seeds it): its
    ``get_state()`` / ``set_state()`` are what trainers checkpoint."""
    return default_generator


class _CUDAGenerator:
    """Paddle's per-GPU generator over torch's CUDA generator of device ``index`` (the one
    paddle_compat's CUDA random ops draw from)."""

    def __init__(self, index):
        self._g = torch.cuda.default_generators[index]

    def get_state(self):
        return self._g.get_state()

    def set_state(self, state):
        self._g.set_state(state)

    def manual_seed(self, seed):
        self._g.manual_seed(int(seed))
        return self

    def initial_seed(self):
        return self._g.initial_seed()

    def seed(self):
        return self._g.seed()


def default_cuda_generator(index):
    """The generator of GPU ``index``; RuntimeError without CUDA, as Paddle's CPU build."""
    if not torch.cuda.is_available():
        raise RuntimeError("(PermissionDenied) getDefaultCUDAGenerator only support in CUDA "
                           "place")
    return _CUDAGenerator(index)


def get_custom_device_count(device_type):
    """Devices of a custom (plugin) type: none is registered, so any type is unknown."""
    raise RuntimeError(f"(NotFound) {device_type} interface not found.")


def default_custom_device_generator(place):
    """The generator of a custom-device place: no custom device type is registered."""
    raise ValueError("(InvalidArgument) use wrong place, Please check.")


_MEMORY_STATS = {("Allocated", "current"): "allocated_bytes.all.current",
                 ("Allocated", "peak"): "allocated_bytes.all.peak",
                 ("Reserved", "current"): "reserved_bytes.all.current",
                 ("Reserved", "peak"): "reserved_bytes.all.peak"}


def _memory_stat(stat_type, dev_id, which):
    key = _MEMORY_STATS.get((stat_type, which))
    if key is None:
        raise ValueError(f"device memory stat type must be 'Allocated' or 'Reserved', got "
                         f"{stat_type!r}")
    if not torch.cuda.is_available():
        return 0                                    # Paddle's CPU build: no device memory
    return int(torch.cuda.memory_stats(dev_id).get(key, 0))


def device_memory_stat_current_value(stat_type, dev_id):
    """Bytes of GPU ``dev_id`` memory allocated / reserved now (0 without CUDA)."""
    return _memory_stat(stat_type, dev_id, "current")


def device_memory_stat_peak_value(stat_type, dev_id):
    """The peak of ``device_memory_stat_current_value`` (0 without CUDA)."""
    return _memory_stat(stat_type, dev_id, "peak")


LoDTensor = DenseTensor


class LoDTensorArray(list):
    """Paddle's ``LoDTensorArray``: a list of tensors (an array variable's value)."""
_get_all_register_op_kernels = _operators.get_all_register_op_kernels


class _Globals:
    """``core.globals()``: the global ``FLAGS_*`` switches as a mapping (``set_flags`` /
    ``get_flags``)."""

    def __getitem__(self, name):
        return get_flags(name)[name]

    def __setitem__(self, name, value):
        set_flags({name: value})

    def __contains__(self, name):
        return name in _FLAGS

    def keys(self):
        return list(_FLAGS)

    def is_public(self, name):
        return name in _FLAGS


_GLOBALS = _Globals()


def globals():  # noqa: A001  (Paddle's name)
    return _GLOBALS


_prim_vjp_skip = set()


def _clear_prim_vjp_skip_default_ops():
    """Forget the ops whose gradients skip decomposition (none are decomposed here)."""
    _prim_vjp_skip.clear()


def _set_prim_target_grad_name(names):
    pass


def is_compiled_with_cinn():
    return False


def is_float16_supported(place):
    """Whether ``place`` computes float16: GPUs do; Paddle's CPU build reports False."""
    return getattr(place, "is_gpu_place", lambda: False)() and torch.cuda.is_available()


def is_bfloat16_supported(place):
    """Whether ``place`` computes bfloat16 (a GPU of compute capability 8 or more)."""
    if not (getattr(place, "is_gpu_place", lambda: False)() and torch.cuda.is_available()):
        return False
    return torch.cuda.get_device_capability()[0] >= 8


class op_proto_and_checker_maker:
    """The operator role attribute every ``OpDesc`` carries (forward, backward...)."""

    class OpRole:
        Forward, Backward, Optimize, RPC, Dist, LRSched, Loss = 0, 1, 2, 4, 8, 16, 256

    @staticmethod
    def kOpRoleAttrName():
        return "op_role"

    @staticmethod
    def kOpRoleVarAttrName():
        return "op_role_var"

    @staticmethod
    def kOpNameScopeAttrName():
        return "op_namescope"

    @staticmethod
    def kOpCreationCallstackAttrName():
        return "op_callstack"

    @staticmethod
    def kOpDeviceAttrName():
        return "op_device"


__all__ += ["SelectedRows"]
__all__ += ["get_all_op_protos", "Operator", "Scope", "LoDTensor", "DenseTensor", "LoDTensorArray", "globals",
            "set_prim_eager_enabled", "_clear_prim_vjp_skip_default_ops",
            "_get_all_register_op_kernels", "op_support_gpu", "has_infer_inplace",
            "has_grad_op_maker", "get_op_extra_attrs", "get_attrtibute_type",
            "is_compiled_with_cinn", "is_float16_supported", "is_bfloat16_supported",
            "op_proto_and_checker_maker", "DataType", "_is_eager_prim_enabled", "_set_prim_target_grad_name"]


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def supports_bfloat16():
    """Whether the CPU evaluates bfloat16 natively, as Paddle asks it (AVX-512 core)."""
    return "avx512f" in _cpu_flags() and "avx512bw" in _cpu_flags()


def supports_bfloat16_fast_performance():
    """Whether the CPU has bfloat16 arithmetic instructions (AVX-512 BF16)."""
    return "avx512_bf16" in _cpu_flags()


__all__ += ["supports_bfloat16", "supports_bfloat16_fast_performance"]


op_proto_and_checker_maker = types.ModuleType(
    "paddle.base.core.op_proto_and_checker_maker",
    "The names of the attributes every program op carries, and ``OpRole``: what part of "
    "training an op belongs to (PaddleSlim tags the ops it inserts ``OpRole.Forward``).")


class OpRole(enum.Enum):
    """An op's role in a program; an enumeration over ints (``int(OpRole.Loss) == 256``) that,
    as Paddle's, neither equals ints nor combines with ``|``."""

    Forward = 0
    Backward = 1
    Optimize = 2
    Loss = 256
    RPC = 4
    Dist = 8
    LRSched = 16

    def __int__(self):
        return self.value

    __index__ = __int__


OpRole.__module__ = op_proto_and_checker_maker.__name__
op_proto_and_checker_maker.OpRole = OpRole
for _fn, _attr in (("kOpRoleAttrName", "op_role"), ("kOpRoleVarAttrName", "op_role_var"),
                   ("kOpNameScopeAttrName", "op_namescope"),
                   ("kOpCreationCallstackAttrName", "op_callstack"),
                   ("kOpDeviceAttrName", "op_device"),
                   ("kOpWithQuantAttrName", "with_quant_attr")):
    setattr(op_proto_and_checker_maker, _fn, (lambda _a=_attr: _a))
    getattr(op_proto_and_checker_maker, _fn).__name__ = _fn
del _fn, _attr
