"""``paddle.utils``: DLPack conversion, small helpers, and ``cpp_extension`` (C++ custom ops,
imported on first use: it pulls in torch.utils.cpp_extension and setuptools)."""
import importlib as _importlib

from . import dlpack, download, unique_name
from .deprecated import deprecated
from .install_check import require_version, run_check, try_import
from .graph_capture import capture_backward_subgraph_guard, capture_forward_subgraph_guard
from .layers_utils import (OpLastCheckpointChecker, assert_same_structure, check_shape,
                           convert_shape_to_list, convert_to_list, copy_mutable_vars, flatten,
                           get_inputs_outputs_in_block, get_int_tensor_list,
                           get_shape_tensor_inputs, hold_mutable_vars, is_same_shape,
                           is_sequence, map_structure, pack_sequence_as,
                           padding_to_same_structure, strtobool, to_sequence,
                           try_get_constant_shape_from_tensor)

__all__ = ["dlpack", "download", "unique_name", "cpp_extension", "deprecated", "require_version",
           "run_check", "try_import", "OpLastCheckpointChecker", "assert_same_structure",
           "check_shape", "convert_shape_to_list", "convert_to_list", "copy_mutable_vars",
           "flatten", "get_inputs_outputs_in_block", "get_int_tensor_list",
           "get_shape_tensor_inputs", "hold_mutable_vars", "is_same_shape", "is_sequence",
           "map_structure", "pack_sequence_as", "padding_to_same_structure", "strtobool",
           "to_sequence", "try_get_constant_shape_from_tensor",
           "capture_backward_subgraph_guard", "capture_forward_subgraph_guard"]


def __getattr__(name):
    if name == "cpp_extension":
        return _importlib.import_module(f"{__name__}.cpp_extension")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
