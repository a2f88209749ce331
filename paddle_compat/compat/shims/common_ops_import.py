"""``paddle.common_ops_import``: the grab-bag module older model code imports its static-graph
helpers from (PaddleDetection's ``ppdet/modeling/ops.py``:
``from paddle.common_ops_import import Variable, LayerHelper, check_variable_and_dtype, ...``).

The argument checks are Paddle's (nothing in dynamic mode, TypeError while a program is being
built); ``Variable`` is our Tensor (a static Variable is one); ``convert_dtype`` gives Paddle's
dtype name. ``LayerHelper`` / ``OpProtoHolder`` (appending raw operators to a ProgramDesc) have
no counterpart: the names import, so that such a module loads and its dynamic-mode paths run,
and using them raises ``UnsupportedAPIError``.
"""
from ...framework import dtype as _dt
from ...framework.data_feeder import check_dtype, check_type
from ...framework.param_attr import ParamAttr
from ...framework.tensor import Tensor as Variable
from ...static import default_main_program, device_guard
from ...static.mode import in_dynamic_mode as in_dygraph_mode
from ..missing import UnsupportedAPIError
from .base import core
from .base.framework import convert_np_dtype_to_dtype_
from . import base

__all__ = ["Variable", "LayerHelper", "OpProtoHolder", "ParamAttr", "check_type", "check_dtype",
           "check_variable_and_dtype", "convert_dtype", "convert_np_dtype_to_dtype_",
           "in_dygraph_mode", "default_main_program", "device_guard", "core", "base"]


def check_variable_and_dtype(input, input_name, expected_dtype, op_name, extra_message=""):
    """``check_type(input, ..., Variable)`` then ``check_dtype(input.dtype, ...)``: nothing in
    dynamic mode, Paddle's TypeError while building a program."""
    check_type(input, input_name, Variable, op_name, extra_message)
    check_dtype(input.dtype, input_name, expected_dtype, op_name, extra_message)


def convert_dtype(dtype):
    """Paddle's name of a dtype (``paddle.float32`` / ``"float32"`` / numpy -> "float32")."""
    return _dt.convert_dtype(dtype).name


class _NoProgramDesc:
    _api = None

    def __init__(self, *args, **kwargs):
        raise UnsupportedAPIError(self._api, "building raw operators into a ProgramDesc has no "
                                  "paddle_compat counterpart; use the paddle.* op functions, "
                                  "which record static programs themselves")


class LayerHelper(_NoProgramDesc):
    """Importable; constructing one raises UnsupportedAPIError (see the module docstring)."""
    _api = "paddle.common_ops_import.LayerHelper"


class OpProtoHolder(_NoProgramDesc):
    """Importable; constructing one raises UnsupportedAPIError (see the module docstring)."""
    _api = "paddle.common_ops_import.OpProtoHolder"
