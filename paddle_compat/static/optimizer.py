"""The hook optimizers use in static mode: ``minimize(loss, update)``.

An optimizer's ``minimize(loss)`` under ``paddle.enable_static()`` should call::

    paddle_compat.static.optimizer.minimize(loss, self._static_update,
                                            parameter_list=..., no_grad_set=...)

where ``update(param, grad) -> new_value`` builds the new parameter value with ordinary ops on
Variables (``param - lr * grad`` for SGD). State an optimizer keeps across steps (momentum,
Adam moments, the step count) is made with ``paddle.static.create_global_var(...,
persistable=True)`` (initialised by the startup program, kept in the Scope) and written back
with ``program.assign_persistable(state, new_state)``. The backward and the updates are tagged
so that ``Program.clone(for_test=True)`` drops them.
"""
from .backward import append_backward

__all__ = ["minimize", "SGD"]


def minimize(loss, update, parameter_list=None, no_grad_set=None):
    """Append the backward of ``loss`` and one ``param <- update(param, grad)`` per trainable
    parameter; returns ``(optimize_ops, params_grads)`` like Paddle's ``minimize``."""
    program = loss._t.tracer.owner
    params_grads = append_backward(loss, parameter_list=parameter_list, no_grad_set=no_grad_set)
    before = len(program.graph.nodes)
    with program.role_guard("optimize"):
        for p, g in params_grads:
            if g is None:
                continue
            program.assign_persistable(p, update(p, g))
    ops = program.global_block().ops[before:] if hasattr(program, "global_block") else []
    return ops, params_grads


class SGD:
    """Plain SGD through the hook (a stand-in until ``paddle.optimizer.SGD`` lands)."""

    def __init__(self, learning_rate=0.001, parameters=None):
        self._lr = learning_rate
        self._parameters = parameters

    def _static_update(self, param, grad):
        return param - self._lr * grad

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        return minimize(loss, self._static_update, parameters or self._parameters, no_grad_set)
