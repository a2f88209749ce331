"""Record what Paddle 3.3.1 does in the places issue 31's legacy_test files (half B) showed
paddle_compat differing, and in the internals Paddle's OpTest harness imports, as goldens for
tests/test_upstream_fixes_B.py.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_B.py

Writes tests/goldens/upstream_fixes_B.json.
"""
import json
import os

import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

paddle.set_device("cpu")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "goldens", "upstream_fixes_B.json")
G = {}


def err(fn):
    """``[exception type, message]`` of ``fn()``, or None when it returns."""
    try:
        fn()
    except Exception as e:          # noqa: BLE001 (recording whatever Paddle raises)
        return [type(e).__name__, str(e)]
    return None


def errors():
    lin = paddle.nn.Linear(2, 2)

    def set_trainable(v):
        def f():
            lin.weight.trainable = v
        return f

    G["trainable_str"] = err(set_trainable("1"))
    G["trainable_int"] = err(set_trainable(1))
    lin.weight.trainable = False
    G["trainable_false_stop_gradient"] = lin.weight.stop_gradient
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program()):
            xi = paddle.static.data("xi", [10, 18], "int32")
            xf = paddle.static.data("xf", [1, 2, 3], "float32")
            act = paddle.nn.GLU(256)
            G["glu_static_int"] = err(lambda: act(1))
            G["glu_static_int32"] = err(lambda: act(xi))
            G["glu_static_axis"] = err(lambda: act(xf))
            G["var_static_int32"] = err(lambda: paddle.var(xi))
            G["std_static_int32"] = err(lambda: paddle.std(xi))
            G["selu_static_int"] = err(lambda: paddle.nn.functional.selu(1))
            G["selu_static_int32"] = err(lambda: paddle.nn.functional.selu(xi))
            G["real_static_float"] = err(lambda: paddle.real(xf))
            G["imag_static_float"] = err(lambda: paddle.imag(xf))
            G["cummax_static_list"] = err(lambda: paddle.cummax([1, 2, 3], axis=0))
            G["var_static_float"] = err(lambda: paddle.var(xf))
    finally:
        paddle.disable_static()
    seq = paddle.to_tensor([1, 3, 5, 7])
    x = paddle.to_tensor([[0, 5], [10, 6]])
    G["bucketize_x_none"] = err(lambda: paddle.bucketize(None, seq))
    G["bucketize_seq_none"] = err(lambda: paddle.bucketize(x, None))
    G["bucketize_values"] = paddle.bucketize(x, seq, right=True).numpy().tolist()
    from paddle.nn.utils import clip_grad_value_
    p = paddle.to_tensor([[1.0, 2.0]])
    p.grad = paddle.to_tensor([[3.0, -4.0]])
    G["clip_grad_value_negative"] = err(lambda: clip_grad_value_(p, clip_value=-1))
    G["clip_grad_value_no_grad"] = err(lambda: clip_grad_value_(paddle.to_tensor([1.0]), -1))
    clip_grad_value_(p, clip_value=2.5)
    G["clip_grad_value"] = p.grad.numpy().tolist()
    G["cummax_list_axis"] = err(lambda: paddle.cummax([1, 2, 3], axis=0))
    G["cummax_list"] = err(lambda: paddle.cummax([1, 2, 3]))
    xs = paddle.to_tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    G["index_select_2d_index"] = err(lambda: paddle.index_select(
        xs, paddle.to_tensor([[0, 1, 2], [1, 2, 0]])))
    G["index_select_n1_index"] = paddle.index_select(
        xs, paddle.to_tensor([[2], [0]])).numpy().tolist()
    G["var_dynamic_int32"] = paddle.var(paddle.to_tensor([[1, 2, 7]], "int32")).numpy().tolist()


def legacy_ops():
    from paddle import _legacy_C_ops as L
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    G["legacy_scale"] = L.scale(x, "scale", 0.5, "bias", 1.0).numpy().tolist()
    G["legacy_scale_before"] = L.scale(x, "scale", 2.0, "bias", 1.0, "bias_after_scale",
                                       False).numpy().tolist()
    y = x.detach().clone()
    G["legacy_scale_"] = [L.scale_(y, "scale", 0.5) is y, y.numpy().tolist()]
    G["legacy_matmul_v2"] = L.matmul_v2(x, x, "trans_x", True, "trans_y", False).numpy().tolist()
    s = L.sigmoid(x)
    s.sum().backward()
    G["legacy_sigmoid"] = [s.numpy().tolist(), x.grad.numpy().tolist()]


def zero_grads():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * x).sum().backward()
    g = x.grad
    r = x._zero_grads()
    G["zero_grads"] = [r, x.grad.numpy().tolist(), g.numpy().tolist()]
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    G["zero_grads_none"] = [y._zero_grads(), y.grad]


def reset_grad_version():
    from paddle import _legacy_C_ops as L
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
    G["reset_grad_inplace_version"] = rec


def optimizer_dtype():
    p = paddle.create_parameter([2], "float64")
    q = paddle.create_parameter([2], "float32")
    G["optimizer_dtype"] = [str(paddle.optimizer.Adam(parameters=[p])._dtype),
                            str(paddle.optimizer.SGD(parameters=[{"params": [q]}])._dtype),
                            str(paddle.optimizer.Adam(parameters=[q, p])._dtype)]


def tensor_set():
    import numpy as np
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
    G["tensor_set"] = rec


def matrix_rank_static():
    import numpy as np
    rng = np.random.RandomState(0)
    x_np = rng.rand(3, 4, 7, 7)
    x_np[0, 0, :, 0] = 0.0                      # a rank-deficient matrix among them
    tol_np = rng.random_sample([3, 4]).astype(np.float32)
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
    G["matrix_rank_static_tol"] = {"x": x_np.tolist(), "tol": tol_np.tolist(),
                                   "rank": out[0].tolist(), "dtype": str(out[0].dtype)}


def internals():
    from paddle.base.framework import _dygraph_guard, get_flags
    from paddle.jit.dy2static.utils import parse_arg_and_kwargs
    from paddle.utils.environments import (BooleanEnvironmentVariable,
                                           EnvironmentVariableGuard,
                                           IntegerEnvironmentVariable)

    modes = []
    with _dygraph_guard(None):
        modes.append(paddle.in_dynamic_mode())
    modes.append(paddle.in_dynamic_mode())
    paddle.enable_static()
    with _dygraph_guard(paddle.base.dygraph.Tracer()):
        modes.append(paddle.in_dynamic_mode())
    modes.append(paddle.in_dynamic_mode())
    paddle.disable_static()
    G["dygraph_guard_modes"] = modes
    from paddle.base.backward import _append_grad_suffix_, _strip_grad_suffix_
    from paddle.base.backward import _as_list
    G["as_list"] = [_as_list(None), _as_list([1]), _as_list((1, 2)), _as_list(3)]
    G["grad_suffix"] = [_append_grad_suffix_("x"), _strip_grad_suffix_("x@GRAD"),
                        _strip_grad_suffix_("x@GRAD@RENAME@0"), _strip_grad_suffix_("y")]
    G["flag_pir_in_executor"] = get_flags("FLAGS_enable_pir_in_executor")

    def f(a, b, c=3, d="x"):
        return a

    class K:
        def m(self, x, y=1):
            return x

    G["parse_f"] = list(parse_arg_and_kwargs(f))
    G["parse_m"] = list(parse_arg_and_kwargs(K.m))
    G["parse_none"] = list(parse_arg_and_kwargs(lambda: 0))

    name = "PADDLE_COMPAT_GOLDEN_ENV_FLAG"
    os.environ.pop(name, None)
    b = BooleanEnvironmentVariable(name, False)
    rec = [b.get(), err(lambda: bool(b))]
    with EnvironmentVariableGuard(b, True):
        rec += [b.get(), os.environ.get(name)]
    rec += [b.get(), name in os.environ]
    for text in ("1", "ON", "true", "0", "yes"):
        os.environ[name] = text
        rec.append([text, b.get()])
    os.environ.pop(name)
    n = IntegerEnvironmentVariable(name, 7)
    rec.append(n.get())
    os.environ[name] = "12"
    rec.append(n.get())
    os.environ.pop(name)
    G["environments"] = rec
    G["bool_env_bad_default"] = err(lambda: BooleanEnvironmentVariable(name, 1))
    G["bool_env_bad_set"] = err(lambda: b.set("1"))


errors()
legacy_ops()
zero_grads()
reset_grad_version()
optimizer_dtype()
tensor_set()
matrix_rank_static()
internals()
with open(OUT, "w") as fh:
    json.dump(G, fh, indent=1, sort_keys=True)
    fh.write("\n")
print(f"wrote {OUT}: {len(G)} entries")
