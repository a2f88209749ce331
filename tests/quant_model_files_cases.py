"""The quantised nets of tests/test_quant_model_files.py and its recorder
(tools/goldens/record_quant_model_files.py): each is built with seeded weights, quantised with
``ImperativeQuantAware(onnx_format=True)`` (what PaddleSlim's ``QAT`` does), calibrated by two
training forwards and saved with ``save_quantized_model``. ``paddle`` is passed in: real
Paddle 3.3.1 when recording, paddle_compat when testing."""
import numpy as np

CASES = ("convnet", "pool_abs_max", "residual", "ties")


def _nets(paddle):
    nn, F = paddle.nn, paddle.nn.functional

    class ConvNet(nn.Layer):
        """conv-bn-relu, strided conv-relu, linear head (channel-wise weights)."""

        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2D(3, 4, 3, padding=1)
            self.bn1 = nn.BatchNorm2D(4)
            self.conv2 = nn.Conv2D(4, 6, 3, stride=2, padding=1)
            self.fc = nn.Linear(6 * 4 * 4, 5)

        def forward(self, x):
            x = F.relu(self.bn1(self.conv1(x)))
            x = F.relu(self.conv2(x))
            return self.fc(paddle.flatten(x, 1))

    class PoolNet(nn.Layer):
        """conv-relu, max pool, linear (per-tensor abs_max weights)."""

        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(2, 4, 3, padding=1)
            self.fc = nn.Linear(4 * 3 * 3, 3)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv(x)), 2)
            return self.fc(paddle.flatten(x, 1))

    class Residual(nn.Layer):
        """conv-relu, depthwise conv, residual add, avg pools, linear."""

        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(2, 4, 3, padding=1)
            self.dw = nn.Conv2D(4, 4, 3, padding=1, groups=4)
            self.fc = nn.Linear(4, 3)

        def forward(self, x):
            x = F.relu(self.conv(x))
            x = F.avg_pool2d(x + self.dw(x), 2)
            return self.fc(paddle.flatten(F.adaptive_avg_pool2d(x, 1), 1))

    class TiesNet(nn.Layer):
        """One Linear whose input scale is 127: inputs on .5 land on rounding ties."""

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 3)

        def forward(self, x):
            return self.fc(x)

    return {"convnet": (ConvNet, "channel_wise_abs_max", [None, 3, 8, 8]),
            "pool_abs_max": (PoolNet, "abs_max", [None, 2, 6, 6]),
            "residual": (Residual, "channel_wise_abs_max", [None, 2, 6, 6]),
            "ties": (TiesNet, "abs_max", [None, 4])}


def inputs(case):
    """The calibration / test input of ``case``."""
    shape = {"convnet": (2, 3, 8, 8), "pool_abs_max": (2, 2, 6, 6), "residual": (2, 2, 6, 6),
             "ties": (3, 4)}[case]
    if case == "ties":
        return np.array([[0.5, 1.5, -2.5, 3.5], [-0.5, 2.5, 4.5, -1.5],
                         [126.5, -127.5, 0.25, 10.5]], dtype="float32")
    return np.random.RandomState(1).standard_normal(shape).astype("float32")


def build(paddle, case):
    """(quantised net in eval mode, its quanter, its InputSpec list, the input array)."""
    cls, wtype, spec = _nets(paddle)[case]
    # names from 0 whatever ran before (Paddle's save_quantized_model leaves dygraph mode with
    # a fresh name generator, paddle_compat's does not)
    with paddle.utils.unique_name.guard():
        net = cls()
        rng = np.random.RandomState(0)
        for name, p in net.state_dict().items():
            if name.endswith("_variance"):
                p.set_value((1.0 + np.abs(rng.standard_normal(p.shape)) * 0.2).astype("float32"))
            elif name.endswith("_mean"):
                p.set_value((rng.standard_normal(p.shape) * 0.1).astype("float32"))
            else:
                p.set_value((rng.standard_normal(p.shape) * 0.3).astype("float32"))
        quanter = paddle.quantization.ImperativeQuantAware(
            quantizable_layer_type=["Conv2D", "Linear"], weight_quantize_type=wtype,
            activation_quantize_type="moving_average_abs_max", onnx_format=True)
        qnet = quanter.quantize(net)
    x = inputs(case)
    qnet.train()
    for _ in range(2):
        qnet(paddle.to_tensor(x))
    qnet.eval()
    if case == "ties":      # x / 127 * 127: the .5 inputs sit exactly on ties
        qnet.fc._layer._fake_quant_input._scale.set_value(np.array([127.0], "float32"))
    return qnet, quanter, [paddle.static.InputSpec(spec, "float32", "x")], x


def predict(paddle, prefix, x):
    """The output of ``prefix.pdmodel`` run by ``paddle.inference`` on ``x``."""
    config = paddle.inference.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.disable_mkldnn()
    predictor = paddle.inference.create_predictor(config)
    handle = predictor.get_input_handle(predictor.get_input_names()[0])
    handle.copy_from_cpu(x)
    predictor.run()
    return predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
