"""``paddle.jit.load``: run a model saved by Paddle 3.x's ``paddle.jit.save``.

What Paddle 3.x writes for ``paddle.jit.save(layer, "path/model", input_spec=...)``:

* ``model.json``: the PIR program as JSON. ``{"base_code": {"magic": "pir", "version": N,
  "trainable": bool}, "program": {"regions": [{"blocks": [{"ops": [...]}]}]}}``. Each op is a
  dict: ``"#"`` its name as ``"<dialect>.<op>"`` (``1.`` is Paddle's op dialect ``pd_op``,
  ``0.`` the builtin one; a parameter is the bare name ``"p"``), ``"A"`` its attributes
  (``[{"N": name, "AT": {"#": type, "D": value}}]``; for a parameter ``[.., .., .., name]``),
  ``"I"`` its inputs (``[{"%": value id}]``, id 0: no input), ``"O"`` its outputs (value ids
  with their types: ``{"#": "0.t_dtensor", "D": [{"#": "0.t_f32"}, dims, layout, lod, off]}``).
  ``pd_op.data`` ops are the inputs in order, ``pd_op.fetch`` ops the outputs (attribute ``col``).
* ``model.pdiparams``: the parameters, one after the other in the order of their names
  (sorted), each as Paddle's LoDTensor stream: ``uint32`` version (0), ``uint64`` LoD level
  count and per level a ``uint64`` byte size and that many bytes, ``uint32`` tensor version (0),
  ``int32`` size of a ``TensorDesc`` protobuf message (field 1: the data type as a varint,
  field 2: the dims as int64 varints), then the raw little-endian data.

The program is read with ``json`` and the parameters with ``struct`` and a small protobuf
varint reader; nothing in a file is executed. Every op maps onto the op functions users call
(``paddle_compat.ops`` and ``nn.functional``); an op without a mapping raises
NotImplementedError naming it. Constants (``full``, ``full_int_array``) are made once at load;
shape arithmetic (``shape64`` -> ``slice`` -> ``stack`` -> ``reshape``) stays in Python ints;
``matmul`` + ``add`` of a 1-D parameter (what ``nn.Linear`` saves) runs as one ``F.linear``,
``conv2d`` + ``add`` of a reshaped 1-D parameter (``nn.Conv2D``'s bias) as one ``F.conv2d``.
A file that is truncated, has bytes left over, disagrees with its program (a parameter's dtype
or shape), uses a value no earlier op defines, or lacks an attribute raises ``ModelFileError``
(a ValueError) naming the file.

Running: the op list is compiled at load into one generated Python function (``_Codegen``;
``layer._source`` shows it): values live in local variables, ops whose inputs are known to be
Tensors call the op function directly with their constant arguments bound (``x @ w``,
``F.linear(x, w, b)``, ``functools.partial(F.max_pool2d, ...)``, ``v[0]`` for a slice that
picks one row ...), the rest go through the op's general step (the handler, with the host-array
rules). ``_interpret`` runs the same list one op at a time; the tests compare the two.

Control flow: ``pd_op.if`` (two regions, the branches) and ``pd_op.while`` (one region, its
block arguments the loop variables, its ``cf.yield`` the next condition and variables) are read
with their sub-blocks; the values a block reads from the enclosing ones become extra inputs of
the op; the blocks run one op at a time (``_SubBlock``), branching on the condition's value.
``to_static`` of such a model cannot trace the branch on a value and runs it eagerly.

Paddle 2.x files (a protobuf ``ProgramDesc`` in ``.pdmodel``) are read by ``program_desc.py``,
which registers its reader in ``_READERS`` and turns fluid ops into this same op list.

Measured (bench/bench_model_files.py, CPU thread time, 1 thread, a shared 2-core machine, so
+-15%): forward of the loaded model / the same network written in our nn: MLP 0.72, small CNN
0.91, transformer block 0.99, embedding model 0.98 (the per-op interpreter gave 1.18, 1.31,
1.48, 1.34 in the same run setup). bench/bench_model_compiled.py: ``torch.compile`` of the
loaded model's to_static graph / real Paddle 3.3.1's predictor, process CPU time, one thread:
0.15-0.81 over the six fixtures.
"""
import builtins
import functools
import json
import os
import re

import numpy as np
import torch

from .. import ops as _ops
from ..framework.dtype import convert_dtype
from ..framework.lodtensor import ModelFileError, read_pdiparams
from ..framework.parameter import make_parameter, unique_name
from ..framework.tensor import Tensor, wrap
from ..nn import Layer
from ..nn import functional as F

__all__ = ["TranslatedLayer", "load", "read_pdiparams", "read_pir_program"]

# PIR's type names of element types
_PIR_DTYPE = {"0.t_f32": "float32", "0.t_f64": "float64", "0.t_f16": "float16",
              "0.t_bf16": "bfloat16", "0.t_i64": "int64", "0.t_i32": "int32", "0.t_i16": "int16",
              "0.t_i8": "int8", "0.t_ui8": "uint8", "0.t_bool": "bool", "0.t_c64": "complex64",
              "0.t_c128": "complex128"}
_DIALECTS = {"0": "builtin", "1": "pd_op", "2": "cf"}
_DTYPE_OF = {n: convert_dtype(n) for n in set(_PIR_DTYPE.values())}
_MAX_DIMS = 16


# ---------------------------------------------------------------------------- the PIR program
def _attr_value(at, where):
    if not isinstance(at, dict) or "#" not in at:
        raise ModelFileError(f"{where}: an attribute is not a typed value: {at!r:.80}")
    kind, d = at["#"], at.get("D")
    if kind == "0.a_array":
        if not isinstance(d, list):
            raise ModelFileError(f"{where}: an array attribute holds {type(d).__name__}")
        return [_attr_value(v, where) for v in d]
    if kind in ("0.a_bool",):
        return bool(d)
    if kind in ("0.a_i32", "0.a_i64", "0.a_index"):
        if isinstance(d, bool) or not isinstance(d, int):
            raise ModelFileError(f"{where}: an integer attribute holds {d!r:.40}")
        return d
    if kind in ("0.a_f32", "0.a_f64"):
        if isinstance(d, str):           # non-finite values are written as text
            return float(d)
        if isinstance(d, bool) or not isinstance(d, (int, float)):
            raise ModelFileError(f"{where}: a float attribute holds {d!r:.40}")
        return float(d)
    if kind == "1.a_intarray":
        if not isinstance(d, list) or not all(isinstance(v, int) for v in d):
            raise ModelFileError(f"{where}: an int array attribute holds {d!r:.40}")
        return list(d)
    if kind in ("0.a_str", "1.a_dtype", "1.a_datalayout"):
        if not isinstance(d, str):
            raise ModelFileError(f"{where}: a text attribute holds {d!r:.40}")
        return d
    if kind == "1.a_place":
        return d
    raise NotImplementedError(f"{where}: attribute type {kind!r} is not supported")


def _value_type(tt, where):
    """(dtype, dims) of an output's type, or None for a list type."""
    if not isinstance(tt, dict):
        return None
    if tt.get("#") == "0.t_dtensor":
        d = tt.get("D")
        if not isinstance(d, list) or len(d) < 2 or not isinstance(d[1], list):
            raise ModelFileError(f"{where}: a malformed tensor type")
        dt = _PIR_DTYPE.get(d[0].get("#") if isinstance(d[0], dict) else None)
        dims = d[1]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= -1 for v in dims) \
                or len(dims) > _MAX_DIMS:
            raise ModelFileError(f"{where}: invalid dims {dims!r:.60}")
        return dt, dims
    return None


class _Op:
    __slots__ = ("name", "attrs", "inputs", "outputs", "types", "blocks")


def read_pir_program(path):
    """The ops of a PIR JSON program file as a list of ``_Op`` (name like ``pd_op.matmul``,
    attrs dict, input value ids, output value ids, output types)."""
    try:
        with open(path, "rb") as f:
            doc = json.loads(f.read().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise ModelFileError(f"{path}: not a PIR JSON program ({e})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("base_code"), dict) or \
            doc["base_code"].get("magic") != "pir":
        raise ModelFileError(f"{path}: not a PIR JSON program (no base_code.magic 'pir')")
    try:
        regions = doc["program"]["regions"]
        blocks = regions[0]["blocks"]
        raw_ops = blocks[0]["ops"]
    except (KeyError, IndexError, TypeError):
        raise ModelFileError(f"{path}: the program has no region/block/ops") from None
    if len(regions) != 1 or len(blocks) != 1:
        raise NotImplementedError(f"{path}: programs with several regions or blocks are not "
                                  "supported yet")
    return _parse_ops(raw_ops, path, 0)


def _parse_block(region, path, depth):
    """(argument ids, ops) of a control-flow op's region (``pd_op.if``: one per branch,
    ``pd_op.while``: the body, its arguments the loop variables)."""
    if depth > 64:
        raise ModelFileError(f"{path}: control flow nested more than 64 deep")
    try:
        blocks = region["blocks"]
        block = blocks[0]
        raw_ops, args = block["ops"], block.get("args", [])
    except (KeyError, IndexError, TypeError):
        raise ModelFileError(f"{path}: a region without a block of ops") from None
    if len(blocks) != 1:
        raise NotImplementedError(f"{path}: a region with several blocks is not supported")
    if not isinstance(args, list) or not all(isinstance(a, dict) and isinstance(a.get("#"), int)
                                             for a in args):
        raise ModelFileError(f"{path}: a block with malformed arguments")
    return [a["#"] for a in args], _parse_ops(raw_ops, path, depth + 1)


def _parse_ops(raw_ops, path, depth):
    if not isinstance(raw_ops, list):
        raise ModelFileError(f"{path}: a block's ops are not a list")
    ops = []
    for k, o in enumerate(raw_ops):
        if not isinstance(o, dict) or not isinstance(o.get("#"), str):
            raise ModelFileError(f"{path}: op {k} is malformed")
        op = _Op()
        regions = o.get("regions", [])
        if not isinstance(regions, list):
            raise ModelFileError(f"{path}: op {k} has malformed regions")
        op.blocks = [_parse_block(r, path, depth) for r in regions]
        where = f"{path}: op {k} ({o['#']})"
        outs = o.get("O", [])
        outs = [outs] if isinstance(outs, dict) else outs
        if not isinstance(outs, list) or not all(isinstance(v, dict) and isinstance(
                v.get("%"), int) for v in outs):
            raise ModelFileError(f"{where}: malformed outputs")
        op.outputs = [v["%"] for v in outs]
        op.types = [_value_type(v.get("TT"), where) for v in outs]
        if o["#"] == "p":
            a = o.get("A")
            if not isinstance(a, list) or not a or not isinstance(a[-1], str) or len(outs) != 1:
                raise ModelFileError(f"{where}: malformed parameter")
            oa = o.get("OA")
            op.name = "parameter"
            # OA: [persistable, stop_gradient, trainable]. A parameter that is not persistable
            # (nn.LSTM/GRU/SimpleRNN's dropout state, "..._non_persistable") is a runtime
            # buffer: Paddle does not write it into the .pdiparams
            op.attrs = {"parameter_name": a[-1],
                        "stop_gradient": bool(oa[1]) if isinstance(oa, list) and len(oa) > 1
                        else False,
                        "persistable": bool(oa[0]) if isinstance(oa, list) and oa else True}
            op.inputs = []
            if op.types[0] is None:
                raise ModelFileError(f"{where}: a parameter without a tensor type")
        else:
            dialect, _, short = o["#"].partition(".")
            if dialect not in _DIALECTS or not short:
                raise NotImplementedError(f"{where}: ops of dialect {dialect!r} are not supported")
            op.name = f"{_DIALECTS[dialect]}.{short}"
            ins = o.get("I", [])
            if not isinstance(ins, list) or not all(isinstance(v, dict) and isinstance(
                    v.get("%"), int) for v in ins):
                raise ModelFileError(f"{where}: malformed inputs")
            op.inputs = [v["%"] for v in ins]
            attrs = {}
            for a in o.get("A", []):
                if not isinstance(a, dict) or not isinstance(a.get("N"), str):
                    raise ModelFileError(f"{where}: a malformed attribute")
                attrs[a["N"]] = _attr_value(a.get("AT"), where)
            op.attrs = attrs
        ops.append(op)
    return ops


# ---------------------------------------------------------------------------- op mappings
class _Host(tuple):
    """An int array kept on the host: a shape, axes or sizes (what pd_op.full_int_array and
    pd_op.shape64 make, and slice/stack of those); ``dims`` is its shape ((): one int)."""
    __slots__ = ()
    dims = None

    @staticmethod
    def make(values, dims):
        h = _Host(values)
        if dims != (len(h),):
            h = _HostNd(values)
            h.dims = tuple(dims)
        return h

    def tensor(self):
        return _ops.to_tensor(np.asarray(self, dtype=np.int64).reshape(self.shape))

    @property
    def shape(self):
        return (len(self),)


class _HostNd(_Host):
    dims = ()

    @property
    def shape(self):
        return self.dims


def _ints(v):
    """An int list from an int-array value: a host array, a Tensor, a list of them."""
    if isinstance(v, _Host):
        return list(v)
    if isinstance(v, Tensor):
        return [int(i) for i in np.asarray(v.numpy()).reshape(-1)]
    if isinstance(v, np.ndarray):
        return v.reshape(-1).tolist()
    if isinstance(v, (list, tuple)):
        out = []
        for e in v:
            out.extend(_ints(e) if isinstance(e, (Tensor, list, tuple)) else [int(e)])
        return out
    return [int(v)]


def _scalar(v):
    if isinstance(v, _Host):
        return float(v[0])
    return float(v.item()) if isinstance(v, Tensor) else float(v)


def pool2d(x, kernel, a, fmt, op="pd_op.pool2d"):
    """Paddle's pool2d op (both program formats: attributes ``a``) on the functional ops."""
    ptype = a.get("pooling_type", "max")
    if a.get("adaptive"):
        if ptype == "max":
            return [F.adaptive_max_pool2d(x, kernel)]
        return [F.adaptive_avg_pool2d(x, kernel, data_format=fmt)]
    if a.get("global_pooling"):
        kernel = list(x.shape[2:4]) if fmt == "NCHW" else list(x.shape[1:3])
        padding = 0
    else:
        alg = a.get("padding_algorithm", "EXPLICIT")
        padding = alg if alg in ("SAME", "VALID") else a.get("paddings", [0, 0])
    stride = a.get("strides", kernel)
    if ptype == "max":
        return [F.max_pool2d(x, kernel, stride, padding, ceil_mode=a.get("ceil_mode", False),
                             data_format=fmt)]
    if ptype == "avg":
        return [F.avg_pool2d(x, kernel, stride, padding, ceil_mode=a.get("ceil_mode", False),
                             exclusive=a.get("exclusive", True), data_format=fmt)]
    raise NotImplementedError(f"{op} with pooling_type {ptype!r}")


def _pool2d(layer, ins, a):
    return pool2d(ins[0], _ints(ins[1]), a, a.get("data_format", "NCHW"))


def _max_pool2d_with_index(layer, ins, a):
    x, kernel = ins[0], a["kernel_size"]
    if a.get("adaptive"):
        out, mask = F.adaptive_max_pool2d(x, kernel, return_mask=True)
    else:
        if a.get("global_pooling"):
            kernel = list(x.shape[2:4])
        out, mask = F.max_pool2d(x, kernel, a.get("strides", kernel), a.get("paddings", 0),
                                 return_mask=True, ceil_mode=a.get("ceil_mode", False))
    return [out, mask]


def _conv2d(layer, ins, a):
    alg = a.get("padding_algorithm", "EXPLICIT")
    padding = alg if alg in ("SAME", "VALID") else a.get("paddings", [0, 0])
    return [F.conv2d(ins[0], ins[1], None, a.get("strides", [1, 1]), padding,
                     a.get("dilations", [1, 1]), a.get("groups", 1),
                     a.get("data_format", "NCHW"))]


def _batch_norm(layer, ins, a):
    x, mean, var, weight, bias = ins[:5]
    training = not (a.get("is_test", True) or a.get("use_global_stats", False)) and layer.training
    out = F.batch_norm(x, mean, var, weight, bias, training=training,
                       momentum=a.get("momentum", 0.9), epsilon=a.get("epsilon", 1e-5),
                       data_format=a.get("data_format", "NCHW"))
    return [out, mean, var, None, None, None]


def _layer_norm(layer, ins, a):
    x, weight, bias = ins[:3]
    begin = a.get("begin_norm_axis", 1)
    return [F.layer_norm(x, list(x.shape[begin:]), weight, bias, a.get("epsilon", 1e-5)),
            None, None]


def _dropout(layer, ins, a):
    x, p = ins[0], (_scalar(ins[2]) if len(ins) > 2 and ins[2] is not None else 0.5)
    upscale = a.get("mode", "upscale_in_train") == "upscale_in_train"  # else downgrade_in_infer
    if a.get("is_test", True) or not layer.training:
        return [x if upscale else _ops.scale(x, 1.0 - p), None]
    return [F.dropout(x, p, training=True,
                      mode="upscale_in_train" if upscale else "downscale_in_infer"), None]


def _embedding(layer, ins, a):
    pad = a.get("padding_idx", -1)
    return [F.embedding(ins[0], ins[1], padding_idx=None if pad < 0 else pad)]


def _slice(layer, ins, a):
    x = ins[0]
    if isinstance(x, _Host) and len(x.shape) == 1:     # a shape computed on the host
        b, e = _ints(ins[1]), _ints(ins[2])
        if a["axes"] != [0] or len(b) != 1:
            raise NotImplementedError("pd_op.slice of a shape on several axes")
        part = x[builtins.slice(b[0], e[0])]
        if a.get("decrease_axis"):
            return [_HostNd.make(part, ())]
        return [_Host.make(part, (len(part),))]
    out = _ops.slice(x, a["axes"], _ints(ins[1]), _ints(ins[2]))
    dec = a.get("decrease_axis", [])
    if dec:
        out = _ops.squeeze(out, dec)
    return [out]


def _scale(layer, ins, a):
    s = _scalar(ins[1]) if len(ins) > 1 and ins[1] is not None else a.get("scale", 1.0)
    return [_ops.scale(ins[0], s, a.get("bias", 0.0), a.get("bias_after_scale", True))]


def _full(layer, ins, a):
    dt, shape = a.get("dtype", "float32"), a.get("shape", [])
    if dt in ("int64", "int32") and len(shape) <= 1 and (not shape or shape[0] == 1):
        v = a["value"]
        if v == int(v):          # an integer scalar: a size or an axis, kept on the host
            return [_Host.make([int(v)], tuple(shape))]
    return [_ops.full(shape, a["value"], dt)]


# Int arrays that only describe shapes, axes and sizes (pd_op.full_int_array, pd_op.shape64
# and what slice/stack make of them) stay on the host as numpy arrays: no Tensor per call.
def _full_int_array(layer, ins, a):
    v = [int(i) for i in a.get("value", [])]
    return [_Host.make(v, (len(v),))]


def _shape(dtype):
    def run(layer, ins, a):
        return [_Host.make(ins[0].shape, (len(ins[0].shape),))]
    return run


def _stack(layer, ins, a):
    xs = list(ins[0])
    if any(isinstance(v, _Host) for v in xs):
        if all(isinstance(v, _Host) and v.shape == () for v in xs) and a.get("axis", 0) == 0:
            vals = [v[0] for v in xs]
            return [_Host.make(vals, (len(vals),))]
        xs = [v.tensor() if isinstance(v, _Host) else v for v in xs]
    return [_ops.stack(xs, a.get("axis", 0))]


def _reduce(fn):
    def run(layer, ins, a):
        axis = _ints(ins[1]) if len(ins) > 1 else a.get("axis", [])
        out = fn(ins[0], axis=axis or None, keepdim=a.get("keepdim", False))
        dt = a.get("dtype")
        if isinstance(dt, str) and not dt.startswith("Undefined") and \
                str(out.dtype) != "paddle." + dt:
            out = _ops.cast(out, dt)
        return [out]
    return run


def rnn(layer, x, states, weights, a):
    """Paddle's fused ``rnn`` op (``nn.LSTM`` / ``nn.GRU`` / ``nn.SimpleRNN``, both program
    formats) on torch's fused kernels, which use the same gate order: time-major ``x``, the
    weight list as all input/hidden weights then all biases, per layer and direction.
    Returns (out, the final states: [h, c] for LSTM, else [h])."""
    mode, layers = a.get("mode", "LSTM"), a.get("num_layers", 1)
    bidirec = a.get("is_bidirec", False)
    n = len(weights) // 2
    ws, bs = weights[:n], weights[n:]
    flat = []
    for k in range(n // 2):
        flat += [ws[2 * k]._t, ws[2 * k + 1]._t, bs[2 * k]._t, bs[2 * k + 1]._t]
    train = layer.training and not a.get("is_test", False)
    p = a.get("dropout_prob", 0.0)
    if mode == "LSTM":
        out, h, c = torch.lstm(x._t, (states[0]._t, states[1]._t), flat, True, layers, p, train,
                               bidirec, False)
        return wrap(out), [wrap(h), wrap(c)]
    if mode == "GRU":
        out, h = torch.gru(x._t, states[0]._t, flat, True, layers, p, train, bidirec, False)
    elif mode in ("RNN_TANH", "RNN_RELU"):
        fn = torch.rnn_tanh if mode == "RNN_TANH" else torch.rnn_relu
        out, h = fn(x._t, states[0]._t, flat, True, layers, p, train, bidirec, False)
    else:
        raise NotImplementedError(f"rnn with mode {mode!r}")
    return wrap(out), [wrap(h)]


def _pir_rnn(layer, ins, a):
    """pd_op.rnn: inputs x, the initial states, the weights, sequence lengths (none: %0),
    the dropout state; outputs out, the dropout state, the final states (a list), reserve."""
    if len(ins) > 3 and ins[3] is not None:
        raise NotImplementedError("pd_op.rnn with sequence lengths")
    out, states = rnn(layer, ins[0], list(ins[1]), list(ins[2]), a)
    return [out, None, states, None]


def _full_with_tensor(layer, ins, a):
    """pd_op.full_with_tensor(value, shape): what nn.RNN's zero initial states are made by."""
    return [_ops.full(_ints(ins[1]), _scalar(ins[0]), a.get("dtype", "float32"))]


def _unary(fn):
    return lambda layer, ins, a: [fn(ins[0])]


def _binary(fn):
    return lambda layer, ins, a: [fn(ins[0], ins[1])]


_OPS = {
    "pd_op.matmul": lambda layer, ins, a: [_ops.matmul(ins[0], ins[1], a.get("transpose_x", False),
                                                       a.get("transpose_y", False))],
    "pd_op.add": _binary(_ops.add),
    "pd_op.subtract": _binary(_ops.subtract),
    "pd_op.multiply": _binary(_ops.multiply),
    "pd_op.divide": _binary(_ops.divide),
    "pd_op.maximum": _binary(_ops.maximum),
    "pd_op.minimum": _binary(_ops.minimum),
    "pd_op.elementwise_pow": _binary(_ops.pow),
    "pd_op.pow": lambda layer, ins, a: [_ops.pow(ins[0], a.get("y", 1.0))],
    "pd_op.greater_than": _binary(_ops.greater_than),
    "pd_op.greater_equal": _binary(_ops.greater_equal),
    "pd_op.less_than": _binary(_ops.less_than),
    "pd_op.less_equal": _binary(_ops.less_equal),
    "pd_op.equal": _binary(_ops.equal),
    "pd_op.not_equal": _binary(_ops.not_equal),
    "pd_op.relu": _unary(F.relu),
    "pd_op.relu6": _unary(F.relu6),
    "pd_op.hardtanh": lambda layer, ins, a: [F.hardtanh(ins[0], a.get("t_min", -1.0),
                                                        a.get("t_max", 1.0))],
    "pd_op.sigmoid": _unary(F.sigmoid),
    "pd_op.silu": _unary(F.silu),
    "pd_op.hardswish": _unary(F.hardswish),
    "pd_op.hardsigmoid": lambda layer, ins, a: [F.hardsigmoid(ins[0], a.get("slope", 0.1666667),
                                                              a.get("offset", 0.5))],
    "pd_op.tanh": _unary(_ops.tanh),
    "pd_op.exp": _unary(_ops.exp),
    "pd_op.sqrt": _unary(_ops.sqrt),
    "pd_op.rsqrt": _unary(_ops.rsqrt),
    "pd_op.abs": _unary(_ops.abs),
    "pd_op.gelu": lambda layer, ins, a: [F.gelu(ins[0], a.get("approximate", False))],
    "pd_op.leaky_relu": lambda layer, ins, a: [F.leaky_relu(ins[0], a.get("negative_slope", .01))],
    "pd_op.softmax": lambda layer, ins, a: [F.softmax(ins[0], a.get("axis", -1))],
    "pd_op.reshape": lambda layer, ins, a: [_ops.reshape(ins[0], _ints(ins[1])), None],
    "pd_op.transpose": lambda layer, ins, a: [_ops.transpose(ins[0], a["perm"])],
    "pd_op.flatten": lambda layer, ins, a: [_ops.flatten(ins[0], a.get("start_axis", 0),
                                                         a.get("stop_axis", -1)), None],
    "pd_op.squeeze": lambda layer, ins, a: [_ops.squeeze(ins[0], _ints(ins[1])), None],
    "pd_op.unsqueeze": lambda layer, ins, a: [_ops.unsqueeze(ins[0], _ints(ins[1])), None],
    "pd_op.stack": _stack,
    "pd_op.concat": lambda layer, ins, a: [_ops.concat(list(ins[0]), int(_ints(ins[1])[0]))],
    "pd_op.cast": lambda layer, ins, a: [_ops.cast(ins[0], a["dtype"])],
    "pd_op.assign": lambda layer, ins, a: [ins[0]],
    "pd_op.slice": _slice,
    "pd_op.scale": _scale,
    "pd_op.full": _full,
    "pd_op.full_int_array": _full_int_array,
    "pd_op.full_with_tensor": _full_with_tensor,
    "pd_op.rnn": _pir_rnn,
    "pd_op.shape": _shape("int32"),
    "pd_op.shape64": _shape("int64"),
    "pd_op.mean": _reduce(_ops.mean),
    "pd_op.sum": _reduce(_ops.sum),
    "pd_op.max": _reduce(_ops.max),
    "pd_op.min": _reduce(_ops.min),
    "pd_op.prod": _reduce(_ops.prod),
    "pd_op.conv2d": _conv2d,
    "pd_op.depthwise_conv2d": _conv2d,
    "pd_op.pool2d": _pool2d,
    "pd_op.max_pool2d_with_index": _max_pool2d_with_index,
    "pd_op.batch_norm": _batch_norm,
    "pd_op.batch_norm_": _batch_norm,
    "pd_op.layer_norm": _layer_norm,
    "pd_op.dropout": _dropout,
    "pd_op.embedding": _embedding,
    "builtin.combine": lambda layer, ins, a: [list(ins)],
    "builtin.split": lambda layer, ins, a: list(ins[0]),
}


_CONSTANT_OPS = ("pd_op.full", "pd_op.full_int_array")
# where an op takes a host int array: anywhere, or in its inputs after the first; elsewhere a
# host array is made a Tensor first
_HOST_ANY = frozenset(("pd_op.slice", "pd_op.stack", "builtin.combine", "pd_op.if",
                       "pd_op.while"))
_HOST_AFTER_FIRST = frozenset((
    "pd_op.reshape", "pd_op.mean", "pd_op.sum", "pd_op.max", "pd_op.min", "pd_op.prod",
    "pd_op.pool2d", "pd_op.squeeze",
    "pd_op.unsqueeze", "pd_op.concat", "pd_op.scale", "pd_op.dropout",
    "pd_op.full_with_tensor"))


def _linear(layer, ins, a):
    return [F.linear(ins[0], ins[1], ins[2])]


def _conv2d_bias(layer, ins, a):
    alg = a.get("padding_algorithm", "EXPLICIT")
    padding = alg if alg in ("SAME", "VALID") else a.get("paddings", [0, 0])
    return [F.conv2d(ins[0], ins[1], ins[2], a.get("strides", [1, 1]), padding,
                     a.get("dilations", [1, 1]), a.get("groups", 1), "NCHW")]


def _use_counts(program, fetches):
    uses = {}
    for entry in program:
        for i in entry[2]:
            uses[i] = uses.get(i, 0) + 1
    for _, v in fetches:
        uses[v] = uses.get(v, 0) + 1
    return uses


# ---------------------------------------------------------------------------- the compiler
# Ops whose results may be host int arrays (or lists of values): what reads them goes through
# the general step, which converts them as the op needs.
_HOST_MAKERS = frozenset(("pd_op.shape", "pd_op.shape64", "pd_op.slice", "pd_op.stack",
                          "builtin.combine", "pd_op.full", "pd_op.full_int_array"))
_UNARY = {"pd_op.relu": F.relu, "pd_op.relu6": F.relu6, "pd_op.sigmoid": F.sigmoid,
          "pd_op.silu": F.silu, "pd_op.hardswish": F.hardswish, "pd_op.tanh": _ops.tanh,
          "pd_op.exp": _ops.exp, "pd_op.sqrt": _ops.sqrt, "pd_op.rsqrt": _ops.rsqrt,
          "pd_op.abs": _ops.abs}
_OPERATORS = {"pd_op.add": "+", "pd_op.subtract": "-", "pd_op.multiply": "*",
              "pd_op.divide": "/"}
_BINARY = {"pd_op.maximum": _ops.maximum, "pd_op.minimum": _ops.minimum,
           "pd_op.greater_than": _ops.greater_than, "pd_op.greater_equal": _ops.greater_equal,
           "pd_op.less_than": _ops.less_than, "pd_op.less_equal": _ops.less_equal,
           "pd_op.equal": _ops.equal, "pd_op.not_equal": _ops.not_equal}


def _slice_const(x, axes, starts, ends, dec):
    out = _ops.slice(x, axes, starts, ends)
    return _ops.squeeze(out, dec) if dec else out


class _Codegen:
    """Turns a TranslatedLayer's op list into the source of one Python function
    ``run(layer, *inputs)``: one line per op, values in local variables, the op functions
    called directly with their constant arguments bound (``functools.partial``) where the
    op's inputs are known to be Tensors; every other op through its general step (the
    handler, with the host-array and missing-value rules of ``TranslatedLayer._interpret``).
    Parameters are read from ``layer._const`` once per call, so a copied layer runs on its own
    parameters."""

    def __init__(self, layer):
        self.layer = layer
        self.glob = {"_Missing": _Missing}
        self.kind = {}                # value id -> "t" (a Tensor) or "h" (maybe host / list)
        self.expr = {0: "None"}       # value id -> the Python expression of the value
        self.lines = []

    def g(self, obj):
        name = f"_g{len(self.glob)}"
        self.glob[name] = obj
        return name

    def const(self, vid):
        v = self.layer._const.get(vid, _Missing)
        return None if v is _Missing else v

    def direct(self, fn, name, ins, attrs, uses, outs):
        """The expression computing output 0 of one op, or None for the general step."""
        layer, a = self.layer, attrs
        if any(uses.get(o, 0) for o in outs[1:]):
            return None
        tensors = [self.kind.get(i) == "t" for i in ins]
        x = self.expr[ins[0]] if ins else None
        if name in _UNARY and tensors[0]:
            return f"{self.g(_UNARY[name])}({x})"
        if name in _OPERATORS and all(tensors):
            return f"({x} {_OPERATORS[name]} {self.expr[ins[1]]})"
        if name in _BINARY and all(tensors):
            return f"{self.g(_BINARY[name])}({x}, {self.expr[ins[1]]})"
        if name == "pd_op.matmul" and all(tensors):
            tx, ty = a.get("transpose_x", False), a.get("transpose_y", False)
            if not tx and not ty:
                return f"({x} @ {self.expr[ins[1]]})"
            return f"{self.g(_ops.matmul)}({x}, {self.expr[ins[1]]}, {tx!r}, {ty!r})"
        if name == "pd_op.matmul+add" and all(tensors):
            return f"{self.g(F.linear)}({x}, {self.expr[ins[1]]}, {self.expr[ins[2]]})"
        if name == "pd_op.conv2d+add" and all(tensors):
            alg = a.get("padding_algorithm", "EXPLICIT")
            pad = alg if alg in ("SAME", "VALID") else a.get("paddings", [0, 0])
            p = functools.partial(F.conv2d, stride=a.get("strides", [1, 1]), padding=pad,
                                  dilation=a.get("dilations", [1, 1]),
                                  groups=a.get("groups", 1))
            return f"{self.g(p)}({x}, {self.expr[ins[1]]}, {self.expr[ins[2]]})"
        if not ins or not tensors[0]:
            return None
        if name == "pd_op.softmax":
            return f"{self.g(F.softmax)}({x}, {a.get('axis', -1)!r})"
        if name == "pd_op.gelu":
            return f"{self.g(F.gelu)}({x}, {bool(a.get('approximate', False))!r})"
        if name == "pd_op.transpose":
            return f"{self.g(functools.partial(_ops.transpose, perm=list(a['perm'])))}({x})"
        if name == "pd_op.flatten":
            return f"{self.g(_ops.flatten)}({x}, {a.get('start_axis', 0)!r}, " \
                   f"{a.get('stop_axis', -1)!r})"
        if name in ("pd_op.reshape", "pd_op.squeeze", "pd_op.unsqueeze") and len(ins) == 2:
            op = {"pd_op.reshape": _ops.reshape, "pd_op.squeeze": _ops.squeeze,
                  "pd_op.unsqueeze": _ops.unsqueeze}[name]
            c = self.const(ins[1])
            if isinstance(c, _Host):
                return f"{self.g(op)}({x}, {list(c)!r})"
            if self.kind.get(ins[1]) == "h":
                return f"{self.g(op)}({x}, {self.g(_ints)}({self.expr[ins[1]]}))"
            return None
        if name == "pd_op.layer_norm" and all(tensors):
            begin = a.get("begin_norm_axis", 1)
            dims = layer._types.get(outs[0], (None, None))[1]
            shape = repr(list(dims[begin:])) if dims and all(d > 0 for d in dims[begin:]) \
                else f"{x}.shape[{begin}:]"
            w = self.expr[ins[1]] if len(ins) > 1 else "None"
            b = self.expr[ins[2]] if len(ins) > 2 else "None"
            return f"{self.g(F.layer_norm)}({x}, {shape}, {w}, {b}, {a.get('epsilon', 1e-5)!r})"
        if name == "pd_op.slice" and len(ins) == 3:
            b, e = self.const(ins[1]), self.const(ins[2])
            if not isinstance(b, _Host) or not isinstance(e, _Host):
                return None
            axes, b, e, dec = list(a["axes"]), list(b), list(e), list(a.get("decrease_axis", []))
            dims = layer._types.get(ins[0], (None, None))[1] if ins[0] in layer._types else None
            if axes == [0] and dec == [0] and e[0] == b[0] + 1 and b[0] >= 0 and dims and \
                    dims[0] > b[0]:
                return f"{x}[{b[0]}]"
            p = functools.partial(_slice_const, axes=axes, starts=b, ends=e, dec=dec)
            return f"{self.g(p)}({x})"
        if name == "pd_op.scale" and len(ins) == 1:
            s, bias, after = a.get("scale", 1.0), a.get("bias", 0.0), a.get("bias_after_scale",
                                                                            True)
            dt = layer._types.get(outs[0], (None,))[0]
            if dt in ("float32", "float64") and (after or bias == 0.0):
                if s == 1.0:
                    return f"({x} + {float(bias)!r})" if bias else x
                if bias == 0.0:
                    return f"({x} * {float(s)!r})"
            return f"{self.g(_ops.scale)}({x}, {float(s)!r}, {float(bias)!r}, {bool(after)!r})"
        if name == "pd_op.dropout" and a.get("is_test", True) and \
                a.get("mode", "upscale_in_train") == "upscale_in_train":
            return x
        if name == "pd_op.assign":
            return x
        if name in ("pd_op.batch_norm", "pd_op.batch_norm_") and all(tensors) and \
                (a.get("is_test", True) or a.get("use_global_stats", False)):
            p = functools.partial(F.batch_norm, training=False,
                                  momentum=a.get("momentum", 0.9),
                                  epsilon=a.get("epsilon", 1e-5),
                                  data_format=a.get("data_format", "NCHW"))
            mean, var, w, b = (self.expr[i] for i in ins[1:5])
            return f"{self.g(p)}({x}, {mean}, {var}, {w}, {b})"
        if name == "pd_op.pool2d" and len(ins) == 2 and isinstance(self.const(ins[1]), _Host) \
                and not a.get("global_pooling") and not a.get("adaptive"):
            kernel, ptype = list(self.const(ins[1])), a.get("pooling_type", "max")
            alg = a.get("padding_algorithm", "EXPLICIT")
            kw = dict(kernel_size=kernel, stride=a.get("strides", kernel),
                      padding=alg if alg in ("SAME", "VALID") else a.get("paddings", [0, 0]),
                      ceil_mode=a.get("ceil_mode", False),
                      data_format=a.get("data_format", "NCHW"))
            if ptype == "max":
                return f"{self.g(functools.partial(F.max_pool2d, **kw))}({x})"
            if ptype == "avg":
                kw["exclusive"] = a.get("exclusive", True)
                return f"{self.g(functools.partial(F.avg_pool2d, **kw))}({x})"
            return None
        if name == "pd_op.conv2d" or name == "pd_op.depthwise_conv2d":
            if not all(tensors):
                return None
            alg = a.get("padding_algorithm", "EXPLICIT")
            p = functools.partial(F.conv2d, bias=None, stride=a.get("strides", [1, 1]),
                                  padding=alg if alg in ("SAME", "VALID") else
                                  a.get("paddings", [0, 0]), dilation=a.get("dilations", [1, 1]),
                                  groups=a.get("groups", 1),
                                  data_format=a.get("data_format", "NCHW"))
            return f"{self.g(p)}({x}, {self.expr[ins[1]]})"
        if name in ("pd_op.mean", "pd_op.sum") and len(ins) == 2 and \
                isinstance(self.const(ins[1]), _Host) and not isinstance(a.get("dtype"), str):
            fn2 = _ops.mean if name == "pd_op.mean" else _ops.sum
            axis = list(self.const(ins[1])) or None
            p = functools.partial(fn2, axis=axis, keepdim=a.get("keepdim", False))
            return f"{self.g(p)}({x})"
        if name == "pd_op.embedding" and all(tensors):
            pad = a.get("padding_idx", -1)
            p = functools.partial(F.embedding, padding_idx=None if pad < 0 else pad)
            return f"{self.g(p)}({x}, {self.expr[ins[1]]})"
        return None

    def general(self, fn, name, ins, attrs, host, n_outs):
        """A step running one op as ``_interpret`` does: returns its outputs as a tuple."""
        path = self.layer._path

        def step(layer, *args):
            args = list(args)
            for k, v in enumerate(args):
                if isinstance(v, (_Host, _Missing)):
                    if isinstance(v, _Missing):
                        raise NotImplementedError(f"{name} uses {v.what}, which is not "
                                                  "computed")
                    if host is _HOST_ANY or (host and k > 0):
                        continue
                    args[k] = v.tensor()
            try:
                res = fn(layer, args, attrs)
            except KeyError as e:
                raise ModelFileError(f"{path}: {name} lacks its attribute {e}") from None
            return tuple(res[k] if k < len(res) and res[k] is not None else
                         _Missing(f"output {k} of {name}") for k in range(n_outs))
        return step

    def build(self):
        layer = self.layer
        uses = _use_counts(layer._program, layer._fetches)
        consts = sorted(v for v in layer._const if uses.get(v))
        for v in consts:
            self.expr[v] = f"c{v}"
            self.kind[v] = "h" if isinstance(layer._const[v], (_Host, list)) else "t"
        for vid, *_ in layer._feeds:
            self.expr[vid] = f"v{vid}"
            self.kind[vid] = "t"
        body = []
        for fn, name, ins, outs, attrs, host in layer._program:
            try:                               # a missing attribute: the general step says so
                e = self.direct(fn, name, ins, attrs, uses, outs) if name not in _HOST_MAKERS \
                    or (name == "pd_op.slice" and self.kind.get(ins[0]) == "t") else None
            except KeyError:
                e = None
            if e is not None:
                if not outs:
                    continue
                if e.isidentifier():           # an alias: no code
                    self.expr[outs[0]] = e
                else:
                    body.append(f"v{outs[0]} = {e}")
                    self.expr[outs[0]] = f"v{outs[0]}"
                self.kind[outs[0]] = "t"
                for o in outs[1:]:             # unused: a missing value
                    self.expr[o] = "None"
                    self.kind[o] = "h"
                continue
            step = self.g(self.general(fn, name, ins, attrs, host, len(outs)))
            args = "".join(f", {self.expr[i]}" for i in ins)
            targets = "".join(f"v{o}, " for o in outs) or "_"
            body.append(f"{targets} = {step}(layer{args})")
            for k, o in enumerate(outs):
                self.expr[o] = f"v{o}"
                self.kind[o] = "h" if name in _HOST_MAKERS or k > 0 else "t"
        res = [self.expr[v] for _, v in layer._fetches]
        body.append(f"return {res[0]}" if len(res) == 1 else f"return [{', '.join(res)}]")
        used = set(re.findall(r"\bc\d+\b", "\n".join(body)))
        consts = [v for v in consts if f"c{v}" in used]     # the rest were folded in
        if consts:
            body[:0] = ["c = layer._const"] + [f"c{v} = c[{v}]" for v in consts]
        params = "".join(f", v{f[0]}" for f in layer._feeds)
        src = f"def run(layer{params}):\n" + "".join(f"    {ln}\n" for ln in body)
        code = compile(src, f"<paddle_compat.jit.load {layer._path}>", "exec")
        ns = dict(self.glob)
        exec(code, ns)                         # our own generated source, never the file's
        return ns["run"], src


def _compile(layer):
    """(the function running ``layer``'s program, its source)."""
    return _Codegen(layer).build()

# ---------------------------------------------------------------------------- control flow
_CONTROL_FLOW = ("pd_op.if", "pd_op.while")


def _run_entries(layer, entries, env, path):
    """Run translated ops one at a time over ``env`` (value id -> value)."""
    for fn, name, ins, outs, attrs, host in entries:
        args = [env[i] for i in ins]
        for k, v in enumerate(args):
            if isinstance(v, (_Host, _Missing)):
                if isinstance(v, _Missing):
                    raise NotImplementedError(f"{name} uses {v.what}, which is not computed")
                if host is _HOST_ANY or (host and k > 0):
                    continue
                args[k] = v.tensor()
        try:
            res = fn(layer, args, attrs)
        except KeyError as e:
            raise ModelFileError(f"{path}: {name} lacks its attribute {e}") from None
        for k, o in enumerate(outs):
            env[o] = res[k] if k < len(res) and res[k] is not None else \
                _Missing(f"output {k} of {name}")


class _SubBlock:
    """One region of ``pd_op.if`` (a branch) or ``pd_op.while`` (the body): its ops translated
    as the program's are, run one at a time. ``args``: the block's argument ids (a loop's
    variables), ``free``: the values of enclosing blocks it reads (given to the control-flow
    op as extra inputs), ``yields``: the ids its ``cf.yield`` returns."""

    def __init__(self, args, ops, path, handlers):
        self.args, self.path, self.const, self.yields = list(args), path, {}, None
        defined, entries = set(args) | {0}, []
        self.free = []
        for k, op in enumerate(ops):
            where = f"{path}: op {k} of a {len(ops)}-op block ({op.name})"
            cf = _control_flow(op, path, handlers) if op.name in _CONTROL_FLOW else None
            ins = cf[1] if cf else tuple(op.inputs)
            for i in ins:
                if i not in defined and i not in self.free:
                    self.free.append(i)
            if op.name == "cf.yield":
                self.yields = ins
                continue
            for o in op.outputs:
                if o in defined:
                    raise ModelFileError(f"{where}: defines value %{o} again")
                defined.add(o)
            if cf:
                entries.append((cf[0], op.name, ins, tuple(op.outputs), op.attrs, _HOST_ANY))
                continue
            fn = _OPS.get(op.name) or (handlers or {}).get(op.name)
            if fn is None or op.name in ("parameter", "pd_op.data", "pd_op.fetch"):
                raise NotImplementedError(f"{where}: op {op.name!r} cannot be translated "
                                          "inside control flow yet")
            if op.name in _CONSTANT_OPS:
                try:
                    self.const[op.outputs[0]] = fn(None, [], op.attrs)[0]
                except KeyError as e:
                    raise ModelFileError(f"{where}: lacks its attribute {e}") from None
                continue
            entries.append((fn, op.name, ins, tuple(op.outputs), op.attrs,
                            _HOST_ANY if op.name in _HOST_ANY else
                            (0,) if op.name in _HOST_AFTER_FIRST else ()))
        if self.yields is None:
            raise ModelFileError(f"{path}: a control-flow block without cf.yield")
        self.entries = entries

    def run(self, layer, outer, args):
        env = dict(self.const)
        env.update(outer)
        env[0] = None
        env.update(zip(self.args, args))
        _run_entries(layer, self.entries, env, self.path)
        return [env[i] for i in self.yields]


def _truth(v):
    if isinstance(v, _Host):
        return bool(v[0])
    return bool(v)


def _control_flow(op, path, handlers):
    """(handler, input ids) of ``pd_op.if`` / ``pd_op.while``: the inputs are the op's own
    followed by the values its blocks read from the enclosing ones."""
    blocks = getattr(op, "blocks", None) or []
    subs = [_SubBlock(args, ops, path, handlers) for args, ops in blocks]
    own = list(op.inputs)
    free = []
    for sb in subs:
        free.extend(i for i in sb.free if i not in free and i not in own)
    nf = len(free)
    if op.name == "pd_op.if":
        if len(subs) != 2 or len(own) != 1:
            raise ModelFileError(f"{path}: pd_op.if with {len(subs)} regions and {len(own)} "
                                 "inputs (2 and 1 expected)")
        if any(len(sb.yields) != len(op.outputs) for sb in subs):
            raise ModelFileError(f"{path}: a pd_op.if branch yields a different number of "
                                 "values than the op has outputs")

        def run_if(layer, ins, a):
            outer = dict(zip(free, ins[1:]))
            return (subs[0] if _truth(ins[0]) else subs[1]).run(layer, outer, ())
        return run_if, tuple(own + free)
    if len(subs) != 1 or len(own) < 1 or len(subs[0].args) != len(own) - 1 or \
            len(subs[0].yields) != len(own) or len(op.outputs) != len(own) - 1:
        raise ModelFileError(f"{path}: pd_op.while's body does not match its loop variables")
    body = subs[0]

    def run_while(layer, ins, a):
        cond, values = ins[0], list(ins[1:len(ins) - nf])
        outer = dict(zip(free, ins[len(ins) - nf:]))
        while _truth(cond):
            res = body.run(layer, outer, values)
            cond, values = res[0], res[1:]
        return values
    return run_while, tuple(own + free)


# ---------------------------------------------------------------------------- the Layer
class _Missing:
    """A value the program defines but our mapping does not compute (an op's auxiliary
    output, such as batch norm's saved mean); using it raises."""
    __slots__ = ("what",)

    def __init__(self, what):
        self.what = what


class TranslatedLayer(Layer):
    """A Layer running a program loaded by ``paddle.jit.load``: call it on Tensors (one per
    input of the saved ``input_spec``); ``parameters()`` are the program's parameters named as
    Paddle names them on load (the saved name and a ``_N`` suffix), ``state_dict()`` keys are
    ``param_0``, ``param_1`` ... in the order of the saved names, as Paddle's. It starts in
    eval mode, as Paddle's; the saved program is the inference one, so ``train()`` changes
    only ops that still have a training form (dropout and batch norm saved in training mode).
    """

    def __init__(self, ops, params, path, handlers=None):
        super().__init__()
        self._path = path
        self._program = []            # (handler, op name, input ids, output ids, attrs)
        self._const = {}              # value id -> Parameter
        self._feeds = []              # (value id, name, dtype, dims)
        self._fetches = []            # (col, value id)
        self._fetch_names = {}        # col -> the fetch op's name (paddle.inference's names)
        self._types = {}              # value id -> (dtype name, dims) where the program says
        defined = {0}                 # value ids defined so far (0: "no input")
        for k, op in enumerate(ops):
            cf = _control_flow(op, path, handlers) if op.name in _CONTROL_FLOW else None
            for i in (cf[1] if cf else op.inputs):
                if i not in defined:
                    raise ModelFileError(f"{path}: op {k} ({op.name}) uses value %{i}, which "
                                         "no earlier op defines")
            for o in op.outputs:
                if o in defined:
                    raise ModelFileError(f"{path}: op {k} ({op.name}) defines value %{o} again")
                defined.add(o)
            if op.name == "pd_op.fetch" and len(op.inputs) != 1:
                raise ModelFileError(f"{path}: op {k} (pd_op.fetch) has {len(op.inputs)} inputs")
            if op.name == "parameter":
                self._const[op.outputs[0]] = params[op.attrs["parameter_name"]]
            elif op.name == "pd_op.data":
                dt, dims = op.types[0] if op.types[0] else (None, None)
                self._feeds.append((op.outputs[0], op.attrs.get("name", ""), dt, dims))
            elif op.name == "pd_op.fetch":
                col = op.attrs.get("col", len(self._fetches))
                self._fetches.append((col, op.inputs[0]))
                self._fetch_names[col] = op.attrs.get("name", f"fetch_name_{col}")
            elif cf:
                for o, t in zip(op.outputs, op.types):
                    if t is not None:
                        self._types[o] = t
                self._program.append((cf[0], op.name, cf[1], tuple(op.outputs), op.attrs))
            else:
                fn = _OPS.get(op.name) or (handlers or {}).get(op.name)
                if fn is None:
                    raise NotImplementedError(
                        f"{path}: the program uses op {op.name!r}, which paddle_compat cannot "
                        "translate yet")
                if op.name in _CONSTANT_OPS:      # no inputs: computed once, here
                    try:
                        self._const[op.outputs[0]] = fn(self, [], op.attrs)[0]
                    except KeyError as e:
                        raise ModelFileError(f"{path}: op {k} ({op.name}) lacks its "
                                             f"attribute {e}") from None
                    continue
                ins, attrs = tuple(op.inputs), op.attrs
                for o, t in zip(op.outputs, op.types):
                    if t is not None:
                        self._types[o] = t
                if op.name == "pd_op.scale" and len(ins) > 1 and ins[1] in self._const:
                    attrs = dict(attrs, scale=_scalar(self._const[ins[1]]))   # a constant
                    ins = ins[:1]
                self._program.append((fn, op.name, ins, tuple(op.outputs), attrs))
        self._fetches.sort()
        self._fuse_linear()
        self._fuse_conv_bias()
        self._program = [(fn, name, ins, outs, attrs, _HOST_ANY if name in _HOST_ANY else
                          (0,) if name in _HOST_AFTER_FIRST else ())
                         for fn, name, ins, outs, attrs in self._program]
        self._run, self._source = _compile(self)
        self.eval()

    def _fuse_conv_bias(self):
        """``conv2d(x, w)`` + ``add(., reshape(b, [1, C, 1, 1]))`` with a 1-D parameter ``b``
        (what ``nn.Conv2D`` saves as) runs as one ``F.conv2d(x, w, b)``."""
        uses = _use_counts(self._program, self._fetches)
        producer = {outs[0]: k for k, (_, _, _, outs, _) in enumerate(self._program) if outs}
        prog = list(self._program)
        for k, (fn, name, ins, outs, attrs) in enumerate(prog):
            if name != "pd_op.add" or len(ins) != 2:
                continue
            cv, rs = producer.get(ins[0]), producer.get(ins[1])
            if cv is None or rs is None or prog[cv] is None or prog[rs] is None:
                continue
            if prog[cv][1] not in ("pd_op.conv2d", "pd_op.depthwise_conv2d") or \
                    prog[rs][1] != "pd_op.reshape" or uses.get(ins[0]) != 1 or \
                    uses.get(ins[1]) != 1 or any(uses.get(o, 0) for o in prog[rs][3][1:]) or \
                    prog[cv][4].get("data_format", "NCHW") != "NCHW":
                continue
            b, shape = self._const.get(prog[rs][2][0]), self._const.get(prog[rs][2][1])
            if b is None or not isinstance(shape, _Host) or len(b.shape) != 1 or \
                    list(shape) not in ([1, b.shape[0], 1, 1], [1, -1, 1, 1]):
                continue
            cfn, _, cins, _, cattrs = prog[cv]
            prog[k] = (_conv2d_bias, "pd_op.conv2d+add", (cins[0], cins[1], prog[rs][2][0]),
                       outs, cattrs)
            prog[cv] = prog[rs] = None
        self._program = [e for e in prog if e is not None]

    def _fuse_linear(self):
        """``matmul(x, w)`` followed by ``add(., b)`` with a 1-D parameter ``b`` (what
        ``nn.Linear`` saves as) runs as one ``F.linear`` (torch's addmm), as the Layer did."""
        uses = {}
        for _, _, ins, _, _ in self._program:
            for i in ins:
                uses[i] = uses.get(i, 0) + 1
        for _, v in self._fetches:
            uses[v] = uses.get(v, 0) + 1
        prog, producer = [], {}
        for entry in self._program:
            fn, name, ins, outs, attrs = entry
            if name == "pd_op.add" and ins[0] in producer and uses.get(ins[0]) == 1:
                k = producer[ins[0]]
                mm = prog[k]
                b = self._const.get(ins[1])
                if mm is not None and b is not None and len(b.shape) == 1 and \
                        not mm[4].get("transpose_x") and not mm[4].get("transpose_y") and \
                        mm[2][1] in self._const:
                    prog[k] = None
                    prog.append((_linear, "pd_op.matmul+add", (mm[2][0], mm[2][1], ins[1]),
                                 outs, {}))
                    continue
            if name == "pd_op.matmul":
                producer[outs[0]] = len(prog)
            prog.append(entry)
        self._program = [e for e in prog if e is not None]

    def forward(self, *inputs):
        if len(inputs) != len(self._feeds):
            raise ValueError(f"the loaded program takes {len(self._feeds)} input(s) "
                             f"({', '.join(f[1] for f in self._feeds)}), got {len(inputs)}")
        xs = []
        for x, (vid, name, dt, dims) in zip(inputs, self._feeds):
            if not isinstance(x, Tensor):
                x = _ops.to_tensor(x)
            shape = x.shape
            if dims is not None and (len(shape) != len(dims) or any(
                    d != -1 and d != n for d, n in zip(dims, shape))):
                raise ValueError(f"input {name!r} must have shape {dims} (-1: any), got "
                                 f"{list(shape)}")
            if dt is not None and x.dtype != _DTYPE_OF.get(dt, dt):
                raise ValueError(f"input {name!r} must be {dt}, got {x.dtype}")
            xs.append(x)
        return self._run(self, *xs)

    def _interpret(self, *inputs):
        """The op list run one op at a time (what ``_compile`` turns into one function; kept
        as the reference the tests compare it with)."""
        env = dict(self._const)
        env[0] = None
        for x, f in zip(inputs, self._feeds):
            env[f[0]] = x
        _run_entries(self, self._program, env, self._path)
        res = [env[v] for _, v in self._fetches]
        return res[0] if len(res) == 1 else res

    def program(self):
        """The translated op list: (Paddle op name, input ids, output ids, attributes)."""
        return [(name, ins, outs, attrs) for _, name, ins, outs, attrs, _ in self._program]


def _model_paths(path):
    path = os.fspath(path)
    for ext in (".json", ".pdmodel"):
        if path.endswith(ext):
            path = path[:-len(ext)]
    return path + ".json", path + ".pdiparams", path


_LOAD_CONFIGS = ("model_filename", "params_filename", "keep_name_table")
# other model formats: extension -> reader(model file, params file) giving (ops, parameter
# arrays by name, extra op handlers); program_desc.py adds ".pdmodel" (Paddle 2.x)
_READERS = {}


def load(path, **configs):
    """``paddle.jit.load``: the model saved at ``path`` (the prefix given to
    ``paddle.jit.save``) as a TranslatedLayer. ``model_filename`` / ``params_filename``: the
    files' names inside the folder ``path`` instead."""
    unknown = sorted(set(configs) - set(_LOAD_CONFIGS))
    if unknown:
        raise ValueError(f"paddle.jit.load takes no config {', '.join(unknown)}; it knows "
                         f"{', '.join(_LOAD_CONFIGS)}")
    model_file, params_file, prefix = _model_paths(path)
    if configs.get("model_filename"):
        model_file, _, prefix = _model_paths(os.path.join(path, configs["model_filename"]))
        params_file = prefix + ".pdiparams"
    if configs.get("params_filename"):
        params_file = os.path.join(path, configs["params_filename"])
    handlers = None
    if not os.path.exists(model_file) and os.path.exists(prefix + ".pdmodel"):
        # Paddle 2.x: a protobuf ProgramDesc (program_desc.py registers its reader)
        model_file = prefix + ".pdmodel"
        if not os.path.exists(params_file):
            raise FileNotFoundError(f"no parameters file {params_file}")
        ops, by_name, handlers = _READERS[".pdmodel"](model_file, params_file)
        decls = [op for op in ops if op.name == "parameter"]
        names = sorted(by_name)
    else:
        if not os.path.exists(model_file):
            raise FileNotFoundError(f"no model file {model_file}")
        ops = read_pir_program(model_file)
        decls = [op for op in ops if op.name == "parameter"]
        names = sorted(op.attrs["parameter_name"] for op in decls if op.attrs["persistable"])
        if len(set(op.attrs["parameter_name"] for op in decls)) != len(decls):
            raise ModelFileError(f"{model_file}: a parameter name appears twice")
        arrays = read_pdiparams(params_file, len(names)) if names else []
        by_name = dict(zip(names, arrays))
    params = {}
    for op in decls:
        pname = op.attrs["parameter_name"]
        dt, dims = op.types[0]
        if not op.attrs.get("persistable", True):
            # not in the file: an empty buffer of its type (the rnn op's dropout state)
            params[pname] = wrap(torch.zeros([max(d, 0) for d in dims],
                                             dtype=getattr(torch, dt or "float32")))
            continue
        arr = by_name[pname]
        t = arr if isinstance(arr, torch.Tensor) else torch.from_numpy(arr)
        if list(t.shape) != list(dims) or (dt is not None and str(t.dtype)[6:] != dt):
            raise ModelFileError(f"{params_file}: parameter {pname!r} is {str(t.dtype)[6:]} "
                                 f"{list(t.shape)}, the program declares {dt} {dims}")
        params[pname] = make_parameter(t, unique_name(pname),
                                       trainable=not op.attrs["stop_gradient"])
    layer = TranslatedLayer(ops, params, model_file, handlers)
    # the files whose hash keys its compiled package (to_static(backend="CINN"), jit/aot.py)
    layer._files = tuple(f for f in (model_file, params_file) if os.path.exists(f))
    for k, pname in enumerate(names):          # the persistable ones
        layer.add_parameter(f"param_{k}", params[pname])
    return layer
