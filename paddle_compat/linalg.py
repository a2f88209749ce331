"""``paddle.linalg``: the matrix functions of ``ops.linalg`` under Paddle's namespace
(``paddle.linalg.norm``, ``svd``, ``solve`` ...); ``diagonal`` is the top-level one."""
from .ops import linalg as _ops
from .ops.linalg import LINALG as __all__

globals().update({_n: getattr(_ops, _n) for _n in __all__})


def __getattr__(name):
    if name == "diagonal":          # lives with the manipulation ops
        from . import diagonal
        return diagonal
    raise AttributeError(f"module 'paddle.linalg' has no attribute '{name}'")
