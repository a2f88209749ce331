"""Running Paddle code unchanged: the ``paddle`` import hook and the missing-API errors.

``install()`` makes ``import paddle`` (``paddle.nn.functional``, ``paddle.autograd.py_layer``,
``paddle.base`` ...) resolve to paddle_compat in this process; ``uninstall()`` undoes it.
``python -m paddle_compat script.py [args]`` runs a script with the hook installed (see
``paddle_compat.__main__``). A Paddle API paddle_compat lacks raises ``UnsupportedAPIError``
(an ``AttributeError`` and a ``NotImplementedError``) naming it; a missing module raises
``UnsupportedModuleError`` (a ``ModuleNotFoundError``).
"""
from .hook import install, is_installed, propagate_to_children, uninstall
from .missing import (UnsupportedAPIError, UnsupportedImportError, UnsupportedModuleError,
                      tensor_getattr)

__all__ = ["install", "uninstall", "is_installed", "propagate_to_children",
           "UnsupportedAPIError", "UnsupportedModuleError", "UnsupportedImportError",
           "tensor_getattr"]
