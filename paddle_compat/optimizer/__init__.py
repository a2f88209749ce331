"""``paddle.optimizer``: optimizers updating parameters in place from their gradients, and
``paddle.optimizer.lr`` schedulers. Updates follow Paddle's kernels (float32 arithmetic in
Paddle's order), accumulators carry Paddle's names (``linear_0.w_0_moment1_0``)."""
from . import lr
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lamb import Lamb
from .lbfgs import LBFGS
from .momentum import Momentum
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSProp
from .rprop import Rprop
from .sgd import SGD

__all__ = ["Optimizer", "Adagrad", "Adam", "AdamW", "Adamax", "RMSProp", "Adadelta", "SGD",
           "Momentum", "Lamb", "ASGD", "NAdam", "RAdam", "Rprop", "LBFGS"]
