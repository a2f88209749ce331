"""``paddle.utils``: DLPack conversion and small helpers."""
from . import dlpack

__all__ = ["dlpack"]
