"""``paddle.nn.functional.flash_attention``: a module in Paddle (LLM code imports
``flash_attention`` and ``flashmask_attention`` from it)."""
from .attention import (flash_attention, flash_attention_v3_varlen, flash_attn_qkvpacked,
                        flash_attn_varlen_qkvpacked, flashmask_attention, sdp_kernel)

__all__ = ["flash_attention", "flashmask_attention", "sdp_kernel", "flash_attn_qkvpacked",
           "flash_attn_varlen_qkvpacked", "flash_attention_v3_varlen"]
