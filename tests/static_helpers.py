"""Test helpers for static mode."""
import paddle_compat as paddle


def ensure_exports():
    """TEMPORARY until paddle_compat/__init__.py exports them (see the static report):
    ``paddle.static``, ``paddle.jit``, ``enable_static``, ``disable_static``,
    ``in_dynamic_mode``."""
    import paddle_compat.jit
    import paddle_compat.static as static
    for n in ("enable_static", "disable_static", "in_dynamic_mode"):
        if not hasattr(paddle, n):
            setattr(paddle, n, getattr(static, n))
    paddle.static = static
    paddle.jit = paddle_compat.jit
