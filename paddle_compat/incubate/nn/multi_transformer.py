"""``paddle.incubate.nn.FusedMultiTransformer``: ``num_layers`` transformer layers run by
``incubate.nn.functional.fused_multi_transformer``.

As in Paddle, the parameters live in plain lists (``ln_scales``, ``qkv_weights`` ...) and are
registered under their own unique names (``fused_multi_transformer_0.w_0`` ...), so a
state_dict saved by Paddle loads as is; biases exist only where their ``*_bias_attrs`` is
given; the layer-norm scales and biases are float32.
"""
from ...framework.dtype import get_default_dtype
from ...nn.initializer import Constant
from ...nn.layer.layers import Layer
from .functional import fused_multi_transformer

__all__ = ["FusedMultiTransformer"]


class FusedMultiTransformer(Layer):
    """A stack of transformer layers (attention + feed-forward, pre or post layer norm) with
    fused-kernel parameter layouts: qkv weight ``[3, heads, head_dim, embed]`` (``[embed, 3,
    heads, head_dim]`` without ``trans_qkvw``), linear ``[embed, embed]``, ffn1 ``[embed,
    dim_feedforward]`` (twice as wide for a ``*glu`` activation), ffn2 ``[dim_feedforward,
    embed]``. The decoding caches, rotary embeddings and tensor parallelism (``nranks`` > 1)
    are not supported."""

    def __init__(self, embed_dim, num_heads, dim_feedforward, dropout_rate=0.0,
                 activation="gelu", normalize_before=True, ln_scale_attrs=None,
                 ln_bias_attrs=None, qkv_weight_attrs=None, qkv_bias_attrs=None,
                 linear_weight_attrs=None, linear_bias_attrs=None, ffn_ln_scale_attrs=None,
                 ffn_ln_bias_attrs=None, ffn1_weight_attrs=None, ffn1_bias_attrs=None,
                 ffn2_weight_attrs=None, ffn2_bias_attrs=None, epsilon=1e-5,
                 residual_alpha=1.0, num_layers=-1, nranks=1, trans_qkvw=True, ring_id=-1,
                 norm_type="layernorm", use_neox_rotary_style=False, gqa_group_size=-1,
                 name=None):
        super().__init__()
        assert embed_dim > 0, f"Expected embed_dim to be greater than 0, but received {embed_dim}"
        assert num_heads > 0, f"Expected nhead to be greater than 0, but received {num_heads}"
        assert dim_feedforward > 0, (
            f"Expected dim_feedforward to be greater than 0, but received {dim_feedforward}")
        if nranks > 1:
            raise NotImplementedError("FusedMultiTransformer: nranks > 1 (tensor parallelism) "
                                      "is not supported")
        self.normalize_before = normalize_before
        self._dtype = get_default_dtype()
        self._epsilon = epsilon
        self._residual_alpha = residual_alpha
        self._trans_qkvw = trans_qkvw
        self._norm_type = norm_type
        self._gqa_group_size = gqa_group_size
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        assert self.head_dim * num_heads == embed_dim, "embed_dim must be divisible by num_heads"
        self.dropout_rate = dropout_rate
        self.activation = activation
        if isinstance(qkv_weight_attrs, (list, tuple)):
            num_layers = len(qkv_weight_attrs)
        assert num_layers > 0

        def attr(attrs, i):
            if isinstance(attrs, (list, tuple)):
                assert len(attrs) == num_layers
                return attrs[i]
            return attrs

        names = ["ln_scales", "ln_biases", "qkv_weights", "qkv_biases", "linear_weights",
                 "linear_biases", "ffn_ln_scales", "ffn_ln_biases", "ffn1_weights",
                 "ffn1_biases", "ffn2_weights", "ffn2_biases"]
        lists = {n: [] for n in names}
        ffn1 = dim_feedforward * 2 if activation.endswith("glu") else dim_feedforward
        qkv_shape = ([3, num_heads, self.head_dim, embed_dim] if trans_qkvw
                     else [embed_dim, 3, num_heads, self.head_dim])
        for i in range(num_layers):
            made = {
                "ln_scales": self.create_parameter(
                    [embed_dim], attr(ln_scale_attrs, i), "float32",
                    default_initializer=Constant(1.0)),
                "ln_biases": self._bias(attr(ln_bias_attrs, i), [embed_dim], "float32"),
                "qkv_weights": self.create_parameter(qkv_shape, attr(qkv_weight_attrs, i),
                                                     self._dtype),
                "qkv_biases": self._bias(attr(qkv_bias_attrs, i),
                                         [3, num_heads, self.head_dim], self._dtype),
                "linear_weights": self.create_parameter(
                    [num_heads * self.head_dim, embed_dim], attr(linear_weight_attrs, i),
                    self._dtype),
                "linear_biases": self._bias(attr(linear_bias_attrs, i), [embed_dim],
                                            self._dtype),
                "ffn_ln_scales": self.create_parameter(
                    [embed_dim], attr(ffn_ln_scale_attrs, i), "float32",
                    default_initializer=Constant(1.0)),
                "ffn_ln_biases": self._bias(attr(ffn_ln_bias_attrs, i), [embed_dim],
                                            "float32"),
                "ffn1_weights": self.create_parameter([embed_dim, ffn1],
                                                      attr(ffn1_weight_attrs, i), self._dtype),
                "ffn1_biases": self._bias(attr(ffn1_bias_attrs, i), [ffn1], self._dtype),
                "ffn2_weights": self.create_parameter([dim_feedforward, embed_dim],
                                                      attr(ffn2_weight_attrs, i), self._dtype),
                "ffn2_biases": self._bias(attr(ffn2_bias_attrs, i), [embed_dim], self._dtype),
            }
            for n in names:
                p = made[n]
                lists[n].append(p)
                if p is not None:
                    assert p.name not in self._parameters
                    self._parameters[p.name] = p
        for n in names:
            value = lists[n]
            if n.endswith("biases") and value[0] is None:
                value = None
            object.__setattr__(self, n, value)

    def _bias(self, attr, shape, dtype):
        if not attr:
            return None
        return self.create_parameter(shape, attr, dtype, is_bias=True)

    def forward(self, src, attn_mask=None, caches=None, pre_caches=None, rotary_embs=None,
                rotary_emb_dims=0, beam_offset=None, seq_lens=None, time_step=None):
        return fused_multi_transformer(
            src, self.ln_scales, self.ln_biases, self.qkv_weights, self.qkv_biases,
            self.linear_weights, self.linear_biases, self.ffn_ln_scales, self.ffn_ln_biases,
            self.ffn1_weights, self.ffn1_biases, self.ffn2_weights, self.ffn2_biases,
            pre_layer_norm=self.normalize_before, epsilon=self._epsilon,
            residual_alpha=self._residual_alpha, cache_kvs=caches, beam_offset=beam_offset,
            pre_caches=pre_caches, seq_lens=seq_lens, rotary_embs=rotary_embs,
            time_step=time_step, attn_mask=attn_mask, dropout_rate=self.dropout_rate,
            rotary_emb_dims=rotary_emb_dims, activation=self.activation,
            training=self.training, trans_qkvw=self._trans_qkvw, norm_type=self._norm_type,
            gqa_group_size=self._gqa_group_size)
