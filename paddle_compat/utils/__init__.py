"""``paddle.utils``: DLPack conversion, small helpers, and ``cpp_extension`` (C++ custom ops,
imported on first use: it pulls in torch.utils.cpp_extension and setuptools)."""
import importlib as _importlib

from . import dlpack, unique_name

__all__ = ["dlpack", "unique_name", "cpp_extension"]


def __getattr__(name):
    if name == "cpp_extension":
        return _importlib.import_module(f"{__name__}.cpp_extension")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
