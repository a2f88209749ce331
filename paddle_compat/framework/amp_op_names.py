"""Paddle 3.3.1's default AMP op-type lists (paddle/amp/amp_lists.py), shared by dynamic AMP
(``amp.op_lists``) and static AMP (``static.amp.CustomOpLists``)."""

__all__ = ["WHITE", "ONLY_FP16_WHITE", "FP16_BLACK", "EXTRA_BLACK", "default_lists"]

WHITE = {"conv2d", "einsum", "matmul", "matmul_v2", "linear_v2", "max_pool2d_with_index", "mul",
         "fused_gemm_epilogue", "fused_rotary_position_embedding", "flash_attn"}
ONLY_FP16_WHITE = {"fake_quantize_dequantize_abs_max",
                   "fake_quantize_dequantize_moving_average_abs_max", "fused_attention",
                   "fused_feedforward"}
FP16_BLACK = {
    "tan", "acos", "asin", "sinh", "cosh", "atanh", "tanh_shrink", "erfinv", "exp", "expm1",
    "log", "log10", "log2", "reciprocal", "rsqrt", "pow", "square", "reduce_sum", "mean",
    "reduce_mean", "reduce_prod", "cumprod", "cumsum", "dist", "pnorm", "frobenius_norm",
    "renorm", "group_norm", "layer_norm", "softmax", "softmin", "softplus", "log_softmax",
    "softmax_with_cross_entropy", "sigmoid_cross_entropy_with_logits",
    "c_softmax_with_cross_entropy", "c_softmax_with_multi_label_cross_entropy", "cross_entropy",
    "cross_entropy2", "nll_loss", "huber_loss", "triplet_margin_loss", "log_loss",
    "hsigmoid_loss", "margin_cross_entropy"}
EXTRA_BLACK = {"linear_interp_v2", "nearest_interp_v2", "bilinear_interp_v2", "bicubic_interp_v2",
               "trilinear_interp_v2", "lookup_table", "lookup_table_v2", "scatter"}


def default_lists(level, dtype):
    """Paddle's (white, black) sets for an AMP level and dtype."""
    white = WHITE | ONLY_FP16_WHITE if dtype == "float16" else set(WHITE)
    black = {"OD": set(), "O1": FP16_BLACK | EXTRA_BLACK, "O2": set(EXTRA_BLACK)}[level]
    return white, set(black)
