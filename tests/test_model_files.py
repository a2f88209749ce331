"""Models saved by real Paddle 3.3.1's ``paddle.jit.save`` (PIR JSON program + .pdiparams),
recorded by tools/model_files/record_models.py into tests/data/model_files/, loaded with
``paddle.jit.load`` and compared with Paddle's outputs, parameter names and modes."""
import json
import os
import re
import shutil
import warnings

import numpy as np
import pytest
import torch.fx

import paddle_compat as paddle
from golden_utils import DEPTH_TOL

DATA = os.path.join(os.path.dirname(__file__), "data", "model_files")
MODELS = ["mlp", "cnn", "block", "embed", "mobile", "misc", "mlp64"]
RTOL, ATOL = DEPTH_TOL["deep"]


def _expected(name):
    with open(os.path.join(DATA, "expected", name + ".json")) as f:
        return json.load(f)


def _array(d):
    return np.asarray(d["data"], dtype=d["dtype"]).reshape(d["shape"])


def _check(out, expected, rows=slice(None)):
    """``out`` (a Tensor, or a list for several fetches) against the recorded list."""
    outs = out if isinstance(out, list) else [out]
    assert len(outs) == len(expected)
    for o, e in zip(outs, expected):
        ref = _array(e)[rows] if _array(e).ndim else _array(e)
        assert isinstance(o, paddle.Tensor)
        assert o.shape == list(ref.shape) and str(o.dtype) == "paddle." + str(ref.dtype)
        rtol, atol = (1e-10, 1e-12) if ref.dtype == np.float64 else (RTOL, ATOL)
        np.testing.assert_allclose(o.numpy(), ref, rtol=rtol, atol=atol)


def _inputs(gold):
    return [paddle.to_tensor(_array(d)) for d in gold["inputs"]]


@pytest.mark.parametrize("name", MODELS)
def test_outputs_match_paddle(name):
    gold = _expected(name)
    layer = paddle.jit.load(os.path.join(DATA, name))
    out = layer(*_inputs(gold))
    assert isinstance(out, list if len(gold["eval_output"]) > 1 else paddle.Tensor)
    _check(out, gold["eval_output"])
    # the layer Paddle saved gives the same numbers as Paddle's loaded program
    for a, b in zip(gold["layer_output"], gold["eval_output"]):
        np.testing.assert_allclose(_array(a), _array(b), rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("name", [m for m in MODELS if m != "misc"])  # misc sums the batch
def test_other_batch_size(name):
    """The batch dimension is saved as -1: one sample alone gives that sample's row."""
    gold = _expected(name)
    xs = [paddle.to_tensor(_array(d)[1:2]) for d in gold["inputs"]]
    out = paddle.jit.load(os.path.join(DATA, name))(*xs)
    _check(out, gold["eval_output"], slice(1, 2))


@pytest.mark.parametrize("name", MODELS)
def test_parameters_and_state_dict(name):
    gold = _expected(name)
    layer = paddle.jit.load(os.path.join(DATA, name))
    params = layer.parameters()
    assert len(params) == len(gold["parameters"])
    for p, (pname, shape, dtype, stop_gradient) in zip(params, gold["parameters"]):
        # Paddle appends a per-process unique suffix (_0 on the first load of that name)
        assert re.fullmatch(r"_\d+", p.name[len(pname) - 2:]) and \
            p.name.rsplit("_", 1)[0] == pname.rsplit("_", 1)[0]
        assert p.shape == shape and str(p.dtype) == dtype
        assert p.stop_gradient == stop_gradient
    sd = layer.state_dict()
    assert [[k, list(v.shape)] for k, v in sd.items()] == gold["state_dict"]


def test_second_load_gets_new_names():
    a = paddle.jit.load(os.path.join(DATA, "mlp"))
    b = paddle.jit.load(os.path.join(DATA, "mlp"))
    na, nb = [p.name for p in a.parameters()], [p.name for p in b.parameters()]
    assert set(na).isdisjoint(nb)
    assert [n.rsplit("_", 1)[0] for n in na] == [n.rsplit("_", 1)[0] for n in nb]


@pytest.mark.parametrize("name", ["cnn", "block", "mobile", "misc"])
def test_eval_train_switch(name):
    """Loaded layers start in eval mode; the saved program is the inference one, so Paddle's
    train-mode outputs equal its eval-mode ones (batch norm on running stats, no dropout)."""
    gold = _expected(name)
    layer = paddle.jit.load(os.path.join(DATA, name))
    assert layer.training is False
    layer.train()
    assert layer.training is True
    _check(layer(*_inputs(gold)), gold["train_output"])
    layer.eval()
    assert layer.training is False


def test_loaded_model_trains():
    """Gradients reach the trainable parameters (not batch norm's statistics) and an
    optimizer step changes the output."""
    gold = _expected("cnn")
    layer = paddle.jit.load(os.path.join(DATA, "cnn"))
    x = _inputs(gold)[0]
    before = layer(x).numpy()
    loss = layer(x).sum()
    loss.backward()
    for p in layer.parameters():
        if p.stop_gradient:
            assert p.grad is None
        else:
            assert p.grad is not None and p.grad.shape == p.shape
    opt = paddle.optimizer.SGD(0.1, parameters=layer.parameters())
    opt.step()
    assert np.abs(layer(x).numpy() - before).max() > 1e-4


@pytest.mark.parametrize("name", MODELS)
def test_to_static_gives_a_graph_module(name):
    """The loaded layer traces with ``paddle.jit.to_static`` into one torch.fx GraphModule
    (shape arithmetic stays in Python ints, so nothing falls back to dynamic mode)."""
    gold = _expected(name)
    layer = paddle.jit.load(os.path.join(DATA, name))
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # a fallback to dynamic mode warns
        static = paddle.jit.to_static(layer)
        out = static(*_inputs(gold))
    assert isinstance(layer.forward.graph_module, torch.fx.GraphModule)
    _check(out, gold["eval_output"])


@pytest.mark.parametrize("name", MODELS)
def test_compiled_program_matches_interpreter(name):
    """The generated function (``_compile``: direct calls, fused linear/conv bias) gives what
    running the op list one op at a time gives, and it is one Python function."""
    gold = _expected(name)
    layer = paddle.jit.load(os.path.join(DATA, name))
    xs = _inputs(gold)
    want = layer._interpret(*xs)
    got = layer(*xs)
    want, got = (want, got) if isinstance(got, list) else ([want], [got])
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g.numpy(), w.numpy())
    assert layer._source.startswith("def run(layer")


def test_copied_layer_runs_on_its_own_parameters():
    import copy
    gold = _expected("mlp")
    layer = paddle.jit.load(os.path.join(DATA, "mlp"))
    twin = copy.deepcopy(layer)
    with paddle.no_grad():
        for p in twin.parameters():
            p.set_value(paddle.zeros(p.shape))
    assert not np.allclose(layer(*_inputs(gold)).numpy(), twin(*_inputs(gold)).numpy())
    np.testing.assert_allclose(twin(*_inputs(gold)).numpy(), 0.25, rtol=1e-6)


def test_state_dict_round_trip(tmp_path):
    """A fine-tuned loaded model's state_dict saves with paddle.save and restores into a
    fresh load of the same file."""
    gold = _expected("block")
    x = _inputs(gold)[0]
    a = paddle.jit.load(os.path.join(DATA, "block"))
    for p in a.parameters():
        p.set_value(p.numpy() * 1.5)
    paddle.save(a.state_dict(), str(tmp_path / "tuned.pdparams"))
    b = paddle.jit.load(os.path.join(DATA, "block"))
    assert np.abs(b(x).numpy() - a(x).numpy()).max() > 1e-3
    b.set_state_dict(paddle.load(str(tmp_path / "tuned.pdparams")))
    np.testing.assert_array_equal(b(x).numpy(), a(x).numpy())


def test_program_lists_paddle_ops():
    layer = paddle.jit.load(os.path.join(DATA, "cnn"))
    names = [op[0] for op in layer.program()]
    assert {"pd_op.conv2d", "pd_op.batch_norm_", "pd_op.pool2d", "pd_op.flatten"} <= set(names)


# ---------------------------------------------------------------------------- bad files
def _copy(tmp_path, name):
    for ext in (".json", ".pdiparams"):
        shutil.copy(os.path.join(DATA, name + ext), tmp_path / (name + ext))
    return str(tmp_path / name)


def test_truncated_params(tmp_path):
    prefix = _copy(tmp_path, "cnn")
    data = open(prefix + ".pdiparams", "rb").read()
    for cut in (3, 30, len(data) - 1):
        open(prefix + ".pdiparams", "wb").write(data[:cut])
        with pytest.raises(ValueError, match=r"cnn\.pdiparams: truncated"):
            paddle.jit.load(prefix)


def test_extra_bytes_in_params(tmp_path):
    prefix = _copy(tmp_path, "mlp")
    with open(prefix + ".pdiparams", "ab") as f:
        f.write(b"\0" * 5)
    with pytest.raises(ValueError, match="5 bytes left after the last tensor"):
        paddle.jit.load(prefix)


def test_corrupt_tensor_header(tmp_path):
    prefix = _copy(tmp_path, "mlp")
    data = bytearray(open(prefix + ".pdiparams", "rb").read())
    data[0] = 7                                  # the first tensor's version
    open(prefix + ".pdiparams", "wb").write(bytes(data))
    with pytest.raises(ValueError, match="tensor 0 has version 7"):
        paddle.jit.load(prefix)


def test_params_disagree_with_program(tmp_path):
    prefix = _copy(tmp_path, "mlp")
    doc = json.load(open(prefix + ".json"))
    for op in doc["program"]["regions"][0]["blocks"][0]["ops"]:
        if op["#"] == "p" and op["A"][-1] == "linear_0.w_0":
            op["O"]["TT"]["D"][1] = [16, 6]
    json.dump(doc, open(prefix + ".json", "w"))
    with pytest.raises(ValueError, match=r"'linear_0.w_0' is float32 \[6, 16\], the program "
                                         r"declares float32 \[16, 6\]"):
        paddle.jit.load(prefix)


def test_not_a_program(tmp_path):
    prefix = _copy(tmp_path, "mlp")
    open(prefix + ".json", "w").write('{"program": ')
    with pytest.raises(ValueError, match=r"mlp\.json: not a PIR JSON program"):
        paddle.jit.load(prefix)
    open(prefix + ".json", "w").write('{"base_code": {"magic": "x"}}')
    with pytest.raises(ValueError, match="no base_code.magic 'pir'"):
        paddle.jit.load(prefix)


def test_unknown_op_is_named(tmp_path):
    prefix = _copy(tmp_path, "mlp")
    doc = json.load(open(prefix + ".json"))
    for op in doc["program"]["regions"][0]["blocks"][0]["ops"]:
        if op["#"] == "1.relu":
            op["#"] = "1.fancy_relu"
    json.dump(doc, open(prefix + ".json", "w"))
    with pytest.raises(NotImplementedError, match="'pd_op.fancy_relu'"):
        paddle.jit.load(prefix)


def _edit_ops(prefix, edit):
    doc = json.load(open(prefix + ".json"))
    edit(doc["program"]["regions"][0]["blocks"][0]["ops"])
    json.dump(doc, open(prefix + ".json", "w"))


def test_dangling_and_redefined_values(tmp_path):
    prefix = _copy(tmp_path, "mlp")

    def dangle(ops):
        next(op for op in ops if op["#"] == "1.relu")["I"] = [{"%": 999}]
    _edit_ops(prefix, dangle)
    with pytest.raises(ValueError, match=r"pd_op.relu\) uses value %999, which no earlier op"):
        paddle.jit.load(prefix)
    prefix = _copy(tmp_path, "mlp")

    def redefine(ops):
        next(op for op in ops if op["#"] == "1.relu")["O"][0]["%"] = 5
    _edit_ops(prefix, redefine)
    with pytest.raises(ValueError, match="defines value %5 again"):
        paddle.jit.load(prefix)


def test_missing_attribute(tmp_path):
    prefix = _copy(tmp_path, "block")

    def drop_perm(ops):
        op = next(op for op in ops if op["#"] == "1.transpose")
        op["A"] = [a for a in op["A"] if a["N"] != "perm"]
    _edit_ops(prefix, drop_perm)
    layer = paddle.jit.load(prefix)
    with pytest.raises(ValueError, match="pd_op.transpose lacks its attribute 'perm'"):
        layer(paddle.ones([2, 5, 8]))


def test_file_names_in_a_folder(tmp_path):
    shutil.copy(os.path.join(DATA, "mlp.json"), tmp_path / "net.json")
    shutil.copy(os.path.join(DATA, "mlp.pdiparams"), tmp_path / "weights.bin")
    gold = _expected("mlp")
    layer = paddle.jit.load(str(tmp_path), model_filename="net.json",
                            params_filename="weights.bin")
    _check(layer(*_inputs(gold)), gold["eval_output"])
    with pytest.raises(ValueError, match="takes no config fancy"):
        paddle.jit.load(os.path.join(DATA, "mlp"), fancy=1)


def test_missing_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        paddle.jit.load(str(tmp_path / "nothing"))
    (tmp_path / "old.pdmodel").write_bytes(b"\0")       # a 2.x model without its parameters
    with pytest.raises(FileNotFoundError, match="old.pdiparams"):
        paddle.jit.load(str(tmp_path / "old"))


def test_wrong_inputs():
    layer = paddle.jit.load(os.path.join(DATA, "mlp"))
    with pytest.raises(ValueError, match=r"input 'x' must have shape \[-1, 6\]"):
        layer(paddle.ones([2, 5]))
    with pytest.raises(ValueError, match="must be float32"):
        layer(paddle.ones([2, 6], dtype="float64"))
    with pytest.raises(ValueError, match="takes 1 input"):
        layer(paddle.ones([2, 6]), paddle.ones([2, 6]))


# ---------------------------------------------------------------------------- control flow
CONTROL = os.path.join(DATA, "control")


def _control_cases(name):
    with open(os.path.join(CONTROL, "expected", name + ".json")) as f:
        gold = json.load(f)
    return [(paddle.to_tensor(_array(i)), o) for i, o in zip(gold["inputs"], gold["outputs"])]


def test_cond_takes_each_branch():
    """``paddle.static.nn.cond`` saved by Paddle (pd_op.if with two blocks that read a value
    computed before them): inputs that take the true and the false branch."""
    layer = paddle.jit.load(os.path.join(CONTROL, "cond"))
    cases = _control_cases("cond")
    assert "pd_op.if" in [op[0] for op in layer.program()]
    for x, want in cases:
        _check(layer(x), want)
    a, b = (layer(x).numpy() for x, _ in cases)
    assert (b >= 0).all() and (b <= 1).all() and a.max() > 2      # relu - 1 + 1, 2 tanh + 1


def test_while_loop_runs_its_trip_count():
    """``while_loop`` saved by Paddle (pd_op.while whose body reads a parameter and holds a
    nested pd_op.if): three inputs that loop 9, 4 and 1 times."""
    layer = paddle.jit.load(os.path.join(CONTROL, "while"))
    counts = []
    for x, want in _control_cases("while"):
        out = layer(x)
        _check(out, want)
        counts.append(int(out[1]))
    assert counts == [9, 4, 1]


def test_gradients_flow_through_control_flow():
    layer = paddle.jit.load(os.path.join(CONTROL, "while"))
    layer.train()
    x, _ = _control_cases("while")[1]
    out, _ = layer(x)
    out.sum().backward()
    grads = [p.grad for p in layer.parameters()]
    assert all(g is not None and float(g.abs().sum()) > 0 for g in grads)


def test_malformed_control_flow(tmp_path):
    with open(os.path.join(CONTROL, "cond.json")) as f:
        doc = json.load(f)
    ops = doc["program"]["regions"][0]["blocks"][0]["ops"]
    if_op = [o for o in ops if o["#"] == "1.if"][0]
    if_op["regions"] = if_op["regions"][:1]                  # one branch only
    (tmp_path / "m.json").write_text(json.dumps(doc))
    shutil.copy(os.path.join(CONTROL, "cond.pdiparams"), tmp_path / "m.pdiparams")
    with pytest.raises(ValueError, match="pd_op.if with 1 regions"):
        paddle.jit.load(str(tmp_path / "m"))
