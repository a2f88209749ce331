"""``paddle.incubate.nn``'s fused layers: real ``nn.Layer`` classes with Paddle's constructor
signatures, parameter names, shapes, creation order and default initialisers, computing with
the functional forms of ``incubate.nn.functional`` (the unfused torch compositions; Paddle's
own fused kernels exist only on GPU).

Model code that only checks ``isinstance(layer, FusedMultiHeadAttention)``, converts weights
between these and ``nn.MultiHeadAttention`` or loads a checkpoint by parameter name works
unchanged; on CPU the math is Paddle's (the same compositions its fused kernels implement).
"""
import torch

from ...framework.tensor import wrap
from ...nn import Layer
from ...nn import initializer as _init
from . import functional as _F

__all__ = ["FusedLinear", "FusedMultiHeadAttention", "FusedFeedForward",
           "FusedTransformerEncoderLayer", "FusedBiasDropoutResidualLayerNorm", "FusedDropoutAdd"]


def _ones():
    return _init.Constant(1.0)


def _additive_mask(mask, dtype):
    """Paddle's attention-mask convention: a bool mask keeps True positions (False -> -1e9
    added), an int mask is cast, a float mask is added as it is."""
    if mask is None:
        return None
    t = mask._t
    if t.dtype is torch.bool:
        return wrap((t.to(dtype) - 1.0) * 1e9)
    if not t.is_floating_point():
        return wrap(t.to(dtype))
    return mask


class FusedLinear(Layer):
    """``x @ weight + bias``; weight [in, out] ([out, in] with ``transpose_weight``)."""

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None,
                 transpose_weight=False, name=None):
        super().__init__()
        shape = [out_features, in_features] if transpose_weight else [in_features, out_features]
        self.weight = self.create_parameter(shape, attr=weight_attr, dtype=self._dtype,
                                            is_bias=False)
        self.bias = self.create_parameter([out_features], attr=bias_attr, dtype=self._dtype,
                                          is_bias=True)
        self.transpose_weight = transpose_weight
        self.name = name

    def forward(self, input):
        return _F.fused_linear(input, self.weight, self.bias, self.transpose_weight, self.name)


class FusedMultiHeadAttention(Layer):
    """Self-attention block (``incubate.nn.functional.fused_multi_head_attention``): optional
    pre layer norm, qkv projection, attention, output projection, dropout, residual, post
    layer norm. ``qkv_weight`` is [3, heads, head_dim, embed] ([embed, 3 * embed] with
    ``transpose_qkv_wb``)."""

    def __init__(self, embed_dim, num_heads, dropout_rate=0.5, attn_dropout_rate=0.5,
                 kdim=None, vdim=None, normalize_before=False, need_weights=False,
                 qkv_weight_attr=None, qkv_bias_attr=None, linear_weight_attr=None,
                 linear_bias_attr=None, pre_ln_scale_attr=None, pre_ln_bias_attr=None,
                 ln_scale_attr=None, ln_bias_attr=None, epsilon=1e-5, nranks=1, ring_id=-1,
                 transpose_qkv_wb=False, name=None):
        super().__init__()
        if embed_dim <= 0:
            raise ValueError(f"Expected embed_dim to be greater than 0, but received {embed_dim}")
        if num_heads <= 0:
            raise ValueError(f"Expected nhead to be greater than 0, but received {num_heads}")
        self.normalize_before = normalize_before
        self._epsilon = epsilon
        self._ring_id = ring_id
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.kdim = kdim
        self.vdim = vdim
        self.need_weights = need_weights
        if self.head_dim * num_heads != embed_dim:
            raise ValueError("embed_dim must be divisible by num_heads")
        if need_weights:
            raise ValueError("Only support need_weight is False now.")
        if num_heads % nranks != 0:
            raise ValueError("num_heads must be divisible by nranks")
        num_heads = num_heads // nranks
        self._num_heads_local = num_heads
        self.transpose_qkv_wb = transpose_qkv_wb
        if transpose_qkv_wb:
            qkv_w_shape = [embed_dim, 3 * num_heads * self.head_dim]
            qkv_b_shape = [3 * num_heads * self.head_dim]
        else:
            qkv_w_shape = [3, num_heads, self.head_dim, embed_dim]
            qkv_b_shape = [3, num_heads, self.head_dim]
        self.qkv_weight = self.create_parameter(qkv_w_shape, attr=qkv_weight_attr,
                                                dtype=self._dtype, is_bias=False)
        self.qkv_bias = self.create_parameter(qkv_b_shape, attr=qkv_bias_attr,
                                              dtype=self._dtype, is_bias=True)
        self.linear_weight = self.create_parameter([num_heads * self.head_dim, embed_dim],
                                                   attr=linear_weight_attr, dtype=self._dtype,
                                                   is_bias=False)
        self.linear_bias = self.create_parameter([embed_dim], attr=linear_bias_attr,
                                                 dtype=self._dtype, is_bias=True)
        if normalize_before:
            self.pre_ln_scale = self.create_parameter([embed_dim], attr=pre_ln_scale_attr,
                                                      default_initializer=_ones())
            self.pre_ln_bias = self.create_parameter([embed_dim], attr=pre_ln_bias_attr,
                                                     is_bias=True)
            self.ln_scale = None
            self.ln_bias = None
        else:
            self.pre_ln_scale = None
            self.pre_ln_bias = None
            self.ln_scale = self.create_parameter([embed_dim], attr=ln_scale_attr,
                                                  default_initializer=_ones())
            self.ln_bias = self.create_parameter([embed_dim], attr=ln_bias_attr, is_bias=True)
        self.dropout_rate = dropout_rate
        self.attn_dropout_rate = attn_dropout_rate
        self.name = name

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        """Self-attention of ``query`` [batch, seq, embed] (``key``/``value`` are ignored, as
        in Paddle's fused kernel); ``attn_mask`` is added to the scores (bool: False masks)."""
        mask = _additive_mask(attn_mask, query._t.dtype)
        return _F.fused_multi_head_attention(
            x=query, qkv_weight=self.qkv_weight, linear_weight=self.linear_weight,
            pre_layer_norm=self.normalize_before, pre_ln_scale=self.pre_ln_scale,
            pre_ln_bias=self.pre_ln_bias, ln_scale=self.ln_scale, ln_bias=self.ln_bias,
            pre_ln_epsilon=self._epsilon, qkv_bias=self.qkv_bias, linear_bias=self.linear_bias,
            cache_kv=cache, attn_mask=mask, dropout_rate=self.dropout_rate,
            attn_dropout_rate=self.attn_dropout_rate, ln_epsilon=self._epsilon,
            training=self.training, ring_id=self._ring_id, num_heads=self._num_heads_local,
            transpose_qkv_wb=self.transpose_qkv_wb, name=self.name)

    def extra_repr(self):
        return (f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, "
                f"dropout_rate={self.dropout_rate}, attn_dropout_rate={self.attn_dropout_rate}, "
                f"epsilon={self._epsilon}, dtype={self._dtype}")


class FusedFeedForward(Layer):
    """Feed-forward block (``fused_feedforward``): linear1, activation, dropout, linear2,
    dropout, residual, layer norm (before the block with ``normalize_before``)."""

    def __init__(self, d_model, dim_feedforward, dropout_rate=0.1, epsilon=1e-05,
                 activation="relu", act_dropout_rate=None, normalize_before=False,
                 linear1_weight_attr=None, linear1_bias_attr=None, linear2_weight_attr=None,
                 linear2_bias_attr=None, ln1_scale_attr=None, ln1_bias_attr=None,
                 ln2_scale_attr=None, ln2_bias_attr=None, nranks=1, ring_id=-1, name=None):
        super().__init__()
        if d_model <= 0:
            raise ValueError(f"Expected d_model to be greater than 0, but received {d_model}")
        if dim_feedforward <= 0:
            raise ValueError("Expected dim_feedforward to be greater than 0, but received "
                             f"{dim_feedforward}")
        if dim_feedforward % nranks != 0:
            raise ValueError("dim_feedforward must be divisible by nranks")
        dim_feedforward = dim_feedforward // nranks
        self._d_model = d_model
        self._dim_feedforward = dim_feedforward
        self._dropout_rate = dropout_rate
        self._act_dropout_rate = dropout_rate if act_dropout_rate is None else act_dropout_rate
        self._act_method = activation
        self._normalize_before = normalize_before
        self._epsilon = epsilon
        self._ring_id = ring_id
        self._linear1_weight = self.create_parameter([d_model, dim_feedforward],
                                                     attr=linear1_weight_attr,
                                                     dtype=self._dtype, is_bias=False)
        self._linear1_bias = self.create_parameter([dim_feedforward], attr=linear1_bias_attr,
                                                   dtype=self._dtype, is_bias=True)
        self._linear2_weight = self.create_parameter([dim_feedforward, d_model],
                                                     attr=linear2_weight_attr,
                                                     dtype=self._dtype, is_bias=False)
        self._linear2_bias = self.create_parameter([d_model], attr=linear2_bias_attr,
                                                   dtype=self._dtype, is_bias=True)
        if normalize_before:
            self._ln1_scale = self.create_parameter([d_model], attr=ln1_scale_attr,
                                                    is_bias=False, default_initializer=_ones())
            self._ln1_bias = self.create_parameter([d_model], attr=ln1_bias_attr, is_bias=True)
            self._ln2_scale = None
            self._ln2_bias = None
        else:
            self._ln1_scale = None
            self._ln1_bias = None
            self._ln2_scale = self.create_parameter([d_model], attr=ln2_scale_attr,
                                                    is_bias=False, default_initializer=_ones())
            self._ln2_bias = self.create_parameter([d_model], attr=ln2_bias_attr, is_bias=True)
        self.name = name

    def forward(self, src, cache=None):
        return _F.fused_feedforward(
            src, self._linear1_weight, self._linear2_weight, self._linear1_bias,
            self._linear2_bias, self._ln1_scale, self._ln1_bias, self._ln2_scale,
            self._ln2_bias, dropout1_rate=self._act_dropout_rate,
            dropout2_rate=self._dropout_rate, activation=self._act_method,
            ln1_epsilon=self._epsilon, ln2_epsilon=self._epsilon,
            pre_layer_norm=self._normalize_before, training=self.training,
            ring_id=self._ring_id, name=self.name)

    def extra_repr(self):
        return (f"d_model={self._d_model}, dim_feedforward={self._dim_feedforward}, "
                f"dropout_rate={self._dropout_rate}, epsilon={self._epsilon}, "
                f"activation={self._act_method}, act_dropout_rate={self._act_dropout_rate}, "
                f"normalize_before={self._normalize_before}, dtype={self._dtype}")


def _attrs(attr, n):
    """A ParamAttr (or a list of them) spread over ``n`` sub-blocks, as Paddle's encoder does."""
    if isinstance(attr, (list, tuple)):
        if len(attr) == 1:
            return [attr[0]] * n
        if len(attr) == n:
            return list(attr)
        raise ValueError(f"length of attr should be 1 or {n}")
    return [attr] * n


class FusedTransformerEncoderLayer(Layer):
    """``FusedMultiHeadAttention`` (``fused_attn``) followed by ``FusedFeedForward`` (``ffn``),
    the fused counterpart of ``nn.TransformerEncoderLayer``."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout_rate=0.1, activation="relu",
                 attn_dropout_rate=None, act_dropout_rate=None, normalize_before=False,
                 weight_attr=None, bias_attr=None):
        self._config = {"d_model": d_model, "nhead": nhead, "dim_feedforward": dim_feedforward,
                        "dropout_rate": dropout_rate, "activation": activation,
                        "attn_dropout_rate": attn_dropout_rate,
                        "act_dropout_rate": act_dropout_rate,
                        "normalize_before": normalize_before, "weight_attr": weight_attr,
                        "bias_attr": bias_attr}
        super().__init__()
        if d_model <= 0:
            raise ValueError(f"Expected d_model to be greater than 0, but received {d_model}")
        if nhead <= 0:
            raise ValueError(f"Expected nhead to be greater than 0, but received {nhead}")
        if dim_feedforward <= 0:
            raise ValueError("Expected dim_feedforward to be greater than 0, but received "
                             f"{dim_feedforward}")
        attn_dropout_rate = dropout_rate if attn_dropout_rate is None else attn_dropout_rate
        act_dropout_rate = dropout_rate if act_dropout_rate is None else act_dropout_rate
        self.normalize_before = normalize_before
        w = _attrs(weight_attr, 2)
        b = _attrs(bias_attr, 2)
        self.fused_attn = FusedMultiHeadAttention(
            d_model, num_heads=nhead, dropout_rate=dropout_rate,
            attn_dropout_rate=attn_dropout_rate, normalize_before=normalize_before,
            qkv_weight_attr=w[0], qkv_bias_attr=b[0], linear_weight_attr=w[0],
            linear_bias_attr=b[0], pre_ln_scale_attr=w[0], pre_ln_bias_attr=b[0],
            ln_scale_attr=w[0], ln_bias_attr=b[0])
        self.ffn = FusedFeedForward(
            d_model, dim_feedforward, dropout_rate=dropout_rate, activation=activation,
            act_dropout_rate=act_dropout_rate, normalize_before=normalize_before,
            linear1_weight_attr=w[1], linear1_bias_attr=b[1], linear2_weight_attr=w[1],
            linear2_bias_attr=b[1])

    def forward(self, src, src_mask=None, cache=None):
        if cache is not None:
            raise NotImplementedError("FusedTransformerEncoderLayer: cache is not supported")
        return self.ffn(self.fused_attn(src, attn_mask=src_mask))


class FusedBiasDropoutResidualLayerNorm(Layer):
    """``layer_norm(residual + dropout(x + linear_bias))`` over the last axis."""

    def __init__(self, embed_dim, dropout_rate=0.5, weight_attr=None, bias_attr=None,
                 epsilon=1e-5, name=None):
        super().__init__()
        if embed_dim <= 0:
            raise ValueError(f"Expected embed_dim to be greater than 0, but received {embed_dim}")
        self.embed_dim = embed_dim
        self.linear_bias = self.create_parameter([embed_dim], attr=bias_attr, dtype=self._dtype,
                                                 is_bias=True)
        self.ln_scale = self.create_parameter([embed_dim], attr=weight_attr, dtype=self._dtype,
                                              default_initializer=_ones())
        self.ln_bias = self.create_parameter([embed_dim], attr=bias_attr, dtype=self._dtype,
                                             is_bias=True)
        self.dropout_rate = dropout_rate
        self._epsilon = epsilon
        self.name = name

    def forward(self, x, residual):
        return _F.fused_bias_dropout_residual_layer_norm(
            x, residual, bias=self.linear_bias, ln_scale=self.ln_scale, ln_bias=self.ln_bias,
            dropout_rate=self.dropout_rate, ln_epsilon=self._epsilon, training=self.training,
            mode="upscale_in_train", name=self.name)

    def extra_repr(self):
        return (f"embed_dim={self.embed_dim}, dropout_rate={self.dropout_rate}, "
                f"epsilon={self._epsilon}, dtype={self._dtype}")


class FusedDropoutAdd(Layer):
    """``dropout(x, p) + y``."""

    def __init__(self, p=0.5, mode="upscale_in_train", name=None):
        super().__init__()
        if not isinstance(p, (float, int)) or not 0 <= p <= 1:
            raise ValueError("p argument should between 0 and 1")
        if mode not in ("downscale_in_infer", "upscale_in_train"):
            raise ValueError("mode argument should be 'downscale_in_infer' or 'upscale_in_train'")
        self.p = p
        self.mode = mode
        self.name = name

    def forward(self, x, y):
        return _F.fused_dropout_add(x, y, p=self.p, training=self.training, mode=self.mode,
                                    name=self.name)

    def extra_repr(self):
        return f"p={self.p}, mode={self.mode}"
