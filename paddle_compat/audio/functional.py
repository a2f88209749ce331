"""``paddle.audio.functional.get_window``: the classic spectral windows (scipy.signal's
definitions), computed in float64 and returned in ``dtype``.

``fftbins=True`` gives the periodic window (one point longer, last point dropped), the default
for spectral analysis; ``fftbins=False`` the symmetric one.
"""
import numpy as np
import torch

from ..framework import dtype as _dt
from ..framework.tensor import wrap

__all__ = ["get_window"]


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
