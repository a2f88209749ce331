"""``paddle.sysconfig``: where a C++ build finds paddle_compat's headers and libraries.

``get_include()`` is the directory holding our ``paddle/extension.h`` (Paddle's custom-op API
over ATen, ``utils/cpp_extension/include``); ``get_lib()`` the directory of the libraries a
custom op links against, which for paddle_compat are torch's (``libc10``, ``libtorch*``).
"""
import os

import torch

__all__ = ["get_include", "get_lib"]

# utils.cpp_extension.build.INCLUDE_DIR (a sibling namespace: not imported, tests compare them)
INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "utils", "cpp_extension",
                           "include")


def get_include():
    """The include directory for ``#include "paddle/extension.h"``."""
    return INCLUDE_DIR


def get_lib():
    """The directory of the shared libraries custom ops link against (torch's ``lib``)."""
    return os.path.join(os.path.dirname(os.path.abspath(torch.__file__)), "lib")
