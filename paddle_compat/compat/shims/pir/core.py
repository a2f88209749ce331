"""``paddle.pir`` / ``paddle.pir.core``: the dtype tables of Paddle's PIR. paddle_compat's
static programs use one dtype object for both of Paddle's dtype kinds (``VarDesc.VarType`` of
the legacy IR and ``DataType`` of PIR), so each table maps every dtype to itself."""
from ....framework.dtype import ALL_DTYPES, DType
from ....static import default_main_program, default_startup_program, program_guard
from ....static import create_parameter as _static_create_parameter
from ..base.var_desc import VarType

__all__ = ["vartype_to_datatype", "datatype_to_vartype", "DataType", "program_guard",
           "default_main_program", "default_startup_program", "create_parameter"]

#: PIR's data type class: paddle_compat's dtypes (``paddle.float32``...)
DataType = DType

vartype_to_datatype = {d: d for d in ALL_DTYPES.values()}
datatype_to_vartype = dict(vartype_to_datatype)
# the legacy IR's VarType members (``core.VarDesc.VarType.FP32``) map to the dtypes too
vartype_to_datatype.update({m: ALL_DTYPES[str(m)[len("paddle."):]] for m in VarType
                            if str(m)[len("paddle."):] in ALL_DTYPES})


def create_parameter(dtype, shape, name=None, **kwargs):
    """``paddle.pir.core.create_parameter(dtype, shape, name, initializer=...)``: a parameter
    of the default main program, initialised by the startup program (the static
    ``create_parameter``); ``initializer`` is required, as in Paddle."""
    if "initializer" not in kwargs:
        raise ValueError("initializer is None, if you want to create parameter, please pass "
                         "its initializer.")
    return _static_create_parameter(list(shape), dtype, name=name,
                                    default_initializer=kwargs["initializer"])
