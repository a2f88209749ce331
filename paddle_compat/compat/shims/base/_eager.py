"""``paddle.base.core.eager``: the eager engine's entry points that libraries reach for.

``Tensor`` (the eager tensor class, ``paddle.Tensor`` itself), the saved-tensor hooks
(``register_saved_tensors_hooks`` / ``reset_saved_tensors_hooks``, onto torch's
default-hooks stack), ``_run_custom_op`` (a custom op built by ``paddle.utils.cpp_extension``,
run by name), ``_add_backward_final_hook``, and ``ops`` (the generated operator entry points:
``ops.xxx`` is ``paddle._C_ops.xxx``, ``ops.legacy.xxx`` is ``paddle._legacy_C_ops.xxx``;
bound on first read).
"""
import importlib
import types

from ....autograd.saved_hooks import register_saved_tensors_hooks, reset_saved_tensors_hooks
from ....framework.autograd_engine import add_backward_final_hook as _add_backward_final_hook
from ....framework.tensor import Tensor

__all__ = ["Tensor", "register_saved_tensors_hooks", "reset_saved_tensors_hooks",
           "_run_custom_op", "_add_backward_final_hook", "ops"]


def _run_custom_op(op_name, *args):
    """Run the custom op ``op_name`` (built by ``cpp_extension.load`` / ``setup`` in this
    process) on its inputs then its attributes, by position; returns the list of its outputs.
    RuntimeError (Paddle's message) when no op of that name was built."""
    if not isinstance(op_name, str):
        raise TypeError(f"_run_custom_op(): argument (position 0) must be str, but got "
                        f"{type(op_name).__name__}")
    # the registry of what cpp_extension built (imported here: importing cpp_extension costs
    # a second, and an op can only be there once it has been used)
    from ....utils.cpp_extension.custom_op import LOADED_OPS
    fn = LOADED_OPS.get(op_name)
    if fn is None:
        raise RuntimeError(f"(NotFound) Can't find {op_name} in Eager OpMetaInfoMap which should "
                           "be created by LoadOpMetaInfoAndRegisterOp, please make sure you "
                           "registered your op first and try again. ")
    out = fn(*args)
    return list(out) if isinstance(out, (list, tuple)) else [out]


class _Ops(types.ModuleType):
    """``core.eager.ops``: reads through to ``paddle._C_ops``; ``legacy`` is
    ``paddle._legacy_C_ops``."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name == "legacy":
            return importlib.import_module("..legacy_c_ops", __package__)
        return getattr(importlib.import_module("..c_ops", __package__), name)


ops = _Ops("paddle.base.core.eager.ops", "Paddle's generated operator entry points.")
