"""``paddle.utils.dlpack``: share tensor memory with other libraries."""
from ..framework.interop import from_dlpack, to_dlpack

__all__ = ["to_dlpack", "from_dlpack"]
