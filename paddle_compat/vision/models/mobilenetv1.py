"""MobileNetV1: a stem conv and 13 depthwise-separable blocks named ``conv2_1`` .. ``conv6``."""
from ... import nn
from ...ops.reshaping import flatten
from ._utils import ConvNormActivation, load_pretrained

__all__ = ["MobileNetV1", "mobilenet_v1"]

model_urls = {"mobilenetv1_1.0": ("https://paddle-hapi.bj.bcebos.com/models/mobilenetv1_1.0.pdparams",
                                  "3033ab1975b1670bef51545feb65fc45")}


class DepthwiseSeparable(nn.Layer):
    """A 3x3 depthwise conv-BN-ReLU then a 1x1 pointwise one, widths scaled by ``scale``."""

    def __init__(self, in_channels, out_channels1, out_channels2, num_groups, stride, scale):
        super().__init__()
        mid = int(out_channels1 * scale)
        self._depthwise_conv = ConvNormActivation(in_channels, mid, kernel_size=3, stride=stride,
                                                  padding=1, groups=int(num_groups * scale))
        self._pointwise_conv = ConvNormActivation(mid, int(out_channels2 * scale), kernel_size=1,
                                                  stride=1, padding=0)

    def forward(self, x):
        return self._pointwise_conv(self._depthwise_conv(x))


# (name, in channels, depthwise channels, pointwise channels, stride), widths before scaling
_BLOCKS = ([("conv2_1", 32, 32, 64, 1), ("conv2_2", 64, 64, 128, 2),
            ("conv3_1", 128, 128, 128, 1), ("conv3_2", 128, 128, 256, 2),
            ("conv4_1", 256, 256, 256, 1), ("conv4_2", 256, 256, 512, 2)]
           + [(f"conv5_{i}", 512, 512, 512, 1) for i in range(1, 6)]
           + [("conv5_6", 512, 512, 1024, 2), ("conv6", 1024, 1024, 1024, 1)])


class MobileNetV1(nn.Layer):
    """MobileNetV1 with width multiplier ``scale``."""

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.dwsl = []
        self.conv1 = ConvNormActivation(in_channels=3, out_channels=int(32 * scale),
                                        kernel_size=3, stride=2, padding=1)
        for name, cin, c1, c2, stride in _BLOCKS:
            block = DepthwiseSeparable(int(cin * scale), c1, c2, c1, stride, scale)
            self.dwsl.append(self.add_sublayer(name, block))
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x):
        x = self.conv1(x)
        for block in self.dwsl:
            x = block(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.fc(flatten(x, 1))
        return x


def mobilenet_v1(pretrained=False, scale=1.0, **kwargs):
    """MobileNetV1 (pretrained weights exist for ``scale=1.0``)."""
    model = MobileNetV1(scale=scale, **kwargs)
    if pretrained:
        load_pretrained(model, "mobilenetv1_" + str(scale), model_urls, "load_dict")
    return model
