"""Fixes found running Paddle's own test/legacy_test files on paddle_compat (issue 31, half A),
against Paddle 3.3.1's goldens (tools/goldens/record_upstream_fixes_A.py)."""
import json
import os
import sys

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.compat import hook

GOLD = json.load(open(os.path.join(os.path.dirname(__file__), "goldens",
                                   "upstream_fixes_A.json")))


@pytest.fixture
def as_paddle():
    """``import paddle`` resolves to paddle_compat while the test runs."""
    was = hook.is_installed()
    hook.install()
    try:
        yield
    finally:
        if not was:
            hook.uninstall()


def test_strip_grad_suffix(as_paddle):
    from paddle.base import backward, core
    assert core.grad_var_suffix() == GOLD["grad_var_suffix"]
    for name, want in GOLD["strip_grad_suffix"].items():
        assert backward._strip_grad_suffix_(name) == want, name
    for name, want in GOLD["append_grad_suffix"].items():
        assert backward._append_grad_suffix_(name) == want
    assert [backward._as_list(v) for v in (None, (1, 2), 3, "ab", [4])] == GOLD["as_list"]


def test_register_backward_hook_errors_and_calls():
    x = paddle.to_tensor([5.0])
    with pytest.raises(ValueError) as e:
        x._register_backward_hook(lambda: None)
    assert [type(e.value).__name__, str(e.value)] == GOLD["backward_hook_stop_gradient"]
    y = paddle.to_tensor([5.0], stop_gradient=False) ** 2
    with pytest.raises(ValueError) as e:
        y._register_backward_hook(lambda: None)
    assert [type(e.value).__name__, str(e.value)] == GOLD["backward_hook_interior"]
    calls = []
    w = paddle.to_tensor([2.0], stop_gradient=False)
    w._register_backward_hook(lambda: calls.append(len(calls)))
    (w * 3).backward()
    (w * 3).backward()
    assert calls == GOLD["backward_hook_calls"]
    np.testing.assert_allclose(w.grad.numpy(), GOLD["backward_hook_grad"], rtol=1e-6)


def test_static_pylayer_block(as_paddle):
    """The block form of static_pylayer: the input's gradient is what the backward block
    makes (a constant here), not the forward's own gradient."""
    import paddle as pd
    from paddle.base import core
    from paddle.static.nn.static_pylayer import StaticPyLayerBlock, static_pylayer
    from paddle.static.nn.common import fc    # Paddle's package layout of paddle.static.nn
    assert static_pylayer is pd.static.nn.static_pylayer and fc is pd.static.nn.fc
    g = GOLD["pylayer_block"]
    pd.enable_static()
    try:
        main_p, start_p = pd.static.Program(), pd.static.Program()
        with pd.static.program_guard(main_p, start_p):
            data = pd.static.data(name="X", shape=[4, 3], dtype="float32")
            data.stop_gradient = False
            block = StaticPyLayerBlock(inputs=[data])
            out = pd.tensor.create_tensor(dtype="float32")
            with block.block(is_backward_block=False) as mgr:
                pd.assign(data * 2.0, out)
                mgr.fwd_outputs = [out]
            with block.block(is_backward_block=True) as mgr:
                const = pd.tensor.fill_constant(shape=[4, 3], dtype="float32", value=0.5)
                mgr.var_old_to_new[const.name] = data.name + core.grad_var_suffix()
            loss = pd.mean(out)
            pd.static.append_backward(loss=loss)
            exe = pd.static.Executor(pd.CPUPlace())
            exe.run(start_p)
            o, gx = exe.run(main_p, feed={"X": np.array(g["x"], dtype="float32")},
                            fetch_list=[out, data.grad_name])
    finally:
        pd.disable_static()
    np.testing.assert_allclose(o, g["out"], rtol=1e-6)
    np.testing.assert_allclose(gx, g["x_grad"], rtol=1e-6)


def test_static_pylayer_block_order_and_names(as_paddle):
    import paddle as pd
    from paddle.static.nn.static_pylayer import StaticPyLayerBlock
    pd.enable_static()
    try:
        with pd.static.program_guard(pd.static.Program(), pd.static.Program()):
            data = pd.static.data(name="X", shape=[2], dtype="float32")
            block = StaticPyLayerBlock(inputs=[data])
            with pytest.raises(ValueError, match="forward block must come before"):
                with block.block(is_backward_block=True):
                    pass
            with pytest.raises(ValueError, match="fwd_outputs"):
                with block.block(is_backward_block=False):
                    pass
            block = StaticPyLayerBlock(inputs=[data])
            out = pd.tensor.create_tensor(dtype="float32")
            with block.block(is_backward_block=False) as mgr:
                pd.assign(data + 1.0, out)
                mgr.fwd_outputs = [out]
            with pytest.raises(ValueError, match="no Variable named 'nope'"):
                with block.block(is_backward_block=True) as mgr:
                    mgr.var_old_to_new["nope"] = data.name + "@GRAD"
    finally:
        pd.disable_static()


def _err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is compared
        return [type(e).__name__, str(e).split("\n")[0]]
    return None


def test_create_parameter_checks_in_static_mode():
    """Paddle checks create_parameter's argument types while a program is built (only)."""
    cases = {"int_shape": ((1, "float32"), {}),
             "float_item": (([1.0, 2.0], "float32"), {}),
             "ndarray_attr": (([1, 2], "float32"), {"attr": np.arange(2)}),
             "str_attr": (([1, 2], "float32"), {"attr": "w"}),
             "ndarray_initializer": (([1, 2], "float32"), {"default_initializer": np.arange(2)}),
             "ok_np_int_item": (([np.int64(2), 3], "float32"), {})}
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            got = {k: _err(lambda a=a: paddle.create_parameter(*a[0], **a[1]))
                   for k, a in cases.items()}
    finally:
        paddle.disable_static()
    for k, want in GOLD["create_parameter_errors"].items():
        if want is None or k in ("int_shape", "float_item"):
            assert got[k] == want, k
        else:       # the accepted classes are named by their module paths, which differ
            assert got[k][0] == want[0], k
            assert got[k][1].split(" must be ")[0] == want[1].split(" must be ")[0], k
            assert got[k][1].split("but received ")[1] == want[1].split("but received ")[1], k
    assert paddle.create_parameter([2], "float32").shape == [2]     # dynamic mode: no checks


def test_corrcoef_dynamic_and_static():
    """corrcoef is recorded in a static program (Paddle builds it there too) with the same
    values as in dynamic mode; complex input is refused while building (TypeError)."""
    g = GOLD["corrcoef_dynamic"]
    x = np.array(g["x"])
    np.testing.assert_allclose(paddle.linalg.corrcoef(paddle.to_tensor(x)).numpy(), g["rows"],
                               rtol=1e-12, atol=1e-12)
    assert float(paddle.linalg.corrcoef(paddle.to_tensor(x[0])).numpy()) == g["one_row"]
    assert _err(lambda: paddle.linalg.corrcoef(paddle.ones([2, 3, 4]))) == g["3d"]
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            xc = paddle.static.data(name="xc", shape=[2], dtype="complex64")
            assert _err(lambda: paddle.linalg.corrcoef(x=xc)) == GOLD["corrcoef_complex_static"]
            xs = paddle.static.data(name="xs", shape=[2, 4], dtype="float64")
            xt = paddle.static.data(name="xt", shape=[4, 2], dtype="float64")
            ys = paddle.linalg.corrcoef(xs)
            yt = paddle.linalg.corrcoef(xt, rowvar=False)
            assert list(ys.shape) == [2, 2]
            r1, r2 = paddle.static.Executor(paddle.CPUPlace()).run(
                feed={"xs": x, "xt": x.T.copy()}, fetch_list=[ys, yt])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(r1, g["rows"], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(r2, g["rows"], rtol=1e-12, atol=1e-12)


def test_bincount_and_arange_errors():
    xi = paddle.to_tensor([1, 2, 3, 4, 5])
    got = {"minlength": _err(lambda: paddle.bincount(xi, minlength=-1)),
           "weights_len": _err(lambda: paddle.bincount(xi, weights=paddle.to_tensor([1.0] * 6))),
           "weights_2d": _err(lambda: paddle.bincount(xi, weights=paddle.ones([5, 1])))}
    assert got == GOLD["bincount_errors"]
    kind, msg = _err(lambda: paddle.arange(10, dtype="int8"))
    assert kind == GOLD["arange_int8_dynamic"][0] and GOLD["arange_int8_dynamic"][1].startswith(msg)
    np.testing.assert_array_equal(paddle.arange(2, 5, dtype="int32").numpy(), [2, 3, 4])
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            # the golden is the old IR's wording (the recorder runs old-IR for
            # StaticPyLayerBlock); ours is PIR's (Paddle 3.3.1's default): both TypeError
            assert _err(lambda: paddle.arange(10, dtype="int8"))[0] == \
                GOLD["arange_int8_static"][0]
    finally:
        paddle.disable_static()


def test_eigh_eigvalsh_input_checks():
    """Paddle checks the shape (>= 2-D, square) before UPLO, in every mode (ValueError)."""
    cases = {"1d": ([3], "L"), "nonsquare": ([2, 3], "R"), "uplo": ([3, 3], "R")}
    got = {f"{fn.__name__}_{k}": _err(lambda fn=fn, a=a: fn(paddle.ones(a[0]), a[1]))
           for fn in (paddle.linalg.eigh, paddle.linalg.eigvalsh) for k, a in cases.items()}
    assert got == GOLD["eigh_errors"]
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            xi = paddle.static.data(name="xi", shape=[4, 4], dtype="int32")
            assert _err(lambda: paddle.linalg.eigh(xi))[0] == "TypeError"
            assert _err(lambda: paddle.linalg.eigvalsh(xi))[0] == "TypeError"
    finally:
        paddle.disable_static()


def test_eye_argument_errors():
    g = GOLD["eye_errors"]
    assert _err(lambda: paddle.eye(-1, dtype="int64")) == g["rows"]
    assert _err(lambda: paddle.eye(10, num_columns=5.2, dtype="int64")) == g["cols_float"]
    kind, msg = _err(lambda: paddle.eye(10, num_columns=10, dtype="int8"))
    assert kind == g["int8"][0] and g["int8"][1].startswith(msg)
    np.testing.assert_array_equal(paddle.eye(np.int64(2), True).numpy(), GOLD["eye_np_int"])


def test_non_tensor_argument_while_building_a_program():
    """A list where an op wants a Variable: Paddle's TypeError (InvalidType) while a program is
    built; ValueError (InvalidArgument) in dynamic mode, as before."""
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            got = {n: _err(lambda n=n: getattr(paddle, n)([1.0, 2.0]))
                   for n in GOLD["static_not_tensor"]}
    finally:
        paddle.disable_static()
    assert got == GOLD["static_not_tensor"]
    assert _err(lambda: paddle.isinf([1.0]))[0] == "ValueError"
