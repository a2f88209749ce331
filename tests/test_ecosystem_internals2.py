"""The last Paddle internals the ecosystem libraries reach (issue 30,
tools/ecosystem/internals_report.txt), against Paddle 3.3.1: each case of
tests/goldens/ecosystem_internals2.json (tools/goldens/record_ecosystem_internals2.py) runs here
with ``import paddle`` resolving to paddle_compat and must describe the same result (values
within the float32 tolerance of its depth, dtypes, shapes, error types). Where Paddle has no
CPU kernel the golden is the documented operation in Paddle's CPU ops (see the recorder).
Then the behaviour no golden can show: hooks, shared memory, threads, what differs on
purpose."""
import json
import os
import pickle
from multiprocessing.reduction import ForkingPickler

import numpy as np
import pytest
import torch

import paddle_compat
from golden_utils import assert_same, depth_tol, run_case

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(ROOT, "tests", "goldens", "ecosystem_internals2.json")) as _f:
    CASES = json.load(_f)

pytestmark = pytest.mark.usefixtures("paddle_hook")   # conftest: import paddle -> paddle_compat


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name, monkeypatch):
    case = CASES[name]
    monkeypatch.chdir(ROOT)                 # cases read tests/data/ as the recorder did
    import paddle  # noqa: PLC0415 - the hook's paddle
    assert paddle is paddle_compat
    got = run_case(case["code"], paddle)
    assert_same(got, case["result"], tol=depth_tol(case["depth"]))


# ------------------------------------------------------------------ saved-tensor hooks
def test_register_saved_tensors_hooks_packs_and_unpacks_until_reset():
    import paddle  # noqa: PLC0415
    from paddle.base import core  # noqa: PLC0415
    packed, unpacked = [], []

    def pack(t):
        assert isinstance(t, paddle.Tensor)
        packed.append(t.shape)
        return t.numpy()

    def unpack(a):
        unpacked.append(a.shape)
        return paddle.to_tensor(a)

    a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    b = paddle.to_tensor([4.0, 5.0, 6.0], stop_gradient=False)
    core.eager.register_saved_tensors_hooks(pack, unpack)
    try:
        y = (a * b).sum()
    finally:
        core.eager.reset_saved_tensors_hooks()
    assert len(packed) == 2
    y.backward()
    assert len(unpacked) == 2
    np.testing.assert_allclose(a.grad.numpy(), [4.0, 5.0, 6.0])
    np.testing.assert_allclose(b.grad.numpy(), [1.0, 2.0, 3.0])
    n = len(packed)
    (a * b).sum()                          # reset: nothing packed any more
    assert len(packed) == n
    core.eager.reset_saved_tensors_hooks()   # a second reset is harmless
    with pytest.raises(TypeError, match="callable"):
        core.eager.register_saved_tensors_hooks(None, unpack)


def test_register_again_replaces_the_pair():
    import paddle  # noqa: PLC0415
    from paddle.base import core  # noqa: PLC0415
    first, second = [], []
    core.eager.register_saved_tensors_hooks(lambda t: first.append(1) or t, lambda t: t)
    core.eager.register_saved_tensors_hooks(lambda t: second.append(1) or t, lambda t: t)
    try:
        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        (x * x).sum().backward()
    finally:
        core.eager.reset_saved_tensors_hooks()
    assert first == [] and len(second) == 2
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])


# ------------------------------------------------------------------ custom ops by name
def test_run_custom_op_runs_a_built_op_by_name(monkeypatch):
    import paddle  # noqa: PLC0415
    from paddle.base import core  # noqa: PLC0415
    from paddle_compat.utils.cpp_extension import custom_op  # noqa: PLC0415
    monkeypatch.setitem(custom_op.LOADED_OPS, "scaled_i30", lambda x, s: x * s)
    monkeypatch.setitem(custom_op.LOADED_OPS, "pair_i30", lambda x: (x + 1, x - 1))
    out = core.eager._run_custom_op("scaled_i30", paddle.to_tensor([1.0, 2.0]), 3.0)
    assert isinstance(out, list) and len(out) == 1
    np.testing.assert_allclose(out[0].numpy(), [3.0, 6.0])
    a, b = paddle.framework.core.eager._run_custom_op("pair_i30", paddle.to_tensor([1.0]))
    assert a.numpy().tolist() == [2.0] and b.numpy().tolist() == [0.0]
    with pytest.raises(TypeError):
        core.eager._run_custom_op(3, paddle.ones([1]))


def test_eager_ops_read_through_to_the_op_modules():
    import paddle  # noqa: PLC0415
    from paddle.framework import core  # noqa: PLC0415
    assert core.eager.ops.argsort is paddle._C_ops.argsort
    assert core.eager.ops.legacy is paddle._legacy_C_ops
    with pytest.raises(AttributeError):
        core.eager.ops.no_such_op_i30


# ------------------------------------------------------------------ kernels without goldens
def test_fused_bias_act_c_op_is_the_incubate_function():
    import paddle  # noqa: PLC0415
    x = paddle.to_tensor(np.random.RandomState(0).standard_normal((2, 8)).astype("float32"))
    bias = paddle.to_tensor(np.linspace(-1, 1, 8).astype("float32"))
    for act in ("gelu", "relu", "swiglu", "geglu"):
        got = paddle._C_ops.fused_bias_act(x, bias, None, None, None, act, "default", -1.0, 0,
                                           0.0, 0.0)
        want = paddle.incubate.nn.functional.fused_bias_act(x, bias, act_method=act)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-7)
    with pytest.raises(TypeError, match="position 6"):
        paddle._C_ops.fused_bias_act(x, bias, None, None, None, None, "default", -1.0, 0, 0.0,
                                     0.0)


def test_flash_attn_mask_and_softmax():
    import paddle  # noqa: PLC0415
    rng = np.random.RandomState(1)
    q, k, v = (paddle.to_tensor(rng.standard_normal((1, 3, 2, 4)).astype("float32"))
               for _ in range(3))
    keep = np.tril(np.ones((3, 3), bool))[None, None].repeat(2, 1)
    bool_out = paddle._C_ops.flash_attn(q, k, v, None, paddle.to_tensor(keep), 0.0, False, True,
                                        True, "")
    causal = paddle._C_ops.flash_attn(q, k, v, None, None, 0.0, True, True, True, "")
    np.testing.assert_allclose(bool_out[0].numpy(), causal[0].numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bool_out[1].numpy().sum(-1), np.ones((1, 2, 3)), rtol=1e-6)
    assert bool_out[3].dtype == paddle.int64 and bool_out[3].shape == [2]


def test_memory_efficient_attention_causal_mask_and_gradient():
    import paddle  # noqa: PLC0415
    from paddle.incubate.nn.attn_bias import (LowerTriangularMask,  # noqa: PLC0415
                                              LowerTriangularMaskWithTensorBias)
    from paddle.incubate.nn.memory_efficient_attention import (  # noqa: PLC0415
        memory_efficient_attention)
    rng = np.random.RandomState(2)
    q, k, v = (paddle.to_tensor(rng.standard_normal((2, 5, 2, 4)).astype("float32"),
                                stop_gradient=False) for _ in range(3))
    got = memory_efficient_attention(q, k, v, LowerTriangularMask())
    want, _ = paddle.nn.functional.flash_attention.flash_attention(q, k, v, causal=True)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    got.sum().backward()
    assert q.grad is not None and q.grad.shape == [2, 5, 2, 4]
    zero = paddle.zeros([2, 2, 5, 5])
    with_bias = memory_efficient_attention(q, k, v, LowerTriangularMaskWithTensorBias(zero))
    np.testing.assert_allclose(with_bias.numpy(), got.numpy(), rtol=1e-6, atol=1e-7)
    dense = LowerTriangularMask().materialize([3, 3])
    assert dense.numpy()[0, 1] == -np.inf and dense.numpy()[1, 0] == 0.0
    with pytest.raises(AssertionError, match="attn_bias"):
        memory_efficient_attention(q, k, v, "causal")


def test_flash_attn_unpadded_refuses_what_it_does_not_compute():
    import paddle  # noqa: PLC0415
    from paddle.nn.functional.flash_attention import flash_attn_unpadded  # noqa: PLC0415
    x = paddle.ones([4, 1, 2])
    cu = paddle.to_tensor([0, 4], dtype="int32")
    with pytest.raises(NotImplementedError, match="return_softmax"):
        flash_attn_unpadded(x, x, x, cu, cu, 4, 4, 1.0, return_softmax=True)


def test_coalesce_tensor_outputs_are_views_of_the_fused_buffer():
    import paddle  # noqa: PLC0415
    a, b = paddle.ones([2, 3]), paddle.to_tensor([5.0, 6.0])
    a.stop_gradient = False
    fused = paddle.zeros([1])
    paddle._legacy_C_ops.coalesce_tensor([a, b], [a, b], fused, "copy_data", True,
                                         "use_align", False, "dtype", a.dtype)
    fused._t.mul_(2)                       # an update of the buffer is seen by every part
    np.testing.assert_allclose(b.numpy(), [10.0, 12.0])
    assert a.stop_gradient is False and a.shape == [2, 3]
    c, d = paddle.ones([3]), paddle.ones([1])
    f2 = paddle.zeros([1])
    paddle._legacy_C_ops.coalesce_tensor([c, d], [c, d], f2, "copy_data", True, "dtype",
                                         c.dtype)
    assert f2.shape == [128]               # use_align (default): 256-byte parts
    with pytest.raises(ValueError, match="even"):
        paddle._legacy_C_ops.coalesce_tensor([c], [c], f2, "copy_data")


# ------------------------------------------------------------------ modules
def test_async_load_copies_to_host_and_back():
    import paddle  # noqa: PLC0415
    from paddle.incubate.tensor import manipulation as m  # noqa: PLC0415
    loader = m.create_async_load()
    p = paddle.create_parameter([2], "float32",
                                default_initializer=paddle.nn.initializer.Constant(1.5))
    host, task = m.async_offload(p, loader)
    assert task.is_completed() and isinstance(host, type(p)) and host.name == p.name
    assert host.place.is_cpu_place()
    back, task = m.async_reload(host, loader)
    np.testing.assert_allclose(back.numpy(), [1.5, 1.5])
    dst = paddle.zeros([4])
    m.async_offload_with_offset(paddle.to_tensor([7.0, 8.0, 9.0]), dst, 1, 2, 2, loader)
    np.testing.assert_allclose(dst.numpy(), [0.0, 0.0, 8.0, 9.0])


def test_shared_tensor_pickle_shares_memory():
    import paddle  # noqa: PLC0415
    import paddle.incubate.multiprocessing  # noqa: F401,PLC0415 - registers the reductions
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = ForkingPickler.loads(bytes(ForkingPickler.dumps(x)))
    y._t.add_(1)                           # one storage in shared memory, seen from both
    np.testing.assert_allclose(x.numpy(), [2.0, 3.0, 4.0])
    p = paddle.create_parameter([2], "float32")
    q = ForkingPickler.loads(bytes(ForkingPickler.dumps(p)))
    assert type(q) is type(p) and q.name == p.name and q.stop_gradient is False
    assert pickle.loads(pickle.dumps(x)).numpy().tolist() == [2.0, 3.0, 4.0]


def test_multiprocess_reader_merges_forked_readers():
    import paddle  # noqa: PLC0415

    def r(base):
        def reader():
            yield from range(base, base + 3)
        return reader
    got = sorted(paddle.reader.multiprocess_reader([r(0), r(10)], queue_size=4)())
    assert got == [0, 1, 2, 10, 11, 12]


def test_fleet_auto_annotations_in_dynamic_mode():
    """Deliberate difference: Paddle 3.3.1's ``fleet.auto.shard_tensor`` / ``shard_op`` fail
    inside (AttributeError: a Tensor has no dist_attr / a PIR program no current_block) in
    dynamic mode; their docs describe an annotation that leaves the values alone, which is
    what they do here."""
    import paddle  # noqa: PLC0415
    from paddle.distributed import fleet  # noqa: PLC0415
    mesh = fleet.auto.create_mesh([("dp", 2), ("mp", 1)])
    x = paddle.ones([4, 3])
    assert fleet.auto.shard_tensor(x, mesh, ["dp", None]) is x
    assert x._auto_dist_attr["dims_mapping"] == [0, -1]
    f = fleet.auto.shard_op(paddle.matmul, mesh, [["dp", None], [None, None]], [["dp", None]])
    assert f(x, paddle.ones([3, 2])).numpy().tolist() == [[3.0, 3.0]] * 4
    with pytest.raises(ValueError, match="tp"):
        fleet.auto.shard_tensor(x, mesh, ["tp", None])
    with pytest.raises(AssertionError):
        fleet.auto.shard_tensor(x, mesh, "dp")


def test_program_desc_blocks_and_errors():
    import paddle  # noqa: PLC0415
    from paddle.framework import core  # noqa: PLC0415
    with open(os.path.join(ROOT, "tests/data/model_files/v2/mlp.pdmodel"), "rb") as f:
        desc = core.ProgramDesc(f.read())
    assert desc.get_feed_target_names() == ["x"]
    assert desc.get_fetch_target_names() == ["softmax_0.tmp_0"]
    op = desc.block(0).op(1)
    with pytest.raises(ValueError, match="no_such_attr"):
        op.attr("no_such_attr")
    with pytest.raises(TypeError):
        core.ProgramDesc("not bytes")
    with pytest.raises(IndexError):
        desc.block(5)


def test_jit_layer_loads_other_saved_methods(tmp_path):
    import paddle  # noqa: PLC0415
    from paddle.jit.layer import Layer  # noqa: PLC0415

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(3, 2)

        def forward(self, x):
            return self.fc(x)

    net = Net()
    prefix = str(tmp_path / "net")
    paddle.jit.save(net, prefix, input_spec=[paddle.static.InputSpec([None, 3], "float32")])
    layer = Layer().load(prefix, paddle.CPUPlace())
    x = paddle.ones([2, 3])
    (y,) = layer.forward(x)
    np.testing.assert_allclose(y.numpy(), net(x).numpy(), rtol=1e-6)
    assert layer.functions["forward"].info.name() == "forward"
    with pytest.raises(FileNotFoundError):
        Layer().load(str(tmp_path / "missing"), paddle.CPUPlace())
    assert torch.is_tensor(y._t)
