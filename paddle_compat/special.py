"""``paddle.special``: the torch.special names Paddle 3 exposes (``expm1``, ``logsumexp``, and
``softmax`` with torch's implicit ``dim``); the same functions as ``paddle.expm1``,
``paddle.logsumexp`` and ``paddle.softmax``."""
from .ops.math import expm1
from .ops.reduction import logsumexp
from .ops.torch_style import softmax

__all__ = ["expm1", "logsumexp", "softmax"]
