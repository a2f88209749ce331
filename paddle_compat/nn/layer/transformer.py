"""``MultiHeadAttention`` (Paddle's q/k/v/out projections and its ``Cache``/``StaticCache``
API), ``TransformerEncoderLayer`` (post- or pre-norm) and ``TransformerEncoder``, the decoder
side (``TransformerDecoderLayer``: self attention, cross attention, feed-forward;
``TransformerDecoder``) and the whole ``Transformer``.
"""
import collections
import copy

import torch

from ..param_attr import to_param_attr
from ...framework import dtype as _dt
from ...framework.place import current_device
from ...framework.tensor import Tensor, wrap
from .. import functional as F
from .common import Dropout, Linear
from .container import LayerList
from .layers import Layer
from .norm import LayerNorm

__all__ = ["MultiHeadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "TransformerDecoderLayer", "TransformerDecoder", "Transformer"]


def _attrs_list(attr, n):
    """Paddle's rule for a weight/bias attr given to a block of ``n`` sublayers: a list is
    taken item by item; one attr is copied, a named one getting ``_0``, ``_1`` ... suffixes."""
    if isinstance(attr, (list, tuple)):
        assert len(attr) == n, f"length of param_attr should be {n} when it is a list/tuple"
        return [to_param_attr(a) if not isinstance(a, bool) else (to_param_attr(None) if a
                                                                   else False) for a in attr]
    if isinstance(attr, bool):
        return [to_param_attr(None) if attr else False for _ in range(n)]
    base = to_param_attr(attr)
    out = []
    for i in range(n):
        a = copy.deepcopy(base)
        if base.name:
            a.name = f"{a.name}_{i}"
        out.append(a)
    return out


def _convert_attention_mask(attn_mask, dtype):
    """Paddle's private helper that PaddleNLP's and PaddleX's attention layers import: the
    mask as ``dtype`` (a bool or integer mask becomes 0 where kept and -1e9 where masked, a
    float mask is cast); None, or a mask already of ``dtype`` given as a dtype object, is
    returned as it is (a dtype name never compares equal there, as in Paddle: a copy)."""
    if attn_mask is None or (isinstance(dtype, _dt.DType) and attn_mask.dtype == dtype):
        return attn_mask
    return wrap(_additive_mask(attn_mask, _dt.to_torch_dtype(dtype)))


# Paddle's private name for the rule above, imported by PaddleNLP's transformer layers
_convert_param_attr_to_list = _attrs_list


def _additive_mask(mask, dtype):
    """Paddle's attention mask: bool/int masks become 0 where kept and -1e9 where masked;
    float masks are added as they are."""
    if mask is None:
        return None
    t = mask._t
    if t.dtype == dtype:
        return t
    if t.dtype == torch.bool or not (t.is_floating_point() or t.is_complex()):
        return (t.to(dtype) - 1.0) * 1e9
    return t.to(dtype)


class MultiHeadAttention(Layer):
    """Attention with ``num_heads`` heads; ``forward(query, key=None, value=None,
    attn_mask=None, cache=None)`` returns the output, plus the weights with
    ``need_weights`` and the updated cache when one is given."""

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim, num_heads, dropout=0.0, kdim=None, vdim=None,
                 need_weights=False, weight_attr=None, bias_attr=None):
        super().__init__()
        assert embed_dim > 0, f"Expected embed_dim to be greater than 0, but received {embed_dim}"
        assert num_heads > 0, f"Expected num_heads to be greater than 0, but received {num_heads}"
        self.embed_dim, self.num_heads, self.dropout = embed_dim, num_heads, dropout
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        assert self.head_dim * num_heads == embed_dim, "embed_dim must be divisible by num_heads"
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads(self, x):
        """[batch, seq, embed] -> [batch, heads, seq, head_dim]."""
        t = x._t
        return t.reshape(t.shape[0], t.shape[1], self.num_heads, self.head_dim).transpose(1, 2)

    def compute_kv(self, key, value):
        """The projected keys and values, ``[batch, heads, seq, head_dim]`` each."""
        return wrap(self._heads(self.k_proj(key))), wrap(self._heads(self.v_proj(value)))

    def gen_cache(self, key, value=None, type=Cache):
        """A StaticCache of projected ``key``/``value`` (for cross attention), an empty
        incremental Cache (``value`` None), or a Cache holding ``key`` and ``value``."""
        if type == MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, value))
        if value is None:
            shape = [key.shape[0], self.num_heads, 0, self.head_dim]
            z = torch.zeros(shape, dtype=key._t.dtype, device=key._t.device)
            return self.Cache(wrap(z), wrap(z.clone()))
        return self.Cache(key, value)

    def _prepare_qkv(self, query, key, value, cache=None):
        q = self._heads(self.q_proj(query))
        if isinstance(cache, self.StaticCache):
            k, v = cache.k._t, cache.v._t
        else:
            k, v = self._heads(self.k_proj(key)), self._heads(self.v_proj(value))
        if isinstance(cache, self.Cache):
            k = torch.cat([cache.k._t, k], dim=2)
            v = torch.cat([cache.v._t, v], dim=2)
            cache = self.Cache(wrap(k), wrap(v))
        return q, k, v, cache

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        key = query if key is None else key
        value = query if value is None else value
        q, k, v, cache = self._prepare_qkv(query, key, value, cache)
        product = torch.matmul(q * (self.head_dim ** -0.5), k.transpose(-1, -2))
        mask = _additive_mask(attn_mask, product.dtype)
        if mask is not None:
            product = product + mask
        weights = F.softmax(wrap(product))
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training,
                                mode="upscale_in_train")
        out = torch.matmul(weights._t, v).transpose(1, 2)
        out = self.out_proj(wrap(out.reshape(out.shape[0], out.shape[1], -1)))
        outs = [out]
        if self.need_weights:
            outs.append(weights)
        if cache is not None:
            outs.append(cache)
        return out if len(outs) == 1 else tuple(outs)


def _check_block(d_model, nhead, dim_feedforward, dropout, attn_dropout, act_dropout):
    """Paddle's argument checks of a transformer layer; the attention and activation dropout
    rates (``dropout`` where not given)."""
    assert d_model > 0, f"Expected d_model to be greater than 0, but received {d_model}"
    assert nhead > 0, f"Expected nhead to be greater than 0, but received {nhead}"
    assert dim_feedforward > 0, ("Expected dim_feedforward to be greater than 0, but "
                                 f"received {dim_feedforward}")
    return (dropout if attn_dropout is None else attn_dropout,
            dropout if act_dropout is None else act_dropout)


class _Block(Layer):
    """What the encoder and decoder layers share: the feed-forward block, ``norm1..normK``
    and ``dropout1..dropoutK`` (created in Paddle's order, after the attention layers), and a
    residual sub-block with its LayerNorm after (default) or before (``normalize_before``)."""

    def _feed_forward_and_norms(self, d_model, dim_feedforward, act_dropout, w, b, k, eps,
                                dropout, activation):
        self.linear1 = Linear(d_model, dim_feedforward, w, bias_attr=b)
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, w, bias_attr=b)
        for i in range(1, k + 1):
            setattr(self, f"norm{i}", LayerNorm(d_model, eps))
        for i in range(1, k + 1):
            setattr(self, f"dropout{i}", Dropout(dropout, mode="upscale_in_train"))
        self.activation = getattr(F, activation)

    def _feed_forward(self, x):
        return self.linear2(self.dropout(self.activation(self.linear1(x))))

    def _sublayer(self, x, k, fn):
        norm = getattr(self, f"norm{k}")
        residual = x
        if self.normalize_before:
            x = norm(x)
        x = residual + getattr(self, f"dropout{k}")(fn(x))
        return x if self.normalize_before else norm(x)

    def __setattr__(self, name, value):
        if name == "_config" and "_parameters" not in self.__dict__:
            self.__dict__[name] = value       # set before Layer.__init__, as Paddle does
            return
        super().__setattr__(name, value)


class TransformerEncoderLayer(_Block):
    """Self attention then a feed-forward block (``linear1`` -> activation -> dropout ->
    ``linear2``), each with a residual and LayerNorm, after (default) or before
    (``normalize_before``) the block."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False, weight_attr=None,
                 bias_attr=None, layer_norm_eps=1e-5):
        self._config = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        super().__init__()
        attn_dropout, act_dropout = _check_block(d_model, nhead, dim_feedforward, dropout,
                                                 attn_dropout, act_dropout)
        self.normalize_before = normalize_before
        w, b = _attrs_list(weight_attr, 2), _attrs_list(bias_attr, 2)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                            weight_attr=w[0], bias_attr=b[0])
        self._feed_forward_and_norms(d_model, dim_feedforward, act_dropout, w[1], b[1], 2,
                                     layer_norm_eps, dropout, activation)

    def forward(self, src, src_mask=None, cache=None):
        mask = None if src_mask is None else wrap(_additive_mask(src_mask, src._t.dtype))
        caches = [cache]

        def attend(x):
            if cache is None:
                return self.self_attn(x, x, x, mask)
            x, caches[0] = self.self_attn(x, x, x, mask, cache)
            return x
        src = self._sublayer(src, 1, attend)
        src = self._sublayer(src, 2, self._feed_forward)
        return src if cache is None else (src, caches[0])

    def gen_cache(self, src):
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerEncoder(Layer):
    """``num_layers`` encoder layers: the given one and fresh copies built from its
    arguments (new parameters, as Paddle does), then an optional final ``norm``."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = LayerList([encoder_layer if i == 0 else
                                 type(encoder_layer)(**encoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src, src_mask=None, cache=None):
        mask = None if src_mask is None else wrap(_additive_mask(src_mask, src._t.dtype))
        output = src
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, src_mask=mask)
            else:
                output, c = layer(output, src_mask=mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src):
        return [layer.gen_cache(src) for layer in self.layers]



class TransformerDecoderLayer(_Block):
    """Self attention on ``tgt``, cross attention to ``memory``, then the feed-forward block,
    each with a residual and LayerNorm (``norm1``..``norm3``) after (default) or before
    (``normalize_before``) the block. ``weight_attr``/``bias_attr`` may be lists of 3 (self
    attention, cross attention, feed-forward). With ``cache`` (from ``gen_cache``: an
    incremental self-attention Cache and a StaticCache of the projected memory) the forward
    returns ``(output, (new_incremental_cache, static_cache))``."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False, weight_attr=None,
                 bias_attr=None, layer_norm_eps=1e-5):
        self._config = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        super().__init__()
        attn_dropout, act_dropout = _check_block(d_model, nhead, dim_feedforward, dropout,
                                                 attn_dropout, act_dropout)
        self.normalize_before = normalize_before
        w, b = _attrs_list(weight_attr, 3), _attrs_list(bias_attr, 3)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                            weight_attr=w[0], bias_attr=b[0])
        self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                             weight_attr=w[1], bias_attr=b[1])
        self._feed_forward_and_norms(d_model, dim_feedforward, act_dropout, w[2], b[2], 3,
                                     layer_norm_eps, dropout, activation)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = None if tgt_mask is None else wrap(_additive_mask(tgt_mask, tgt._t.dtype))
        memory_mask = None if memory_mask is None else \
            wrap(_additive_mask(memory_mask, memory._t.dtype))
        caches = [None, None]

        def attend(x):
            if cache is None:
                return self.self_attn(x, x, x, tgt_mask, None)
            x, caches[0] = self.self_attn(x, x, x, tgt_mask, cache[0])
            return x

        def cross(x):
            if cache is None:
                return self.cross_attn(x, memory, memory, memory_mask, None)
            x, caches[1] = self.cross_attn(x, memory, memory, memory_mask, cache[1])
            return x
        tgt = self._sublayer(tgt, 1, attend)
        tgt = self._sublayer(tgt, 2, cross)
        tgt = self._sublayer(tgt, 3, self._feed_forward)
        return tgt if cache is None else (tgt, tuple(caches))

    def gen_cache(self, memory):
        """``(empty incremental Cache for self attention, StaticCache of memory's projected
        keys/values for cross attention)``."""
        return (self.self_attn.gen_cache(memory, type=self.self_attn.Cache),
                self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache))


class TransformerDecoder(Layer):
    """``num_layers`` decoder layers (the given one and fresh copies built from its
    arguments), then an optional final ``norm``; ``forward(tgt, memory, tgt_mask=None,
    memory_mask=None, cache=None)``."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = LayerList([decoder_layer if i == 0 else
                                 type(decoder_layer)(**decoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = None if tgt_mask is None else wrap(_additive_mask(tgt_mask, tgt._t.dtype))
        memory_mask = None if memory_mask is None else \
            wrap(_additive_mask(memory_mask, memory._t.dtype))
        output = tgt
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                               cache=None)
            else:
                output, c = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                                  cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory, do_zip=False):
        """One ``gen_cache`` per layer; ``do_zip`` regroups them as ``[incremental caches,
        static caches]``."""
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attr(attr, what):
    """Transformer's rule for a list attr: 1 -> everything; 2 -> (attention, feed-forward);
    3 -> (self attention, cross attention, feed-forward); the encoder takes the first and
    last of three."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return attr, [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], attr
    raise AssertionError(f"length of {what} should be 1 or 2 or 3 when it is a list/tuple")


class Transformer(Layer):
    """An encoder (``num_encoder_layers`` layers and a final LayerNorm) and a decoder
    (``num_decoder_layers`` layers and a final LayerNorm), or ``custom_encoder`` /
    ``custom_decoder``; ``forward(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None)``
    returns the decoder's output."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None,
                 custom_encoder=None, custom_decoder=None):
        super().__init__()
        assert d_model > 0, f"Expected d_model to be greater than 0, but received {d_model}"
        assert nhead > 0, f"Expected nhead to be greater than 0, but received {nhead}"
        assert dim_feedforward > 0, ("Expected dim_feedforward to be greater than 0, but "
                                     f"received {dim_feedforward}")
        enc_b, dec_b = _split_attr(bias_attr, "bias_attr")
        enc_w, dec_w = _split_attr(weight_attr, "weight_attr")
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout,
                                            activation, attn_dropout, act_dropout,
                                            normalize_before, enc_w, enc_b)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout,
                                            activation, attn_dropout, act_dropout,
                                            normalize_before, dec_w, dec_b)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model, self.nhead = d_model, nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        src_mask = None if src_mask is None else wrap(_additive_mask(src_mask, src._t.dtype))
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = None if tgt_mask is None else wrap(_additive_mask(tgt_mask, tgt._t.dtype))
        memory_mask = None if memory_mask is None else \
            wrap(_additive_mask(memory_mask, memory._t.dtype))
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length):
        """A ``[length, length]`` float mask of the default dtype: 0 on and below the
        diagonal, -inf above it (each position sees itself and the ones before)."""
        n = int(length.item()) if isinstance(length, Tensor) else int(length)
        full = torch.full([n, n], float("-inf"), dtype=_dt.default_float().torch,
                          device=current_device())
        return wrap(torch.triu(full, 1))
