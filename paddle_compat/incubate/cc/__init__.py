"""``paddle.incubate.cc``: Paddle's experimental compiler front end (``compile`` a function
for fixed input dtypes; ``fuse.matmul`` with an epilogue fused into it).

Paddle builds these on CINN and its "abstract pass" kernels for CUDA. Here ``compile``
returns the function compiled by ``torch.compile`` (which fuses epilogues by itself), for
inference only, as Paddle's."""
import torch

from . import fuse

__all__ = ["fuse", "compile"]


class OverloadedFunc:
    """The compiled function; calling it runs the compiled code."""

    def __init__(self, func, compiled):
        self.func = func
        self._compiled = compiled

    def __call__(self, *args, **kwargs):
        return self._compiled(*args, **kwargs)


def compile(func, *args, train=False, backend_device="cuda", **kwargs):  # noqa: A001
    """``func`` compiled for inference (``train=True`` is refused, as in Paddle)."""
    assert not train, "only support inference now"
    return OverloadedFunc(func, torch.compile(func, dynamic=None))
