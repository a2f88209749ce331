"""The op-type registry (static/fluid_ops.py) as Paddle's OpTest harness uses it: operators by
Paddle's C++ op_type and slot names, in a static Program (``Block.append_op``) and over a Scope
(``core.Operator``), their protos, and the errors for what is not there."""
import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.compat.shims.base import core
from paddle_compat.compat.shims.base.framework import OpProtoHolder
from paddle_compat.compat.shims.base.proto import framework_pb2
from paddle_compat.static import fluid_ops


@pytest.fixture
def static_mode():
    paddle.enable_static()
    try:
        yield
    finally:
        paddle.disable_static()


def _program_with(op_type, inputs, out_shape, attrs=None):
    """A Program with one op of ``op_type`` on declared inputs, as OpTest builds it."""
    prog = paddle.static.Program()
    block = prog.global_block()
    ins = {k: block.create_var(name=k, shape=list(v.shape), dtype=str(v.dtype))
           for k, v in inputs.items()}
    out = block.create_var(name="Out", shape=out_shape, dtype="float64")
    op = block.append_op(type=op_type, inputs=ins, outputs={"Out": out}, attrs=attrs or {})
    op.desc.infer_var_type(block.desc)
    op.desc.infer_shape(block.desc)
    return prog, block, ins, out, op


def test_append_op_by_type_runs_and_differentiates(static_mode):
    rng = np.random.default_rng(0)
    x, y = rng.random((3, 4)), rng.random((4,))
    prog, block, ins, out, op = _program_with("elementwise_mul", {"X": x, "Y": y}, [3, 4],
                                              {"axis": -1})
    assert op.type == "elementwise_mul" and op.input("X") == ["X"]
    assert op.output_arg_names == ["Out"]
    # the mean-loss ops OpTest appends, by type too
    loss = block.create_var(name="loss", shape=[1], dtype="float64")
    block.append_op(type="mean", inputs={"X": [out]}, outputs={"Out": loss})
    grads = paddle.static.append_backward(loss, parameter_list=["X", "Y"])
    exe = paddle.static.Executor(paddle.CPUPlace())
    feed = {"X": core.LoDTensor(), "Y": core.LoDTensor()}
    feed["X"].set(x, paddle.CPUPlace())
    feed["Y"].set(y, paddle.CPUPlace())
    got_out, gx, gy = exe.run(prog, feed=feed, fetch_list=["Out"] + [g for _, g in grads])
    np.testing.assert_allclose(got_out, x * y, rtol=1e-12)
    np.testing.assert_allclose(gx, np.broadcast_to(y, (3, 4)) / 12, rtol=1e-12)
    np.testing.assert_allclose(gy, x.sum(0) / 12, rtol=1e-12)


def test_append_op_attrs_reach_the_op(static_mode):
    x = np.arange(1.0, 17.0).reshape(4, 4)
    prog, *_ = _program_with("tril_triu", {"X": x}, [4, 4], {"diagonal": 1, "lower": False})
    out, = paddle.static.Executor().run(prog, feed={"X": x}, fetch_list=["Out"])
    np.testing.assert_array_equal(out, np.triu(x, 1))


def _scope_op(op_type, inputs, attrs):
    scope = core.Scope()
    kwargs = {}
    for name, value in inputs.items():
        scope.var(name).get_tensor().set(value, core.CPUPlace())
        kwargs[name] = name
    desc = framework_pb2.OpDesc(type=op_type)
    for slot, names in {**{k: [k] for k in inputs}}.items():
        desc.inputs.add(parameter=slot).arguments.extend(names)
    desc.outputs.add(parameter="Out").arguments.extend(["Out"])
    for k, v in attrs.items():
        a = desc.attrs.add(name=k, type=core.get_attrtibute_type(op_type, k))
        if isinstance(v, bool):
            a.b = v
        else:
            a.i = v
    return scope, core.Operator.create(desc.SerializeToString())


def test_operator_over_a_scope_gives_numeric_gradients():
    x = np.random.default_rng(1).random((3, 5))
    scope, op = _scope_op("cumsum", {"X": x}, {"axis": 1, "reverse": True})
    op.run(scope, core.CPUPlace())
    out = np.array(scope.find_var("Out").get_tensor())
    np.testing.assert_allclose(out, np.flip(np.cumsum(np.flip(x, 1), 1), 1), rtol=1e-12)
    # poke one element as OpTest's get_numeric_gradient does: d mean(Out) / d X[0, 2]
    t = scope.find_var("X").get_tensor()
    orig = t._get_double_element(2)
    vals = []
    for d in (1e-6, -1e-6):
        t._set_double_element(2, orig + d)
        op.run(scope, core.CPUPlace())
        vals.append(np.array(scope.find_var("Out").get_tensor()).mean())
    t._set_double_element(2, orig)
    assert t._get_double_element(2) == orig
    # X[0, 2] feeds Out[0, 0..2] (reverse cumsum): 3 of 15 outputs
    assert (vals[0] - vals[1]) / 2e-6 == pytest.approx(3 / 15, rel=1e-6)
    with pytest.raises(IndexError, match="element 15"):
        t._get_double_element(15)


def test_protos_describe_slots_and_attrs():
    proto = OpProtoHolder.instance().get_op_proto("concat")
    assert [(v.name, v.duplicable) for v in proto.inputs] == [("X", True), ("AxisTensor", False)]
    assert proto.inputs[1].dispensable and not proto.inputs[0].dispensable
    assert [a.name for a in proto.attrs] == ["axis"] and proto.attrs[0].type == framework_pb2.INT
    # the serialized protos parse back, one per registered type
    protos = [framework_pb2.OpProto.FromString(b) for b in core.get_all_op_protos()]
    assert {p.type for p in protos} == set(fluid_ops.FLUID_OPS)
    kernels = core._get_all_register_op_kernels()
    assert "elementwise_add_grad" in kernels and "bitwise_and_grad" not in kernels
    assert core.has_grad_op_maker("tril_triu") and not core.has_grad_op_maker("equal")


def test_bad_op_type_and_slot_are_named(static_mode):
    prog = paddle.static.Program()
    block = prog.global_block()
    x = block.create_var(name="X", shape=[2], dtype="float32")
    with pytest.raises(ValueError, match="no_such_op"):
        block.append_op(type="no_such_op", inputs={"X": x}, outputs={})
    with pytest.raises(ValueError, match="no input slot 'Z'"):
        block.append_op(type="relu", inputs={"Z": x}, outputs={})
    with pytest.raises(ValueError, match="no output slot 'Y'"):
        block.append_op(type="relu", inputs={"X": x}, outputs={"Y": x})
    with pytest.raises(ValueError, match="no_such_op\" has not been registered"):
        OpProtoHolder.instance().get_op_proto("no_such_op")
    desc = framework_pb2.OpDesc(type="no_such_op")
    with pytest.raises(ValueError, match="no_such_op"):
        core.Operator.create(desc.SerializeToString())


def test_op_desc_messages_round_trip():
    d = framework_pb2.OpDesc(type="scale")
    d.inputs.add(parameter="X").arguments.extend(["x0"])
    a = d.attrs.add(name="scale", type=framework_pb2.FLOAT)
    a.f = 2.5
    b = d.attrs.add(name="shape", type=framework_pb2.INTS)
    b.ints.extend([3, -1])
    back = framework_pb2.OpDesc.FromString(d.SerializeToString())
    assert back == d and back.attrs[1].ints == [3, -1] and back.attrs[0].f == 2.5


def test_to_static_concrete_program_is_the_traced_graph():
    # Paddle's prim checker reads the forward program of a to_static call, then runs it
    fn = paddle.jit.to_static(lambda x: paddle.tanh(x) * 2.0)
    x = paddle.to_tensor(np.linspace(-1.0, 1.0, 6))
    cp, partial = fn.get_concrete_program(x)
    types = [op.type for op in partial.forward_program.block(0).ops]
    assert types and len(partial.backward_program.block(0).ops) == 0
    np.testing.assert_allclose(fn(x).numpy(), np.tanh(x.numpy()) * 2.0, rtol=1e-12)
    assert len(fn.program_cache) == 1
    fn.program_cache.clear()
    assert len(fn.program_cache) == 0
