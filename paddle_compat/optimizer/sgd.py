"""``paddle.optimizer.SGD``: ``param -= lr * grad``, the product rounded, then the difference,
as Paddle's kernel does (float32 and float64; a fused multiply-add would round once and differ
from Paddle in the last bit of ~2% of the weights)."""
from .optimizer import F32, F64, Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent (``weight_decay`` adds an L2 term to the gradient)."""

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name,
                         multi_precision)
        self.type = "sgd"

    def _update(self, w, g, state, lr, group, param):
        if w.dtype is F64 or w.dtype is F32:
            w.sub_(g * lr)
        else:
            w.add_(g, alpha=-lr)

    def _rule(self, w, g, state, lr, group, param):
        return w - g * lr, {}
