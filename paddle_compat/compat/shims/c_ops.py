"""``paddle._C_ops``: Paddle's generated operator entry points, for code that calls them directly.

Only entry points whose arguments we know are here, each written against the public API:
creation ops with Paddle's positional ``(shape, [value,] dtype, place)`` order, ``matmul`` with
its transpose flags, and one-tensor elementwise ops whose only argument is ``x``. Any other name
raises ``AttributeError`` naming it, so that ``from paddle import _C_ops`` itself always works.
"""
from ... import ops as _ops
from ...ops import creation as _creation

__all__ = ["zeros", "ones", "full", "matmul"]


def full(shape, value, dtype="float32", place=None):
    """``_C_ops.full(shape, value, dtype, place)``."""
    return _creation.full(shape, value, dtype=dtype)


def zeros(shape, dtype="float32", place=None):
    """``_C_ops.zeros(shape, dtype, place)``."""
    return _creation.full(shape, 0, dtype=dtype)


def ones(shape, dtype="float32", place=None):
    """``_C_ops.ones(shape, dtype, place)``."""
    return _creation.full(shape, 1, dtype=dtype)


def matmul(x, y, transpose_x=False, transpose_y=False):
    """``_C_ops.matmul(x, y, transpose_x, transpose_y)``."""
    return _ops.matmul(x, y, transpose_x, transpose_y)


#: ops whose entry point takes the input tensor alone, as the public function does
_UNARY = ("abs", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "tanh", "sigmoid", "sin",
          "cos", "floor", "ceil", "sign", "square", "reciprocal", "erf")


def __getattr__(name):
    if name in _UNARY:
        fn = getattr(_ops, name, None)
        if fn is not None:
            def op(x, _fn=fn):
                return _fn(x)
            op.__name__ = name
            op.__doc__ = f"``_C_ops.{name}(x)``."
            globals()[name] = op
            return op
    raise AttributeError(f"paddle._C_ops.{name} is not provided by paddle_compat: call the public "
                         "paddle API instead")
