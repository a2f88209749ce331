"""``paddle.utils``: DLPack conversion and small helpers."""
from . import dlpack, unique_name

__all__ = ["dlpack", "unique_name"]
