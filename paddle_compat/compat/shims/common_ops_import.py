"""``paddle.common_ops_import``: the grab-bag module older model code imports its static-graph
helpers from (PaddleDetection's ``ppdet/modeling/ops.py``:
``from paddle.common_ops_import import Variable, LayerHelper, check_variable_and_dtype, ...``).

The argument checks are Paddle's (nothing in dynamic mode, TypeError while a program is being
built); ``Variable`` is our Tensor (a static Variable is one); ``convert_dtype`` gives Paddle's
dtype name. ``LayerHelper`` constructs in both modes and makes parameters and output
variables; appending raw operators to a ProgramDesc (``LayerHelper.append_op``,
``OpProtoHolder``) has no counterpart and raises ``UnsupportedAPIError``.
"""
import torch as _torch

from ...framework import dtype as _dt
from ...framework.data_feeder import (check_dtype, check_type, check_variable_and_dtype,
                                      convert_dtype)
from ...framework.param_attr import ParamAttr
from ...framework.parameter import unique_name as _unique_name
from ...framework.tensor import Tensor as Variable
from ...nn.layer.layers import new_parameter as _new_parameter
from ...static import data as _static_data
from ...static import default_main_program, default_startup_program, device_guard
from ...static.mode import in_dynamic_mode as in_dygraph_mode
from ..missing import UnsupportedAPIError
from .base import core
from .base.framework import convert_np_dtype_to_dtype_
from . import base

__all__ = ["Variable", "LayerHelper", "OpProtoHolder", "ParamAttr", "check_type", "check_dtype",
           "check_variable_and_dtype", "convert_dtype", "convert_np_dtype_to_dtype_",
           "in_dygraph_mode", "default_main_program", "device_guard", "core", "base"]


class LayerHelper:
    """Paddle's LayerHelper, for code that builds one whatever the mode (PaddleDetection's ops
    construct one before their dynamic-mode branch, PaddleSlim in its layers): the name
    (``multiclass_nms3_0`` ...), ``layer_type``, ``kwargs``, the input queries, parameters and
    output variables. ``append_op`` (a raw operator into a ProgramDesc) has no counterpart and
    raises UnsupportedAPIError naming the operator."""

    def __init__(self, layer_type, **kwargs):
        self.kwargs = kwargs
        if kwargs.get("name") is None:
            kwargs["name"] = _unique_name(layer_type)
        self.name = kwargs["name"]
        self.layer_type = layer_type
        self._tmp = 0

    @property
    def main_program(self):
        return default_main_program()

    @property
    def startup_program(self):
        return default_startup_program()

    def multiple_input(self, input_param_name="input"):
        """The tensors given as ``input_param_name`` (one or a list), as a list."""
        inputs = self.kwargs.get(input_param_name, [])
        if not isinstance(inputs, (list, tuple)):
            inputs = [inputs]
        for x in inputs:
            if not isinstance(x, Variable):
                raise TypeError(f"{self.layer_type}: the input {input_param_name!r} must be "
                                f"Tensors, but received {type(x).__name__}")
        return list(inputs)

    def input(self, input_param_name="input"):
        """The one tensor given as ``input_param_name``."""
        inputs = self.multiple_input(input_param_name)
        if len(inputs) != 1:
            raise ValueError(f"{self.layer_type} layer only takes one input")
        return inputs[0]

    def input_dtype(self, input_param_name="input"):
        """The dtype shared by the inputs (ValueError on a mismatch; None without inputs)."""
        dtype = None
        for x in self.multiple_input(input_param_name):
            if dtype is None:
                dtype = x.dtype
            elif dtype != x.dtype:
                raise ValueError(f"Data Type mismatch: {dtype} to {x.dtype}")
        return dtype

    @property
    def param_attr(self):
        return ParamAttr._to_attr(self.kwargs.get("param_attr"))

    @property
    def bias_attr(self):
        return ParamAttr._to_attr(self.kwargs.get("bias_attr"))

    def get_default_dtype(self):
        return _dt.get_default_dtype()

    def create_parameter(self, attr, shape, dtype=None, is_bias=False,
                         default_initializer=None, stop_gradient=False, type=None):
        """A Parameter as ``Layer.create_parameter`` makes it (named after this helper)."""
        p = _new_parameter(self.name, shape, attr, dtype or _dt.get_default_dtype(), is_bias,
                           default_initializer)
        if p is not None and stop_gradient:
            p.stop_gradient = True
        return p

    def create_variable_for_type_inference(self, dtype, stop_gradient=False, shape=None):
        """An output tensor for an op to fill (named ``<name>.tmp_<k>``): an empty tensor of
        ``dtype`` (of ``shape``, when given) in dynamic mode, a Variable in a program."""
        name = f"{self.name}.tmp_{self._tmp}"
        self._tmp += 1
        dtype = _dt.convert_dtype(dtype or _dt.get_default_dtype())
        if not in_dygraph_mode():
            return _static_data(name, list(shape) if shape is not None else [-1], dtype.name)
        t = Variable(_torch.empty([max(int(d), 0) for d in (shape or [0])], dtype=dtype.torch))
        t.name = name
        t.stop_gradient = stop_gradient
        return t

    create_variable = create_variable_for_type_inference

    def append_op(self, *args, **kwargs):
        op_type = kwargs.get("type", args[0] if args else None)
        raise UnsupportedAPIError(
            f"paddle.common_ops_import.LayerHelper.append_op (operator {op_type!r})",
            "appending raw operators to a ProgramDesc has no paddle_compat counterpart; use the "
            "paddle.* op functions, which record static programs themselves")


class OpProtoHolder:
    """Importable; constructing one raises UnsupportedAPIError: paddle_compat has no operator
    protobuf registry."""

    def __init__(self, *args, **kwargs):
        raise UnsupportedAPIError("paddle.common_ops_import.OpProtoHolder",
                                  "paddle_compat has no registry of operator protos")
