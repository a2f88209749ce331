"""``paddle.signal``: framing (``frame``, ``overlap_add``) and the short-time Fourier transform
(``stft``, ``istft``), written with Paddle's argument checks (AssertionError) and layout:
frames along the last axis, ``[batch?, n_fft or n_fft // 2 + 1, num_frames]``.
"""
import torch
import torch.nn.functional as F

from .framework.tensor import wrap
from .ops.common import tensor_arg
from .ops.registry import OpSet as _OpSet

_op = _OpSet(__name__)
__all__ = _op.names


def _frame(t, frame_length, hop_length, axis):
    """Frames of ``t``: [..., frame_length, num_frames] (axis -1) or
    [num_frames, frame_length, ...] (axis 0)."""
    if axis in (-1, t.dim() - 1):
        return t.unfold(-1, frame_length, hop_length).transpose(-1, -2)
    return t.unfold(0, frame_length, hop_length).movedim(-1, 1)


def _overlap_add(t, hop_length, axis):
    """Inverse layout of ``_frame``: overlapping frames summed into one signal."""
    if axis == 0:
        t = t.movedim((0, 1), (-1, -2))
    fl, nf = t.shape[-2], t.shape[-1]
    n = (nf - 1) * hop_length + fl
    idx = (torch.arange(fl, device=t.device)[:, None]
           + hop_length * torch.arange(nf, device=t.device)[None, :]).reshape(-1)
    out = t.new_zeros(t.shape[:-2] + (n,)).index_add(-1, idx, t.reshape(t.shape[:-2] + (-1,)))
    return out.movedim(-1, 0) if axis == 0 else out


def _check(axis, hop_length):
    if axis not in (0, -1):
        raise ValueError(f"Unexpected axis: {axis}. It should be 0 or -1.")
    if not isinstance(hop_length, int) or hop_length <= 0:
        raise ValueError(f"Unexpected hop_length: {hop_length}. It should be an positive "
                         "integer.")


@_op
def frame(x, frame_length, hop_length, axis=-1, name=None):
    """Slice ``x`` into overlapping frames of ``frame_length`` every ``hop_length`` samples."""
    t = tensor_arg(x, "frame")
    _check(axis, hop_length)
    if not isinstance(frame_length, int) or frame_length <= 0:
        raise ValueError(f"Unexpected frame_length: {frame_length}. It should be an positive "
                         "integer.")
    if frame_length > t.shape[axis]:
        raise ValueError("Attribute frame_length should be less equal than sequence length, "
                         f"but got ({frame_length}) > ({t.shape[axis]}).")
    return wrap(_frame(t, frame_length, hop_length, axis))


@_op
def overlap_add(x, hop_length, axis=-1, name=None):
    """Sum frames laid out as by ``frame`` back into a signal."""
    t = tensor_arg(x, "overlap_add")
    _check(axis, hop_length)
    if t.dim() < 2:
        raise ValueError(f"Input x of overlap_add should be at least 2-D, but got {t.dim()}-D.")
    return wrap(_overlap_add(t, hop_length, axis))


def _window(window, win_length, n_fft, dtype, device):
    """The window (ones by default) zero-padded evenly on both sides to ``n_fft``."""
    if window is None:
        w = torch.ones(win_length, dtype=dtype, device=device)
    else:
        w = window._t
        assert w.dim() == 1 and w.shape[0] == win_length, (
            f"expected a 1D window tensor of size equal to win_length({win_length}), but got "
            f"window with shape {list(w.shape)}.")
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        w = F.pad(w, [left, n_fft - win_length - left])
    return w


@_op(method=True)
def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, name=None):
    """Short-time Fourier transform of a 1-d or 2-d (batched) signal:
    [batch?, n_fft // 2 + 1 (onesided) or n_fft, num_frames], complex."""
    t = tensor_arg(x, "stft")
    assert t.dim() in (1, 2), f"x should be a 1D or 2D real tensor, but got rank of x is {t.dim()}"
    hop_length = n_fft // 4 if hop_length is None else hop_length
    assert hop_length > 0, f"hop_length should be > 0, but got {hop_length}."
    win_length = n_fft if win_length is None else win_length
    assert 0 < n_fft <= t.shape[-1], (f"n_fft should be in (0, seq_length({t.shape[-1]})], "
                                      f"but got {n_fft}.")
    assert 0 < win_length <= n_fft, (f"win_length should be in (0, n_fft({n_fft})], but got "
                                     f"{win_length}.")
    w = _window(window, win_length, n_fft, t.dtype, t.device)
    if center:
        assert pad_mode in ("constant", "reflect"), (f'pad_mode should be "reflect" or '
                                                     f'"constant", but got "{pad_mode}".')
        p = n_fft // 2
        t = F.pad(t[None] if t.dim() == 1 else t, [p, p], mode=pad_mode)
        if x._t.dim() == 1:
            t = t[0]
    frames = _frame(t, n_fft, hop_length, -1).transpose(-1, -2) * w
    complex_in = frames.is_complex()
    if onesided is None:
        onesided = not complex_in
    assert not (complex_in and onesided), \
        "onesided should be False when input or window is a complex Tensor."
    norm = "ortho" if normalized else "backward"
    out = torch.fft.rfft(frames, norm=norm) if onesided else torch.fft.fft(frames, norm=norm)
    return wrap(out.transpose(-1, -2))


@_op(method=True)
def istft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=True, length=None, return_complex=False, name=None):
    """Inverse of ``stft``: windowed inverse transforms overlap-added and divided by the
    summed squared window (ValueError where that is ~0: the NOLA condition fails)."""
    t = tensor_arg(x, "istft")
    if not t.is_complex():           # Paddle takes a real spectrum as complex
        t = t.to(torch.complex128 if t.dtype is torch.float64 else torch.complex64)
    assert t.dim() in (2, 3), \
        f"x should be a 2D or 3D complex tensor, but got rank of x is {t.dim()}"
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    assert 0 < hop_length <= win_length, (f"hop_length should be in (0, win_length"
                                          f"({win_length})], but got {hop_length}.")
    assert 0 < win_length <= n_fft, (f"win_length should be in (0, n_fft({n_fft})], but got "
                                     f"{win_length}.")
    n_frames, fft_size = t.shape[-1], t.shape[-2]
    assert t.numel() != 0, "x should not be an empty tensor."
    want = n_fft // 2 + 1 if onesided else n_fft
    assert fft_size == want, (f"fft_size should be equal to {want} when onesided is "
                              f"{bool(onesided)}, but got {fft_size}.")
    real = torch.float32 if t.dtype is torch.complex64 else torch.float64
    w = _window(window, win_length, n_fft, real, t.device)
    frames = t.transpose(-1, -2)
    norm = "ortho" if normalized else "backward"
    if return_complex:
        assert not onesided, ("onesided should be False when input(output of istft) or window "
                              "is a complex Tensor.")
        out = torch.fft.ifft(frames, norm=norm)
    else:
        assert not w.is_complex(), \
            "Data type of window should not be complex when return_complex is False."
        if not onesided:
            frames = frames[..., : n_fft // 2 + 1]
        out = torch.fft.irfft(frames, n_fft, norm=norm)
    out = _overlap_add((out * w).transpose(-1, -2), hop_length, -1)
    env = _overlap_add((w * w)[:, None].expand(n_fft, n_frames), hop_length, -1)
    start = n_fft // 2 if center else 0
    if length is not None:
        out, env = out[..., start:start + length], env[start:start + length]
    elif center:
        out, env = out[..., start:-start], env[start:-start]
    if isinstance(env, torch.Tensor) and env.abs().min().item() < 1e-11:   # eager only
        raise ValueError("Abort istft because Nonzero Overlap Add (NOLA) condition failed. "
                         "See scipy.signal.check_NOLA.")
    return wrap(out / env)
