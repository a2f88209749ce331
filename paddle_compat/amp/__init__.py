"""``paddle.amp``: automatic mixed precision (``auto_cast``, ``decorate``) and loss scaling
(``GradScaler``). See ``auto_cast`` for how Paddle's op lists are applied to torch ops."""
from . import debugging
from .auto_cast import (amp_decorate, amp_guard, auto_cast, autocast, decorate,
                        get_autocast_dtype, is_autocast_enabled, is_bfloat16_supported,
                        is_float16_supported)
from .grad_scaler import AmpScaler, GradScaler, OptimizerState
from .op_lists import update_list as _update_list
from .op_lists import default_lists as _default_lists


def white_list():
    """Paddle's default white lists: {dtype: {level: set of op names}}."""
    return {d: {lv: _default_lists(lv, d)[0] for lv in ("OD", "O1", "O2")}
            for d in ("float16", "bfloat16")}


def black_list():
    """Paddle's default black lists: {dtype: {level: set of op names}}."""
    return {d: {lv: _default_lists(lv, d)[1] for lv in ("OD", "O1", "O2")}
            for d in ("float16", "bfloat16")}


get_autocast_cpu_dtype = get_autocast_gpu_dtype = get_autocast_dtype

__all__ = ["auto_cast", "GradScaler", "decorate", "is_float16_supported",
           "is_bfloat16_supported", "is_autocast_enabled", "get_autocast_dtype",
           "get_autocast_cpu_dtype", "get_autocast_gpu_dtype"]
