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
from .. import ops as _ops
from ..framework import dtype as _dt
from ..framework import hooks as _hooks

__all__ = ["FLUID_OPS", "OP_ATTRS", "KERNEL_ATTRS", "KERNEL_INPUTS", "NO_GRAD", "kernel_signature", "register", "lookup", "slots", "run",
           "op_proto_fields", "has_grad"]

FLUID_OPS = {}
OP_ATTRS = {}
KERNEL_ATTRS = {}
KERNEL_INPUTS = {}
NO_GRAD = set()
_PIR = {}


def register(table, attrs=None, no_grad=(), pir=None):
    """Add ``table``'s entries (op_type -> (handler, input slots, output slots)); ``attrs``
    their attributes {op_type: {name: default}}; ``no_grad`` the op types without gradients;
    ``pir`` the callables of ``"pd_op.*"`` handler names. Returns the registry."""
    FLUID_OPS.update(table)
    for k, v in (attrs or {}).items():
        OP_ATTRS.setdefault(k, {}).update(v)
    NO_GRAD.update(no_grad)
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
    first slot that is optional too)."""
    return [(s.rstrip("*?"), s.rstrip("?").endswith("*")) for s in names]


def kernel_signature(op_type, inputs, outputs, attrs):
    """(input slots, attribute names, output slots) of ``op_type``'s kernel, in the order of
    its Python API's arguments: the input slots given (``inputs``), the attributes
    (``KERNEL_ATTRS`` where the kernel takes other than all declared ones), the output slots.
    RuntimeError when the type is not registered (Paddle: no kernel signature)."""
    if op_type not in load_tables():
        raise RuntimeError(f"(NotFound) no kernel signature for operator {op_type}")
    _, in_slots, out_slots = FLUID_OPS[op_type]
    names = KERNEL_ATTRS.get(op_type)
    if names is None:
        names = list(OP_ATTRS.get(op_type, {}))
    elif callable(names):                   # the attributes depend on the inputs given
        names = names(inputs)
    # an input slot the kernel takes as an attribute (allclose's Rtol) is among the attributes
    ins = KERNEL_INPUTS.get(op_type) or [n for n, _ in slots(in_slots)
                                         if n in inputs and n not in names]
    return ins, list(names), [n for n, _ in slots(out_slots)]


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
    outs = handler(_Layer(training and not a.get("is_test", False)), ins, a)
    result = {}
    for (name, dup), v in zip(slots(out_slots), outs):
        if v is not None:
            result[name] = list(v) if dup else v
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
def _unary(fn):
    return lambda layer, ins, a: [fn(ins[0])]


def _binary(fn):
    return lambda layer, ins, a: [fn(ins[0], ins[1])]


def _tril_triu(layer, ins, a):
    fn = _ops.tril if a["lower"] else _ops.triu
    return [fn(ins[0], a["diagonal"])]


def _cumsum(layer, ins, a):
    x = ins[0]
    if a["flatten"]:
        x = _ops.flatten(x)
        axis = 0
    else:
        axis = a["axis"]
    if a["reverse"]:
        x = _ops.flip(x, [axis])
    out = _ops.cumsum(x, axis)
    if a["exclusive"]:
        out = _ops.subtract(out, x)
    if a["reverse"]:
        out = _ops.flip(out, [axis])
    return [out]


def _gather(layer, ins, a):
    axis = ins[2] if ins[2] is not None else a["axis"]
    return [_ops.gather(ins[0], ins[1], axis)]


# VarType numbers of Paddle's framework.proto -> data type names (dtype attributes)
DTYPE_NAMES = _dt.VARTYPE_NAMES


def dtype_name(code, op_type):
    """The data type name of a ``dtype`` attribute (a VarType number, or a Paddle data type);
    ValueError naming ``op_type`` for a number that is none."""
    if isinstance(code, (str, _dt.DType)):
        return _dt.convert_dtype(code).name
    name = DTYPE_NAMES.get(int(code))
    if name is None:
        raise ValueError(f"(InvalidArgument) {op_type}: unknown data type number {code}")
    return name


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
    "cumsum": {"axis": -1, "flatten": False, "exclusive": False, "reverse": False},
    "gather": {"axis": 0},
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
    "arg_max": {"axis": -1, "keepdims": False, "flatten": False, "dtype": 3},
    "arg_min": {"axis": -1, "keepdims": False, "flatten": False, "dtype": 3},
}
for _k in ("elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div",
           "elementwise_max", "elementwise_min", "elementwise_pow", "elementwise_floordiv",
           "elementwise_mod", "elementwise_fmax", "elementwise_fmin", "elementwise_heaviside",
           "greater_than", "greater_equal", "less_than", "less_equal", "equal", "not_equal"):
    _NEW_ATTRS[_k] = {"axis": -1}
    KERNEL_ATTRS[_k] = []           # the kernels broadcast as numpy does (axis -1)
KERNEL_ATTRS["allclose"] = ["Rtol", "Atol", "equal_nan"]    # the tolerances as inputs
KERNEL_INPUTS["bincount"] = ["X", "Weights"]         # Weights even when not given
KERNEL_ATTRS["empty"] = lambda ins: [next((n for n in ("ShapeTensor", "ShapeTensorList")
                                            if n in ins), "shape"), "dtype"]

register(_NEW, _NEW_ATTRS,
         no_grad=("allclose", "bernoulli", "bincount", "empty", "eye", "fill_any_like",
                  "linspace", "range", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "greater_than",
                  "greater_equal", "less_than", "less_equal", "equal", "not_equal", "shape",
                  "arg_max", "arg_min", "fill_constant", "elementwise_floordiv",
                  "elementwise_mod"))


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
