"""Names Paddle 3.x added for code written in PyTorch's spelling: the typed tensor constructors
(``paddle.FloatTensor(2, 3)``, ``paddle.LongTensor([1, 2])`` ...), ``from_numpy``,
``as_tensor``/``asarray``, ``cat``/``concatenate``, the inclusive ``range``, ``ger``, the window
functions (``hann_window`` ...), ``transpose_``, the torch-style top-level ``softmax``,
``Generator`` and ``manual_seed``.

Each follows what Paddle 3.3.1 does, which is not always what torch does:
``paddle.FloatTensor(ndarray)`` keeps the array's dtype, ``paddle.range`` gives the default
float dtype even for integer bounds, ``paddle.Generator()`` is the one CPU generator that
``paddle.seed`` seeds (not a fresh one).
"""
import math as _math
import warnings

import numpy as np
import torch

from ..framework import dtype as _dt
from ..framework.place import current_device, to_torch_device
from ..framework.tensor import Tensor, wrap
from ..random import default_generator as _gen
from .common import finish, tensor_arg
from .creation import empty, to_tensor
from .gather_scatter import scatter_nd
from .joining import concat
from .linalg import outer
from .manip_common import _inplace
from . import random as _random
from .random import seed as _seed
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


# ------------------------------------------------------------------ typed tensor constructors
class _TypedTensor:
    """Base of ``paddle.FloatTensor`` and its siblings: calling one makes a Tensor (it is no
    Tensor subclass, ``isinstance(x, paddle.FloatTensor)`` is False, as in Paddle).

    * no argument: an empty 1-d tensor of the class's dtype;
    * one list or tuple (a ``paddle.Size`` too): its values, cast to the dtype;
    * ints: an uninitialised tensor of that shape;
    * anything else (an ndarray, a Tensor): a tensor of it with its own dtype (Paddle's
      ``paddle.Tensor(value)``, which ignores the class's dtype).
    """
    dtype = None

    def __new__(cls, *args, **kwargs):
        if not args:
            return empty([0], dtype=cls.dtype)
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            return to_tensor(args[0], dtype=cls.dtype)
        if all(isinstance(a, int) for a in args):
            return empty(list(args), dtype=cls.dtype)
        if len(args) == 1 and not kwargs:
            return to_tensor(args[0])
        raise NotImplementedError(f"paddle.{cls.__name__}{args!r}: only (), (list), (*ints) and "
                                  "(ndarray or Tensor) are supported")


def _typed(name, dtype):
    cls = type(name, (_TypedTensor,), {"dtype": dtype, "__module__": __name__,
                                       "__doc__": f"``paddle.{name}(...)``: a {dtype} Tensor "
                                                  "(see ``_TypedTensor``)."})
    op.names.append(name)
    globals()[name] = cls
    return cls


for _name, _dtype in (("FloatTensor", "float32"), ("DoubleTensor", "float64"),
                      ("HalfTensor", "float16"), ("BFloat16Tensor", "bfloat16"),
                      ("ByteTensor", "uint8"), ("CharTensor", "int8"), ("ShortTensor", "int16"),
                      ("IntTensor", "int32"), ("LongTensor", "int64"), ("BoolTensor", "bool")):
    _typed(_name, _dtype)
del _name, _dtype


# ------------------------------------------------------------------------------ from data
@op
def from_numpy(ndarray):
    """A Tensor sharing ``ndarray``'s memory (writes show on both sides)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError("The input type of from_numpy() must be numpy.ndarray, but received "
                        f"{type(ndarray)}. To convert other types to tensor, please use "
                        "paddle.tensor() instead.")
    return wrap(torch.from_numpy(ndarray))


@op
def as_tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """``to_tensor`` in torch's spelling (``device``, ``requires_grad``)."""
    return to_tensor(data, dtype=dtype, place=device, stop_gradient=not requires_grad)


@op
def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """``to_tensor`` in the array API's spelling; ``copy`` is ignored, as in Paddle (a Tensor
    is always copied)."""
    return to_tensor(obj, dtype=dtype, place=device, stop_gradient=not requires_grad)


op(concat, name="cat")
op(concat, name="concatenate")
op(outer, name="ger")
# the in-place random fills, which Paddle 3 also exposes as functions (paddle.normal_(x, ...))
for _fill in (_random.bernoulli_, _random.cauchy_, _random.geometric_, _random.normal_):
    op(_fill, name=_fill.__name__)
del _fill


def _number(v):
    return v.item() if isinstance(v, Tensor) else v


@op
def range(start=0, end=None, step=1, dtype=None, *, out=None, device=None,  # noqa: A001
          requires_grad=False, name=None):
    """Values from ``start`` to ``end`` *inclusive* by ``step`` (deprecated in Paddle in favour
    of ``arange``); the default float dtype unless ``dtype`` is given."""
    warnings.warn("paddle.range is deprecated: its end is inclusive, unlike Python's range; "
                  "use paddle.arange", DeprecationWarning, stacklevel=2)
    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError("(InvalidArgument) step must be nonzero.")
    tdt = _dt.default_float().torch if dtype is None else _dt.convert_dtype(dtype).torch
    n = max(int(_math.floor((end - start) / step)) + 1, 0)
    dev = current_device() if device is None else to_torch_device(device)
    if tdt.is_floating_point:
        t = (start + step * torch.arange(n, dtype=torch.float64, device=dev)).to(tdt)
    else:
        t = torch.arange(n, dtype=torch.int64, device=dev).mul_(int(step)).add_(int(start))
        t = t.to(tdt)
    return finish(wrap(t), out, requires_grad)


# ------------------------------------------------------------------------------- windows
def _window(fn, api, window_length, periodic, dtype, device, requires_grad, *params):
    if not isinstance(window_length, int) or isinstance(window_length, bool) \
            or window_length < 0:
        raise ValueError(f"Window length M must be a non-negative integer (got "
                         f"{window_length!r} in {api})")
    tdt = _dt.convert_dtype(dtype).torch
    dev = current_device() if device is None else to_torch_device(device)
    t = fn(window_length, periodic, *params, dtype=torch.float64, device=dev).to(tdt)
    r = wrap(t)
    if requires_grad:
        r.stop_gradient = False
    return r


@op
def hann_window(window_length, periodic=True, *, dtype="float32", layout=None, device=None,
                pin_memory=False, requires_grad=False):
    """The Hann window (periodic: the first ``window_length`` points of one of length + 1)."""
    return _window(torch.hann_window, "hann_window", window_length, periodic, dtype, device,
                   requires_grad)


@op
def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype="float32",
                   layout=None, device=None, pin_memory=False, requires_grad=False):
    """The generalised Hamming window ``alpha - beta cos(2 pi n / (N - 1))``."""
    return _window(torch.hamming_window, "hamming_window", window_length, periodic, dtype,
                   device, requires_grad, alpha, beta)


@op
def bartlett_window(window_length, periodic=True, *, dtype="float32", layout=None, device=None,
                    pin_memory=False, requires_grad=False):
    """The triangular Bartlett window."""
    return _window(torch.bartlett_window, "bartlett_window", window_length, periodic, dtype,
                   device, requires_grad)


@op
def blackman_window(window_length, periodic=True, *, dtype="float32", layout=None, device=None,
                    pin_memory=False, requires_grad=False):
    """The Blackman window."""
    return _window(torch.blackman_window, "blackman_window", window_length, periodic, dtype,
                   device, requires_grad)


@op
def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype="float32", layout=None,
                  device=None, pin_memory=False, requires_grad=False):
    """The Kaiser window of shape parameter ``beta``."""
    return _window(torch.kaiser_window, "kaiser_window", window_length, periodic, dtype, device,
                   requires_grad, beta)


# ------------------------------------------------------------------------ shapes, softmax
op(scatter_nd, method=True, export=False)     # index.scatter_nd(updates, shape), as Paddle 3

@op(method=True)
def transpose_(x, perm, name=None):
    """In-place ``transpose``: ``x`` becomes the permuted view."""
    t = tensor_arg(x, "transpose_")
    if len(perm) != t.dim():
        raise ValueError("(InvalidArgument) The length of perm should be equal to the rank of "
                         f"x, but received len(perm) = {len(perm)}, rank = {t.dim()}.")
    return _inplace(x, t.permute(*perm))


@op
def softmax(input, dim=None, dtype=None, *, out=None):
    """torch's ``softmax`` (``paddle.softmax``, not ``paddle.nn.functional.softmax``): with no
    ``dim``, torch's old implicit choice (0 for 0-d, 1-d and 3-d inputs, else 1); ``dtype``
    casts the input first."""
    t = tensor_arg(input, "softmax", "input")
    if dim is None:
        dim = 0 if t.dim() in (0, 1, 3) else 1
    if dtype is not None:
        t = t.to(_dt.convert_dtype(dtype).torch)
    return finish(wrap(torch.softmax(t, dim)), out)


# ------------------------------------------------------------------------------- generator
@op
class Generator:
    """``paddle.Generator(device=None)`` gives the default generator of ``device`` (the CPU
    one, which ``paddle.seed`` seeds): as in Paddle, the shared generator, not a new one (and
    so not an instance of this class)."""

    def __new__(cls, device=None):
        if device is not None and to_torch_device(device).type != "cpu":
            raise NotImplementedError(f"paddle.Generator(device={device!r}): only the CPU "
                                      "generator is available in paddle_compat")
        return _gen


@op
def manual_seed(seed):
    """``paddle.seed`` under torch's name: seeds every generator, returns the CPU one."""
    return _seed(seed)
