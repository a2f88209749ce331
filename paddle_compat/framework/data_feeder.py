"""Paddle's argument checks for static-graph code: ``check_type``, ``check_dtype`` and
``check_shape`` (``paddle.check_shape``).

As in Paddle they check nothing in dynamic mode (an eager op reports a bad argument itself,
on the line that passed it) and raise TypeError with Paddle's wording while a program is being
built. A static Variable is a :class:`Tensor` here, so the Tensor class stands where Paddle
names ``Variable`` and ``pir.Value``.
"""
from . import dtype as _dt
from . import mode
from .tensor import Tensor

__all__ = ["check_type", "check_dtype", "check_shape", "check_variable_and_dtype",
           "convert_dtype"]


def check_type(input, input_name, expected_type, op_name, extra_message=""):
    """TypeError unless ``isinstance(input, expected_type)`` (static mode only)."""
    if mode.in_dynamic_mode():
        return
    if not isinstance(input, expected_type):
        raise TypeError(f"The type of '{input_name}' in {op_name} must be {expected_type}, but "
                        f"received {type(input)}. {extra_message}")


def check_dtype(input_dtype, input_name, expected_dtype, op_name, extra_message=""):
    """TypeError unless the dtype's name is one of ``expected_dtype`` (static mode only)."""
    if mode.in_dynamic_mode():
        return
    name = getattr(input_dtype, "name", str(input_dtype))
    if name not in expected_dtype:
        raise TypeError(f"The data type of '{input_name}' in {op_name} must be "
                        f"{expected_dtype}, but received {name}. {extra_message}")


def check_shape(shape, op_name, expected_shape_type=(list, tuple, Tensor),
                expected_element_type=(int, Tensor), expected_tensor_dtype=("int32", "int64")):
    """Check a shape argument of ``op_name`` while building a program: a list/tuple of ints
    and int32/int64 Variables, or one such Variable. Nothing in dynamic mode."""
    if mode.in_dynamic_mode():
        return
    check_type(shape, "shape", expected_shape_type, op_name)
    if expected_element_type is not None and not isinstance(shape, Tensor):
        for item in shape:
            check_type(item, "element of shape", expected_element_type, op_name)
            if expected_tensor_dtype is not None and isinstance(item, Tensor):
                check_dtype(item.dtype, "element of shape", expected_tensor_dtype, op_name,
                            "If element of shape is Tensor, its data type should be "
                            + ", ".join(expected_tensor_dtype))
    if expected_tensor_dtype is not None and isinstance(shape, Tensor):
        check_dtype(shape.dtype, "shape", expected_tensor_dtype, op_name)


def check_variable_and_dtype(input, input_name, expected_dtype, op_name, extra_message=""):
    """``check_type(input, ..., Variable)`` then ``check_dtype(input.dtype, ...)``: nothing in
    dynamic mode, Paddle's TypeError while building a program."""
    check_type(input, input_name, Tensor, op_name, extra_message)
    check_dtype(input.dtype, input_name, expected_dtype, op_name, extra_message)


def convert_dtype(dtype):
    """Paddle's name of a dtype (``paddle.float32`` / ``"float32"`` / numpy -> "float32")."""
    return _dt.convert_dtype(dtype).name
