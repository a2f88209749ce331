"""``paddle.pir`` / ``paddle.pir.core``: the dtype tables of Paddle's PIR. paddle_compat's
static programs use one dtype object for both of Paddle's dtype kinds (``VarDesc.VarType`` of
the legacy IR and ``DataType`` of PIR), so each table maps every dtype to itself."""
from ....framework.dtype import ALL_DTYPES

__all__ = ["vartype_to_datatype", "datatype_to_vartype"]

vartype_to_datatype = {d: d for d in ALL_DTYPES.values()}
datatype_to_vartype = dict(vartype_to_datatype)
