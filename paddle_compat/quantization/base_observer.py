"""``BaseObserver``: a quanter that only watches values (post-training quantisation)."""
import abc

from .base_quanter import BaseQuanter

__all__ = ["BaseObserver"]


class BaseObserver(BaseQuanter):
    """Observers collect statistics in ``forward`` and compute the quantisation parameters in
    ``cal_thresholds``."""

    def __init__(self):
        super().__init__()

    @abc.abstractmethod
    def cal_thresholds(self):
        pass
