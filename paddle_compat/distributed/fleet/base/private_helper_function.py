"""``paddle.distributed.fleet.base.private_helper_function``."""

__all__ = []


def wait_server_ready(endpoints):
    """Wait until the parameter servers at ``endpoints`` (``"ip:port"`` strings) accept
    connections. Paddle 3.3.1 returns at once without probing, and so does this."""
    if not isinstance(endpoints, (list, tuple)):
        raise TypeError(f"wait_server_ready(): endpoints must be a list of 'ip:port' strings, "
                        f"got {type(endpoints).__name__}")
    return None
