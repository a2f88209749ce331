"""Paddle 2.x model files (a protobuf ProgramDesc in ``.pdmodel`` + ``.pdiparams``), written
by real Paddle 3.3.1 with the old IR (tools/model_files/record_models_v2.py) into
tests/data/model_files/v2/, loaded by ``paddle.jit.load``, ``load_inference_model`` and the
predictor (jit/program_desc.py), and compared with what Paddle's executor gave."""
import json
import os
import shutil

import numpy as np
import pytest

import paddle_compat as paddle
import paddle_compat.inference as pi
from golden_utils import DEPTH_TOL
from paddle_compat.jit.program_desc import FLUID_OPS, read_program_desc

DATA = os.path.join(os.path.dirname(__file__), "data", "model_files", "v2")
MODELS = ["mlp", "cnn", "mlp64", "attention", "fluid_ops", "lstm", "gru"]
RTOL, ATOL = DEPTH_TOL["deep"]


def _expected(name):
    with open(os.path.join(DATA, "expected", name + ".json")) as f:
        return json.load(f)


def _array(d):
    return np.asarray(d["data"], dtype=d["dtype"]).reshape(d["shape"])


def _check(outs, expected):
    outs = outs if isinstance(outs, list) else [outs]
    assert len(outs) == len(expected)
    for o, e in zip(outs, expected):
        o = o.numpy() if isinstance(o, paddle.Tensor) else np.asarray(o)
        ref = _array(e)
        assert o.shape == ref.shape and o.dtype == ref.dtype
        rtol, atol = (1e-10, 1e-12) if ref.dtype == np.float64 else (RTOL, ATOL)
        np.testing.assert_allclose(o, ref, rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", MODELS)
def test_jit_load_matches_paddle(name):
    gold = _expected(name)
    layer = paddle.jit.load(os.path.join(DATA, name))
    xs = [paddle.to_tensor(_array(d)) for d in gold["inputs"]]
    with paddle.no_grad():
        _check(layer(*xs), gold["static_output"])
    if isinstance(gold.get("load_output"), list):      # where Paddle's own jit.load works
        _check(layer(*xs), gold["load_output"])


@pytest.mark.parametrize("name", MODELS)
def test_load_inference_model_and_executor(name):
    gold = _expected(name)
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(DATA, name), exe)
    assert feeds == gold["feed_names"]
    out = exe.run(prog, feed={n: _array(d) for n, d in zip(feeds, gold["inputs"])},
                  fetch_list=fetches)
    _check(out, gold["static_output"])


@pytest.mark.parametrize("name", ["cnn", "attention"])
def test_predictor(name):
    gold = _expected(name)
    cfg = pi.Config(os.path.join(DATA, name + ".pdmodel"), os.path.join(DATA, name + ".pdiparams"))
    pred = pi.create_predictor(cfg)
    assert pred.get_input_names() == gold["feed_names"]
    for n, d in zip(pred.get_input_names(), gold["inputs"]):
        pred.get_input_handle(n).copy_from_cpu(_array(d))
    pred.run()
    outs = [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]
    _check(outs, gold["static_output"])


def test_predictor_from_a_model_folder(tmp_path):
    """``Config(model_dir)`` finds ``inference.pdmodel`` where there is no inference.json."""
    gold = _expected("mlp")
    shutil.copy(os.path.join(DATA, "mlp.pdmodel"), tmp_path / "inference.pdmodel")
    shutil.copy(os.path.join(DATA, "mlp.pdiparams"), tmp_path / "inference.pdiparams")
    pred = pi.create_predictor(pi.Config(str(tmp_path)))
    pred.get_input_handle("x").copy_from_cpu(_array(gold["inputs"][0]))
    pred.run()
    _check([pred.get_output_handle(pred.get_output_names()[0]).copy_to_cpu()],
           gold["static_output"])


def test_every_recorded_op_is_mapped():
    """The fixtures cover the op types they were recorded with, and each is translated."""
    seen = set()
    for name in MODELS:
        seen.update(_expected(name)["op_types"])
    assert seen - {"feed", "fetch"} <= set(FLUID_OPS)
    assert len(seen) >= 50


def test_rnn_gradients_reach_every_weight():
    """The fused ``rnn`` op (bidirectional LSTM) trains: every weight of the list gets a
    gradient."""
    gold = _expected("lstm")
    layer = paddle.jit.load(os.path.join(DATA, "lstm"))
    layer.train()
    out = layer(*[paddle.to_tensor(_array(d)) for d in gold["inputs"]])
    (out[0].sum() + out[1].sum() + out[2].sum()).backward()
    assert len(layer.parameters()) == 8
    assert all(p.grad is not None and float(p.grad.abs().sum()) > 0 for p in layer.parameters())


def test_batch_norm_statistics_are_buffers():
    layer = paddle.jit.load(os.path.join(DATA, "cnn"))
    frozen = sorted(p.name for p in layer.parameters() if p.stop_gradient)
    assert len(frozen) == 2 and all("batch_norm2d_0.w_" in n for n in frozen)


def test_loaded_v2_model_trains():
    gold = _expected("mlp")
    layer = paddle.jit.load(os.path.join(DATA, "mlp"))
    layer.train()
    x = paddle.to_tensor(_array(gold["inputs"][0]))
    opt = paddle.optimizer.SGD(0.5, parameters=layer.parameters())
    first = None
    for _ in range(5):
        loss = (layer(x) * paddle.to_tensor([[1.0, -1.0, 0.5, 0.0]])).sum()
        first = float(loss) if first is None else first
        loss.backward()
        opt.step()
        opt.clear_grad()
    assert float(loss) < first


def test_reader_sees_blocks_vars_and_attrs():
    blocks = read_program_desc(os.path.join(DATA, "attention.pdmodel"))
    variables, ops = blocks[0]
    assert variables["x"].dims == [-1, 5, 8] and variables["ids"].dtype == 3
    assert variables["emb_w"].persistable
    mm = [op for op in ops if op.type == "matmul"][0]
    assert mm.attrs["alpha"] == 0.5 and mm.attrs["transpose_Y"] is True
    rs = [op for op in ops if op.type == "reshape2"][0]
    assert rs.attrs["shape"] == [0, 5, 3, 2, 4]
    assert rs.outputs.keys() == {"Out", "XShape"}


def _corrupt(tmp_path, mutate):
    with open(os.path.join(DATA, "mlp.pdmodel"), "rb") as f:
        data = mutate(f.read())
    (tmp_path / "m.pdmodel").write_bytes(data)
    shutil.copy(os.path.join(DATA, "mlp.pdiparams"), tmp_path / "m.pdiparams")
    return str(tmp_path / "m")


def test_truncated_program(tmp_path):
    path = _corrupt(tmp_path, lambda b: b[:len(b) // 2])
    with pytest.raises(ValueError, match="m.pdmodel"):
        paddle.jit.load(path)


def test_unknown_op_is_named(tmp_path):
    # same length, so the protobuf lengths stay right
    path = _corrupt(tmp_path, lambda b: b.replace(b"\x1a\x07softmax", b"\x1a\x07softmix"))
    with pytest.raises(NotImplementedError, match="softmix"):
        paddle.jit.load(path)


def test_params_disagree_with_program(tmp_path):
    path = _corrupt(tmp_path, lambda b: b)
    with open(os.path.join(DATA, "mlp.pdiparams"), "rb") as f:
        (tmp_path / "m.pdiparams").write_bytes(f.read()[:-4])
    with pytest.raises(ValueError, match="m.pdiparams"):
        paddle.jit.load(path)


def test_not_a_program(tmp_path):
    (tmp_path / "m.pdmodel").write_bytes(b"\xff\xff\xff")
    (tmp_path / "m.pdiparams").write_bytes(b"")
    with pytest.raises(ValueError, match="m.pdmodel"):
        paddle.jit.load(str(tmp_path / "m"))
