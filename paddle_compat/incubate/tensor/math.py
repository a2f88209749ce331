"""``paddle.incubate.tensor.math``: the segment reductions (``paddle.geometric``'s)."""
from ...geometric import segment_max, segment_mean, segment_min, segment_sum

__all__ = []
