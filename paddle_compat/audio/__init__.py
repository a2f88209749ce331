"""``paddle.audio``: the window functions in ``functional``."""
from . import functional
