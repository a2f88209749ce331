"""``paddle.onnx.export`` on ``torch.onnx``."""
__all__ = []
