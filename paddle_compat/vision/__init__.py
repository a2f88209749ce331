"""``paddle.vision``: the image transforms ``Compose`` and ``Normalize``
(``paddle.vision.transforms``) and the model zoo (``paddle.vision.models``, its names also
re-exported here as in Paddle). Datasets and the other transforms are not here yet."""
from . import models, transforms
from .models import *  # noqa: F401,F403  (paddle.vision.resnet18 etc., as Paddle has them)
from .models import __all__ as _models_all

__all__ = ["models", "transforms"] + list(_models_all)
