"""``paddle.utils.cpp_extension``: build Paddle C++/CUDA custom operators on torch.

Paddle's API (``load``, ``setup``, ``CppExtension``, ``CUDAExtension``, ``BuildExtension``,
``get_build_directory``) over ``torch.utils.cpp_extension``, with our own ``paddle/extension.h``
(``include/``) implementing Paddle's C++ extension API on ATen. Each op becomes a Python
function with Paddle's semantics and a ``torch.library`` op (``torch.ops.<module>.<op>``).

Example::

    from paddle_compat.utils.cpp_extension import load
    ops = load(name="my_ops", sources=["relu_op.cc"])
    y = ops.custom_relu(x)
"""
from .build import (BuildExtension, CppExtension, CUDAExtension, ExtensionBuildError,
                    get_build_directory, include_paths, load, load_op_module, setup)
from .custom_op import CustomOpError
from .extension_utils import load_op_meta_info_and_register_op, parse_op_info

__all__ = ["load", "setup", "CppExtension", "CUDAExtension", "BuildExtension",
           "get_build_directory", "include_paths", "load_op_module", "ExtensionBuildError",
           "CustomOpError", "load_op_meta_info_and_register_op", "parse_op_info"]
