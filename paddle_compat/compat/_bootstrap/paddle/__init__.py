"""Bootstrap used only in child processes of ``python -m paddle_compat`` (and of
``paddle.distributed.spawn`` / ``launch``): their ``PYTHONPATH`` starts with the directory
holding this package, so ``import paddle`` lands here, installs paddle_compat's import hook and
hands back paddle_compat. A Python without paddle_compat (another virtualenv) gets the next
``paddle`` on its path instead, as if this directory were not there.
"""
import importlib
import os
import sys

_here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    from paddle_compat.compat import hook as _hook
except ImportError:
    _hook = None

if _hook is not None:
    _self = sys.modules.pop("paddle")
    sys.modules["paddle"] = _hook.install()
else:
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
    del sys.modules["paddle"]
    sys.modules["paddle"] = importlib.import_module("paddle")
