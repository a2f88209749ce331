"""Writing Paddle 3.x model files from our fx graphs, and ``paddle.static``'s save/load API.

What is written (``paddle.jit.translated`` documents both formats; ``jit.load`` and Paddle
3.3.1's own ``jit.load`` / ``paddle.inference`` read them):

* ``PREFIX.json``: the PIR program as JSON. Every fx node of the program (a torch call the op
  library recorded) becomes the ``pd_op`` ops Paddle's own ``jit.save`` emits for that
  computation (``addmm`` -> ``matmul`` + ``add``, a conv bias -> ``full_int_array`` +
  ``reshape`` + ``add``, ``x * 0.5`` -> ``full`` + ``scale`` ...), with the attributes Paddle
  writes, each typed as Paddle types it (``_a`` makes the typed values); the parameters come
  first, the last created first, then ``pd_op.data`` (the feeds in order), the ops and
  ``pd_op.fetch`` (the fetches, ``fetch_name_N``). For an MLP, an embedding model and an fc
  program the file equals Paddle's own op for op (up to the ``struct_name`` attributes Paddle
  adds); elsewhere it differs only where the fx graph already holds a simpler form (a reshape
  with -1 where Paddle computes the shape with ``shape64``/``slice``/``stack``; dropout in
  inference form as ``scale``). A node without a mapping raises NotImplementedError naming
  the torch op (and, from ``jit.save``, the layer).
* ``PREFIX.pdiparams``: the parameters sorted by name, each as a LoDTensor stream (versions,
  no LoD, a ``TensorDesc`` protobuf message written by hand, the raw little-endian data).

The same writer serves ``paddle.jit.save`` (a Layer traced with ``to_static``'s machinery;
``jit/save.py``) and ``paddle.static.save_inference_model`` (a Program and its Scope).
tools/model_files/record_saved.py has real Paddle 3.3.1 load what we write (``jit.load``,
``paddle.inference``, ``load_inference_model``: all agree with our outputs to <1e-6).

What Paddle 3.3.1 does with the rest of the static API in PIR mode (probed), and what we do:

* ``static.save(program, path)`` writes ``path.pdparams`` (a pickled ``{name: ndarray}`` of
  the parameters, the last created first), ``path.pdopt`` (the other persistables: optimizer
  state, learning rate) and ``path.json`` (its whole program). Ours writes the two pickles
  byte-identical for the same values and the program's forward as ``path.json``.
  ``load`` / ``load_program_state`` / ``set_program_state`` read them (and a ``save_vars``
  folder) through the restricted unpickler.
* ``save_vars`` writes one LoDTensor stream per variable (byte-identical to Paddle's), or all
  in ``filename`` sorted by name; ``load_vars`` reads them.
* ``serialize_program`` / ``serialize_persistables`` raise AttributeError in Paddle 3.3.1 (they
  ask the PIR program for the old ``desc``). Ours follow their documentation: the bytes of the
  ``.json`` / ``.pdiparams`` that ``save_inference_model`` writes; ``deserialize_program``
  checks the bytes and ``deserialize_persistables`` returns the runnable program
  ``load_inference_model`` gives (ours is not a ``static.Program``: it is loaded by
  ``paddle.inference``, a floor up, through a hook).
* ``normalize_program`` returns a pruned ``clone(for_test=True)``.

Files are untrusted when read: programs are read with ``json``, tensors with ``struct`` and
numpy, ``.pdparams`` / ``.pdopt`` through ``framework.io``'s restricted unpickler; nothing in
a file is executed.
"""
import json
import math
import operator
import os
import pickle
import struct
import tempfile
import warnings

import numpy as np
import torch

from ..framework import hooks as _hooks
from ..framework import io as _fio
from ..framework.lodtensor import VARTYPE, read_tensors
from .executor import global_scope
from .program import Program, default_main_program
from .proxy import shape_of

__all__ = ["save_inference_model", "serialize_program", "serialize_persistables",
           "deserialize_program", "deserialize_persistables", "save_to_file", "load_from_file",
           "save", "load", "load_program_state", "set_program_state", "save_vars", "load_vars",
           "normalize_program", "write_model_files", "program_to_pir",
           "pdiparams_bytes", "EMITTED_OPS"]

# ---------------------------------------------------------------------------- types and attrs
_PIR_ELEM = {"float32": "0.t_f32", "float64": "0.t_f64", "float16": "0.t_f16",
             "bfloat16": "0.t_bf16", "int64": "0.t_i64", "int32": "0.t_i32", "int16": "0.t_i16",
             "int8": "0.t_i8", "uint8": "0.t_ui8", "bool": "0.t_bool", "complex64": "0.t_c64",
             "complex128": "0.t_c128"}
# framework.proto's VarType codes (what a TensorDesc holds)
_VARTYPE_CODE = {(t if isinstance(t, str) else np.dtype(t).name): code
                 for code, t in VARTYPE.items()}
_CPU_PLACE = [1, 0, ""]
_ANY_PLACE = [0, 0, ""]
_BIG = 2 ** 31 - 1


def _dtype_name(d):
    """Paddle's dtype name of a torch dtype."""
    return str(d).replace("torch.", "")


def _ttype(dtype, dims):
    return {"#": "0.t_dtensor", "D": [{"#": _PIR_ELEM[dtype]}, list(dims), "NCHW", [], 0]}


def _f32(v):
    """A float attribute typed f32 holds the float32 value (as Paddle writes it)."""
    return float(np.float32(v))


def _num(v):
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)                     # Paddle writes non-finite values as text
    return v


def _a(kind, value):
    """One typed attribute value: kind is a PIR attribute type."""
    if kind == "f32":
        return {"#": "0.a_f32", "D": _num(_f32(value))}
    if kind == "f64":
        return {"#": "0.a_f64", "D": _num(float(value))}
    if kind in ("bool", "i32", "i64", "str"):
        cast = {"bool": bool, "i32": int, "i64": int, "str": str}[kind]
        return {"#": "0.a_" + kind, "D": cast(value)}
    if kind == "dtype":
        return {"#": "1.a_dtype", "D": value}
    if kind == "place":
        return {"#": "1.a_place", "D": list(value)}
    if kind == "intarray":
        return {"#": "1.a_intarray", "D": [int(v) for v in value]}
    if kind.startswith("array_"):          # array_i32, array_i64, array_bool
        return {"#": "0.a_array", "D": [_a(kind[6:], v) for v in value]}
    raise ValueError(kind)


class Value:
    """A value of the program being written: its id, Paddle dtype name, dims (-1: unknown)
    and whether it stops gradient."""
    __slots__ = ("id", "dtype", "dims", "stop_gradient")

    def __init__(self, vid, dtype, dims, stop_gradient):
        self.id, self.dtype, self.dims, self.stop_gradient = vid, dtype, list(dims), stop_gradient


class _Transposed:
    """A 2-D parameter read transposed (what ``F.linear`` hands torch): ``value`` is the
    parameter; a consumer that knows the layout uses it as is, any other gets a transpose."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class _Seq(tuple):
    """Several values an fx node returns (a tuple output): ``getitem`` picks one."""


class ProgramWriter:
    """Builds the ops of a PIR JSON program. ``op(name, inputs, outputs, attrs)`` appends one;
    ``param``, ``data``, ``fetch``, ``full``, ``int_array`` the special ones."""

    def __init__(self):
        self.ops = []
        self._next = 1
        self.creation = ()

    def _new(self, dtype, dims, sg):
        v = Value(self._next, dtype, dims, sg)
        self._next += 1
        return v

    def op(self, name, inputs, outs, attrs=(), sg=None, exact_sg=False):
        """Append ``name`` (``pd_op.x`` or ``builtin.x``) on ``inputs`` (Values; None: an
        absent optional input) making ``outs`` ((dtype, dims) pairs, or ("vec", [Values]) for
        a list); returns the output Values. ``attrs``: (name, kind, value) triples."""
        ins = [v for v in inputs]
        if sg is None:
            sg = all(v is None or v.stop_gradient for v in ins)
        values, out_json = [], []
        for o in outs:
            if o[0] == "vec":
                v = self._new("vec", [], sg)
                tt = {"#": "0.t_vec", "D": [_ttype(e.dtype, e.dims) for e in o[1]]}
            else:
                dt, dims = o
                v = self._new(dt, dims, sg or (not exact_sg and dt in (
                    "bool", "int32", "int64", "uint8", "int8", "int16")))
                tt = _ttype(dt, dims)
            values.append(v)
            out_json.append({"%": v.id, "TT": tt})
        a = [{"AT": _a(k, val), "N": n} for n, k, val in attrs]
        dialect, short = name.split(".", 1)
        self.ops.append({
            "#": ("1." if dialect == "pd_op" else "0.") + short, "A": a,
            "I": [{"%": 0 if v is None else v.id} for v in ins], "O": out_json,
            "OA": [{"AT": _a("array_bool", [v.stop_gradient for v in values]),
                    "N": "stop_gradient"}]})
        return values

    def param(self, name, dtype, dims, stop_gradient):
        v = self._new(dtype, dims, bool(stop_gradient))
        self.ops.append({"#": "p", "A": [0, 1, 1, name], "DA": [],
                         "O": {"%": v.id, "TT": _ttype(dtype, dims)},
                         "OA": [1, int(bool(stop_gradient)), int(not stop_gradient)], "QA": []})
        return v

    def data(self, name, dtype, dims, stop_gradient=False):
        return self.op("pd_op.data", [], [(dtype, dims)],
                       [("name", "str", name), ("shape", "intarray", dims),
                        ("dtype", "dtype", dtype), ("place", "place", _ANY_PLACE)],
                       sg=bool(stop_gradient), exact_sg=True)[0]

    def fetch(self, v, col):
        out = self.op("pd_op.fetch", [v], [(v.dtype, v.dims)],
                      [("name", "str", f"fetch_name_{col}"), ("col", "i32", col)],
                      sg=v.stop_gradient, exact_sg=True)[0]
        self.ops[-1]["OA"].insert(0, {"AT": _a("array_bool", [True]), "N": "persistable"})
        return out

    def full(self, value, dtype, shape=(1,)):
        return self.op("pd_op.full", [], [(dtype, list(shape))],
                       [("shape", "intarray", list(shape)), ("value", "f64", value),
                        ("dtype", "dtype", dtype), ("place", "place", _CPU_PLACE)],
                       sg=True)[0]

    def int_array(self, values):
        values = [int(v) for v in values]
        return self.op("pd_op.full_int_array", [], [("int64", [len(values)])],
                       [("value", "array_i64", values), ("dtype", "dtype", "int64"),
                        ("place", "place", _CPU_PLACE)], sg=True)[0]

    def _paddle_order(self):
        """The ops as Paddle orders them: the parameters first, the last created first
        (``creation``: names in creation order; else the reverse of their first use), then
        the rest; value ids renumbered from 1 in that order."""
        params = [o for o in self.ops if o["#"] == "p"]
        rest = [o for o in self.ops if o["#"] != "p"]
        pid = {o["O"]["%"]: o for o in params}
        used = []
        for o in rest:
            for i in o["I"]:
                if i["%"] in pid and pid[i["%"]] not in used:
                    used.append(pid[i["%"]])
        params = used[::-1] + [o for o in params if o not in used]
        rank = {n: k for k, n in enumerate(self.creation)}
        if params and all(o["A"][-1] in rank for o in params):
            params.sort(key=lambda o: -rank[o["A"][-1]])
        new = {0: 0}
        for o in params + rest:
            for v in (o["O"] if isinstance(o["O"], list) else [o["O"]]):
                new[v["%"]] = len(new)
        out = []
        for o in params + rest:
            o = dict(o)
            if isinstance(o["O"], list):
                o["O"] = [dict(v, **{"%": new[v["%"]]}) for v in o["O"]]
                o["I"] = [{"%": new[i["%"]]} for i in o["I"]]
            else:
                o["O"] = dict(o["O"], **{"%": new[o["O"]["%"]]})
            out.append(o)
        return out

    def document(self):
        return {"base_code": {"magic": "pir", "trainable": True, "version": 4},
                "program": {"regions": [{"#": "region_0", "blocks": [
                    {"#": "block_0", "args": [], "ops": self._paddle_order()}]}]}}


# ---------------------------------------------------------------------------- fx node -> pd_op
def _out(node):
    """(dtype, dims) of a node's (single tensor) output."""
    pv = node.meta["pv"][0]
    return _dtype_name(pv.dtype), shape_of(node)


def _tensor(w, v):
    if isinstance(v, _Transposed):
        p = v.value
        return w.op("pd_op.transpose", [p], [(p.dtype, p.dims[::-1])],
                    [("perm", "array_i32", [1, 0])])[0]
    return v


def _axis(a, ndim):
    return a + ndim if a < 0 else a


def _unary(pd):
    def emit(w, node, args, kw):
        return w.op(pd, [_tensor(w, args[0])], [_out(node)])[0]
    emit.pd_ops = (pd,)
    return emit


def _scalar_of(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _binary(pd, scale_form=None):
    """Tensor (op) tensor -> ``pd``; tensor (op) Python number -> ``scale`` where the op is
    affine in the tensor (as Paddle writes ``x * 0.5``, ``x + 1``), else a ``full`` operand."""
    def emit(w, node, args, kw):
        x, y = args[0], args[1]
        extra = {k: v for k, v in kw.items() if not (k == "alpha" and v == 1)}
        if extra:
            raise NotImplementedError(f"{pd} with {', '.join(sorted(extra))}")
        dt, dims = _out(node)
        if scale_form is not None and isinstance(x, Value) and _scalar_of(y):
            s, b = scale_form(y, False)
            if s is not None:
                return _scale(w, node, x, s, b)
        if scale_form is not None and isinstance(y, Value) and _scalar_of(x):
            s, b = scale_form(x, True)
            if s is not None:
                return _scale(w, node, y, s, b)
        ins = []
        for v, other in ((x, y), (y, x)):
            if isinstance(v, (Value, _Transposed)):
                ins.append(_tensor(w, v))
            else:
                odt = other.dtype if isinstance(other, Value) else dt
                ins.append(w.full(float(v), odt, ()))
        return w.op(pd, ins, [(dt, dims)])[0]
    emit.pd_ops = (pd, "pd_op.scale", "pd_op.full")
    return emit


def _scale(w, node, x, s, b):
    dt, dims = _out(node)
    sv = w.full(s, x.dtype, (1,))
    return w.op("pd_op.scale", [x, sv], [(dt, dims)],
                [("bias", "f32", b), ("bias_after_scale", "bool", True)])[0]


_SCALE_FORMS = {
    "add": lambda c, rev: (1.0, float(c)),
    "sub": lambda c, rev: (-1.0, float(c)) if rev else (1.0, -float(c)),
    "mul": lambda c, rev: (float(c), 0.0),
    "div": lambda c, rev: (None, None) if rev else (1.0 / float(c), 0.0),
}


def _matmul(w, node, args, kw):
    x, y = args[0], args[1]
    ty = False
    if isinstance(y, _Transposed):
        y, ty = y.value, True
    return w.op("pd_op.matmul", [_tensor(w, x), y], [_out(node)],
                [("transpose_x", "bool", False), ("transpose_y", "bool", ty)])[0]


def _linear_out(w, node, x, weight, bias):
    """``x @ weight + bias`` as Paddle's Linear saves it; ``weight`` in torch's [out, in]
    layout, so a transposed view of a Paddle [in, out] parameter is the parameter itself."""
    dt, dims = _out(node)
    if isinstance(weight, _Transposed):
        h = w.op("pd_op.matmul", [x, weight.value], [(dt, dims)],
                 [("transpose_x", "bool", False), ("transpose_y", "bool", False)])[0]
    else:
        h = w.op("pd_op.matmul", [x, weight], [(dt, dims)],
                 [("transpose_x", "bool", False), ("transpose_y", "bool", True)])[0]
    if bias is None:
        return h
    return w.op("pd_op.add", [h, _tensor(w, bias)], [(dt, dims)])[0]


def _linear(w, node, args, kw):
    b = args[2] if len(args) > 2 else kw.get("bias")
    return _linear_out(w, node, _tensor(w, args[0]), args[1], b)


def _addmm(w, node, args, kw):
    if kw.get("beta", 1) != 1 or kw.get("alpha", 1) != 1:
        raise NotImplementedError("addmm with beta/alpha")
    b, x, m = args[0], args[1], args[2]
    dt, dims = _out(node)
    h = w.op("pd_op.matmul", [_tensor(w, x), _tensor(w, m)], [(dt, dims)],
             [("transpose_x", "bool", False), ("transpose_y", "bool", False)])[0]
    return w.op("pd_op.add", [h, _tensor(w, b)], [(dt, dims)])[0]


def _softmax(w, node, args, kw):
    axis = args[1] if len(args) > 1 else kw.get("dim")
    if kw.get("dtype") is not None or (len(args) > 2 and args[2] is not None):
        raise NotImplementedError("softmax with a dtype")
    return w.op("pd_op.softmax", [_tensor(w, args[0])], [_out(node)], [("axis", "i32", axis)])[0]


def _layer_norm(w, node, args, kw):
    x, shape = args[0], list(args[1])
    weight = args[2] if len(args) > 2 else kw.get("weight")
    bias = args[3] if len(args) > 3 else kw.get("bias")
    eps = args[4] if len(args) > 4 else kw.get("eps", 1e-5)
    begin = len(x.dims) - len(shape)
    dt, dims = _out(node)
    stat = x.dims[:begin]
    return w.op("pd_op.layer_norm", [x, weight, bias],
                [(dt, dims), ("float32", stat), ("float32", stat)],
                [("epsilon", "f32", eps), ("begin_norm_axis", "i32", begin)])[0]


def _reshape(w, node, args, kw):
    x = _tensor(w, args[0])
    shape = args[1:] if len(args) > 2 or not isinstance(args[1], (list, tuple)) else args[1]
    if not all(isinstance(s, int) for s in shape):
        raise NotImplementedError("reshape to a shape computed at run time")
    return w.op("pd_op.reshape", [x, w.int_array(shape)], [_out(node)])[0]


def _permute(w, node, args, kw):
    perm = args[1:] if len(args) > 2 or not isinstance(args[1], (list, tuple)) else args[1]
    return w.op("pd_op.transpose", [_tensor(w, args[0])], [_out(node)],
                [("perm", "array_i32", list(perm))])[0]


def _transpose2(w, node, args, kw):
    x = _tensor(w, args[0])
    n = len(x.dims)
    perm = list(range(n))
    a, b = _axis(args[1], n), _axis(args[2], n)
    perm[a], perm[b] = perm[b], perm[a]
    return w.op("pd_op.transpose", [x], [_out(node)], [("perm", "array_i32", perm)])[0]


def _t(w, node, args, kw):
    """``Tensor.t()``: a 2-D tensor transposed (held as ``_Transposed``, so that ``F.linear``
    of a 3-D input, which hands torch ``weight.t()``, saves Paddle's matmul of the parameter);
    a 0-D or 1-D tensor as it is."""
    x = args[0]
    if isinstance(x, _Transposed):
        return x.value
    return _Transposed(x) if len(x.dims) == 2 else x


def _flatten(w, node, args, kw):
    x = _tensor(w, args[0])
    n = len(x.dims)
    start = args[1] if len(args) > 1 else kw.get("start_dim", 0)
    end = args[2] if len(args) > 2 else kw.get("end_dim", -1)
    return w.op("pd_op.flatten", [x], [_out(node)],
                [("start_axis", "i32", _axis(start, n)), ("stop_axis", "i32", _axis(end, n))])[0]


def _dims_arg(args, kw, key="dim"):
    d = args[1] if len(args) > 1 else kw.get(key)
    if d is None:
        return None
    return [d] if isinstance(d, int) else list(d)


def _squeeze(pd):
    def emit(w, node, args, kw):
        x = _tensor(w, args[0])
        d = _dims_arg(args, kw)
        if d is None:
            d = [i for i, s in enumerate(x.dims) if s == 1]
        return w.op(pd, [x, w.int_array(d)], [_out(node)])[0]
    emit.pd_ops = (pd, "pd_op.full_int_array")
    return emit


def _reduce(pd):
    def emit(w, node, args, kw):
        x = _tensor(w, args[0])
        d = _dims_arg(args, kw)
        keep = args[2] if len(args) > 2 else kw.get("keepdim", False)
        if kw.get("dtype") is not None and _dtype_name(kw["dtype"]) != x.dtype:
            raise NotImplementedError(f"{pd} with a dtype")
        attrs = [("keepdim", "bool", keep)]
        if pd == "pd_op.sum":
            attrs.insert(0, ("dtype", "dtype", "Undefined(ALL_DTYPE)"))
        elif pd == "pd_op.prod":
            attrs.append(("reduce_all", "bool", d is None))
        return w.op(pd, [x, w.int_array(d if d is not None else [])], [_out(node)], attrs)[0]
    emit.pd_ops = (pd, "pd_op.full_int_array")
    return emit


def _pair(v):
    if isinstance(v, int):
        return [v, v]
    v = list(v)
    return v * 2 if len(v) == 1 else v


def _conv2d(w, node, args, kw):
    names = ("input", "weight", "bias", "stride", "padding", "dilation", "groups")
    full = dict(zip(names, args), **kw)
    x, weight, bias = full["input"], _tensor(w, full["weight"]), full.get("bias")
    stride, padding = _pair(full.get("stride", 1)), full.get("padding", 0)
    dilation, groups = _pair(full.get("dilation", 1)), full.get("groups", 1)
    if isinstance(padding, str):
        alg, padding = padding.upper(), [0, 0]
    else:
        alg, padding = "EXPLICIT", _pair(padding)
    dt, dims = _out(node)
    cin = x.dims[1]
    pd = "pd_op.depthwise_conv2d" if groups > 1 and groups == cin else "pd_op.conv2d"
    attrs = [("strides", "array_i32", stride), ("paddings", "array_i32", padding),
             ("padding_algorithm", "str", alg)]
    if pd == "pd_op.depthwise_conv2d":
        attrs += [("groups", "i32", groups), ("dilations", "array_i32", dilation)]
    else:
        attrs += [("dilations", "array_i32", dilation), ("groups", "i32", groups)]
    attrs.append(("data_format", "str", "NCHW"))
    h = w.op(pd, [x, weight], [(dt, dims)], attrs)[0]
    if bias is None:
        return h
    bias = _tensor(w, bias)
    b = w.op("pd_op.reshape", [bias, w.int_array([1, -1, 1, 1])],
             [(bias.dtype, [1, bias.dims[0], 1, 1])])[0]
    return w.op("pd_op.add", [h, b], [(dt, dims)])[0]


def _batch_norm(w, node, args, kw):
    names = ("input", "weight", "bias", "running_mean", "running_var", "training", "momentum",
             "eps")
    a = dict(zip(names, args), **kw)
    if a.get("running_mean") is None or a.get("weight") is None:
        raise NotImplementedError("batch_norm without running statistics or affine parameters")
    x = a["input"]
    training = bool(a.get("training", False))
    dt, dims = _out(node)
    c = [x.dims[1]]
    return w.op("pd_op.batch_norm_", [x, a["running_mean"], a["running_var"], a["weight"],
                                      a["bias"]],
                [(dt, dims), ("float32", c), ("float32", c), ("float32", c), ("float32", c),
                 ("uint8", [-1])],
                [("is_test", "bool", not training),
                 # torch's momentum weighs the batch, Paddle's the running value; an
                 # inference call carries none (0): Paddle's default is written
                 ("momentum", "f32", 1.0 - float(a.get("momentum", 0.1)) if training else 0.9),
                 ("epsilon", "f32", a.get("eps", 1e-5)), ("data_format", "str", "NCHW"),
                 ("use_global_stats", "bool", not training),
                 ("trainable_statistics", "bool", False)])[0]


def _pool_attrs(stride, padding, ceil, exclusive, ptype, adaptive):
    return [("strides", "array_i64", stride), ("paddings", "array_i64", padding),
            ("ceil_mode", "bool", ceil), ("exclusive", "bool", exclusive),
            ("data_format", "str", "NCHW"), ("pooling_type", "str", ptype),
            ("global_pooling", "bool", False), ("adaptive", "bool", adaptive),
            ("padding_algorithm", "str", "EXPLICIT")]


def _max_pool2d(w, node, args, kw):
    names = ("input", "kernel_size", "stride", "padding", "dilation", "ceil_mode")
    a = dict(zip(names, args), **kw)
    if _pair(a.get("dilation", 1)) != [1, 1]:
        raise NotImplementedError("max_pool2d with dilation")
    k = _pair(a["kernel_size"])
    s = _pair(a.get("stride") or k)
    x = _tensor(w, a["input"])
    return w.op("pd_op.pool2d", [x, w.int_array(k)], [_out(node)],
                _pool_attrs(s, _pair(a.get("padding", 0)), bool(a.get("ceil_mode", False)),
                            True, "max", False))[0]


def _avg_pool2d(w, node, args, kw):
    names = ("input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
             "divisor_override")
    a = dict(zip(names, args), **kw)
    if a.get("divisor_override") is not None:
        raise NotImplementedError("avg_pool2d with divisor_override")
    k = _pair(a["kernel_size"])
    s = _pair(a.get("stride") or k)
    x = _tensor(w, a["input"])
    return w.op("pd_op.pool2d", [x, w.int_array(k)], [_out(node)],
                _pool_attrs(s, _pair(a.get("padding", 0)), bool(a.get("ceil_mode", False)),
                            not a.get("count_include_pad", True), "avg", False))[0]


def _adaptive_avg_pool2d(w, node, args, kw):
    x = _tensor(w, args[0])
    k = _pair(args[1] if len(args) > 1 else kw["output_size"])
    if any(v is None for v in k):
        raise NotImplementedError("adaptive_avg_pool2d with a None output size")
    return w.op("pd_op.pool2d", [x, w.int_array(k)], [_out(node)],
                _pool_attrs([1, 1], [0, 0], False, True, "avg", True))[0]


def _adaptive_max_pool2d(w, node, args, kw):
    x = _tensor(w, args[0])
    k = _pair(args[1] if len(args) > 1 else kw["output_size"])
    pv = node.meta["pv"][0]
    if isinstance(pv, (tuple, list)):
        dims = shape_of_item(node, 0)
    else:
        dims = shape_of(node)
    outs = w.op("pd_op.max_pool2d_with_index", [x],
                [(x.dtype, dims), ("int32", dims)],
                [("kernel_size", "array_i32", k), ("strides", "array_i32", [1, 1]),
                 ("paddings", "array_i32", [0, 0]), ("global_pooling", "bool", False),
                 ("adaptive", "bool", True), ("ceil_mode", "bool", False)])
    return _Seq(outs)


def shape_of_item(node, i):
    a, b = node.meta["pv"]
    return [x if x == y else -1 for x, y in zip(a[i].shape, b[i].shape)]


def _embedding(w, node, args, kw):
    weight, ids = args[0], _tensor(w, args[1])
    pad = args[2] if len(args) > 2 else kw.get("padding_idx", -1)
    return w.op("pd_op.embedding", [ids, weight], [_out(node)],
                [("padding_idx", "i64", -1 if pad is None else pad),
                 ("sparse", "bool", False)])[0]


def _gelu(w, node, args, kw):
    approx = kw.get("approximate", args[1] if len(args) > 1 else "none")
    return w.op("pd_op.gelu", [_tensor(w, args[0])], [_out(node)],
                [("approximate", "bool", approx == "tanh")])[0]


def _hardtanh(w, node, args, kw):
    lo = args[1] if len(args) > 1 else kw.get("min_val", -1.0)
    hi = args[2] if len(args) > 2 else kw.get("max_val", 1.0)
    if (lo, hi) == (0.0, 6.0):
        return w.op("pd_op.relu6", [_tensor(w, args[0])], [_out(node)])[0]
    # any other clamp as Paddle writes F.hardtanh (PaddleOCR's exporter uses hardtanh(0, 1))
    return w.op("pd_op.hardtanh", [_tensor(w, args[0])], [_out(node)],
                [("t_min", "f32", lo), ("t_max", "f32", hi)])[0]


def _leaky_relu(w, node, args, kw):
    slope = args[1] if len(args) > 1 else kw.get("negative_slope", 0.01)
    return w.op("pd_op.leaky_relu", [_tensor(w, args[0])], [_out(node)],
                [("negative_slope", "f64", slope)])[0]


def _pow(w, node, args, kw):
    x, y = args[0], args[1] if len(args) > 1 else kw["exponent"]
    if isinstance(x, Value) and _scalar_of(y):
        return w.op("pd_op.pow", [x], [_out(node)], [("y", "f32", y)])[0]
    return _binary("pd_op.elementwise_pow")(w, node, [x, y], {})


def _cat(w, node, args, kw):
    xs = [_tensor(w, v) for v in args[0]]
    axis = args[1] if len(args) > 1 else kw.get("dim", 0)
    ax = w.full(axis, "int32", (1,))
    lst = w.op("builtin.combine", xs, [("vec", xs)])[0]
    return w.op("pd_op.concat", [lst, ax], [_out(node)])[0]


def _stack(w, node, args, kw):
    xs = [_tensor(w, v) for v in args[0]]
    axis = args[1] if len(args) > 1 else kw.get("dim", 0)
    lst = w.op("builtin.combine", xs, [("vec", xs)])[0]
    return w.op("pd_op.stack", [lst], [_out(node)], [("axis", "i32", axis)])[0]


def _to(w, node, args, kw):
    x = _tensor(w, args[0])
    dt = kw.get("dtype")
    if dt is None:
        for a in args[1:]:
            if isinstance(a, torch.dtype):
                dt = a
    if dt is None:
        return x                                  # a device move: nothing to write
    return w.op("pd_op.cast", [x], [_out(node)], [("dtype", "dtype", _dtype_name(dt))])[0]


def _identity(w, node, args, kw):
    return args[0]


def _getitem(w, node, args, kw):
    x, idx = args[0], args[1]
    if isinstance(x, _Seq):
        return x[idx]
    x = _tensor(w, x)
    idx = idx if isinstance(idx, tuple) else (idx,)
    axes, starts, ends, dec = [], [], [], []
    for ax, it in enumerate(idx):
        if isinstance(it, int) and not isinstance(it, bool):
            axes.append(ax)
            starts.append(it)
            ends.append(it + 1 if it != -1 else _BIG)
            dec.append(ax)
        elif isinstance(it, slice) and it.step in (None, 1):
            if it.start is None and it.stop is None:
                continue
            axes.append(ax)
            starts.append(it.start or 0)
            ends.append(_BIG if it.stop is None else it.stop)
        else:
            raise NotImplementedError(f"indexing with {it!r} (only ints and step-1 slices "
                                      "are written)")
    if not axes:
        return x
    return w.op("pd_op.slice", [x, w.int_array(starts), w.int_array(ends)], [_out(node)],
                [("axes", "array_i64", axes), ("infer_flags", "array_i64", [1] * len(axes)),
                 ("decrease_axis", "array_i64", dec)])[0]


_UNARY = {"relu": "pd_op.relu", "sigmoid": "pd_op.sigmoid", "tanh": "pd_op.tanh",
          "exp": "pd_op.exp", "sqrt": "pd_op.sqrt", "rsqrt": "pd_op.rsqrt", "abs": "pd_op.abs",
          "hardswish": "pd_op.hardswish", "silu": "pd_op.silu", "relu6": "pd_op.relu6"}
_BINARY = {"add": ("pd_op.add", "add"), "sub": ("pd_op.subtract", "sub"),
           "subtract": ("pd_op.subtract", "sub"), "mul": ("pd_op.multiply", "mul"),
           "multiply": ("pd_op.multiply", "mul"), "truediv": ("pd_op.divide", "div"),
           "div": ("pd_op.divide", "div"), "true_divide": ("pd_op.divide", "div"),
           "maximum": ("pd_op.maximum", None), "minimum": ("pd_op.minimum", None),
           "gt": ("pd_op.greater_than", None), "greater": ("pd_op.greater_than", None),
           "ge": ("pd_op.greater_equal", None), "greater_equal": ("pd_op.greater_equal", None),
           "lt": ("pd_op.less_than", None), "less": ("pd_op.less_than", None),
           "le": ("pd_op.less_equal", None), "less_equal": ("pd_op.less_equal", None),
           "eq": ("pd_op.equal", None), "ne": ("pd_op.not_equal", None)}


def _table():
    """fx target (a callable, or a method name for call_method) -> emitter."""
    F = torch.nn.functional
    t = {}
    for name, pd in _UNARY.items():
        e = _unary(pd)
        for mod in (torch, torch._C._nn, F):
            f = getattr(mod, name, None)
            if f is not None:
                t[f] = e
        t[name] = e
    for name, (pd, form) in _BINARY.items():
        e = _binary(pd, _SCALE_FORMS.get(form))
        for f in (getattr(operator, name, None), getattr(torch, name, None)):
            if f is not None:
                t[f] = e
        t[name] = e
    t[torch.div] = _binary("pd_op.divide", _SCALE_FORMS["div"])
    more = {torch.matmul: _matmul, "matmul": _matmul, operator.matmul: _matmul,
            torch._C._nn.linear: _linear, F.linear: _linear, torch.addmm: _addmm,
            torch.softmax: _softmax, F.softmax: _softmax, "softmax": _softmax,
            torch.layer_norm: _layer_norm, F.layer_norm: _layer_norm,
            torch.reshape: _reshape, "reshape": _reshape, "view": _reshape,
            torch.permute: _permute, "permute": _permute,
            torch.transpose: _transpose2, "transpose": _transpose2, torch.t: _t, "t": _t,
            torch.flatten: _flatten, "flatten": _flatten,
            torch.squeeze: _squeeze("pd_op.squeeze"), "squeeze": _squeeze("pd_op.squeeze"),
            torch.unsqueeze: _squeeze("pd_op.unsqueeze"),
            "unsqueeze": _squeeze("pd_op.unsqueeze"),
            torch.mean: _reduce("pd_op.mean"), "mean": _reduce("pd_op.mean"),
            torch.sum: _reduce("pd_op.sum"), "sum": _reduce("pd_op.sum"),
            torch.amax: _reduce("pd_op.max"), "amax": _reduce("pd_op.max"),
            torch.amin: _reduce("pd_op.min"), "amin": _reduce("pd_op.min"),
            torch.prod: _reduce("pd_op.prod"), "prod": _reduce("pd_op.prod"),
            torch.conv2d: _conv2d, F.conv2d: _conv2d,
            torch.batch_norm: _batch_norm, F.batch_norm: _batch_norm,
            torch.max_pool2d: _max_pool2d, F.max_pool2d: _max_pool2d,
            torch._C._nn.avg_pool2d: _avg_pool2d, F.avg_pool2d: _avg_pool2d,
            torch._C._nn.adaptive_avg_pool2d: _adaptive_avg_pool2d,
            F.adaptive_avg_pool2d: _adaptive_avg_pool2d,
            torch._C._nn.adaptive_max_pool2d: _adaptive_max_pool2d,
            torch.embedding: _embedding, F.embedding: _embedding,
            torch._C._nn.gelu: _gelu, F.gelu: _gelu,
            torch._C._nn.hardtanh: _hardtanh, F.hardtanh: _hardtanh,
            torch._C._nn.leaky_relu: _leaky_relu, F.leaky_relu: _leaky_relu,
            torch.pow: _pow, "pow": _pow, operator.pow: _pow,
            torch.cat: _cat, torch.concat: _cat, torch.stack: _stack,
            "to": _to, "contiguous": _identity, "clone": _identity, torch.clone: _identity,
            "detach": _identity, torch.detach: _identity,
            operator.getitem: _getitem}
    t.update(more)
    return t


_EMIT = _table()

#: every pd_op name the writer can emit (jit/save.py checks they all are names jit.load reads)
EMITTED_OPS = frozenset(
    ["pd_op.data", "pd_op.fetch", "pd_op.full", "pd_op.full_int_array", "pd_op.matmul",
     "pd_op.add", "pd_op.transpose", "pd_op.scale", "pd_op.softmax", "pd_op.layer_norm",
     "pd_op.reshape", "pd_op.flatten", "pd_op.squeeze", "pd_op.unsqueeze", "pd_op.mean",
     "pd_op.sum", "pd_op.max", "pd_op.min", "pd_op.prod", "pd_op.conv2d", "pd_op.depthwise_conv2d", "pd_op.batch_norm_",
     "pd_op.pool2d", "pd_op.max_pool2d_with_index", "pd_op.embedding", "pd_op.gelu",
     "pd_op.relu6", "pd_op.hardtanh", "pd_op.leaky_relu", "pd_op.pow", "pd_op.elementwise_pow", "pd_op.concat",
     "pd_op.stack", "pd_op.cast", "pd_op.slice", "builtin.combine"]
    + list(_UNARY.values()) + [pd for pd, _ in _BINARY.values()])


def _target_name(node):
    t = node.target
    if isinstance(t, str):
        return f"Tensor.{t}"
    mod = getattr(t, "__module__", None) or ""
    return f"{mod}.{getattr(t, '__name__', repr(t))}".lstrip(".")


def program_to_pir(graph_nodes, feeds, fetch_nodes, resolve_attr, where="the program",
                   creation=(), writer=None, emit=None):
    """The PIR JSON document and the parameters (``{name: numpy array}``) of the fx nodes
    ``graph_nodes`` (in order; those the fetches need).

    ``feeds``: ``[(node, name, stop_gradient)]`` in feed order; ``resolve_attr(node)`` gives,
    for a ``get_attr`` or persistable placeholder node, ``(name, tensor, trainable)`` or
    ``(name, tensor, trainable, "T")`` for a transposed view of that parameter;
    ``creation``: the parameters' names in the order they were created (Paddle lists the
    last created first); ``writer``: another writer with ProgramWriter's methods (the
    document is its ``document()``), ``emit``: fx target -> emitter entries it adds."""
    w = ProgramWriter() if writer is None else writer
    w.creation = list(creation)
    env = {}
    params = {}
    # parameters first, then the feeds (as Paddle orders them)
    for n in graph_nodes:
        if n.op == "get_attr" or (n.op == "placeholder" and n.meta.get("persistable")):
            r = resolve_attr(n)
            name, t, trainable = r[0], r[1], r[2]
            if name in params:
                v = params[name][1]
            else:
                dt = _dtype_name(t.dtype)
                if dt not in _PIR_ELEM:
                    raise NotImplementedError(f"{where}: parameter {name!r} has dtype {dt}")
                v = w.param(name, dt, list(t.shape), not trainable)
                params[name] = (t, v)
            env[n] = _Transposed(v) if len(r) > 3 else v
    for node, name, sg in feeds:
        dt, dims = _dtype_name(node.meta["pv"][0].dtype), shape_of(node)
        env[node] = w.data(name, dt, dims, sg)

    def arg(a):
        if isinstance(a, torch.fx.Node):
            return env[a]
        if isinstance(a, (list, tuple)):
            return type(a)(arg(v) for v in a) if not isinstance(a, torch.Size) else list(a)
        if isinstance(a, dict):
            return {k: arg(v) for k, v in a.items()}
        return a

    for n in graph_nodes:
        if n in env or n.op in ("placeholder", "output"):
            continue
        emitter = _EMIT.get(n.target) if emit is None else emit.get(n.target, _EMIT.get(n.target))
        if emitter is None:
            raise NotImplementedError(
                f"{where}: no Paddle op is known for {_target_name(n)} (fx node {n.name}, "
                f"variable {n.meta.get('var_name', '?')}); jit.save / save_inference_model "
                "cannot write it")
        try:
            env[n] = emitter(w, n, [arg(a) for a in n.args], arg(dict(n.kwargs)))
        except NotImplementedError as e:
            raise NotImplementedError(f"{where}: {_target_name(n)} (fx node {n.name}): "
                                      f"{e}") from None
    for col, f in enumerate(fetch_nodes):
        v = env[f]
        if isinstance(v, _Transposed):
            v = _tensor(w, v)
        if not isinstance(v, Value):
            raise NotImplementedError(f"{where}: fetch {col} is not a tensor")
        w.fetch(v, col)
    arrays = {name: _to_array(t) for name, (t, _) in params.items()}
    return w.document(), arrays


def _to_array(t):
    t = t.detach().cpu()
    if t.dtype is torch.bfloat16:
        return t.contiguous()
    return np.ascontiguousarray(t.resolve_conj().numpy())


# ---------------------------------------------------------------------------- .pdiparams
def _varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _tensor_stream(arr):
    """One tensor as Paddle's LoDTensor stream (what ``save_combine`` writes)."""
    if isinstance(arr, torch.Tensor):          # bfloat16
        dt, raw, dims = "bfloat16", arr.view(torch.int16).numpy().astype("<i2").tobytes(), \
            list(arr.shape)
    else:
        dt = str(arr.dtype) if arr.dtype != np.bool_ else "bool"
        raw = arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()
        dims = list(arr.shape)
    if dt not in _VARTYPE_CODE:
        raise NotImplementedError(f"a parameter of dtype {dt} cannot be written")
    desc = bytes([0x08]) + _varint(_VARTYPE_CODE[dt])
    for d in dims:
        desc += bytes([0x10]) + _varint(d)
    return (struct.pack("<I", 0) + struct.pack("<Q", 0) + struct.pack("<I", 0) +
            struct.pack("<i", len(desc)) + desc + raw)


def pdiparams_bytes(arrays):
    """The combined ``.pdiparams`` of ``{name: array}``: the tensors in sorted name order."""
    return b"".join(_tensor_stream(arrays[k]) for k in sorted(arrays))


def _dump_json(doc):
    return json.dumps(doc, sort_keys=True, separators=(",", ":")).encode("utf-8")


def write_model_files(path_prefix, doc, arrays):
    """Write ``path_prefix.json`` and ``path_prefix.pdiparams`` (folders made as needed)."""
    d = os.path.dirname(path_prefix)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path_prefix + ".json", "wb") as f:
        f.write(_dump_json(doc))
    with open(path_prefix + ".pdiparams", "wb") as f:
        f.write(pdiparams_bytes(arrays))


# ---------------------------------------------------------------------------- static programs
def _as_list(v):
    return list(v) if isinstance(v, (list, tuple)) else [v]


def _ancestors(fetch_nodes):
    keep, stack = set(), list(fetch_nodes)
    while stack:
        n = stack.pop()
        if n not in keep:
            keep.add(n)
            stack.extend(n.all_input_nodes)
    return keep


def _node_of(program, v):
    return v if isinstance(v, torch.fx.Node) else program.fetch_node(v)


def _static_pir(program, feed_vars, fetch_vars, scope=None):
    """The PIR document and parameters of ``program``'s computation of ``fetch_vars`` from
    ``feed_vars`` with the persistables' values of ``scope``."""
    scope = scope or global_scope()
    feeds = [_node_of(program, v) for v in _as_list(feed_vars)]
    fetches = [_node_of(program, v) for v in _as_list(fetch_vars)]
    keep = _ancestors(fetches) | set(feeds)
    nodes = [n for n in program.graph.nodes if n in keep]

    def resolve(n):
        if n.op == "placeholder":
            name = n.meta.get("var_name")
            t = scope._vars.get(name)
            if t is None:
                raise RuntimeError(f"persistable '{name}' is not in the scope: run the startup "
                                   "program first")
            return name, t, bool(n.meta.get("trainable", False))
        t = program.attribute(n.target)          # a Layer's parameter used in the program
        names[n] = f"constant_folding_{len(names)}"
        return names[n], t, bool(t.requires_grad)

    names = {}
    # Paddle lists a static program's own parameters (static.nn.fc's) before those of the
    # nn.Layers built under program_guard (so after them once reversed)
    persist = [n for n in nodes if n.op == "placeholder" and n.meta.get("persistable")]
    creation = [n.meta.get("var_name") for n in persist if not n.meta.get("layer_parameter")]
    creation += [n.meta.get("var_name") for n in persist if n.meta.get("layer_parameter")]
    creation += [f"constant_folding_{k}" for k in
                 range(sum(1 for n in nodes if n.op == "get_attr"))]
    feed_list = [(n, n.meta.get("var_name") or n.name, True) for n in feeds]
    return program_to_pir(nodes, feed_list, fetches, resolve, "save_inference_model",
                          creation)


def _program_arg(kwargs, where):
    program = kwargs.get("program") or default_main_program()
    if not isinstance(program, Program):
        raise TypeError(f"{where}: program must be a paddle.static.Program, got "
                        f"{type(program).__name__}")
    return program


def save_inference_model(path_prefix, feed_vars, fetch_vars, executor, **kwargs):
    """``paddle.static.save_inference_model``: ``path_prefix.json`` (the PIR program of
    ``fetch_vars`` computed from ``feed_vars``) and ``path_prefix.pdiparams`` (the
    persistables it reads, from the Scope), as Paddle 3.x writes them; Paddle and
    ``load_inference_model`` load them. ``program=``: the Program (default: the main one)."""
    if not isinstance(path_prefix, (str, os.PathLike)):
        raise ValueError(f"'path_prefix' should be a string, but received "
                         f"{type(path_prefix).__name__}")
    path_prefix = os.fspath(path_prefix)
    if os.path.basename(path_prefix) == "":
        raise ValueError("The input path MUST be format of dirname/file_prefix [dirname\\"
                         "file_prefix in Windows system], but received file_prefix is empty "
                         "string.")
    program = _program_arg(kwargs, "save_inference_model")
    doc, arrays = _static_pir(program, feed_vars, fetch_vars, _scope_of(executor))
    write_model_files(path_prefix, doc, arrays)


def _scope_of(executor):
    return getattr(executor, "_scope", None) or global_scope()


def normalize_program(program, feed_vars, fetch_vars, **kwargs):
    """``paddle.static.normalize_program``: the program pruned to what ``fetch_vars`` need
    from ``feed_vars``, without backward and optimizer ops (a ``clone(for_test=True)`` whose
    graph keeps only the fetches' ancestors)."""
    if not isinstance(program, Program):
        raise TypeError(f"program type must be `paddle.static.Program`, but received "
                        f"`{type(program).__name__}`")
    feeds = [program.fetch_node(v) for v in _as_list(feed_vars)]
    fetches = [program.fetch_node(v) for v in _as_list(fetch_vars)]
    keep = _ancestors(fetches) | set(feeds)
    for n in keep:
        if n.meta.get("role") in ("backward", "optimize"):
            raise ValueError("normalize_program: a fetch depends on backward/optimizer ops")
    p = program.clone(for_test=True)
    names = {n.name for n in keep}
    for n in reversed(list(p.graph.nodes)):
        if n.op != "output" and n.name not in names and not n.users:
            p.graph.erase_node(n)
    return p


def serialize_program(feed_vars, fetch_vars, **kwargs):
    """``paddle.static.serialize_program``: the bytes of the model file
    ``save_inference_model`` writes (PIR JSON). Paddle 3.3.1 raises AttributeError here in
    PIR mode (it asks the PIR program for the old ``desc``); this follows its documentation."""
    program = _program_arg(kwargs, "serialize_program")
    doc, _ = _static_pir(program, feed_vars, fetch_vars)
    return _dump_json(doc)


def serialize_persistables(feed_vars, fetch_vars, executor, **kwargs):
    """``paddle.static.serialize_persistables``: the bytes of the ``.pdiparams`` file
    ``save_inference_model`` writes (the persistables the fetches need, sorted by name)."""
    program = _program_arg(kwargs, "serialize_persistables")
    _, arrays = _static_pir(program, feed_vars, fetch_vars, _scope_of(executor))
    return pdiparams_bytes(arrays)


class SerializedProgram:
    """What ``deserialize_program`` returns: the program bytes, checked to be a PIR JSON
    program; ``deserialize_persistables`` turns it into the runnable program
    ``load_inference_model`` gives. ``feed_target_names``: the inputs' names."""

    def __init__(self, data):
        try:
            doc = json.loads(bytes(data).decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            raise ValueError(f"deserialize_program: not a PIR JSON program ({e})") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("base_code"), dict) or \
                doc["base_code"].get("magic") != "pir":
            raise ValueError("deserialize_program: not a PIR JSON program")
        self.data = bytes(data)
        ops = doc.get("program", {}).get("regions", [{}])[0].get("blocks", [{}])[0].get("ops", [])
        self.feed_target_names = [a["AT"]["D"] for o in ops if o.get("#") == "1.data"
                                  for a in o.get("A", []) if a.get("N") == "name"]
        # the persistable ones (OA[0]): those the .pdiparams holds (not an rnn's dropout state)
        self.parameter_names = sorted(o["A"][-1] for o in ops if o.get("#") == "p"
                                      and (o.get("OA") or [1])[0])


def deserialize_program(data):
    """``paddle.static.deserialize_program``: a program from ``serialize_program``'s bytes."""
    return SerializedProgram(data)


def deserialize_persistables(program, data, executor):
    """``paddle.static.deserialize_persistables``: join ``serialize_persistables``' bytes to
    the deserialized program; returns the runnable program (``executor.run(program,
    feed=..., fetch_list=program.fetch_targets)``), as ``load_inference_model`` gives it."""
    if not isinstance(program, SerializedProgram):
        raise TypeError("deserialize_persistables: program must come from deserialize_program")
    read_tensors(bytes(data), "deserialize_persistables", len(program.parameter_names))
    with tempfile.TemporaryDirectory() as d:
        prefix = os.path.join(d, "model")
        with open(prefix + ".json", "wb") as f:
            f.write(program.data)
        with open(prefix + ".pdiparams", "wb") as f:
            f.write(bytes(data))
        return _hooks.load_inference_model(prefix, executor)[0]


def save_to_file(path, content):
    """``paddle.static.save_to_file``: write ``content`` (bytes) to ``path``."""
    if not isinstance(content, bytes):
        raise ValueError("'content' type should be bytes.")
    with open(path, "wb") as f:
        f.write(content)


def load_from_file(path):
    """``paddle.static.load_from_file``: the bytes of ``path``."""
    if not os.path.isfile(path):
        raise ValueError(f"{path} is not a file")
    with open(path, "rb") as f:
        return f.read()


# ---------------------------------------------------------------------------- save / load
def _persistables(program):
    """[(name, is parameter)] of the program's persistable variables, in definition order."""
    out = []
    for n in program.graph.nodes:
        if n.op == "placeholder" and n.meta.get("persistable"):
            out.append((n.meta.get("var_name"), bool(n.meta.get("parameter"))))
    return out


def _numpy_of(t):
    t = t.detach().cpu()
    if t.dtype is torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16).copy()
    return t.numpy().copy()


def save(program, model_path, protocol=4, **configs):
    """``paddle.static.save``: ``model_path.pdparams`` (a pickled dict name -> ndarray of the
    parameters), ``model_path.pdopt`` (the other persistables: optimizer state, learning
    rate) and ``model_path.json`` (the forward program as PIR JSON, where it can be written:
    Paddle writes its whole training program there; ours holds the forward)."""
    if not isinstance(protocol, int) or not 2 <= protocol <= 4:
        raise ValueError(f"Expected 1<'protocol'<5, but received protocol={protocol}")
    base = os.path.basename(model_path)
    if base == "":
        raise ValueError("The input model_path MUST be format of dirname/filename "
                         "[dirname\\filename in Windows system], but received model_path is "
                         "empty string.")
    d = os.path.dirname(model_path)
    if d:
        os.makedirs(d, exist_ok=True)
    scope = global_scope()
    params, opt = {}, {}
    # Paddle lists the parameters as its program does: the last defined first
    for name, is_param in reversed(_persistables(program)):
        t = scope._vars.get(name)
        if t is not None:
            (params if is_param else opt)[name] = _numpy_of(t)
    with open(model_path + ".pdparams", "wb") as f:
        pickle.dump(params, f, protocol=protocol)
    with open(model_path + ".pdopt", "wb") as f:
        pickle.dump(opt, f, protocol=protocol)
    try:
        doc = _forward_pir(program)
    except (NotImplementedError, RuntimeError) as e:
        warnings.warn(f"paddle.static.save: {model_path}.json (the program) is not written: "
                      f"{e}")
        doc = None
    if doc is not None:
        with open(model_path + ".json", "wb") as f:
            f.write(_dump_json(doc))


def _forward_pir(program):
    """The forward part of a training program: feeds = its data placeholders, fetches = the
    forward values no forward op uses (the losses)."""
    fwd = [n for n in program.graph.nodes if n.op not in ("output",) and
           n.meta.get("role") not in ("backward", "optimize") and "persist_out" not in n.meta]
    feeds = [n for n in fwd if n.op == "placeholder" and not n.meta.get("persistable")]
    fset = set(fwd)
    ends = [n for n in fwd if n.op == "call_function" or n.op == "call_method"]
    ends = [n for n in ends if not any(u in fset for u in n.users)]
    if not ends:
        return None
    doc, _ = _static_pir(program, feeds, ends)
    return doc


def _load_pickle(path):
    with open(path, "rb") as f:
        return _fio._Unpickler(f).load()


def load_program_state(model_path, var_list=None):
    """``paddle.static.load_program_state``: ``{name: ndarray}`` from ``model_path.pdparams``
    (and ``.pdopt`` when present), or from a folder written by ``save_vars`` (one file per
    variable; ``var_list`` names the ones to read)."""
    model_path = os.fspath(model_path)
    prefix = model_path[:-len(".pdparams")] if model_path.endswith(".pdparams") else model_path
    if os.path.isfile(prefix + ".pdparams"):
        state = {}
        for ext in (".pdparams", ".pdopt"):
            if os.path.isfile(prefix + ext):
                d = _load_pickle(prefix + ext)
                if not isinstance(d, dict):
                    raise ValueError(f"{prefix + ext} does not hold a dict")
                state.update({k: v for k, v in d.items() if isinstance(v, np.ndarray)})
        return state
    if os.path.isdir(model_path):
        names = [getattr(v, "name", v) for v in var_list] if var_list else \
            sorted(os.listdir(model_path))
        state = {}
        for name in names:
            p = os.path.join(model_path, name)
            if os.path.isfile(p):
                state[name] = read_tensors(load_from_file(p), p, 1)[0]
        return state
    raise ValueError(f"Failed to load model/variables `{model_path}`, please make sure model/"
                     "variables file is saved with the following APIs: save_params, "
                     "save_persistables, paddle.save, paddle.static.save")


def set_program_state(program, state_dict):
    """``paddle.static.set_program_state``: copy ``state_dict``'s arrays into the Scope's
    persistables of ``program`` (same shape and dtype required); warns about names the
    program does not have."""
    scope = global_scope()
    used = set()
    for name, _ in _persistables(program):
        if name not in state_dict:
            continue
        used.add(name)
        arr = np.asarray(state_dict[name])
        old = scope._vars.get(name)
        t = torch.as_tensor(arr.copy())
        if old is not None:
            if list(old.shape) != list(t.shape):
                raise ValueError(f"{name} receives a shape {list(t.shape)}, but the expected "
                                 f"shape is {list(old.shape)}.")
            with torch.no_grad():
                old.copy_(t.to(old.dtype))
        else:
            scope._vars[name] = t
    unused = sorted(set(state_dict) - used)
    if unused:
        warnings.warn(f"This list is not set, Because of Parameter not found in program. "
                             f"There are: {' '.join(unused)}")


def load(program, model_path, executor=None, var_list=None):
    """``paddle.static.load``: the values saved by ``static.save`` (``.pdparams``, ``.pdopt``)
    or ``save_vars`` (a folder) into the Scope's persistables of ``program``."""
    state = load_program_state(model_path, var_list)
    if var_list is not None:
        names = {getattr(v, "name", v) for v in var_list}
        state = {k: v for k, v in state.items() if k in names}
    set_program_state(program, state)


def _vars_of(main_program, vars, predicate):
    program = main_program or default_main_program()
    if vars is not None:
        return program, [getattr(v, "name", v) for v in vars]
    names = []
    for name, _ in _persistables(program):
        if predicate is None or predicate(program.global_block().var(name)):
            names.append(name)
    return program, names


def save_vars(executor, dirname, main_program=None, vars=None, predicate=None, filename=None):
    """``paddle.static.save_vars``: each variable (``vars``, or the program's persistables
    that ``predicate`` accepts) as a LoDTensor stream file ``dirname/NAME``; with
    ``filename``, all in one file ``dirname/filename`` (sorted by name)."""
    program, names = _vars_of(main_program, vars, predicate)
    scope = _scope_of(executor)
    os.makedirs(dirname, exist_ok=True)
    arrays = {}
    for name in names:
        t = scope._vars.get(name)
        if t is None:
            raise ValueError(f"save_vars: variable '{name}' is not in the scope")
        arrays[name] = _to_array(t)
    if filename is not None:
        save_to_file(os.path.join(dirname, filename), pdiparams_bytes(arrays))
        return
    for name, a in arrays.items():
        save_to_file(os.path.join(dirname, name), _tensor_stream(a))


def load_vars(executor, dirname, main_program=None, vars=None, predicate=None, filename=None):
    """``paddle.static.load_vars``: read what ``save_vars`` wrote into the Scope."""
    program, names = _vars_of(main_program, vars, predicate)
    if filename is not None:
        p = os.path.join(dirname, filename)
        arrays = read_tensors(load_from_file(p), p, len(names))
        state = dict(zip(sorted(names), arrays))
    else:
        state = {}
        for name in names:
            p = os.path.join(dirname, name)
            state[name] = read_tensors(load_from_file(p), p, 1)[0]
    scope = _scope_of(executor)
    for name, a in state.items():
        t = a if isinstance(a, torch.Tensor) else torch.as_tensor(a.copy())
        old = scope._vars.get(name)
        if old is not None:
            with torch.no_grad():
                old.copy_(t.to(old.dtype))
        else:
            scope._vars[name] = t
