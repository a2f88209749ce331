"""``paddle.static.amp``: the parts of Paddle's static-graph AMP namespace that model code calls
in dynamic mode.

Model-zoo networks (PaddleClas's ResNet family, for one) wrap their whole forward in
``with paddle.static.amp.fp16_guard():`` so that the same file trains under static AMP with
``use_fp16_guard=True``. Paddle only reads the guard when a static program is rewritten for
float16; in dynamic mode, and in a static program that is not rewritten, it changes nothing:
the ops run in the dtypes they would run in without it. Ours is that context manager.
"""
import contextlib

__all__ = ["fp16_guard"]


@contextlib.contextmanager
def fp16_guard():
    """Mark the ops run inside as eligible for float16 under static AMP's ``use_fp16_guard``;
    otherwise (dynamic mode, or no static AMP rewrite) a no-op, as in Paddle."""
    yield
