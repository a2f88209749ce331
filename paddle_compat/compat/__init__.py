"""Running Paddle code unchanged: the ``paddle`` import hook and the missing-API errors.

``install()`` makes ``import paddle`` (``paddle.nn.functional``, ``paddle.autograd.py_layer``,
``paddle.base`` ...) resolve to paddle_compat in this process; ``uninstall()`` undoes it.
``python -m paddle_compat script.py [args]`` runs a script with the hook installed (see
``paddle_compat.__main__``). A Paddle API paddle_compat lacks raises ``UnsupportedAPIError``
(an ``AttributeError`` and a ``NotImplementedError``) naming it; a missing module raises
``UnsupportedModuleError`` (a ``ModuleNotFoundError``).

The package is also Paddle 3's ``paddle.compat`` namespace (torch semantics under Paddle's
names: ``paddle.compat.min(x, 1)`` gives ``(values, indices)``, ``paddle.compat.nn.Linear``
torch's weight layout): the functions live in ``torch_api``, the layers in ``nn`` (bound
lazily: importing paddle_compat does not load ``paddle_compat.nn``).
"""
import importlib.util as _importlib_util
import sys as _sys

from . import setuptools_first as _setuptools_first  # noqa: F401  (setuptools before pip)
from .hook import install, is_installed, propagate_to_children, uninstall  # noqa: F401
from .missing import (UnsupportedAPIError, UnsupportedImportError,  # noqa: F401
                      UnsupportedModuleError, tensor_getattr)
from .torch_api import (MedianRetType, MinMaxRetType, SlogdetResult,  # noqa: F401
                        SortRetType, disable_torch_proxy, enable_torch_proxy, equal,
                        extend_torch_proxy_blocked_modules, max, median, min, nanmedian,
                        paddle_triton_fun, seed, slogdet, sort, split, unique,
                        use_torch_proxy_guard)

# Paddle 3.3.1's paddle.compat.__all__; the hook's names (install, uninstall, is_installed,
# propagate_to_children, the Unsupported* errors, tensor_getattr) are attributes outside it
__all__ = ["equal", "slogdet", "sort", "split", "min", "max", "unique", "median", "nanmedian",
           "seed"]


def _bind_nn_lazily():
    name = __name__ + ".nn"
    module = _sys.modules.get(name)
    if module is None:
        spec = _importlib_util.find_spec(name)
        spec.loader = _importlib_util.LazyLoader(spec.loader)
        module = _importlib_util.module_from_spec(spec)
        _sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


nn = _bind_nn_lazily()


def _default_block(tensor):
    """``Tensor.block`` (framework.hooks.default_block): a static Variable's Program block,
    else the default main program's global block (static is imported on first use)."""
    owner = getattr(getattr(tensor._t, "tracer", None), "owner", None)
    if owner is not None and hasattr(owner, "global_block"):
        return owner.global_block()
    from ..static.program import default_main_program
    return default_main_program().global_block()


from ..framework import hooks as _hooks  # noqa: E402
_hooks.default_block.set(_default_block)
