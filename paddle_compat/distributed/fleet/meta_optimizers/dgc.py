"""``DGCMomentumOptimizer``: Deep Gradient Compression momentum (Lin et al. 2018), which
Paddle runs only as CUDA kernels of its static graph with NCCL.

As in Paddle 3.3.1 it refuses dynamic mode (``Exception("In dygraph, don't support
DGCMomentumOptimizer.")``) and a build without CUDA (AssertionError). With CUDA it still
cannot run here: paddle_compat has no DGC kernels, so it raises NotImplementedError naming
the alternative.
"""
from ....framework import mode as _mode
from ....framework.place import is_compiled_with_cuda

__all__ = ["DGCMomentumOptimizer"]


class DGCMomentumOptimizer:
    """Paddle's static-graph DGC momentum; see the module docstring."""

    def __init__(self, learning_rate, momentum, rampup_begin_step, rampup_step=1,
                 sparsity=(0.999,), parameter_list=None, use_nesterov=False,
                 num_trainers=None, regularization=None, grad_clip=None, name=None):
        if _mode.in_dynamic_mode():
            raise Exception("In dygraph, don't support DGCMomentumOptimizer.")
        assert is_compiled_with_cuda(), \
            "Paddle is not compiled with CUDA. DGC is only support GPU for now."
        raise NotImplementedError(
            "DGCMomentumOptimizer needs Paddle's CUDA DGC kernels, which paddle_compat does not "
            "have; use paddle.optimizer.Momentum (gradients are not compressed).")
