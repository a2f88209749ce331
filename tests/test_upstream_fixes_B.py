"""Issue 31, legacy_test files half B: what Paddle's own test files needed from paddle_compat,
against Paddle 3.3.1 (tests/goldens/upstream_fixes_B.json, tools/goldens/record_upstream_fixes_B.py).

- Paddle's ``test/legacy_test/op_test.py`` (and ``prim_op_test.py``, ``utils.py``) import on
  paddle_compat, so the API test classes of the ~100 files that import it run; the internals
  they import behave as documented in their modules (``compat/shims``).
- Errors the files assert: ``Parameter.trainable`` of a non-bool, GLU's and var/std's static
  checks.
"""
import importlib
import json
import os

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.compat.missing import UnsupportedAPIError

HERE = os.path.dirname(os.path.abspath(__file__))
GOLD = json.load(open(os.path.join(HERE, "goldens", "upstream_fixes_B.json")))


pytestmark = pytest.mark.usefixtures("paddle_hook")   # conftest: import paddle -> paddle_compat


def _err(fn):
    try:
        fn()
    except Exception as e:          # noqa: BLE001
        return [type(e).__name__, str(e)]
    return None


def _same_error(got, key, exact=True):
    want = GOLD[key]
    assert got is not None and got[0] == want[0], (key, got, want)
    if exact:
        assert got[1] == want[1], (key, got, want)


# ------------------------------------------------------------------ errors the files assert
def test_parameter_trainable_takes_bools_only():
    lin = paddle.nn.Linear(2, 2)

    def setter(v):
        def f():
            lin.weight.trainable = v
        return f

    _same_error(_err(setter("1")), "trainable_str")
    _same_error(_err(setter(1)), "trainable_int")
    lin.weight.trainable = False
    assert lin.weight.stop_gradient is GOLD["trainable_false_stop_gradient"]
    lin.weight.trainable = True
    assert lin.weight.stop_gradient is False


def test_static_dtype_checks_of_glu_var_std():
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program()):
            xi = paddle.static.data("xi", [10, 18], "int32")
            xf = paddle.static.data("xf", [1, 2, 3], "float32")
            act = paddle.nn.GLU(256)
            _same_error(_err(lambda: act(1)), "glu_static_int", exact=False)
            _same_error(_err(lambda: act(xi)), "glu_static_int32")
            _same_error(_err(lambda: act(xf)), "glu_static_axis")
            _same_error(_err(lambda: paddle.var(xi)), "var_static_int32")
            _same_error(_err(lambda: paddle.std(xi)), "std_static_int32")
            assert _err(lambda: paddle.var(xf)) is GOLD["var_static_float"]
            _same_error(_err(lambda: paddle.cummax([1, 2, 3], axis=0)), "cummax_static_list",
                        exact=False)
            got = _err(lambda: paddle.real(xf))
            _same_error(got, "real_static_float", exact=False)
            assert got[1].split(" (at ")[0] == GOLD["real_static_float"][1].split(" (at ")[0]
            _same_error(_err(lambda: paddle.imag(xf)), "imag_static_float", exact=False)
            _same_error(_err(lambda: paddle.nn.functional.selu(1)), "selu_static_int", False)
            _same_error(_err(lambda: paddle.nn.functional.selu(xi)), "selu_static_int32", False)
    finally:
        paddle.disable_static()
    _same_error(_err(lambda: paddle.cummax([1, 2, 3], axis=0)), "cummax_list_axis", False)
    _same_error(_err(lambda: paddle.cummax([1, 2, 3])), "cummax_list")
    xs = paddle.to_tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    got = _err(lambda: paddle.index_select(xs, paddle.to_tensor([[0, 1, 2], [1, 2, 0]])))
    _same_error(got, "index_select_2d_index", exact=False)
    assert GOLD["index_select_2d_index"][1].startswith(got[1])
    assert paddle.index_select(xs, paddle.to_tensor([[2], [0]])).numpy().tolist() \
        == GOLD["index_select_n1_index"]
    # dynamic mode keeps integer variance (no static check there)
    got = paddle.var(paddle.to_tensor([[1, 2, 7]], "int32"))
    assert got.numpy().tolist() == GOLD["var_dynamic_int32"]


def test_bucketize_checks_sorted_sequence_first():
    seq = paddle.to_tensor([1, 3, 5, 7])
    x = paddle.to_tensor([[0, 5], [10, 6]])
    got = _err(lambda: paddle.bucketize(None, seq))
    _same_error(got, "bucketize_x_none", exact=False)
    assert "'values' (position 1)" in got[1] and "searchsorted" in got[1]
    _same_error(_err(lambda: paddle.bucketize(x, None)), "bucketize_seq_none")
    assert paddle.bucketize(x, seq, right=True).numpy().tolist() == GOLD["bucketize_values"]


def test_legacy_c_ops_scale_sigmoid_matmul_v2():
    L = importlib.import_module("paddle._legacy_C_ops")
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    close = lambda got, key: np.testing.assert_allclose(got, GOLD[key], rtol=1e-6)  # noqa: E731
    close(L.scale(x, "scale", 0.5, "bias", 1.0).numpy(), "legacy_scale")
    close(L.scale(x, "scale", 2.0, "bias", 1.0, "bias_after_scale", False).numpy(),
          "legacy_scale_before")
    y = x.detach().clone()
    assert (L.scale_(y, "scale", 0.5) is y) is GOLD["legacy_scale_"][0]
    np.testing.assert_allclose(y.numpy(), GOLD["legacy_scale_"][1])
    close(L.matmul_v2(x, x, "trans_x", True, "trans_y", False).numpy(), "legacy_matmul_v2")
    s = L.sigmoid(x)
    s.sum().backward()
    np.testing.assert_allclose(s.numpy(), GOLD["legacy_sigmoid"][0], rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), GOLD["legacy_sigmoid"][1], rtol=1e-6)
    with pytest.raises(ValueError, match="even"):
        L.scale(x, "scale")


def test_zero_grads_zeroes_the_same_gradient():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * x).sum().backward()
    g = x.grad
    r = x._zero_grads()
    assert [r, x.grad.numpy().tolist(), g.numpy().tolist()] == GOLD["zero_grads"]
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    assert [y._zero_grads(), y.grad] == GOLD["zero_grads_none"]


def test_reset_grad_inplace_version():
    L = importlib.import_module("paddle._legacy_C_ops")
    w = paddle.to_tensor([1.0], stop_gradient=False)
    (w * w).sum().backward()
    with paddle.no_grad():
        L.scale_(w.grad, "scale", 0.5)
        L.scale_(w.grad, "scale", 0.5)
    rec = [w.grad.inplace_version]
    w._reset_grad_inplace_version()
    rec.append(w.grad.inplace_version)
    with paddle.no_grad():
        L.scale_(w.grad, "scale", 0.5)
    w._reset_grad_inplace_version(True)
    rec += [w.grad.inplace_version, w.grad.numpy().tolist()]
    y = paddle.to_tensor([1.0], stop_gradient=False)
    rec += [y._reset_grad_inplace_version(True), y.grad]
    # rec[0], the counter before the reset, is not compared: torch's counter of a gradient
    # also counts the writes backward made to it (Paddle's starts at 0 for a new gradient)
    assert rec[0] >= 2
    assert rec[1:] == GOLD["reset_grad_inplace_version"][1:]


def test_clip_grad_value_rejects_a_negative_value():
    from paddle_compat.nn.utils import clip_grad_value_
    p = paddle.to_tensor([[1.0, 2.0]])
    p.grad = paddle.to_tensor([[3.0, -4.0]])
    got = _err(lambda: clip_grad_value_(p, clip_value=-1))
    _same_error(got, "clip_grad_value_negative", exact=False)
    assert got[1] in GOLD["clip_grad_value_negative"][1]
    assert _err(lambda: clip_grad_value_(paddle.to_tensor([1.0]), -1)) \
        == GOLD["clip_grad_value_no_grad"]
    clip_grad_value_(p, clip_value=2.5)
    assert p.grad.numpy().tolist() == GOLD["clip_grad_value"]


def test_optimizer_dtype_is_the_first_parameters():
    p = paddle.create_parameter([2], "float64")
    q = paddle.create_parameter([2], "float32")
    assert [str(paddle.optimizer.Adam(parameters=[p])._dtype),
            str(paddle.optimizer.SGD(parameters=[{"params": [q]}])._dtype),
            str(paddle.optimizer.Adam(parameters=[q, p])._dtype)] == GOLD["optimizer_dtype"]


def test_dense_tensor_set_replaces_the_data():
    x = paddle.create_parameter([2, 3], "float32")
    r = x.value().get_tensor().set(np.full((2, 3), 2.0, np.float32), paddle.CPUPlace())
    rec = [r, x.numpy().tolist(), x.stop_gradient]
    x.value().get_tensor().set(np.arange(6, dtype=np.float32).reshape(3, 2), paddle.CPUPlace())
    rec += [list(x.shape), x.numpy().tolist()]
    y = paddle.to_tensor([1, 2])
    y.get_tensor().set(np.array([1.5, 2.5]), paddle.CPUPlace())
    rec += [str(y.dtype), y.numpy().tolist()]
    (x * 3).sum().backward()
    rec.append(x.grad.numpy().tolist())
    assert rec == GOLD["tensor_set"]


def test_matrix_rank_with_a_tolerance_variable_in_a_program():
    g = GOLD["matrix_rank_static_tol"]
    x_np, tol_np = np.array(g["x"]), np.array(g["tol"], np.float32)
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("X", [3, 4, 7, 7], "float64")
            t = paddle.static.data("T", [3, 4], "float32")
            r = paddle.linalg.matrix_rank(x, t, hermitian=False)
        out = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={"X": x_np, "T": tol_np},
                                                           fetch_list=[r])
    finally:
        paddle.disable_static()
    assert out[0].tolist() == g["rank"] and str(out[0].dtype) == g["dtype"]


# ------------------------------------------------------------------ what op_test.py imports
def test_dygraph_guard_switches_mode_and_restores():
    fw = importlib.import_module("paddle.base.framework")
    modes = []
    with fw._dygraph_guard(None):
        modes.append(paddle.in_dynamic_mode())
    modes.append(paddle.in_dynamic_mode())
    paddle.enable_static()
    try:
        with fw._dygraph_guard(object()):
            modes.append(paddle.in_dynamic_mode())
        modes.append(paddle.in_dynamic_mode())
    finally:
        paddle.disable_static()
    assert modes == GOLD["dygraph_guard_modes"]


def test_grad_suffix_names():
    bw = importlib.import_module("paddle.base.backward")
    assert [bw._append_grad_suffix_("x"), bw._strip_grad_suffix_("x@GRAD"),
            bw._strip_grad_suffix_("x@GRAD@RENAME@0"), bw._strip_grad_suffix_("y")] \
        == GOLD["grad_suffix"]
    assert [bw._as_list(None), bw._as_list([1]), bw._as_list((1, 2)), bw._as_list(3)] \
        == GOLD["as_list"]


def test_flag_pir_in_executor_reads_as_paddle():
    assert paddle.get_flags("FLAGS_enable_pir_in_executor") == GOLD["flag_pir_in_executor"]


def test_parse_arg_and_kwargs():
    utils = importlib.import_module("paddle.jit.dy2static.utils")

    def f(a, b, c=3, d="x"):
        return a

    class K:
        def m(self, x, y=1):
            return x

    assert [list(r) if isinstance(r, list) else r for r in utils.parse_arg_and_kwargs(f)] \
        == GOLD["parse_f"]
    assert list(utils.parse_arg_and_kwargs(K.m)) == GOLD["parse_m"]
    assert list(utils.parse_arg_and_kwargs(lambda: 0)) == GOLD["parse_none"]


def test_environment_variables(monkeypatch):
    env = importlib.import_module("paddle.utils.environments")
    name = "PADDLE_COMPAT_GOLDEN_ENV_FLAG"
    monkeypatch.delenv(name, raising=False)
    b = env.BooleanEnvironmentVariable(name, False)
    rec = [b.get(), _err(lambda: bool(b))]
    with env.EnvironmentVariableGuard(b, True):
        rec += [b.get(), os.environ.get(name)]
    rec += [b.get(), name in os.environ]
    for text in ("1", "ON", "true", "0", "yes"):
        os.environ[name] = text
        rec.append([text, b.get()])
    os.environ.pop(name)
    n = env.IntegerEnvironmentVariable(name, 7)
    rec.append(n.get())
    os.environ[name] = "12"
    rec.append(n.get())
    os.environ.pop(name)
    assert rec == GOLD["environments"]
    _same_error(_err(lambda: env.BooleanEnvironmentVariable(name, 1)), "bool_env_bad_default",
                exact=False)
    _same_error(_err(lambda: b.set("1")), "bool_env_bad_set", exact=False)


def test_op_test_imports_resolve():
    """Every name Paddle's op_test.py / prim_op_test.py / op.py take from paddle."""
    names = {
        "paddle.autograd.ir_backward": ["grad"],
        "paddle.autograd.backward_utils": ["ValueSet", "ValueDict"],
        "paddle.base": ["Scope", "core", "unique_name", "ParamAttr"],
        "paddle.base.executor": ["Executor", "scope_guard", "global_scope"],
        "paddle.base.framework": ["OpProtoHolder", "Program", "_current_expected_place",
                                  "canonicalize_attrs", "get_flags", "set_flags",
                                  "_dygraph_tracer", "in_dygraph_mode", "in_pir_mode",
                                  "paddle_type_to_proto_type", "use_pir_api"],
        "paddle.base.proto": ["framework_pb2"],
        "paddle.decomposition": ["decompose"],
        "paddle.incubate.autograd": ["primapi"],
        "paddle.jit.dy2static.utils": ["parse_arg_and_kwargs"],
        "paddle.pir.core": ["vartype_to_datatype"],
        "paddle.utils.environments": ["BooleanEnvironmentVariable", "EnvironmentVariableGuard"],
    }
    for mod, attrs in names.items():
        m = importlib.import_module(mod)
        for a in attrs:
            assert getattr(m, a) is not None, (mod, a)
    base = importlib.import_module("paddle.base")
    assert base.ParamAttr is paddle.ParamAttr
    assert base.gradients is paddle.static.gradients
    assert base.unique_name is paddle.utils.unique_name
    assert importlib.import_module("paddle.pir.core").vartype_to_datatype[paddle.float32] \
        is paddle.float32
    fw = importlib.import_module("paddle.base.framework")
    assert fw.paddle_type_to_proto_type["float64"] is paddle.float64


def test_layer_helper_module_and_dynamic_or_pir_mode():
    lh = importlib.import_module("paddle.base.layer_helper")
    assert lh.LayerHelper is importlib.import_module("paddle.common_ops_import").LayerHelper
    fw = importlib.import_module("paddle.framework")
    assert fw.in_dynamic_or_pir_mode() is True
    paddle.enable_static()
    try:
        # paddle_compat's programs are not PIR (in_pir_mode() is False)
        assert fw.in_dynamic_or_pir_mode() is fw.in_pir_mode() is False
    finally:
        paddle.disable_static()


def test_bfloat16_queries_follow_the_cpu_flags():
    core = importlib.import_module("paddle.base.core")
    flags = core._cpu_flags()
    assert core.supports_bfloat16() is ("avx512f" in flags and "avx512bw" in flags)
    assert core.supports_bfloat16_fast_performance() is ("avx512_bf16" in flags)
    if not flags & {"avx512f"}:         # Paddle 3.3.1 answers False on such a CPU
        assert core.supports_bfloat16() is False


def test_operator_registry_lists_the_mapped_op_types():
    # the registry is paddle_compat's op-type table (static/fluid_ops.py), not empty
    core = importlib.import_module("paddle.base.core")
    proto = importlib.import_module("paddle.base.proto")
    types_ = {proto.framework_pb2.OpProto.FromString(b).type for b in core.get_all_op_protos()}
    assert {"elementwise_add", "tril_triu", "matmul_v2"} <= types_
    fw = importlib.import_module("paddle.base.framework")
    p = fw.OpProtoHolder.instance().get_op_proto("elementwise_add")
    assert [v.name for v in p.inputs] == ["X", "Y"]
    assert fw.canonicalize_attrs({"axis": np.int64(1)}, p) == {"axis": 1}
    # the program and variable description messages are not there, and say so
    with pytest.raises(UnsupportedAPIError, match="protobuf"):
        proto.framework_pb2.ProgramDesc


def test_value_set_and_dict_key_by_identity():
    bu = importlib.import_module("paddle.autograd.backward_utils")
    a, b = paddle.to_tensor([1.0]), paddle.to_tensor([1.0])
    s = bu.ValueSet([a, a])
    assert len(s) == 1 and a in s and b not in s
    s.add(b)
    assert list(s) == [a, b] and len(s - bu.ValueSet([a])) == 1
    d = bu.ValueDict(default_factory=list)
    d[a].append(1)
    assert d[a] == [1] and b not in d and d.keys() == [a]


def test_ir_grad_and_decompose_in_a_static_program():
    ir = importlib.import_module("paddle.autograd.ir_backward")
    dec = importlib.import_module("paddle.decomposition")
    primapi = importlib.import_module("paddle.incubate.autograd").primapi
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [3], "float32")
            x.stop_gradient = False
            y = paddle.sum(x * x)
            (out,) = dec.decompose(main, [y])
            assert out is y
            assert primapi.to_prim(main.blocks) is None
            (gx,) = ir.grad(y, [x])
            (gx2,) = primapi.grad([y], [x])
        exe = paddle.static.Executor(paddle.CPUPlace())
        xv = np.array([1.0, -2.0, 3.0], np.float32)
        got, got2 = exe.run(main, feed={"x": xv}, fetch_list=[gx, gx2])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, 2 * xv, rtol=1e-6)
    np.testing.assert_allclose(got2, 2 * xv, rtol=1e-6)
