"""``paddle.incubate.nn``: the fused operators in ``functional``."""
from . import functional
