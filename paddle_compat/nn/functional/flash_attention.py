"""``paddle.nn.functional.flash_attention``: a module in Paddle (LLM code imports
``flash_attention`` and ``flashmask_attention`` from it; ppdiffusers asks ``_select_sdp``
which kernel attention would take)."""
from ...framework.place import current_device
from .attention import (flash_attention, flash_attention_v3_varlen, flash_attn_qkvpacked,
                        flash_attn_unpadded, flash_attn_varlen_qkvpacked, flashmask_attention,
                        sdp_kernel)

__all__ = ["flash_attention", "flashmask_attention", "sdp_kernel", "flash_attn_qkvpacked",
           "flash_attn_varlen_qkvpacked", "flash_attention_v3_varlen",
           "flash_attn_unpadded"]


def _select_sdp(head_dim):
    """The kernel Paddle's ``scaled_dot_product_attention`` takes for ``head_dim``: ``"math"``
    off the GPU; on a GPU ``"flash_attn"`` up to 256, ``"mem_efficient"`` above."""
    if current_device().type != "cuda":
        return "math"
    return "flash_attn" if head_dim <= 256 else "mem_efficient"
