"""``BaseQuanter``: the base of quanter layers (fake quantisation in QAT, observers in PTQ)."""
import abc

from ..nn.layer.layers import Layer

__all__ = ["BaseQuanter"]


class BaseQuanter(Layer, metaclass=abc.ABCMeta):
    """A layer that quantises (or observes) what passes through it. Subclasses implement
    ``forward``, ``scales``, ``zero_points``, ``quant_axis`` and ``bit_length``."""

    def __init__(self):
        super().__init__()

    @abc.abstractmethod
    def forward(self, input):
        pass

    @abc.abstractmethod
    def scales(self):
        """The scales used to quantise (None when the quanter holds none)."""

    @abc.abstractmethod
    def zero_points(self):
        """The zero points used to quantise (None when the quanter holds none)."""

    @abc.abstractmethod
    def quant_axis(self):
        """The channel axis of the scales; -1 (or None) for one scale per tensor."""

    @abc.abstractmethod
    def bit_length(self):
        """The bit length of the quantised values."""
