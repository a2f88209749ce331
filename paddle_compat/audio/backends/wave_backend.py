"""Paddle's ``wave_backend``: 16-bit PCM WAV files through the stdlib ``wave`` module.

``load`` returns ``(waveform, sample_rate)``: a float32 Tensor ``[channels, frames]``
(``channels_first=False``: ``[frames, channels]``), scaled to [-1, 1) by 2**-15 when
``normalize`` (the default), else the raw sample values (still float32, as Paddle returns).
``frame_offset`` and ``num_frames`` select frames; Paddle 3.3.1 ignores ``frame_offset`` when
``num_frames`` is -1 (its documentation says it reads from ``frame_offset``: so do we).
``save`` writes 16-bit PCM: floating-point samples are scaled by 2**15 and clipped to the int16
range (Paddle wraps a sample of exactly 1.0 around to -32768), integer ones written as int16.

    >>> import paddle_compat as paddle
    >>> wav = paddle.linspace(-0.5, 0.5, 800).reshape([1, -1])
    >>> paddle.audio.save("/tmp/tone.wav", wav, 8000)          # doctest: +SKIP
    >>> x, sr = paddle.audio.load("/tmp/tone.wav")             # doctest: +SKIP
"""
import os
import wave

import numpy as np
import torch

from ...framework.tensor import Tensor, wrap

__all__ = ["AudioInfo", "info", "load", "save"]


class AudioInfo:
    """What ``info`` reports: ``sample_rate``, ``num_samples`` (frames per channel),
    ``num_channels``, ``bits_per_sample``, ``encoding``."""

    def __init__(self, sample_rate, num_samples, num_channels, bits_per_sample, encoding):
        self.sample_rate = sample_rate
        self.num_samples = num_samples
        self.num_channels = num_channels
        self.bits_per_sample = bits_per_sample
        self.encoding = encoding

    def __repr__(self):
        return (f"AudioInfo(sample_rate={self.sample_rate}, num_samples={self.num_samples}, "
                f"num_channels={self.num_channels}, bits_per_sample={self.bits_per_sample}, "
                f"encoding={self.encoding!r})")


_ONLY_PCM16 = ("paddle_compat's wave_backend reads only PCM16 WAV files (Paddle's other "
               "backends, soundfile and sox through paddleaudio, are not available here); "
               "convert the file to 16-bit PCM WAV first")


def _open(filepath):
    """(wave reader, the file object to close or None for the caller's own)."""
    own = not hasattr(filepath, "read")
    f = open(filepath, "rb") if own else filepath
    try:
        return wave.open(f), (f if own else None)
    except (wave.Error, EOFError) as e:
        if own:
            f.close()
        raise NotImplementedError(f"{_ONLY_PCM16} ({e})") from None


def info(filepath):
    """The ``AudioInfo`` of a WAV file (a path or a binary file object)."""
    w, f = _open(filepath)
    try:
        return AudioInfo(w.getframerate(), w.getnframes(), w.getnchannels(),
                         w.getsampwidth() * 8, "PCM_S")
    finally:
        if f is not None:
            f.close()


def load(filepath, frame_offset=0, num_frames=-1, normalize=True, channels_first=True):
    """Read a 16-bit PCM WAV file: ``(waveform Tensor, sample_rate)`` (see the module doc)."""
    w, f = _open(filepath)
    try:
        channels, rate, frames = w.getnchannels(), w.getframerate(), w.getnframes()
        if w.getsampwidth() != 2:
            raise NotImplementedError(f"{_ONLY_PCM16} (this one has "
                                      f"{w.getsampwidth() * 8}-bit samples)")
        raw = w.readframes(frames)
    finally:
        if f is not None:
            f.close()
    data = np.frombuffer(raw, dtype="<i2").astype(np.float32).reshape(-1, channels)
    if normalize:
        data = data / np.float32(2 ** 15)
    stop = None if num_frames == -1 else frame_offset + num_frames
    data = np.ascontiguousarray(data[frame_offset:stop])
    t = torch.from_numpy(data)
    return wrap(t.T if channels_first else t), rate


def save(filepath, src, sample_rate, channels_first=True, encoding=None, bits_per_sample=16):
    """Write a 2-D Tensor ``src`` (``[channels, time]``, or ``[time, channels]`` with
    ``channels_first=False``) as a 16-bit PCM WAV file."""
    assert src.ndim == 2, "Expected 2D tensor"
    if bits_per_sample not in (None, 16):
        raise ValueError("Invalid bits_per_sample, only support 16 bit")
    t = (src._t if isinstance(src, Tensor) else torch.as_tensor(np.asarray(src))).detach()
    data = t.cpu().numpy()
    if channels_first:
        data = data.T
    if np.issubdtype(data.dtype, np.floating):
        # scaled and truncated toward zero as Paddle does; clipped where Paddle wraps around
        data = np.clip(data * 2.0 ** 15, -32768, 32767)
    data = np.ascontiguousarray(data.astype("<i2"))
    if not hasattr(filepath, "write"):
        filepath = os.fspath(filepath)
    with wave.open(filepath, "wb") as w:
        w.setnchannels(data.shape[1])
        w.setsampwidth(2)
        w.setframerate(sample_rate)
        w.writeframes(data.tobytes())
