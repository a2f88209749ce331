"""Dropout's output and input gradient against Paddle 3.3.1's, bit for bit (goldens from
tools/goldens/record_dropout_grad.py): +0 where the forward dropped an element, even a NaN or
an infinity; the backward multiplies the upstream gradient by the mask as Paddle's kernel
does, so a dropped element's gradient is -0 for a negative upstream value and NaN for a
non-finite one. Eager, a to_static graph, and a compiled to_static graph."""
import json
import os

import numpy as np
import pytest

import paddle_compat as paddle

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "goldens", "dropout_grad.json")) as f:
    GOLDEN = json.load(f)


def _bits(t):
    a = np.ascontiguousarray(t.numpy())
    return a.view({4: np.uint32, 8: np.uint64}[a.dtype.itemsize]).ravel().tolist()


def _check(name, out):
    want = GOLDEN[name]["out"]
    assert len(out) == len(want)
    for got, w in zip(out, want):
        assert str(got.numpy().dtype) == w["dtype"] and list(got.shape) == w["shape"]
        assert _bits(got) == w["bits"], (name, got.numpy())


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_dropout_matches_paddle_bits(name):
    env = {"paddle": paddle, "np": np}
    exec(GOLDEN[name]["code"], env)
    _check(name, env["out"])


@pytest.mark.parametrize("backend", [None, "aot_eager", "inductor"])
def test_dropout_in_to_static_graph_matches_paddle_bits(backend, monkeypatch):
    """The same through a to_static function's traced graph: uncompiled, and compiled by
    torch's aot_eager backend (dynamo + AOTAutograd, no C++ build) and by inductor (our
    decomposition of dropout's forward, its registered backward, the uint8 mask)."""
    from paddle_compat.jit import compiled
    if backend is not None:
        monkeypatch.setattr(compiled, "TORCH_BACKEND", backend)
        backend = "CINN"
    monkeypatch.setattr(compiled, "TIMED_CHOICE", False)
    for name in ("upscale", "downscale", "p_one"):
        code = GOLDEN[name]["code"].replace("y = paddle.nn.functional.dropout(x, ",
                                            "y = paddle.jit.to_static(lambda v: "
                                            "paddle.nn.functional.dropout(v, ")
        code = code.replace(")\ny.backward", "), backend=BACKEND)(x)\ny.backward")
        env = {"paddle": paddle, "np": np, "BACKEND": backend}
        exec(code, env)
        _check(name, env["out"])
