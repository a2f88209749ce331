"""What Paddle's fused inference kernels (masked_multihead_attention,
block_multihead_attention) share: the dtypes ``compute_dtype`` names and the int8
quantisation of their output (``out_scale > 0``)."""
import torch

COMPUTE_DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}


def quantise_int8(x, scale, round_type, max_bound, min_bound):
    """``clip(round(max_bound * scale * x), min_bound, max_bound)`` as int8; round type 0
    rounds half to even, 1 half away from zero. The product is float32 as in the kernels; the
    rounding is done in float64, where adding 0.5 to it is exact."""
    factor = torch.tensor(max_bound, dtype=torch.float32) * torch.tensor(scale,
                                                                        dtype=torch.float32)
    value = (x.to(torch.float32) * factor.to(x.device)).to(torch.float64)
    if round_type == 0:
        value = torch.round(value)
    else:
        value = torch.sign(value) * torch.floor(value.abs() + 0.5)
    return value.clamp(min_bound, max_bound).to(torch.int8)
