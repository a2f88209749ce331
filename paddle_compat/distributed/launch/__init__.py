"""``python -m paddle_compat.distributed.launch [options] script.py [args]`` (see ``main``)."""
from .main import launch

__all__ = ["launch"]
