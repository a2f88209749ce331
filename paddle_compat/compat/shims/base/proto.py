"""``paddle.base.proto``: the protobuf messages of Paddle's operator descriptions
(``framework_pb2``): ``OpProto`` (what an operator type takes: input/output slots and
attributes), ``OpDesc`` (one operator: its slots' variable names and attribute values) and
``Scalar``, with the attribute-type constants (``framework_pb2.INT``...).

They are what Paddle's operator test harness (``op.py``'s ``Operator``) builds operators with:
``core.get_all_op_protos()`` gives the serialized ``OpProto`` of every op type of
paddle_compat's op-type registry (``static.fluid_ops``), and ``core.Operator.create`` takes a
serialized ``OpDesc``. The messages are a small protobuf (proto2 wire format) of our own, with
the field numbers of Paddle's ``framework.proto``; other message types of that file (the
program and variable descriptions) raise UnsupportedAPIError."""
import struct
import types

from ...missing import UnsupportedAPIError
from ....static.io import _varint

__all__ = ["framework_pb2"]

# field kinds: varint ints/bools/enums, strings, floats/doubles, sub-messages
_INT, _BOOL, _STR, _F32, _F64, _MSG = "int", "bool", "str", "f32", "f64", "msg"


def _put_varint(out, v):
    out += _varint(v)


def _get_varint(buf, i):
    shift = out = 0
    while True:
        if i >= len(buf):
            raise ValueError("a protobuf message ends inside a varint")
        b = buf[i]
        i += 1
        out |= (b & 0x7F) << shift
        if not b & 0x80:
            return out, i
        shift += 7


class _Repeated(list):
    """A repeated field: a list with protobuf's ``add()`` for message elements."""

    def __init__(self, cls=None):
        super().__init__()
        self._cls = cls

    def add(self, **kwargs):
        m = self._cls(**kwargs)
        self.append(m)
        return m


class _Message:
    """A protobuf message whose fields are listed in ``_FIELDS``:
    ``{name: (number, kind, repeated, message class or None, default)}``."""

    _FIELDS = {}

    def __init__(self, **kwargs):
        for name, (_, kind, rep, cls, default) in self._FIELDS.items():
            object.__setattr__(self, name, _Repeated(cls) if rep else
                               (cls() if kind == _MSG else default))
        for k, v in kwargs.items():
            setattr(self, k, v)

    def __setattr__(self, name, value):
        if name not in self._FIELDS:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        if self._FIELDS[name][2]:
            raise AttributeError(f"assignment to the repeated field {name!r}: use extend()")
        object.__setattr__(self, name, value)

    def CopyFrom(self, other):
        for name in self._FIELDS:
            object.__setattr__(self, name, getattr(other, name))

    MergeFrom = CopyFrom

    def __eq__(self, other):
        return type(self) is type(other) and all(
            getattr(self, n) == getattr(other, n) for n in self._FIELDS)

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self._FIELDS)})"

    # -- wire format
    def SerializeToString(self):
        out = bytearray()
        for name, (num, kind, rep, _, default) in self._FIELDS.items():
            v = getattr(self, name)
            for item in (v if rep else ([] if v == default and kind != _MSG else [v])):
                if kind in (_INT, _BOOL):
                    _put_varint(out, num << 3)
                    _put_varint(out, int(item))
                elif kind == _F32:
                    _put_varint(out, num << 3 | 5)
                    out += struct.pack("<f", item)
                elif kind == _F64:
                    _put_varint(out, num << 3 | 1)
                    out += struct.pack("<d", item)
                else:
                    data = item.encode() if kind == _STR else item.SerializeToString()
                    if kind == _MSG and not rep and not data:
                        continue
                    _put_varint(out, num << 3 | 2)
                    _put_varint(out, len(data))
                    out += data
        return bytes(out)

    @classmethod
    def FromString(cls, buf):
        m, by_num, i = cls(), {f[0]: (n, f) for n, f in cls._FIELDS.items()}, 0
        buf = bytes(buf)
        while i < len(buf):
            key, i = _get_varint(buf, i)
            num, wire = key >> 3, key & 7
            if wire == 0:
                raw, i = _get_varint(buf, i)
            elif wire == 1:
                raw, i = buf[i:i + 8], i + 8
            elif wire == 5:
                raw, i = buf[i:i + 4], i + 4
            elif wire == 2:
                size, i = _get_varint(buf, i)
                raw, i = buf[i:i + size], i + size
            else:
                raise ValueError(f"{cls.__name__}: a field of wire type {wire}")
            if num not in by_num:
                continue
            name, (_, kind, rep, sub, _) = by_num[num]
            if kind in (_INT, _BOOL) and wire == 2:          # a packed repeated field
                vals, j = [], 0
                while j < len(raw):
                    v, j = _get_varint(raw, j)
                    vals.append(v)
            elif kind in (_INT, _BOOL):
                vals = [raw]
            elif kind == _F32:
                vals = [struct.unpack("<f", raw)[0]]
            elif kind == _F64:
                vals = [struct.unpack("<d", raw)[0]]
            elif kind == _STR:
                vals = [raw.decode()]
            else:
                vals = [sub.FromString(raw)]
            if kind == _INT:
                vals = [v - (1 << 64) if v >= 1 << 63 else v for v in vals]
            elif kind == _BOOL:
                vals = [bool(v) for v in vals]
            if rep:
                getattr(m, name).extend(vals)
            else:
                object.__setattr__(m, name, vals[-1])
        return m

    ParseFromString = None      # set below: parse into this message


def _parse_into(self, buf):
    self.CopyFrom(type(self).FromString(buf))


_Message.ParseFromString = _parse_into


def _message(name, fields):
    """A message class ``name`` from ``[(field name, number, kind, repeated, class)]``."""
    defaults = {_INT: 0, _BOOL: False, _STR: "", _F32: 0.0, _F64: 0.0, _MSG: None}
    spec = {f: (num, kind, rep, cls, defaults[kind]) for f, num, kind, rep, cls in fields}
    return type(name, (_Message,), {"_FIELDS": spec, "__doc__": f"Paddle's ``{name}`` message."})


# AttrType (framework.proto)
_ATTR_TYPES = ["INT", "FLOAT", "STRING", "INTS", "FLOATS", "STRINGS", "BOOLEAN", "BOOLEANS",
               "BLOCK", "LONG", "BLOCKS", "LONGS", "FLOAT64S", "VAR", "VARS", "FLOAT64",
               "SCALAR", "SCALARS"]

Complex = _message("Complex", [("r", 1, _F64, False, None), ("i", 2, _F64, False, None)])
Scalar = _message("Scalar", [("type", 1, _INT, False, None), ("b", 2, _BOOL, False, None),
                             ("i", 3, _INT, False, None), ("r", 4, _F64, False, None),
                             ("c", 5, _MSG, False, Complex)])
Scalar.Type = types.SimpleNamespace(BOOLEAN=1, LONG=2, FLOAT64=3, COMPLEX128=4)

_OpDescVar = _message("Var", [("parameter", 1, _STR, False, None),
                              ("arguments", 2, _STR, True, None)])
_OpDescAttr = _message("Attr", [
    ("name", 1, _STR, False, None), ("type", 2, _INT, False, None), ("i", 3, _INT, False, None),
    ("f", 4, _F32, False, None), ("s", 5, _STR, False, None), ("ints", 6, _INT, True, None),
    ("floats", 7, _F32, True, None), ("strings", 8, _STR, True, None),
    ("b", 10, _BOOL, False, None), ("bools", 11, _BOOL, True, None),
    ("block_idx", 12, _INT, False, None), ("l", 13, _INT, False, None),
    ("blocks_idx", 14, _INT, True, None), ("longs", 15, _INT, True, None),
    ("float64s", 16, _F64, True, None), ("var_name", 17, _STR, False, None),
    ("vars_name", 18, _STR, True, None), ("float64", 19, _F64, False, None),
    ("scalar", 20, _MSG, False, Scalar), ("scalars", 21, _MSG, True, Scalar)])
OpDesc = _message("OpDesc", [("inputs", 1, _MSG, True, _OpDescVar),
                             ("outputs", 2, _MSG, True, _OpDescVar),
                             ("type", 3, _STR, False, None),
                             ("attrs", 4, _MSG, True, _OpDescAttr),
                             ("is_target", 5, _BOOL, False, None)])
OpDesc.Var, OpDesc.Attr = _OpDescVar, _OpDescAttr

_OpProtoVar = _message("Var", [("name", 1, _STR, False, None), ("comment", 2, _STR, False, None),
                               ("duplicable", 3, _BOOL, False, None),
                               ("intermediate", 4, _BOOL, False, None),
                               ("dispensable", 5, _BOOL, False, None),
                               ("extra", 6, _BOOL, False, None),
                               ("quant", 7, _BOOL, False, None)])
_OpProtoAttr = _message("Attr", [("name", 1, _STR, False, None), ("type", 2, _INT, False, None),
                                 ("comment", 3, _STR, False, None),
                                 ("generated", 4, _BOOL, False, None),
                                 ("extra", 5, _BOOL, False, None),
                                 ("quant", 6, _BOOL, False, None),
                                 ("support_tensor", 7, _BOOL, False, None)])
OpProto = _message("OpProto", [("type", 1, _STR, False, None),
                               ("inputs", 2, _MSG, True, _OpProtoVar),
                               ("outputs", 3, _MSG, True, _OpProtoVar),
                               ("attrs", 4, _MSG, True, _OpProtoAttr),
                               ("comment", 5, _STR, False, None)])
OpProto.Var, OpProto.Attr = _OpProtoVar, _OpProtoAttr


class _Protobuf(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise UnsupportedAPIError(f"paddle.base.proto.framework_pb2.{name}",
                                  "Paddle's program and variable description protobuf messages "
                                  "do not exist in paddle_compat (only OpProto, OpDesc and "
                                  "Scalar do)")


framework_pb2 = _Protobuf("paddle.base.proto.framework_pb2",
                          "Paddle's operator description protobuf messages.")
for _name in ("OpProto", "OpDesc", "Scalar", "Complex"):
    setattr(framework_pb2, _name, globals()[_name])
for _k, _name in enumerate(_ATTR_TYPES):
    setattr(framework_pb2, _name, _k)
framework_pb2.AttrType = types.SimpleNamespace(**{n: k for k, n in enumerate(_ATTR_TYPES)})
