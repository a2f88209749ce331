"""``paddle.set_flags`` / ``paddle.get_flags``: Paddle's global ``FLAGS_*`` switches.

Only flags paddle_compat knows are accepted (Paddle also rejects names it does not know, with a
ValueError). Each is either acted on (``FLAGS_cudnn_deterministic`` sets torch's cuDNN
determinism) or describes behaviour torch has anyway and is kept for code that reads it back:
``FLAGS_use_stride_kernel`` (torch's views are always strided), ``FLAGS_check_nan_inf``
(recorded; no op checks it), ``FLAGS_enable_pir_api`` (False: static programs are not PIR),
``FLAGS_call_stack_level`` (recorded; Python tracebacks are always full),
``FLAGS_enable_pir_in_executor`` (True, as in Paddle 3.3.1; recorded: the executor runs
paddle_compat's one static IR).
"""
import torch

__all__ = ["set_flags", "get_flags"]


def _set_cudnn_deterministic(value):
    torch.backends.cudnn.deterministic = bool(value)


# flag -> [value, type, what setting it does (None: kept only)]
_FLAGS = {
    "FLAGS_use_stride_kernel": [True, bool, None],
    "FLAGS_check_nan_inf": [False, bool, None],
    "FLAGS_enable_pir_api": [False, bool, None],
    "FLAGS_enable_pir_in_executor": [True, bool, None],
    "FLAGS_cudnn_deterministic": [False, bool, _set_cudnn_deterministic],
    "FLAGS_call_stack_level": [1, int, None],
    "FLAGS_use_mkldnn": [False, bool, None],            # kept: torch picks its CPU kernels
    "FLAGS_use_system_allocator": [False, bool, None],  # kept: torch's allocator either way
    "FLAGS_prim_enable_dynamic": [False, bool, None],   # kept: no primitive decomposition
}


def set_flags(flags):
    """Set global flags: ``paddle.set_flags({"FLAGS_use_stride_kernel": 1})``."""
    if not isinstance(flags, dict):
        raise TypeError("flags in set_flags should be a dict")
    for key in flags:
        if key not in _FLAGS:
            raise ValueError(f"Flag {key} cannot set its value through this function.")
    for key, value in flags.items():
        entry = _FLAGS[key]
        entry[0] = entry[1](value)
        if entry[2] is not None:
            entry[2](entry[0])


def get_flags(flags):
    """``{name: value}`` of the flags named (one name or a list/tuple of names)."""
    names = [flags] if isinstance(flags, str) else flags
    if not isinstance(names, (list, tuple)):
        raise TypeError("Flags in get_flags should be a list, tuple or string.")
    out = {}
    for key in names:
        if key not in _FLAGS:
            raise ValueError(f"Flag {key} cannot get its value through this function.")
        out[key] = _FLAGS[key][0]
    return out
