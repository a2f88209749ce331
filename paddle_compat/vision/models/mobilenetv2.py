"""MobileNetV2: inverted residual blocks with linear bottlenecks, in ``features``."""
from ... import nn
from ...ops.reshaping import flatten
from ._utils import ConvNormActivation, _make_divisible, load_pretrained

__all__ = ["MobileNetV2", "mobilenet_v2"]

model_urls = {"mobilenetv2_1.0": (
    "https://paddle-hapi.bj.bcebos.com/models/mobilenet_v2_x1.0.pdparams",
    "0340af0a901346c8d46f4529882fb63d")}


class InvertedResidual(nn.Layer):
    """1x1 expand (when ``expand_ratio != 1``), 3x3 depthwise, 1x1 project, all in ``conv``;
    a residual add at stride 1 with equal widths."""

    def __init__(self, inp, oup, stride, expand_ratio, norm_layer=nn.BatchNorm2D):
        super().__init__()
        assert stride in [1, 2]
        self.stride = stride
        hidden = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        parts = []
        if expand_ratio != 1:
            parts.append(ConvNormActivation(inp, hidden, kernel_size=1, norm_layer=norm_layer,
                                            activation_layer=nn.ReLU6))
        parts += [ConvNormActivation(hidden, hidden, stride=stride, groups=hidden,
                                     norm_layer=norm_layer, activation_layer=nn.ReLU6),
                  nn.Conv2D(hidden, oup, 1, 1, 0, bias_attr=False), norm_layer(oup)]
        self.conv = nn.Sequential(*parts)

    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


# (expansion t, channels c, repeats n, first stride s)
_SETTING = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1],
            [6, 160, 3, 2], [6, 320, 1, 1]]


class MobileNetV2(nn.Layer):
    """MobileNetV2 with width multiplier ``scale``."""

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        norm = nn.BatchNorm2D
        channels = _make_divisible(32 * scale, 8)
        self.last_channel = _make_divisible(1280 * max(1.0, scale), 8)
        parts = [ConvNormActivation(3, channels, stride=2, norm_layer=norm,
                                    activation_layer=nn.ReLU6)]
        for t, c, n, s in _SETTING:
            out = _make_divisible(c * scale, 8)
            for i in range(n):
                parts.append(InvertedResidual(channels, out, s if i == 0 else 1, expand_ratio=t,
                                              norm_layer=norm))
                channels = out
        parts.append(ConvNormActivation(channels, self.last_channel, kernel_size=1,
                                        norm_layer=norm, activation_layer=nn.ReLU6))
        self.features = nn.Sequential(*parts)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(nn.Dropout(0.2),
                                            nn.Linear(self.last_channel, num_classes))

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.classifier(flatten(x, 1))
        return x


def mobilenet_v2(pretrained=False, scale=1.0, **kwargs):
    """MobileNetV2 (pretrained weights exist for ``scale=1.0``)."""
    model = MobileNetV2(scale=scale, **kwargs)
    if pretrained:
        load_pretrained(model, "mobilenetv2_" + str(scale), model_urls, "load_dict")
    return model
