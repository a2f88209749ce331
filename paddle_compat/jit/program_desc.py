"""Paddle 2.x model files: a ``ProgramDesc`` protobuf (``model.pdmodel``) and its parameters
(``model.pdiparams``, the same stream as Paddle 3.x's: ``translated.read_pdiparams``).

What the ``.pdmodel`` holds (Paddle's ``framework.proto``; read here by a small protobuf
wire-format reader of our own, no generated code, nothing in the file is executed):

* ``ProgramDesc``: field 1 the blocks (``BlockDesc``), 4 the version.
* ``BlockDesc``: 1 idx, 2 parent_idx, 3 the variables (``VarDesc``), 4 the ops (``OpDesc``).
* ``VarDesc``: 1 name, 2 type (``VarType``: 1 the kind, 7 = a dense tensor, 9/10 = the feed /
  fetch lists; 3 ``DenseTensorDesc`` whose field 1 is a ``TensorDesc``: 1 data type, 2 dims),
  3 persistable.
* ``OpDesc``: 3 type (the fluid op name: ``matmul_v2``, ``elementwise_add``, ``conv2d`` ...),
  1 inputs and 2 outputs (``Var``: 1 the slot name such as ``X``, 2 the variable names),
  4 attributes (``Attr``: 1 name, 2 type, then the value in the field its type names: 3 i,
  4 f, 5 s, 6 ints, 7 floats, 8 strings, 10 b, 11 bools, 12 block_idx, 13 l, 15 longs,
  16 float64s, 19 float64, 20 scalar).

The ops are turned into the op list ``TranslatedLayer`` runs (the same one a 3.x PIR program
becomes): variables are renamed into single-assignment value ids (an op that writes a variable
again, as batch norm's ``MeanOut``, makes a new value), each fluid op becomes a call of the op
functions users call, through the PIR handlers where the two agree (``matmul_v2`` is
``pd_op.matmul``, ``elementwise_add`` that broadcasts as numpy does is ``pd_op.add``, so the
compiled function fuses a Linear as for 3.x files) and through the handlers below where fluid's
op differs (``elementwise_*`` with an ``axis``, ``reshape2`` with its shape attribute, ``mul``
with ``x_num_col_dims`` ...). An op without a mapping raises NotImplementedError naming it;
control flow (``conditional_block``, ``while``) and fluid's older sequence ops on LoD input
(``lstm`` / ``gru`` of ``dynamic_lstm`` / ``dynamic_gru``) are among those; the ``rnn`` op of
``nn.LSTM`` / ``nn.GRU`` / ``nn.SimpleRNN`` runs on torch's fused kernels.
"""
import struct

import numpy as np
import torch

from .. import linalg as _linalg
from .. import ops as _ops
from ..nn import clip as _nn_clip
from ..nn import functional as F
from ..static import fluid_ops as _fluid_ops
from . import translated as _tr
from ..framework import hooks as _hooks
from ..framework.tensor import wrap as _wrap
from ..framework.lodtensor import ModelFileError, read_pdiparams
from ..framework.tensor import Tensor
from ..framework.lodtensor import signed64 as _signed64
from ..framework.lodtensor import varint as _varint
from .translated import _READERS, _Op, _batch_norm, _ints

__all__ = ["read_program_desc", "parse_program_desc", "program_to_ops", "load_program_desc",
           "FLUID_OPS"]

_DENSE_TENSOR, _FEED_MINIBATCH, _FETCH_LIST = 7, 9, 10
_DTYPE_NAME = _fluid_ops.DTYPE_NAME


# ---------------------------------------------------------------------------- wire format
def _fields(buf, path):
    """The fields of one protobuf message: a list of (field number, wire type, value); a
    varint as an int, a length-delimited field as bytes, fixed32/64 as their raw bytes."""
    out, i, n = [], 0, len(buf)
    while i < n:
        key, i = _varint(buf, i, path)
        field, wire = key >> 3, key & 7
        if wire == 0:
            v, i = _varint(buf, i, path)
        elif wire == 2:
            size, i = _varint(buf, i, path)
            if i + size > n:
                raise ModelFileError(f"{path}: a protobuf field runs past its message")
            v, i = buf[i:i + size], i + size
        elif wire == 5:
            if i + 4 > n:
                raise ModelFileError(f"{path}: a protobuf message ends inside a fixed32")
            v, i = buf[i:i + 4], i + 4
        elif wire == 1:
            if i + 8 > n:
                raise ModelFileError(f"{path}: a protobuf message ends inside a fixed64")
            v, i = buf[i:i + 8], i + 8
        else:
            raise ModelFileError(f"{path}: a protobuf field of wire type {wire}")
        out.append((field, wire, v))
    return out


def _packed_varints(buf, path):
    out, i = [], 0
    while i < len(buf):
        v, i = _varint(buf, i, path)
        out.append(v)
    return out


def _repeated_ints(items, path):
    """A repeated integer field, packed or not, as signed 64-bit values."""
    out = []
    for wire, v in items:
        if wire == 2:
            out.extend(_signed64(x) for x in _packed_varints(v, path))
        elif wire == 0:
            out.append(_signed64(v))
        else:
            raise ModelFileError(f"{path}: an integer field of wire type {wire}")
    return out


def _repeated_fixed(items, fmt, path):
    size = struct.calcsize(fmt)
    out = []
    for wire, v in items:
        if wire == 2:
            if len(v) % size:
                raise ModelFileError(f"{path}: a packed float field of {len(v)} bytes")
            out.extend(struct.unpack(f"<{len(v) // size}{fmt}", v))
        elif (wire == 5 and size == 4) or (wire == 1 and size == 8):
            out.extend(struct.unpack("<" + fmt, v))
        else:
            raise ModelFileError(f"{path}: a float field of wire type {wire}")
    return out


def _text(v, path):
    if not isinstance(v, (bytes, bytearray)):
        raise ModelFileError(f"{path}: a text field is not length-delimited")
    try:
        return bytes(v).decode("utf-8")
    except UnicodeDecodeError:
        raise ModelFileError(f"{path}: a text field is not UTF-8") from None


def _group(fields):
    g = {}
    for f, w, v in fields:
        g.setdefault(f, []).append((w, v))
    return g


def _int32(v):
    v = _signed64(v)
    return v - (1 << 32) if v >= 1 << 31 else v


def _attr(buf, path):
    g = _group(_fields(buf, path))
    name = _text(g[1][-1][1], path) if 1 in g else None
    if name is None or 2 not in g:
        raise ModelFileError(f"{path}: an op attribute without a name or type")
    kind = g[2][-1][1]

    def one(field, default=None):
        return g[field][-1][1] if field in g else default
    if kind == 0:                                   # INT
        return name, _int32(one(3, 0))
    if kind == 1:                                   # FLOAT
        return name, struct.unpack("<f", one(4, b"\0\0\0\0"))[0]
    if kind == 2:                                   # STRING
        return name, _text(one(5, b""), path)
    if kind == 3:                                   # INTS
        return name, [_int32(v & ((1 << 64) - 1)) for v in _repeated_ints(g.get(6, []), path)]
    if kind == 4:                                   # FLOATS
        return name, list(_repeated_fixed(g.get(7, []), "f", path))
    if kind == 5:                                   # STRINGS
        return name, [_text(v, path) for _, v in g.get(8, [])]
    if kind == 6:                                   # BOOLEAN
        return name, bool(one(10, 0))
    if kind == 7:                                   # BOOLEANS
        return name, [bool(v) for v in _repeated_ints(g.get(11, []), path)]
    if kind == 8:                                   # BLOCK
        return name, ("block", one(12, 0))
    if kind == 9:                                   # LONG
        return name, _signed64(one(13, 0))
    if kind == 10:                                  # BLOCKS
        return name, ("blocks", _repeated_ints(g.get(14, []), path))
    if kind == 11:                                  # LONGS
        return name, _repeated_ints(g.get(15, []), path)
    if kind == 12:                                  # FLOAT64S
        return name, list(_repeated_fixed(g.get(16, []), "d", path))
    if kind == 13:                                  # VAR
        return name, ("var", _text(one(17, b""), path))
    if kind == 14:                                  # VARS
        return name, ("vars", [_text(v, path) for _, v in g.get(18, [])])
    if kind == 15:                                  # FLOAT64
        return name, struct.unpack("<d", one(19, b"\0" * 8))[0]
    if kind == 16:                                  # SCALAR
        return name, _scalar_msg(one(20, b""), path)
    if kind == 17:                                  # SCALARS
        return name, [_scalar_msg(v, path) for _, v in g.get(21, [])]
    raise NotImplementedError(f"{path}: op attribute {name!r} has type {kind}, which is not "
                              "supported")


def _scalar_msg(buf, path):
    g = _group(_fields(buf, path))
    kind = g[1][-1][1] if 1 in g else 0
    if kind == 1:
        return bool(g[2][-1][1]) if 2 in g else False
    if kind == 2:
        return _signed64(g[3][-1][1]) if 3 in g else 0
    if kind == 3:
        return struct.unpack("<d", g[4][-1][1])[0] if 4 in g else 0.0
    raise NotImplementedError(f"{path}: a Scalar attribute of type {kind} (complex)")


def _slots(items, path):
    out = {}
    for _, v in items:
        g = _group(_fields(v, path))
        if 1 not in g:
            raise ModelFileError(f"{path}: an op input/output without a slot name")
        out[_text(g[1][-1][1], path)] = [_text(a, path) for _, a in g.get(2, [])]
    return out


class _Var:
    __slots__ = ("name", "kind", "dtype", "dims", "persistable")


def _var(buf, path):
    g = _group(_fields(buf, path))
    v = _Var()
    v.name = _text(g[1][-1][1], path) if 1 in g else ""
    v.persistable = bool(g[3][-1][1]) if 3 in g else False
    v.kind, v.dtype, v.dims = None, None, None
    if 2 in g:
        t = _group(_fields(g[2][-1][1], path))
        v.kind = t[1][-1][1] if 1 in t else None
        if 3 in t:                                  # DenseTensorDesc
            d = _group(_fields(t[3][-1][1], path))
            if 1 in d:
                td = _group(_fields(d[1][-1][1], path))
                v.dtype = td[1][-1][1] if 1 in td else None
                v.dims = _repeated_ints(td.get(2, []), path)
    return v


class DescOp:
    """One ``OpDesc``: ``type``, ``inputs`` / ``outputs`` (slot -> variable names),
    ``attrs`` (name -> value)."""
    __slots__ = ("type", "inputs", "outputs", "attrs")


def read_program_desc(path):
    """The blocks of a ``.pdmodel`` file: a list of ``(vars, ops)``, ``vars`` a dict name ->
    ``_Var`` (kind, dtype code, dims, persistable), ``ops`` a list of ``DescOp``."""
    with open(path, "rb") as f:
        data = f.read()
    return parse_program_desc(data, path)


def parse_program_desc(data, path="<ProgramDesc bytes>"):
    """``read_program_desc`` of the serialized bytes ``data`` (``path`` names them in
    errors)."""
    try:
        prog = _group(_fields(data, path))
        blocks = []
        for _, bbuf in prog.get(1, []):
            b = _group(_fields(bbuf, path))
            variables = {}
            for _, vbuf in b.get(3, []):
                v = _var(vbuf, path)
                variables[v.name] = v
            ops = []
            for _, obuf in b.get(4, []):
                o = _group(_fields(obuf, path))
                op = DescOp()
                if 3 not in o:
                    raise ModelFileError(f"{path}: an op without a type")
                op.type = _text(o[3][-1][1], path)
                op.inputs = _slots(o.get(1, []), path)
                op.outputs = _slots(o.get(2, []), path)
                op.attrs = dict(_attr(a, path) for _, a in o.get(4, []))
                ops.append(op)
            blocks.append((variables, ops))
    except (TypeError, KeyError, IndexError, struct.error):
        raise ModelFileError(f"{path}: not a Paddle ProgramDesc (malformed protobuf)") from None
    if not blocks or not blocks[0][1]:
        raise ModelFileError(f"{path}: not a Paddle ProgramDesc (no block with ops)")
    return blocks


# ---------------------------------------------------------------------------- fluid ops
def _dtype_name(code, where):
    if code not in _DTYPE_NAME:
        raise ModelFileError(f"{where}: unknown data type code {code}")
    return _DTYPE_NAME[code]


def _align(y, axis, x_rank):
    """Y of a fluid elementwise op aligned to X's dims starting at ``axis``."""
    y_rank = len(y.shape)
    if axis < 0 or y_rank == x_rank:
        return y
    return _ops.reshape(y, [1] * axis + list(y.shape) + [1] * (x_rank - axis - y_rank))


def _elementwise(fn):
    def run(layer, ins, a):
        x, y = ins[0], ins[1]
        if len(y.shape) > len(x.shape):       # the smaller operand is aligned, here X
            return [fn(_align(x, a.get("axis", -1), len(y.shape)), y)]
        return [fn(x, _align(y, a.get("axis", -1), len(x.shape)))]
    return run


def _mul(layer, ins, a):
    x, y = ins[0], ins[1]
    xk, yk = a.get("x_num_col_dims", 1), a.get("y_num_col_dims", 1)
    xs, ys = list(x.shape), list(y.shape)
    x2 = _ops.reshape(x, [int(np.prod(xs[:xk])), int(np.prod(xs[xk:]))])
    y2 = _ops.reshape(y, [int(np.prod(ys[:yk])), int(np.prod(ys[yk:]))])
    out = _ops.matmul(x2, y2)
    return [_ops.reshape(out, xs[:xk] + ys[yk:])]


def _matmul_v1(layer, ins, a):
    out = _ops.matmul(ins[0], ins[1], a.get("transpose_X", False), a.get("transpose_Y", False))
    alpha = a.get("alpha", 1.0)
    return [out if alpha == 1.0 else _ops.scale(out, alpha)]


def _no_tensor_inputs(ins, start, what):
    if any(v is not None for v in ins[start:]):
        raise NotImplementedError(f"{what} with its shape/axes given as a Tensor input")


def _tensor_input(ins, a, one, many, attr, default=None):
    """An int-array argument from its tensor slots: ``ins[one]`` (a 1-D int Tensor), else
    ``ins[many]`` (a list of 1-element ones), else the attribute ``attr``. Static Variables
    are passed on as they are (the op reads their values when the program runs), concrete
    values as a list of ints."""
    v = None
    if one is not None and len(ins) > one and ins[one] is not None:
        v = ins[one]
    elif many is not None and len(ins) > many and ins[many] is not None:
        v = list(ins[many])
    if v is None:
        return a.get(attr, default)
    vs = v if isinstance(v, list) else [v]
    if any(isinstance(e, Tensor) and not isinstance(e._t, torch.Tensor) for e in vs):
        return v
    return _ints(v)


def _reshape2(layer, ins, a):
    # Shape: a 1-D int Tensor; ShapeTensor: a list of 1-element ones
    return [_ops.reshape(ins[0], _tensor_input(ins, a, 1, 2, "shape")), None]


def _squeeze2(layer, ins, a):
    axes = a.get("axes", [])
    return [_ops.squeeze(ins[0], axes or None), None]


def _unsqueeze2(layer, ins, a):
    return [_ops.unsqueeze(ins[0], _tensor_input(ins, a, 1, 2, "axes")), None]


def _concat(layer, ins, a):
    axis = _ints(ins[1])[0] if len(ins) > 1 and ins[1] is not None else a.get("axis", 0)
    return [_ops.concat(list(ins[0]), axis)]


def _split(layer, ins, a):
    axis = _tensor_input(ins, a, 1, None, "axis", 0)
    axis = axis[0] if isinstance(axis, list) else axis
    sections = list(ins[2]) if len(ins) > 2 and ins[2] is not None else \
        (a.get("sections") or a.get("num", 1))
    return list(_ops.split(ins[0], sections, axis))


def _slice(layer, ins, a):
    # StartsTensor/EndsTensor: 1-D int Tensors; Starts/EndsTensorList: 1-element ones
    out = _ops.slice(ins[0], a["axes"], _tensor_input(ins, a, 1, 3, "starts"),
                     _tensor_input(ins, a, 2, 4, "ends"))
    dec = a.get("decrease_axis", [])
    return [_ops.squeeze(out, dec) if dec else out]


def _fill_constant(layer, ins, a):
    """ValueTensor (a 1-element tensor) stands for ``value``, ShapeTensor (1-d) or
    ShapeTensorList (1-element tensors and ints) for ``shape``; in a static Program they are
    Variables, read when it runs."""
    dt = _dtype_name(a.get("dtype", 5), "fill_constant")
    value = ins[0] if ins and ins[0] is not None else None
    if value is None:
        s = a.get("str_value", "")
        value = float(s) if s else a.get("value", 0.0)
        if dt in ("int32", "int64", "int16", "int8", "uint8", "bool"):
            value = int(value)
    shape = ins[1] if len(ins) > 1 and ins[1] is not None else (
        list(ins[2]) if len(ins) > 2 and ins[2] else list(a.get("shape", [])))
    return [_ops.full(shape, value, dt)]


def _clip(layer, ins, a):
    """Min/Max: one-element tensors standing in for the ``min``/``max`` attributes (a model
    file's op lists only the slots it uses)."""
    lo = ins[1] if len(ins) > 1 and ins[1] is not None else a.get("min")
    hi = ins[2] if len(ins) > 2 and ins[2] is not None else a.get("max")
    return [_ops.clip(ins[0], lo, hi)]


def _scale(layer, ins, a):
    # ScaleTensor: a one-element tensor (a static Variable's value is known at run time)
    s = _ops.reshape(ins[1], []) if len(ins) > 1 and ins[1] is not None else \
        a.get("scale", 1.0)
    return [_ops.scale(ins[0], s, a.get("bias", 0.0), a.get("bias_after_scale", True))]


def _cast(layer, ins, a):
    return [_ops.cast(ins[0], _dtype_name(a["out_dtype"], "cast"))]


def _reduce(fn):
    def run(layer, ins, a):
        axis = None if a.get("reduce_all", False) else (a.get("dim") or None)
        return [fn(ins[0], axis=axis, keepdim=a.get("keep_dim", False))]
    return run


def _pool2d(layer, ins, a):
    fmt = a.get("data_format", "NCHW")
    return _tr.pool2d(ins[0], a["ksize"], a, "NCHW" if fmt == "AnyLayout" else fmt, "pool2d")


def _conv2d(layer, ins, a):
    alg = a.get("padding_algorithm", "EXPLICIT")
    padding = alg if alg in ("SAME", "VALID") else a.get("paddings", [0, 0])
    fmt = a.get("data_format", "NCHW")
    return [F.conv2d(ins[0], ins[1], None, a.get("strides", [1, 1]), padding,
                     a.get("dilations", [1, 1]), a.get("groups", 1) or 1,
                     "NCHW" if fmt == "AnyLayout" else fmt)]


def _fluid_batch_norm(layer, ins, a):
    fmt = a.get("data_layout", "NCHW")
    return _batch_norm(layer, ins, dict(a, data_format="NCHW" if fmt == "AnyLayout" else fmt))


def _layer_norm(layer, ins, a):
    x, w, b = ins[0], ins[1], ins[2]
    begin = a.get("begin_norm_axis", 1)
    shape = list(x.shape[begin:])
    if w is not None and len(w.shape) != len(shape):     # fluid keeps them flat
        w = _ops.reshape(w, shape)
    if b is not None and len(b.shape) != len(shape):
        b = _ops.reshape(b, shape)
    return [F.layer_norm(x, shape, w, b, a.get("epsilon", 1e-5)), None, None]


def _dropout(layer, ins, a):
    x, p = ins[0], a.get("dropout_prob", 0.5)
    upscale = a.get("dropout_implementation", "downgrade_in_infer") == "upscale_in_train"
    if a.get("is_test", False) or not layer.training:
        return [x if upscale else _ops.scale(x, 1.0 - p), None]
    return [F.dropout(x, p, training=True,
                      mode="upscale_in_train" if upscale else "downscale_in_infer"), None]


def _hierarchical_sigmoid(layer, ins, a):
    x, label, w, bias, table, code = ins
    loss, pre = F.loss.hsigmoid_parts(x, label, a["num_classes"], w, bias, table, code)
    return [_wrap(loss), _wrap(pre), None]


def _matrix_nms(layer, ins, a):
    out, rois_num, index = _hooks.matrix_nms(
        ins[0], ins[1], a["score_threshold"], a["post_threshold"], a["nms_top_k"],
        a["keep_top_k"], a["use_gaussian"], a["gaussian_sigma"], a["background_label"],
        a["normalized"], return_index=True, return_rois_num=True)
    return [out, index, rois_num]


def _lookup_table(v1):
    def run(layer, ins, a):
        ids, w = ins[0], ins[1]
        if v1:                                    # ids end in a dimension of 1
            ids = _ops.squeeze(ids, -1)
        pad = a.get("padding_idx", -1)
        return [F.embedding(ids, w, padding_idx=None if pad < 0 else pad)]
    return run


def _arg_max(fn):
    def run(layer, ins, a):
        dt = _dtype_name(a.get("dtype", 3), "arg_max") if a.get("dtype", 3) >= 0 else "int64"
        if a.get("flatten", False):
            return [fn(ins[0], axis=None, keepdim=False, dtype=dt)]
        return [fn(ins[0], axis=a.get("axis", -1), keepdim=a.get("keepdims", False), dtype=dt)]
    return run


def _rnn(layer, ins, a):
    """The fused ``rnn`` op of ``nn.LSTM`` / ``nn.GRU`` / ``nn.SimpleRNN`` in a 2.x program
    (``translated.rnn``): outputs Out, the final states, Reserve and DropoutState."""
    if len(ins) > 3 and ins[3] is not None:
        raise NotImplementedError("rnn with SequenceLength")
    out, states = _tr.rnn(layer, ins[0], list(ins[1]), list(ins[2]), a)
    return [out, *states, None, None]


def _unary(fn):
    return lambda layer, ins, a: [fn(ins[0])]


def _matrix_rank(layer, ins, a):
    tol = ins[1] if ins[1] is not None else (None if a["use_default_tol"] else a["tol"])
    return [_linalg.matrix_rank(ins[0], tol, a["hermitian"])]


def _one_hot_v2(layer, ins, a):
    depth = ins[1] if ins[1] is not None else a["depth"]
    return [F.one_hot(ins[0], depth)]


def _qr(layer, ins, a):
    got = _linalg.qr(ins[0], a["mode"])
    return [None, got] if a["mode"] == "r" else list(got)


def _rrelu(layer, ins, a):
    return [F.rrelu(ins[0], a["lower"], a["upper"], layer.training), None]


def _triangular_solve(layer, ins, a):
    return [_linalg.triangular_solve(ins[0], ins[1], a["upper"], a["transpose"],
                                     a["unitriangular"])]


def _hard_swish(layer, ins, a):
    t, s, o = a.get("threshold", 6.0), a.get("scale", 6.0), a.get("offset", 3.0)
    if (t, s, o) == (6.0, 6.0, 3.0):
        return [F.hardswish(ins[0])]
    x = ins[0]
    return [_ops.divide(_ops.multiply(x, _ops.clip(_ops.add(x, _ops.full([], o, x.dtype)),
                                                   0.0, t)), _ops.full([], s, x.dtype))]


def _per_channel(scale, axis, rank):
    """A scale shaped to broadcast along ``axis`` (-1 or a single value: as it is)."""
    if axis < 0 or scale.size <= 1:
        return scale
    return _ops.reshape(scale, [-1 if d == axis else 1 for d in range(rank)])


def _quantize_linear(layer, ins, a):
    """``clip(round(x / scale * bnt), qmin, qmax)`` (bnt = 2^(bits-1) - 1; ties to even, as
    Paddle's kernel), still float; ZeroPoint is 0 in what Paddle writes."""
    x, scale = ins[0], ins[1]
    bnt = float((1 << (a.get("bit_length", 8) - 1)) - 1)
    s = _per_channel(scale, a.get("quant_axis", -1), len(x.shape))
    q = _ops.round(_ops.scale(_ops.divide(x, s), bnt))
    return [_ops.clip(q, float(a.get("qmin", -bnt - 1)), float(a.get("qmax", bnt)))]


def _dequantize_linear(layer, ins, a):
    """``x * scale / bnt``; ``x`` may be the int8 weight Paddle stores."""
    x, scale = ins[0], ins[1]
    if x.dtype != scale.dtype:
        x = _ops.cast(x, scale.dtype)
    bnt = float((1 << (a.get("bit_length", 8) - 1)) - 1)
    s = _per_channel(scale, a.get("quant_axis", -1), len(x.shape))
    return [_ops.scale(_ops.multiply(x, s), 1.0 / bnt)]


def _affine_grid(layer, ins, a):
    shape = ins[1] if ins[1] is not None else list(a.get("output_shape", []))
    return [F.affine_grid(ins[0], shape, a.get("align_corners", True))]


def _group_norm(layer, ins, a):
    """(Y, Mean, Variance): Mean and the biased Variance per sample and group, [N, groups]."""
    x, g, fmt = ins[0], a["groups"], a.get("data_layout", "NCHW")
    y = F.group_norm(x, g, a.get("epsilon", 1e-5), ins[1], ins[2], fmt)
    if fmt not in ("NCHW", "NCL", "NCDHW", "AnyLayout") and len(x.shape) > 2:
        x = _ops.transpose(x, [0, len(x.shape) - 1] + list(range(1, len(x.shape) - 1)))
    flat = _ops.reshape(_ops.clone(x), [x.shape[0], g, -1])
    return [y, _ops.mean(flat, -1), _ops.var(flat, -1, unbiased=False)]


def _instance_norm(layer, ins, a):
    """(Y, SavedMean, SavedVariance): the mean and ``1 / sqrt(var + epsilon)`` per sample and
    channel, [N * C]."""
    x, eps = ins[0], a.get("epsilon", 1e-5)
    y = F.instance_norm(x, weight=ins[1], bias=ins[2], eps=eps)
    flat = _ops.reshape(x, [x.shape[0] * x.shape[1], -1])
    var = _ops.var(flat, -1, unbiased=False)
    return [y, _ops.mean(flat, -1), _ops.rsqrt(_ops.scale(var, 1.0, eps))]


def _prelu(layer, ins, a):
    """``mode`` all (one alpha), channel (one per channel) or element (Alpha shaped as one
    sample): ``x`` where positive, else ``alpha * x``."""
    x, alpha = ins[0], ins[1]
    rank, mode = len(x.shape), a.get("mode", "all")
    if mode == "channel":
        axis = rank - 1 if a.get("data_format", "NCHW") in ("NHWC", "NLC", "NDHWC") else 1
        alpha = _ops.reshape(alpha, [-1 if d == axis else 1 for d in range(rank)])
    elif mode == "element":
        alpha = _ops.reshape(alpha, [1] + list(x.shape[1:]))
    zero = _ops.zeros([], x.dtype)
    return [_ops.where(_ops.greater_than(x, zero), x, _ops.multiply(alpha, x))]


def _conv2d_transpose(layer, ins, a):
    alg = a["padding_algorithm"]
    padding = alg if alg in ("SAME", "VALID") else a["paddings"]
    fmt = a["data_format"]                          # AnyLayout (and any other) is NCHW
    return [F.conv2d_transpose(ins[0], ins[1], ins[2], stride=a["strides"], padding=padding,
                               output_padding=a["output_padding"] or 0,
                               groups=a["groups"] or 1, dilation=a["dilations"],
                               output_size=a["output_size"] or None,
                               data_format="NHWC" if fmt == "NHWC" else "NCHW")]


# fluid op -> (handler, input slots, output slots); a slot name ending in "*" holds a list
FLUID_OPS = {
    "affine_grid": (_affine_grid, ["Theta", "OutputShape"], ["Output"]),
    "eig": (lambda layer, ins, a: list(_linalg.eig(ins[0])), ["X"],
            ["Eigenvalues", "Eigenvectors"]),
    "fold": (lambda layer, ins, a: [F.fold(ins[0], a["output_sizes"], a["kernel_sizes"],
                                           a["strides"], a["paddings"], a["dilations"])],
             ["X"], ["Y"]),
    "group_norm": (_group_norm, ["X", "Scale", "Bias"], ["Y", "Mean", "Variance"]),
    "instance_norm": (_instance_norm, ["X", "Scale", "Bias"],
                      ["Y", "SavedMean", "SavedVariance"]),
    "kldiv_loss": (lambda layer, ins, a: [F.kl_div(ins[0], ins[1], a.get("reduction", "mean"),
                                                   a.get("log_target", False))],
                   ["X", "Target"], ["Loss"]),
    "label_smooth": (lambda layer, ins, a: [F.label_smooth(ins[0], ins[1],
                                                           a.get("epsilon", 0.0))],
                     ["X", "PriorDist"], ["Out"]),
    "log_loss": (lambda layer, ins, a: [F.log_loss(ins[0], ins[1], a.get("epsilon", 1e-4))],
                 ["Predicted", "Labels"], ["Loss"]),
    "matmul_v2": ("pd_op.matmul", ["X", "Y"], ["Out"]),
    "matmul": (_matmul_v1, ["X", "Y"], ["Out"]),
    "mul": (_mul, ["X", "Y"], ["Out"]),
    "elementwise_add": (_elementwise(_ops.add), ["X", "Y"], ["Out"]),
    "elementwise_sub": (_elementwise(_ops.subtract), ["X", "Y"], ["Out"]),
    "elementwise_mul": (_elementwise(_ops.multiply), ["X", "Y"], ["Out"]),
    "elementwise_div": (_elementwise(_ops.divide), ["X", "Y"], ["Out"]),
    "elementwise_max": (_elementwise(_ops.maximum), ["X", "Y"], ["Out"]),
    "elementwise_min": (_elementwise(_ops.minimum), ["X", "Y"], ["Out"]),
    "elementwise_pow": (_elementwise(_ops.pow), ["X", "Y"], ["Out"]),
    "elementwise_floordiv": (_elementwise(_ops.floor_divide), ["X", "Y"], ["Out"]),
    "elementwise_mod": (_elementwise(_ops.remainder), ["X", "Y"], ["Out"]),
    "greater_than": (_elementwise(_ops.greater_than), ["X", "Y"], ["Out"]),
    "greater_equal": (_elementwise(_ops.greater_equal), ["X", "Y"], ["Out"]),
    "less_than": (_elementwise(_ops.less_than), ["X", "Y"], ["Out"]),
    "less_equal": (_elementwise(_ops.less_equal), ["X", "Y"], ["Out"]),
    "equal": (_elementwise(_ops.equal), ["X", "Y"], ["Out"]),
    "not_equal": (_elementwise(_ops.not_equal), ["X", "Y"], ["Out"]),
    "relu": (_unary(F.relu), ["X"], ["Out"]),
    "sigmoid": (_unary(F.sigmoid), ["X"], ["Out"]),
    "tanh": (_unary(_ops.tanh), ["X"], ["Out"]),
    "exp": (_unary(_ops.exp), ["X"], ["Out"]),
    "log": (_unary(_ops.log), ["X"], ["Out"]),
    "sqrt": (_unary(_ops.sqrt), ["X"], ["Out"]),
    "rsqrt": (_unary(_ops.rsqrt), ["X"], ["Out"]),
    "abs": (_unary(_ops.abs), ["X"], ["Out"]),
    "square": (_unary(_ops.square), ["X"], ["Out"]),
    "silu": (_unary(F.silu), ["X"], ["Out"]),
    "relu6": (lambda layer, ins, a: [_ops.clip(ins[0], 0.0, a.get("threshold", 6.0))],
              ["X"], ["Out"]),
    "hard_swish": (_hard_swish, ["X"], ["Out"]),
    "hard_sigmoid": (lambda layer, ins, a: [F.hardsigmoid(ins[0], a.get("slope", 0.2),
                                                          a.get("offset", 0.5))], ["X"], ["Out"]),
    "gelu": (lambda layer, ins, a: [F.gelu(ins[0], a.get("approximate", False))], ["X"],
             ["Out"]),
    "leaky_relu": (lambda layer, ins, a: [F.leaky_relu(ins[0], a.get("alpha", 0.02))], ["X"],
                   ["Out"]),
    "swish": (lambda layer, ins, a: [F.swish(ins[0]) if a.get("beta", 1.0) == 1.0 else
                                     _ops.multiply(ins[0], F.sigmoid(_ops.scale(
                                         ins[0], a["beta"])))], ["X"], ["Out"]),
    "softmax": (lambda layer, ins, a: [F.softmax(ins[0], a.get("axis", -1))], ["X"], ["Out"]),
    "log_softmax": (lambda layer, ins, a: [F.log_softmax(ins[0], a.get("axis", -1))], ["X"],
                    ["Out"]),
    "clip": (_clip, ["X", "Min", "Max"], ["Out"]),
    "clip_by_norm": (lambda layer, ins, a: [_nn_clip.clip_by_norm(ins[0], a["max_norm"])],
                     ["X"], ["Out"]),
    "pow": (lambda layer, ins, a: [_ops.pow(ins[0], a.get("factor", 1.0))], ["X"], ["Out"]),
    "reshape2": (_reshape2, ["X", "Shape", "ShapeTensor*"], ["Out", "XShape"]),
    "transpose2": (lambda layer, ins, a: [_ops.transpose(ins[0], a["axis"]), None], ["X"],
                   ["Out", "XShape"]),
    "flatten_contiguous_range": (
        lambda layer, ins, a: [_ops.flatten(ins[0], a.get("start_axis", 1),
                                            a.get("stop_axis", -1)), None], ["X"],
        ["Out", "XShape"]),
    "squeeze2": (_squeeze2, ["X"], ["Out", "XShape"]),
    "unsqueeze2": (_unsqueeze2, ["X", "AxesTensor", "AxesTensorList*"], ["Out", "XShape"]),
    "concat": (_concat, ["X*", "AxisTensor"], ["Out"]),
    "stack": (lambda layer, ins, a: [_ops.stack(list(ins[0]), a.get("axis", 0))], ["X*"],
              ["Y"]),
    "split": (_split, ["X", "AxisTensor", "SectionsTensorList*"], ["Out*"]),
    "slice": (_slice, ["Input", "StartsTensor", "EndsTensor", "StartsTensorList*",
                       "EndsTensorList*"], ["Out"]),
    "cast": (_cast, ["X"], ["Out"]),
    "assign": (lambda layer, ins, a: [ins[0]], ["X"], ["Out"]),
    "scale": (_scale, ["X", "ScaleTensor"], ["Out"]),
    "fill_constant": (_fill_constant, ["ValueTensor?", "ShapeTensor", "ShapeTensorList*"],
                      ["Out"]),
    "reduce_mean": (_reduce(_ops.mean), ["X"], ["Out"]),
    "reduce_sum": (_reduce(_ops.sum), ["X"], ["Out"]),
    "reduce_max": (_reduce(_ops.max), ["X"], ["Out"]),
    "reduce_min": (_reduce(_ops.min), ["X"], ["Out"]),
    "mean": (lambda layer, ins, a: [_ops.mean(ins[0])], ["X"], ["Out"]),
    "sum": (lambda layer, ins, a: [_ops.add_n(list(ins[0]))], ["X*"], ["Out"]),
    "arg_max": (_arg_max(_ops.argmax), ["X"], ["Out"]),
    "arg_min": (_arg_max(_ops.argmin), ["X"], ["Out"]),
    "conv2d": (_conv2d, ["Input", "Filter"], ["Output"]),
    "depthwise_conv2d": (_conv2d, ["Input", "Filter"], ["Output"]),
    "pool2d": (_pool2d, ["X"], ["Out"]),
    "batch_norm": (_fluid_batch_norm, ["X", "Mean", "Variance", "Scale", "Bias"],
                   ["Y", "MeanOut", "VarianceOut", "SavedMean", "SavedVariance"]),
    "layer_norm": (_layer_norm, ["X", "Scale", "Bias"], ["Y", "Mean", "Variance"]),
    "dropout": (_dropout, ["X"], ["Out", "Mask"]),
    "matrix_rank": (_matrix_rank, ["X", "TolTensor"], ["Out"]),
    "maxout": (lambda layer, ins, a: [F.maxout(ins[0], a["groups"], a["axis"])], ["X"],
               ["Out"]),
    "multi_dot": (lambda layer, ins, a: [_linalg.multi_dot(ins[0])], ["X*"], ["Out"]),
    "one_hot_v2": (_one_hot_v2, ["X", "depth_tensor"], ["Out"]),
    "pixel_shuffle": (lambda layer, ins, a: [F.pixel_shuffle(ins[0], a["upscale_factor"],
                                                             a["data_format"])], ["X"], ["Out"]),
    "qr": (_qr, ["X"], ["Q", "R"]),
    "rrelu": (_rrelu, ["X"], ["Out", "Noise"]),
    "selu": (lambda layer, ins, a: [F.selu(ins[0], a["scale"], a["alpha"])], ["X"], ["Out"]),
    "triangular_solve": (_triangular_solve, ["X", "Y"], ["Out"]),
    # the slots in the order of the kernel's arguments (hsigmoid_loss: x, label, w, bias...)
    "hierarchical_sigmoid": (_hierarchical_sigmoid, ["X", "Label", "W", "Bias", "PathTable",
                                                     "PathCode"], ["Out", "PreOut", "W_Out"]),
    "matrix_nms": (_matrix_nms, ["BBoxes", "Scores"], ["Out", "Index", "RoisNum"]),
    "lookup_table_v2": (_lookup_table(False), ["Ids", "W"], ["Out"]),
    "lookup_table": (_lookup_table(True), ["Ids", "W"], ["Out"]),
    "shape": ("pd_op.shape", ["Input"], ["Out"]),
    "rnn": (_rnn, ["Input", "PreState*", "WeightList*", "SequenceLength"],
            ["Out", "State*", "Reserve", "DropoutState"]),
    "pixel_unshuffle": (lambda layer, ins, a: [F.pixel_unshuffle(
        ins[0], a["downscale_factor"], a["data_format"])], ["X"], ["Out"]),
    "prelu": (_prelu, ["X", "Alpha"], ["Out"]),
    "bce_loss": (lambda layer, ins, a: [F.binary_cross_entropy(ins[0], ins[1], reduction="none")],
                 ["X", "Label"], ["Out"]),
    "conv2d_transpose": (_conv2d_transpose, ["Input", "Filter", "Bias"], ["Output"]),
    "determinant": (lambda layer, ins, a: [_linalg.det(ins[0])], ["Input"], ["Out"]),
    "eigh": (lambda layer, ins, a: list(_linalg.eigh(ins[0], a["UPLO"])), ["X"],
             ["Eigenvalues", "Eigenvectors"]),
    "gumbel_softmax": (lambda layer, ins, a: [F.gumbel_softmax(ins[0], a["temperature"],
                                                               a["hard"], a["axis"])],
                       ["X"], ["Out"]),
    "lu": (lambda layer, ins, a: list(_linalg.lu(ins[0], a["pivots"], get_infos=True)), ["X"],
           ["Out", "Pivots", "Infos"]),
    "slogdeterminant": (lambda layer, ins, a: [_linalg.slogdet(ins[0])], ["Input"], ["Out"]),
    "quantize_linear": (_quantize_linear, ["X", "Scale", "ZeroPoint"], ["Y"]),
    "solve": (lambda layer, ins, a: [_linalg.solve(ins[0], ins[1])], ["X", "Y"], ["Out"]),
    "unfold": (lambda layer, ins, a: [F.unfold(ins[0], a["kernel_sizes"], a["strides"],
                                               a["paddings"], a["dilations"])], ["X"], ["Y"]),
    "dequantize_linear": (_dequantize_linear, ["X", "Scale", "ZeroPoint"], ["Y"]),
}
_CONTROL_FLOW = ("conditional_block", "while", "select_input", "select_output", "recurrent")


def program_to_ops(blocks, path):
    """The ops of block 0 as ``translated._Op`` objects over single-assignment value ids, and
    the parameters: a list of ``(name, dtype name, dims)`` in the order of their names."""
    variables, desc_ops = blocks[0]
    ids, next_id = {}, [1]
    out_ops, params = [], []

    def new_value(name):
        ids[name] = next_id[0]
        next_id[0] += 1
        return ids[name]

    def value(name, k, op_type):
        if name not in ids:
            raise ModelFileError(f"{path}: op {k} ({op_type}) uses variable {name!r}, which no "
                                 "earlier op defines")
        return ids[name]

    def var_type(name):
        v = variables.get(name)
        if v is None or v.dtype is None:
            return None
        return _dtype_name(v.dtype, f"{path}: variable {name!r}"), list(v.dims)

    def emit(name, inputs, outputs, attrs, types=None):
        op = _Op()
        op.name, op.inputs, op.outputs, op.attrs = name, inputs, outputs, attrs
        op.types = types or [None] * len(outputs)
        out_ops.append(op)

    # the parameters: persistable dense tensors other than the feed/fetch lists
    used, written = set(), set()
    for op in desc_ops:
        for names in op.inputs.values():
            used.update(names)
        for names in op.outputs.values():
            written.update(names)
    # a weight a dequantize_linear reads is stored int8 though declared float (QuantWeightPass)
    int8 = {n for op in desc_ops if op.type == "dequantize_linear"
            for n in op.inputs.get("X", []) if getattr(variables.get(n), "persistable", False)}
    for name in sorted(variables):
        v = variables[name]
        if v.persistable and v.kind == _DENSE_TENSOR and name in used:
            t = var_type(name)
            if t is None:
                raise ModelFileError(f"{path}: parameter {name!r} has no tensor type")
            if name in int8:
                t = ("int8", t[1])
            params.append((name, t[0], t[1]))
            emit("parameter", [], [new_value(name)],
                 # what an op updates (batch norm's running statistics) is a buffer
                 {"parameter_name": name, "stop_gradient": name in written}, [t])

    feeds = []
    for k, op in enumerate(desc_ops):
        where = f"{path}: op {k} ({op.type})"
        if op.type == "feed":
            out = op.outputs.get("Out", [])
            if len(out) != 1:
                raise ModelFileError(f"{where}: a feed op with {len(out)} outputs")
            feeds.append((op.attrs.get("col", len(feeds)), out[0], new_value(out[0])))
            continue
        if op.type == "fetch":
            src = op.inputs.get("X", [])
            if len(src) != 1:
                raise ModelFileError(f"{where}: a fetch op with {len(src)} inputs")
            emit("pd_op.fetch", [value(src[0], k, op.type)], [],
                 {"col": op.attrs.get("col", 0), "name": src[0]})
            continue
        if op.type in _CONTROL_FLOW or op.type not in FLUID_OPS:
            raise NotImplementedError(f"{path}: the program uses op {op.type!r}, which "
                                      "paddle_compat cannot translate from a Paddle 2.x "
                                      "ProgramDesc yet")
        handler, in_slots, out_slots = FLUID_OPS[op.type]
        inputs = []
        for slot in in_slots:
            names = op.inputs.get(slot.rstrip("*?"), [])
            if slot.rstrip("?").endswith("*"):
                if not names:
                    inputs.append(0)
                    continue
                combined = new_value(f"\0combine{k}{slot}")
                emit("builtin.combine", [value(n, k, op.type) for n in names], [combined], {})
                inputs.append(combined)
            elif not names:
                inputs.append(0)
            elif len(names) != 1:
                raise ModelFileError(f"{where}: slot {slot} holds {len(names)} variables")
            else:
                inputs.append(value(names[0], k, op.type))
        while inputs and inputs[-1] == 0:
            inputs.pop()
        attrs = op.attrs
        name = handler if isinstance(handler, str) else "fluid." + op.type
        if op.type == "matmul_v2":
            attrs = {"transpose_x": attrs.get("trans_x", False),
                     "transpose_y": attrs.get("trans_y", False)}
        elif op.type in ("elementwise_add", "elementwise_sub", "elementwise_mul",
                         "elementwise_div") and _plain_broadcast(op, variables):
            name = "pd_op." + {"elementwise_add": "add", "elementwise_sub": "subtract",
                               "elementwise_mul": "multiply",
                               "elementwise_div": "divide"}[op.type]
        outputs, types = [], []
        for slot in out_slots:
            for n in op.outputs.get(slot.rstrip("*"), []) or ([None] if not slot.endswith("*")
                                                              else []):
                outputs.append(new_value(n) if n is not None else new_value(f"\0unused{k}"))
                types.append(var_type(n) if n is not None else None)
        emit(name, inputs, outputs, attrs, types)
    # the inputs, in the order of their feed columns, before everything else
    datas = []
    for col, name, vid in sorted(feeds):
        op = _Op()
        op.name, op.inputs, op.outputs = "pd_op.data", [], [vid]
        op.attrs, op.types = {"name": name}, [var_type(name)]
        datas.append(op)
    return datas + out_ops, params


def _plain_broadcast(op, variables):
    """Whether a fluid elementwise op broadcasts as numpy does (axis -1, or Y aligned with X's
    trailing dims), known from the variables' declared ranks."""
    axis = op.attrs.get("axis", -1)
    if axis == -1:
        return True
    x = variables.get(op.inputs.get("X", [None])[0])
    y = variables.get(op.inputs.get("Y", [None])[0])
    if x is None or y is None or x.dims is None or y.dims is None:
        return False
    return len(x.dims) == len(y.dims) or axis == len(x.dims) - len(y.dims)


# the one op-type registry (static.fluid_ops) takes this table; reading uses the merged one
FLUID_OPS = _fluid_ops.register(FLUID_OPS, pir={
    "pd_op.matmul": lambda layer, ins, a: [_ops.matmul(ins[0], ins[1], a.get("trans_x", False),
                                                       a.get("trans_y", False))],
    "pd_op.shape": _tr._OPS["pd_op.shape"]},
    all_inputs=("label_smooth",))        # its kernel takes PriorDist (None when not given)
HANDLERS = {"fluid." + k: h for k, (h, _, _) in FLUID_OPS.items() if not isinstance(h, str)}


def load_program_desc(model_file, params_file):
    """(ops, parameter arrays by name) of a Paddle 2.x model: the ``.pdmodel`` and its
    ``.pdiparams`` (the parameters in the order of their names)."""
    ops, params = program_to_ops(read_program_desc(model_file), model_file)
    arrays = read_pdiparams(params_file, len(params)) if params else []
    return ops, dict(zip([p[0] for p in params], arrays))


_READERS[".pdmodel"] = lambda model_file, params_file: (
    *load_program_desc(model_file, params_file), HANDLERS)
