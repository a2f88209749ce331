"""``paddle.vision.transforms``: the transforms and their functional forms (``transforms.py``;
``functional`` as Paddle names it). Numpy HWC images go through OpenCV, PIL images through Pillow,
Tensors through torch; random transforms draw from ``random``/``numpy.random`` in Paddle's order.
"""
from . import functional
from .transforms import *  # noqa: F401,F403
from .transforms import __all__
