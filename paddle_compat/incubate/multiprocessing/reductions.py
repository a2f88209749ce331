"""How Tensors and Parameters are pickled between processes: their torch payload goes through
``torch.multiprocessing``'s reductions (CPU storage moved to shared memory, CUDA storage by
IPC handle), and the receiver wraps it again with the sender's ``stop_gradient`` and, for a
Parameter, its name and trainability."""
from multiprocessing.reduction import ForkingPickler

from torch.multiprocessing import reductions as _torch_reductions

from ...framework.parameter import Parameter
from ...framework.tensor import Tensor, wrap

__all__ = []


def _rebuild_tensor(cls, rebuild, args, stop_gradient, name):
    """The receiving side of ``_reduce_tensor``."""
    t = rebuild(*args)
    if cls is Parameter:
        return Parameter(t, requires_grad=not stop_gradient, name=name)
    out = wrap(t)
    out.stop_gradient = stop_gradient
    return out


def _reduce_tensor(tensor):
    """``(rebuild, args)`` sharing ``tensor``'s memory with the process that unpickles it."""
    rebuild, args = _torch_reductions.reduce_tensor(tensor._t.detach())
    cls = Parameter if isinstance(tensor, Parameter) else Tensor
    return _rebuild_tensor, (cls, rebuild, args, tensor.stop_gradient,
                             tensor.name if cls is Parameter else None)


def init_reductions():
    """Register the reductions of Tensor and Parameter with ``ForkingPickler``."""
    ForkingPickler.register(Tensor, _reduce_tensor)
    ForkingPickler.register(Parameter, _reduce_tensor)
