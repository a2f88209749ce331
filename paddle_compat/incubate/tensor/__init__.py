"""``paddle.incubate.tensor``: the segment reductions (``math``) and the tensor offload
helpers (``manipulation``)."""
from . import manipulation, math
from .math import segment_max, segment_mean, segment_min, segment_sum

__all__ = []
