"""Issue 31's static-mode cases (tests/static_more_cases.py) on paddle_compat against real
Paddle 3.3.1's recording (tests/goldens/static_more.json, written by
tools/goldens/record_static_more.py), and what the goldens cannot show."""
import json
import os

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.framework.parameter import Parameter
from static_more_cases import CASES, XB
from static_cases import normalize_error
from test_static_goldens import encode, same

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "goldens", "static_more.json")) as f:
    GOLDEN = json.load(f)["cases"]


def run_case(name):
    got = {"values": []}
    paddle.enable_static()
    try:
        # fresh layer names inside, the process's numbering afterwards (other test files
        # compare parameter names ordered by their numbers)
        with paddle.utils.unique_name.guard():
            CASES[name](paddle, lambda k, v: got["values"].append([k, encode(v)]))
    except Exception as e:      # noqa: BLE001 - the exception is the result
        got["error"] = list(normalize_error(e))
    finally:
        paddle.disable_static()
    return got


@pytest.mark.parametrize("name", sorted(CASES))
def test_static_more_case(name):
    want = GOLDEN[name]
    got = run_case(name)
    assert ("error" in got) == ("error" in want), f"got {got.get('error')}, want {want.get('error')}"
    if "error" in want:
        assert got["error"] == want["error"]
    same(got["values"], want["values"], name)


@pytest.fixture
def static_mode():
    paddle.enable_static()
    try:
        with paddle.utils.unique_name.guard():
            yield
    finally:
        paddle.disable_static()


def test_creation_result_names_its_gradient(static_mode):
    """Legacy-program style: append_backward(loss) without a list makes ``X@GRAD`` of a
    creation op's result fetchable by ``x.grad_name`` (the name the tensor and its node share)."""
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        data = paddle.full(shape=[2], dtype="float32", fill_value=3.0)
        data.stop_gradient = False
        out = paddle.static.nn.static_pylayer(lambda x: x * x, [data], lambda dy: dy * 7.0)
        paddle.static.append_backward(paddle.sum(out))
    exe = paddle.static.Executor(paddle.CPUPlace())
    ret, g = exe.run(main, fetch_list=[out.name, data.grad_name])
    np.testing.assert_array_equal(ret, [9.0, 9.0])
    np.testing.assert_array_equal(g, [7.0, 7.0])


def test_append_backward_refuses_foreign_variables(static_mode):
    main, start = paddle.static.Program(), paddle.static.Program()
    other = paddle.static.Program()
    with paddle.static.program_guard(other, paddle.static.Program()):
        stranger = paddle.static.data("s", [2], "float32")
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2], "float32")
        x.stop_gradient = False
        loss = paddle.sum(x * 2.0)
        with pytest.raises(ValueError, match="is not in the loss's program"):
            paddle.static.append_backward(loss, [stranger])
        with pytest.raises(ValueError, match="'nope' is not in the loss's program"):
            paddle.static.append_backward(loss, ["nope"])
        eager = paddle.to_tensor([1.0, 2.0])        # never used by the program
        with pytest.raises(ValueError, match="is not in the loss's program"):
            paddle.static.append_backward(loss, [eager])


def test_layer_parameters_live_in_the_program(static_mode):
    """A Layer's parameters made under program_guard are the program's parameters: named as in
    dygraph, initialised only by the startup program, shared by ParamAttr name."""
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 4], "float32")
        attr = paddle.ParamAttr(name="shared_w",
                                initializer=paddle.nn.initializer.Constant(0.5))
        l1 = paddle.nn.Linear(4, 4, weight_attr=attr, bias_attr=False)
        l2 = paddle.nn.Linear(4, 4, weight_attr=attr, bias_attr=False)
        y = l2(l1(x))
    assert isinstance(l1.weight, Parameter) and l1.weight is not l2.weight
    assert l1.weight.name == l2.weight.name == "shared_w"
    assert l1.weight.persistable and not l1.weight.stop_gradient
    names = [v.name for v in main.list_vars() if v.persistable]
    assert names.count("shared_w") == 1
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    (out,) = exe.run(main, feed={"x": XB}, fetch_list=[y])
    np.testing.assert_allclose(out, XB @ np.full((4, 4), 0.5) @ np.full((4, 4), 0.5), rtol=1e-6)


def test_layer_built_in_dygraph_unchanged():
    """Outside static mode a Layer's parameters stay eager Parameters."""
    lin = paddle.nn.Linear(2, 2)
    assert type(lin.weight._t).__name__ in ("Tensor", "Parameter")
    assert lin.weight._t.requires_grad
