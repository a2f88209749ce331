"""``paddle.hub``: models from local ``hubconf.py`` sources."""
__all__ = []
