"""``paddle.set_flags`` / ``paddle.get_flags``: Paddle's global ``FLAGS_*`` switches.

Only flags paddle_compat knows are accepted (Paddle also rejects names it does not know, with a
ValueError). Each is either acted on (``FLAGS_cudnn_deterministic`` sets torch's cuDNN
determinism) or describes behaviour torch has anyway and is kept for code that reads it back:
``FLAGS_use_stride_kernel`` (torch's views are always strided), ``FLAGS_check_nan_inf``
(recorded; no op checks it), ``FLAGS_enable_pir_api`` (True, as Paddle 3.3.1 reports; off,
``static.nn.static_pylayer`` traces its ``backward_fn`` when it is built, as Paddle's legacy
static graph does, instead of at the first backward pass),
``FLAGS_call_stack_level`` (recorded; Python tracebacks are always full),
``FLAGS_enable_pir_in_executor`` (True, as in Paddle 3.3.1; recorded: the executor runs
paddle_compat's one static IR), ``FLAGS_sort_sum_gradient`` (gradients reaching one tensor
from several uses are summed in a fixed order whatever its value: torch's engine is
deterministic there), ``FLAGS_use_mkldnn`` (recorded; torch picks oneDNN kernels itself),
``FLAGS_pir_apply_inplace_pass``, ``FLAGS_use_system_allocator`` and ``FLAGS_set_to_1d``
(recorded; 0-D tensors stay 0-D, as in Paddle 3.3.1 with the flag off).

As with Paddle's gflags, an environment variable of a known flag's name (``FLAGS_enable_pir_api=0``)
sets its initial value; one that cannot be read as the flag's type is ignored with a warning.

Values are converted to the flag's type (``1`` -> ``True``); a value of another kind (a string
for a bool or int flag) is a TypeError naming the flag, where Paddle's binding raises an
unnamed cast RuntimeError.
"""
import numbers
import os
import warnings

import torch

__all__ = ["set_flags", "get_flags"]


def _set_cudnn_deterministic(value):
    torch.backends.cudnn.deterministic = bool(value)


# flag -> [value, type, what setting it does (None: kept only)]
_FLAGS = {
    "FLAGS_use_stride_kernel": [True, bool, None],
    "FLAGS_check_nan_inf": [False, bool, None],
    "FLAGS_enable_pir_api": [True, bool, None],
    "FLAGS_enable_pir_in_executor": [True, bool, None],
    "FLAGS_cudnn_deterministic": [False, bool, _set_cudnn_deterministic],
    "FLAGS_call_stack_level": [1, int, None],
    "FLAGS_sort_sum_gradient": [False, bool, None],
    "FLAGS_use_mkldnn": [False, bool, None],
    "FLAGS_pir_apply_inplace_pass": [True, bool, None],
    "FLAGS_use_system_allocator": [False, bool, None],
    "FLAGS_set_to_1d": [False, bool, None],
    "FLAGS_prim_enable_dynamic": [False, bool, None],   # kept: no primitive decomposition
}


def _convert(key, kind, value):
    """``value`` as the flag's type: bools and integers (numpy's included) only."""
    if isinstance(value, numbers.Integral):
        return kind(value)
    raise TypeError(f"set_flags: {key} takes {'a bool' if kind is bool else 'an int'}, but got "
                    f"{type(value).__name__} {value!r}")


def _from_environment():
    """Initial values from ``FLAGS_*`` environment variables (``0``/``1``/``true``/``false``
    for bool flags, an integer for int flags)."""
    words = {"0": False, "false": False, "1": True, "true": True}
    for key, entry in _FLAGS.items():
        raw = os.environ.get(key)
        if raw is None:
            continue
        text = raw.strip().lower()
        try:
            value = words[text] if entry[1] is bool else int(text)
        except (KeyError, ValueError):
            warnings.warn(f"environment variable {key}={raw!r} is not a {entry[1].__name__}; "
                          f"{key} keeps its default {entry[0]!r}")
            continue
        entry[0] = value
        if entry[2] is not None:
            entry[2](value)


_from_environment()


def set_flags(flags):
    """Set global flags: ``paddle.set_flags({"FLAGS_use_stride_kernel": 1})``."""
    if not isinstance(flags, dict):
        raise TypeError("flags in set_flags should be a dict")
    for key in flags:
        if key not in _FLAGS:
            raise ValueError(f"Flag {key} cannot set its value through this function.")
    for key, value in flags.items():
        entry = _FLAGS[key]
        entry[0] = _convert(key, entry[1], value)
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
