"""``paddle.distributed.fleet.layers``: Paddle's home of the tensor-parallel layers
(``layers.mpu``)."""
from . import mpu

__all__ = []
