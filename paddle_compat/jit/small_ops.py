"""Small convolutions and batched matrix products written out for inductor, so a compiled
package makes no ATen call for them.

A 2-D convolution or a ``bmm`` whose arithmetic is tiny (the models of a predictor run at
batch 1-2 on a few channels) costs far more in ATen's call than in its multiply-adds: the
kernel chosen per call, the column buffer allocated per call, oneDNN's primitive built per
call. Written as a broadcast product summed over the contracted dimensions (for a
convolution: shifted slices of the padded input times the weight), inductor generates it as
one loop nest fused with what follows (the folded batch norm, the activation, the softmax),
and a weight reshape is folded at freezing. Above ``MAX_CONV_MACS`` / ``MAX_BMM_MACS``
multiply-adds per call ATen's blocked kernels win and the op is left to them. (``mm`` and
``addmm`` are not here: the packages' GEMM autotune already weighs inductor's own template
against ATen's call.)

``decompositions()`` is the table handed to ``ExportedProgram.run_decompositions`` before
AOTInductor compiles a loaded model (jit/aot.py).
"""
import torch
import torch.nn.functional as F

__all__ = ["MAX_CONV_MACS", "MAX_BMM_MACS", "direct_conv2d", "direct_bmm", "decompositions",
           "key"]

#: multiply-adds per call up to which a convolution is written out (measured on an AVX-512 core:
#: at 2.4M a 3x3 convolution written out takes 1.6-2.9x ATen's time, at 150K half of it)
MAX_CONV_MACS = 1 << 17

#: the same for ``bmm`` (a written-out product has no blocking: kept to attention-sized toys)
MAX_BMM_MACS = 1 << 12

_aten = torch.ops.aten


def _pair(v):
    v = list(v) if isinstance(v, (list, tuple)) else [v]
    return v * 2 if len(v) == 1 else v


def _out_size(x, w, stride, padding, dilation):
    """The output's height and width of a 2-D convolution."""
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    (h, wd), (kh, kw) = x.shape[2:], w.shape[2:]
    return ((h + 2 * ph - dh * (kh - 1) - 1) // sh + 1,
            (wd + 2 * pw - dw * (kw - 1) - 1) // sw + 1)


def direct_conv2d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """``F.conv2d`` (NCHW, numeric padding) as slices of the padded input times the weight,
    summed over input channels and the window: the same values, in torch ops that inductor
    fuses."""
    sh, sw = _pair(stride)
    ph, pw = _pair(padding)
    dh, dw = _pair(dilation)
    n = x.shape[0]
    o, cg, kh, kw = w.shape
    ho, wo = _out_size(x, w, stride, padding, dilation)
    if ph or pw:
        x = F.pad(x, (pw, pw, ph, ph))
    cols = torch.stack([x[:, :, i * dh: i * dh + sh * (ho - 1) + 1: sh,
                          j * dw: j * dw + sw * (wo - 1) + 1: sw]
                        for i in range(kh) for j in range(kw)], dim=2)   # N, C, window, Ho, Wo
    cols = cols.reshape(n, groups, 1, cg, kh * kw, ho, wo)
    out = (cols * w.reshape(groups, o // groups, cg, kh * kw, 1, 1)).sum((3, 4))
    out = out.reshape(n, o, ho, wo)
    return out if b is None else out + b.reshape(1, o, 1, 1)


def _macs(x, w, stride, padding, dilation):
    ho, wo = _out_size(x, w, stride, padding, dilation)
    return x.shape[0] * ho * wo * w.numel()


def _small(x, w, stride, padding, dilation):
    """Whether this call is a plain NCHW 2-D float convolution small enough to write out."""
    return (x.dim() == 4 and w.dim() == 4 and not isinstance(padding, str)
            and x.dtype in (torch.float32, torch.float64) and w.dtype == x.dtype
            and _macs(x, w, stride, padding, dilation) <= MAX_CONV_MACS)


def _conv2d(x, w, b=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    if not _small(x, w, stride, padding, dilation):
        return NotImplemented
    return direct_conv2d(x, w, b, stride, padding, dilation, groups)


def _convolution(x, w, b, stride, padding, dilation, transposed, output_padding, groups):
    if transposed or not _small(x, w, stride, padding, dilation):
        return NotImplemented
    return direct_conv2d(x, w, b, stride, padding, dilation, groups)


def direct_bmm(a, b):
    """``torch.bmm`` as the broadcast product summed over the inner dimension."""
    return (a.unsqueeze(-1) * b.unsqueeze(1)).sum(2)


def _bmm(a, b):
    if a.dtype not in (torch.float32, torch.float64) or \
            a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2] > MAX_BMM_MACS:
        return NotImplemented
    return direct_bmm(a, b)


def decompositions():
    """torch.export's default decomposition table with small convolutions and batched matrix
    products written out (``matmul`` of batched operands reaches ``bmm`` through it)."""
    table = torch.export.default_decompositions()
    table[_aten.conv2d.default] = _conv2d
    table[_aten.convolution.default] = _convolution
    table[_aten.bmm.default] = _bmm
    return table


def key():
    """What of this module a compiled package depends on (part of the package cache key)."""
    return ("small_ops", MAX_CONV_MACS, MAX_BMM_MACS)
