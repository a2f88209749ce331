"""``paddle.pir``: the names of Paddle's PIR that code reads outside a program (its dtype
tables, ``paddle.pir.core``)."""
from . import core
from .core import datatype_to_vartype, vartype_to_datatype

__all__ = ["core", "vartype_to_datatype", "datatype_to_vartype"]
