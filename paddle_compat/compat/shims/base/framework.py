"""``paddle.base.framework``: mode queries, Program and Parameter classes."""
from ....framework.parameter import Parameter
from ....static import Block, Program, Variable, default_main_program, default_startup_program
from ....static import program_guard
from ....static.mode import in_dynamic_mode

in_dygraph_mode = in_dynamic_mode

__all__ = ["in_dygraph_mode", "in_dynamic_mode", "Program", "Block", "Variable", "Parameter",
           "default_main_program", "default_startup_program", "program_guard"]
