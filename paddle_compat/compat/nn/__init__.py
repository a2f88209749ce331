"""``paddle.compat.nn``: layers with torch.nn's constructor arguments and weight layouts.

``Linear`` holds its weight as [out_features, in_features] and initialises it as torch does
(uniform in +-1/sqrt(in_features), weight and bias); ``Softmax(dim=None)`` takes torch's
implicit dim; the pools take ``count_include_pad``; ``Unfold`` torch's singular keywords;
``MultiheadAttention`` torch's parameters (``in_proj_weight`` ...) and call.
"""
import math

import torch
import torch.nn.functional as TF

from ... import nn as _nn
from ...framework.tensor import wrap
from ...nn.initializer import Constant, Uniform, XavierNormal, XavierUniform
from ..torch_api import forbid_keywords
from . import functional

__all__ = ["Unfold", "Linear", "Softmax", "AvgPool1D", "AvgPool2D", "AvgPool3D", "AvgPool1d",
           "AvgPool2d", "AvgPool3d", "MultiheadAttention"]


def _no_paddle_keys(keys, cls):
    return forbid_keywords(keys, f"nn.{cls}", f"paddle.nn.{cls}")


def _tuple(v, n):
    return tuple(v) if isinstance(v, (list, tuple)) else (v,) * n


class _AvgPool(_nn.Layer):
    """The pools of Paddle's own kernels (its ceil_mode rule, not torch's), with torch's
    ``count_include_pad`` in place of ``exclusive``."""
    _nd = 0

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        F = _nn.functional
        if self._nd == 1:
            return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding,
                                not self.count_include_pad, self.ceil_mode)
        fn = F.avg_pool2d if self._nd == 2 else F.avg_pool3d
        return fn(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                  not self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"padding={self.padding}")


class AvgPool1D(_AvgPool):
    """torch.nn.AvgPool1d over [N, C, L] (no ``divisor_override``)."""
    _nd = 1

    @_no_paddle_keys(("exclusive", "name"), "AvgPool1D")
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)
        self.kernel_size = _tuple(kernel_size, 1)
        self.stride = _tuple(self.stride, 1)
        self.padding = _tuple(padding, 1)


class AvgPool2D(_AvgPool):
    """torch.nn.AvgPool2d over [N, C, H, W]."""
    _nd = 2
    __init__ = _no_paddle_keys(("exclusive", "data_format", "name"), "AvgPool2D")(
        _AvgPool.__init__)


class AvgPool3D(_AvgPool):
    """torch.nn.AvgPool3d over [N, C, D, H, W]."""
    _nd = 3
    __init__ = _no_paddle_keys(("exclusive", "data_format", "name"), "AvgPool3D")(
        _AvgPool.__init__)


AvgPool1d, AvgPool2d, AvgPool3d = AvgPool1D, AvgPool2D, AvgPool3D


class Unfold(_nn.Unfold):
    """torch.nn.Unfold: ``kernel_size``, ``dilation``, ``padding``, ``stride``."""

    @_no_paddle_keys(("kernel_sizes", "dilations", "paddings", "strides"), "Unfold")
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size, dilation, padding, stride)
        self._torch_args = (kernel_size, dilation, padding, stride)

    def forward(self, input):
        return functional.unfold(input, *self._torch_args)


class Linear(_nn.Layer):
    """torch.nn.Linear's layout: ``weight`` [out_features, in_features], ``bias``
    [out_features]. Initialised as Paddle 3.3.1 does it: the weight uniform in
    +-1/sqrt(out_features) (Paddle's kaiming_uniform_ reads the fan-in from the first axis), the
    bias in +-1/sqrt(in_features)."""

    @_no_paddle_keys(("weight_attr", "bias_attr", "name"), "Linear")
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        if dtype is not None:
            self._dtype = dtype
        self.in_features = in_features
        self.out_features = out_features
        # created as every Paddle weight is (XavierUniform, which draws from the stream) and
        # then re-drawn by reset_parameters, so a seeded Linear matches Paddle's numbers
        self.weight = self.create_parameter([out_features, in_features], dtype=self._dtype,
                                            device=device)
        self.bias = None
        if bias:
            self.bias = self.create_parameter([out_features], dtype=self._dtype, is_bias=True,
                                              device=device)
        self.reset_parameters()

    def reset_parameters(self):
        fan = self.out_features
        Uniform(-1 / math.sqrt(fan) if fan else 0, 1 / math.sqrt(fan) if fan else 0)(self.weight)
        bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0
        if self.bias is not None:
            Uniform(-bound, bound)(self.bias)

    def forward(self, input):
        return functional.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Softmax(_nn.Layer):
    """torch.nn.Softmax: softmax over ``dim`` (torch's implicit choice when None)."""

    @_no_paddle_keys(("axis",), "Softmax")
    def __init__(self, dim=None):
        super().__init__()
        self._dim = dim

    def forward(self, input):
        return functional.softmax(input, self._dim)

    def extra_repr(self):
        return f"dim={self._dim}"


class MultiheadAttention(_nn.Layer):
    """torch.nn.MultiheadAttention: inputs [L, N, E] ([N, L, E] with ``batch_first``); returns
    (output, weights averaged over heads unless ``average_attn_weights=False``, or None)."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        super().__init__()
        if dtype is not None:
            self._dtype = dtype
        self.embed_dim = embed_dim
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")

        def weight(shape, init=XavierUniform()):
            return self.create_parameter(shape, dtype=self._dtype, default_initializer=init,
                                         device=device)

        def zero_bias(n):
            return self.create_parameter([n], dtype=self._dtype, is_bias=True,
                                         default_initializer=Constant(0.0), device=device)

        self.in_proj_bias = self.q_proj_bias = self.k_proj_bias = self.v_proj_bias = None
        if self._qkv_same_embed_dim:
            self.in_proj_weight = weight([3 * embed_dim, embed_dim])
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
            if bias:
                self.in_proj_bias = zero_bias(3 * embed_dim)
        else:
            self.q_proj_weight = weight([embed_dim, embed_dim])
            self.k_proj_weight = weight([embed_dim, self.kdim])
            self.v_proj_weight = weight([embed_dim, self.vdim])
            self.in_proj_weight = None
            if bias:
                self.q_proj_bias = zero_bias(embed_dim)
                self.k_proj_bias = zero_bias(embed_dim)
                self.v_proj_bias = zero_bias(embed_dim)
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, dtype=self._dtype)
        self.add_bias_kv = add_bias_kv
        self.add_zero_attn = add_zero_attn
        self.bias_k = self.bias_v = None
        if add_bias_kv:
            self.bias_k = weight([1, 1, embed_dim], XavierNormal())
            self.bias_v = weight([1, 1, embed_dim], XavierNormal())

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True, is_causal=False):
        def raw(p):
            return None if p is None else p._t

        q, k, v = query._t, key._t, value._t
        if self.batch_first:
            q, k, v = (x.transpose(0, 1) for x in (q, k, v))
        bias = raw(self.in_proj_bias)
        if bias is None and self.q_proj_bias is not None:
            bias = torch.cat([raw(self.q_proj_bias), raw(self.k_proj_bias),
                              raw(self.v_proj_bias)])
        out, weights = TF.multi_head_attention_forward(
            q, k, v, self.embed_dim, self.num_heads, raw(self.in_proj_weight), bias,
            raw(self.bias_k), raw(self.bias_v), self.add_zero_attn, self.dropout,
            self.out_proj.weight._t, raw(self.out_proj.bias), training=self.training,
            key_padding_mask=raw(key_padding_mask), need_weights=need_weights,
            attn_mask=raw(attn_mask), use_separate_proj_weight=not self._qkv_same_embed_dim,
            q_proj_weight=raw(self.q_proj_weight), k_proj_weight=raw(self.k_proj_weight),
            v_proj_weight=raw(self.v_proj_weight), average_attn_weights=average_attn_weights,
            is_causal=is_causal)
        if self.batch_first:
            out = out.transpose(0, 1)
        return wrap(out), (None if weights is None else wrap(weights))
