"""``paddle.base`` (Paddle's former ``fluid``): the names scripts still take from it.

Everything here is the paddle_compat object Paddle exposes under the same name elsewhere; any
other ``paddle.base.xxx`` raises ``UnsupportedAPIError`` (installed by the import hook).
"""
from ....framework.flags import get_flags, set_flags
from ....framework.mode import in_pir_mode
from ....framework.param_attr import ParamAttr
from ....framework.parameter import Parameter
from ....framework.place import CPUPlace, CUDAPinnedPlace, CUDAPlace, is_compiled_with_cuda
from ....static import Executor, Program, default_main_program, default_startup_program
from ....static import program_guard, global_scope, scope_guard
from ....static.backward import gradients
from ....static.executor import Scope, create_lod_tensor
from ....static.feeder import DataFeeder
from ....static.mode import in_dynamic_mode
from ....utils import unique_name
from . import backward, core, dygraph, executor, framework, libpaddle, proto, wrapped_decorator

in_dygraph_mode = in_dynamic_mode

__all__ = ["core", "dygraph", "framework", "CPUPlace", "CUDAPlace", "CUDAPinnedPlace",
           "Program", "program_guard", "default_main_program", "default_startup_program",
           "Executor", "global_scope", "scope_guard", "in_dygraph_mode", "in_dynamic_mode",
           "Parameter", "is_compiled_with_cuda", "wrapped_decorator", "Scope", "unique_name",
           "executor", "proto", "ParamAttr", "gradients", "DataFeeder", "set_flags",
           "get_flags", "in_pir_mode", "create_lod_tensor",
           "libpaddle", "backward"]
