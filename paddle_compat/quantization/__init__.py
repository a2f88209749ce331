"""``paddle.quantization``: QAT/PTQ configs, quanters and observers."""
__all__ = []
