"""``paddle.sysconfig``: where a C++ build finds paddle_compat's headers and libraries.

``get_include()`` is the directory holding our ``paddle/extension.h`` (Paddle's custom-op API
over ATen, ``utils/cpp_extension/include``); ``get_lib()`` the directory of the libraries a
custom op links against, which for paddle_compat are torch's (``libc10``, ``libtorch*``).
Both are given in the layout of Paddle's wheel, ``.../paddle/include`` and ``.../paddle/libs``
(build scripts and tests check the names): links to the real directories under
``~/.cache/paddle_compat`` (``$PADDLE_COMPAT_CACHE``), made on first use; where they cannot
be made the real directories are returned.
"""
import os

import torch

__all__ = ["get_include", "get_lib"]

# utils.cpp_extension.build.INCLUDE_DIR (a higher floor: not imported, tests compare them)
INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "utils", "cpp_extension",
                           "include")


def _paddle_layout(name, target):
    """``<cache>/paddle/<name>``, a link to ``target``; ``target`` itself where the link cannot
    be made (read-only home, no symlinks)."""
    root = os.environ.get("PADDLE_COMPAT_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "paddle_compat")
    link = os.path.join(root, "paddle", name)
    try:
        if os.path.realpath(link) != os.path.realpath(target):
            os.makedirs(os.path.dirname(link), exist_ok=True)
            tmp = f"{link}.{os.getpid()}"
            os.symlink(target, tmp)
            os.replace(tmp, link)           # atomic: concurrent builds see one link
        return link
    except OSError:
        return target


def get_include():
    """The include directory for ``#include "paddle/extension.h"`` (``.../paddle/include``)."""
    return _paddle_layout("include", INCLUDE_DIR)


def get_lib():
    """The directory of the shared libraries custom ops link against: torch's ``lib``
    (as ``.../paddle/libs``)."""
    return _paddle_layout("libs", os.path.join(os.path.dirname(os.path.abspath(torch.__file__)),
                                               "lib"))
