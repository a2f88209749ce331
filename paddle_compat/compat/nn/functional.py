"""``paddle.compat.nn.functional``: torch.nn.functional's semantics under Paddle 3's names.

``pad`` takes torch's pad list (last dim first), ``linear`` a weight of shape
[out_features, in_features], ``unfold`` torch's keywords, ``softmax`` torch's implicit ``dim``,
``scaled_dot_product_attention`` torch's [..., heads, seq, head_dim] layout.
"""
import torch
import torch.nn.functional as TF

from ...framework.tensor import Tensor, wrap
from ...ops.torch_style import softmax
from ..torch_api import forbid_keywords

__all__ = ["pad", "softmax", "linear", "scaled_dot_product_attention", "unfold"]


def _t(x, api, arg="input"):
    if isinstance(x, Tensor):
        return x._t
    raise TypeError(f"paddle.compat.nn.functional.{api}(): argument '{arg}' must be Tensor, "
                    f"but got {type(x).__name__}")


def _ints(v):
    if isinstance(v, Tensor):
        return v.tolist()
    return v


@forbid_keywords(("x", "name", "data_format", "pad_from_left_axis"), "nn.functional.pad",
                 "paddle.nn.functional.pad")
def pad(input, pad, mode="constant", value=0.0):  # noqa: A002
    """torch.nn.functional.pad: ``pad`` lists (left, right) pairs from the last dim back."""
    if mode not in ("reflect", "replicate", "constant", "circular"):
        raise AssertionError("mode should be one of constant, reflect, replicate, circular, "
                             f"but got {mode}.")
    t = _t(input, "pad")
    pad = [int(p) for p in _ints(pad)]
    if mode == "constant":
        return wrap(TF.pad(t, pad, "constant", float(value)))
    return wrap(TF.pad(t, pad, mode))


@forbid_keywords(("x", "name"), "nn.functional.linear", "paddle.nn.functional.linear")
def linear(input, weight, bias=None):
    """``input @ weight.T + bias`` (torch's weight layout [out_features, in_features]); the
    bias is added with type promotion, as Paddle's add does."""
    out = torch.matmul(_t(input, "linear"), _t(weight, "linear", "weight").mT)
    if bias is not None:
        out = out + _t(bias, "linear", "bias")
    return wrap(out)


@forbid_keywords(("x", "kernel_sizes", "dilations", "paddings", "strides", "name"),
                 "nn.functional.unfold", "paddle.nn.functional.unfold")
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """torch.nn.functional.unfold: sliding blocks of [N, C, H, W] as [N, C*kh*kw, L]."""
    return wrap(TF.unfold(_t(input, "unfold"), _ints(kernel_size), _ints(dilation),
                          _ints(padding), _ints(stride)))


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """torch's attention over [..., heads, seq, head_dim]; a bool mask marks the positions
    that take part, a float mask is added to the scores."""
    if is_causal and attn_mask is not None:
        raise RuntimeError("Explicit attn_mask should not be set when is_causal=True")
    mask = None if attn_mask is None else _t(attn_mask, "scaled_dot_product_attention",
                                             "attn_mask")
    q = _t(query, "scaled_dot_product_attention", "query")
    return wrap(TF.scaled_dot_product_attention(
        q, _t(key, "scaled_dot_product_attention", "key"),
        _t(value, "scaled_dot_product_attention", "value"), attn_mask=mask,
        dropout_p=dropout_p, is_causal=is_causal, scale=scale, enable_gqa=enable_gqa))


