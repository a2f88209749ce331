"""paddle.onnx.export on torch.onnx: the file Paddle's exporter writes (path + '.onnx'), its
inputs and dynamic axes, and -- where onnx and onnxruntime are installed (the ``onnx``
extra) -- that the exported model computes what the Layer computes."""
import os
import sys

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.static import InputSpec


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(8, 6)
        self.bn = paddle.nn.BatchNorm1D(6)
        self.out = paddle.nn.Linear(6, 3)

    def forward(self, x):
        return paddle.nn.functional.softmax(self.out(paddle.tanh(self.bn(self.fc(x)))), axis=-1)


class TwoIn(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(3, 4, 3, padding=1)

    def forward(self, img, scale, use_scale):
        y = paddle.nn.functional.relu(self.conv(img)).mean(axis=[2, 3])
        return (y * scale if use_scale else y), y.sum(axis=-1)


def test_missing_onnx_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnx", None)
    with pytest.raises(ImportError, match=r"paddle_compat\[onnx\]"):
        paddle.onnx.export(Net(), str(tmp_path / "m"), input_spec=[InputSpec([None, 8])])


def test_empty_prefix():
    with pytest.raises(ValueError, match="file_prefix is empty"):
        paddle.onnx.export(Net(), "some/dir/", input_spec=[InputSpec([None, 8])])


def test_unsupported_option(tmp_path):
    pytest.importorskip("onnx")
    with pytest.raises(NotImplementedError, match="output_spec"):
        paddle.onnx.export(Net(), str(tmp_path / "m"), input_spec=[InputSpec([None, 8])],
                           output_spec=[])


def test_export_matches_layer(tmp_path):
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    paddle.seed(3)
    net = Net()
    net.bn._mean.set_value(paddle.to_tensor([0.1, -0.2, 0.3, 0.0, 0.5, -0.1]))
    net.bn._variance.set_value(paddle.to_tensor([1.5, 0.5, 2.0, 1.0, 0.8, 1.2]))
    prefix = str(tmp_path / "sub" / "net")
    paddle.onnx.export(net, prefix, input_spec=[InputSpec([None, 8], "float32", "x")],
                       enable_onnx_checker=True)
    assert os.path.isfile(prefix + ".onnx")
    assert net.training                          # the Layer's mode is given back
    model = onnx.load(prefix + ".onnx")
    assert model.opset_import[0].version == 9
    sess = ort.InferenceSession(prefix + ".onnx", providers=["CPUExecutionProvider"])
    (inp,) = sess.get_inputs()
    assert inp.name == "x" and inp.shape[1] == 8 and isinstance(inp.shape[0], str)
    net.eval()
    for batch in (1, 5):
        x = np.random.RandomState(batch).rand(batch, 8).astype("float32")
        got = sess.run(None, {"x": x})[0]
        np.testing.assert_allclose(got, net(paddle.to_tensor(x)).numpy(), rtol=1e-5, atol=1e-6)


def test_export_tensors_and_constants(tmp_path):
    pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    paddle.seed(5)
    net = TwoIn()
    img = paddle.rand([2, 3, 6, 6])
    scale = paddle.to_tensor([2.0, 0.5, 1.0, 3.0])
    paddle.onnx.export(net, str(tmp_path / "two"), input_spec=[img, scale, True], opset_version=11)
    sess = ort.InferenceSession(str(tmp_path / "two.onnx"), providers=["CPUExecutionProvider"])
    # example Tensors name their inputs by Tensor.name, as InputSpec.from_tensor does
    assert [i.name for i in sess.get_inputs()] == [img.name, scale.name]
    assert [i.shape for i in sess.get_inputs()] == [[2, 3, 6, 6], [4]]
    got = sess.run(None, {img.name: img.numpy(), scale.name: scale.numpy()})
    want = net(img, scale, True)
    assert len(got) == 2
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-5, atol=1e-6)
