"""``paddle.base.core``: the build queries scripts branch on, answered for torch's build."""
import types

import torch

from ....framework.autograd_engine import add_backward_final_hook
from ....framework.place import (CPUPlace, CUDAPinnedPlace, CUDAPlace, CustomPlace, IPUPlace,
                                Place, XPUPinnedPlace, XPUPlace, is_compiled_with_cuda)
from ....random.engine import Generator  # the class of paddle.Generator()'s generators

__all__ = ["is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
           "is_compiled_with_custom_device", "is_compiled_with_distribute",
           "get_cuda_device_count", "Place", "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace",
           "XPUPinnedPlace", "IPUPlace", "CustomPlace",
           "is_compiled_with_onednn", "is_compiled_with_mkldnn", "get_all_device_type", "eager",
           "_set_prim_backward_enabled", "_set_prim_forward_enabled", "_set_prim_all_enabled",
           "_is_bwd_prim_enabled", "_is_fwd_prim_enabled", "_is_all_prim_enabled", "Generator"]


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


#: ``paddle.base.core.eager``: the eager engine's hooks scripts reach for
eager = types.ModuleType("paddle.base.core.eager", "Paddle's eager-engine functions.")
eager._add_backward_final_hook = add_backward_final_hook

# Paddle's switches that decompose ops into primitive ops for the forward / backward pass (its
# compiler's input). paddle_compat's gradients are torch's either way, so a switch only records
# its state, which the queries report as Paddle does.
_prim = {"fwd": False, "bwd": False}


def _prim_flag(value):
    if not isinstance(value, bool):
        raise AssertionError(f"value should be bool, but got {type(value)}")
    return value


def _set_prim_forward_enabled(value):
    _prim["fwd"] = _prim_flag(value)


def _set_prim_backward_enabled(value):
    _prim["bwd"] = _prim_flag(value)


def _set_prim_all_enabled(value):
    _prim["fwd"] = _prim["bwd"] = _prim_flag(value)


def _is_fwd_prim_enabled():
    return _prim["fwd"]


def _is_bwd_prim_enabled():
    return _prim["bwd"]


def _is_all_prim_enabled():
    return _prim["fwd"] and _prim["bwd"]


def get_all_op_protos():
    """The serialized protos of the C++ operators registered in this build: none here
    (paddle_compat runs its operators on torch and has no C++ operator registry), so code that
    builds operators by ``op_type`` finds none registered."""
    return []


__all__ += ["get_all_op_protos"]


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
