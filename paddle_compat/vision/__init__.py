"""``paddle.vision``: the image transforms (``paddle.vision.transforms``: numpy images through
OpenCV, PIL images through Pillow, and Tensors) and the model zoo (``paddle.vision.models``, its
names also re-exported here as in Paddle). Datasets are not here yet."""
from . import models, transforms
from .models import *  # noqa: F401,F403  (paddle.vision.resnet18 etc., as Paddle has them)
from .models import __all__ as _models_all

__all__ = ["models", "transforms"] + list(_models_all)
