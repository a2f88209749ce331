"""``paddle.amp.debugging``: the names exist; the tensor checkers are not implemented (they
inspect Paddle's kernels, which do not exist here)."""
from enum import Enum

__all__ = ["DebugMode", "TensorCheckerConfig", "enable_operator_stats_collection",
           "disable_operator_stats_collection", "collect_operator_stats",
           "enable_tensor_checker", "disable_tensor_checker", "check_numerics",
           "check_layer_numerics", "compare_accuracy"]


class DebugMode(Enum):
    CHECK_NAN_INF_AND_ABORT = 0
    CHECK_NAN_INF = 1
    CHECK_ALL_FOR_OVERFLOW = 2
    CHECK_ALL = 3
    CHECK_ALL_AND_ABORT = 4
    DUMP_ALL = 5


def _missing(api):
    def stub(*args, **kwargs):
        raise NotImplementedError(f"paddle.amp.debugging.{api} is not supported by paddle_compat")
    stub.__name__ = api
    return stub


class TensorCheckerConfig:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("paddle.amp.debugging.TensorCheckerConfig is not supported by "
                                  "paddle_compat")


def check_layer_numerics(func):
    """Decorator kept for compatibility: returns ``func`` unchanged."""
    return func


enable_operator_stats_collection = _missing("enable_operator_stats_collection")
disable_operator_stats_collection = _missing("disable_operator_stats_collection")
collect_operator_stats = _missing("collect_operator_stats")
enable_tensor_checker = _missing("enable_tensor_checker")
disable_tensor_checker = _missing("disable_tensor_checker")
check_numerics = _missing("check_numerics")
compare_accuracy = _missing("compare_accuracy")
