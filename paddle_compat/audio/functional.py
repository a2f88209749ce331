"""``paddle.audio.functional``: spectral windows, the mel scale, filter banks, the DCT
matrix of MFCCs and decibel conversion.

``get_window``: the classic spectral windows (scipy.signal's definitions), computed in float64
and returned in ``dtype``; ``fftbins=True`` gives the periodic window (one point longer, last
point dropped), the default for spectral analysis; ``fftbins=False`` the symmetric one.

The mel scale is the Slaney one (linear below 1 kHz, logarithmic above) unless ``htk=True``
(``2595 log10(1 + f / 700)``), as in librosa. ``hz_to_mel`` and ``mel_to_hz`` take a Python
number (computed in double precision) or a Tensor (computed in its dtype); the other functions
build their tables in ``dtype`` with the same float32 arithmetic as Paddle:

    >>> import paddle_compat as paddle
    >>> fb = paddle.audio.functional.compute_fbank_matrix(sr=16000, n_fft=512, n_mels=40)
    >>> list(fb.shape)
    [40, 257]
"""
import math

import numpy as np
import torch

from ..framework import dtype as _dt
from ..framework.place import current_device
from ..framework.tensor import Tensor, wrap

__all__ = ["get_window", "hz_to_mel", "mel_to_hz", "mel_frequencies", "fft_frequencies",
           "compute_fbank_matrix", "power_to_db", "create_dct"]

# the Slaney mel scale: linear (200/3 Hz a mel) up to 1 kHz, then log steps of ln(6.4)/27
_F_SP = 200.0 / 3
_MIN_LOG_HZ = 1000.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP
_LOGSTEP = math.log(6.4) / 27.0


def _linspace(start, stop, num, dtype):
    """Paddle's CPU linspace, in the arithmetic of ``dtype``: the step rounded to ``dtype``,
    the first half counted up from ``start`` and the rest down from ``stop``."""
    tdt = _dt.convert_dtype(dtype).torch
    dev = current_device()
    lo = torch.tensor(start, dtype=tdt, device=dev)
    hi = torch.tensor(stop, dtype=tdt, device=dev)
    if num <= 1:
        return wrap(lo.reshape(1)[:num])
    step = (hi - lo) / (num - 1)
    i = torch.arange(num, dtype=tdt, device=dev)
    out = torch.where(torch.arange(num, device=dev) < num // 2, lo + step * i,
                      hi - step * (num - 1 - i))
    return wrap(out)


def _float_t(t):
    return t if t.is_floating_point() or t.is_complex() else t.to(torch.get_default_dtype())


def hz_to_mel(freq, htk=False):
    """Frequencies in Hz (a number or a Tensor) to mels."""
    if isinstance(freq, Tensor):
        f = _float_t(freq._t)
        if htk:
            return wrap(2595.0 * torch.log10(1.0 + f / 700.0))
        linear = f / _F_SP
        logpart = _MIN_LOG_MEL + torch.log(f / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
        above = (f > _MIN_LOG_HZ).to(f.dtype)
        # a blend, not a select: a NaN on either side shows through, as in Paddle
        return wrap(logpart * above + linear * (1 - above))
    if htk:
        return 2595.0 * math.log10(1.0 + freq / 700.0)
    if freq >= _MIN_LOG_HZ:
        return _MIN_LOG_MEL + math.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
    return freq / _F_SP


def mel_to_hz(mel, htk=False):
    """Mels (a number or a Tensor) to frequencies in Hz."""
    if isinstance(mel, Tensor):
        m = _float_t(mel._t)
        if htk:
            return wrap(700.0 * (torch.pow(10.0, m / 2595.0) - 1.0))
        linear = _F_SP * m
        logpart = _MIN_LOG_HZ * torch.exp(_LOGSTEP * (m - _MIN_LOG_MEL))
        above = (m > _MIN_LOG_MEL).to(m.dtype)
        return wrap(logpart * above + linear * (1 - above))
    if htk:
        return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
    if mel >= _MIN_LOG_MEL:
        return _MIN_LOG_HZ * math.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
    return _F_SP * mel


def mel_frequencies(n_mels=64, f_min=0.0, f_max=11025.0, htk=False, dtype="float32"):
    """``n_mels`` frequencies (Hz) evenly spaced on the mel scale from ``f_min`` to ``f_max``."""
    mels = _linspace(hz_to_mel(f_min, htk=htk), hz_to_mel(f_max, htk=htk), n_mels, dtype=dtype)
    return mel_to_hz(mels, htk=htk)


def fft_frequencies(sr, n_fft, dtype="float32"):
    """The ``1 + n_fft // 2`` frequencies (Hz) of a one-sided FFT of size ``n_fft``."""
    return _linspace(0, float(sr) / 2, int(1 + n_fft // 2), dtype=dtype)


def compute_fbank_matrix(sr, n_fft, n_mels=64, f_min=0.0, f_max=None, htk=False,
                         norm="slaney", dtype="float32"):
    """Triangular mel filter bank, ``[n_mels, 1 + n_fft // 2]``: row i rises from mel
    frequency i to i+1 and falls to i+2. ``norm='slaney'`` scales each row to unit area;
    a number p divides each row by its p-norm."""
    if f_max is None:
        f_max = float(sr) / 2
    fft_f = fft_frequencies(sr=sr, n_fft=n_fft, dtype=dtype)._t
    mel_f = mel_frequencies(n_mels + 2, f_min=f_min, f_max=f_max, htk=htk, dtype=dtype)._t
    widths = mel_f[1:] - mel_f[:-1]
    dist = mel_f[:, None] - fft_f[None, :]          # [n_mels + 2, n_freqs]
    rising = -dist[:n_mels] / widths[:n_mels, None]
    falling = dist[2:n_mels + 2] / widths[1:n_mels + 1, None]
    weights = torch.maximum(torch.zeros_like(rising), torch.minimum(rising, falling))
    if norm == "slaney":
        weights = weights * (2.0 / (mel_f[2:n_mels + 2] - mel_f[:n_mels]))[:, None]
    elif isinstance(norm, (int, float)) and not isinstance(norm, bool):
        weights = torch.nn.functional.normalize(weights, p=norm, dim=-1, eps=1e-12)
    return wrap(weights)


def power_to_db(spect, ref_value=1.0, amin=1e-10, top_db=80.0):
    """A power spectrogram in decibels, ``10 log10(max(spect, amin) / max(ref_value, amin))``,
    floored at ``top_db`` below its maximum (over the whole tensor) when ``top_db`` is given."""
    if amin <= 0:
        raise Exception("amin must be strictly positive")
    if ref_value <= 0:
        raise Exception("ref_value must be strictly positive")
    s = spect._t
    db = 10.0 * torch.log10(torch.maximum(torch.full_like(s, amin), s))
    db = db - 10.0 * math.log10(max(ref_value, amin))
    if top_db is not None:
        if top_db < 0:
            raise Exception("top_db must be non-negative")
        db = torch.maximum(db, torch.ones_like(db) * (db.max() - top_db))
    return wrap(db)


def create_dct(n_mfcc, n_mels, norm="ortho", dtype="float32"):
    """The DCT-II matrix ``[n_mels, n_mfcc]`` that turns log-mel bands into MFCCs;
    ``norm='ortho'`` makes it orthonormal, ``None`` leaves it unscaled (times 2)."""
    tdt = _dt.convert_dtype(dtype).torch
    n = torch.arange(n_mels, dtype=tdt, device=current_device())
    k = torch.arange(n_mfcc, dtype=tdt, device=current_device())[:, None]
    # the angle step rounded to dtype first, as Paddle's scale op does
    step = torch.tensor(math.pi / float(n_mels), dtype=tdt, device=current_device())
    dct = torch.cos(step * (n + 0.5) * k)                           # [n_mfcc, n_mels]
    if norm is None:
        dct = dct * 2.0
    else:
        assert norm == "ortho"
        dct[0] = dct[0] * (1.0 / math.sqrt(2.0))
        dct = dct * math.sqrt(2.0 / float(n_mels))
    return wrap(dct.T)


def _general_cosine(n, a):
    fac = np.linspace(-np.pi, np.pi, n)
    return sum(ak * np.cos(k * fac) for k, ak in enumerate(a))


def _triang(n):
    k = np.arange(1, (n + 1) // 2 + 1)
    w = (2 * k - 1.0) / n if n % 2 == 0 else 2 * k / (n + 1.0)
    return np.concatenate([w, w[-1::-1] if n % 2 == 0 else w[-2::-1]])


def _bohman(n):
    fac = np.abs(np.linspace(-1, 1, n)[1:-1])
    w = (1 - fac) * np.cos(np.pi * fac) + np.sin(np.pi * fac) / np.pi
    return np.concatenate([[0.0], w, [0.0]])


def _tukey(n, alpha=0.5):
    if alpha <= 0:
        return np.ones(n)
    if alpha >= 1:
        return _general_cosine(n, [0.5, 0.5])
    x = np.arange(n)
    width = int(np.floor(alpha * (n - 1) / 2.0))
    n1, n2, n3 = x[:width + 1], x[width + 1:n - width - 1], x[n - width - 1:]
    w1 = 0.5 * (1 + np.cos(np.pi * (-1 + 2.0 * n1 / alpha / (n - 1))))
    w3 = 0.5 * (1 + np.cos(np.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (n - 1))))
    return np.concatenate([w1, np.ones(n2.shape), w3])


def _taylor(n, nbar=4, sll=30, norm=True):
    b = 10 ** (sll / 20)
    a = np.arccosh(b) / np.pi
    s2 = nbar ** 2 / (a ** 2 + (nbar - 0.5) ** 2)
    ma = np.arange(1, nbar)
    fm = np.empty(nbar - 1)
    signs = np.empty_like(ma)
    signs[::2], signs[1::2] = 1, -1
    m2 = ma * ma
    for mi in range(len(ma)):
        numer = signs[mi] * np.prod(1 - m2[mi] / s2 / (a ** 2 + (ma - 0.5) ** 2))
        denom = 2 * np.prod(1 - m2[mi] / m2[:mi]) * np.prod(1 - m2[mi] / m2[mi + 1:])
        fm[mi] = numer / denom

    def wf(x):
        return 1 + 2 * np.dot(fm, np.cos(2 * np.pi * ma[:, None] * (x - n / 2.0 + 0.5) / n))

    w = wf(np.arange(n))
    return w / wf((n - 1) / 2) if norm else w


def _kaiser(n, beta):
    x = np.arange(n)
    alpha = (n - 1) / 2.0
    return np.i0(beta * np.sqrt(1 - ((x - alpha) / alpha) ** 2.0)) / np.i0(float(beta))


def _gaussian(n, std):
    x = np.arange(n) - (n - 1.0) / 2.0
    return np.exp(-x ** 2 / (2 * std * std))


def _general_gaussian(n, p, sig):
    x = np.arange(n) - (n - 1.0) / 2.0
    return np.exp(-0.5 * np.abs(x / sig) ** (2 * p))


def _exponential(n, center=None, tau=1.0):
    center = (n - 1) / 2 if center is None else center
    return np.exp(-np.abs(np.arange(n) - center) / tau)


def _bartlett(n):
    x = np.arange(n)
    return np.where(x <= (n - 1) / 2.0, 2.0 * x / (n - 1), 2.0 - 2.0 * x / (n - 1))


def _cosine(n):
    return np.sin(np.pi / n * (np.arange(n) + 0.5))


_WINDOWS = {
    "hamming": lambda n: _general_cosine(n, [0.54, 0.46]),
    "hann": lambda n: _general_cosine(n, [0.5, 0.5]),
    "blackman": lambda n: _general_cosine(n, [0.42, 0.50, 0.08]),
    "nuttall": lambda n: _general_cosine(n, [0.3635819, 0.4891775, 0.1365995, 0.0106411]),
    "general_hamming": lambda n, alpha: _general_cosine(n, [alpha, 1.0 - alpha]),
    "general_cosine": lambda n, a: _general_cosine(n, a),
    "bartlett": _bartlett, "triang": _triang, "bohman": _bohman, "cosine": _cosine,
    "tukey": _tukey, "taylor": _taylor, "kaiser": _kaiser, "gaussian": _gaussian,
    "general_gaussian": _general_gaussian, "exponential": _exponential,
}


def get_window(window, win_length, fftbins=True, dtype="float64"):
    """The window ``window`` (a name, or a tuple of a name and its parameters, e.g.
    ``('gaussian', 7)``) of ``win_length`` points as a 1-D Tensor."""
    args = ()
    if isinstance(window, tuple):
        name, args = window[0], window[1:]
    elif isinstance(window, str):
        if window in ("gaussian", "exponential", "kaiser"):
            raise ValueError(f"The '{window}' window needs one or more parameters -- pass a "
                             "tuple.")
        name = window
    else:
        raise ValueError(f"{type(window)} as window type is not supported.")
    if name not in _WINDOWS:
        raise ValueError("Unknown window type.")
    if win_length <= 1:
        w = np.ones(max(win_length, 0))
    else:
        n = win_length + 1 if fftbins else win_length
        w = np.asarray(_WINDOWS[name](n, *args), dtype=np.float64)
        if fftbins:
            w = w[:-1]
    return wrap(torch.from_numpy(np.ascontiguousarray(w)).to(_dt.convert_dtype(dtype).torch))
