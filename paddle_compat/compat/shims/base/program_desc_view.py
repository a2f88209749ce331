"""``paddle.base.core.ProgramDesc`` / ``AttrType``: a read view of a serialized Paddle 2.x
``ProgramDesc`` (a ``.pdmodel``'s bytes), as VisualDL's ``add_graph`` walks it:
``ProgramDesc(data).block(i)`` -> ``all_vars()`` (``name()``, ``shape()``, ``type()``,
``dtype()``, ``persistable()``) and ``op(j)`` (``type()``, ``inputs()``, ``outputs()``,
``attr(name)``). The bytes are parsed by ``jit/program_desc.py``'s reader; nothing is
writable here."""
import enum

from ....framework.lodtensor import ModelFileError
from .var_desc import VarType

__all__ = ["AttrType", "ProgramDesc"]


class AttrType(enum.IntEnum):
    """The type of an op attribute, numbered as in Paddle's ``framework.proto``."""
    INT = 0
    FLOAT = 1
    STRING = 2
    INTS = 3
    FLOATS = 4
    STRINGS = 5
    BOOL = 6
    BOOLS = 7
    BLOCK = 8
    LONG = 9
    BLOCKS = 10
    LONGS = 11
    FLOAT64S = 12
    VAR = 13
    VARS = 14
    FLOAT64 = 15
    SCALAR = 16
    SCALARS = 17

    __str__ = enum.Enum.__str__          # AttrType.INT, as pybind11 prints it


def _nth(items, i, what):
    """``items[i]``, a non-negative index only (IndexError naming ``what`` otherwise)."""
    if not 0 <= i < len(items):
        raise IndexError(f"{what} index {i} out of range (there are {len(items)})")
    return items[i]


class _VarView:
    """One variable of a block (Paddle's ``VarDesc`` methods, read-only)."""

    def __init__(self, var):
        self._v = var

    def name(self):
        return self._v.name

    def type(self):
        return VarType(self._v.kind)

    def persistable(self):
        return self._v.persistable

    def _dense(self, what):
        if self._v.dims is None:
            raise RuntimeError(f"(InvalidArgument) Getting '{what}' is not supported by the type "
                             f"of var {self._v.name}.")

    def shape(self):
        self._dense("shape")
        return list(self._v.dims)

    def dtype(self):
        self._dense("dtype")
        return VarType(self._v.dtype)

    def attr_names(self):
        return []

    def __repr__(self):
        return f"VarDesc({self._v.name})"


class _OpView:
    """One op of a block (Paddle's ``OpDesc`` methods, read-only)."""

    def __init__(self, op, program):
        self._op, self._program = op, program

    def type(self):
        return self._op.type

    def inputs(self):
        return {k: list(v) for k, v in self._op.inputs.items()}

    def outputs(self):
        return {k: list(v) for k, v in self._op.outputs.items()}

    def input_names(self):
        return list(self._op.inputs)

    def output_names(self):
        return list(self._op.outputs)

    def input(self, name):
        return list(self._op.inputs.get(name, []))

    def output(self, name):
        return list(self._op.outputs.get(name, []))

    def input_arg_names(self):
        return [a for v in self._op.inputs.values() for a in v]

    def output_arg_names(self):
        return [a for v in self._op.outputs.values() for a in v]

    def attr_names(self):
        return sorted(self._op.attrs)

    def has_attr(self, name):
        return name in self._op.attrs

    def attr(self, name):
        if name not in self._op.attrs:
            raise ValueError(f"(NotFound) Attribute {name} is not found.")
        value = self._op.attrs[name]
        if isinstance(value, tuple) and value and value[0] == "block":
            return self._program.block(value[1])
        if isinstance(value, tuple) and value and value[0] == "blocks":
            return [self._program.block(i) for i in value[1]]
        return value

    def __repr__(self):
        return f"OpDesc({self._op.type})"


class _BlockView:
    """One block (Paddle's ``BlockDesc`` methods, read-only)."""

    def __init__(self, program, idx, variables, ops):
        self._program, self._idx = program, idx
        self._vars = [_VarView(v) for v in variables.values()]
        self._by_name = {v.name(): v for v in self._vars}
        self._ops = [_OpView(o, program) for o in ops]

    @property
    def id(self):
        return self._idx

    def all_vars(self):
        return list(self._vars)

    def has_var(self, name):
        return name in self._by_name

    def find_var(self, name):
        return self._by_name.get(name)

    def var(self, name):
        if name not in self._by_name:
            raise ValueError(f"(NotFound) Can not find variable {name} in this block.")
        return self._by_name[name]

    def op_size(self):
        return len(self._ops)

    def op(self, j):
        return _nth(self._ops, j, "op")


class ProgramDesc:
    """A parsed Paddle 2.x program: ``ProgramDesc(serialized_bytes)``."""

    def __init__(self, data=None):
        if data is None:
            raise NotImplementedError("ProgramDesc(): building an empty program is not "
                                      "supported; paddle_compat reads serialized ones")
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"ProgramDesc(): expected the serialized program as bytes, got "
                            f"{type(data).__name__}")
        # the reader lives with paddle.jit's model loading (imported on first use: importing
        # paddle.jit costs seconds, and ``paddle.base.core`` is imported everywhere)
        from ....jit.program_desc import parse_program_desc
        try:
            blocks = parse_program_desc(bytes(data))
        except ModelFileError as e:
            raise ValueError(f"(InvalidArgument) Fail to parse program_desc from binary "
                             f"string: {e}") from None
        self._blocks = [_BlockView(self, i, v, o) for i, (v, o) in enumerate(blocks)]

    def num_blocks(self):
        return len(self._blocks)

    def block(self, i):
        return _nth(self._blocks, i, "block")

    def get_feed_target_names(self):
        return [o.output("Out")[0] for o in self._blocks[0]._ops if o.type() == "feed"]

    def get_fetch_target_names(self):
        return [o.input("X")[0] for o in self._blocks[0]._ops if o.type() == "fetch"]
