"""``paddle.base.framework``: mode queries, Program and Parameter classes."""
from ....framework.dtype import convert_dtype as _convert_dtype
from ....framework.parameter import Parameter
from ....static import Block, Program, Variable, default_main_program, default_startup_program
from ....static import program_guard
from ....static.mode import in_dynamic_mode

in_dygraph_mode = in_dynamic_mode

from ....framework.mode import in_pir_mode, use_pir_api  # noqa: E402


def convert_np_dtype_to_dtype_(np_dtype):
    """The Paddle dtype of a numpy dtype (or a dtype name): ``np.float32`` -> ``paddle.float32``."""
    return _convert_dtype(np_dtype, "np_dtype")

__all__ = ["in_dygraph_mode", "in_dynamic_mode", "convert_np_dtype_to_dtype_", "Program", "Block",
           "Variable", "Parameter", "default_main_program", "default_startup_program", "program_guard"]
__all__ += ["in_pir_mode", "use_pir_api"]
