"""``paddle.nn.functional.flash_attention``: a module in Paddle (LLM code imports
``flash_attention`` and ``flashmask_attention`` from it)."""
from .attention import flash_attention, flashmask_attention, sdp_kernel

__all__ = ["flash_attention", "flashmask_attention", "sdp_kernel"]
