"""Paddle's AMP op lists and how their op names map onto the torch functions our ops call.

``WHITE``/``FP16_BLACK``/``EXTRA_BLACK`` are Paddle 3.3.1's default lists (paddle/amp/amp_lists.py,
kept in ``framework.amp_op_names`` so that static AMP's lists share them);
``update_list`` is its arithmetic for ``custom_white_list``/``custom_black_list``.
``torch_funcs(name)`` resolves a Paddle op name to the torch callables that implement it here:
an explicit table for the names whose torch spelling differs, else ``torch.<name>``,
``torch.nn.functional.<name>`` and ``torch.Tensor.<name>`` (with ``elementwise_``/``reduce_``
prefixes and ``_v2`` suffixes stripped). Names that resolve to nothing are ignored, as Paddle
ignores unknown op names.
"""
import torch
import torch.nn.functional as F

from ..framework.amp_op_names import EXTRA_BLACK, FP16_BLACK, WHITE, default_lists

__all__ = ["WHITE", "FP16_BLACK", "EXTRA_BLACK", "default_lists", "update_list", "torch_funcs"]

def update_list(custom_white, custom_black, level="O1", dtype="float16"):
    """The white and black op-name sets after the user's custom lists (Paddle's rules)."""
    if level == "O0":
        return set(), set()
    white, black = default_lists(level, dtype)
    if custom_white and custom_black:
        for name in custom_white:
            if name in custom_black:
                raise ValueError("Custom white list overlap custom black list")
    for name in custom_white or ():
        black.discard(name)
        white.add(name)
    for name in custom_black or ():
        white.discard(name)
        black.add(name)
    return white, black


T = torch.Tensor
_MATMUL = (torch.matmul, T.matmul, T.__matmul__, T.__rmatmul__, torch.mm, T.mm, torch.bmm, T.bmm)
_EXPLICIT = {
    "matmul": _MATMUL, "matmul_v2": _MATMUL, "mul": (torch.mm, T.mm),
    "linear_v2": (F.linear, torch.addmm, T.addmm, torch.baddbmm, torch.matmul),
    "fused_gemm_epilogue": (torch.addmm, F.linear),
    "conv2d": (torch.conv2d, torch.conv1d),
    "flash_attn": (F.scaled_dot_product_attention,),
    "max_pool2d_with_index": (F.max_pool2d, F.max_pool2d_with_indices),
    "tanh_shrink": (F.tanhshrink,),
    "pow": (torch.pow, T.pow, T.__pow__, T.__rpow__),
    "mean": (torch.mean, T.mean), "pnorm": (torch.norm, T.norm, torch.linalg.vector_norm),
    "frobenius_norm": (torch.norm, T.norm, torch.linalg.matrix_norm),
    "group_norm": (F.group_norm, torch.group_norm),
    "layer_norm": (F.layer_norm, torch.layer_norm),
    "softmax": (torch.softmax, F.softmax, T.softmax),
    "log_softmax": (torch.log_softmax, F.log_softmax, T.log_softmax),
    "softmax_with_cross_entropy": (F.cross_entropy,), "cross_entropy": (F.cross_entropy,),
    "cross_entropy2": (F.cross_entropy,),
    "sigmoid_cross_entropy_with_logits": (F.binary_cross_entropy_with_logits,),
    "huber_loss": (F.huber_loss, F.smooth_l1_loss),
    "lookup_table": (F.embedding, torch.embedding),
    "lookup_table_v2": (F.embedding, torch.embedding),
    "elementwise_add": (torch.add, T.add, T.__add__, T.__radd__),
    "elementwise_sub": (torch.sub, T.sub, T.__sub__, T.__rsub__),
    "elementwise_mul": (torch.mul, T.mul, T.__mul__, T.__rmul__),
    "elementwise_div": (torch.div, T.div, T.__truediv__, T.__rtruediv__),
    "concat": (torch.cat, torch.concat), "relu": (torch.relu, F.relu, T.relu),
}
for _name in ("linear_interp_v2", "nearest_interp_v2", "bilinear_interp_v2",
              "bicubic_interp_v2", "trilinear_interp_v2"):
    _EXPLICIT[_name] = (F.interpolate,)


def torch_funcs(name):
    """The torch callables that carry out the Paddle op ``name`` here (possibly none)."""
    if name in _EXPLICIT:
        return set(_EXPLICIT[name])
    base = name
    for prefix in ("elementwise_", "reduce_"):
        if base.startswith(prefix):
            base = base[len(prefix):]
    if base.endswith("_v2"):
        base = base[:-3]
    found = set()
    for owner in (torch, F, torch.Tensor):
        fn = getattr(owner, base, None)
        if callable(fn):
            found.add(fn)
    for dunder in (f"__{base}__", f"__r{base}__"):
        fn = getattr(torch.Tensor, dunder, None)
        if fn is not None:
            found.add(fn)
    return found
