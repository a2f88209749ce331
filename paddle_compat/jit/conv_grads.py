"""Convolution backward in our compiled graphs (jit/compiled.py): a decomposition of
``aten.convolution_backward`` in our compiles' table, for the 2-D convolutions on CPU where
ATen's kernel, as inductor calls it, is far slower than it need be.

Depthwise convolutions (one 1-channel filter per channel):

* The input and weight gradients go through our op (``_aten_op``: ATen's kernel) with the
  output gradient and the input channels_last. ATen's op is a fallback to inductor without a
  layout of its own, and was handed whatever layout inductor's fusions left: in MobileNetV2's
  step a 96-channel 32x32 input with its channels between its rows and columns, where oneDNN
  took 7.5 ms against 0.27 ms channels_last.
* The weight gradient of one whose input is smaller than its kernel in height or width
  (MobileNetV2's last blocks on 64x64 images: 960 channels of 2x2 under 3x3 filters) is written
  as sums (``depthwise_weight_grad``), which inductor makes one vectorised loop over the
  channels: oneDNN takes a slow path there. Measured, 1 thread (AMD EPYC, AVX-512), batch 8,
  channels_last: 960 channels of 2x2, 734 -> 73 us; of 1x1, 661 -> 67 us; of 2x4, 534 -> 68 us;
  with an input at least the kernel's size ATen was as fast or faster (576 channels of 4x4: 122
  against 140 us), so those keep it.
* The bias gradient is the output gradient's sum over batch and positions.

MobileNetV2's compiled training step (batch 8, 64x64), in one process: 66.3 -> 51.0 ms at 1
thread (torch.compile of the torch network: 64.8), 73.0 -> 55.6 ms at 2 (72.1).

Dense convolutions (not grouped) whose output is smaller than the kernel (ResNet-18's last
stage on 64x64 images: 512 channels of 2x2 under 3x3 filters): oneDNN's backward there ran at
a fifth of its speed on larger maps (28.2 ms for the 151 MFLOP of one such layer at 1 thread,
against 4.6 for the same work on 256 channels of 4x4). Its input and weight gradients are two
matrix products over the input's patches (``dense_grads_by_gemm``): 6.5 ms compiled. ResNet-18's
compiled training step (NCHW), in one process at 1 thread: 151.6 -> 137.9 ms (eager 192.9);
at 2 threads unchanged (140.1 and 140.3).
"""
import functools

import torch

__all__ = ["convolution_backward"]

aten = torch.ops.aten

#: the op tag that makes inductor keep an op's input strides as traced
_EXACT_STRIDES = getattr(torch.Tag, "needs_exact_strides", torch.Tag.needs_fixed_stride_order)


def _pair(v):
    v = list(v)
    return v * 2 if len(v) == 1 else v


def _cpu_2d(input, weight, transposed):
    """Whether the convolution is a 2-D one (not transposed) on CPU, of static sizes."""
    if transposed or input.dim() != 4 or weight.dim() != 4 or input.device.type != "cpu":
        return False
    return all(type(s) is int for s in (*input.shape, *weight.shape))  # else symbolic


def _depthwise(input, weight, transposed, groups):
    """Whether the convolution is a 2-D CPU one (``_cpu_2d``), depthwise (``groups`` =
    channels, one channel per filter)."""
    return _cpu_2d(input, weight, transposed) and \
        groups == input.shape[1] == weight.shape[0] and weight.shape[1] == 1


def _smaller_than_kernel(t, weight):
    """Whether the maps of ``t`` are smaller than the kernel in height or width."""
    return t.shape[2] < weight.shape[2] or t.shape[3] < weight.shape[3]


def _tiny_dense(grad_output, input, weight, transposed, groups):
    """Whether the convolution is a 2-D CPU one (``_cpu_2d``), not grouped, whose output is
    smaller than its kernel in height or width."""
    return groups == 1 and _cpu_2d(input, weight, transposed) and \
        _smaller_than_kernel(grad_output, weight)


def depthwise_weight_grad(grad_output, input, kernel, stride, padding, dilation):
    """The weight gradient of a 2-D depthwise convolution: for each tap (i, j) of the kernel,
    the sum over the batch and the output positions of the input at that tap's offset (zero
    padded) times the output gradient."""
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    oh, ow = grad_output.shape[2:]
    padded = aten.constant_pad_nd(input, [pw, pw, ph, ph])
    taps = []
    for i in range(kh):
        for j in range(kw):
            at = padded[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                        j * dw:j * dw + sw * (ow - 1) + 1:sw]
            taps.append((at * grad_output).sum(dim=(0, 2, 3)))
    return torch.stack(taps, 1).reshape(input.shape[1], 1, kh, kw)


def dense_grads_by_gemm(grad_output, input, weight, stride, padding, dilation, mask):
    """The input and weight gradients of a 2-D convolution (not grouped; each where ``mask``
    asks for it, else None) as two matrix products over the input's patches: the patches
    (``unfold``: one row per batch element and output position, one column per input channel
    and tap) times the output gradient give the weight gradient; the output gradient times
    the weights give the patches' gradient, summed back onto the input (``fold``)."""
    n, c_in, h, w = input.shape
    c_out, _, kh, kw = weight.shape
    rows = grad_output.shape[2] * grad_output.shape[3]
    dy = grad_output.reshape(n, c_out, rows).transpose(1, 2).reshape(n * rows, c_out)
    grad_input = grad_weight = None
    if mask[1]:
        patches = torch.nn.functional.unfold(input, (kh, kw), dilation, padding, stride)
        patches = patches.transpose(1, 2).reshape(n * rows, c_in * kh * kw)
        grad_weight = (dy.t() @ patches).reshape(c_out, c_in, kh, kw)
    if mask[0]:
        d_patches = (dy @ weight.reshape(c_out, c_in * kh * kw)).reshape(n, rows, -1)
        grad_input = torch.nn.functional.fold(d_patches.transpose(1, 2), (h, w), (kh, kw),
                                              dilation, padding, stride)
    return grad_input, grad_weight


def _depthwise_grads(grad_output, input, weight, stride, padding, dilation, mask):
    """The input and weight gradients of a 2-D depthwise convolution (each where ``mask``
    asks for it, else None): the weight gradient of one whose input is smaller than its
    kernel as sums (``depthwise_weight_grad``), the rest from our op (``_aten_op``) on the
    output gradient and the input made channels_last."""
    grad_weight = None
    ask_weight = mask[1]
    if ask_weight and _smaller_than_kernel(input, weight):
        grad_weight = depthwise_weight_grad(grad_output, input, tuple(weight.shape[2:]),
                                            stride, padding, dilation)
        ask_weight = False
    if not (mask[0] or ask_weight):
        return None, grad_weight
    cl = torch.channels_last
    gi, gw = _aten_op()(grad_output.contiguous(memory_format=cl),
                        input.contiguous(memory_format=cl), weight, stride, padding, dilation,
                        [mask[0], ask_weight])
    return gi if mask[0] else None, gw if ask_weight else grad_weight


@functools.cache
def _aten_op():
    """``paddle_compat::depthwise_conv_backward(grad_output, input, weight, stride, padding,
    dilation, mask)``: ATen's input and weight gradients of a depthwise convolution (each
    where ``mask`` asks for it, else an empty tensor), the input gradient channels_last, the
    weight gradient contiguous. Inductor hands an op of ours its inputs with the strides they
    were traced with (``needs_exact_strides``), which the decomposition makes channels_last.
    Registered once, when ``convolution_backward`` is first called."""
    cl = torch.channels_last

    @torch.library.custom_op("paddle_compat::depthwise_conv_backward", mutates_args=(),
                             tags=(_EXACT_STRIDES,))
    def depthwise_conv_backward(grad_output: torch.Tensor, input: torch.Tensor,
                                weight: torch.Tensor, stride: list[int], padding: list[int],
                                dilation: list[int], mask: list[bool]
                                ) -> tuple[torch.Tensor, torch.Tensor]:
        gi, gw, _ = aten.convolution_backward(grad_output, input, weight, None, stride,
                                              padding, dilation, False, [0, 0],
                                              weight.shape[0], [mask[0], mask[1], False])
        return (gi.contiguous(memory_format=cl) if mask[0] else input.new_empty(0),
                gw.contiguous() if mask[1] else weight.new_empty(0))

    @depthwise_conv_backward.register_fake
    def _(grad_output, input, weight, stride, padding, dilation, mask):
        return (torch.empty_like(input, memory_format=cl) if mask[0] else input.new_empty(0),
                torch.empty_like(weight, memory_format=torch.contiguous_format) if mask[1]
                else weight.new_empty(0))

    return torch.ops.paddle_compat.depthwise_conv_backward.default


def convolution_backward(before):
    """A decomposition of ``aten.convolution_backward``, as the module's docstring says: for a
    dense convolution with an output smaller than its kernel (``_tiny_dense``), matrix
    products; for a depthwise one (``_depthwise``), our op for the input and weight
    gradients, sums for the weight gradient of one smaller than its kernel; the bias gradient
    a sum. Any other call goes to ``before`` (the table's entry it replaces; None: not
    decomposed). Registers our op first: a graph that calls it may come from the compile
    cache, without tracing this again."""
    _aten_op()

    def decomposition(grad_output, input, weight, bias_sizes, stride, padding, dilation,
                      transposed, output_padding, groups, output_mask):
        tiny = _tiny_dense(grad_output, input, weight, transposed, groups)
        if not (tiny or _depthwise(input, weight, transposed, groups)):
            if before is None:
                return NotImplemented
            return before(grad_output, input, weight, bias_sizes, stride, padding, dilation,
                          transposed, output_padding, groups, output_mask)
        geometry = _pair(stride), _pair(padding), _pair(dilation)
        grads = dense_grads_by_gemm if tiny else _depthwise_grads
        grad_input, grad_weight = grads(grad_output, input, weight, *geometry, output_mask)
        grad_bias = grad_output.sum(dim=(0, 2, 3)) if output_mask[2] else None
        return grad_input, grad_weight, grad_bias
    decomposition.replaces = before
    return decomposition
