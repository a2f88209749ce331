"""``paddle.vision.ops``: detection ops (boxes, NMS, anchors, YOLO) in ``detection``; region
pooling, deformable convolution and image file reading in ``roi``; all written with torch ops,
vectorised. ``ConvNormActivation`` (the model zoo's block) is reachable here, as in Paddle,
outside ``__all__``."""
from .detection import *  # noqa: F401,F403
from .detection import __all__ as _detection_all
from .roi import *  # noqa: F401,F403
from .roi import __all__ as _roi_all
from .roi import ConvNormActivation  # noqa: F401

__all__ = list(_detection_all) + list(_roi_all)
