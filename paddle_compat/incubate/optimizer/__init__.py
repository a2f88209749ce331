"""``paddle.incubate``'s optimizer wrappers: ``LookAhead`` and ``ModelAverage`` (dynamic mode),
and ``DistributedFusedLamb`` (a multi-GPU kernel in Paddle: refused here).

``LookAhead(inner, alpha, k)``: the inner optimizer moves the "fast" weights every step; at the
first step each parameter's "slow" copy is set to its weights, and every ``k``-th step the
slow copy becomes ``alpha * fast + (1 - alpha) * slow`` and the weights are reset to it.

``ModelAverage(rate, parameters, min_average_window, max_average_window)``: ``step()`` (after
the real optimizer's) adds the weights to running sums; ``with model_average.apply():``
swaps in their average (computed in float32, as Paddle does) and restores the weights after.
The window restarts (old sums kept as the previous window) once it holds at least
``min_average_window`` and at least ``min(max_average_window, steps * rate)`` updates.
"""
import contextlib

import torch

from ...framework import mode as _mode
from ...optimizer.optimizer import Optimizer
from . import lbfgs, line_search_dygraph
from .lbfgs import LBFGS

__all__ = ["LookAhead", "ModelAverage", "DistributedFusedLamb", "LBFGS", "PipelineOptimizer",
           "RecomputeOptimizer"]


def _with_grads(params):
    return [p for p in params if not p.stop_gradient and p._t.grad is not None]


class LookAhead(Optimizer):
    """Lookahead (Zhang et al. 2019) around ``inner_optimizer``; see the module docstring."""

    _slow_str = "slow"

    def __init__(self, inner_optimizer, alpha=0.5, k=5, name=None):
        assert inner_optimizer is not None, "inner optimizer can not be None"
        assert 0.0 <= alpha <= 1.0, \
            "alpha should be larger or equal to 0.0, and less or equal than 1.0"
        assert isinstance(k, int) and k > 0, "k should be a positive integer"
        self.inner_optimizer = inner_optimizer
        params = inner_optimizer._parameter_list
        if params and isinstance(params[0], dict):
            params = [p for g in params for p in g["params"]]
        super().__init__(learning_rate=float(alpha), parameters=params, name=name)
        self.alpha = alpha
        self.k = k
        self.type = "lookahead"
        self._global_step = 0

    def _lookahead(self, params):
        self._global_step += 1
        first, sync = self._global_step == 1, self._global_step % self.k == 0
        with torch.no_grad():
            for p in params:
                slow = self._add_accumulator(self._slow_str, p)._t
                w = p._t
                if first:
                    slow.copy_(w)
                if sync:
                    slow.copy_(self.alpha * w + (1.0 - self.alpha) * slow)
                    w.copy_(slow)

    def step(self):
        """One inner step, then the slow-weight update."""
        if not _mode.in_dynamic_mode():
            raise RuntimeError("LookAhead.step() is for dynamic mode; use minimize() in "
                               "static mode")
        self.inner_optimizer.step()
        self._lookahead(_with_grads(self._parameter_list))

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """The inner optimizer's ``minimize``, then the slow-weight update of the parameters it
        updated. Returns its ``(ops, params_grads)``."""
        if not _mode.in_dynamic_mode():
            raise NotImplementedError("LookAhead.minimize in static mode is not supported")
        ops, params_grads = self.inner_optimizer.minimize(
            loss, startup_program=startup_program, parameters=parameters,
            no_grad_set=no_grad_set)
        self._lookahead([p for p, _ in params_grads if not p.stop_gradient])
        return ops, params_grads

    def clear_grad(self, set_to_zero=True):
        self.inner_optimizer.clear_grad(set_to_zero)

    def get_lr(self):
        return self.inner_optimizer.get_lr()

    def set_lr(self, value):
        return self.inner_optimizer.set_lr(value)


_MAX_NUM_ACCUMULATES = 16384     # sums move to a second buffer this often (precision)


class ModelAverage(Optimizer):
    """Average of the parameters over a sliding window of steps; see the module docstring."""

    def __init__(self, average_window_rate, parameters=None, min_average_window=10000,
                 max_average_window=10000, name=None):
        super().__init__(learning_rate=0.0, parameters=parameters, name=name)
        self.helper = None
        self.average_window = average_window_rate
        self.min_average_window = min_average_window
        self.max_average_window = max_average_window
        self.type = "average_accumulates"

    def _acc(self, name, p):
        if name in ("num_accumulates", "old_num_accumulates", "num_updates"):
            return self._add_accumulator(name, p, dtype=torch.int64, shape=[1])._t
        return self._add_accumulator(name, p)._t

    def _create_accumulators(self):
        for p in self._parameter_list:
            for name in ("sum_1", "sum_2", "sum_3", "restore", "num_accumulates",
                         "old_num_accumulates", "num_updates"):
                self._acc(name, p)

    def _accumulate(self, p):
        s1, s2, s3 = self._acc("sum_1", p), self._acc("sum_2", p), self._acc("sum_3", p)
        n_acc, n_old = self._acc("num_accumulates", p), self._acc("old_num_accumulates", p)
        n_upd = self._acc("num_updates", p)
        n_upd += 1
        n_acc += 1
        s1 += p._t.detach()
        updates, accs = int(n_upd[0]), int(n_acc[0])
        if updates % _MAX_NUM_ACCUMULATES == 0:
            s2 += s1
            s1.zero_()
        if accs >= self.min_average_window and \
                accs >= min(self.max_average_window, updates * self.average_window):
            s3.copy_(s1 + s2)
            s1.zero_()
            s2.zero_()
            n_old.copy_(n_acc)
            n_acc.zero_()

    def step(self):
        """Add the current weights of the parameters that have gradients to the sums."""
        if not _mode.in_dynamic_mode():
            raise RuntimeError("ModelAverage.step() is for dynamic mode")
        self._create_accumulators()
        with torch.no_grad():
            for p in _with_grads(self._parameter_list):
                self._accumulate(p)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Dynamic mode: ``step()`` (the weights themselves are moved by another optimizer)."""
        if not _mode.in_dynamic_mode():
            raise NotImplementedError("ModelAverage.minimize in static mode is not supported")
        self.step()

    @contextlib.contextmanager
    def apply(self, executor=None, need_restore=True):
        """Context manager: the parameters hold their averages inside the block (computed in
        float32, as Paddle does); restored after it when ``need_restore``."""
        with torch.no_grad():
            for p in self._parameter_list:
                total = self._acc("sum_1", p) + self._acc("sum_2", p) + self._acc("sum_3", p)
                count = self._acc("num_accumulates", p) + self._acc("old_num_accumulates", p)
                self._acc("restore", p).copy_(p._t)
                p._t.copy_(total.to(torch.float32) / count.to(torch.float32))
        try:
            yield
        finally:
            if need_restore:
                self.restore()

    def restore(self, executor=None):
        """Put back the weights ``apply`` replaced."""
        with torch.no_grad():
            for p in self._parameter_list:
                slot = self._accumulators.get(
                    (self._name + "_" if self._name else "") + "restore", {})
                if p.name not in slot:
                    raise Exception(f"Accumulator restore does not exist for parameter "
                                    f"{p.name}")
                p._t.copy_(slot[p.name]._t)


class PipelineOptimizer:
    """Paddle's pipeline-parallel wrapper of a static-graph optimizer (it splits a Program into
    sections by device). In dynamic mode Paddle refuses it with this Exception, as here; in
    static mode paddle_compat has no program sections: NotImplementedError."""

    def __init__(self, optimizer, num_microbatches=1, start_cpu_core_id=0):
        if _mode.in_dynamic_mode():
            raise Exception("In dygraph, don't support PipelineOptimizer.")
        raise NotImplementedError("PipelineOptimizer: paddle_compat does not split programs "
                                  "into pipeline sections; use paddle.distributed's fleet "
                                  "pipeline parallelism in dynamic mode")


class RecomputeOptimizer:
    """Paddle's activation-recompute wrapper of a static-graph optimizer. In dynamic mode Paddle
    refuses it with this Exception, as here; in static mode it is not provided:
    NotImplementedError (``paddle.distributed.fleet.utils.recompute`` recomputes in dygraph)."""

    def __init__(self, optimizer):
        if _mode.in_dynamic_mode():
            raise Exception("In dygraph, don't support RecomputeOptimizer.")
        raise NotImplementedError("RecomputeOptimizer: recomputing a static program's "
                                  "checkpoints is not supported by paddle_compat; use "
                                  "paddle.distributed.fleet.utils.recompute in dynamic mode")


class DistributedFusedLamb:
    """Paddle's multi-GPU fused LAMB (a CUDA kernel with NCCL all-reduce; static mode only: in
    dynamic mode Paddle refuses it with an AssertionError, as here). Not available here: use ``paddle.optimizer.Lamb``, or ``paddle.distributed``'s sharding
    around it."""

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999,
                 epsilon=1e-6, parameters=None, grad_clip=None,
                 exclude_from_weight_decay_fn=None, clip_after_allreduce=True,
                 is_grad_scaled_by_nranks=True, alignment=128, use_master_param_norm=True,
                 gradient_accumulation_steps=1, use_master_acc_grad=True,
                 nproc_per_node=None, use_hierarchical_allreduce=False, name=None):
        assert not _mode.in_dynamic_mode(), "DistributedFusedLamb does not support dygraph mode"
        raise NotImplementedError(
            "DistributedFusedLamb is a CUDA/NCCL kernel of Paddle's static graph; it is not "
            "available in paddle_compat. Use paddle.optimizer.Lamb (with "
            "paddle.distributed sharding for several GPUs) instead.")
