"""``paddle.base.libpaddle``: the names of Paddle's C++ extension module that test harnesses
reach for directly: the place classes and ``pir`` (its ``Value`` is the class of a static
program's variables)."""
import types

from ....framework.place import (CPUPlace, CUDAPinnedPlace, CUDAPlace, CustomPlace, IPUPlace,
                                Place, XPUPlace)
from ....framework.tensor import Tensor

__all__ = ["CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "CustomPlace", "IPUPlace", "Place",
           "XPUPlace", "pir"]


def _all_ops_defined_symbol_infer(program):
    """Whether every op of ``program`` infers symbolic shapes (Paddle's CINN shape dialect):
    paddle_compat's ops infer concrete shapes only, so the answer is False."""
    return False


pir = types.ModuleType("paddle.base.libpaddle.pir", "PIR names of Paddle's C++ module.")
pir.Value = Tensor
pir.all_ops_defined_symbol_infer = _all_ops_defined_symbol_infer
