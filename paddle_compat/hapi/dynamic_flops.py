"""``paddle.flops``: the multiply-accumulate count of a network's forward pass, counted per
leaf layer by Paddle's rules (convolutions, linear layers, batch norm, poolings, leaky ReLU;
other leaf layers count zero unless ``custom_ops`` gives a counting function), printed as
Paddle prints it.

The messages name layer classes by Paddle's module paths (``paddle.nn.layer.conv.Conv2D``),
which paddle_compat's modules mirror under ``paddle_compat``.
"""
import warnings

import numpy as np

from ..autograd import no_grad
from ..nn import (AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D, AvgPool1D,
                  AvgPool2D, AvgPool3D, BatchNorm, BatchNorm2D, Conv1D, Conv1DTranspose,
                  Conv2D, Conv2DTranspose, Conv3D, Conv3DTranspose, Dropout, Layer, LeakyReLU,
                  Linear, ReLU, ReLU6)
from ..ops.creation import to_tensor, zeros
from ..ops.random import randn
from ..static import Program

__all__ = ["flops"]


def flops(net, input_size, custom_ops=None, print_detail=False):
    """FLOPs of ``net`` on a random input of ``input_size``; ``custom_ops`` maps a layer class
    to ``fn(layer, inputs, output)`` adding to ``layer.total_ops``; ``print_detail`` prints the
    per-layer table."""
    if isinstance(net, Layer):
        return dynamic_flops(net, inputs=randn(input_size), custom_ops=custom_ops,
                             print_detail=print_detail)
    if isinstance(net, Program):
        raise NotImplementedError("paddle.flops of a static Program is not supported by "
                                  "paddle_compat: pass the nn.Layer instead")
    warnings.warn("Your model must be an instance of paddle.nn.Layer or paddle.static.Program.")
    return -1


def count_convNd(m, x, y):
    kernel_ops = np.prod(m.weight.shape[2:])
    bias_ops = 1 if m.bias is not None else 0
    total = int(y.numel()) * (x[0].shape[1] / m._groups * kernel_ops + bias_ops)
    m.total_ops += abs(int(total))


def count_leaky_relu(m, x, y):
    m.total_ops += int(x[0].numel())


def count_bn(m, x, y):
    # Paddle counts 2 per element in eval mode (flops runs the network in eval mode)
    m.total_ops += abs(int(2 * x[0].numel()))


def count_linear(m, x, y):
    m.total_ops += abs(int(m.weight.shape[0] * y.numel()))


def count_avgpool(m, x, y):
    m.total_ops += int(y.numel())


def count_adap_avgpool(m, x, y):
    kernel = np.array(x[0].shape[2:]) // np.array(y.shape[2:])
    m.total_ops += abs(int((np.prod(kernel) + 1) * y.numel()))


def count_zero_ops(m, x, y):
    m.total_ops += 0


def count_parameters(m, x, y):
    m.total_params[0] = abs(int(sum(int(p.numel()) for p in m.parameters())))


def count_io_info(m, x, y):
    m.register_buffer("input_shape", to_tensor(x[0].shape))
    out = y[0] if isinstance(y, (list, tuple)) else y
    m.register_buffer("output_shape", to_tensor(out.shape))


register_hooks = {
    Conv1D: count_convNd, Conv2D: count_convNd, Conv3D: count_convNd,
    Conv1DTranspose: count_convNd, Conv2DTranspose: count_convNd,
    Conv3DTranspose: count_convNd, BatchNorm2D: count_bn, BatchNorm: count_bn,
    ReLU: count_zero_ops, ReLU6: count_zero_ops, LeakyReLU: count_leaky_relu,
    Linear: count_linear, Dropout: count_zero_ops, AvgPool1D: count_avgpool,
    AvgPool2D: count_avgpool, AvgPool3D: count_avgpool, AdaptiveAvgPool1D: count_adap_avgpool,
    AdaptiveAvgPool2D: count_adap_avgpool, AdaptiveAvgPool3D: count_adap_avgpool,
}


def _paddle_class_repr(cls):
    """``<class 'paddle.nn.layer.conv.Conv2D'>`` for paddle_compat's class (Paddle's text)."""
    module = cls.__module__
    if module == "paddle_compat" or module.startswith("paddle_compat."):
        module = "paddle" + module[len("paddle_compat"):]
    return f"<class '{module}.{cls.__qualname__}'>"


class Table:
    """A plain-text table with ``+---+`` rules and centred cells."""

    def __init__(self, table_heads):
        self.table_heads = table_heads
        self.table_len = [len(h) for h in table_heads]
        self.data = []
        self.col_num = len(table_heads)

    def add_row(self, row_str):
        if not isinstance(row_str, list):
            print("The row_str should be a list")
        if len(row_str) != self.col_num:
            print(f"The length of row data should be equal the length of table heads, but the "
                  f"data: {len(row_str)} is not equal table heads {self.col_num}")
        for i in range(self.col_num):
            self.table_len[i] = max(self.table_len[i], len(str(row_str[i])))
        self.data.append(row_str)

    def print_row(self, row):
        print("".join("|" + str(row[i]).center(self.table_len[i] + 2)
                      for i in range(self.col_num)) + "|")

    def print_shelf(self):
        print("".join("+" + "-" * (n + 2) for n in self.table_len) + "+")

    def print_table(self):
        self.print_shelf()
        self.print_row(self.table_heads)
        self.print_shelf()
        for row in self.data:
            self.print_row(row)
        self.print_shelf()


def _count(t):
    """A [1]-shaped counter (or a number) as an int."""
    return int(np.asarray(t.numpy() if hasattr(t, "numpy") else t).reshape(-1)[0])


_COUNTERS = {"total_ops", "total_params", "input_shape", "output_shape"}


def dynamic_flops(model, inputs, custom_ops=None, print_detail=False):
    """Count the FLOPs of ``model(inputs)`` (see the module docstring); returns an int."""
    handles = []
    seen_types = set()
    custom_ops = custom_ops or {}

    def add_hooks(m):
        if len(list(m.children())) > 0:
            return
        m.register_buffer("total_ops", zeros([1], dtype="int64"))
        m.register_buffer("total_params", zeros([1], dtype="int64"))
        kind = type(m)
        fn = None
        if kind in custom_ops:
            fn = custom_ops[kind]
            if kind not in seen_types:
                print(f"Customize Function has been applied to {_paddle_class_repr(kind)}")
        elif kind in register_hooks:
            fn = register_hooks[kind]
            if kind not in seen_types:
                print(f"{_paddle_class_repr(kind)}'s flops has been counted")
        elif kind not in seen_types:
            print(f"Cannot find suitable count function for {_paddle_class_repr(kind)}. "
                  "Treat it as zero FLOPs.")
        if fn is not None:
            handles.append(m.register_forward_post_hook(fn))
        handles.append(m.register_forward_post_hook(count_parameters))
        handles.append(m.register_forward_post_hook(count_io_info))
        seen_types.add(kind)

    training = model.training
    model.eval()
    model.apply(add_hooks)
    with no_grad():
        model(inputs)
    total_ops = total_params = 0
    for m in model.sublayers():
        if len(list(m.children())) == 0 and _COUNTERS.issubset(m._buffers):
            total_ops += m.total_ops
            total_params += m.total_params
    if training:
        model.train()
    for h in handles:
        h.remove()
    table = Table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"])
    for _, m in model.named_sublayers():
        if len(list(m.children())) == 0 and _COUNTERS.issubset(m._buffers):
            table.add_row([m.full_name(), m.input_shape.numpy().tolist(),
                           m.output_shape.numpy().tolist(), _count(m.total_params),
                           _count(m.total_ops)])
            for k in _COUNTERS:
                m._buffers.pop(k)
    if print_detail:
        table.print_table()
    print(f"Total Flops: {_count(total_ops)}     Total Params: {_count(total_params)}")
    return _count(total_ops)
