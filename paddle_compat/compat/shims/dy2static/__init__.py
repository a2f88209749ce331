"""``paddle.jit.dy2static``: helpers of Paddle's dynamic-to-static translator that tests reach
for (``utils``)."""
from . import utils
from .utils import parse_arg_and_kwargs

__all__ = ["utils", "parse_arg_and_kwargs"]
