"""Common layers of ``paddle.nn.functional``: ``linear``, ``bilinear``, the dropout family,
``pad``, ``embedding``, ``one_hot``, ``interpolate``/``upsample``, ``normalize``,
``pairwise_distance``, ``cosine_similarity``, ``sequence_mask``, ``label_smooth``, the
sliding-block ops ``unfold`` (im2col) and ``fold`` (col2im).

Dropout on CPU draws its mask from the shared mt19937_64 engine of ``paddle_compat.random``
exactly as Paddle's CPU kernels do (one ``uniform_real_distribution<float>(0, 1)`` draw per
mask element, an element is kept when the draw is ``>= p``), so masks match Paddle's bit for bit
under the same ``paddle.seed``. On CUDA torch's generator makes the mask.
"""
import math

import numpy as np
import torch
import torch.fx

from ...framework import dtype as _dt
from ...framework.tensor import Tensor, wrap
from ...ops.common import not_tensor
from ...ops.decomposition import p_norm
from ...ops.decomposition import pdist as _pdist
from ...ops.matrices import diag_embed as _diag_embed
from ...ops.linalg import _mixed
from ... import random as _random   # the CPU engine (mt19937_64 shared with paddle.seed)
from ...random.distributions import keep_flags as _keep_flags
from ...static import proxy as _static_proxy
from .activation import inplace_target

__all__ = ["linear", "bilinear", "dropout", "dropout1d", "dropout2d", "dropout3d",
           "alpha_dropout", "feature_alpha_dropout", "pad", "zeropad2d", "embedding", "one_hot",
           "interpolate", "upsample", "normalize", "pairwise_distance", "cosine_similarity",
           "sequence_mask", "label_smooth", "unfold", "fold", "embedding_renorm_", "pdist",
           "diag_embed"]

# Paddle 3.3.1's F re-exports these ops (its F.diag_embed is a deprecated twin of the op)
pdist = _pdist
diag_embed = _diag_embed

_nn = torch._C._nn


def _int(v):
    """A Python int from an int or a one-element Tensor (Paddle accepts both for sizes)."""
    return int(v._t.item()) if isinstance(v, Tensor) else int(v)


def _ints(values):
    if isinstance(values, Tensor):
        return [int(v) for v in values._t.reshape(-1).tolist()]
    return [_int(v) for v in values]


# ---------------------------------------------------------------------- linear
_autocast = torch.is_autocast_enabled


def linear(x, weight, bias=None, name=None):
    """x @ weight + bias, with ``weight`` of shape [in_features, out_features] (Paddle's
    layout, the transpose of torch's). On the CPU the product and the sum are rounded apart,
    as Paddle's linear kernel (a matmul, then an add) does, not fused as torch's addmm."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("linear", "x", 0, x) from None
    w = weight._t
    try:
        if bias is None:
            return wrap(torch.matmul(t, w))
        b = bias._t
        if (isinstance(t, torch.Tensor) and t.device.type == "cpu" and w.device.type == "cpu"
                and b.dtype is t.dtype and not _autocast("cpu")):
            # eager only: a static graph keeps the one linear node jit.save writes
            return wrap(torch.matmul(t, w).add_(b))
        if t.dim() == 2:
            return wrap(torch.addmm(bias._t, t, w))
        return wrap(_nn.linear(t, w.t(), bias._t))
    except RuntimeError as e:
        if t.dtype is not w.dtype:
            # operands of different dtypes: as Paddle's matmul takes them (int weights of a
            # float32 input and real/complex pairs are cast, other pairs raise ValueError)
            t, w = _mixed(t, w)
            b = None if bias is None else wrap(bias._t.to(t.dtype))
            return linear(wrap(t), wrap(w), b)
        if "cannot be multiplied" not in str(e) and "size mismatch" not in str(e):
            raise
        raise ValueError(f"(InvalidArgument) In operator matmul, the last dimension of Input(X) "
                         f"({t.shape[-1]}) must be equal to the first dimension of Input(Y) "
                         f"({weight._t.shape[0]}).") from None


def bilinear(x1, x2, weight, bias=None, name=None):
    """x1^T W x2 + b per output feature; weight [out, in1, in2], bias [1, out]."""
    return wrap(torch.bilinear(x1._t, x2._t, weight._t,
                               None if bias is None else bias._t.reshape(-1)))


# ---------------------------------------------------------------------- dropout family
def _generator():
    return _random.default_generator


def _keep_mask(shape, p, device):
    """Dropout's keep mask (bool, ``shape``): on CPU Paddle's draws, one word of the shared
    mt19937_64 per element, kept where its float32 canonical (libstdc++'s
    ``uniform_real_distribution<float>(0, 1)``) is ``>= float32(p)``, compared in one pass
    over the words (``random.distributions.keep_flags``, in C where built)."""
    if device.type != "cpu":
        return torch.rand(shape, dtype=torch.float32, device=device) >= float(np.float32(p))
    mask = torch.empty(shape, dtype=torch.bool)
    _keep_flags(_generator(), mask.numel(), p, mask.numpy().reshape(-1))
    return mask


def _keep_mask_like(t, p):
    """The keep mask for ``t``; when ``t`` is traced (a graph's proxy, all dims known) a graph
    node that draws a fresh mask on every run, from the same engine and in the same order as
    eager execution, instead of one mask frozen into the graph."""
    if isinstance(t, torch.Tensor):
        return _keep_mask(tuple(t.shape), p, t.device)
    pv = t.node.meta["pv"]
    shape = tuple(pv[0].shape)
    if shape != tuple(pv[1].shape):               # unknown dims: drawn when the graph is built
        return _keep_mask(tuple(t.shape), p, t.device)
    meta = torch.empty(shape, dtype=torch.bool, device="meta")
    tracer = _static_proxy._active[-1] if _static_proxy._active else t.tracer
    return tracer.record("call_function", _keep_mask, (shape, p, t.device), {},
                         pv=(meta, meta), rg=False)


def dropout_keep(x, mask, k, upscale):
    """Dropout's output from its keep ``mask`` (bool, or uint8 read as ``!= 0``): ``x / k``
    (``upscale``) or ``x`` where kept, +0 where dropped, even for a NaN or an infinity, as
    Paddle's kernel writes it. What ``paddle_compat::dropout_apply`` computes: its fake
    kernel and inductor's decomposition of it (jit/compiled.py); CPU tensors take the
    faster ``_dropout_out``, the same bits."""
    keep = mask if mask.dtype == torch.bool else mask.to(torch.float32) != 0
    return torch.where(keep, x / k if upscale else x, 0.0)


_APPLY_OP = []


def dropout_apply_op():
    """``paddle_compat::dropout_apply(x, mask, k, upscale)``: ``dropout_keep`` with Paddle's
    backward, ``grad * mask / k`` (``grad * mask`` without ``upscale``), so a dropped
    element's gradient is -0 for a negative upstream value and NaN for a non-finite one, as
    Paddle's ``dropout_grad`` gives (autograd's backward of the ``where`` gave +0). Registered
    on first use (registering inspects the caller's module)."""
    if _APPLY_OP:
        return _APPLY_OP[0]

    @torch.library.custom_op("paddle_compat::dropout_apply", mutates_args=())
    def dropout_apply(x: torch.Tensor, mask: torch.Tensor, k: float,
                      upscale: bool) -> torch.Tensor:
        return _dropout_out(x, mask, k, upscale)

    @dropout_apply.register_fake
    def _(x, mask, k, upscale):
        return dropout_keep(x, mask, k, upscale)

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[1])
        ctx.k, ctx.upscale = inputs[2], inputs[3]

    def backward(ctx, grad):
        return _dropout_grad(grad, ctx.saved_tensors[0], ctx.k, ctx.upscale), None, None, None

    dropout_apply.register_autograd(backward, setup_context=setup_context)
    _APPLY_OP.append(torch.ops.paddle_compat.dropout_apply.default)
    return _APPLY_OP[0]


def _dropout_grad(grad, mask, k, upscale):
    """Paddle's dropout gradient: ``grad * mask`` (the mask as ``grad``'s dtype), divided by
    ``k`` with ``upscale``. A bool mask is converted through its uint8 view (ATen converts
    bool to float 7x slower here)."""
    g = grad * _as_uint8(mask).to(grad.dtype)
    return g.div_(k) if upscale else g


def _as_uint8(mask):
    """A keep mask as uint8 (a bool mask's view: ATen widens uint8 faster than bool)."""
    return mask.view(torch.uint8) if mask.dtype == torch.bool else mask


#: the integer type of each float type's size (``_dropout_out`` masks the bits)
_BITS_OF = {torch.float32: torch.int32, torch.float64: torch.int64,
            torch.float16: torch.int16, torch.bfloat16: torch.int16}


def _dropout_out(x, mask, k, upscale):
    """``dropout_keep`` on a CPU float tensor, faster: the kept values' bits ANDed with all
    ones, the dropped ones' with zero (+0). ATen's ``where`` on a bool mask runs element by
    element here: 180 us for 8x32x512 float32, against about 60 us this way."""
    bits = _BITS_OF.get(x.dtype)
    if bits is None or x.device.type != "cpu":
        return dropout_keep(x, mask, k, upscale)
    ones = _as_uint8(mask).to(bits).neg_()
    if upscale:
        out = x / k
        out.view(bits).bitwise_and_(ones)
        return out
    return x.view(bits).bitwise_and(ones).view(x.dtype)


class _DropoutFn(torch.autograd.Function):
    """Eager dropout: ``_dropout_out`` with ``_dropout_grad`` as its backward (the custom op
    does the same for graphs, at about 60 us more per call in eager)."""

    @staticmethod
    def forward(ctx, x, mask, k, upscale):
        ctx.save_for_backward(mask)
        ctx.k, ctx.upscale = k, upscale
        return _dropout_out(x, mask, k, upscale)

    @staticmethod
    def backward(ctx, grad):
        return _dropout_grad(grad, ctx.saved_tensors[0], ctx.k, ctx.upscale), None, None, None


def _dropout_apply(t, mask, k, upscale):
    """Dropout's output (``dropout_keep``, Paddle's gradient): ``_DropoutFn`` on tensors; a
    ``paddle_compat::dropout_apply`` node when ``t`` is traced."""
    if isinstance(t, torch.Tensor):
        if not (t.requires_grad and torch.is_grad_enabled()):
            return _dropout_out(t, mask, k, upscale)
        return _DropoutFn.apply(t, mask, float(k), bool(upscale))
    tracer = _static_proxy._active[-1] if _static_proxy._active else t.tracer
    op = dropout_apply_op()
    return tracer.record("call_function", op, (t, mask, float(k), bool(upscale)), {})


def _factor(t, value):
    """``value`` rounded as Paddle's kernel sees it: computed in float, cast to t's dtype."""
    if t.dtype in (torch.float16, torch.bfloat16):
        return float(torch.tensor(value, dtype=t.dtype))
    return value


def _check_dropout_args(p, mode):
    if isinstance(p, Tensor):
        if p._t.numel() != 1:
            raise ValueError("p argument should be a scalar Tensor")
        p = p._t.item()
    if isinstance(p, bool) or not isinstance(p, (float, int)):
        raise TypeError("p argument should be a number or Variable")
    if p < 0 or p > 1:
        raise ValueError("p argument should between 0 and 1")
    if mode not in ("downscale_in_infer", "upscale_in_train"):
        raise ValueError("mode argument should be 'downscale_in_infer' or 'upscale_in_train'")


def dropout(x, p=0.5, axis=None, training=True, inplace=False, mode="upscale_in_train",
            name=None):
    """Zero each element with probability ``p`` (or whole slices: the mask has x's size along
    ``axis`` and 1 elsewhere). ``upscale_in_train`` scales kept values by 1/(1-p) in training;
    ``downscale_in_infer`` scales by (1-p) at inference instead."""
    if not training and axis is None and mode == "upscale_in_train" and type(p) is float \
            and 0 <= p <= 1:
        try:
            return wrap(x._t)                           # inference: the input unchanged
        except AttributeError:
            raise not_tensor("dropout", "x", 0, x) from None
    if isinstance(p, (float, int)) and not isinstance(p, bool) and p == 0:
        return x
    _check_dropout_args(p, mode)
    scale = None
    if isinstance(p, Tensor):
        # a Tensor p (float32 in Paddle's graph): 1 / (1 - p) is computed in float32
        pf = np.float32(p._t.item())
        p, scale = float(pf), float(np.float32(1) / (np.float32(1) - pf)) if pf != 1 else None
    if axis and not isinstance(axis, (int, list, tuple)):
        raise TypeError("datatype of axis argument should be int or list")
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("dropout", "x", 0, x) from None
    upscale = mode == "upscale_in_train"
    if axis is None:
        # Paddle's dropout kernel: 1 - p is computed in float, then cast to x's dtype
        keep = float(np.float32(1) - np.float32(p))
        if not training:
            return wrap(t) if upscale else wrap(t * _factor(t, keep))
        if p == 1:
            # nothing kept, nothing drawn; Paddle's backward is 0 * grad
            out = _dropout_apply(t, torch.zeros((), dtype=torch.bool, device=t.device), 1.0,
                                 False)
            return _dropout_result(x, t, out, inplace)
        mask = _keep_mask_like(t, p)
        out = _dropout_apply(t, mask, _factor(t, keep), upscale)
        return _dropout_result(x, t, out, inplace)
    # dropout along axes: Paddle's Python path (scale, then multiply by a broadcast mask)
    if inplace:
        raise NotImplementedError("inplace not supported for dropout_nd yet")
    if not training:
        return wrap(t * (1 - p)) if mode == "downscale_in_infer" else x
    if p == 1:
        return wrap(t * 0.0)
    axes = [axis] if isinstance(axis, int) else list(axis)
    if min(axes) < 0 or max(axes) > t.dim() - 1:
        raise ValueError("axis value should be greater than or equal to 0 and less than "
                         f"dimensions of x:{t.dim()}, but get axis value:{max(axes)} ")
    if len(axes) > t.dim():
        raise ValueError(f"length of axis should not be greater than dimensions of x:{t.dim()}, "
                         f"but get length of axis: {len(axes)}")
    shape = [1] * t.dim()
    for a in axes:
        shape[a] = t.shape[a]
    mask = _keep_mask(tuple(shape), p, t.device).to(t.dtype)
    scaled = t * (scale if scale is not None else 1 / (1 - p)) if upscale else t
    return wrap(scaled * mask)


def _dropout_result(x, t, out, inplace):
    if not inplace:
        return wrap(out)
    inplace_target(x, "dropout_").copy_(out)
    return x


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Channel dropout of [N, C, L] (or [C, L]) input."""
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability must be in [0, 1], got {p}")
    nd = input._t.dim()
    if nd not in (2, 3):
        raise RuntimeError(f"dropout1d expects 2D or 3D input, got {nd}D")
    if nd == 2:
        out = dropout(wrap(input._t.unsqueeze(0)), p=p, axis=1, training=training)
        return wrap(out._t.squeeze(0))
    return dropout(input, p=p, axis=1, training=training)


def _channel_dropout(x, p, training, data_format, ndim, formats, name):
    shape = x.shape
    if len(shape) != ndim:
        raise ValueError(f"dimensions of x should be {ndim}, but received {len(shape)} != {ndim}")
    if data_format not in formats:
        raise ValueError(f"Attr(data_format) should be '{formats[0]}' or '{formats[1]}'. "
                         f"Received Attr(data_format): {data_format}.")
    axis = [0, 1] if data_format == formats[0] else [0, ndim - 1]
    return dropout(x, p=p, axis=axis, training=training, mode="upscale_in_train", name=name)


def dropout2d(x, p=0.5, training=True, data_format="NCHW", name=None):
    """Zero whole channels of a 4-D input."""
    return _channel_dropout(x, p, training, data_format, 4, ("NCHW", "NHWC"), name)


def dropout3d(x, p=0.5, training=True, data_format="NCDHW", name=None):
    """Zero whole channels of a 5-D input."""
    return _channel_dropout(x, p, training, data_format, 5, ("NCDHW", "NDHWC"), name)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _alpha_dropout(x, feature, p, training):
    if isinstance(p, bool) or not isinstance(p, (float, int)):
        raise TypeError("p argument should be a float or int")
    if p < 0 or p > 1:
        raise ValueError("p argument should between 0 and 1")
    if not training:
        return x
    t = x._t
    if p == 1:
        return wrap(t * 0.0)
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p
    if feature:
        if t.dim() < 2:
            raise ValueError("Feature alpha dropout needs at least 2D input.")
        shape = tuple(t.shape[:2]) + (1,) * (t.dim() - 2)
    else:
        shape = tuple(t.shape)
    keep = _keep_mask(shape, p, t.device).to(t.dtype)
    y = t * keep + (1 - keep) * alpha_p
    return wrap(y * a + b)


def alpha_dropout(x, p=0.5, training=True, name=None):
    """Dropout keeping SELU's self-normalisation: dropped values become SELU's negative
    saturation, then an affine map restores mean and variance."""
    return _alpha_dropout(x, False, p, training)


def feature_alpha_dropout(x, p=0.5, training=True, name=None):
    """``alpha_dropout`` of whole channels."""
    return _alpha_dropout(x, True, p, training)


# ---------------------------------------------------------------------- pad
_PAD_MODES = ("constant", "reflect", "replicate", "circular")
_PAD_FORMATS = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def pad(x, pad, mode="constant", value=0.0, data_format=None, pad_from_left_axis=True,
        name=None):
    """Paddle's two padding rules:

    * constant mode with a list whose length is not 2 * (x.ndim - 2): pairs for the last axes
      (the first pair for the last axis, as in torch), or, when the list covers all 2 * ndim
      entries and ``pad_from_left_axis``, pairs for the axes in order from the first;
    * otherwise (other modes, a Tensor ``pad``, or exactly the spatial count) the pairs pad
      the spatial axes of a 3/4/5-D input in ``data_format``, the last spatial axis first.
    """
    if mode not in _PAD_MODES:
        raise AssertionError("mode should be one of constant, reflect, replicate, circular, "
                             f"but got {mode}.")
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("pad", "x", 0, x) from None
    nd = t.dim()
    if isinstance(pad, Tensor):
        if pad._t.numel() == 0:
            return wrap(t.clone())
        pads = _ints(pad)
    else:
        pads = _ints(pad)
        if mode == "constant" and len(pads) != (nd - 2) * 2:
            if len(pads) == 2 * nd and pad_from_left_axis:
                pads = [v for i in range(nd - 1, -1, -1) for v in pads[2 * i:2 * i + 2]]
            return wrap(torch.constant_pad_nd(t, pads, value))
    if nd not in _PAD_FORMATS:
        raise AssertionError(f"input tensor dimension must be in [3, 4, 5] but got {nd}")
    fmt = _PAD_FORMATS[nd][0] if data_format is None else data_format.upper()
    if fmt not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise AssertionError("data_format should be in one of [NCL, NCHW, NCDHW, NLC, NHWC, "
                             f"NDHWC], but got {fmt}")
    if fmt not in _PAD_FORMATS[nd]:
        raise AssertionError(f"input tensor dimension is {nd}, it's data format should be in "
                             f"{list(_PAD_FORMATS[nd])} but got {fmt}")
    if len(pads) != 2 * (nd - 2):
        raise ValueError(f"(InvalidArgument) Size of paddings should be equal to 6, but received "
                         f"{len(pads) + 6 - 2 * (nd - 2)}.")
    channel_last = fmt[1] != "C"
    if channel_last:
        t = t.movedim(-1, 1)
    if mode == "constant":
        out = torch.constant_pad_nd(t, pads, value)
    else:
        out = _nn.pad(t, pads, mode)
    return wrap(out.movedim(1, -1) if channel_last else out)


def zeropad2d(x, padding, data_format="NCHW", name=None):
    """Zero padding of the two spatial axes: padding = [left, right, top, bottom]."""
    return pad(x, pad=padding, mode="constant", value=0, data_format=data_format, name=name)


# ---------------------------------------------------------------------- embedding, one_hot
def embedding(x, weight, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False,
              scale_grad_by_freq=False, name=None):
    """Rows of ``weight`` picked by the ids in x; rows of ``padding_idx`` come out as zeros
    and get no gradient. ``sparse`` gradients are computed dense."""
    w = weight._t
    ids = x._t
    if ids.dtype is not torch.int64 and ids.dtype is not torch.int32:
        if not isinstance(ids, torch.fx.Proxy):
            raise NotImplementedError(f"(Unimplemented) embedding input only support int32 and "
                                      f"int64, but get {_dt.from_torch_dtype(ids.dtype).name}")
        # a static program builds with other integer ids, as Paddle's does
        ids = ids.long()
    n = w.shape[0]
    if padding_idx is None:
        padding_idx = -1
    else:
        padding_idx = int(padding_idx)      # a numpy integer too
        if padding_idx < 0:
            padding_idx += n
    if n != 0 and (padding_idx >= n or padding_idx < -n):
        raise ValueError(f"padding_idx must be within [-{n}, {n})")
    if max_norm and w.numel() != 0:
        _renorm_rows(w, ids, max_norm, norm_type)
    if scale_grad_by_freq and sparse:
        raise AttributeError("scale_grad_by_freq = True is not supported with sparse update.")
    out = torch.embedding(w, ids, padding_idx, scale_grad_by_freq)
    if sparse and w.requires_grad:
        weight._sparse_grad = True  # Paddle's gradient of it is SelectedRows (optimizers check)
    if padding_idx >= 0:
        out = out.masked_fill((ids == padding_idx).unsqueeze(-1), 0)
    return wrap(out)


def _renorm_rows(w, ids, max_norm, norm_type):
    """Scale the rows of ``w`` picked by ``ids`` whose ``norm_type``-norm exceeds ``max_norm``
    to norm ``max_norm`` (times ``max_norm / (norm + 1e-7)``), in place, without gradient."""
    with torch.no_grad():
        if w.dtype is torch.float64:     # Paddle's paddle.norm: p_norm's float32 p
            rows = ids.reshape(-1).unique()
            sel = w.index_select(0, rows)
            norm = p_norm(sel, float(norm_type), 1, True)
            w.index_copy_(0, rows, sel * torch.where(norm > max_norm,
                                                     max_norm / (norm + 1e-7), 1.0))
        else:
            torch.embedding_renorm_(w, ids, max_norm, norm_type)


def embedding_renorm_(x, weight, max_norm, norm_type=2.0):
    """The rows of ``weight`` that the ids in x pick, renormalised in place to at most
    ``max_norm`` (what ``embedding(max_norm=)`` does first); returns ``weight``."""
    try:
        w, ids = weight._t, x._t
    except AttributeError:
        raise not_tensor("embedding_renorm_", "x" if not isinstance(x, Tensor) else "weight",
                         0 if not isinstance(x, Tensor) else 1,
                         x if not isinstance(x, Tensor) else weight) from None
    if w.numel() != 0:
        _renorm_rows(w, ids, float(max_norm), float(norm_type))
    return weight


def one_hot(x, num_classes=-1, name=None):
    """float32 one-hot vectors of the int ids in x (``num_classes=-1``: max id + 1)."""
    t = x._t
    n = num_classes._t if isinstance(num_classes, Tensor) else num_classes
    if isinstance(t, torch.Tensor) and not isinstance(n, torch.fx.Proxy):
        return wrap(_one_hot(t, n))
    # a static Variable (or depth): checked and made when the program runs; the last
    # dimension reads -1 unless depth is a known int
    known = n if isinstance(n, int) else (int(n.reshape(-1)[0]) if
                                          isinstance(n, torch.Tensor) else -1)
    anchor = t if isinstance(t, torch.fx.Proxy) else n
    return wrap(anchor.record_dims(_one_hot, (t, n), {}, list(x.shape) + [known],
                                   torch.float32))


def _one_hot(t, n):
    """float32 one-hot vectors of the ids ``t`` with depth ``n`` (an int or a one-element
    tensor; -1: the largest id + 1); Paddle's ValueError for an id out of range."""
    if isinstance(n, torch.Tensor):
        n = int(n.reshape(-1)[0])
    if n == -1:
        n = int(t.max()) + 1
    if t.numel() and (bool((t < 0).any()) or bool((t >= n).any())):
        raise ValueError(f"(InvalidArgument) Illegal index value, Input(input) value should be "
                         f"greater than or equal to 0, and less than depth [{n}], but "
                         "received input value out of range.")
    return _nn.one_hot(t.long(), n).to(torch.float32)


def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    """mask[..., j] = j < x[...] for j < maxlen (default: the largest length in x)."""
    t = x._t
    if isinstance(maxlen, Tensor):
        maxlen = _int(maxlen)
    if maxlen is None or maxlen < 0:
        maxlen = int(t.max()) if t.numel() else 0
    steps = torch.arange(maxlen, device=t.device, dtype=t.dtype)
    return wrap((steps < t.unsqueeze(-1)).to(_dt.convert_dtype(dtype).torch))


def label_smooth(label, prior_dist=None, epsilon=0.1, name=None):
    """(1 - epsilon) * label + epsilon * prior (uniform over the last axis by default)."""
    if epsilon > 1.0 or epsilon < 0.0:
        raise ValueError("The value of epsilon must be between 0 and 1.")
    t = label._t
    # Paddle's kernel takes epsilon as a float32 attribute and forms 1 - epsilon and
    # epsilon / classes in float32 before the element type (float64 results show it)
    eps32 = np.float32(epsilon)
    keep = float(np.float32(1) - eps32)
    if prior_dist is None:
        return wrap(t * keep + float(eps32 / np.float32(t.shape[-1])))
    return wrap(t * keep + float(eps32) * prior_dist._t)


# ---------------------------------------------------------------------- distances
def normalize(x, p=2, axis=1, epsilon=1e-12, out=None, name=None):
    """x / max(||x||_p along axis, epsilon)."""
    t = x._t
    if isinstance(axis, int) and not -t.dim() <= axis < max(t.dim(), 1):
        raise ValueError("(InvalidArgument) Attr(axis) value should be in range [-R, R-1], R is "
                         f"the rank of Input(X). But received axis: {axis}, R: {t.dim()}.")
    norm = p_norm(t, float(p), axis, True)
    res = t / norm.clamp_min(epsilon)
    if out is not None:
        out._t.copy_(res)
        return out
    return wrap(res)


def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    """||x - y + epsilon||_p over the last axis."""
    sub = x._t - y._t
    if epsilon != 0.0:
        sub = sub + torch.full((1,), epsilon, dtype=sub.dtype, device=sub.device)
    return wrap(p_norm(sub, float(p), -1, keepdim))


def cosine_similarity(x1, x2, axis=1, eps=1e-8):
    """sum(x1 * x2) / sqrt(max(sum(x1^2) * sum(x2^2), eps^2)) along ``axis`` (the product of
    the squared norms is clipped, not each norm as in torch)."""
    a, b = x1._t, x2._t
    na, nb = a.shape[axis], b.shape[axis]
    w12 = (a * b).sum(axis)
    if na == 0 or nb == 0:
        return wrap(w12)
    n = max(na, nb)
    w1 = (a * a).sum(axis)
    w2 = (b * b).sum(axis)
    if n != na:
        w1 = w1 * (n / na)
    if n != nb:
        w2 = w2 * (n / nb)
    return wrap(w12 / torch.sqrt((w1 * w2).clamp_min(eps * eps)))


# ---------------------------------------------------------------------- interpolate
_INTERP_DIMS = {"LINEAR": (3,), "BILINEAR": (4,), "BICUBIC": (4,), "TRILINEAR": (5,),
                "NEAREST": (4, 5), "AREA": (3, 4, 5)}
_DEFAULT_LAYOUT = {3: "NCW", 4: "NCHW", 5: "NCDHW"}
_LAYOUTS = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def _scales_arg(scale, n):
    """scale_factor as a list of n positive floats."""
    if isinstance(scale, Tensor):
        scale = float(scale) if scale._t.dim() == 0 else scale._t.tolist()
    if isinstance(scale, (float, int, np.ndarray, np.generic)) and not isinstance(scale, bool):
        if scale <= 0:
            raise ValueError("Attr(scale) should be greater than zero.")
        return [float(scale)] * n
    if isinstance(scale, (list, tuple)):
        if len(scale) != n:
            raise ValueError(f"scale_shape length should be {n} for input {n + 2}-D tensor.")
        for v in scale:
            if v <= 0:
                raise ValueError("Attr(scale) should be greater than zero.")
        return [float(v) for v in scale]
    raise TypeError("Attr(scale)'s type should be float, int, list, tuple, or Tensor.")


def _linear_asymmetric(t, out_size, scales):
    """Linear interpolation with source index ``ratio * i`` on every spatial axis (Paddle's
    ``align_mode=1`` without ``align_corners``), one axis at a time."""
    for k, out_n in enumerate(out_size):
        axis = 2 + k
        in_n = t.shape[axis]
        if scales is not None:
            ratio = np.float32(1.0 / scales[k])
        else:
            ratio = np.float32(in_n) / np.float32(out_n)
        src = np.float32(ratio) * np.arange(out_n, dtype=np.float32) if out_n > 1 else \
            np.zeros(out_n, dtype=np.float32)
        lo = np.maximum(src.astype(np.int64), 0)
        hi = np.where(lo < in_n - 1, lo + 1, lo)
        lam = torch.from_numpy(src - lo.astype(np.float32)).to(t.dtype).to(t.device)
        lam = lam.reshape((out_n,) + (1,) * (t.dim() - 1 - axis))
        lo_t = torch.from_numpy(lo).to(t.device)
        hi_t = torch.from_numpy(hi).to(t.device)
        t = t.index_select(axis, lo_t) * (1 - lam) + t.index_select(axis, hi_t) * lam
    return t


def _centre_of_one(method, align_mode):
    """Whether Paddle's kernel keeps the half-pixel step for an output of one (so it samples
    the input's centre): its 1-D linear and trilinear kernels with ``align_mode=0`` do; the
    bilinear and bicubic ones (and ``align_mode=1``) step 0 and sample element 0."""
    return align_mode == 0 and method in ("LINEAR", "TRILINEAR")


def _f32_ratio(in_n, out_n, scale, align_corners, centre=False):
    """The source step of Paddle's CPU resize kernels, a float32: (in - 1) / (out - 1) with
    align_corners, else float(1. / scale) for a scale factor, else float(in) / out; 0 for an
    output of one, unless ``centre`` (``_centre_of_one``) without align_corners."""
    if out_n <= 1 and (align_corners or not centre):
        return np.float32(0)
    if align_corners:
        return np.float32(in_n - 1) / np.float32(out_n - 1)
    if scale is not None:
        return np.float32(1.0 / scale)
    return np.float32(in_n) / np.float32(out_n)


def _linear_taps(in_n, out_n, ratio, half_pixel, arith):
    """([lo, hi], [w_lo, w_hi]) of Paddle's linear kernels on one axis, from the source
    position ratio * (i + 0.5) - 0.5 (``half_pixel``) or ratio * i. Paddle 3.3.1's kernels
    differ in how they compute it (``arith``): "double" (1-D linear: double position and
    weights), "rounded" (bilinear's H axis: double position rounded to float32, float32
    weights), "float" (bilinear's W axis, trilinear: float32 arithmetic throughout)."""
    i = np.arange(out_n)
    f32 = np.float32
    if not half_pixel:
        src = (ratio * i.astype(f32)).astype(np.float64)      # float ratio times int: float
    elif arith == "float":
        src = ((ratio * (i + 0.5).astype(f32)).astype(f32) - f32(0.5)).astype(np.float64)
    else:
        src = float(ratio) * (i + 0.5) - 0.5
        if arith == "rounded":
            src = src.astype(f32).astype(np.float64)
    lo = np.maximum(src.astype(np.int64), 0)
    if arith == "double":
        w_hi = np.maximum(src, 0.0) - lo
        w_lo = 1.0 - w_hi
    else:
        w_hi = np.maximum(src.astype(f32), f32(0)) - lo.astype(f32)
        w_lo = f32(1) - w_hi
    lo = np.minimum(lo, in_n - 1)
    return [lo, np.minimum(lo + 1, in_n - 1)], [w_lo, w_hi]


def _cubic_taps(in_n, out_n, ratio, align_corners):
    """(4 indices, 4 weights) of Paddle's bicubic kernel on one axis: the source position from
    the float32 ratio, its fraction and the cubic-convolution weights (A = -0.75) in double."""
    i = np.arange(out_n)
    if align_corners:
        src = (ratio * i.astype(np.float32)).astype(np.float64)
    else:
        src = float(ratio) * (i + 0.5) - 0.5
    base = np.floor(src.astype(np.float32)).astype(np.int64)    # floorf
    t = src - base
    a = -0.75

    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    weights = [far(t + 1.0), near(t), near(1.0 - t), far(1.0 - t + 1.0)]
    return [np.clip(base - 1 + k, 0, in_n - 1) for k in range(4)], weights


_ARITH = {"LINEAR": ("double",), "BILINEAR": ("rounded", "float"),
          "TRILINEAR": ("float", "float", "float")}


def _resize_float64(t, out_size, scales, align_corners, align_mode, method):
    """linear/bilinear/trilinear/bicubic resizing of a float64 (N, C, *spatial) tensor as
    Paddle's CPU kernels compute it: a float32 ratio (from the double scale factor), and source
    positions and weights partly in float32 (_linear_taps), where torch's float64 kernels use
    double throughout (they differ by up to ~1e-5). One axis at a time (Paddle sums the 2**k
    corner products at once: ulp-level apart)."""
    for k, out_n in enumerate(out_size):
        axis = 2 + k
        in_n = t.shape[axis]
        ratio = _f32_ratio(in_n, out_n, None if scales is None else scales[k], align_corners,
                           _centre_of_one(method, align_mode))
        if method == "BICUBIC":
            idx, w = _cubic_taps(in_n, out_n, ratio, align_corners)
        else:
            idx, w = _linear_taps(in_n, out_n, ratio, align_mode == 0 and not align_corners,
                                  _ARITH[method][k])
        shape = (out_n,) + (1,) * (t.dim() - 1 - axis)
        acc = None
        for ik, wk in zip(idx, w):
            term = t.index_select(axis, torch.from_numpy(ik).to(t.device)) * \
                torch.from_numpy(np.asarray(wk, dtype=np.float64)).to(t.device).reshape(shape)
            acc = term if acc is None else acc + term
        t = acc
    return t


def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
                align_mode=0, data_format=None, recompute_scale_factor=None, name=None,
                antialias=False):
    """Resize the spatial axes (W; H, W; or D, H, W) of a 3/4/5-D input.

    Also takes torch's positional form ``(input, size, scale_factor, mode, align_corners,
    recompute_scale_factor, antialias)``. ``align_mode=1`` (with ``align_corners=False``)
    samples source index ``i * in / out`` instead of the half-pixel rule."""
    if type(align_mode) is not int:     # torch's positional order, as Paddle detects it
        recompute_scale_factor, antialias = align_mode, bool(data_format)
        align_mode, data_format = 0, None
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("interpolate", "x", 0, x) from None
    nd = t.dim()
    if data_format is None:
        if nd not in _DEFAULT_LAYOUT:
            raise ValueError("The dimension of the input tensor should only be 3-D, 4-D or 5-D, "
                             f"but the received dimension is {nd}.")
        data_format = _DEFAULT_LAYOUT[nd]
    data_format = data_format.upper()
    method = mode.upper()
    if method not in _INTERP_DIMS:
        raise ValueError("The 'resample' of image_resize can only be 'area', 'linear', "
                         "'bilinear', 'trilinear',  'bicubic' or 'nearest' currently.")
    if nd not in _INTERP_DIMS[method]:
        raise ValueError({"LINEAR": "'linear' only support 3-D tensor.",
                          "NEAREST": "'NEAREST' only support 4-D  or 5-D tensor.",
                          "BILINEAR": "'bilinear' and 'bicubic' only support 4-D tensor.",
                          "BICUBIC": "'bilinear' and 'bicubic' only support 4-D tensor.",
                          "TRILINEAR": "'trilinear'only support 5-D tensor."}.get(
                              method, f"The dimension of the input tensor should only be "
                                      f"3-D, 4-D or 5-D, but the received dimension is {nd}."))
    if size is None and scale_factor is None:
        raise ValueError("One of size and scale_factor must not be None.")
    if isinstance(size, (list, tuple)) and len(size) != nd - 2:
        raise ValueError("The x and size should satisfy rank(x) - 2 == len(size).")
    if not isinstance(align_corners, bool):
        raise TypeError("Attr align_corners should be a bool value")
    if not isinstance(antialias, bool):
        raise TypeError("Attr antialias should be a bool value")
    if align_mode != 0 and align_mode != 1:
        raise ValueError("align_mode can only be 0 or 1")
    if align_corners and method == "NEAREST":
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    if antialias and method not in ("BILINEAR", "BICUBIC"):
        raise ValueError("Anti-alias option is only supported for bilinear and bicubic modes")
    if method == "AREA":
        # Paddle hands 'area' to adaptive average pooling, whatever the data_format
        if size is None:
            raise ValueError("output size can not be None in AREA mode")
        out_size = [_int(size)] if isinstance(size, int) else _ints(size)
        if not out_size:
            raise ValueError("output size can not be empty")
        pool = {3: torch.adaptive_avg_pool1d, 4: _nn.adaptive_avg_pool2d,
                5: _nn.adaptive_avg_pool3d}[nd]
        return wrap(pool(t, out_size))
    if data_format not in _LAYOUTS[nd]:
        raise ValueError(f"Got wrong value for param `data_format`: {data_format} received but "
                         f"only `{_LAYOUTS[nd][0]}` or `{_LAYOUTS[nd][1]}` supported for "
                         f"{nd}-D input.")
    if size is not None and scale_factor is not None:
        raise ValueError("Only one of size or scale_factor should be defined.")
    channel_last = data_format[1] != "C"
    if channel_last:
        t = t.movedim(-1, 1)
    spatial = t.shape[2:]
    scales = None
    if size is not None:
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        out_size = _ints(size)
        for d in out_size:
            if d <= 0:
                raise AssertionError("Each dimension size given in out_shape must be greater "
                                     "than 0.")
    else:
        factors = _scales_arg(scale_factor, nd - 2)
        if recompute_scale_factor:
            out_size = [int(math.floor(float(n) * s)) for n, s in zip(spatial, factors)]
        else:
            # the kernel samples with the scales held as float, but the output size is the
            # double product: 10 * 6.699999999999998 gives 66 (float32 arithmetic: 67)
            scales = [float(np.float32(s)) for s in factors]
            out_size = [int(float(n) * float(s)) for n, s in zip(spatial, factors)]
        for axis, n in zip("dhw"[3 - len(out_size):], out_size):
            if n <= 0:
                raise ValueError(f"(InvalidArgument) out_{axis} in Attr(out_shape) of "
                                 f"Op(interpolate) should be greater than 0.")
    sc = scales if scales is not None else [None] * (nd - 2)
    if not align_corners and 1 in out_size and not _centre_of_one(method, align_mode):
        # Paddle samples source index 0 for an output size of 1 (ratio 0); an infinite scale
        # gives torch that ratio
        sc = [math.inf if n == 1 else s for n, s in zip(out_size, sc)]
    if method == "NEAREST":
        fn = _nn.upsample_nearest2d if nd == 4 else _nn.upsample_nearest3d
        out = fn(t, out_size, *sc)
    elif t.dtype is torch.float64 and not antialias and list(spatial) != out_size:
        out = _resize_float64(t, out_size, None if scales is None else factors, align_corners,
                              align_mode, method)
    elif method == "BICUBIC":
        fn = _nn._upsample_bicubic2d_aa if antialias else _nn.upsample_bicubic2d
        out = fn(t, out_size, align_corners, *sc)
    elif align_mode == 1 and not align_corners and not antialias:
        out = _linear_asymmetric(t, out_size, scales)
    elif method == "BILINEAR":
        fn = _nn._upsample_bilinear2d_aa if antialias else _nn.upsample_bilinear2d
        out = fn(t, out_size, align_corners, *sc)
    else:
        fn = _nn.upsample_linear1d if nd == 3 else _nn.upsample_trilinear3d
        out = fn(t, out_size, align_corners, *sc)
    return wrap(out.movedim(1, -1) if channel_last else out)


def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
             align_mode=0, data_format=None, name=None):
    """Same as ``interpolate``."""
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format)


# ---------------------------------------------------------------------- sliding blocks
class NotSupportedTensorArgumentError(TypeError):
    """Paddle's error for a size argument of the wrong form (``paddle.utils``' class)."""

    def __init__(self, msg, name):
        super().__init__(msg)
        self.name = name


def _pair(v, what, err=NotSupportedTensorArgumentError):
    if isinstance(v, int):
        return [v, v]
    if not (isinstance(v, (list, tuple)) and len(v) == 2):
        msg = f"{what} should either be an integer or a list/tuple of two integers"
        raise err(msg, what) if err is NotSupportedTensorArgumentError else err(msg)
    return list(v)


def _block_pads(paddings, err=NotSupportedTensorArgumentError):
    """Paddle's [top, left, bottom, right] (or [h, w], or one int) paddings."""
    if isinstance(paddings, int):
        return [paddings] * 4
    if isinstance(paddings, (list, tuple)):
        if len(paddings) in (2, 4):
            return list(paddings) * (2 if len(paddings) == 2 else 1)
        raise ValueError("paddings should either be an integer or a list/tuple of 2 or 4 "
                         "integers")
    msg = ("Unexpected type of paddings, it should be either an integer or a list/tuple of 2 "
           "or 4 integers")
    raise err(msg, "paddings") if err is NotSupportedTensorArgumentError else err(msg)


def _im2col(t, k, d, p, s):
    try:
        return _nn.im2col(t, k, d, p, s)
    except RuntimeError as e:           # blocks that do not fit: Paddle's ValueError
        raise ValueError(f"(InvalidArgument) unfold: the sliding blocks of kernel_sizes {list(k)} "
                         f"do not fit the input: {e}") from None


def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """Sliding blocks of [N, C, H, W] as columns: [N, C * kh * kw, L]; ``paddings`` is
    [top, left, bottom, right] (or [h, w] or an int)."""
    t = x._t
    assert t.dim() == 4, "input should be the format of [N, C, H, W]"
    if type(kernel_sizes) is int and type(strides) is int and type(paddings) is int \
            and type(dilations) is int:
        return wrap(_im2col(t, (kernel_sizes,) * 2, (dilations,) * 2, (paddings,) * 2,
                               (strides,) * 2))
    k = _pair(kernel_sizes, "kernel_sizes")
    s, d = _pair(strides, "strides"), _pair(dilations, "dilations")
    top, left, bottom, right = _block_pads(paddings)
    if top == bottom and left == right:
        return wrap(_im2col(t, k, d, [top, left], s))
    t = torch.nn.functional.pad(t, (left, right, top, bottom))
    return wrap(_im2col(t, k, d, [0, 0], s))


def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """Sum columns [N, C * kh * kw, L] back into [N, C, H, W] (the adjoint of ``unfold``).
    ``paddings`` must be symmetric (Paddle's kernel rejects top != bottom, left != right)."""
    t = x._t
    assert t.dim() == 3, "input should be the format of [N, C, L]"
    size = _pair(output_sizes, "output_sizes", AssertionError)
    k = _pair(kernel_sizes, "kernel_sizes", AssertionError)
    s = _pair(strides, "strides", AssertionError)
    d = _pair(dilations, "dilations", AssertionError)
    pads = _block_pads(paddings, ValueError)
    for pos, (what, v) in enumerate((("output_sizes", size), ("kernel_sizes", k),
                                     ("strides", s), ("paddings", pads), ("dilations", d))):
        for e in v:
            if not isinstance(e, (int, np.integer)):
                raise TypeError(f"(InvalidType) fold(): argument '{what}' (position {pos + 1}) "
                                f"must be list[int], but got {type(e).__name__}")
    if min(k) <= 0:
        raise ValueError("(InvalidArgument) The `kernel_sizes` should be greater than zero, but "
                         f"received kernel_height: {k[0]} kernel_width: {k[1]}.")
    if min(s) <= 0:
        raise ValueError("(InvalidArgument) The `strides` should be greater than zero, but "
                         f"received strides_height: {s[0]} strides_width: {s[1]}.")
    for i, what in ((0, "height"), (1, "width")):
        if size[i] <= 0:
            raise ValueError(f"(InvalidArgument) The `output_{what}` should be greater than "
                             f"zero, but received output_{what}: {size[i]} .")
    if min(d) <= 0:
        raise ValueError("(InvalidArgument) The `dilations` should be greater than zero, but "
                         f"received dilations_height: {d[0]} dilations_width: {d[1]}.")
    blocks = [(size[i] + 2 * pads[i] - (d[i] * (k[i] - 1) + 1)) // s[i] + 1 for i in (0, 1)]
    if blocks[0] * blocks[1] != t.shape[-1]:
        raise ValueError(f"(InvalidArgument) Given input output_size ({size[0]}, {size[1]}), "
                         f"kernel_sizes ({k[0]}, {k[1]}), strides ({s[0]}, {s[1]}), dilations "
                         f"({d[0]}, {d[1]}), which should be expected size of input's dimension "
                         f"2 to match the calculated number of {blocks[0]} * {blocks[1]} = "
                         f"{blocks[0] * blocks[1]}, but got {t.shape[-1]}")
    for i, what in ((0, "height"), (1, "width")):
        if pads[i] != pads[i + 2]:
            side = "(padding_up, padding_down)" if i == 0 else "(padding_left, padding_right)"
            raise ValueError(f"(InvalidArgument) Output_{what} and padding{side} are "
                             "inconsistent.")
    return wrap(_nn.col2im(t, size, k, d, pads[:2], s))
