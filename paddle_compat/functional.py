"""``paddle.functional``: the module Paddle 3.3 gathers a few functions in. Each is the very
object of its usual name: ``atleast_1d/2d/3d``, ``broadcast_shapes``, ``einsum``, ``meshgrid``,
``norm``, ``unique_consecutive`` the top-level ones (``paddle.norm`` ...), ``split`` the
torch-semantics one of ``paddle.compat`` (pieces *of* a size, not *into* a number)."""
from .compat import split  # noqa: F401  paddle.compat.split
from .ops import decomposition as _decomposition
from .ops import linalg as _linalg
from .ops import reshaping as _reshaping
from .ops import sets as _sets
from .ops.registry import published as _published

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "einsum", "norm",
           "split", "unique_consecutive", "meshgrid"]

for _module, _names in ((_reshaping, ("atleast_1d", "atleast_2d", "atleast_3d",
                                      "broadcast_shapes")),
                        (_linalg, ("einsum",)), (_decomposition, ("norm",)),
                        (_sets, ("meshgrid", "unique_consecutive"))):
    for _name in _names:
        globals()[_name] = _published(getattr(_module, _name), f"paddle.{_name}")
del _module, _names, _name
