"""``paddle.nn.init``: Paddle 3.x's torch-style initialisers, ``constant_(w, 0.5)`` and the
rest, each filling a Parameter (or any Tensor) in place and returning None, as Paddle's do in
dynamic mode.

Each is the matching ``paddle.nn.initializer`` class applied to the tensor
(``kaiming_uniform_(w, a, mode, nonlinearity)`` is ``KaimingUniform(negative_slope=a, ...)(w)``),
so the random ones draw Paddle's CPU stream exactly as the classes do. Two things differ from
torch's ``torch.nn.init``: the fans follow Paddle's layout (a 2-D weight ``[in, out]`` has
fan_in = ``shape[0]``), and ``kaiming_*_`` default to ``nonlinearity='leaky_relu'`` with ``a=0``.
"""
import torch as _torch

from .initializer import (Constant, Dirac, KaimingNormal, KaimingUniform, Normal, Orthogonal,
                          TruncatedNormal, Uniform, XavierNormal, XavierUniform, _fans,
                          calculate_gain)

__all__ = ["Constant", "Dirac", "KaimingNormal", "KaimingUniform", "Normal", "Orthogonal",
           "TruncatedNormal", "Uniform", "XavierNormal", "XavierUniform", "calculate_gain",
           "constant_", "dirac_", "eye_", "kaiming_normal_", "kaiming_uniform_", "normal_",
           "ones_", "orthogonal_", "trunc_normal_", "uniform_", "xavier_normal_",
           "xavier_uniform_", "zeros_"]


def _calculate_fan_in_and_fan_out(var):
    """``(fan_in, fan_out)`` of a weight in Paddle's layout (see ``paddle.nn.initializer``)."""
    fan_in, fan_out = _fans(list(var.shape))
    return int(fan_in), int(fan_out)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """Uniform in ``±gain * sqrt(3 / fan)``, gain from ``nonlinearity`` and slope ``a``."""
    return KaimingUniform(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """Normal with std ``gain / sqrt(fan)``."""
    return KaimingNormal(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def xavier_uniform_(tensor, gain=1.0, fan_in=None, fan_out=None):
    """Uniform in ``±gain * sqrt(6 / (fan_in + fan_out))``."""
    return XavierUniform(gain=gain, fan_in=fan_in, fan_out=fan_out)(tensor)


def xavier_normal_(tensor, gain=1.0, fan_in=None, fan_out=None):
    """Normal with std ``gain * sqrt(2 / (fan_in + fan_out))``."""
    return XavierNormal(gain=gain, fan_in=fan_in, fan_out=fan_out)(tensor)


def uniform_(tensor, a=0.0, b=1.0):
    """Uniform in ``[a, b)``."""
    return Uniform(low=a, high=b)(tensor)


def normal_(tensor, mean=0.0, std=1.0):
    """Normal with ``mean`` and ``std``."""
    return Normal(mean=mean, std=std)(tensor)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0):
    """Normal with ``mean`` and ``std`` kept in ``[a, b]``."""
    return TruncatedNormal(mean=mean, std=std, a=a, b=b)(tensor)


def constant_(tensor, val):
    """Every element ``val``."""
    return Constant(value=val)(tensor)


def ones_(tensor):
    return Constant(value=1.0)(tensor)


def zeros_(tensor):
    return Constant(value=0.0)(tensor)


def dirac_(tensor, groups=1):
    """The Dirac delta of a 3-D/4-D/5-D convolution weight (``initializer.Dirac``)."""
    return Dirac(groups=groups)(tensor)


def eye_(tensor):
    """The identity matrix of a 2-D tensor (ones on the main diagonal of a non-square one)."""
    shape = list(tensor.shape)
    if len(shape) != 2:
        raise AssertionError(f"Only support 2 dimensional tensor, but got {len(shape)}.")
    t = tensor._t
    with _torch.no_grad():
        t.copy_(_torch.eye(shape[0], shape[1], dtype=t.dtype, device=t.device))
    return None


def orthogonal_(tensor, gain=1):
    """A (semi-)orthogonal matrix times ``gain``."""
    return Orthogonal(gain=gain)(tensor)
