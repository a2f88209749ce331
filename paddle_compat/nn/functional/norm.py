"""Normalisation functions of ``paddle.nn.functional``: ``layer_norm``, ``batch_norm``,
``instance_norm``, ``group_norm``, ``rms_norm``, ``local_response_norm``.

Paddle's layer_norm, batch_norm and instance_norm kernels take epsilon as a C++ float: float64
input sees it rounded to float32 (group_norm's keeps all its digits).

Paddle's batch-norm momentum is the weight of the *old* running value
(``running = running * momentum + batch * (1 - momentum)``, torch's is the opposite) and its
running variance is updated with the biased batch variance.
"""
import numbers

import torch

from ...framework.tensor import wrap
from ...ops.common import F64, float_attr, not_tensor

__all__ = ["layer_norm", "batch_norm", "instance_norm", "group_norm", "rms_norm",
           "local_response_norm"]

_CUDNN = torch.backends.cudnn.enabled


def _opt(v):
    return None if v is None else v._t


def _flat_param(p, shape, what):
    """A layer-norm parameter: Paddle takes it 1-D (the normalised axes flattened)."""
    if p is None:
        return None
    t = p
    if t.dim() != 1:
        raise ValueError(f"(InvalidArgument) The dimensions of Input({what}) must be 1, but "
                         f"received dimensions of Input({what}) is [{t.dim()}]")
    return t.reshape(shape) if len(shape) != 1 else t


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Normalise over the trailing axes ``normalized_shape``; weight and bias are 1-D (the
    normalised axes flattened) as Paddle's kernel requires, epsilon at most 1e-3."""
    try:
        t = x._t
    except AttributeError:
        raise not_tensor("layer_norm", "x", 0, x) from None
    if type(normalized_shape) is int or isinstance(normalized_shape, numbers.Integral):
        shape = [int(normalized_shape)]
    elif isinstance(normalized_shape, (list, tuple)):
        shape = list(normalized_shape)
    else:
        raise ValueError("`normalized_shape` should be int, list of ints or tuple of ints.")
    k = len(shape)
    if t.dim() < k or list(t.shape[t.dim() - k:]) != shape:
        raise ValueError(f"Given normalized_shape is {shape}, expected input with shape [*, "
                         f"{str(shape)[1:]}, but got input shape {list(t.shape)}")
    if not 0.0 <= epsilon <= 0.001:
        raise ValueError(f"(InvalidArgument) 'epsilon' in Op(LayerNorm) should be between0.0 and "
                         f"0.001, But received [{epsilon}].")
    w = None if weight is None else weight._t
    b = None if bias is None else bias._t
    if k != 1 or (w is not None and w.dim() != 1) or (b is not None and b.dim() != 1):
        w = _flat_param(w, shape, "Scale")
        b = _flat_param(b, shape, "Bias")
    if t.dtype is F64:
        epsilon = float_attr(epsilon)
    return wrap(torch.layer_norm(t, shape, w, b, epsilon, _CUDNN))


_BN_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.9, epsilon=1e-05, data_format="NCHW", use_global_stats=None,
               name=None):
    """Batch normalisation over every axis but the channel one. With batch statistics
    (``training`` unless ``use_global_stats`` says otherwise) ``running_mean``/``running_var``
    are updated in place with Paddle's momentum convention."""
    t = x._t
    if t.dim() < 2:
        raise AssertionError("input dim must be larger than 1")
    if data_format not in _BN_FORMATS:
        raise ValueError("data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', "
                         f"'NLC', 'NHWC', 'NDHWC' but receive {data_format}")
    if use_global_stats is None:
        use_global_stats = not training
    channel_last = data_format[1] != "C" and t.dim() > 2
    if channel_last:
        t = t.movedim(-1, 1)
    rm, rv = running_mean._t, running_var._t
    w, b = _opt(weight), _opt(bias)
    if t.dtype is F64:
        epsilon = float_attr(epsilon)
    if use_global_stats:
        out = torch.batch_norm(t, w, b, rm, rv, False, 0.0, epsilon, _CUDNN)
    elif t.numel() == t.shape[1]:
        # one value per channel: Paddle's kernel passes x through and keeps the statistics
        out = t.clone()
    else:
        out = torch.batch_norm(t, w, b, None, None, True, 0.0, epsilon, _CUDNN)
        with torch.no_grad():
            dims = [0] + list(range(2, t.dim()))
            var, mean = torch.var_mean(t.detach(), dim=dims, correction=0)
            if isinstance(t, torch.Tensor) or not isinstance(rm, torch.Tensor):
                rm.mul_(momentum).add_(mean.to(rm.dtype), alpha=1 - momentum)
                rv.mul_(momentum).add_(var.to(rv.dtype), alpha=1 - momentum)
            else:
                # traced (jit.to_static) with real running statistics: one recorded update
                # per statistic, so the graph (not the trace) moves them on every call
                rm.copy_(torch.add(mean.to(rm.dtype) * (1 - momentum), rm, alpha=momentum))
                rv.copy_(torch.add(var.to(rv.dtype) * (1 - momentum), rv, alpha=momentum))
    return wrap(out.movedim(1, -1) if channel_last else out)


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.9, eps=1e-05, data_format="NCHW", name=None):
    """Normalise each (sample, channel) over its spatial axes. As in Paddle's dynamic mode the
    statistics always come from the input: the running statistics, ``use_input_stats``,
    ``momentum`` and ``data_format`` are not used."""
    t = x._t
    if t.dtype is F64:
        eps = float_attr(eps)
    if t.dim() >= 2 and t[0, 0].numel() == 1:
        # one value per (sample, channel): it is its own mean, so exactly 0 before the
        # affine part (torch's kernel leaves rounding residue, amplified by 1/sqrt(eps))
        out = t - t
        shape = (1, -1) + (1,) * (t.dim() - 2)
        if weight is not None:
            out = out * weight._t.reshape(shape)
        if bias is not None:
            out = out + bias._t.reshape(shape)
        return wrap(out)
    return wrap(torch.instance_norm(t, _opt(weight), _opt(bias), None, None, True, 0.0, eps,
                                    _CUDNN))


def group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format="NCHW",
               name=None):
    """Normalise channel groups. Also takes torch's positional order
    ``(input, num_groups, weight, bias, eps)`` (the third argument not being a float)."""
    if epsilon is not None and not isinstance(epsilon, float) and not isinstance(epsilon, int):
        epsilon, weight, bias = (1e-05 if bias is None else bias), epsilon, weight
    elif epsilon is None:
        epsilon, weight, bias = (1e-05 if bias is None else bias), None, weight
    if data_format not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError("unsupported data layout:" + data_format)
    t = x._t
    channel_last = data_format[1] != "C"
    if channel_last:
        t = t.movedim(-1, 1)
    if t.shape[1] % num_groups:
        raise ValueError(f"(InvalidArgument) Expected number of channels in input to be divisible "
                         f"by num_groups, but got input channel is {t.shape[1]} and num_groups "
                         f"is {num_groups}")
    out = torch.group_norm(t, num_groups, _opt(weight), _opt(bias), epsilon, _CUDNN)
    return wrap(out.movedim(1, -1) if channel_last else out)


def rms_norm(input, normalized_shape, weight=None, eps=1e-05, name=None):
    """x / sqrt(mean(x^2 over the trailing ``normalized_shape`` axes) + eps) * weight.
    Returns (out, invvar) as Paddle does, invvar being the float32 reciprocal RMS of each row
    (the leading axes flattened)."""
    t = input._t
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = [int(normalized_shape)]
    k = len(normalized_shape)
    if list(t.shape[t.dim() - k:]) != list(normalized_shape):
        raise ValueError(f"normalized_shape {list(normalized_shape)} does not match the last "
                         f"axes of the input shape {list(t.shape)}")
    dims = list(range(t.dim() - k, t.dim()))
    tf = t.float()
    invvar = torch.rsqrt(tf.square().mean(dims, keepdim=True) + eps)
    out = tf * invvar
    if weight is not None:
        out = out * weight._t.float()
    return wrap(out.to(t.dtype)), wrap(invvar.reshape(-1))


_LRN_FORMATS = ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC")


def local_response_norm(x, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW",
                        name=None):
    """x / (k + alpha * mean of x^2 over ``size`` neighbouring channels)^beta, the window
    zero-padded by size // 2 before and (size - 1) // 2 after (torch's definition too)."""
    if data_format not in _LRN_FORMATS:
        raise ValueError("data_format should be in one of [NCL, NCHW, NCDHW, NLC, NHWC, NDHWC], "
                         f"but got {data_format}")
    t = x._t
    if t.dim() < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input, but got {t.dim()} "
                         "dimensions")
    for i, sz in enumerate(t.shape):
        if i > 0 and not sz > 0:
            raise ValueError(f"Expected every dim's size to be larger than 0, but the size of the "
                             f"{i}-th dim is {sz}")
    last = data_format[-1] == "C"
    if last:
        t = t.movedim(-1, 1)
    if t.dtype is F64:                 # Paddle raises to beta with pow, whose exponent is a float
        beta = float_attr(beta)
    out = torch.nn.functional.local_response_norm(t, size, alpha, beta, k)
    return wrap(out.movedim(1, -1) if last else out)
