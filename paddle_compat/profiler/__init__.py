"""``paddle.profiler`` on ``torch.profiler``."""
__all__ = []
