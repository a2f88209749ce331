"""Static/dynamic mode for ``paddle.static``: the switch itself is ``framework.mode``."""
from ..framework.mode import (disable_static, enable_static, in_dynamic_mode, in_static_mode,
                              in_to_static_mode, mode_guard, to_static_guard)

__all__ = ["enable_static", "disable_static", "in_dynamic_mode", "in_static_mode", "mode_guard",
           "in_to_static_mode", "to_static_guard"]
