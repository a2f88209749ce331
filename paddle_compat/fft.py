"""``paddle.fft``: discrete Fourier transforms over ``torch.fft``.

Paddle names the arguments ``x``, ``n``/``s``, ``axis``/``axes`` and ``norm`` ('backward' by
default, else 'forward' or 'ortho') and checks them in Python, raising ValueError; torch agrees
on the values. Dtypes: integer input is transformed as the default float dtype; real-to-complex
transforms (rfft*, ihfft*) refuse complex input and complex-to-real ones (irfft*, hfft*)
integer input, with RuntimeError as Paddle's missing kernels do; so do float16/bfloat16/bool.

``fftshift``/``ifftshift`` follow Paddle's documentation (numpy's semantics): Paddle 3.3.1
itself fails on 1-d inputs and on explicit ``axes`` (a SystemError from ``roll``).
"""
import sys as _sys

import torch

from .framework import dtype as _dt
from .framework.place import current_device, to_torch_device
from .framework.tensor import Tensor, wrap
from .ops.common import finish, tensor_arg
from .ops.registry import OpSet as _OpSet
from .ops.registry import publish as _publish

_op = _OpSet(__name__)
__all__ = _op.names

_NORMS = ("backward", "forward", "ortho")
_INTS = frozenset([torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8])
_NO_KERNEL = frozenset([torch.float16, torch.bfloat16, torch.bool])

# what each kind of transform accepts: c2c (fft, ifft), r2c (rfft, ihfft), c2r (irfft, hfft)
_C2C, _R2C, _C2R = "fft_c2c", "fft_r2c", "fft_c2r"


def _input(x, api, kind):
    """The torch tensor of ``x`` in a dtype the transform ``kind`` takes."""
    t = tensor_arg(x, api)
    d = t.dtype
    if d in _INTS and kind != _C2R:
        return t.to(_dt.default_float().torch)
    if d in _NO_KERNEL or d in _INTS or (kind == _R2C and d.is_complex):
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_dt.from_torch_dtype(d).name}) of kernel `{kind}` is not "
                           "registered.")
    return t


def _check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f"Unexpected norm: {norm}. Norm should be forward, backward or ortho")


def _one_d(torch_fn, api, kind):
    def transform(x, n=None, axis=-1, norm="backward", name=None, *, out=None):
        t = _input(x, api, kind)
        nd = t.dim()
        if not -nd <= axis < nd:
            raise ValueError(f"Invalid FFT axis ({axis}), it should be in range [-{nd}, {nd})")
        if n is not None and n <= 0:
            raise ValueError(f"Invalid FFT argument n({n}), it should be positive.")
        if norm != "backward":       # torch's default: not passing it saves parsing
            _check_norm(norm)
            r = wrap(torch_fn(t, n, axis, norm))
        else:
            r = wrap(torch_fn(t, n, axis))
        return finish(r, out)
    transform.__name__ = api
    transform.__doc__ = f"One-dimensional {api} along ``axis`` (torch.fft.{torch_fn.__name__})."
    return _op(transform)


def _sizes_axes(t, s, axes, api, two):
    """Check and normalise ``s`` and ``axes`` of an n-d transform (``two``: the 2-d form)."""
    nd = t.dim()
    if two:
        if nd < 2:
            raise ValueError(f"The rank of the input ({nd}) should >= 2")
        for v, what in ((s, "s"), (axes, "axes")):
            if v is not None and (not isinstance(v, (list, tuple)) or len(v) != 2):
                raise ValueError(f"Invalid FFT argument {what} ({v}), it should be a sequence "
                                 "of 2 integers.")
    if axes is not None:
        axes = [axes] if isinstance(axes, int) else list(axes)
        for a in axes:
            if not -nd <= a < nd:
                raise ValueError(f"Invalid FFT axis ({a}), it should be in range [-{nd}, {nd})")
        if len({a % nd for a in axes}) != len(axes):
            raise ValueError(f"FFT axes {axes} contains duplicate axes.")
    if s is not None:
        s = [s] if isinstance(s, int) else list(s)
        for v in s:
            if v <= 0:
                raise ValueError(f"FFT sizes {s} contains invalid value ({v})")
        if axes is not None and len(axes) != len(s):
            raise ValueError(f"Length of FFT argument s should not be the same as the length "
                             f"of axes ({len(s)} != {len(axes)})")
        if len(s) > nd:
            raise ValueError(f"Length of s ({len(s)}) should not be greater than the rank of "
                             f"input ({nd})")
    return s, axes


def _n_d(torch_fn, api, kind, two):
    def transform(x, s=None, axes=(-2, -1) if two else None, norm="backward", name=None, *,
                  out=None):
        t = _input(x, api, kind)
        s, axes = _sizes_axes(t, s, axes, api, two)
        _check_norm(norm)
        r = wrap(torch_fn(t, s, axes, norm))
        return finish(r, out)
    transform.__name__ = api
    transform.__doc__ = (f"{'Two' if two else 'N'}-dimensional {api} over ``axes`` "
                         f"(torch.fft.{torch_fn.__name__}).")
    return _op(transform)


F = torch.fft
fft = _one_d(F.fft, "fft", _C2C)
ifft = _one_d(F.ifft, "ifft", _C2C)
rfft = _one_d(F.rfft, "rfft", _R2C)
irfft = _one_d(F.irfft, "irfft", _C2R)
hfft = _one_d(F.hfft, "hfft", _C2R)
ihfft = _one_d(F.ihfft, "ihfft", _R2C)
fft2 = _n_d(F.fftn, "fft2", _C2C, True)
ifft2 = _n_d(F.ifftn, "ifft2", _C2C, True)
rfft2 = _n_d(F.rfftn, "rfft2", _R2C, True)
irfft2 = _n_d(F.irfftn, "irfft2", _C2R, True)
hfft2 = _n_d(F.hfftn, "hfft2", _C2R, True)
ihfft2 = _n_d(F.ihfftn, "ihfft2", _R2C, True)
fftn = _n_d(F.fftn, "fftn", _C2C, False)
ifftn = _n_d(F.ifftn, "ifftn", _C2C, False)
rfftn = _n_d(F.rfftn, "rfftn", _R2C, False)
irfftn = _n_d(F.irfftn, "irfftn", _C2R, False)
hfftn = _n_d(F.hfftn, "hfftn", _C2R, False)
ihfftn = _n_d(F.ihfftn, "ihfftn", _R2C, False)
del F


def _freq(torch_fn, api):
    def freq(n, d=1.0, dtype=None, name=None, *, out=None, device=None, requires_grad=False):
        if d * n == 0:
            raise ValueError("d or n should not be 0.")
        tdt = None if dtype is None else _dt.convert_dtype(dtype).torch
        if tdt is None or not tdt.is_floating_point:   # integer dtypes come out as default float
            tdt = _dt.default_float().torch
        dev = current_device() if device is None else to_torch_device(device)
        r = wrap(torch_fn(n, d, dtype=tdt, device=dev))
        return finish(r, out, requires_grad)
    freq.__name__ = api
    freq.__doc__ = f"Sample frequencies of a length-n {api[:-4]} with spacing d (default float)."
    return _op(freq)


fftfreq = _freq(torch.fft.fftfreq, "fftfreq")
rfftfreq = _freq(torch.fft.rfftfreq, "rfftfreq")


def _shift(torch_fn, api):
    def shift(x, axes=None, name=None):
        t = tensor_arg(x, api)
        if isinstance(axes, Tensor):
            axes = axes._t.tolist()
        return wrap(torch_fn(t, axes))
    shift.__name__ = api
    shift.__doc__ = f"Roll the zero frequency {'to' if api == 'fftshift' else 'back from'} " \
                    "the centre of ``axes`` (all axes by default)."
    return _op(shift)


fftshift = _shift(torch.fft.fftshift, "fftshift")
ifftshift = _shift(torch.fft.ifftshift, "ifftshift")

# the torch-style spellings Paddle 3.3.1 takes here (fft(x, dim=0)) come with publishing
_publish(_sys.modules[__name__])
