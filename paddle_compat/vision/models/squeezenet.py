"""SqueezeNet 1.0 and 1.1: a stem conv, eight fire modules ``_conv1`` .. ``_conv8`` and the 1x1
classifier conv ``_conv9``."""
from ... import nn
from ...framework.param_attr import ParamAttr
from ...nn import functional as F
from ...ops.joining import concat
from ...ops.reshaping import squeeze
from ._utils import load_pretrained

__all__ = ["SqueezeNet", "squeezenet1_0", "squeezenet1_1"]

_BASE = "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/"
model_urls = {
    "squeezenet1_0": (_BASE + "SqueezeNet1_0_pretrained.pdparams",
                      "30b95af60a2178f03cf9b66cd77e1db1"),
    "squeezenet1_1": (_BASE + "SqueezeNet1_1_pretrained.pdparams",
                      "a11250d3a1f91d7131fd095ebbf09eee"),
}


class MakeFireConv(nn.Layer):
    """Conv then ReLU."""

    def __init__(self, input_channels, output_channels, filter_size, padding=0):
        super().__init__()
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, padding=padding,
                               weight_attr=ParamAttr(), bias_attr=ParamAttr())

    def forward(self, x):
        return F.relu(self._conv(x))


class MakeFire(nn.Layer):
    """A fire module: 1x1 squeeze, then 1x1 and 3x3 expands concatenated on channels."""

    def __init__(self, input_channels, squeeze_channels, expand1x1_channels, expand3x3_channels):
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze_channels, 1)
        self._conv_path1 = MakeFireConv(squeeze_channels, expand1x1_channels, 1)
        self._conv_path2 = MakeFireConv(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, inputs):
        x = self._conv(inputs)
        return concat([self._conv_path1(x), self._conv_path2(x)], axis=1)


# fire modules (in, squeeze, expand1x1, expand3x3); the same for both versions but the first
_FIRES = [(16, 64, 64), (16, 64, 64), (32, 128, 128), (32, 128, 128), (48, 192, 192),
          (48, 192, 192), (64, 256, 256), (64, 256, 256)]


class SqueezeNet(nn.Layer):
    """SqueezeNet of ``version`` "1.0" or "1.1"."""

    def __init__(self, version, num_classes=1000, with_pool=True):
        super().__init__()
        self.version = version
        self.num_classes = num_classes
        self.with_pool = with_pool
        supported = ["1.0", "1.1"]
        assert version in supported, (f"supported versions are {supported} but input version "
                                      f"is {version}")
        if version == "1.0":
            self._conv = nn.Conv2D(3, 96, 7, stride=2, weight_attr=ParamAttr(),
                                   bias_attr=ParamAttr())
            channels = 96
        else:
            self._conv = nn.Conv2D(3, 64, 3, stride=2, padding=1, weight_attr=ParamAttr(),
                                   bias_attr=ParamAttr())
            channels = 64
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        for i, (sq, e1, e3) in enumerate(_FIRES, start=1):
            setattr(self, f"_conv{i}", MakeFire(channels, sq, e1, e3))
            channels = e1 + e3
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = nn.Conv2D(512, num_classes, 1, weight_attr=ParamAttr(),
                                bias_attr=ParamAttr())
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs):
        x = self._pool(F.relu(self._conv(inputs)))
        # after which fire modules a max pool follows
        pools = (3, 7) if self.version == "1.0" else (2, 4)
        for i in range(1, 9):
            x = getattr(self, f"_conv{i}")(x)
            if i in pools:
                x = self._pool(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = squeeze(self._avg_pool(F.relu(x)), axis=[2, 3])
        return x


def squeezenet1_0(pretrained=False, **kwargs):
    """SqueezeNet 1.0."""
    model = SqueezeNet("1.0", **kwargs)
    if pretrained:
        load_pretrained(model, "squeezenet1_0", model_urls, "set_dict")
    return model


def squeezenet1_1(pretrained=False, **kwargs):
    """SqueezeNet 1.1."""
    model = SqueezeNet("1.1", **kwargs)
    if pretrained:
        load_pretrained(model, "squeezenet1_1", model_urls, "set_dict")
    return model
