"""``paddle.base.proto``: Paddle's protobuf messages of its C++ framework (``framework_pb2``:
operator and program descriptions). paddle_compat's programs are not protobuf-described, so
reading any message type raises UnsupportedAPIError."""
import types

from ...missing import UnsupportedAPIError

__all__ = ["framework_pb2"]


class _Protobuf(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise UnsupportedAPIError(f"paddle.base.proto.framework_pb2.{name}",
                                  "Paddle's C++ framework protobuf messages (operator and "
                                  "program descriptions) do not exist in paddle_compat")


framework_pb2 = _Protobuf("paddle.base.proto.framework_pb2",
                          "Paddle's C++ framework protobuf messages (not in paddle_compat).")
