"""``paddle.audio.features``: spectrogram front ends as Layers.

Each takes a batch of waveforms ``[batch, time]`` (``Spectrogram`` and the mel layers also a
single ``[time]``; ``MFCC`` needs the batch) and returns ``[batch, bins, frames]``:

- ``Spectrogram``: ``|stft(x)| ** power`` with a window from ``functional.get_window``;
- ``MelSpectrogram``: the spectrogram through a mel filter bank (``compute_fbank_matrix``);
- ``LogMelSpectrogram``: that in decibels (``power_to_db``);
- ``MFCC``: the DCT of the log-mel bands (``create_dct``).

The window, filter bank and DCT matrix are buffers named as in Paddle (``fft_window``,
``fbank_matrix``, ``dct_matrix``), so state dicts carry over.

    >>> import paddle_compat as paddle
    >>> mfcc = paddle.audio.features.MFCC(sr=16000, n_mfcc=13, n_fft=512, n_mels=40)
    >>> list(mfcc(paddle.randn([2, 16000])).shape)
    [2, 13, 126]
"""
import torch

from ..framework.tensor import wrap
from ..nn import Layer
from ..signal import stft
from .functional import compute_fbank_matrix, create_dct, get_window, power_to_db

__all__ = ["Spectrogram", "MelSpectrogram", "LogMelSpectrogram", "MFCC"]


class Spectrogram(Layer):
    """``|STFT(x)| ** power``, ``[batch, 1 + n_fft // 2, frames]``; ``hop_length=None`` is
    ``n_fft // 4`` and ``win_length=None`` is ``n_fft``."""

    def __init__(self, n_fft=512, hop_length=512, win_length=None, window="hann", power=1.0,
                 center=True, pad_mode="reflect", dtype="float32"):
        super().__init__()
        assert power > 0, "Power of spectrogram must be > 0."
        self.power = power
        win_length = n_fft if win_length is None else win_length
        self._stft_args = dict(n_fft=n_fft, hop_length=hop_length, win_length=win_length,
                               center=center, pad_mode=pad_mode)
        self.register_buffer("fft_window", get_window(window, win_length, fftbins=True,
                                                      dtype=dtype))

    def forward(self, x):
        spec = stft(x, window=self.fft_window, **self._stft_args)
        return wrap(torch.pow(torch.abs(spec._t), self.power))


class MelSpectrogram(Layer):
    """A power spectrogram through a mel filter bank, ``[batch, n_mels, frames]``;
    ``f_max=None`` is ``sr // 2``."""

    def __init__(self, sr=22050, n_fft=2048, hop_length=512, win_length=None, window="hann",
                 power=2.0, center=True, pad_mode="reflect", n_mels=64, f_min=50.0, f_max=None,
                 htk=False, norm="slaney", dtype="float32"):
        super().__init__()
        self._spectrogram = Spectrogram(n_fft=n_fft, hop_length=hop_length,
                                        win_length=win_length, window=window, power=power,
                                        center=center, pad_mode=pad_mode, dtype=dtype)
        self.n_mels, self.f_min, self.f_max, self.htk, self.norm = n_mels, f_min, f_max, htk, norm
        self.register_buffer("fbank_matrix", compute_fbank_matrix(
            sr=sr, n_fft=n_fft, n_mels=n_mels, f_min=f_min,
            f_max=sr // 2 if f_max is None else f_max, htk=htk, norm=norm, dtype=dtype))

    def forward(self, x):
        spec = self._spectrogram(x)
        return wrap(torch.matmul(self.fbank_matrix._t, spec._t))


class LogMelSpectrogram(Layer):
    """A mel spectrogram in decibels (``functional.power_to_db`` with ``ref_value``, ``amin``,
    ``top_db``)."""

    def __init__(self, sr=22050, n_fft=512, hop_length=None, win_length=None, window="hann",
                 power=2.0, center=True, pad_mode="reflect", n_mels=64, f_min=50.0, f_max=None,
                 htk=False, norm="slaney", ref_value=1.0, amin=1e-10, top_db=None,
                 dtype="float32"):
        super().__init__()
        self._melspectrogram = MelSpectrogram(
            sr=sr, n_fft=n_fft, hop_length=hop_length, win_length=win_length, window=window,
            power=power, center=center, pad_mode=pad_mode, n_mels=n_mels, f_min=f_min,
            f_max=f_max, htk=htk, norm=norm, dtype=dtype)
        self.ref_value, self.amin, self.top_db = ref_value, amin, top_db

    def forward(self, x):
        return power_to_db(self._melspectrogram(x), ref_value=self.ref_value, amin=self.amin,
                           top_db=self.top_db)


class MFCC(Layer):
    """Mel-frequency cepstral coefficients, ``[batch, n_mfcc, frames]`` (batched input)."""

    def __init__(self, sr=22050, n_mfcc=40, n_fft=512, hop_length=None, win_length=None,
                 window="hann", power=2.0, center=True, pad_mode="reflect", n_mels=64,
                 f_min=50.0, f_max=None, htk=False, norm="slaney", ref_value=1.0, amin=1e-10,
                 top_db=None, dtype="float32"):
        super().__init__()
        assert n_mfcc <= n_mels, f"n_mfcc cannot be larger than n_mels: {n_mfcc} vs {n_mels}"
        self._log_melspectrogram = LogMelSpectrogram(
            sr=sr, n_fft=n_fft, hop_length=hop_length, win_length=win_length, window=window,
            power=power, center=center, pad_mode=pad_mode, n_mels=n_mels, f_min=f_min,
            f_max=f_max, htk=htk, norm=norm, ref_value=ref_value, amin=amin, top_db=top_db,
            dtype=dtype)
        self.register_buffer("dct_matrix", create_dct(n_mfcc=n_mfcc, n_mels=n_mels,
                                                      dtype=dtype))

    def forward(self, x):
        logmel = self._log_melspectrogram(x)._t
        if logmel.dim() != 3:
            raise ValueError("MFCC expects a batch of waveforms [batch, time], got a "
                             f"{logmel.dim() - 1}-D input")
        return wrap(torch.matmul(logmel.transpose(1, 2), self.dct_matrix._t).transpose(1, 2))
