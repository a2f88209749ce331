"""Writing Paddle 2.x inference programs: the ``ProgramDesc`` protobuf of a ``.pdmodel`` (the
wire format by hand, the fields ``jit.program_desc`` reads back) from the ops a traced Layer
emits, and the fake-quant markers that make a quantised Layer's program (what
``save_quantized_model`` writes).

* ``encode_program(variables, ops)``: the bytes of a one-block ``ProgramDesc`` (block 0,
  parent -1, version 3003001 as Paddle 3.3.1 writes; the ``op_version_map`` of the ops used).
* ``FluidWriter``: the interface of ``static.io.ProgramWriter`` (``op``, ``param``, ``data``,
  ``fetch``, ``full``, ``int_array``), so ``io.program_to_pir`` hands it the same ``pd_op``
  calls; each becomes the fluid op Paddle 2.x's ``to_static`` records (``conv2d`` and its bias
  ``reshape2`` + ``elementwise_add``, ``batch_norm``, ``matmul_v2``, ``pool2d`` ...) with the
  variable names its layer helpers give (``conv2d_0.tmp_1``). A ``pd_op`` without a fluid form
  here raises NotImplementedError naming it.
* Fake quantisation: while ``quant_export()`` is active, the fake-quant layers record
  ``fake_quant_marker`` nodes instead of their arithmetic (``record_fake_quant``); the writer
  turns them into ``quantize_linear`` / ``dequantize_linear`` pairs (activations, output
  scales) or a ``dequantize_linear`` of an int8-stored weight, as Paddle's
  ``ReplaceFakeQuantDequantPass`` and ``QuantWeightPass`` leave them.
"""
import contextlib
import struct

import numpy as np

from ..framework.lodtensor import VARTYPE
from ..framework.tensor import wrap
from . import io as _io
from .io import _varint
from . import mode as _mode
from .program import default_main_program

__all__ = ["encode_program", "FluidWriter", "fake_quant_marker", "record_fake_quant",
           "quant_export", "quant_exporting", "QUANT_EMIT", "quantize_weight"]

_VERSION = 3003001                      # Paddle 3.3.1's ProgramDesc version
_DENSE, _FEED, _FETCH = 7, 9, 10
_CODE = {(t if isinstance(t, str) else np.dtype(t).name): c for c, t in VARTYPE.items()}
# op -> its version in Paddle's op_version_map (the ops of it this writer emits)
_OP_VERSIONS = {"conv2d": 1, "depthwise_conv2d": 1, "elementwise_add": 1,
                "elementwise_sub": 1, "elementwise_mul": 1, "elementwise_div": 1,
                "elementwise_pow": 1, "leaky_relu": 1, "clip": 1, "fill_constant": 2,
                "lookup_table_v2": 1, "equal": 1, "not_equal": 1, "less_than": 1,
                "less_equal": 1, "greater_than": 1, "greater_equal": 1}


# ---------------------------------------------------------------------------- wire format
def _key(field, wire):
    return _varint(field << 3 | wire)


def _vint(field, v):
    return _key(field, 0) + _varint(int(v))


def _bytes(field, b):
    if isinstance(b, str):
        b = b.encode("utf-8")
    return _key(field, 2) + _varint(len(b)) + b


# attribute kind -> (AttrType code, field, encoder of one value, repeated)
_ATTR = {
    "i": (0, 3, "int", False), "f": (1, 4, "f32", False), "s": (2, 5, "str", False),
    "ints": (3, 6, "int", True), "floats": (4, 7, "f32", True), "strings": (5, 8, "str", True),
    "b": (6, 10, "int", False), "bools": (7, 11, "int", True), "l": (9, 13, "int", False),
    "longs": (11, 15, "int", True), "f64": (15, 19, "f64", False),
}


def _attr(name, kind, value):
    if kind not in _ATTR:
        raise ValueError(f"attribute {name!r}: unknown kind {kind!r}")
    code, field, enc, repeated = _ATTR[kind]
    out = _bytes(1, name) + _vint(2, code)
    for v in (value if repeated else [value]):
        if enc == "int":
            out += _vint(field, int(v))
        elif enc == "f32":
            out += _key(field, 5) + struct.pack("<f", float(v))
        elif enc == "f64":
            out += _key(field, 1) + struct.pack("<d", float(v))
        else:
            out += _bytes(field, v)
    return _bytes(4, out)


def _var(name, kind, dtype=None, dims=None, persistable=False):
    t = _vint(1, kind)
    if kind == _DENSE:
        t += _bytes(3, _bytes(1, _vint(1, _CODE[dtype]) + b"".join(
            _vint(2, d) for d in dims)))
    return _bytes(3, _bytes(1, name) + _bytes(2, t) + _vint(3, bool(persistable)))


def _slots(field, slots):
    return b"".join(_bytes(field, _bytes(1, slot) + b"".join(_bytes(2, n) for n in names))
                    for slot, names in sorted(slots.items()))


def encode_program(variables, ops):
    """The ``.pdmodel`` bytes. ``variables``: ``{name: (dtype name, dims, persistable)}``
    (dense tensors; the ``feed`` / ``fetch`` lists are added); ``ops``: ``(type, inputs,
    outputs, attrs)`` with slot -> names dicts and ``attrs`` a list of ``(name, kind,
    value)`` (kinds: i f s ints floats strings b bools l longs f64)."""
    block = _vint(1, 0) + _vint(2, -1)
    for name in sorted(variables):
        dt, dims, persistable = variables[name]
        block += _var(name, _DENSE, dt, dims, persistable)
    block += _var("feed", _FEED, persistable=True) + _var("fetch", _FETCH, persistable=True)
    for typ, ins, outs, attrs in ops:
        body = _slots(1, ins) + _slots(2, outs) + _bytes(3, typ)
        body += b"".join(_attr(*a) for a in sorted(attrs))
        block += _bytes(4, body)
    used = sorted({op[0] for op in ops} & set(_OP_VERSIONS))
    versions = b"".join(_bytes(1, _bytes(1, t) + _bytes(2, _vint(1, _OP_VERSIONS[t])))
                        for t in used)
    return _bytes(1, block) + _bytes(4, _vint(1, _VERSION)) + _bytes(5, versions)


# ---------------------------------------------------------------------------- fake quant
_EXPORT = [0]


@contextlib.contextmanager
def quant_export():
    """While active, the fake-quant layers trace as ``fake_quant_marker`` nodes."""
    _EXPORT[0] += 1
    try:
        yield
    finally:
        _EXPORT[0] -= 1


def quant_exporting():
    """Whether a quantised program is being traced for export (static mode and
    ``quant_export()``)."""
    return bool(_EXPORT[0]) and not _mode.in_dynamic_mode()


def fake_quant_marker(x, scale, kind, bit_length, quant_axis):
    """What a fake-quant layer records while exported: ``x`` unchanged (the writer makes the
    quantize/dequantize ops). ``kind``: "activation", "output" or "weight"."""
    return x.clone()


def record_fake_quant(x, scale, kind, bit_length, quant_axis=-1):
    """Record a ``fake_quant_marker`` of Tensor ``x`` with the scale parameter ``scale``
    in the program being traced; the marked Tensor."""
    tracer = getattr(x._t, "tracer", None) or default_main_program().tracer
    return wrap(tracer.record("call_function", fake_quant_marker, (x._t, scale._t),
                              {"kind": kind, "bit_length": int(bit_length),
                               "quant_axis": int(quant_axis)}))


def _emit_marker(w, node, args, kw):
    return w.fake_quant(args[0], args[1], kw["kind"], kw["bit_length"], kw["quant_axis"])


#: the emitter ``io.program_to_pir`` needs for the markers
QUANT_EMIT = {fake_quant_marker: _emit_marker}


def quantize_weight(w, scale, quant_axis, bits):
    """Paddle's int8 form of a weight (``QuantWeightPass``): ``round(w / s * bnt)`` clipped to
    ``[-bnt - 1, bnt]``, ties to even, one scale per slice along ``quant_axis`` (-1: one)."""
    bnt = (1 << (bits - 1)) - 1
    # in float32, as Paddle's numpy pass computes it
    s = np.asarray(scale, dtype=np.float32).reshape(-1)
    s = np.where(s == 0.0, np.float32(1e-8), s)
    w = np.asarray(w, dtype=np.float32)
    if quant_axis in (0, 1) and s.size > 1:
        shape = [1] * w.ndim
        shape[quant_axis] = s.size
        s = s.reshape(shape)
    q = np.clip(np.round(w / s * np.float32(bnt)), -bnt - 1, bnt)
    return q.astype(np.int8 if bits <= 8 else np.int16)


# ---------------------------------------------------------------------------- the writer
class _Var(_io.Value):
    """A variable of the fluid program: a Value with its name, and the constant it holds
    (``int_array`` / ``full``; not a variable unless an op needs it as one)."""
    __slots__ = ("name", "const", "producer")

    def __init__(self, vid, dtype, dims, sg, name=None, const=None):
        super().__init__(vid, dtype, dims, sg)
        self.name, self.const, self.producer = name, const, None


_COMMON = [("op_device", "s", ""), ("op_namescope", "s", "/"), ("op_role", "i", 0),
           ("op_role_var", "strings", [])]
_UNARY_FLUID = {"pd_op.relu": "relu", "pd_op.sigmoid": "sigmoid", "pd_op.tanh": "tanh",
                "pd_op.exp": "exp", "pd_op.sqrt": "sqrt", "pd_op.rsqrt": "rsqrt",
                "pd_op.abs": "abs", "pd_op.silu": "silu", "pd_op.hardswish": "hard_swish"}
_BINARY_FLUID = {"pd_op.add": "elementwise_add", "pd_op.subtract": "elementwise_sub",
                 "pd_op.multiply": "elementwise_mul", "pd_op.divide": "elementwise_div",
                 "pd_op.maximum": "elementwise_max", "pd_op.minimum": "elementwise_min"}


def _pir_attrs(attrs):
    return {n: v for n, _, v in attrs}


class FluidWriter:
    """Collects the fluid ops of one program (the methods of ``static.io.ProgramWriter``);
    ``document()`` gives ``(variables, ops, quantized weights)`` for ``encode_program``."""

    def __init__(self, where="the program"):
        self.where = where
        self.creation = ()
        self.ops = []
        self.vars = {}                        # name -> (dtype, dims, persistable)
        self.extra_arrays = {}                # zero points made here: name -> array
        self.weights = {}                     # weight name -> (scale name, axis, bits)
        self.output_bits = 8                  # the quantised outputs' bit length
        self._next = 1
        self._counters = {}

    # -- names and values
    def _unique(self, prefix):
        n = self._counters.get(prefix, 0)
        self._counters[prefix] = n + 1
        return f"{prefix}_{n}"

    def _value(self, dtype, dims, sg=True, name=None, const=None):
        v = _Var(self._next, dtype, dims, sg, name, const)
        self._next += 1
        if name is not None and const is None:
            self.vars.setdefault(name, (dtype, list(dims), False))
        return v

    def _named(self, helper, k, dtype, dims):
        return self._value(dtype, dims, name=f"{helper}.tmp_{k}")

    def _emit(self, typ, ins, outs, attrs, common=True):
        self.ops.append((typ, ins, outs, list(attrs) + (_COMMON if common else [])))

    def _need(self, v, what):
        if v is None or v.name is None:
            raise NotImplementedError(f"{self.where}: {what} takes a computed shape or "
                                      "scalar, which the Paddle 2.x program writer does not "
                                      "support")
        return v.name

    # -- ProgramWriter's interface
    def param(self, name, dtype, dims, stop_gradient):
        v = self._value(dtype, dims, stop_gradient, name)
        self.vars[name] = (dtype, list(dims), True)
        return v

    def data(self, name, dtype, dims, stop_gradient=False):
        v = self._value(dtype, dims, stop_gradient, name)
        col = sum(1 for o in self.ops if o[0] == "feed")
        self._emit("feed", {"X": ["feed"]}, {"Out": [name]},
                   [("col", "i", col), ("with_quant_attr", "b", False)])
        return v

    def fetch(self, v, col):
        self._emit("fetch", {"X": [self._need(v, "fetch")]}, {"Out": ["fetch"]},
                   [("col", "i", col), ("with_quant_attr", "b", False)])
        return v

    def full(self, value, dtype, shape=(1,)):
        return self._value(dtype, list(shape), const=("full", value))

    def int_array(self, values):
        return self._value("int64", [len(values)], const=("ints", [int(v) for v in values]))

    def op(self, name, inputs, outs, attrs=(), sg=None, exact_sg=False):
        """One ``pd_op`` call as its fluid op(s); the output Values."""
        a = _pir_attrs(attrs)
        x = inputs[0] if inputs else None
        if name in _UNARY_FLUID:
            typ = _UNARY_FLUID[name]
            y = self._named(self._unique(typ), 0, *outs[0])
            self._emit(typ, {"X": [self._need(x, typ)]}, {"Out": [y.name]}, [])
            return [y]
        if name in _BINARY_FLUID:
            return [self._binary(_BINARY_FLUID[name], inputs, outs[0])]
        handler = getattr(self, "_" + name.replace("pd_op.", "pd_"), None)
        if handler is None:
            raise NotImplementedError(f"{self.where}: {name} has no Paddle 2.x (fluid) op in "
                                      "paddle_compat's ProgramDesc writer")
        return handler(inputs, outs, a)

    # -- the fluid forms
    def _binary(self, typ, inputs, out):
        x, y = inputs
        if y.const is not None and y.const[0] == "full":
            raise NotImplementedError(f"{self.where}: {typ} with a constant operand")
        px = x.producer
        # a layer's bias add shares the helper of its conv2d / linear (conv2d_0.tmp_1)
        if (typ == "elementwise_add" and px is not None and px[0] in ("conv2d", "linear")
                and (y.producer is None or y.producer[0] == "reshape2")
                and (y.name in self.vars and (self.vars[y.name][2] or y.producer))):
            helper = px[1]
            k = px[2] + 1
        else:
            helper, k = "tmp", None
        if k is None:
            out_v = self._value(*out, name=self._unique("tmp"))
        else:
            out_v = self._named(helper, k, *out)
            out_v.producer = (px[0], helper, k)
        self._emit(typ, {"X": [self._need(x, typ)], "Y": [self._need(y, typ)]},
                   {"Out": [out_v.name]}, [("axis", "i", -1)])
        return out_v

    def _conv(self, typ, inputs, outs, a):
        helper = self._unique(typ)                  # conv2d_0, depthwise_conv2d_0
        y = self._named(helper, 0, *outs[0])
        y.producer = ("conv2d", helper, 0)
        self._emit(typ, {"Input": [self._need(inputs[0], typ)],
                         "Filter": [self._need(inputs[1], typ)]}, {"Output": [y.name]},
                   [("data_format", "s", a["data_format"]),
                    ("dilations", "ints", a["dilations"]), ("groups", "i", a["groups"]),
                    ("padding_algorithm", "s", a["padding_algorithm"]),
                    ("paddings", "ints", a["paddings"]), ("strides", "ints", a["strides"])])
        return [y]

    def _pd_conv2d(self, inputs, outs, a):
        return self._conv("conv2d", inputs, outs, a)

    def _pd_depthwise_conv2d(self, inputs, outs, a):
        return self._conv("depthwise_conv2d", inputs, outs, a)

    def _pd_matmul(self, inputs, outs, a):
        x, y = inputs
        linear = y.name in self.vars and self.vars[y.name][2] or (
            y.producer is not None and y.producer[0] == "dequantize")
        helper = self._unique("linear" if linear else "matmul_v2")
        out = self._named(helper, 0, *outs[0])
        out.producer = ("linear" if linear else "matmul_v2", helper, 0)
        self._emit("matmul_v2", {"X": [self._need(x, "matmul_v2")],
                                 "Y": [self._need(y, "matmul_v2")]}, {"Out": [out.name]},
                   [("trans_x", "b", a["transpose_x"]), ("trans_y", "b", a["transpose_y"])])
        return [out]

    def _pd_reshape(self, inputs, outs, a):
        x, shape = inputs
        if shape.const is None:
            raise NotImplementedError(f"{self.where}: reshape to a computed shape")
        target = list(shape.const[1])
        if -1 in target and all(d >= 0 for d in x.dims):        # Paddle writes it resolved
            known = int(np.prod([d for d in target if d != -1])) or 1
            target[target.index(-1)] = int(np.prod(x.dims)) // known
        helper = self._unique("reshape2")
        out = self._named(helper, 0, outs[0][0], target if -1 not in target else outs[0][1])
        out.producer = ("reshape2", helper, 0)
        xshape = self._named(helper, 1, x.dtype, [0] + list(x.dims))
        self._emit("reshape2", {"X": [self._need(x, "reshape2")], "Shape": [],
                                "ShapeTensor": []}, {"Out": [out.name], "XShape": [xshape.name]},
                   [("shape", "ints", target)])
        return [out]

    def _pd_flatten(self, inputs, outs, a):
        helper = self._unique("flatten")
        out = self._named(helper, 0, *outs[0])
        self._emit("flatten_contiguous_range", {"X": [self._need(inputs[0], "flatten")]},
                   {"Out": [out.name]}, [("start_axis", "i", a["start_axis"]),
                                         ("stop_axis", "i", a["stop_axis"])])
        return [out]

    def _pd_batch_norm_(self, inputs, outs, a):
        x, mean, var, scale, bias = inputs
        helper = self._unique("batch_norm")
        saved_mean = self._named(helper, 0, "float32", [])
        saved_var = self._named(helper, 1, "float32", [])
        y = self._named(helper, 2, *outs[0])
        self._emit("batch_norm", {"X": [self._need(x, "batch_norm")], "Mean": [mean.name],
                                  "Variance": [var.name], "Scale": [scale.name],
                                  "Bias": [bias.name], "MomentumTensor": []},
                   {"Y": [y.name], "MeanOut": [mean.name], "VarianceOut": [var.name],
                    "SavedMean": [saved_mean.name], "SavedVariance": [saved_var.name]},
                   [("data_layout", "s", a["data_format"]), ("epsilon", "f", a["epsilon"]),
                    ("is_test", "b", a["is_test"]), ("momentum", "f", a["momentum"]),
                    ("trainable_statistics", "b", a["trainable_statistics"]),
                    ("use_global_stats", "b", a["use_global_stats"])])
        return [y, mean, var, saved_mean, saved_var, None]

    def _pd_pool2d(self, inputs, outs, a):
        x, k = inputs
        helper = self._unique("pool2d")
        out = self._named(helper, 0, *outs[0])
        self._emit("pool2d", {"X": [self._need(x, "pool2d")]}, {"Out": [out.name]},
                   [("adaptive", "b", a["adaptive"]), ("ceil_mode", "b", a["ceil_mode"]),
                    ("data_format", "s", a["data_format"]), ("exclusive", "b", a["exclusive"]),
                    ("global_pooling", "b", a["global_pooling"]), ("ksize", "ints", k.const[1]),
                    ("padding_algorithm", "s", a["padding_algorithm"]),
                    ("paddings", "ints", a["paddings"]), ("pooling_type", "s", a["pooling_type"]),
                    ("strides", "ints", a["strides"]),
                    ("use_cudnn", "b", not a["adaptive"])])       # adaptive pools: False
        return [out]

    def _pd_softmax(self, inputs, outs, a):
        helper = self._unique("softmax")
        out = self._named(helper, 0, *outs[0])
        self._emit("softmax", {"X": [self._need(inputs[0], "softmax")]}, {"Out": [out.name]},
                   [("axis", "i", a["axis"])])
        return [out]

    def _pd_transpose(self, inputs, outs, a):
        x = inputs[0]
        helper = self._unique("transpose2")
        out = self._named(helper, 0, *outs[0])
        xshape = self._named(helper, 1, x.dtype, [0] + list(x.dims))
        self._emit("transpose2", {"X": [self._need(x, "transpose2")]},
                   {"Out": [out.name], "XShape": [xshape.name]}, [("axis", "ints", a["perm"])])
        return [out]

    def _pd_scale(self, inputs, outs, a):
        x, s = inputs
        if s.const is None or s.const[0] != "full":
            raise NotImplementedError(f"{self.where}: scale by a computed tensor")
        helper = self._unique("scale")
        out = self._named(helper, 0, *outs[0])
        self._emit("scale", {"X": [self._need(x, "scale")]}, {"Out": [out.name]},
                   [("bias", "f", a.get("bias", 0.0)),
                    ("bias_after_scale", "b", a.get("bias_after_scale", True)),
                    ("scale", "f", s.const[1])])
        return [out]

    # -- fake quantisation (the markers)
    def _zero_point(self, name, n):
        zp = f"{name}@zero_point"
        self.vars[zp] = ("int32", [n], True)
        self.extra_arrays[zp] = np.zeros([n], dtype=np.int32)
        return zp

    def _qdq_attrs(self, bits, axis):
        return [("bit_length", "i", bits), ("op_device", "s", ""),
                ("qmax", "i", (1 << (bits - 1)) - 1), ("qmin", "i", -(1 << (bits - 1))),
                ("quant_axis", "i", axis)]

    def fake_quant(self, x, scale, kind, bits, axis):
        """The ops of one fake-quant marker (see the module doc)."""
        if scale is None or scale.name not in self.vars or not self.vars[scale.name][2]:
            raise NotImplementedError(f"{self.where}: a fake-quant scale that is not a "
                                      "parameter")
        xn = self._need(x, "a fake-quant layer")
        if kind == "weight":
            if not self.vars.get(xn, (0, 0, False))[2]:
                raise NotImplementedError(f"{self.where}: a weight fake-quant of a computed "
                                          f"tensor ({xn}), not of a parameter")
            zp = self._zero_point(xn, self.vars[scale.name][1][0] if axis >= 0 else 1)
            y = self._value(x.dtype, x.dims, name=f"{xn}.quantized.dequantized")
            y.producer = ("dequantize", xn, 0)
            self.weights[xn] = (scale.name, axis, bits)
            self._emit("dequantize_linear", {"X": [xn], "Scale": [scale.name],
                                             "ZeroPoint": [zp]}, {"Y": [y.name]},
                       self._qdq_attrs(bits, axis), common=False)
            return y
        if kind == "output":
            bits = self.output_bits
        zp = self._zero_point(xn, 1)
        q = self._value(x.dtype, x.dims, name=f"{xn}.quantized")
        y = self._value(x.dtype, x.dims, name=f"{xn}.quantized.dequantized"
                        if kind == "activation" else f"{xn}.tmp")
        y.producer = x.producer
        ins = {"X": [xn], "Scale": [scale.name], "ZeroPoint": [zp]}
        self._emit("quantize_linear", ins, {"Y": [q.name]}, self._qdq_attrs(bits, -1),
                   common=False)
        self._emit("dequantize_linear", dict(ins, X=[q.name]), {"Y": [y.name]},
                   self._qdq_attrs(bits, -1), common=False)
        return y

    def document(self):
        return self.vars, self.ops
