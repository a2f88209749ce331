"""Float32 SGD and Momentum round as Paddle 3.3.1's kernels do, bit for bit
(tests/goldens/optimizer_bits.json, tools/goldens/record_optimizer_bits.py): the product
``lr * v`` rounded, then the difference. Our eager update, and the compiled update that
parameters of a ``to_static(backend="CINN")`` network take (optimizer/compiled_step.py, under
inductor: one compile), give the same bits, so a compiled training loop's weights stay eager's."""
import base64
import json
import os

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.framework.parameter import mark_compiled
from paddle_compat.optimizer import compiled_step as _step

with open(os.path.join(os.path.dirname(__file__), "goldens", "optimizer_bits.json")) as f:
    GOLD = json.load(f)
SHAPE = tuple(GOLD["shape"])


def _arr(s):
    return np.frombuffer(base64.b64decode(s), "<f4").reshape(SHAPE)


def _run(case, compiled=False):
    p = paddle.create_parameter(list(SHAPE), "float32",
                                default_initializer=paddle.nn.initializer.Assign(
                                    _arr(GOLD["init"])))
    if compiled:
        mark_compiled([p])
    env = {"paddle": paddle, "p": p}
    exec(case["make"], env)
    opt = env["opt"]
    for g, want in zip(GOLD["grads"], case["params"]):
        (p * paddle.to_tensor(_arr(g))).sum().backward()
        opt.step()
        opt.clear_grad()
        np.testing.assert_array_equal(p.numpy(), _arr(want))
    return opt


@pytest.mark.parametrize("case", GOLD["cases"], ids=[c["id"] for c in GOLD["cases"]])
def test_eager_update_has_paddles_bits(case):
    _run(case)


def test_compiled_update_has_paddles_bits(monkeypatch):
    """The compiled rule under inductor (fp contraction off) rounds as the eager update."""
    monkeypatch.setattr(_step, "TORCH_BACKEND", "inductor")
    case = next(c for c in GOLD["cases"] if c["id"] == "momentum")
    opt = _run(case, compiled=True)
    comp = opt.__dict__.get("_compiled_update")
    assert comp is not None and comp.failed is None and comp.graphs
