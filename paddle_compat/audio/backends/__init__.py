"""``paddle.audio.backends``: which library reads and writes audio files.

paddle_compat has one backend, ``"wave_backend"``: 16-bit PCM WAV through Python's ``wave``
module and numpy, as Paddle's default backend (Paddle's optional ``paddleaudio`` backends,
soundfile and sox, need Paddle itself and are not available here).
"""
import warnings

from .wave_backend import AudioInfo, info, load, save

__all__ = ["get_current_backend", "list_available_backends", "set_backend"]

_CURRENT = "wave_backend"


def list_available_backends():
    """The backends that can be set: ``["wave_backend"]``."""
    warnings.warn("paddle_compat supports only wave_backend (16-bit PCM WAV files); Paddle's "
                  "paddleaudio backends (soundfile, sox) are not available.")
    return ["wave_backend"]


def get_current_backend():
    """The backend ``paddle.audio.load`` / ``save`` / ``info`` use: ``"wave_backend"``."""
    return _CURRENT


def set_backend(backend_name):
    """Choose the audio backend; only ``"wave_backend"`` exists here (anything else raises
    NotImplementedError, as in Paddle for a backend that is not installed)."""
    if backend_name != "wave_backend":
        raise NotImplementedError(
            f"audio backend {backend_name!r} is not available in paddle_compat: only "
            "'wave_backend' (16-bit PCM WAV) is supported")
