"""``save_quantized_model`` (PaddleSlim's QAT: ``ImperativeQuantAware(onnx_format=True)``) writes
Paddle 3.3.1's quantised inference model, checked both ways against the files and outputs
recorded by tools/goldens/record_quant_model_files.py (nets: tests/quant_model_files_cases.py):

* Paddle's files (tests/goldens/quant_model_files/<case>/) run by paddle_compat's predictor
  give Paddle's predictor output;
* paddle_compat's files of the same net give the output real Paddle's predictor gave on them
  (``ties``: inputs on rounding ties of ``quantize_linear``);
* the program paddle_compat writes is Paddle's: the same variables (names, types, shapes,
  persistables), the same ops with the same slots and attributes, in Paddle's order (Paddle
  places a weight's ``dequantize_linear`` anywhere before its consumer, so those float), and
  the same stored values (int8 weights, float scales, int32 zero points).
"""
import json
import os
import sys

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.framework.lodtensor import read_pdiparams
from paddle_compat.jit.program_desc import read_program_desc

sys.path.insert(0, os.path.dirname(__file__))
from quant_model_files_cases import CASES, build, inputs, predict  # noqa: E402

HERE = os.path.join(os.path.dirname(__file__), "goldens")
with open(os.path.join(HERE, "quant_model_files.json")) as _f:
    GOLDEN = json.load(_f)


def paddle_file(case):
    return os.path.join(HERE, "quant_model_files", case, "model")


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """paddle_compat's files of every case: {case: path prefix}."""
    root = tmp_path_factory.mktemp("quant")
    out = {}
    for case in CASES:
        qnet, quanter, spec, _ = build(paddle, case)
        out[case] = str(root / case / "model")
        quanter.save_quantized_model(qnet, out[case], input_spec=spec)
    return out


@pytest.mark.parametrize("case", CASES)
def test_paddle_file_runs_here(case):
    got = predict(paddle, paddle_file(case), inputs(case))
    np.testing.assert_allclose(got, GOLDEN[case]["paddle_pred"], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", CASES)
def test_our_file_gives_what_paddle_gave_on_it(case, saved):
    assert sorted(os.listdir(os.path.dirname(saved[case]))) == [
        "model.pdiparams", "model.pdiparams.info", "model.pdmodel"]
    got = predict(paddle, saved[case], inputs(case))
    np.testing.assert_allclose(got, GOLDEN[case]["paddle_runs_ours"], rtol=1e-5, atol=1e-5)


def _program(prefix):
    """(variables, ops, stored arrays) of a saved model; op_callstack (Python stack lines of
    the saving process) left out."""
    variables, ops = read_program_desc(prefix + ".pdmodel")[0]
    vs = {n: (v.kind, v.dtype, v.dims, v.persistable) for n, v in variables.items()}
    desc = [(op.type, sorted(op.inputs.items()), sorted(op.outputs.items()),
             sorted((k, v) for k, v in op.attrs.items() if k != "op_callstack")) for op in ops]
    names = sorted(n for n, v in variables.items() if v.persistable and v.kind == 7)
    return list(variables), vs, desc, dict(zip(names, read_pdiparams(prefix + ".pdiparams",
                                                                      len(names))))


def _floating(desc, vs):
    """(the ops in order without the weights' dequantize_linear, those apart): Paddle places a
    weight's dequantize_linear anywhere before its consumer."""
    weight = [op[0] == "dequantize_linear" and vs[dict(op[1])["X"][0]][3] for op in desc]
    return ([op for op, w in zip(desc, weight) if not w],
            sorted(repr(op) for op, w in zip(desc, weight) if w))


@pytest.mark.parametrize("case", CASES)
def test_program_is_paddles(case, saved):
    order, vs, desc, arrays = _program(saved[case])
    p_order, p_vs, p_desc, p_arrays = _program(paddle_file(case))
    assert order == p_order
    assert vs == p_vs
    assert _floating(desc, vs) == _floating(p_desc, p_vs)
    assert len(desc) == len(p_desc)
    assert sorted(arrays) == sorted(p_arrays)
    for name, want in p_arrays.items():
        got = arrays[name]
        assert got.dtype == want.dtype and got.shape == want.shape, name
        if want.dtype.kind in "iu":
            np.testing.assert_array_equal(got, want, err_msg=name)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=name)
    assert {op[0] for op in desc} >= {"quantize_linear", "dequantize_linear", "feed", "fetch"}


def test_weights_are_int8_and_scales_float(saved):
    _, vs, _, arrays = _program(saved["convnet"])
    ints = sorted(n for n, a in arrays.items() if a.dtype == np.int8)
    assert ints == ["conv2d_0.w_0", "conv2d_1.w_0", "linear_0.w_0"]
    assert all(vs[n][1] == 5 for n in ints)      # declared float32, as Paddle does
    assert all(arrays[n].dtype == np.float32 for n in arrays if ".scale_" in n)
    assert all(arrays[n].dtype == np.int32 for n in arrays if n.endswith("@zero_point"))


class Gelu(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 3)

    def forward(self, x):
        return paddle.nn.functional.gelu(self.fc(x))


def test_unsupported_op_names_it_and_leaves_nothing(tmp_path):
    quanter = paddle.quantization.ImperativeQuantAware(onnx_format=True)
    qnet = quanter.quantize(Gelu())
    qnet.train()
    assert paddle.in_dynamic_mode()
    with pytest.raises(NotImplementedError, match=r"pd_op\.gelu.*fluid|Gelu"):
        quanter.save_quantized_model(qnet, str(tmp_path / "m" / "model"),
                                     input_spec=[paddle.static.InputSpec([None, 4], "float32")])
    assert paddle.in_dynamic_mode()
    assert qnet.training and qnet.fc.training          # the modes it had
    assert not (tmp_path / "m").exists() or not os.listdir(tmp_path / "m")


def test_older_format_and_ptq_are_refused(tmp_path):
    quanter = paddle.quantization.ImperativeQuantAware()          # onnx_format=False
    qnet = quanter.quantize(Gelu())
    with pytest.raises(NotImplementedError, match="onnx_format=False"):
        quanter.save_quantized_model(qnet, str(tmp_path / "model"))
    with pytest.raises(NotImplementedError, match="ImperativePTQ.save_quantized_model"):
        paddle.quantization.ImperativePTQ().save_quantized_model(qnet, str(tmp_path / "m"))
    assert not os.listdir(tmp_path)


def test_writer_encodes_every_attribute_kind(tmp_path):
    """encode_program's attributes read back as written (the kinds the quantised programs do
    not all use), and its variables with their types."""
    from paddle_compat.static.program_desc_writer import encode_program
    attrs = [("i", "i", -7), ("f", "f", 0.25), ("s", "s", "NCHW"), ("ints", "ints", [1, -2]),
             ("floats", "floats", [0.5, -1.5]), ("strings", "strings", ["a", "bc"]),
             ("b", "b", True), ("bools", "bools", [True, False]), ("l", "l", -(1 << 40)),
             ("longs", "longs", [1 << 33, -3]), ("f64", "f64", 0.1)]
    path = tmp_path / "m.pdmodel"
    path.write_bytes(encode_program(
        {"x": ("float32", [-1, 4], False), "w": ("int8", [4], True)},
        [("relu", {"X": ["x"]}, {"Out": ["x"]}, attrs)]))
    (variables, ops), = read_program_desc(str(path))
    assert list(variables) == ["w", "x", "feed", "fetch"]
    assert (variables["w"].dtype, variables["w"].dims, variables["w"].persistable) == \
        (21, [4], True)
    assert (variables["x"].dtype, variables["x"].dims, variables["x"].persistable) == \
        (5, [-1, 4], False)
    assert ops[0].type == "relu" and ops[0].inputs == {"X": ["x"]}
    assert ops[0].attrs == {n: v for n, _, v in attrs}
    with pytest.raises(ValueError, match="unknown kind"):
        encode_program({}, [("relu", {}, {}, [("a", "complex", 1)])])
