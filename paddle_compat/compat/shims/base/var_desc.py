"""``paddle.base.core.VarDesc``: the description of one variable of a Paddle 2.x program, and
its ``VarType`` enumeration (data types and variable kinds, numbered as in Paddle's
``framework.proto``), which libraries still read (``core.VarDesc.VarType.FP32``,
``...LOD_TENSOR``).

As in Paddle 3.3.1, a ``VarType`` is its own enumeration: equal to its number, not to the
``paddle.float32`` data types; ``str`` of a data-type member prints the data type
(``paddle.float32``), of the other members ``VarType.NAME``."""
import enum

__all__ = ["VarDesc", "VarType"]

# name -> (number, the data type str() prints, or None for a variable kind)
_MEMBERS = {
    "BOOL": (0, "bool"), "INT16": (1, "int16"), "INT32": (2, "int32"), "INT64": (3, "int64"),
    "FP16": (4, "float16"), "FP32": (5, "float32"), "FP64": (6, "float64"),
    "DENSE_TENSOR": (7, None), "SELECTED_ROWS": (8, None), "FEED_MINIBATCH": (9, None),
    "FETCH_LIST": (10, None), "STEP_SCOPES": (11, None), "DENSE_TENSOR_ARRAY": (13, None),
    "PLACE_LIST": (14, None), "READER": (15, None), "RAW": (17, "raw"), "UINT8": (20, "uint8"),
    "INT8": (21, "int8"), "BF16": (22, "bfloat16"), "COMPLEX64": (23, "complex64"),
    "COMPLEX128": (24, "complex128"), "STRING": (25, "pstring"), "STRINGS": (26, None),
    "VOCAB": (27, None), "SPARSE_COO": (30, None), "FP8_E4M3FN": (32, "float8_e4m3fn"),
    "FP8_E5M2": (33, "float8_e5m2"), "UINT16": (36, None), "UINT32": (37, None),
    "UINT64": (38, None),
}
_DTYPE_TEXT = {num: text for num, text in _MEMBERS.values() if text}


class _VarTypeMeta(enum.EnumMeta):
    def __dir__(cls):
        # the aliases (LOD_TENSOR = DENSE_TENSOR ...) are names of Paddle's enumeration too
        return sorted(set(super().__dir__()) | set(cls._member_map_))


class _VarTypeEnum(enum.Enum, metaclass=_VarTypeMeta):
    """Paddle's ``VarDesc.VarType``: members compare equal to their numbers."""

    def __eq__(self, other):
        if isinstance(other, type(self)):
            return self is other
        if isinstance(other, int) and not isinstance(other, bool):
            return self.value == other
        return NotImplemented

    def __hash__(self):
        return hash(self.value)

    def __int__(self):
        return self.value

    __index__ = __int__

    def __str__(self):
        text = _DTYPE_TEXT.get(self.value)
        return f"paddle.{text}" if text else f"VarType.{self.name}"


# LOD_TENSOR / LOD_TENSOR_ARRAY: the older names of DENSE_TENSOR / DENSE_TENSOR_ARRAY
VarType = _VarTypeEnum("VarType", [(name, num) for name, (num, _) in _MEMBERS.items()]
                       + [("LOD_TENSOR", 7), ("LOD_TENSOR_ARRAY", 13)], module=__name__)


class VarDesc:
    """One variable of a 2.x program: its name, kind, shape, data type and flags (new: a
    dense tensor of bool with shape ``[]``, all flags off, as in Paddle)."""

    VarType = VarType

    def __init__(self, name):
        if not isinstance(name, str):
            raise TypeError(f"VarDesc(): the name must be a str, but received "
                            f"{type(name).__name__}")
        self._name = name
        self._type = VarType.DENSE_TENSOR
        self._shape = []
        self._dtype = VarType.BOOL
        self._flags = {"persistable": False, "stop_gradient": False, "need_check_feed": False,
                       "is_parameter": False}

    def name(self):
        return self._name

    def set_name(self, name):
        self._name = name

    def type(self):
        return self._type

    def set_type(self, var_type):
        self._type = self._var_type(var_type, "set_type")

    def shape(self):
        return list(self._shape)

    get_shape = shape

    def set_shape(self, shape):
        self._shape = [int(d) for d in shape]

    def dtype(self):
        return self._dtype

    def set_dtype(self, dtype):
        self._dtype = self._var_type(dtype, "set_dtype")

    @staticmethod
    def _var_type(value, api):
        if not isinstance(value, VarType):
            raise TypeError(f"{api}(): incompatible function arguments: expected a "
                            f"VarDesc.VarType, got {value!r} ({type(value).__name__})")
        return value

    def _flag(name):  # noqa: N805 - builds the flag accessors below
        def get(self):
            return self._flags[name]

        def set_(self, value):
            self._flags[name] = bool(value)
        get.__doc__ = f"Whether the variable is {name.replace('_', ' ')}."
        return get, set_

    persistable, set_persistable = _flag("persistable")
    stop_gradient, set_stop_gradient = _flag("stop_gradient")
    need_check_feed, set_need_check_feed = _flag("need_check_feed")
    is_parameter, set_is_parameter = _flag("is_parameter")
    del _flag

    def __repr__(self):
        return f"VarDesc({self._name!r}, {self._type}, {self._shape}, {self._dtype})"
