"""Convolutions of ``paddle.nn.functional``: ``conv1d/2d/3d`` and their transposes.

Weights use Paddle's layouts, which are torch's: ``[out, in/groups, k...]`` for a convolution and
``[in, out/groups, k...]`` for a transpose. Paddle's padding forms are all accepted: an int, one
int per spatial dim, a ``[before, after]`` pair per spatial dim (flat), a pair per dim including
batch and channel (which must be zero), and the strings ``'SAME'`` / ``'VALID'``. Symmetric
padding goes straight to torch; asymmetric and ``'SAME'`` padding pad the input explicitly (or
crop the output of a transpose). Channel-last layouts run as permuted views.

``padding_arg`` and ``ntuple`` are shared with ``pooling``.
"""
import torch

from ...framework.tensor import wrap
from ...ops.common import not_tensor

__all__ = ["conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose",
           "conv3d_transpose"]

_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}
_CONV = {1: torch.conv1d, 2: torch.conv2d, 3: torch.conv3d}
_CONVT = {1: torch.conv_transpose1d, 2: torch.conv_transpose2d, 3: torch.conv_transpose3d}
_pad = torch.nn.functional.pad


def ntuple(v, n, what):
    """``v`` (an int or n ints) as a tuple of n ints; Paddle's ValueError otherwise."""
    if isinstance(v, int):
        return (v,) * n
    try:
        out = tuple(int(a) for a in v)
    except TypeError:
        raise ValueError(f"The {what}'s type must be list or tuple. Received: {v}") from None
    if len(out) != n:
        raise ValueError(f"The {what}'s length must be {n}. Received: {v}")
    return out


def padding_arg(padding, nd, channel_last, ceil_mode=False, pool=False):
    """Paddle's padding forms as ``(pads, same)``: ``pads`` holds ``[before, after]`` per spatial
    dim (flat, 2*nd ints; zeros for 'SAME', which ``same`` flags and is resolved per input)."""
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"Unknown padding: '{p}'. It can only be 'SAME' or 'VALID'.")
        if p == "VALID" and pool and ceil_mode:
            raise ValueError('When Attr(padding) is "VALID", Attr(ceil_mode) must be False. '
                             'Received ceil_mode: True.')
        return [0] * (2 * nd), p == "SAME"
    if isinstance(padding, (list, tuple)):
        if len(padding) == nd + 2 and isinstance(padding[0], (list, tuple)):
            outer = (padding[0], padding[-1]) if channel_last else (padding[0], padding[1])
            if any(list(o) != [0, 0] for o in outer):
                raise ValueError(f"Non-zero padding({padding}) in the batch or channel "
                                 "dimensions is not supported.")
            inner = padding[1:-1] if channel_last else padding[2:]
            pads = [int(a) for pair in inner for a in pair]
        elif len(padding) == 2 * nd and isinstance(padding[0], int):
            pads = [int(a) for a in padding]
        elif len(padding) == nd and isinstance(padding[0], int):
            pads = [int(a) for a in padding for _ in range(2)]
        else:
            raise ValueError(f"{'Invalid' if pool else 'In valid'} padding: {padding}")
    else:
        pads = [int(padding)] * (2 * nd)
    if not pool and any(p < 0 for p in pads):
        raise ValueError("Invalid padding, all value should be larger than or equal to 0, but "
                         f"received: {pads}")
    return pads, False


def same_pads(sizes, strides, kernels):
    """Paddle's 'SAME' padding for spatial ``sizes``: the output is ceil(size / stride), the
    total padding split with the smaller half before."""
    pads = []
    for n, s, k in zip(sizes, strides, kernels):
        total = max((-(-n // s) - 1) * s + k - n, 0)
        pads += [total // 2, total - total // 2]
    return pads


def torch_pad_order(pads):
    """``[b0, a0, b1, a1, ...]`` (first spatial dim first) in torch.nn.functional.pad's order."""
    out = []
    for i in range(len(pads) - 2, -1, -2):
        out += [pads[i], pads[i + 1]]
    return out


def channel_first(t, channel_last):
    """A channel-first view of a channel-last tensor (and back with ``channel_last_of``)."""
    if not channel_last:
        return t
    return t.movedim(-1, 1)


def channel_last_of(t, channel_last):
    return t.movedim(1, -1) if channel_last else t


def _check(x, weight, nd, data_format, groups, api, transpose):
    try:
        t = x._t
    except AttributeError:
        raise not_tensor(api, "x", 0, x) from None
    formats = _FORMATS[nd]
    if data_format not in formats:
        raise ValueError(f"Attr(data_format) should be '{formats[0]}' or '{formats[1]}'. "
                         f"Received Attr(data_format): {data_format}.")
    if t.dim() != nd + 2:
        raise ValueError(f"Input x should be {nd + 2}D tensor, but received x with the shape "
                         f"of {list(t.shape)}")
    w = weight._t
    if transpose and w.dim() != nd + 2:
        raise ValueError(f"Input weight should be {nd + 2}D tensor, but received weight with "
                         f"the shape of {list(w.shape)}")
    if groups == 0:
        raise ValueError(f"The groups of {api} should not be zero.")
    c = t.shape[-1 if data_format == formats[1] else 1]
    if c % groups:
        raise ValueError(f"The channel of input must be divisible by groups, received: the "
                         f"channel of input is {c}, the groups is {groups}")
    if not transpose and w.shape[0] % groups:
        raise ValueError(f"The number of filters must be divisible by groups, received: the "
                         f"number of filters is {w.shape[0]}, the groups is {groups}")
    return t, w


def _conv(x, weight, bias, stride, padding, dilation, groups, data_format, nd, api):
    t, w = _check(x, weight, nd, data_format, groups, api, False)
    channel_last = data_format == _FORMATS[nd][1]
    pads, same = padding_arg(padding, nd, channel_last)
    stride = ntuple(stride, nd, "stride")
    dilation = ntuple(dilation, nd, "dilation")
    t = channel_first(t, channel_last)
    if same:
        pads = same_pads(t.shape[2:], stride, w.shape[2:])
        dilation = (1,) * nd                      # Paddle's 'SAME' ignores the dilation
    if pads[0::2] == pads[1::2]:
        padding = tuple(pads[0::2])
    else:
        t = _pad(t, torch_pad_order(pads))
        padding = 0
    b = None if bias is None else bias._t
    if b is not None and b.dtype != t.dtype:
        b = b.to(t.dtype)
    try:
        out = _CONV[nd](t, w, b, stride, padding, dilation, groups)
    except RuntimeError as e:           # shapes/strides torch refuses: Paddle's ValueError
        out = _conv_of_empty(t, w, b, stride, padding, dilation)
        if out is None:
            raise ValueError(f"(InvalidArgument) {api}: {e}") from None
    return wrap(channel_last_of(out, channel_last))


def _conv_of_empty(t, w, b, stride, padding, dilation):
    """A convolution whose input has a spatial size 0, which torch refuses and Paddle computes
    (a length-0 sequence through a conv1d gives a length-0 output): every window then covers
    padding only, so the output is the bias, shaped as Paddle's output-size rule says; None
    when the input is not empty that way or the output size is negative (torch's error
    stands). Gradients: the input's and the weight's are zero, the bias's sums the output's."""
    spatial = t.shape[2:]
    if 0 not in spatial:
        return None
    nd = len(spatial)
    pads = ntuple(padding, nd, "padding")
    sizes = [(n + 2 * p - d * (k - 1) - 1) // s + 1
             for n, p, d, k, s in zip(spatial, pads, dilation, w.shape[2:], stride)]
    if min(sizes) < 0:
        return None
    out = t.new_zeros((t.shape[0], w.shape[0], *sizes)) + 0 * (t.sum() + w.sum())
    return out if b is None else out + b.reshape(-1, *([1] * nd))


def _conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups,
                    output_size, data_format, nd, api):
    t, w = _check(x, weight, nd, data_format, groups, api, True)
    channel_last = data_format == _FORMATS[nd][1]
    pads, same = padding_arg(padding, nd, channel_last)
    stride = ntuple(stride, nd, "stride")
    dilation = ntuple(dilation, nd, "dilation")
    t = channel_first(t, channel_last)
    if same:
        pads = same_pads(t.shape[2:], stride, w.shape[2:])
        dilation = (1,) * nd
    sizes = t.shape[2:]
    infer = [(n - 1) * s - pads[2 * i] - pads[2 * i + 1] + d * (k - 1) + 1
             for i, (n, s, d, k) in enumerate(zip(sizes, stride, dilation, w.shape[2:]))]
    if output_size is not None:
        if output_padding != 0:
            raise ValueError("output_padding option is mutually exclusive with output_size")
        if isinstance(output_size, (list, tuple)):
            output_size = [int(v.item()) if hasattr(v, "_t") else int(v) for v in output_size]
            if nd == 2 and len(output_size) == 1:
                output_size = output_size * 2
        elif hasattr(output_size, "_t"):
            output_size = [int(v) for v in output_size._t.reshape(-1).tolist()]
            output_size = output_size * nd if len(output_size) == 1 else output_size
        elif not isinstance(output_size, int):
            raise ValueError("output_size should be int, or list, tuple of ints")
        output_size = ntuple(output_size, nd, "output_size")
        for o, n, s in zip(output_size, infer, stride):
            if not n <= o < n + s:
                raise ValueError(f"(InvalidArgument) The output_size must be in [{n}, {n + s}), "
                                 f"but received {o}.")
        opad = tuple(o - n for o, n in zip(output_size, infer))
    else:
        opad = ntuple(output_padding, nd, "output_padding")
        for o, s, d in zip(opad, stride, dilation):
            if o >= max(s, d):
                raise ValueError("The size of output_padding should not be greater than stride."
                                 f"But got output_padding={o} and stride={s}")
    b = None if bias is None else bias._t
    late = None
    if b is not None and b.numel() != w.shape[1] * groups:
        late, b = b, None               # Paddle broadcasts the bias (a [1] bias is allowed)
    if pads[0::2] == pads[1::2]:
        out = _CONVT[nd](t, w, b, stride, tuple(pads[0::2]), opad, groups, dilation)
    else:
        # the full transpose, then Paddle's asymmetric crop (negative pads crop) and the
        # output padding at the end of each dim
        out = _CONVT[nd](t, w, None, stride, 0, 0, groups, dilation)
        crop = []
        for i in range(nd):
            crop += [-pads[2 * i], opad[i] - pads[2 * i + 1]]
        out = _pad(out, torch_pad_order(crop))
        if b is not None:
            out = out + b.reshape((-1,) + (1,) * nd)
    if late is not None:
        out = out + late.reshape((-1,) + (1,) * nd)
    return wrap(channel_last_of(out, channel_last))


def _fast(x, weight, bias, nd, padding, data_format):
    """The torch tensors for the common call (channel-first, one int padding), else None."""
    if type(padding) is int and data_format == _FORMATS[nd][0] and padding >= 0:
        try:
            t = x._t
            if t.dim() == nd + 2:
                return t, weight._t, None if bias is None else bias._t
        except AttributeError:
            pass
    return None


def _make_conv(nd):
    conv, fmt = _CONV[nd], _FORMATS[nd][0]
    api = f"conv{nd}d"

    def f(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format=fmt,
          name=None):
        fast = _fast(x, weight, bias, nd, padding, data_format)
        if fast is not None:
            try:
                return wrap(conv(*fast, stride, padding, dilation, groups))
            except RuntimeError:
                pass                    # Paddle's error (or its dtype handling) below
        return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, nd, api)

    f.__name__ = f.__qualname__ = api
    f.__doc__ = (f"{nd}-D convolution of ``x`` ({fmt} or channel-last) with a weight "
                 "[out, in/groups, k...], plus ``bias`` per output channel.")
    return f


def _make_conv_transpose(nd, groups_first):
    convt, fmt = _CONVT[nd], _FORMATS[nd][0]
    api = f"conv{nd}d_transpose"

    def run(x, weight, bias, stride, padding, output_padding, groups, dilation, output_size,
            data_format):
        if output_size is None:
            fast = _fast(x, weight, bias, nd, padding, data_format)
            if fast is not None and fast[1].dim() == nd + 2:
                try:
                    return wrap(convt(*fast, stride, padding, output_padding, groups,
                                      dilation))
                except RuntimeError:
                    pass
        return _conv_transpose(x, weight, bias, stride, padding, output_padding, dilation,
                               groups, output_size, data_format, nd, api)

    # Paddle orders groups and dilation differently in conv2d_transpose
    if groups_first:
        def f(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
              dilation=1, output_size=None, data_format=fmt, name=None):
            return run(x, weight, bias, stride, padding, output_padding, groups, dilation,
                       output_size, data_format)
    else:
        def f(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1,
              groups=1, output_size=None, data_format=fmt, name=None):
            return run(x, weight, bias, stride, padding, output_padding, groups, dilation,
                       output_size, data_format)

    f.__name__ = f.__qualname__ = api
    f.__doc__ = (f"{nd}-D transposed convolution with a weight [in, out/groups, k...]; "
                 "``output_size`` picks the output size within one stride.")
    return f


conv1d = _make_conv(1)
conv2d = _make_conv(2)
conv3d = _make_conv(3)
conv1d_transpose = _make_conv_transpose(1, True)
conv2d_transpose = _make_conv_transpose(2, False)
conv3d_transpose = _make_conv_transpose(3, True)
