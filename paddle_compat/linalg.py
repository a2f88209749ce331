"""``paddle.linalg``: the matrix functions of ``ops.linalg`` under Paddle's namespace
(``paddle.linalg.norm``, ``svd``, ``solve`` ...); ``diagonal`` is the top-level one."""
import sys as _sys

import torch as _torch

from .framework.tensor import Tensor as _Tensor
from .framework.tensor import wrap as _wrap
from .ops import linalg as _ops
from .ops import registry as _registry
from .ops.linalg import LINALG as __all__
from .ops.reduction import diagonal  # noqa: F401  paddle.linalg.diagonal

globals().update({_n: getattr(_ops, _n) for _n in __all__})

_FP8 = (_torch.float8_e4m3fn, _torch.float8_e5m2)
_FP8_ACTS = {"identity": lambda t: t, "relu": _torch.relu, "gelu": _torch.nn.functional.gelu}


def fp8_fp8_half_gemm_fused(x, y, transpose_x=False, transpose_y=False, bias=None, scale=1.0,
                            output_dtype="float16", act="identity", name=None):
    """``act(scale * (x @ y) + bias)`` of float8 matrices (batched over leading dims), in
    ``output_dtype`` (float16 or bfloat16). Paddle runs it only on CUDA (cutlass, sm89+);
    here the float8 values (exact in float32) are multiplied with float32 accumulation on
    any device, the epilogue is computed in float32 and rounded once. ``act`` is 'identity',
    'relu' or 'gelu' (the erf form)."""
    for arg, v in (("x", x), ("y", y)):
        if not isinstance(v, _Tensor) or v._t.dtype not in _FP8:
            got = v._t.dtype if isinstance(v, _Tensor) else type(v).__name__
            raise TypeError(f"The data type of '{arg}' in fp8_fp8_half_gemm_fused must be "
                            f"['float8_e5m2', 'float8_e4m3fn'], but received {got}.")
    if output_dtype not in ("float16", "bfloat16"):
        raise ValueError("The output_dtype must be float16 or bfloat16")
    if act not in _FP8_ACTS:
        raise ValueError(f"fp8_fp8_half_gemm_fused: act must be one of {list(_FP8_ACTS)}, "
                         f"but received {act!r}")
    a = x._t.to(_torch.float32)
    b = y._t.to(_torch.float32)
    if transpose_x:
        a = a.transpose(-1, -2)
    if transpose_y:
        b = b.transpose(-1, -2)
    out = _torch.matmul(a, b) * float(scale)
    if bias is not None:
        out = out + bias._t.to(_torch.float32)
    out = _FP8_ACTS[act](out)
    return _wrap(out.to(_torch.float16 if output_dtype == "float16" else _torch.bfloat16))


_registry.publish(_sys.modules[__name__])
