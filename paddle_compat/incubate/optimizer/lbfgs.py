"""``paddle.incubate.optimizer.lbfgs``: the incubate home of ``LBFGS``, the same optimizer as
``paddle.optimizer.LBFGS`` (Paddle 3.3.1's two classes run the same algorithm)."""
from ...optimizer.lbfgs import LBFGS

__all__ = ["LBFGS"]
