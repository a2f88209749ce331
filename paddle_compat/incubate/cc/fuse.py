"""``paddle.incubate.cc.fuse``: ``matmul(x, w, epilogue)`` is ``epilogue(x @ w)``, written so a
compiler may fuse the epilogue into the matmul; ``by_register()`` marks such a region (a
marker only: here ``torch.compile`` decides the fusion)."""
import contextlib

from ...ops.linalg import matmul as _matmul

__all__ = ["matmul", "by_register"]


@contextlib.contextmanager
def by_register():
    yield


def matmul(x, w, epilogue, **kwargs):
    """``epilogue(paddle.matmul(x, w, **kwargs))``."""
    y = _matmul(x, w, **kwargs)
    with by_register():
        return epilogue(y)
