"""``paddle.linalg``: the matrix functions of ``ops.linalg`` under Paddle's namespace
(``paddle.linalg.norm``, ``svd``, ``solve`` ...); ``diagonal`` is the top-level one."""
import sys as _sys

from .ops import linalg as _ops
from .ops import registry as _registry
from .ops.linalg import LINALG as __all__
from .ops.reduction import diagonal  # noqa: F401  paddle.linalg.diagonal

globals().update({_n: getattr(_ops, _n) for _n in __all__})
_registry.publish(_sys.modules[__name__])
