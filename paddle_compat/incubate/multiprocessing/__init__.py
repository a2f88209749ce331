"""``paddle.incubate.multiprocessing``: Python's ``multiprocessing`` with Tensors that travel
between processes by shared memory (``reductions``: a Tensor sent through a queue or a pipe
shares its storage with the sender's, as with ``torch.multiprocessing``)."""
from multiprocessing import *  # noqa: F401,F403

from . import reductions
from .reductions import init_reductions

__all__ = []

init_reductions()
