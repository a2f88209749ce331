"""``paddle.optimizer``: optimizers updating parameters in place from their gradients, and
``paddle.optimizer.lr`` schedulers. Updates follow Paddle's kernels (float32 arithmetic in
Paddle's order), accumulators carry Paddle's names (``linear_0.w_0_moment1_0``)."""
from . import lr
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .lamb import Lamb
from .momentum import Momentum
from .optimizer import Optimizer
from .rmsprop import RMSProp
from .sgd import SGD

__all__ = ["Optimizer", "Adagrad", "Adam", "AdamW", "Adamax", "RMSProp", "Adadelta", "SGD",
           "Momentum", "Lamb"]
