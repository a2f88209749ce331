"""``paddle.vision``: so far the image transforms ``Compose`` and ``Normalize``
(``paddle.vision.transforms``). Models, datasets and the other transforms are not here yet."""
from . import transforms

__all__ = ["transforms"]
