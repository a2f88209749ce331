"""``paddle.utils``: DLPack conversion, small helpers, and ``cpp_extension`` (C++ custom ops,
imported on first use: it pulls in torch.utils.cpp_extension and setuptools)."""
import importlib as _importlib

from . import dlpack, download, unique_name
from .deprecated import deprecated
from .install_check import require_version, run_check, try_import

__all__ = ["dlpack", "download", "unique_name", "cpp_extension", "deprecated", "require_version",
           "run_check", "try_import"]


def __getattr__(name):
    if name == "cpp_extension":
        return _importlib.import_module(f"{__name__}.cpp_extension")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
