"""Operators built by ``op_type`` (Paddle's C++ operator registry, as its operator tests use
it): ``core.get_all_op_protos()``, ``core.Operator.create(serialized OpDesc)`` whose ``run(scope,
place)`` reads its inputs from a ``Scope`` and writes its outputs there, ``OpProtoHolder``,
and the registry queries (``has_grad_op_maker``, ``_get_all_register_op_kernels``...).
Every op type is one of ``static.fluid_ops``' registry, run by paddle_compat's ops."""
import torch

from ....framework.mode import mode_guard
from ....framework.tensor import Tensor, wrap
from ....static import fluid_ops, selected_rows
from ....static.executor import SelectedRows
from .proto import framework_pb2 as pb

__all__ = ["get_all_op_protos", "get_op_proto", "Operator", "OpProtoHolder", "attr_value",
           "get_op_extra_attrs", "get_attrtibute_type", "has_grad_op_maker",
           "has_infer_inplace", "get_all_register_op_kernels", "op_support_gpu"]


def _attr_type(default):
    """The protobuf attribute type of an attribute whose default is ``default``."""
    if isinstance(default, bool):
        return pb.BOOLEAN
    if isinstance(default, int):
        return pb.INT
    if isinstance(default, float):
        return pb.FLOAT
    if isinstance(default, str):
        return pb.STRING
    if isinstance(default, (list, tuple)):
        first = default[0] if default else 0
        return {bool: pb.BOOLEANS, float: pb.FLOATS, str: pb.STRINGS}.get(type(first), pb.INTS)
    raise TypeError(f"no attribute type for a default of type {type(default).__name__}")


def get_op_proto(op_type):
    """The ``OpProto`` message of ``op_type`` (ValueError when it is not registered)."""
    ins, outs, attrs = fluid_ops.op_proto_fields(op_type)
    p = pb.OpProto(type=op_type)
    for name, dup, optional in ins:
        p.inputs.add(name=name, comment=name, duplicable=dup, dispensable=optional)
    for name, dup, optional in outs:
        p.outputs.add(name=name, comment=name, duplicable=dup, intermediate=optional)
    for name, default in attrs:
        p.attrs.add(name=name, type=_attr_type(default), comment=name)
    return p


def get_all_op_protos():
    """The serialized ``OpProto`` of every op type paddle_compat maps (``static.fluid_ops``)."""
    return [get_op_proto(t).SerializeToString() for t in sorted(fluid_ops.load_tables())]


def get_op_extra_attrs(op_type):
    """Extra (runtime-only) attributes of ``op_type``: none here."""
    return {}


def get_attrtibute_type(op_type, attr_name):
    """The protobuf type of ``op_type``'s attribute ``attr_name`` (Paddle's spelling)."""
    attrs = dict(fluid_ops.op_proto_fields(op_type)[2])
    if attr_name not in attrs:
        raise ValueError(f"(NotFound) Operator {op_type} has no attribute '{attr_name}'")
    return _attr_type(attrs[attr_name])


def attr_value(a):
    """The Python value of an ``OpDesc.Attr`` message."""
    t = a.type
    if t == pb.SCALAR:
        s = a.scalar
        return {1: s.b, 2: s.i, 3: s.r}.get(s.type, complex(s.c.r, s.c.i))
    field = {pb.INT: "i", pb.FLOAT: "f", pb.STRING: "s", pb.INTS: "ints", pb.FLOATS: "floats",
             pb.STRINGS: "strings", pb.BOOLEAN: "b", pb.BOOLEANS: "bools", pb.LONG: "l",
             pb.LONGS: "longs", pb.FLOAT64: "float64", pb.FLOAT64S: "float64s",
             pb.BLOCK: "block_idx"}.get(t)
    if field is None:
        raise NotImplementedError(f"attribute {a.name!r} of type {t}")
    v = getattr(a, field)
    return list(v) if isinstance(v, list) else v


def has_grad_op_maker(op_type):
    return fluid_ops.has_grad(op_type)


def has_infer_inplace(op_type):
    """Whether ``op_type`` may write its output into its input's buffer: paddle_compat's ops
    never reuse an input's buffer for an output."""
    return False


def get_all_register_op_kernels(lib="all"):
    """{op type: [kernel keys]} of every op type and, for the differentiable ones whose
    gradient op is not another forward op, their ``<op>_grad`` (paddle_compat's ops run on
    torch's CPU and CUDA kernels)."""
    keys = ["{data_type[float32]; data_layout[Undefined(AnyLayout)]; place[Place(cpu)]; "
            "library_type[PLAIN]}"]
    out = {}
    for t in fluid_ops.load_tables():
        out[t] = list(keys)
        if fluid_ops.has_grad(t) and t not in fluid_ops.GRAD_BY_FORWARD_OP:
            out[t + "_grad"] = list(keys)
    return out


def op_support_gpu(op_type):
    """Whether ``op_type`` runs on a GPU: every registered op does where torch has CUDA."""
    return op_type in fluid_ops.load_tables() and torch.cuda.is_available()


class _Desc:
    """Paddle's ``OpDesc`` object over an ``OpDesc`` message: ``type()``, ``input(slot)``,
    ``output(slot)``, ``attr(name)``..."""

    def __init__(self, msg):
        self.msg = msg

    def type(self):
        return self.msg.type

    def input(self, slot):
        return next((list(v.arguments) for v in self.msg.inputs if v.parameter == slot), [])

    def output(self, slot):
        return next((list(v.arguments) for v in self.msg.outputs if v.parameter == slot), [])

    def input_names(self):
        return [v.parameter for v in self.msg.inputs]

    def output_names(self):
        return [v.parameter for v in self.msg.outputs]

    def input_arg_names(self):
        return [a for v in self.msg.inputs for a in v.arguments]

    def output_arg_names(self):
        return [a for v in self.msg.outputs for a in v.arguments]

    def attr_names(self):
        return [a.name for a in self.msg.attrs]

    def attr(self, name):
        for a in self.msg.attrs:
            if a.name == name:
                return attr_value(a)
        raise ValueError(f"(NotFound) Operator {self.msg.type} has no attribute '{name}'")

    def has_attr(self, name):
        return any(a.name == name for a in self.msg.attrs)


class Operator(_Desc):
    """One operator of a registered op type with its slots' variable names and attributes;
    ``run(scope, place)`` computes it on the scope's tensors."""

    @staticmethod
    def create(serialized_desc):
        msg = pb.OpDesc.FromString(serialized_desc)
        fluid_ops.lookup(msg.type)                  # an unknown op type fails here
        return Operator(msg)

    def no_intermediate_outputs(self):
        return self.output_arg_names()

    def _plan(self):
        """What every run reads from the OpDesc, parsed once: the input slots ``(slot, variable
        names, duplicable)``, the output slots ``(slot, variable names)``, the attributes."""
        plan = self.__dict__.get("_parsed")
        if plan is None:
            _, in_slots, _ = fluid_ops.lookup(self.msg.type)
            dup = dict(fluid_ops.slots(in_slots))
            ins = tuple((v.parameter, tuple(v.arguments), dup.get(v.parameter))
                        for v in self.msg.inputs if v.arguments)
            outs = tuple((v.parameter, tuple(v.arguments)) for v in self.msg.outputs)
            attrs = {a.name: attr_value(a) for a in self.msg.attrs}
            plan = self._parsed = (ins, outs, attrs)
        return plan

    def run(self, scope, place):
        """Read the inputs from ``scope``, compute, store the outputs there."""
        in_plan, out_plan, attrs = self._plan()
        inputs = {}
        for slot, names, dup in in_plan:
            vals = []
            for name in names:
                sr = scope._rows.get(name)
                if sr is not None:
                    vals.append(sr)
                    continue
                t = scope._vars.get(name)
                if t is None:
                    raise RuntimeError(f"(NotFound) input '{name}' (slot {slot}) of "
                                       f"operator {self.msg.type} holds no value in the scope")
                vals.append(wrap(t.detach()))
            inputs[slot] = vals if dup else vals[0]
        # a kernel must not change the attributes the next run reads
        attrs = {k: list(v) if isinstance(v, list) else v for k, v in attrs.items()}
        with mode_guard(static=False), torch.no_grad():
            if selected_rows.has_rows(inputs):
                now = {slot: scope._vars.get(names[0]) for slot, names in out_plan
                       if len(names) == 1}
                outs = selected_rows.run(self.msg.type, inputs, attrs, now,
                                         lambda i, a: fluid_ops.run(self.msg.type, i, a))
            else:
                outs = fluid_ops.run(self.msg.type, inputs, attrs)
        for slot, names in out_plan:
            got = outs.get(slot)
            if got is None:
                continue
            vals = got if isinstance(got, list) else [got]
            if len(vals) != len(names):
                raise RuntimeError(f"operator {self.msg.type} made {len(vals)} outputs for "
                                   f"slot {slot}, which names {len(names)}")
            for name, val in zip(names, vals):
                _store(scope, name, val)

    def __repr__(self):
        return f"Op({self.msg.type}), inputs:{self.input_arg_names()}, " \
               f"outputs:{self.output_arg_names()}"


def _store(scope, name, val):
    """Put an operator's output into the scope variable ``name``: SelectedRows into one that
    holds (or becomes) SelectedRows, a dense result into a SelectedRows variable's value (its
    height the result's rows)."""
    sr = scope._rows.get(name)
    if isinstance(val, SelectedRows):
        if sr is None:
            scope._vars.pop(name, None)
            sr = scope._rows[name] = SelectedRows()
        sr._rows, sr._height, sr._value = list(val._rows), val._height, val._value
    else:
        t = val._t if isinstance(val, Tensor) else torch.as_tensor(val)
        if sr is not None:         # a dense kernel's output (fill_constant): its rows
            sr._value = t
            sr._height = t.shape[0] if t.dim() else 1
        else:
            scope._vars[name] = t
    scope._declared.add(name)


class OpProtoHolder:
    """The ``OpProto`` of every registered op type, by type."""

    _instance = None

    @classmethod
    def instance(cls):
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def get_op_proto(self, op_type):
        if op_type not in fluid_ops.load_tables():
            raise ValueError(f'Operator "{op_type}" has not been registered.')
        return get_op_proto(op_type)

    def update_op_proto(self):
        return []

    @staticmethod
    def generated_op_attr_names():
        return {"op_role", "op_role_var", "op_namescope", "op_callstack", "op_device",
                "with_quant_attr"}
