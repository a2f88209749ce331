"""``paddle.audio``: audio I/O (16-bit PCM WAV), spectral features, the functions behind them
and two classification data sets read from Paddle's local data folder."""
from . import backends, datasets, features, functional
from .backends import info, load, save

__all__ = ["functional", "features", "datasets", "backends", "load", "info", "save"]
