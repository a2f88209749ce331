"""Paddle's operator types (``op_type``, the C++ operator names of its fluid ProgramDesc:
``elementwise_add``, ``tril_triu``, ``reshape2``...) with their slot names, mapped to
paddle_compat's ops: ONE registry that serves

* reading Paddle 2.x ``.pdmodel`` files (``jit.program_desc`` registers its table here and
  reads the merged one back),
* ``Block.append_op(type=..., inputs={slot: Variables}, outputs=..., attrs=...)`` in a static
  Program (``append_static``: the op is recorded by calling our ops on the Variables),
* ``core.Operator`` / ``core.get_all_op_protos`` / ``OpProtoHolder`` (``run_eager``,
  ``op_proto``): what Paddle's operator tests (``OpTest``) build operators with.

An entry is ``op_type -> (handler, input slots, output slots)``; ``handler(layer, ins, attrs)``
takes the inputs in slot order (``None`` for a slot not given, a list for a slot ending in
``*``) and returns the outputs in slot order (``None`` for an output it does not make).
A handler may be a ``"pd_op.*"`` name that ``jit.program_desc`` resolves (``register``'s
``pir``). ``OP_ATTRS`` declares each op type's attributes with their defaults (their protobuf
types follow from the defaults); ``NO_GRAD`` lists the op types without a gradient op.
"""
import torch

from .. import ops as _ops
from ..ops import decomposition as _dec
from ..framework import hooks as _hooks
from ..framework import dtype as _dt
from ..ops import random as _random

__all__ = ["FLUID_OPS", "OP_ATTRS", "KERNEL_ATTRS", "NO_GRAD", "GRAD_BY_FORWARD_OP", "ALL_INPUTS", "dtype_name", "kernel_signature", "register", "lookup", "slots", "run",
           "op_proto_fields", "has_grad"]

FLUID_OPS = {}
OP_ATTRS = {}
KERNEL_ATTRS = {}
NO_GRAD = set()
#: differentiable op types whose gradient op is a forward op (``unbind``'s is ``stack``,
#: ``flip``'s is ``flip``...): Paddle registers no ``<op>_grad`` kernel for them
GRAD_BY_FORWARD_OP = {"assign", "cast", "conj", "dequantize_linear", "diag_embed", "exponential",
                      "flatten_contiguous_range", "flip", "quantize_linear", "scale", "split",
                      "sum", "unbind"}
#: op types whose kernel signature lists every input slot, the optional ones not given too
#: (Paddle's optimizer kernels: their Python APIs take ``master_param`` and such by position)
ALL_INPUTS = set()
_PIR = {}


def register(table, attrs=None, no_grad=(), pir=None, all_inputs=()):
    """Add ``table``'s entries (op_type -> (handler, input slots, output slots)); ``attrs``
    their attributes {op_type: {name: default}}; ``no_grad`` the op types without gradients;
    ``pir`` the callables of ``"pd_op.*"`` handler names; ``all_inputs`` the op types whose
    kernel signature names all their input slots. Returns the registry."""
    FLUID_OPS.update(table)
    for k, v in (attrs or {}).items():
        OP_ATTRS.setdefault(k, {}).update(v)
    NO_GRAD.update(no_grad)
    ALL_INPUTS.update(all_inputs)
    _PIR.update(pir or {})
    return FLUID_OPS


_loaded = []


def load_tables():
    """Bring in the tables registered by floors above this one (``jit.program_desc``): the
    whole registry, before listing it."""
    if not _loaded:
        _hooks.fluid_op_tables()
        _loaded.append(True)
    return FLUID_OPS


def lookup(op_type):
    """``(handler, input slots, output slots)`` of ``op_type``; ValueError naming it when it is
    not registered."""
    entry = FLUID_OPS.get(op_type)
    if entry is None and not _loaded:
        load_tables()
        entry = FLUID_OPS.get(op_type)
    if entry is None:
        raise ValueError(f"(NotFound) Operator ({op_type}) is not registered: paddle_compat "
                         f"maps {len(FLUID_OPS)} Paddle op types to its ops, not this one")
    handler, ins, outs = entry
    if isinstance(handler, str):
        handler = _PIR[handler]
    return handler, ins, outs


def slots(names):
    """``[(slot name, duplicable)]`` of a slot list (``X*`` is a duplicable slot, ``X?`` a
    first slot that is optional too); parsed once per list (operators run it every call)."""
    key = tuple(names)
    got = _SLOTS.get(key)
    if got is None:
        got = _SLOTS[key] = tuple((s.rstrip("*?"), s.rstrip("?").endswith("*")) for s in key)
    return got


_SLOTS = {}


def kernel_signature(op_type, inputs, outputs, attrs):
    """(input slots, attribute names, output slots) of ``op_type``'s kernel, in the order of
    its Python API's arguments: the input slots given (``inputs``), the attributes
    (``KERNEL_ATTRS`` where the kernel takes other than all declared ones, or a function of
    ``attrs`` giving them), the output slots.
    RuntimeError when the type is not registered (Paddle: no kernel signature)."""
    if op_type not in load_tables():
        raise RuntimeError(f"(NotFound) no kernel signature for operator {op_type}")
    _, in_slots, out_slots = FLUID_OPS[op_type]
    every = op_type in ALL_INPUTS
    ins = [n for n, _ in slots(in_slots) if n in inputs or every]
    names = KERNEL_ATTRS.get(op_type)
    if names is None:
        names = list(OP_ATTRS.get(op_type, {}))
    elif callable(names):       # the signature depends on the inputs or attributes given
        ins, names = names(ins, attrs or {})
    # an input slot the kernel takes as an attribute (allclose's Rtol) is among the attributes
    ins = [n for n in ins if n not in names]
    return ins, list(names), [n for n, _ in slots(out_slots)]


def _tensor_attr(slot, attr, names, *more):
    """A kernel signature where the input ``slot``, when given, stands in ``names`` for the
    attribute ``attr`` (``top_k_v2``'s ``K`` for ``k``); ``more``: further (slot, attr)
    pairs (``fill_constant``'s ShapeTensor or ShapeTensorList for ``shape``, ValueTensor for
    ``value``)."""
    pairs = ((slot, attr),) + more

    def sig(ins, attrs):
        given = {a: s for s, a in pairs if s in ins}
        if not given:
            return ins, names
        return [n for n in ins if n not in given.values()], [given.get(n, n) for n in names]
    return sig


def _int_array_attrs(names, **slots):
    """A kernel signature with the attributes ``names``, where an int-array attribute is
    given by the first of its input ``slots`` present instead (Paddle's IntArray arguments:
    ``slice``'s ``starts`` from ``StartsTensor`` or ``StartsTensorList``)."""
    def sig(ins, attrs):
        base = names(ins, attrs)[1] if callable(names) else names
        return ins, [next((s for s in slots.get(n, ()) if s in ins), n) for n in base]
    return sig


def has_grad(op_type):
    """Whether ``op_type`` has a gradient op (is differentiable)."""
    return op_type in load_tables() and op_type not in NO_GRAD


class _Layer:
    """What a handler's ``layer`` argument says: whether the op runs for training."""

    def __init__(self, training):
        self.training = training


def run(op_type, inputs, attrs, training=True):
    """Apply ``op_type`` to ``inputs`` ({slot: a tensor or a list of them}) with ``attrs``:
    the outputs as {slot: a tensor or a list}. Works on eager tensors and, inside a static
    Program, on its Variables (the op is recorded). A slot the op type does not have is a
    ValueError naming it."""
    handler, in_slots, out_slots = lookup(op_type)
    known = dict(slots(in_slots))
    for name in inputs:
        if name not in known:
            raise ValueError(f"(InvalidArgument) Operator {op_type} has no input slot "
                             f"'{name}' (its inputs: {', '.join(known)})")
    ins = []
    for name, dup in slots(in_slots):
        v = inputs.get(name)
        if dup:
            v = None if v is None else (list(v) if isinstance(v, (list, tuple)) else [v])
        elif isinstance(v, (list, tuple)):
            if len(v) > 1:
                raise ValueError(f"(InvalidArgument) Input {name} of operator {op_type} "
                                 f"expects only one input, but {len(v)} are given")
            v = v[0] if v else None
        ins.append(v)
    a = dict(OP_ATTRS.get(op_type, {}))
    a.update({k: v for k, v in (attrs or {}).items() if v is not None})   # None: not set
    outs = list(handler(_Layer(training and not a.get("is_test", False)), ins, a))
    out = slots(out_slots)
    dups = [i for i, (_, dup) in enumerate(out) if dup]
    if len(outs) != len(out) and len(dups) == 1:
        # a handler shared with the .pdmodel reader gives its outputs flat: the one list slot
        # takes those between the slots before and after it
        i, tail = dups[0], len(out) - dups[0] - 1
        outs = outs[:i] + [outs[i:len(outs) - tail]] + outs[len(outs) - tail:]
    result = {}
    for (name, dup), v in zip(out, outs):
        if v is not None:
            result[name] = (list(v) if isinstance(v, (list, tuple)) else [v]) if dup else v
    return result


def op_proto_fields(op_type):
    """(inputs, outputs, attrs) of ``op_type``'s OpProto: inputs/outputs as
    ``(name, duplicable, dispensable or intermediate)`` (every slot after the first is
    optional), attrs as ``(name, default)``."""
    _, in_slots, out_slots = lookup(op_type)
    ins = [(n, dup, k > 0 or raw.endswith("?"))
           for k, ((n, dup), raw) in enumerate(zip(slots(in_slots), in_slots))]
    outs = [(n, dup, k > 0) for k, (n, dup) in enumerate(slots(out_slots))]
    return ins, outs, list(OP_ATTRS.get(op_type, {}).items())


# ---------------------------------------------------------------------- op types
#: the proto data type codes (``VarType``) of op attributes such as ``dtype``
DTYPE_NAME = _dt.VARTYPE_NAMES


def dtype_name(code, op_type="op"):
    """The data type name of a ``dtype`` attribute: a VarType number (or a
    ``core.VarDesc.VarType`` member), a DataType number (``int(paddle.int32)``, what an OpDesc
    built from a dtype holds), a Paddle data type or its name; None for a negative number
    (not set). ValueError naming ``op_type`` for a number that is no data type."""
    if code is None:
        return None
    if isinstance(code, (str, _dt.DType)) or not hasattr(type(code), "__int__"):
        return _dt.convert_dtype(code).name
    n = int(code)
    if n < 0:
        return None
    name = DTYPE_NAME.get(n)
    if name is None:
        d = next((d for d in _dt.ALL_DTYPES.values() if d._code == n), None)
        if d is None:
            raise ValueError(f"(InvalidArgument) {op_type}: unknown data type number {code}")
        name = d.name
    return name


def _unary(fn):
    return lambda layer, ins, a: [fn(ins[0])]


def _binary(fn):
    return lambda layer, ins, a: [fn(ins[0], ins[1])]


def _tril_triu(layer, ins, a):
    fn = _ops.tril if a["lower"] else _ops.triu
    return [fn(ins[0], a["diagonal"])]


def _scan(fn, exclusive):
    """A fluid scan op (``cumsum``, ``logcumsumexp``) with its ``flatten``/``reverse``/
    ``exclusive`` attributes: ``fn(x, axis)`` the inclusive scan, ``exclusive(x, out, axis)``
    the running value before each element."""
    def run(layer, ins, a):
        x = ins[0]
        if a["flatten"]:
            x, axis = _ops.flatten(x), 0
        else:
            axis = a["axis"]
        if a["reverse"]:
            x = _ops.flip(x, [axis])
        out = fn(x, axis)
        if a["exclusive"]:
            out = exclusive(x, out, axis)
        if a["reverse"]:
            out = _ops.flip(out, [axis])
        return [out]
    return run


def _logcumsumexp_exclusive(x, out, axis):
    """The running value before each element; the first is the dtype's lowest finite value,
    as Paddle's kernel starts from."""
    n = x.shape[axis]
    head = _ops.full_like(_ops.slice(out, [axis], [0], [1]),
                          torch.finfo(_dt.convert_dtype(x.dtype).torch).min)
    return _ops.concat([head, _ops.slice(out, [axis], [0], [n - 1])], axis)


_cumsum = _scan(_ops.cumsum, lambda x, out, axis: _ops.subtract(out, x))
_logcumsumexp = _scan(_ops.logcumsumexp, _logcumsumexp_exclusive)


def _gather(layer, ins, a):
    axis = ins[2] if ins[2] is not None else a["axis"]
    return [_ops.gather(ins[0], ins[1], axis)]


def _randint(layer, ins, a):
    shape = ins[0] if ins[0] is not None else (list(ins[1]) if ins[1] is not None
                                               else a["shape"])
    return [_ops.randint(a["low"], a["high"], shape, dtype_name(a["dtype"]))]


def _repeat_interleave(layer, ins, a):
    repeats = ins[1] if ins[1] is not None else a["Repeats"]
    return [_ops.repeat_interleave(ins[0], repeats, a["dim"])]


def _top_k_v2(layer, ins, a):
    k = ins[1] if ins[1] is not None else a["k"]
    return list(_ops.topk(ins[0], k, a["axis"], a["largest"], a["sorted"]))


def _unique_consecutive(layer, ins, a):
    axis = a["axis"]
    axis = axis[0] if isinstance(axis, (list, tuple)) and axis else (
        None if isinstance(axis, (list, tuple)) else axis)
    inv, cnt = a["return_inverse"], a["return_counts"]
    got = _ops.unique_consecutive(ins[0], inv, cnt, axis, dtype_name(a["dtype"]))
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    return [got[0], got[1] if inv else None, got[-1] if cnt else None]




def _allclose(layer, ins, a):
    rtol = ins[2] if ins[2] is not None else float(a["rtol"])
    atol = ins[3] if ins[3] is not None else float(a["atol"])
    return [_ops.allclose(ins[0], ins[1], rtol, atol, a["equal_nan"])]


def _cummin(layer, ins, a):
    return list(_ops.cummin(ins[0], a["axis"], dtype_name(a["dtype"], "cummin")))


def _empty(layer, ins, a):
    if ins[0] is not None:
        shape = ins[0]
    elif ins[1] is not None:
        shape = list(ins[1])
    else:
        shape = list(a["shape"])
    return [_ops.empty(shape, dtype_name(a["dtype"], "empty"))]


def _eye(layer, ins, a):
    cols = a["num_columns"]
    return [_ops.eye(a["num_rows"], None if cols < 0 else cols,
                     dtype_name(a["dtype"], "eye"))]


def _fill_any_like(layer, ins, a):
    dt = None if isinstance(a["dtype"], int) and a["dtype"] < 0 else \
        dtype_name(a["dtype"], "fill_any_like")
    return [_ops.full_like(ins[0], a["value"], dt)]


def _linspace(layer, ins, a):
    return [_ops.linspace(ins[0], ins[1], ins[2], dtype_name(a["dtype"], "linspace"))]


def _range(layer, ins, a):
    return [_ops.arange(ins[0], ins[1], ins[2], ins[0].dtype)]


def _expand_v2(layer, ins, a):
    shape = ins[1] if ins[1] is not None else (list(ins[2]) if ins[2] is not None
                                                else a["shape"])
    return [_ops.expand(ins[0], shape)]


def _argsort(layer, ins, a):
    x, axis, desc = ins[0], a["axis"], a["descending"]
    idx = _ops.argsort(x, axis, desc, a["stable"])
    return [_ops.take_along_axis(x, idx, axis), idx]


def _cummax(layer, ins, a):
    return list(_ops.cummax(ins[0], a["axis"], dtype_name(a["dtype"])))


def _exponential(layer, ins, a):
    """A new tensor of ``X``'s shape and dtype drawn from the exponential distribution."""
    return [_random.exponential_like(ins[0], a["lambda"])]


def _expand_as_v2(layer, ins, a):
    return [_ops.expand_as(ins[0], ins[1]) if ins[1] is not None
            else _ops.expand(ins[0], list(a["target_shape"]))]


def _gaussian_random(layer, ins, a):
    shape = ins[0] if ins[0] is not None else (list(ins[1]) if ins[1] else list(a["shape"]))
    return [_random.gaussian(shape, a["mean"], a["std"], a["seed"], dtype_name(a["dtype"]))]


def _huber_loss(layer, ins, a):
    """(Out, Residual): ``r = Y - X``; ``0.5 r^2`` where ``|r| <= delta``, else
    ``delta (|r| - delta / 2)``, elementwise."""
    delta = a["delta"]
    r = _ops.subtract(ins[1], ins[0])
    ar = _ops.abs(r)
    out = _ops.where(ar <= delta, _ops.scale(_ops.square(r), 0.5),
                     _ops.scale(ar, delta, -0.5 * delta * delta))
    return [out, r]


def _isclose(layer, ins, a):
    x, y, rtol, atol = ins
    return [_ops.isclose(x, y, float(a["rtol"]) if rtol is None else rtol,
                         float(a["atol"]) if atol is None else atol, a["equal_nan"])]


def _logspace(layer, ins, a):
    dt = dtype_name(a["dtype"])
    return [_ops.logspace(ins[0], ins[1], ins[2], ins[3], dt)]


def _reduce_bool(fn):
    def run(layer, ins, a):
        axis = None if a["reduce_all"] else (list(a["dim"]) or None)
        return [fn(ins[0], axis=axis, keepdim=a["keep_dim"])]
    return run


def _nanmedian(layer, ins, a):
    """Out, and MedianIndex: the position of the lower median ("min" mode), or of the lower
    and the upper one ("avg", the last dimension; the upper is the lower of ``-x``)."""
    axis = list(a["axis"]) or None
    low, idx = _ops.nanmedian(ins[0], axis, a["keepdim"], "min")
    if a["mode"] == "min":
        return [low, idx]
    out = _ops.nanmedian(ins[0], axis, a["keepdim"], "avg")
    _, upper = _ops.nanmedian(_ops.neg(ins[0]), axis, a["keepdim"], "min")
    return [out, _ops.stack([idx, upper], -1)]


def _roll(layer, ins, a):
    shifts = ins[1] if ins[1] is not None else list(a["shifts"])
    return [_ops.roll(ins[0], shifts, list(a["axis"]) or None)]


def _tile(layer, ins, a):
    reps = (ins[1] if ins[1] is not None else
            list(ins[2]) if ins[2] is not None else list(a["repeat_times"]))
    return [_ops.tile(ins[0], reps)]


def _unique(layer, ins, a):
    """Outputs Out, Indices (first occurrences), Index (the inverse), Counts."""
    axis = list(a["axis"])
    res = _ops.unique(ins[0], return_index=True, return_inverse=True, return_counts=True,
                      axis=axis[0] if axis else None, dtype=dtype_name(a["dtype"]))
    out, index, inverse, counts = res
    if not a["is_sorted"]:
        # the legacy op (is_sorted False): the unique values in the order they first appear
        order = _ops.argsort(index)
        out = _ops.index_select(out, order, axis[0] if axis else 0)
        inverse = _ops.index_select(_ops.argsort(order), inverse)
        index, counts = _ops.index_select(index, order), _ops.index_select(counts, order)
    return [out, index if a["return_index"] else None,
            inverse if a["return_inverse"] or not a["is_sorted"] else None,
            counts if a["return_counts"] else None]


_NEW = {
    "addmm": (lambda layer, ins, a: [_ops.addmm(ins[0], ins[1], ins[2], a["Beta"], a["Alpha"])],
              ["Input", "X", "Y"], ["Out"]),
    "allclose": (_allclose, ["Input", "Other", "Rtol", "Atol"], ["Out"]),
    "bernoulli": (_unary(_ops.bernoulli), ["X"], ["Out"]),
    "bincount": (lambda layer, ins, a: [_ops.bincount(ins[0], ins[1], a["minlength"])],
                 ["X", "Weights"], ["Out"]),
    "bmm": (_binary(_ops.bmm), ["X", "Y"], ["Out"]),
    "cholesky": (lambda layer, ins, a: [_ops.cholesky(ins[0], a["upper"])], ["X"], ["Out"]),
    "complex": (_binary(_ops.complex), ["X", "Y"], ["Out"]),
    "cross": (lambda layer, ins, a: [_ops.cross(ins[0], ins[1], a["dim"])], ["X", "Y"],
              ["Out"]),
    "cummin": (_cummin, ["x"], ["out", "indices"]),
    "diag_embed": (lambda layer, ins, a: [_ops.diag_embed(ins[0], a["offset"], a["dim1"],
                                                          a["dim2"])], ["Input"], ["Out"]),
    "dist": (lambda layer, ins, a: [_ops.dist(ins[0], ins[1], a["p"])], ["X", "Y"], ["Out"]),
    "eigvalsh": (lambda layer, ins, a: [_ops.eigvalsh(ins[0], a["UPLO"]), None], ["X"],
                 ["Eigenvalues", "Eigenvectors"]),
    "empty": (_empty, ["ShapeTensor?", "ShapeTensorList*"], ["Out"]),
    "erfinv": (_unary(_ops.erfinv), ["X"], ["Out"]),
    "eye": (_eye, [], ["Out"]),
    "fill_any_like": (_fill_any_like, ["X"], ["Out"]),
    "flip": (lambda layer, ins, a: [_ops.flip(ins[0], a["axis"])], ["X"], ["Out"]),
    "index_sample": (_binary(_ops.index_sample), ["X", "Index"], ["Out"]),
    "inverse": (_unary(_ops.inverse), ["Input"], ["Output"]),
    "lgamma": (_unary(_ops.lgamma), ["X"], ["Out"]),
    "linspace": (_linspace, ["Start", "Stop", "Num"], ["Out"]),
    "logit": (lambda layer, ins, a: [_ops.logit(ins[0], a["eps"])], ["X"], ["Out"]),
    "logsumexp": (lambda layer, ins, a: [_ops.logsumexp(
        ins[0], None if a["reduce_all"] else (list(a["axis"]) or None), a["keepdim"])],
        ["X"], ["Out"]),
    "masked_select": (_binary(_ops.masked_select), ["X", "Mask"], ["Y"]),
    "range": (_range, ["Start", "End", "Step"], ["Out"]),
    "tril_triu": (_tril_triu, ["X"], ["Out"]),
    "angle": (_unary(_ops.angle), ["X"], ["Out"]),
    "argsort": (_argsort, ["X"], ["Out", "Indices"]),
    "atan2": (_binary(_ops.atan2), ["X1", "X2"], ["Out"]),
    "broadcast_tensors": (lambda layer, ins, a: [_ops.broadcast_tensors(list(ins[0]))], ["X*"],
                          ["Out*"]),
    "conj": (_unary(_ops.conj), ["X"], ["Out"]),
    "cummax": (_cummax, ["x"], ["out", "indices"]),
    "diag_v2": (lambda layer, ins, a: [_ops.diag(ins[0], a["offset"], a["padding_value"])],
                ["X"], ["Out"]),
    "diagonal": (lambda layer, ins, a: [_ops.diagonal(ins[0], a["offset"], a["axis1"],
                                                      a["axis2"])], ["Input"], ["Out"]),
    "digamma": (_unary(_ops.digamma), ["X"], ["Out"]),
    "erf": (_unary(_ops.erf), ["X"], ["Out"]),
    "expand_as_v2": (_expand_as_v2, ["X", "Y"], ["Out"]),
    "exponential": (_exponential, ["X"], ["Out"]),
    "gaussian_random": (_gaussian_random, ["ShapeTensor?", "ShapeTensorList*"], ["Out"]),
    "huber_loss": (_huber_loss, ["X", "Y"], ["Out", "Residual"]),
    "index_add": (lambda layer, ins, a: [_ops.index_add(ins[0], ins[1], a["axis"], ins[2])],
                  ["X", "Index", "AddValue"], ["Out"]),
    "index_select": (lambda layer, ins, a: [_ops.index_select(ins[0], ins[1], a["dim"])],
                     ["X", "Index"], ["Out"]),
    "isclose": (_isclose, ["Input", "Other", "Rtol", "Atol"], ["Out"]),
    "kthvalue": (lambda layer, ins, a: list(_ops.kthvalue(ins[0], a["k"], a["axis"],
                                                          a["keepdim"])), ["X"],
                 ["Out", "Indices"]),
    "lerp": (lambda layer, ins, a: [_ops.lerp(ins[0], ins[1], ins[2])], ["X", "Y", "Weight"],
             ["Out"]),
    "logcumsumexp": (_logcumsumexp, ["X"], ["Out"]),
    "logspace": (_logspace, ["Start", "Stop", "Num", "Base"], ["Out"]),
    "bitwise_and": (_binary(_ops.bitwise_and), ["X", "Y"], ["Out"]),
    "bitwise_or": (_binary(_ops.bitwise_or), ["X", "Y"], ["Out"]),
    "bitwise_xor": (_binary(_ops.bitwise_xor), ["X", "Y"], ["Out"]),
    "bitwise_not": (_unary(_ops.bitwise_not), ["X"], ["Out"]),
    "cumsum": (_cumsum, ["X"], ["Out"]),
    "gather": (_gather, ["X", "Index", "Axis"], ["Out"]),
    "gather_nd": (_binary(_ops.gather_nd), ["X", "Index"], ["Out"]),
    "unstack": (lambda layer, ins, a: [_ops.unstack(ins[0], a["axis"], a["num"] or None)],
                ["X"], ["Y*"]),
    "unbind": (lambda layer, ins, a: [_ops.unbind(ins[0], a["axis"])], ["X"], ["Out*"]),
    "expand_v2": (_expand_v2, ["X", "Shape", "expand_shapes_tensor*"], ["Out"]),
    "elementwise_fmax": (_binary(_ops.fmax), ["X", "Y"], ["Out"]),
    "elementwise_fmin": (_binary(_ops.fmin), ["X", "Y"], ["Out"]),
    "elementwise_heaviside": (_binary(_ops.heaviside), ["X", "Y"], ["Out"]),
    "dot": (_binary(_ops.dot), ["X", "Y"], ["Out"]),
    "kron": (_binary(_ops.kron), ["X", "Y"], ["Out"]),
    "imag": (_unary(_ops.imag), ["X"], ["Out"]),
    "multiplex": (lambda layer, ins, a: [_ops.multiplex(ins[0], ins[1])], ["X*", "Ids"],
                  ["Out"]),
    "mv": (_binary(_ops.mv), ["X", "Vec"], ["Out"]),
    "poisson": (_unary(_ops.poisson), ["X"], ["Out"]),
    "randint": (_randint, ["ShapeTensor?", "ShapeTensorList*"], ["Out"]),
    "randperm": (lambda layer, ins, a: [_ops.randperm(a["n"], dtype_name(a["dtype"]))], [],
                 ["Out"]),
    "real": (_unary(_ops.real), ["X"], ["Out"]),
    "repeat_interleave": (_repeat_interleave, ["X", "RepeatsTensor"], ["Out"]),
    "reverse": (lambda layer, ins, a: [_ops.flip(ins[0], a["axis"])], ["X"], ["Out"]),
    "sign": (_unary(_ops.sign), ["X"], ["Out"]),
    "top_k_v2": (_top_k_v2, ["X", "K"], ["Out", "Indices"]),
    "unique_consecutive": (_unique_consecutive, ["X"], ["Out", "Index", "Counts"]),
    "matrix_power": (lambda layer, ins, a: [_dec.matrix_power(ins[0], a["n"])], ["X"], ["Out"]),
    "meshgrid": (lambda layer, ins, a: [list(_ops.meshgrid(*ins[0]))], ["X*"], ["Out*"]),
    "mode": (lambda layer, ins, a: list(_ops.mode(ins[0], a["axis"], a["keepdim"])), ["X"],
             ["Out", "Indices"]),
    "multinomial": (lambda layer, ins, a: [_ops.multinomial(ins[0], a["num_samples"],
                                                            a["replacement"])], ["X"], ["Out"]),
    "nanmedian": (_nanmedian, ["X"], ["Out", "MedianIndex"]),
    "put_along_axis": (lambda layer, ins, a: [_ops.put_along_axis(
        ins[0], ins[1], ins[2], a["Axis"], a["Reduce"], a["Include_self"])],
        ["Input", "Index", "Value"], ["Result"]),
    "reduce_all": (_reduce_bool(_ops.all), ["X", "AxisTensor", "AxisTensorList*"], ["Out"]),
    "reduce_any": (_reduce_bool(_ops.any), ["X", "AxisTensor", "AxisTensorList*"], ["Out"]),
    "reduce_prod": (_reduce_bool(_ops.prod), ["X"], ["Out"]),
    "roll": (_roll, ["X", "ShiftsTensor"], ["Out"]),
    "scatter_nd_add": (lambda layer, ins, a: [_ops.scatter_nd_add(ins[0], ins[1], ins[2])],
                       ["X", "Index", "Updates"], ["Out"]),
    "searchsorted": (lambda layer, ins, a: [_ops.searchsorted(ins[0], ins[1], a["out_int32"],
                                                              a["right"])],
                     ["SortedSequence", "Values"], ["Out"]),
    "size": (_unary(_ops.numel), ["Input"], ["Out"]),
    "svd": (lambda layer, ins, a: list(_dec.svd(ins[0], a["full_matrices"])), ["X"],
            ["U", "S", "VH"]),
    "take_along_axis": (lambda layer, ins, a: [_ops.take_along_axis(ins[0], ins[1], a["Axis"])],
                        ["Input", "Index"], ["Result"]),
    "tile": (_tile, ["X", "RepeatTimes", "repeat_times_tensor*"], ["Out"]),
    "trace": (lambda layer, ins, a: [_ops.trace(ins[0], a["offset"], a["axis1"], a["axis2"])],
              ["Input"], ["Out"]),
    "tril_indices": (lambda layer, ins, a: [_ops.tril_indices(
        a["rows"], a["cols"], a["offset"], dtype_name(a["dtype"]))], [], ["out"]),
    "trunc": (_unary(_ops.trunc), ["X"], ["Out"]),
    "unique": (_unique, ["X"], ["Out", "Indices", "Index", "Counts"]),
    "where": (lambda layer, ins, a: [_ops.where(ins[0], ins[1], ins[2])],
              ["Condition", "X", "Y"], ["Out"]),
    "where_index": (lambda layer, ins, a: [_ops.nonzero(ins[0])], ["Condition"], ["Out"]),
}
_NEW_ATTRS = {
    "addmm": {"Beta": 1.0, "Alpha": 1.0},
    "allclose": {"rtol": "1e-05", "atol": "1e-08", "equal_nan": False},
    "bincount": {"minlength": 0},
    "cholesky": {"upper": False},
    "conv2d_transpose": {"strides": [1, 1], "paddings": [0, 0], "output_padding": [],
                         "output_size": [], "padding_algorithm": "EXPLICIT", "groups": 1,
                         "dilations": [1, 1], "data_format": "NCHW"},
    "cross": {"dim": 9},
    "cummin": {"axis": -1, "dtype": 3},
    "diag_embed": {"offset": 0, "dim1": -2, "dim2": -1},
    "dist": {"p": 2.0},
    "eigh": {"UPLO": "L"},
    "eigvalsh": {"UPLO": "L", "is_test": False},
    "empty": {"shape": [], "dtype": 5},
    "eye": {"num_rows": 0, "num_columns": -1, "dtype": 5},
    "fill_any_like": {"value": 0.0, "dtype": -1},
    "flip": {"axis": []},
    "gumbel_softmax": {"temperature": 1.0, "hard": False, "axis": -1},
    "linspace": {"dtype": 5},
    "logit": {"eps": 1e-6},
    "logsumexp": {"axis": [], "keepdim": False, "reduce_all": False},
    "lu": {"pivots": True},
    "tril_triu": {"diagonal": 0, "lower": False},
    "clip": {"min": 0.0, "max": 0.0},
    "clip_by_norm": {"max_norm": 0.0},
    "affine_grid": {"output_shape": [], "align_corners": True},
    "argsort": {"axis": -1, "descending": False, "stable": False},
    "cummax": {"axis": -1, "dtype": 3},
    "diag_v2": {"offset": 0, "padding_value": 0.0},
    "diagonal": {"offset": 0, "axis1": 0, "axis2": 1},
    "expand_as_v2": {"target_shape": []},
    "exponential": {"lambda": 1.0},
    "fold": {"output_sizes": [], "kernel_sizes": [], "strides": [1, 1], "paddings": [0, 0, 0, 0],
             "dilations": [1, 1]},
    "gaussian_random": {"shape": [], "mean": 0.0, "std": 1.0, "seed": 0, "dtype": 5},
    "group_norm": {"epsilon": 1e-5, "groups": 1, "data_layout": "NCHW"},
    "hierarchical_sigmoid": {"num_classes": 2, "is_sparse": False},
    "huber_loss": {"delta": 1.0},
    "index_add": {"axis": 0},
    "index_select": {"dim": 0},
    "instance_norm": {"epsilon": 1e-5},
    "isclose": {"rtol": "1e-05", "atol": "1e-08", "equal_nan": False},
    "kthvalue": {"k": 1, "axis": -1, "keepdim": False},
    "kldiv_loss": {"reduction": "mean", "log_target": False},
    "label_smooth": {"epsilon": 0.0},
    "log_loss": {"epsilon": 1e-4},
    "logcumsumexp": {"axis": -1, "flatten": False, "exclusive": False, "reverse": False},
    "logspace": {"dtype": 5},
    "cumsum": {"axis": -1, "flatten": False, "exclusive": False, "reverse": False},
    "gather": {"axis": 0},
    "matrix_power": {"n": 1},
    "mode": {"axis": -1, "keepdim": False},
    "multinomial": {"num_samples": 1, "replacement": False},
    "nanmedian": {"axis": [], "keepdim": True, "mode": "avg"},
    "pixel_unshuffle": {"downscale_factor": 1, "data_format": "NCHW"},
    "prelu": {"data_format": "NCHW", "mode": "all"},
    "put_along_axis": {"Axis": 0, "Reduce": "assign", "Include_self": True},
    "reduce_all": {"dim": [0], "keep_dim": False, "reduce_all": False},
    "reduce_any": {"dim": [0], "keep_dim": False, "reduce_all": False},
    "reduce_prod": {"dim": [0], "keep_dim": False, "reduce_all": False},
    "roll": {"shifts": [], "axis": []},
    "searchsorted": {"out_int32": False, "right": False},
    "svd": {"full_matrices": False},
    "take_along_axis": {"Axis": 0},
    "tile": {"repeat_times": []},
    "trace": {"offset": 0, "axis1": 0, "axis2": 1},
    "tril_indices": {"rows": 0, "cols": 0, "offset": 0, "dtype": 3},
    "unfold": {"kernel_sizes": [], "strides": [1, 1], "paddings": [0, 0, 0, 0],
               "dilations": [1, 1]},
    "unique": {"return_index": False, "return_inverse": False, "return_counts": False,
               "axis": [], "dtype": 3, "is_sorted": False},
    "unstack": {"axis": 0, "num": 0},
    "unbind": {"axis": 0},
    "expand_v2": {"shape": []},
    "flatten_contiguous_range": {"start_axis": 1, "stop_axis": 1},
    "stack": {"axis": 0},
    "matmul_v2": {"trans_x": False, "trans_y": False},
    "reshape2": {"shape": []},
    "transpose2": {"axis": []},
    "squeeze2": {"axes": []},
    "unsqueeze2": {"axes": []},
    "concat": {"axis": 0},
    "split": {"axis": 0, "num": 0, "sections": []},
    "slice": {"axes": [], "starts": [], "ends": [], "decrease_axis": [], "infer_flags": []},
    "scale": {"scale": 1.0, "bias": 0.0, "bias_after_scale": True},
    "softmax": {"axis": -1},
    "log_softmax": {"axis": -1},
    "pow": {"factor": 1.0},
    "leaky_relu": {"alpha": 0.02},
    "gelu": {"approximate": False},
    "cast": {"in_dtype": -1, "out_dtype": -1},
    "reduce_sum": {"dim": [], "keep_dim": False, "reduce_all": False},
    "reduce_mean": {"dim": [], "keep_dim": False, "reduce_all": False},
    "reduce_max": {"dim": [], "keep_dim": False, "reduce_all": False},
    "reduce_min": {"dim": [], "keep_dim": False, "reduce_all": False},
    "fill_constant": {"shape": [], "dtype": 5, "value": 0.0, "str_value": ""},
    "lu_unpack": {"unpack_ludata": True, "unpack_pivots": True},
    "matrix_rank": {"tol": 0.0, "hermitian": False, "use_default_tol": True},
    "matrix_nms": {"score_threshold": 0.0, "nms_top_k": -1, "keep_top_k": -1,
                   "post_threshold": 0.0, "use_gaussian": False, "gaussian_sigma": 2.0,
                   "background_label": 0, "normalized": True},
    "maxout": {"groups": 1, "axis": 1},
    "one_hot_v2": {"depth": -1, "dtype": 5, "allow_out_of_range": False},
    "pixel_shuffle": {"upscale_factor": 1, "data_format": "NCHW"},
    "qr": {"mode": "reduced"},
    "randint": {"low": 0, "high": 0, "shape": [], "dtype": 3, "seed": 0},
    "randperm": {"n": 0, "dtype": 3},
    "repeat_interleave": {"Repeats": 0, "dim": 0, "output_size": -1},
    "reverse": {"axis": []},
    "rrelu": {"lower": 0.125, "upper": 0.3333333432674408, "is_test": False},
    "segment_pool": {"pooltype": "SUM"},
    "selu": {"scale": 1.0507010221481323, "alpha": 1.6732631921768188},
    "top_k_v2": {"k": 1, "axis": -1, "largest": True, "sorted": True},
    "triangular_solve": {"upper": True, "transpose": False, "unitriangular": False},
    "unique_consecutive": {"return_inverse": False, "return_counts": False, "axis": [],
                           "dtype": 5},
    "arg_max": {"axis": -1, "keepdims": False, "flatten": False, "dtype": 3},
    "arg_min": {"axis": -1, "keepdims": False, "flatten": False, "dtype": 3},
}
for _k in ("elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div",
           "elementwise_max", "elementwise_min", "elementwise_pow", "elementwise_floordiv",
           "elementwise_mod", "elementwise_fmax", "elementwise_fmin", "elementwise_heaviside",
           "greater_than", "greater_equal", "less_than", "less_equal", "equal", "not_equal"):
    _NEW_ATTRS[_k] = {"axis": -1}
    KERNEL_ATTRS[_k] = []           # the kernels broadcast as numpy does (axis -1)
KERNEL_ATTRS["isclose"] = ["equal_nan"]     # rtol/atol come as the Rtol/Atol inputs
KERNEL_ATTRS["allclose"] = ["Rtol", "Atol", "equal_nan"]    # the tolerances as inputs
ALL_INPUTS.add("bincount")                          # Weights even when not given

for _k in ("reduce_all", "reduce_any", "reduce_prod"):
    KERNEL_ATTRS[_k] = ["dim", "keep_dim"]
# a signature that depends on the inputs or attributes given: (input slots, attributes) ->
# (input slots, attribute names)
KERNEL_ATTRS.update({
    "empty": lambda ins, a: (ins, [next((n for n in ("ShapeTensor", "ShapeTensorList")
                                         if n in ins), "shape"), "dtype"]),
    "matrix_rank": lambda ins, a: (ins, ["use_default_tol", "hermitian"] if "TolTensor" in ins
                                   else ["tol", "use_default_tol", "hermitian"]),
    "one_hot_v2": _tensor_attr("depth_tensor", "depth", ["depth", "dtype", "allow_out_of_range"]),
    "randint": _tensor_attr("ShapeTensor", "shape", ["low", "high", "shape", "dtype"],
                            ("ShapeTensorList", "shape")),
    "fill_constant": _tensor_attr("ShapeTensor", "shape", ["shape", "value", "dtype"],
                                  ("ShapeTensorList", "shape"), ("ValueTensor", "value")),
    "gaussian_random": _tensor_attr("ShapeTensor", "shape",
                                    ["shape", "mean", "std", "seed", "dtype"],
                                    ("ShapeTensorList", "shape")),
    "affine_grid": _tensor_attr("OutputShape", "output_shape",
                                ["output_shape", "align_corners"]),
    "repeat_interleave": lambda ins, a: (ins, ["dim", "output_size"] if "RepeatsTensor" in ins
                                         else ["Repeats", "dim", "output_size"]),
    # split's kernel: by sections, or split_with_num when only num is given
    "split": lambda ins, a: (ins, ["num", "axis"] if a.get("num") and not a.get("sections")
                             else ["sections", "axis"]),
    "top_k_v2": _tensor_attr("K", "k", ["k", "axis", "largest", "sorted"]),
    # int arrays given as tensors stand for the attributes, in Paddle's argument order
    "slice": _int_array_attrs(["axes", "starts", "ends", "infer_flags", "decrease_axis"],
                              starts=("StartsTensor", "StartsTensorList"),
                              ends=("EndsTensor", "EndsTensorList")),
    "unsqueeze2": _int_array_attrs(["axes"], axes=("AxesTensor", "AxesTensorList")),
    "reshape2": _int_array_attrs(["shape"], shape=("Shape", "ShapeTensor")),
    "expand_v2": _int_array_attrs(["shape"], shape=("Shape", "expand_shapes_tensor")),
    "gather": _int_array_attrs(["axis"], axis=("Axis",)),
})
KERNEL_ATTRS["split"] = _int_array_attrs(KERNEL_ATTRS["split"], axis=("AxisTensor",),
                                         sections=("SectionsTensorList",))
register(_NEW, _NEW_ATTRS,
         no_grad=("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "clip_by_norm",
                  "greater_than", "greater_equal", "less_than", "less_equal", "equal",
                  "not_equal", "shape", "arg_max", "arg_min", "fill_constant",
                  "elementwise_floordiv", "elementwise_mod", "fill_any_like", "gaussian_random",
                  "isclose", "logspace", "matrix_rank", "one_hot_v2", "randint", "randperm",
                  "reverse", "sign", "unique_consecutive", "multinomial", "reduce_all",
                  "reduce_any", "searchsorted", "size", "tril_indices", "unique", "where_index",
                  "allclose", "bernoulli", "bincount", "empty", "eye", "linspace", "range",
                  "matrix_nms"))

from . import optimizer_ops as _optimizer_ops  # noqa: E402  (the optimizer op types)

register(_optimizer_ops.TABLE, _optimizer_ops.ATTRS, no_grad=tuple(_optimizer_ops.TABLE),
         all_inputs=tuple(_optimizer_ops.TABLE))


# ---------------------------------------------------------------------- Block.append_op
class AppendedOp:
    """An op ``Block.append_op`` recorded by type: ``type``, its slots' variable names
    (``input(slot)``, ``output(slot)``, ``input_arg_names``...), ``attr(name)``; ``desc`` is
    itself (Paddle's ``OpDesc`` view: ``type()``, ``infer_shape(block.desc)``...)."""

    def __init__(self, op_type, inputs, outputs, attrs):
        self._type = op_type
        self._ins, self._outs, self._attrs = inputs, outputs, attrs

    @property
    def type(self):
        return self._type

    @property
    def desc(self):
        return _DescView(self)

    def input(self, slot):
        return list(self._ins.get(slot, []))

    def output(self, slot):
        return list(self._outs.get(slot, []))

    @property
    def input_names(self):
        return list(self._ins)

    @property
    def output_names(self):
        return list(self._outs)

    @property
    def input_arg_names(self):
        return [n for v in self._ins.values() for n in v]

    @property
    def output_arg_names(self):
        return [n for v in self._outs.values() for n in v]

    def attr(self, name):
        return self._attrs[name]

    def has_attr(self, name):
        return name in self._attrs

    @property
    def all_attrs(self):
        return dict(self._attrs)

    def __repr__(self):
        return f"{{Out={self._outs}}} = {self._type}(inputs={self._ins}, {self._attrs})"


class _DescView:
    """``op.desc`` of an appended op: Paddle's C++ ``OpDesc`` methods."""

    def __init__(self, op):
        self._op = op

    def type(self):
        return self._op.type

    def input(self, slot):
        return self._op.input(slot)

    def output(self, slot):
        return self._op.output(slot)

    def input_names(self):
        return self._op.input_names

    def output_names(self):
        return self._op.output_names

    def input_arg_names(self):
        return self._op.input_arg_names

    def output_arg_names(self):
        return self._op.output_arg_names

    def attr(self, name):
        return self._op.attr(name)

    def infer_var_type(self, block_desc):
        """The outputs' types were set when the op was recorded (nothing left to infer)."""

    def infer_shape(self, block_desc):
        """The outputs' shapes were set when the op was recorded (nothing left to infer)."""


def names_of(value):
    """The variable names of one slot's value (a Variable, a name, or a list of them)."""
    items = value if isinstance(value, (list, tuple)) else [value]
    return [v if isinstance(v, str) else v.name for v in items]
