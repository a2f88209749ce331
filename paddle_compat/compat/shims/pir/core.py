"""``paddle.pir`` / ``paddle.pir.core``: the dtype tables of Paddle's PIR. paddle_compat's
static programs use one dtype object for both of Paddle's dtype kinds (``VarDesc.VarType`` of
the legacy IR and ``DataType`` of PIR), so each table maps every dtype to itself."""
from ....framework.dtype import ALL_DTYPES, DType
from ....static import default_main_program, default_startup_program, program_guard
from ..base.var_desc import VarType

__all__ = ["vartype_to_datatype", "datatype_to_vartype", "DataType", "program_guard",
           "default_main_program", "default_startup_program"]

#: PIR's data type class: paddle_compat's dtypes (``paddle.float32``...)
DataType = DType

vartype_to_datatype = {d: d for d in ALL_DTYPES.values()}
datatype_to_vartype = dict(vartype_to_datatype)
# the legacy IR's VarType members (``core.VarDesc.VarType.FP32``) map to the dtypes too
vartype_to_datatype.update({m: ALL_DTYPES[str(m)[len("paddle."):]] for m in VarType
                            if str(m)[len("paddle."):] in ALL_DTYPES})
